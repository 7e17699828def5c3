//! A whole 越式13张 game as a checked record (RULES 2.4–2.6): from the dealt hands and
//! the actions so far, across every round, the state — instant win at the deal, whose
//! turn, the table, who passed, which passed seats may chop now, the legal plays, each
//! seat's cards left, the chops so far, the winner — and a refusal, with its [`Reason`],
//! of every action the record does not allow.
//!
//! The rounds are [`RoundState`]s; this module adds what a round does not know: the
//! hands (a card must be held to be played), the first lead, the chain of rounds and the
//! end of the game (the first seat out wins, RULES 2.6).

use super::instant::{instant_winner, InstantWin};
use super::play::{legal_plays, sorted, text, Play};
use super::round::{chop_chain, first_leader, first_round, Action, RoundState, Transfer};
use super::rules::{check_dealt_hand, check_player_count, check_players, Rules, MAX_PLAYERS};
use super::settle::{settle, settle_instant, Settlement};
use crate::cards::{check_distinct_across, Card};
use crate::error::{Error, Reason, Result};
use crate::money;

use crate::cards::check_record_len;
/// The most actions a game record can hold: 52 cards are at most 52 plays, and after a
/// play at most three seats pass before the next play or the round's end.
pub use crate::cards::MAX_RECORD_ACTIONS as MAX_ACTIONS;

/// The state of a game after the actions of its record. Immutable in use:
/// [`Game::apply`] returns the next state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    pub players: usize,
    /// The dealt hands, in the game's order.
    hands: Vec<Vec<Card>>,
    /// Cards each seat still holds (bit masks).
    held: Vec<u64>,
    /// Every action applied, in order.
    pub history: Vec<(usize, Action)>,
    /// The round being played (the last one, once the game is over).
    pub current: RoundState,
    /// Number of rounds finished before `current`.
    pub round_no: usize,
    /// The chop chain of each round that had one: (payer, payee, value in bases).
    pub chops: Vec<(usize, usize, i64)>,
    /// Every round (trick) of the record so far, the current one last (none before the
    /// first action).
    pub tricks: Vec<Trick>,
    /// The first seat out, or the instant winner.
    pub winner: Option<usize>,
    /// The instant win (RULES 2.5) that ended the game at the deal.
    pub instant: Option<InstantWin>,
    rules: Rules,
}

/// A round (trick) of a game record: the actions `first_action..=last_action` of the
/// record, led by `leader`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Trick {
    /// The round's index (0 = the first).
    pub round: usize,
    pub leader: usize,
    pub first_action: usize,
    /// The round's last action so far.
    pub last_action: usize,
    /// The round ended with the play on the table left unbeaten (a new round began). The
    /// round in which a seat goes out stays open: the game ended instead.
    pub over: bool,
    /// When over: the seat whose play ended it, who leads the next round.
    pub won_by: Option<usize>,
    /// Its chop chain's payment (payer, payee, value in bases), set when the round closes
    /// (a later chop in the round redirects it until then).
    pub chop: Option<(usize, usize, i64)>,
}

/// A record of more than 4 hands is refused before any hand is read.
pub fn check_hands_len(n: usize) -> Result<()> {
    if n > MAX_PLAYERS {
        return Err(check_player_count(n as i64, &format!("{n} hands")).unwrap_err().within("hands"));
    }
    Ok(())
}

fn mask(cards: &[Card]) -> u64 {
    cards.iter().fold(0, |m, c| m | c.bit())
}

fn cards_of(mask: u64) -> Vec<Card> {
    sorted(&crate::cards::CardSet(mask).cards())
}

