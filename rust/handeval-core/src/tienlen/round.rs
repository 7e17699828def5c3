//! A round of play (RULES 2.4) and its 压牌 chop chain (RULES 2.6).
//!
//! Model: seats `0..players` play counter-clockwise (0 → 1 → 2 → 3 → 0). The turn goes to
//! the next seat that has neither passed nor made the play on the table. A seat that
//! passed keeps no turn, but may still chop (out of turn, like a real table) with a
//! special that beats the table while the rule `chop_window` keeps the chance open
//! (default: at once, right after the play, or right after its own pass on it, before the
//! next player in turn acts); it stays passed, and the rule `turn_after_chop` says who
//! moves next (default: the seat after the chopper). The round ends when every seat but
//! the one whose play is on the table has passed; that seat leads the next round.

use super::play::{beats_key, classify, strength, text, why_not, Play};
use super::rules::{check_hand_at_most, check_players, check_seat, ChopWindow, Rules, TurnAfterChop, MAX_PLAYERS, MIN_PLAYERS};
use crate::cards::Card;
use crate::error::{Error, Reason, Result};
use crate::money;

/// One entry of a round: a pass (跳过) or a set of cards.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    Pass,
    Play(Vec<Card>),
}

/// A chop payment: `from` pays `amount` to `to`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Transfer {
    pub from: usize,
    pub to: usize,
    pub amount: i64,
}

/// The seat holding the lowest card dealt (normally 3♠) and that card (RULES 2.4).
pub fn first_leader(hands: &[Vec<Card>]) -> Result<(usize, Card)> {
    check_players(hands.len()).map_err(|e| e.within("hands"))?;
    let groups: Vec<(String, &[Card])> = hands.iter().enumerate().map(|(i, h)| (format!("hands[{i}]"), h.as_slice())).collect();
    crate::cards::check_distinct_across(&groups)?;
    let mut best: Option<(u8, usize, Card)> = None;
    for (seat, h) in hands.iter().enumerate() {
        check_hand_at_most(h.len(), &format!("hands[{seat}]"))?;
        for &c in h {
            if best.is_none_or(|b| strength(c) < b.0) {
                best = Some((strength(c), seat, c));
            }
        }
    }
    best.map(|(_, s, c)| (s, c)).ok_or_else(|| Error::field("hands", "no cards were dealt"))
}

/// The game's first round (RULES 2.4): the holder of the lowest card dealt leads it and,
/// with `must_contain` (the rule `first_lead_must_contain_lowest`), its first play must
/// contain that card. A `leader` given beside the first lead must be that holder
/// (INCONSISTENT at `leader`). Returns the leader and the card the first play must contain.
pub fn first_round(leader: Option<usize>, first_lead: (usize, Card), must_contain: bool) -> Result<(usize, Option<Card>)> {
    let (holder, card) = first_lead;
    if let Some(l) = leader.filter(|&l| l != holder) {
        return Err(
            Error::field("leader", format!("seat {l} does not hold {card}; seat {holder} leads first")).because(Reason::Inconsistent)
        );
    }
    Ok((holder, must_contain.then_some(card)))
}

/// The state of a round after some actions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoundState {
    pub players: usize,
    pub leader: usize,
    /// The plays so far, in order, with their seats.
    pub plays: Vec<(usize, Play)>,
    pub passed: Vec<bool>,
    /// Whose turn it is; `None` once the round is over.
    pub to_move: Option<usize>,
    /// The card the round's first play must contain (the game's first round, when the
    /// rule `first_lead_must_contain_lowest` is on).
    pub must_contain: Option<Card>,
    /// The rule `turn_after_chop` this round follows.
    pub turn_after_chop: TurnAfterChop,
    /// The rule `chop_window` this round follows.
    pub chop_window: ChopWindow,
    used: u64,
    /// Passes since the table's play, and the seat of the last one: what `chop_window`
    /// reads (RULES 2.4). Every action since the play is a pass (a play resets them).
    passes_since_play: u32,
    last_passer: usize,
}