impl Game {
    /// A new game: `hands[seat]` are that seat's 13 dealt cards (2–4 seats).
    pub fn new(hands: &[Vec<Card>], rules: &Rules) -> Result<Game> {
        rules.validate().map_err(|e| e.within("rules").because(Reason::BadRule))?;
        check_players(hands.len()).map_err(|e| Error::field("hands", e.message).because(Reason::WrongCount))?;
        for (i, h) in hands.iter().enumerate() {
            check_dealt_hand(h, &format!("hands[{i}]"))?;
        }
        let groups: Vec<(String, &[Card])> = hands.iter().enumerate().map(|(i, h)| (format!("hands[{i}]"), h.as_slice())).collect();
        check_distinct_across(&groups)?;
        let players = hands.len();
        let (wins, best) = instant_winner(hands)?;
        let (leader, must) = first_round(None, first_leader(hands)?, rules.first_lead_must_contain_lowest)?;
        let mut current = RoundState::new(players, leader, must, rules)?;
        if best.is_some() {
            current.to_move = None;
        }
        Ok(Game {
            players,
            hands: hands.iter().map(|h| sorted(h)).collect(),
            held: hands.iter().map(|h| mask(h)).collect(),
            history: Vec::new(),
            current,
            round_no: 0,
            chops: Vec::new(),
            tricks: Vec::new(),
            winner: best,
            instant: best.and_then(|w| wins[w].as_ref().map(|h| h.kind)),
            rules: rules.clone(),
        })
    }

    /// Replay a record; an error names the action (`actions[i]`). A record longer than
    /// [`MAX_ACTIONS`] is refused before anything is replayed.
    pub fn replay(hands: &[Vec<Card>], actions: &[(usize, Action)], rules: &Rules) -> Result<Game> {
        check_record_len(actions.len(), "actions")?;
        let mut g = Game::new(hands, rules)?;
        for (i, (seat, a)) in actions.iter().enumerate() {
            g.apply_mut(*seat, a).map_err(|e| e.within_action("actions", i))?;
        }
        Ok(g)
    }

    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    pub fn hands(&self) -> &[Vec<Card>] {
        &self.hands
    }

    /// The cards `seat` still holds, in the game's order.
    pub fn held(&self, seat: usize) -> Vec<Card> {
        cards_of(self.held[seat])
    }

    /// The cards `seat` has played so far (a bit mask): public, from the record.
    pub(crate) fn played_mask(&self, seat: usize) -> u64 {
        mask(&self.hands[seat]) & !self.held[seat]
    }

    /// The cards `seat` holds (a bit mask).
    pub(crate) fn held_mask(&self, seat: usize) -> u64 {
        self.held[seat]
    }

    /// Give `seat` other cards still to play (its played cards stay): how a seat's view
    /// hides the others' hands and how a sampled deal is put in their place.
    pub(crate) fn set_held(&mut self, seat: usize, held: u64) {
        let played = self.played_mask(seat);
        self.held[seat] = held;
        self.hands[seat] = cards_of(played | held);
    }

    pub fn played_any(&self, seat: usize) -> bool {
        self.held[seat] != mask(&self.hands[seat])
    }

    pub fn is_over(&self) -> bool {
        self.winner.is_some()
    }

    /// The seat to move in turn (`None` once the game is over).
    pub fn turn(&self) -> Option<usize> {
        if self.is_over() {
            None
        } else {
            self.current.to_move
        }
    }

    /// The play to beat and its seat (`None` on a lead).
    pub fn table(&self) -> Option<&(usize, Play)> {
        self.current.table()
    }

    /// Seats that passed in the current round.
    pub fn passed(&self) -> Vec<usize> {
        (0..self.players).filter(|&s| self.current.passed[s]).collect()
    }

    /// The card the next play must contain (the first lead, under the rule).
    pub fn must_contain(&self) -> Option<Card> {
        if self.history.is_empty() && !self.is_over() {
            self.current.must_contain
        } else {
            None
        }
    }

    /// Every play the seat in turn may make, weakest first.
    pub fn legal_plays(&self) -> Vec<Play> {
        let Some(seat) = self.turn() else { return Vec::new() };
        let hand = self.held(seat);
        let mut plays = legal_plays(&hand, self.table().map(|t| &t.1), false).unwrap_or_default();
        if let Some(c) = self.must_contain() {
            plays.retain(|p| p.cards.contains(&c));
        }
        plays
    }