impl RoundState {
    pub fn new(players: usize, leader: usize, must_contain: Option<Card>, rules: &Rules) -> Result<RoundState> {
        check_players(players).map_err(|e| e.within("players"))?;
        check_seat(leader, players, "leader")?;
        Ok(RoundState {
            players,
            leader,
            plays: Vec::new(),
            passed: vec![false; players],
            to_move: Some(leader),
            must_contain,
            turn_after_chop: rules.turn_after_chop,
            chop_window: rules.chop_window,
            used: 0,
            passes_since_play: 0,
            last_passer: 0,
        })
    }

    /// The play on the table and its seat.
    pub fn table(&self) -> Option<&(usize, Play)> {
        self.plays.last()
    }

    pub fn is_over(&self) -> bool {
        self.to_move.is_none()
    }

    /// Whether `seat`, which passed, may chop the play on the table now under the rule
    /// `chop_window` (RULES 2.4). The actions since the play are all passes, so "no other
    /// player has acted" is "no pass, or only its own pass as the first".
    pub fn chop_window_open(&self, seat: usize) -> bool {
        let (since, own_last) = (self.passes_since_play, self.passes_since_play > 0 && self.last_passer == seat);
        self.passed[seat]
            && !self.is_over()
            && self.table().is_some_and(|t| t.0 != seat)
            && match self.chop_window {
                ChopWindow::FirstActor => since == 0 || (since == 1 && own_last),
                ChopWindow::Strict => since == 0,
                ChopWindow::OwnPass => since == 0 || own_last,
                ChopWindow::Open => true,
            }
    }

    /// What decides the rest of the round, packed for a search's table of positions: the
    /// table's cards, and who passed, who moves, who owns the table and the chop window's
    /// counters (the plays under the table only count for the chop chain's money).
    pub(crate) fn search_key(&self) -> (u64, u32) {
        let table = self.table().map_or(0, |t| t.1.mask());
        let owner = self.table().map_or(7, |t| t.0 as u32);
        let passed = self.passed.iter().enumerate().fold(0u32, |m, (i, &p)| m | (u32::from(p) << i));
        let to_move = self.to_move.map_or(7, |t| t as u32);
        // `chop_window_open` reads only whether there were 0, 1 or more passes.
        let last_passer = if self.passes_since_play == 0 { 0 } else { self.last_passer as u32 };
        (table, passed | to_move << 4 | owner << 7 | self.passes_since_play.min(2) << 10 | last_passer << 12)
    }

    /// A copy keeping only the play on the table of the round's plays: the rest of the
    /// round goes the same (the plays under the table only count for the chop chain's
    /// money), and a search copies rounds at every step.
    pub(crate) fn without_history(&self) -> RoundState {
        RoundState {
            players: self.players,
            leader: self.leader,
            plays: self.plays.last().cloned().into_iter().collect(),
            passed: self.passed.clone(),
            to_move: self.to_move,
            must_contain: self.must_contain,
            turn_after_chop: self.turn_after_chop,
            chop_window: self.chop_window,
            used: self.used,
            passes_since_play: self.passes_since_play,
            last_passer: self.last_passer,
        }
    }

    /// Forgets which cards were played in the round, so they may be played again: for a
    /// search whose adversary's played cards stay unseen (its next position is then its
    /// key, [`search_key`](Self::search_key), alone).
    pub(crate) fn forget_played(&mut self) {
        self.used = 0;
    }

    /// The seat that leads the next round, once this one is over.
    pub fn next_leader(&self) -> Option<usize> {
        if self.is_over() {
            self.table().map(|t| t.0)
        } else {
            None
        }
    }

    /// Check an action without applying it. The outer error is bad input (a seat not in
    /// the game, a set that is not a play, a card already played); the inner `Err` says
    /// why the action is not allowed now. `Ok(Ok(play))` carries the classified play.
    pub fn check(&self, seat: usize, action: &Action) -> Result<std::result::Result<Option<Play>, String>> {
        Ok(self.check_reason(seat, action)?.map_err(|e| e.message))
    }