    /// Whether the seat in turn may pass (not on a lead).
    pub fn may_pass(&self) -> bool {
        self.turn().is_some() && self.table().is_some()
    }

    /// The passed seats that may chop the table now (out of turn), with their chops.
    pub fn chop_offers(&self) -> Vec<(usize, Vec<Play>)> {
        (0..self.players).map(|s| (s, self.chops_open_to(s))).filter(|(_, p)| !p.is_empty()).collect()
    }

    /// The chops `seat` may make now out of turn: it passed, the rule `chop_window` keeps
    /// its chance open (RULES 2.4) and it holds a special that beats the table.
    pub fn chops_open_to(&self, seat: usize) -> Vec<Play> {
        match self.table().filter(|_| !self.is_over() && seat < self.players && self.current.chop_window_open(seat)) {
            Some((_, table)) => legal_plays(&self.held(seat), Some(table), true).unwrap_or_default(),
            None => Vec::new(),
        }
    }

    /// Why `seat` may not make `action` now (with its [`Reason`]), or the next state.
    pub fn apply(&self, seat: usize, action: &Action) -> Result<Game> {
        let mut next = self.clone();
        next.apply_mut(seat, action)?;
        Ok(next)
    }

    /// [`apply`](Self::apply) in place (a record is replayed without a copy of the state
    /// per action); on an error the state is unchanged.
    pub fn apply_mut(&mut self, seat: usize, action: &Action) -> Result<()> {
        if seat >= self.players {
            return Err(
                Error::field("seat", format!("seat {seat} is not in the game (seats 0..{})", self.players - 1)).because(Reason::OutOfRange)
            );
        }
        if let Some(w) = self.winner {
            let why = match self.instant {
                Some(k) => format!("the game is over: seat {w} won at the deal with {} ({})", k.name(), k.name_zh()),
                None => format!("the game is over: seat {w} has played all its cards"),
            };
            return Err(Error::new(why).because(Reason::GameOver));
        }
        if let Action::Play(cards) = action {
            let p = super::play::classify(cards).map_err(|e| e.within("cards"))?;
            let missing = p.mask() & !self.held[seat];
            if missing != 0 {
                let c = Card(missing.trailing_zeros() as u8);
                let why = match (0..self.players).find(|&s| self.held[s] & c.bit() != 0) {
                    Some(o) => format!("seat {seat} does not hold {c} (seat {o} does)"),
                    None if self.hands[seat].contains(&c) => format!("seat {seat} has already played {c}"),
                    None => format!("seat {seat} does not hold {c}, which has already been played"),
                };
                return Err(Error::field("cards", why).because(Reason::CardNotInHand));
            }
        }
        let (round_no, leader) = (self.round_no, self.current.leader);
        self.current.apply(seat, action).map_err(|e| match (e.field.is_none(), e.reason) {
            (true, Reason::NotYourTurn) => Error::field("seat", e.message).because(Reason::NotYourTurn),
            (true, Reason::DoesNotBeat) => Error::field("cards", e.message).because(Reason::DoesNotBeat),
            _ => e,
        })?;
        // The round this action belongs to (a new one when the last ended).
        let k = self.history.len();
        if self.tricks.last().is_none_or(|t| t.round != round_no) {
            self.tricks.push(Trick { round: round_no, leader, first_action: k, last_action: k, over: false, won_by: None, chop: None });
        }
        if let Some(t) = self.tricks.last_mut() {
            t.last_action = k;
        }
        // Cards in the game's order, so equal records give equal states.
        self.history.push((
            seat,
            match action {
                Action::Play(c) => Action::Play(sorted(c)),
                Action::Pass => Action::Pass,
            },
        ));
        if let Action::Play(cards) = action {
            self.held[seat] &= !mask(cards);
            if self.held[seat] == 0 {
                // The first seat out wins; the round's chop chain, if any, ends here.
                self.winner = Some(seat);
                self.current.to_move = None;
                self.close_round();
                return Ok(());
            }
        }
        if let Some(next) = self.current.next_leader() {
            self.close_round();
            self.current = RoundState::new(self.players, next, None, &self.rules)?;
            self.round_no += 1;
            if let Some(t) = self.tricks.last_mut() {
                (t.over, t.won_by) = (true, Some(next));
            }
        }
        Ok(())
    }

    fn close_round(&mut self) {
        if let Some((_, value, from, to)) = chop_chain(&self.current.plays) {
            self.chops.push((from, to, value));
            if let Some(t) = self.tricks.last_mut() {
                t.chop = Some((from, to, value));
            }
        }
    }

    /// The chop payments so far at `base`.
    pub fn chop_transfers(&self, base: i64) -> Result<Vec<Transfer>> {
        money::check_base(base)?;
        self.chops.iter().map(|&(from, to, v)| Ok(Transfer { from, to, amount: money::mul(base, v, "chop payment")? })).collect()
    }

    /// Settle the finished game from its record (RULES 2.6): the cards left, who played
    /// no card, the 2s and specials left and the chops are derived; an instant win is
    /// settled as one.
    pub fn settle(&self, base: i64, carried: Option<&[Option<i64>]>) -> Result<Settlement> {
        let Some(winner) = self.winner else {
            let turn = self.current.to_move.map_or(String::new(), |t| format!(" (seat {t} to move)"));
            return Err(Error::new(format!("the game is not over{turn}: nobody has played all their cards")).because(Reason::IllegalAction));
        };
        if self.instant.is_some() {
            return settle_instant(&self.hands, base, carried, &self.rules);
        }
        let remaining: Vec<Vec<Card>> = (0..self.players).map(|s| self.held(s)).collect();
        let played: Vec<bool> = (0..self.players).map(|s| self.played_any(s)).collect();
        let chops = self.chop_transfers(base)?;
        settle(&remaining, winner, base, Some(&played), &chops, carried, &self.rules)
    }