    /// [`check`](Self::check) with the inner error as an [`Error`] carrying its
    /// [`Reason`] (`NotYourTurn`, `DoesNotBeat`, `IllegalAction`, `GameOver`).
    pub fn check_reason(&self, seat: usize, action: &Action) -> Result<std::result::Result<Option<Play>, Error>> {
        check_seat(seat, self.players, "seat")?;
        let play = match action {
            Action::Pass => None,
            Action::Play(cards) => {
                let p = classify(cards).map_err(|e| e.within("cards"))?;
                let again = p.mask() & self.used;
                if again != 0 {
                    return Err(Error::field(
                        "cards",
                        format!("card {} was already played in this round", Card(again.trailing_zeros() as u8)),
                    )
                    .because(Reason::CardNotInHand));
                }
                Some(p)
            }
        };
        Ok(self.allowed(seat, play))
    }

    fn allowed(&self, seat: usize, play: Option<Play>) -> std::result::Result<Option<Play>, Error> {
        let no = |reason: Reason, msg: String| Err(Error::new(msg).because(reason));
        let Some(to_move) = self.to_move else {
            let l = self.table().map(|t| t.0).unwrap_or(self.leader);
            return no(Reason::IllegalAction, format!("the round is over; seat {l} leads the next round"));
        };
        let table = self.table();
        let Some(play) = play else {
            if self.passed[seat] {
                return no(Reason::IllegalAction, format!("seat {seat} has already passed"));
            }
            if seat != to_move {
                return no(Reason::NotYourTurn, format!("it is seat {to_move}'s turn, not seat {seat}'s"));
            }
            if table.is_none() {
                return no(Reason::IllegalAction, format!("seat {seat} leads this round and may not pass"));
            }
            return Ok(None);
        };
        match table {
            None => {
                if seat != to_move {
                    return no(Reason::NotYourTurn, format!("seat {to_move} leads this round, not seat {seat}"));
                }
                if let Some(c) = self.must_contain {
                    if !play.cards.contains(&c) {
                        return no(
                            Reason::IllegalAction,
                            format!("the first play of the game must contain {c}, the lowest card (rule first_lead_must_contain_lowest)"),
                        );
                    }
                }
            }
            Some((owner, t)) => {
                if *owner == seat {
                    return no(Reason::NotYourTurn, format!("seat {seat}'s own play is on the table"));
                }
                if self.passed[seat] {
                    if !self.chop_window_open(seat) {
                        let when = match self.chop_window {
                            ChopWindow::FirstActor => "only at once, before the next player in turn acts",
                            ChopWindow::Strict => "only right after the play, before any seat acts",
                            ChopWindow::OwnPass => "only at once, or right after its own pass on the play",
                            ChopWindow::Open => "only the play on the table",
                        };
                        return no(
                            Reason::IllegalAction,
                            format!(
                                "seat {seat} has passed and may chop {when} (RULES 2.4, rule chop_window={}); the chance has gone",
                                self.chop_window.as_str()
                            ),
                        );
                    }
                    if !(play.is_special() && beats_key(play.key, t.key)) {
                        return no(
                            Reason::IllegalAction,
                            format!(
                                "seat {seat} has passed and may only chop with a special that beats {} {}",
                                t.kind().name_zh(),
                                text(&t.cards)
                            ),
                        );
                    }
                } else if seat != to_move {
                    return no(Reason::NotYourTurn, format!("it is seat {to_move}'s turn, not seat {seat}'s"));
                } else if let Some(why) = why_not(&play, t) {
                    return no(Reason::DoesNotBeat, why);
                }
            }
        }
        Ok(Some(play))
    }

    /// Apply an action, or say why it is not allowed.
    pub fn apply(&mut self, seat: usize, action: &Action) -> Result<()> {
        let play = self.check_reason(seat, action)??;
        // Only a passed seat's chop comes out of turn (`allowed` refuses anything else).
        let interrupted = self.to_move.filter(|&t| t != seat);
        if play.is_some() {
            self.passes_since_play = 0;
        } else {
            self.passes_since_play += 1;
            self.last_passer = seat;
        }
        match play {
            None => self.passed[seat] = true,
            Some(p) => {
                self.used |= p.mask();
                self.plays.push((seat, p));
            }
        }
        if let (Some(t), TurnAfterChop::Resume) = (interrupted, self.turn_after_chop) {
            // The interrupted seat has not passed and does not own the chop: it moves.
            self.to_move = Some(t);
            return Ok(());
        }
        // Next: the first seat after `seat` that has neither passed nor made the table's play.
        let owner = self.table().map(|t| t.0);
        self.to_move = (1..self.players)
            .map(|k| (seat + k) % self.players)
            .chain(std::iter::once(seat))
            .find(|&s| !self.passed[s] && Some(s) != owner);
        Ok(())
    }

    /// The chop payment of the round so far at `base` (`[]` or one transfer, RULES 2.6).
    pub fn chop_transfers(&self, base: i64) -> Result<Vec<Transfer>> {
        money::check_base(base)?;
        Ok(match chop_chain(&self.plays) {
            Some((_, value, from, to)) => vec![Transfer { from, to, amount: money::mul(base, value, "chop payment")? }],
            None => vec![],
        })
    }

    /// Replay a round; an error names the action (`round[i]`).
    pub fn replay(
        players: usize,
        leader: Option<usize>,
        must_contain: Option<Card>,
        actions: &[(usize, Action)],
        rules: &Rules,
    ) -> Result<RoundState> {
        let leader = match leader {
            Some(l) => l,
            None => match actions.first() {
                // The first action names the leader: a seat out of the game is that
                // action's error.
                Some((s, _)) if (MIN_PLAYERS..=MAX_PLAYERS).contains(&players) => {
                    check_seat(*s, players, "seat").map_err(|e| e.within_action("round", 0))?;
                    *s
                }
                Some((s, _)) => *s,
                None => 0,
            },
        };
        let mut st = RoundState::new(players, leader, must_contain, rules)?;
        for (i, (seat, a)) in actions.iter().enumerate() {
            st.apply(*seat, a).map_err(|e| e.within_action("round", i))?;
        }
        Ok(st)
    }
}

/// The chop chain of a round's plays (RULES 2.6): from the first play a special beat to
/// the last play. Returns `(index of its first play, value, payer, payee)`; `None` when
/// no special beat anything. Assumes a legal sequence (each play beats the one before).
pub(crate) fn chop_chain(plays: &[(usize, Play)]) -> Option<(usize, i64, usize, usize)> {
    // In a legal round only specials beat specials, so once a special has beaten a play,
    // every later play is a special too.
    let first = (1..plays.len()).find(|&j| plays[j].1.is_special())? - 1;
    let value = plays[first..].iter().map(|(_, p)| p.kind().multiplier()).sum();
    let n = plays.len();
    Some((first, value, plays[n - 2].0, plays[n - 1].0))
}