    /// A short description of the state (for messages and the CLI).
    pub fn describe(&self) -> String {
        match (self.winner, self.turn(), self.table()) {
            (Some(w), _, _) => format!("over: seat {w} wins"),
            (None, Some(t), Some((s, p))) => format!("seat {t} to move on seat {s}'s {} {}", p.kind().name_zh(), text(&p.cards)),
            (None, Some(t), None) => format!("seat {t} leads"),
            _ => "over".into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::cards;
    use proptest::prelude::*;

    fn hands4() -> Vec<Vec<Card>> {
        [
            "3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks 2c 2d",
            "3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh 2s 2h",
            "3d 4d 5d 6d 7d 8d 9d Td Jd Qd Kd Kc Qc",
            "3c 4c 5c 6c 7c 8c 9c Tc Jc Ad As Ac Ah",
        ]
        .iter()
        .map(|h| cards(h))
        .collect()
    }

    fn act(a: &str) -> Action {
        if a == "pass" {
            Action::Pass
        } else {
            Action::Play(cards(a))
        }
    }

    #[test]
    fn a_short_game_and_its_settlement() {
        let g = Game::new(&hands4(), &Rules::default()).unwrap();
        assert_eq!((g.turn(), g.instant), (Some(0), None));
        let rec: Vec<(usize, Action)> = [(0, "3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks"), (1, "pass"), (2, "pass"), (3, "pass"), (0, "2c 2d")]
            .iter()
            .map(|&(s, a)| (s, act(a)))
            .collect();
        let g = Game::replay(&hands4(), &rec, &Rules::default()).unwrap();
        assert_eq!(g.winner, Some(0));
        assert_eq!(g.round_no, 1);
        let s = g.settle(1, None).unwrap();
        assert_eq!(s.deltas.iter().sum::<i64>() + s.rake, 0);
        // Seat 1 keeps 2s 2h (red 5 + black 2) and played no card: 26 + 7.
        assert_eq!(s.pays[1], 26 + 7);
    }

    #[test]
    fn reasons_and_fields() {
        let g = Game::new(&hands4(), &Rules::default()).unwrap();
        let e = g.apply(1, &act("3h")).unwrap_err();
        assert_eq!(e.reason, Reason::NotYourTurn, "{e}");
        let e = g.apply(0, &act("As")).unwrap_err();
        assert_eq!((e.reason, e.field.as_deref()), (Reason::CardNotInHand, Some("cards")), "{e}");
        assert!(e.message.contains("seat 3 does"), "{e}");
        let e = g.apply(0, &act("3s 5s")).unwrap_err();
        assert_eq!(e.reason, Reason::NotAPlay);
        let e = g.apply(0, &act("pass")).unwrap_err();
        assert_eq!(e.reason, Reason::IllegalAction);
        let g = g.apply(0, &act("5s")).unwrap();
        let e = g.apply(1, &act("4h")).unwrap_err();
        assert_eq!(e.reason, Reason::DoesNotBeat);
        let e = g.apply(1, &act("5s")).unwrap_err();
        assert_eq!(e.reason, Reason::CardNotInHand);
        assert!(e.message.contains("already been played"), "{e}");
        let rec = vec![(0, act("5s")), (1, act("6h")), (1, act("7h"))];
        let e = Game::replay(&hands4(), &rec, &Rules::default()).unwrap_err();
        assert_eq!((e.field.as_deref(), e.reason), (Some("actions[2].seat"), Reason::NotYourTurn));
        let rec = vec![(0, act("5s")), (1, act("3h 4h"))];
        let e = Game::replay(&hands4(), &rec, &Rules::default()).unwrap_err();
        assert_eq!((e.field.as_deref(), e.reason), (Some("actions[1].cards"), Reason::NotAPlay));
        let long = vec![(0, Action::Pass); MAX_ACTIONS + 1];
        assert_eq!(Game::replay(&hands4(), &long, &Rules::default()).unwrap_err().reason, Reason::TooLarge);
        let must = Rules { first_lead_must_contain_lowest: true, ..Rules::default() };
        let g = Game::new(&hands4(), &must).unwrap();
        assert_eq!(g.must_contain(), Some(cards("3s")[0]));
        assert!(g.legal_plays().iter().all(|p| p.cards.contains(&cards("3s")[0])));
        assert_eq!(g.apply(0, &act("4s")).unwrap_err().reason, Reason::IllegalAction);
    }

    #[test]
    fn chop_offers_and_chops() {
        let rec: Vec<(usize, Action)> =
            [(0, "3s"), (1, "4h"), (2, "5d"), (3, "pass"), (0, "2d")].iter().map(|&(s, a)| (s, act(a))).collect();
        let g = Game::replay(&hands4(), &rec, &Rules::default()).unwrap();
        assert_eq!(g.turn(), Some(1));
        // Seat 3 passed and holds four aces: it may chop the 2 now, out of turn.
        let offers = g.chop_offers();
        assert_eq!(offers.len(), 1);
        assert_eq!((offers[0].0, offers[0].1[0].cards.clone()), (3, sorted(&cards("Ad As Ac Ah"))));
        // Anything else from the passed seat is refused.
        assert_eq!(g.apply(3, &act("Jc")).unwrap_err().reason, Reason::IllegalAction);
        let g = g.apply(3, &act("Ad As Ac Ah")).unwrap();
        assert_eq!(g.turn(), Some(0), "from the chopper: the next seat after it");
        let g = g.apply(0, &act("pass")).unwrap().apply(1, &act("pass")).unwrap().apply(2, &act("pass")).unwrap();
        assert_eq!((g.round_no, g.turn()), (1, Some(3)));
        assert_eq!(g.chops, vec![(0, 3, 3)]);
        // One trick so far, over: actions 0..=8, won by the chopper, who leads next.
        assert_eq!(
            g.tricks,
            vec![Trick { round: 0, leader: 0, first_action: 0, last_action: 8, over: true, won_by: Some(3), chop: Some((0, 3, 3)) }]
        );
        let g = g.apply(3, &act("3c")).unwrap();
        assert_eq!(g.tricks[1], Trick { round: 1, leader: 3, first_action: 9, last_action: 9, over: false, won_by: None, chop: None });
        assert_eq!(g.chop_transfers(10).unwrap(), vec![Transfer { from: 0, to: 3, amount: 30 }]);
    }

    #[test]
    fn instant_win_ends_the_game_at_the_deal() {
        let mut h = hands4();
        // Seat 3 gets four 2s.
        h[3] = cards("3c 4c 5c 6c 7c 8c 9c Tc Jc 2c 2d 2s 2h");
        h[0] = cards("3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks Ac Ad");
        h[1] = cards("3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh As Ah");
        let g = Game::new(&h, &Rules::default()).unwrap();
        assert!(g.is_over());
        assert_eq!(g.apply(0, &act("3s")).unwrap_err().reason, Reason::GameOver);
        let s = g.settle(10, None).unwrap();
        assert_eq!(s.deltas.iter().sum::<i64>() + s.rake, 0);
    }

    fn deal(seed: u64, players: usize) -> Vec<Vec<Card>> {
        let mut deck: Vec<u8> = (0..52).collect();
        let mut x = seed | 1;
        for i in (1..52).rev() {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            deck.swap(i, (x % (i as u64 + 1)) as usize);
        }
        (0..players).map(|p| deck[p * 13..p * 13 + 13].iter().map(|&id| Card(id)).collect()).collect()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        /// Random games played to the end through legal actions (chops by passed seats
        /// included): every offered play is accepted, random other actions are refused,
        /// money is zero-sum and the record stays within MAX_ACTIONS.
        #[test]
        fn random_games(seed in any::<u64>(), players in 2usize..=4, picks in proptest::collection::vec(any::<u32>(), 300)) {
            let hands = deal(seed, players);
            let mut g = Game::new(&hands, &Rules::default()).unwrap();
            let mut k = 0;
            while !g.is_over() {
                let pick = picks[k % picks.len()] as usize;
                k += 1;
                prop_assert!(k < 1000);
                // A wrong seat is refused with NotYourTurn (unless it may chop).
                let t = g.turn().unwrap();
                let other = (t + 1 + pick % (players - 1)) % players;
                if let Some(p) = g.legal_plays().first() {
                    if !g.current.passed[other] {
                        let e = g.apply(other, &Action::Play(p.cards.clone())).unwrap_err();
                        prop_assert!(matches!(e.reason, Reason::NotYourTurn | Reason::CardNotInHand), "{e}");
                    }
                }
                let offers = g.chop_offers();
                let mut choices: Vec<(usize, Action)> = g.legal_plays().into_iter().map(|p| (t, Action::Play(p.cards))).collect();
                if g.may_pass() { choices.push((t, Action::Pass)); }
                for (s, plays) in offers { for p in plays { choices.push((s, Action::Play(p.cards))); } }
                prop_assert!(!choices.is_empty());
                // Prefer passing now and then so rounds end.
                let (s, a) = if g.may_pass() && pick % 3 == 0 { (t, Action::Pass) } else { choices[pick % choices.len()].clone() };
                g = g.apply(s, &a).unwrap();
                prop_assert!(g.history.len() <= MAX_ACTIONS);
            }
            let again = Game::replay(&hands, &g.history, &Rules::default()).unwrap();
            prop_assert_eq!(&again, &g);
            let s = g.settle(3, None).unwrap();
            prop_assert_eq!(s.deltas.iter().sum::<i64>() + s.rake, 0);
        }
    }
}