/// The chop payment of one round (`[]` or one transfer), after validating the round
/// under `rules` (its turn order).
pub fn chop_transfers(
    players: usize,
    leader: Option<usize>,
    actions: &[(usize, Action)],
    base: i64,
    rules: &Rules,
) -> Result<Vec<Transfer>> {
    money::check_base(base)?;
    RoundState::replay(players, leader, None, actions, rules)?.chop_transfers(base)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::cards;

    fn acts(v: &[(usize, &str)]) -> Vec<(usize, Action)> {
        v.iter().map(|&(s, a)| (s, if a == "pass" { Action::Pass } else { Action::Play(cards(a)) })).collect()
    }

    #[test]
    fn seed_chop_examples() {
        let r = acts(&[
            (0, "3s 3h 4s 4h 5s 5h"),
            (1, "6s 6h 7s 7h 8s 8h"),
            (2, "pass"),
            (3, "4d 4c 5d 5c 6d 6c 7d 7c"),
            (0, "pass"),
            (1, "pass"),
        ]);
        assert_eq!(chop_transfers(4, None, &r, 10, &Rules::default()).unwrap(), vec![Transfer { from: 1, to: 3, amount: 80 }]);
        let st = RoundState::replay(4, None, None, &r, &Rules::default()).unwrap();
        assert!(st.is_over());
        assert_eq!(st.next_leader(), Some(3));
        let r = acts(&[(0, "2h"), (1, "3s 3h 4s 4h 5s 5h 6s 6h"), (2, "pass"), (3, "pass"), (0, "pass")]);
        assert_eq!(chop_transfers(4, None, &r, 10, &Rules::default()).unwrap(), vec![Transfer { from: 0, to: 1, amount: 40 }]);
        let r = acts(&[(0, "3s 3h 4s 4h 5s 5h 6s 6h"), (1, "pass"), (2, "pass"), (3, "pass")]);
        assert_eq!(chop_transfers(4, None, &r, 10, &Rules::default()).unwrap(), vec![]);
    }

    #[test]
    fn chain_starts_at_the_first_beaten_play() {
        // 9 → 2 (no chop yet) → bomb chops the 2 → higher bomb: chain = 2, bomb, bomb = 0+3+3.
        let r = acts(&[(0, "9s"), (1, "2s"), (2, "7s 7h 7d 7c"), (3, "8s 8h 8d 8c"), (0, "pass"), (1, "pass"), (2, "pass")]);
        assert_eq!(chop_transfers(4, None, &r, 1, &Rules::default()).unwrap(), vec![Transfer { from: 2, to: 3, amount: 6 }]);
        // Only plain plays: nothing.
        let r = acts(&[(0, "9s"), (1, "2s"), (2, "pass"), (3, "pass"), (0, "pass")]);
        assert_eq!(chop_transfers(4, None, &r, 1, &Rules::default()).unwrap(), vec![]);
    }

    #[test]
    fn turns_passes_and_chops() {
        let mut st = RoundState::new(4, 0, None, &Rules::default()).unwrap();
        assert_eq!(st.to_move, Some(0));
        assert!(st.check(0, &Action::Pass).unwrap().unwrap_err().contains("may not pass"));
        assert!(st.check(1, &Action::Play(cards("3s"))).unwrap().unwrap_err().contains("seat 0 leads"));
        st.apply(0, &Action::Play(cards("Ks"))).unwrap();
        assert_eq!(st.to_move, Some(1));
        assert!(st.check(2, &Action::Play(cards("Ah"))).unwrap().unwrap_err().contains("seat 1's turn"));
        assert!(st.check(1, &Action::Play(cards("Qh"))).unwrap().unwrap_err().contains("not higher"));
        st.apply(1, &Action::Play(cards("2s"))).unwrap();
        st.apply(2, &Action::Pass).unwrap();
        assert_eq!(st.to_move, Some(3));
        // Passed seat 2 may not play a plain card, but may chop the 2 with a special.
        assert!(st.check(2, &Action::Play(cards("2h"))).unwrap().unwrap_err().contains("has passed"));
        assert!(st.check(2, &Action::Pass).unwrap().unwrap_err().contains("already passed"));
        st.apply(2, &Action::Play(cards("9s 9h 9d 9c"))).unwrap();
        assert_eq!(st.to_move, Some(3));
        st.apply(3, &Action::Pass).unwrap();
        assert_eq!(st.to_move, Some(0));
        st.apply(0, &Action::Pass).unwrap();
        assert_eq!(st.to_move, Some(1));
        assert!(!st.is_over());
        st.apply(1, &Action::Pass).unwrap();
        assert!(st.is_over());
        assert_eq!(st.next_leader(), Some(2));
        assert!(st.check(3, &Action::Pass).unwrap().unwrap_err().contains("round is over"));
        // Bad input is an outer error.
        assert!(st.check(4, &Action::Pass).unwrap_err().message.contains("not in the game"));
        assert!(st.check(3, &Action::Play(cards("Ks"))).unwrap_err().message.contains("already played"));
        assert!(st.check(3, &Action::Play(cards("3s 4s"))).unwrap_err().message.contains("not a play"));
    }

    /// RULES 2.4 [decision] `turn_after_chop`: seat 0 leads 9♠, seat 1 passes, seat 2
    /// plays a 2, and seat 1 (passed) chops it with a bomb while it is seat 3's turn.
    #[test]
    fn turn_after_a_chop_out_of_turn() {
        let r = acts(&[(0, "9s"), (1, "pass"), (2, "2s"), (1, "7s 7h 7d 7c")]);
        let st = RoundState::replay(4, None, None, &r, &Rules::default()).unwrap();
        assert_eq!(st.to_move, Some(2), "default from_chopper: the seat after the chopper");
        let resume = Rules { turn_after_chop: TurnAfterChop::Resume, ..Rules::default() };
        let st = RoundState::replay(4, None, None, &r, &resume).unwrap();
        assert_eq!(st.to_move, Some(3), "resume: the interrupted seat");
        // The order each rule gives is the only one it accepts.
        let next = |seat| acts(&[(0, "9s"), (1, "pass"), (2, "2s"), (1, "7s 7h 7d 7c"), (seat, "pass")]);
        assert!(RoundState::replay(4, None, None, &next(3), &Rules::default()).unwrap_err().message.contains("seat 2's turn"));
        assert!(RoundState::replay(4, None, None, &next(2), &resume).unwrap_err().message.contains("seat 3's turn"));
        // A chop in turn moves on from the chopper under both rules.
        let r = acts(&[(0, "2s"), (1, "7s 7h 7d 7c")]);
        for rules in [Rules::default(), resume.clone()] {
            assert_eq!(RoundState::replay(4, None, None, &r, &rules).unwrap().to_move, Some(2));
        }
        // Whole rounds under either rule: the chain's value does not depend on the order.
        let full = |tail: &[(usize, &str)]| {
            let mut v = vec![(0, "9s"), (1, "pass"), (2, "2s"), (1, "7s 7h 7d 7c")];
            v.extend_from_slice(tail);
            acts(&v)
        };
        let chop = vec![Transfer { from: 2, to: 1, amount: 30 }];
        assert_eq!(chop_transfers(4, None, &full(&[(2, "pass"), (3, "pass"), (0, "pass")]), 10, &Rules::default()).unwrap(), chop);
        assert_eq!(chop_transfers(4, None, &full(&[(3, "pass"), (0, "pass"), (2, "pass")]), 10, &resume).unwrap(), chop);
    }

    /// RULES 2.4 [decision]: a seat that passed chops at once, before the next player in
    /// turn acts; once anyone has passed since the play, the chance is gone.
    #[test]
    fn a_passed_seat_chops_only_at_once() {
        let bomb = (1, "7s 7h 7d 7c");
        let at_once = acts(&[(0, "9s"), (1, "pass"), (2, "2s"), bomb]);
        assert!(RoundState::replay(4, None, None, &at_once, &Rules::default()).is_ok());
        let late = acts(&[(0, "9s"), (1, "pass"), (2, "2s"), (3, "pass"), bomb]);
        let e = RoundState::replay(4, None, None, &late, &Rules::default()).unwrap_err();
        assert_eq!(e.reason, Reason::IllegalAction);
        assert!(e.message.contains("at once"), "{e}");
        // Right after its own pass on the play, a seat may still chop it.
        let own = acts(&[(0, "9s"), (1, "pass"), (2, "2s"), (3, "pass"), (3, "7s 7h 7d 7c")]);
        assert!(RoundState::replay(4, None, None, &own, &Rules::default()).is_ok());
        // A seat that has not passed chops only in turn.
        let out_of_turn = acts(&[(0, "2s"), (2, "7s 7h 7d 7c")]);
        assert_eq!(RoundState::replay(4, None, None, &out_of_turn, &Rules::default()).unwrap_err().reason, Reason::NotYourTurn);
    }

    /// RULES 2.4 [v5] `chop_window`: who may chop when, under each reading: after the
    /// actions listed, `chopper` (which has passed) chops the 2 with a bomb.
    #[test]
    fn chop_window_readings() {
        use ChopWindow::*;
        // (the round so far, the chopper, the readings that allow it)
        type Case<'a> = (&'a [(usize, &'a str)], usize, &'a [ChopWindow]);
        let cases: [Case; 6] = [
            // Right after the play: every reading.
            (&[(0, "9s"), (1, "pass"), (2, "2s")], 1, &[FirstActor, Strict, OwnPass, Open]),
            // Right after its own pass as the next in turn: all but strict.
            (&[(0, "9s"), (1, "pass"), (2, "2s"), (3, "pass")], 3, &[FirstActor, OwnPass, Open]),
            (&[(0, "9s"), (1, "2s"), (2, "pass")], 2, &[FirstActor, OwnPass, Open]),
            // Another seat has acted since the play.
            (&[(0, "9s"), (1, "pass"), (2, "2s"), (3, "pass")], 1, &[Open]),
            // Right after its own pass, another seat having passed before it: own_pass, open.
            (&[(0, "9s"), (1, "2s"), (2, "pass"), (3, "pass")], 3, &[OwnPass, Open]),
            (&[(0, "9s"), (1, "2s"), (2, "pass"), (3, "pass")], 2, &[Open]),
        ];
        for (round, chopper, allowed) in cases {
            let mut v = round.to_vec();
            v.push((chopper, "7s 7h 7d 7c"));
            for w in ChopWindow::ALL {
                let rules = Rules { chop_window: w, ..Rules::default() };
                let got = RoundState::replay(4, None, None, &acts(&v), &rules);
                assert_eq!(got.is_ok(), allowed.contains(&w), "{round:?} then seat {chopper} under {}: {got:?}", w.as_str());
                if let Err(e) = got {
                    assert_eq!((e.reason, e.field.as_deref()), (Reason::IllegalAction, Some(&*format!("round[{}]", v.len() - 1))));
                    assert!(e.message.contains(w.as_str()), "{e}");
                }
            }
        }
        // Under every reading a round whose play leaves every other seat passed is over:
        // nobody may chop it.
        let done = acts(&[(0, "9s"), (1, "2s"), (2, "pass"), (3, "pass"), (0, "pass"), (2, "7s 7h 7d 7c")]);
        for w in ChopWindow::ALL {
            let e = RoundState::replay(4, None, None, &done, &Rules { chop_window: w, ..Rules::default() }).unwrap_err();
            assert!(e.message.contains("round is over"), "{e}");
        }
        assert_eq!(ChopWindow::parse("later").unwrap_err().field.as_deref(), Some("chop_window"));
        assert!(ChopWindow::ALL.iter().all(|&w| ChopWindow::parse(w.as_str()) == Ok(w)));
        assert_eq!(Rules::default().chop_window, FirstActor);
    }

    #[test]
    fn base_is_at_least_one() {
        let r = acts(&[(0, "2h"), (1, "3s 3h 4s 4h 5s 5h 6s 6h"), (2, "pass"), (3, "pass"), (0, "pass")]);
        for base in [0, -10] {
            assert_eq!(chop_transfers(4, None, &r, base, &Rules::default()).unwrap_err().field.as_deref(), Some("base"));
        }
    }

    #[test]
    fn first_lead() {
        let hands = vec![cards("4s 5s"), cards("3c 9h"), cards("3h")];
        assert_eq!(first_leader(&hands).unwrap(), (1, cards("3c")[0]));
        let st = RoundState::new(3, 1, Some(cards("3c")[0]), &Rules::default()).unwrap();
        assert!(st.check(1, &Action::Play(cards("9h"))).unwrap().unwrap_err().contains("must contain 3c"));
        assert!(st.check(1, &Action::Play(cards("3c"))).unwrap().is_ok());
        assert!(first_leader(&[cards("3s"), cards("3s")]).unwrap_err().message.contains("3s"));
        assert!(RoundState::new(5, 0, None, &Rules::default()).is_err());
        assert!(RoundState::new(3, 3, None, &Rules::default()).unwrap_err().message.contains("seat 3 is not in the game"));
    }

    #[test]
    fn replay_names_the_bad_action() {
        let r = acts(&[(0, "5s"), (1, "4s")]);
        let e = chop_transfers(4, None, &r, 1, &Rules::default()).unwrap_err();
        assert_eq!(e.field.as_deref(), Some("round[1]"));
        assert!(e.message.contains("not higher"), "{}", e.message);
    }
}
