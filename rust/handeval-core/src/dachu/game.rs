//! The play of a 打儲 game (RULES 3.4, 3.4a) as a state machine, from a finished
//! [`Deal`] and its finished [`Calling`]: turn order skipping the seats that do not play
//! (繳, 被包打) and those gone out, the 3♥ first lead (played out for a holder who does not
//! play), tricks, finishing places, the end, and the outcome of RULES 3.7 as soon as it
//! can no longer change. Every action is checked against the record and refused with its
//! [`Reason`].

use super::calling::{Calling, Outcome};
use super::deal::{Deal, SEATS};
use super::play::{
    beats_play, classify, columns_of, legal_plays, rank_value, timeout_play, Chu, Constraints, LegalPlay, Play, THREE_OF_HEARTS,
};
use super::rules::{Rules, TimeoutDisplay};
use super::settle::{outcome, settle, GameResult, Settlement, Verdict};
use crate::cards::{format_cards, rank, Card};
use crate::error::{Error, Reason, Result};

/// The most plays a record can hold: 52 cards are at most 52 plays, each followed by at
/// most three passes before the next play or the trick's end.
pub use crate::cards::MAX_RECORD_ACTIONS as MAX_PLAYS;

/// One action of the play.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayAction {
    Play {
        seat: usize,
        cards: Vec<Card>,
    },
    Pass {
        seat: usize,
    },
    /// The player ran out of time: what [`timeout_play`] gives (a play or a pass) on the
    /// hand as the client showed it, `columns` left to right (each column's cards top
    /// first); `None`: as the rule option `timeout_display` lays the hand out.
    Timeout {
        seat: usize,
        columns: Option<Vec<Vec<Card>>>,
    },
}

impl PlayAction {
    pub fn seat(&self) -> usize {
        match self {
            PlayAction::Play { seat, .. } | PlayAction::Pass { seat } | PlayAction::Timeout { seat, .. } => *seat,
        }
    }
    pub fn name(&self) -> &'static str {
        match self {
            PlayAction::Play { .. } => "play",
            PlayAction::Pass { .. } => "pass",
            PlayAction::Timeout { .. } => "timeout",
        }
    }
}

/// A trick of the play: the record's actions `first_action ..= last_action` (indices into
/// [`Game::history`], the same as into the record's plays).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trick {
    /// Who led it (for the first trick after an automatic 3♥ lead, its holder).
    pub leader: usize,
    pub first_action: usize,
    pub last_action: usize,
    /// Everyone else passed on the last play: the table was cleared (not set for the
    /// trick in which the game ends).
    pub over: bool,
    /// When over: who made its last play (and so leads, or hands the lead on).
    pub won_by: Option<usize>,
}

/// The play's state: [`Game::apply`] returns the next state ([`Game::apply_in_place`] changes
/// this one, for replays).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    /// The 13 dealt cards of each seat, in dealing order.
    hands: Vec<Vec<Card>>,
    /// Cards each seat still holds, in dealing order.
    held: Vec<Vec<Card>>,
    pub chu: Chu,
    /// The 儲方 seats.
    pub chu_side: Vec<usize>,
    /// The multiplier after the deal and the calling.
    pub multiplier: i64,
    /// Seats that play the cards (not 繳, not 被包打).
    pub playing: [bool; SEATS],
    pub surrendered: Vec<usize>,
    pub bei_bao_da: Vec<usize>,
    /// The triple each seat showed by 夢踹.
    pub shown: [Option<[Card; 3]>; SEATS],
    /// The seat whose 3♥ was played out for it because it does not play (RULES 3.4).
    pub auto_lead: Option<usize>,
    /// The first lead is still to be made by the 3♥ holder.
    first_lead: bool,
    /// The seat to move; `None` once over.
    pub turn: Option<usize>,
    /// Who led the current trick.
    pub leader: Option<usize>,
    /// The play to beat: its seat, cards (as played) and classification.
    pub table: Option<(usize, Vec<Card>, Play)>,
    /// Seats that passed since the last play (with `pass_is_final`: in this trick).
    pub passed: u8,
    /// Finishing order so far.
    pub places: Vec<usize>,
    /// The actions applied, a timeout recorded as the play or pass it became.
    pub history: Vec<PlayAction>,
    /// The tricks so far, the last one open unless the table was just cleared.
    pub tricks: Vec<Trick>,
    /// Each timeout as the record gave it, with its index into [`history`](Self::history)
    /// (whose entry holds the play or pass it became).
    pub timeouts: Vec<(usize, PlayAction)>,
    /// A whole side surrendered: nobody plays.
    pub surrender: bool,
    rules: Rules,
}

fn not_your_turn(msg: String) -> Error {
    Error::field("seat", msg).because(Reason::NotYourTurn)
}

impl Game {
    /// The play after a finished deal and the finished calling made from it.
    pub fn new(deal: &Deal, calling: &Calling) -> Result<Game> {
        if !deal.finished {
            return Err(Error::field("deal", "the deal is not finished: apply (\"finish\",) first").because(Reason::IllegalAction));
        }
        if !calling.is_over() {
            let t = calling.turn().map_or(String::new(), |t| format!(" (seat {t} to call)"));
            return Err(Error::field("calling", format!("the calling is not over{t}")).because(Reason::IllegalAction));
        }
        let chu = deal.chu.expect("a finished deal has a 儲 colour");
        let chu_side = deal.chu_side().unwrap_or_default();
        let called = calling.chu_side();
        if called != chu_side {
            return Err(
                Error::field("calling", format!("its 儲方 {called:?} is not the deal's {chu_side:?}")).because(Reason::Inconsistent)
            );
        }
        let surrender = matches!(calling.outcome, Some(Outcome::Surrender { .. }));
        let playing: [bool; SEATS] = std::array::from_fn(|s| !calling.jiao[s] && !calling.bei_bao_da[s]);
        let hands = deal.hands().to_vec();
        let mut g = Game {
            held: hands.clone(),
            hands,
            chu,
            chu_side,
            multiplier: calling.multiplier,
            playing,
            surrendered: calling.surrendered(),
            bei_bao_da: calling.bei_bao_da_seats(),
            shown: deal.meng_chuai,
            auto_lead: None,
            first_lead: false,
            turn: None,
            leader: None,
            table: None,
            passed: 0,
            places: Vec::new(),
            history: Vec::new(),
            tricks: Vec::new(),
            timeouts: Vec::new(),
            surrender,
            rules: deal.rules().clone(),
        };
        if surrender {
            return Ok(g);
        }
        let holder = deal.first_leader();
        g.leader = Some(holder);
        if playing[holder] {
            g.first_lead = true;
            g.turn = Some(holder);
        } else {
            // RULES 3.4: the 3♥ is played out for a holder who does not play; the next
            // playing seat follows it as if its holder had led it.
            g.auto_lead = Some(holder);
            g.held[holder].retain(|&c| c != THREE_OF_HEARTS);
            let p = classify(&[THREE_OF_HEARTS], chu, &g.rules)?;
            g.table = Some((holder, vec![THREE_OF_HEARTS], p));
            g.turn = g.next_active(holder, false);
        }
        Ok(g)
    }

    /// Replay the play; an error names the action (`plays[i]`). A record longer than
    /// [`MAX_PLAYS`] is refused before anything is replayed.
    pub fn replay(deal: &Deal, calling: &Calling, plays: &[PlayAction]) -> Result<Game> {
        crate::cards::check_record_len(plays.len(), "plays")?;
        let mut g = Game::new(deal, calling)?;
        for (i, a) in plays.iter().enumerate() {
            g.apply_in_place(a).map_err(|e| e.within_action("plays", i))?;
        }
        Ok(g)
    }

    pub fn rules(&self) -> &Rules {
        &self.rules
    }
    pub fn hands(&self) -> &[Vec<Card>] {
        &self.hands
    }
    /// The cards `seat` still holds, in dealing order.
    pub fn held(&self, seat: usize) -> &[Card] {
        &self.held[seat]
    }

    /// Give `seat` other cards still to play (its played cards stay): how a seat's view
    /// hides the others' hands and how a sampled deal is put in their place.
    pub(crate) fn set_held(&mut self, seat: usize, held: Vec<Card>) {
        let mut dealt: Vec<Card> = self.hands[seat].iter().copied().filter(|c| !self.held[seat].contains(c)).collect();
        dealt.extend_from_slice(&held);
        self.hands[seat] = dealt;
        self.held[seat] = held;
    }

    /// A seat that plays and still holds cards.
    fn active(&self, seat: usize) -> bool {
        self.playing[seat] && !self.held[seat].is_empty()
    }

    /// The next active seat after `seat` in turn order (`skip_passed`: also skipping
    /// seats that passed).
    fn next_active(&self, seat: usize, skip_passed: bool) -> Option<usize> {
        (1..=SEATS).map(|k| (seat + k) % SEATS).find(|&s| self.active(s) && !(skip_passed && self.passed & (1 << s) != 0))
    }

    pub fn is_over(&self) -> bool {
        self.turn.is_none()
    }

    /// Seats that passed since the last play.
    pub fn passed_seats(&self) -> Vec<usize> {
        (0..SEATS).filter(|s| self.passed & (1 << s) != 0).collect()
    }

    /// What limits `seat`'s plays now: the first lead, its 夢踹 triple while whole in hand.
    pub fn constraints(&self, seat: usize) -> Constraints {
        let shown = match self.shown[seat] {
            Some(t) if t.iter().all(|c| self.held[seat].contains(c)) => t.to_vec(),
            _ => Vec::new(),
        };
        Constraints { first_lead: self.first_lead, surrendered: false, shown_triple: shown }
    }

    /// Every play the seat to move may make, weakest first.
    pub fn legal_plays(&self) -> Vec<LegalPlay> {
        let Some(seat) = self.turn else { return Vec::new() };
        let table = self.table.as_ref().map(|t| t.1.as_slice());
        legal_plays(&self.held[seat], table, self.chu, &self.constraints(seat), &self.rules).unwrap_or_default()
    }

    /// Whether the seat to move may pass (not on a lead).
    pub fn may_pass(&self) -> bool {
        self.turn.is_some() && self.table.is_some()
    }

    /// The next state after `action`, or why it is not allowed (with its [`Reason`]).
    pub fn apply(&self, action: &PlayAction) -> Result<Game> {
        let mut next = self.clone();
        next.apply_in_place(action)?;
        Ok(next)
    }

    /// [`Game::apply`] on this state (a replay's way: no copy of the state per action).
    /// Every check comes before any change, so on an error the state is as it was.
    pub fn apply_in_place(&mut self, action: &PlayAction) -> Result<()> {
        let seat = action.seat();
        if seat >= SEATS {
            return Err(Error::field("seat", format!("unknown seat {seat} (打儲 seats are 0..3)")).because(Reason::OutOfRange));
        }
        let Some(turn) = self.turn else {
            let why = if self.surrender {
                "a whole side surrendered (繳): nobody plays".to_string()
            } else {
                format!("the game is over (places {:?})", self.places)
            };
            return Err(Error::new(why).because(Reason::GameOver));
        };
        if !self.playing[seat] {
            let why = if self.surrendered.contains(&seat) { "surrendered (繳)" } else { "is 被包打" };
            return Err(not_your_turn(format!("seat {seat} {why} and takes no part in the play")));
        }
        if self.held[seat].is_empty() {
            return Err(not_your_turn(format!("seat {seat} has gone out (no cards left)")));
        }
        if seat != turn {
            return Err(not_your_turn(format!("it is seat {turn}'s turn, not seat {seat}'s")));
        }
        let resolved = match action {
            PlayAction::Timeout { columns, .. } => {
                let table = self.table.as_ref().map(|t| t.1.as_slice());
                let columns = match columns {
                    Some(cols) => {
                        self.check_columns(seat, cols)?;
                        cols.clone()
                    }
                    None => columns_of(&self.display(seat)),
                };
                match timeout_play(&columns, table, self.chu, &self.constraints(seat), &self.rules).map_err(|e| {
                    match e.field.as_deref() {
                        Some(f) if f.starts_with("hand[") => Error { field: Some(format!("columns{}", &f[4..])), ..e },
                        _ => e,
                    }
                })? {
                    Some(cards) => PlayAction::Play { seat, cards },
                    None => PlayAction::Pass { seat },
                }
            }
            a => a.clone(),
        };
        match &resolved {
            PlayAction::Play { cards, .. } => {
                let play = self.check_play(seat, cards)?;
                self.held[seat].retain(|c| !cards.contains(c));
                self.table = Some((seat, cards.clone(), play));
                self.first_lead = false;
                if !self.rules.pass_is_final {
                    self.passed = 0;
                }
                if self.held[seat].is_empty() {
                    self.places.push(seat);
                }
            }
            _ => {
                if self.table.is_none() {
                    return Err(Error::new(format!("seat {seat} leads this trick and may not pass")).because(Reason::IllegalAction));
                }
                self.passed |= 1 << seat;
            }
        }
        let k = self.history.len();
        let leader = self.leader.unwrap_or(seat);
        match self.tricks.last_mut() {
            Some(t) if !t.over => t.last_action = k,
            _ => self.tricks.push(Trick { leader, first_action: k, last_action: k, over: false, won_by: None }),
        }
        if matches!(action, PlayAction::Timeout { .. }) {
            self.timeouts.push((k, action.clone()));
        }
        self.history.push(resolved);
        self.advance(seat);
        Ok(())
    }

    /// `seat`'s cards left as the rule option `timeout_display` shows them: one column
    /// per rank (the 儲 as the strongest), ordered by strength, each column by suit.
    pub fn display(&self, seat: usize) -> Vec<Card> {
        let strength = |c: Card| if self.chu.is_chu(c) { 14 } else { rank_value(c.rank()) };
        let mut shown = self.held[seat].clone();
        match self.rules.timeout_display {
            TimeoutDisplay::WeakestLeft => shown.sort_by_key(|&c| (strength(c), c.suit())),
            TimeoutDisplay::StrongestLeft => shown.sort_by_key(|&c| (std::cmp::Reverse(strength(c)), c.suit())),
        }
        shown
    }

    /// The columns a timeout carries must be exactly `seat`'s cards left.
    fn check_columns(&self, seat: usize, columns: &[Vec<Card>]) -> Result<()> {
        if let Some(i) = columns.iter().position(|c| c.is_empty()) {
            return Err(Error::field(format!("columns[{i}]"), "a column holds at least one card").because(Reason::WrongCount));
        }
        let mut shown: Vec<Card> = columns.iter().flatten().copied().collect();
        shown.sort();
        if let Some(w) = shown.windows(2).find(|w| w[0] == w[1]) {
            return Err(Error::field("columns", format!("{} is shown twice", w[0])).because(Reason::DuplicateCard));
        }
        if let Some(c) = shown.iter().find(|c| !self.held[seat].contains(c)) {
            return Err(Error::field("columns", format!("the columns are not the seat's hand: seat {seat} does not hold {c}"))
                .because(Reason::CardNotInHand));
        }
        if shown.len() != self.held[seat].len() {
            let why = format!(
                "the columns hold {} cards, seat {seat} holds {}: {}",
                shown.len(),
                self.held[seat].len(),
                format_cards(&self.held[seat])
            );
            return Err(Error::field("columns", why).because(Reason::WrongCount));
        }
        Ok(())
    }

    /// The actions as the record gave them: [`history`](Self::history) with each timeout
    /// as sent (replaying them gives this state again).
    pub fn record(&self) -> Vec<PlayAction> {
        let mut out = self.history.clone();
        for (k, a) in &self.timeouts {
            out[*k] = a.clone();
        }
        out
    }

    /// Check a play by the seat to move.
    fn check_play(&self, seat: usize, cards: &[Card]) -> Result<Play> {
        let play = classify(cards, self.chu, &self.rules).map_err(|e| {
            let e = e.within("cards");
            if e.reason == Reason::Invalid {
                e.because(Reason::NotAPlay)
            } else {
                e
            }
        })?;
        if let Some(c) = cards.iter().find(|c| !self.held[seat].contains(c)) {
            let why = match (0..SEATS).find(|&s| self.held[s].contains(c)) {
                Some(o) => format!("seat {seat} does not hold {c} (seat {o} does)"),
                None => format!("seat {seat} does not hold {c}, which has already been played"),
            };
            return Err(Error::field("cards", why).because(Reason::CardNotInHand));
        }
        let illegal = |msg: String| Err(Error::field("cards", msg).because(Reason::IllegalAction));
        if self.first_lead {
            let threes = self.held[seat].iter().filter(|c| c.rank() == rank::THREE).count();
            if threes < 3 && !cards.contains(&THREE_OF_HEARTS) {
                return illegal(format!("the first lead must contain 3h (RULES 3.4): {} does not", format_cards(cards)));
            }
        }
        let cons = self.constraints(seat);
        if !cons.shown_triple.is_empty() {
            let n = cons.shown_triple.iter().filter(|c| cards.contains(c)).count();
            if n != 0 && n != 3 {
                return illegal(format!("the 夢踹 triple {} may not be split (RULES 3.4a)", format_cards(&cons.shown_triple)));
            }
        }
        if let Some((owner, tc, t)) = &self.table {
            if !beats_play(&play, t) {
                return Err(Error::field("cards", format!("{} does not beat seat {owner}'s {}", format_cards(cards), format_cards(tc)))
                    .because(Reason::DoesNotBeat));
            }
        }
        Ok(play)
    }

    /// After `seat` acted: the end of the game, the end of the trick, or the next turn.
    fn advance(&mut self, seat: usize) {
        let active: Vec<usize> = (0..SEATS).filter(|&s| self.active(s)).collect();
        if active.len() <= 1 {
            self.places.extend(active);
            self.turn = None;
            return;
        }
        let owner = self.table.as_ref().map(|t| t.0).expect("a table after an action");
        let all_passed = active.iter().all(|&s| s == owner || self.passed & (1 << s) != 0);
        if all_passed {
            // The trick ends: its last player leads, or the next seat still holding cards.
            let leader = if self.active(owner) { owner } else { self.next_active(owner, false).expect("two active seats") };
            self.table = None;
            self.passed = 0;
            if let Some(t) = self.tricks.last_mut() {
                t.over = true;
                t.won_by = Some(owner);
            }
            self.leader = Some(leader);
            self.turn = Some(leader);
            return;
        }
        self.turn = self.next_active(seat, self.rules.pass_is_final);
    }

    /// The 儲方's outcome (RULES 3.7) once no finishing order of the players still holding
    /// cards can change it: (verdict, 全殲). `None` while it can change, or when a whole
    /// side surrendered.
    pub fn decided(&self) -> Option<(Verdict, bool)> {
        if self.surrender {
            return None;
        }
        // The last player keeps their cards but already has the last place.
        let rest: Vec<usize> = (0..SEATS).filter(|&s| self.active(s) && !self.places.contains(&s)).collect();
        let mut seen: Option<(Verdict, bool)> = None;
        let mut all_same = true;
        permutations(&rest, &mut |tail| {
            let order: Vec<usize> = self.places.iter().copied().chain(tail.iter().copied()).collect();
            let o = self.outcome_of(&order);
            match seen {
                None => seen = Some(o),
                Some(s) if s != o => all_same = false,
                _ => {}
            }
        });
        if all_same {
            seen
        } else {
            None
        }
    }

    fn outcome_of(&self, order: &[usize]) -> (Verdict, bool) {
        let place = |s: usize| order.iter().position(|&x| x == s).expect("a playing seat") + 1;
        let cp: Vec<usize> = (0..SEATS).filter(|&s| self.playing[s] && self.chu_side.contains(&s)).map(place).collect();
        let op: Vec<usize> = (0..SEATS).filter(|&s| self.playing[s] && !self.chu_side.contains(&s)).map(place).collect();
        outcome(&cp, &op, order.len())
    }

    /// The finishing order to settle: the places when over; once decided, the places so
    /// far and then the players still holding cards in turn order.
    pub fn final_places(&self) -> Option<Vec<usize>> {
        if self.surrender {
            return None;
        }
        if self.is_over() {
            return Some(self.places.clone());
        }
        self.decided()?;
        let mut out = self.places.clone();
        let start = self.turn.expect("not over");
        out.extend((0..SEATS).map(|k| (start + k) % SEATS).filter(|&s| self.active(s)));
        Some(out)
    }

    /// Settle from the record (RULES 3.7): places derived; `escaped` abandons the game.
    pub fn settle(&self, base: i64, escaped: &[usize], carried: Option<Vec<Option<i64>>>) -> Result<Settlement> {
        // RULES 3.7: only a player still holding cards can run away.
        if let Some(&s) = escaped.iter().find(|&&s| s < SEATS && self.playing[s] && self.held[s].is_empty()) {
            return Err(
                Error::field("escaped", format!("seat {s} has gone out (no cards left) and cannot escape")).because(Reason::Inconsistent)
            );
        }
        let places = if !escaped.is_empty() || self.surrender {
            None
        } else {
            match self.final_places() {
                Some(p) => Some(p),
                None => {
                    return Err(Error::new(format!(
                        "the game is not over and its outcome can still change (seat {} to move)",
                        self.turn.map_or("-".into(), |t| t.to_string())
                    ))
                    .because(Reason::IllegalAction))
                }
            }
        };
        let record = GameResult {
            chu_side: self.chu_side.clone(),
            multiplier: self.multiplier,
            base,
            places,
            surrendered: self.surrendered.clone(),
            bei_bao_da: self.bei_bao_da.clone(),
            escaped: escaped.to_vec(),
            carried,
        };
        settle(&record, &self.rules)
    }
}

/// Every ordering of `items` (at most 4! = 24), each passed to `f`.
fn permutations(items: &[usize], f: &mut dyn FnMut(&[usize])) {
    fn rec(v: &mut Vec<usize>, k: usize, f: &mut dyn FnMut(&[usize])) {
        if k == v.len() {
            f(v);
            return;
        }
        for i in k..v.len() {
            v.swap(k, i);
            rec(v, k + 1, f);
            v.swap(k, i);
        }
    }
    rec(&mut items.to_vec(), 0, f)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::cards;
    use crate::dachu::calling::Call;
    use crate::dachu::deal::DealAction;
    use proptest::prelude::*;

    fn hands() -> Vec<Vec<Card>> {
        [
            "3h 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks 2s",
            "Ah Ad 4h 5h 6h 7h 8h 9h Th Jh Qh Kh 2h",
            "3d 4d 5d 6d 7d 8d 9d Td Jd Qd Kd As 2d",
            "3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc Ac 2c",
        ]
        .iter()
        .map(|h| cards(h))
        .collect()
    }

    fn dealt(hands: Vec<Vec<Card>>, cheng: Option<usize>, rules: Rules) -> Deal {
        let mut d = Deal::new(hands, 0, rules).unwrap();
        for _ in 0..9 {
            d = d.apply(&DealAction::Deal).unwrap();
        }
        if let Some(seat) = cheng {
            d = d.apply(&DealAction::ChengChu { seat, chu: Chu::Red }).unwrap();
        }
        d.apply(&DealAction::Finish).unwrap()
    }

    fn play(seat: usize, c: &str) -> PlayAction {
        PlayAction::Play { seat, cards: cards(c) }
    }

    #[test]
    fn turns_tricks_places_and_reasons() {
        let d = dealt(hands(), Some(1), Rules::default());
        let c = d.calling(None, None).unwrap().apply(1, Call::PingDa).unwrap();
        let g = Game::new(&d, &c).unwrap();
        assert_eq!((g.turn, g.multiplier, g.chu_side.clone()), (Some(0), 2, vec![1]));
        assert_eq!(g.apply(&play(1, "4h")).unwrap_err().reason, Reason::NotYourTurn);
        assert_eq!(g.apply(&play(0, "4s")).unwrap_err().reason, Reason::IllegalAction, "must contain 3h");
        assert_eq!(g.apply(&play(0, "4h")).unwrap_err().reason, Reason::CardNotInHand);
        assert_eq!(g.apply(&play(0, "3h 4s")).unwrap_err().reason, Reason::NotAPlay);
        assert_eq!(g.apply(&PlayAction::Pass { seat: 0 }).unwrap_err().reason, Reason::IllegalAction);
        let g = g.apply(&play(0, "3h")).unwrap();
        assert_eq!(g.apply(&play(1, "3d")).unwrap_err().reason, Reason::CardNotInHand);
        let e = g.apply(&play(1, "2h 4h")).unwrap_err();
        assert_eq!((e.reason, e.field.as_deref()), (Reason::NotAPlay, Some("cards")));
        // A pass is not final by default: seat 1 passes, 2 and 3 play, seat 1 plays again.
        let g = g.apply(&PlayAction::Pass { seat: 1 }).unwrap().apply(&play(2, "4d")).unwrap().apply(&play(3, "5c")).unwrap();
        assert_eq!(g.turn, Some(0));
        assert_eq!(g.apply(&play(0, "4s")).unwrap_err().reason, Reason::DoesNotBeat);
        let g = g.apply(&PlayAction::Pass { seat: 0 }).unwrap().apply(&play(1, "6h")).unwrap();
        let g = g.apply(&PlayAction::Pass { seat: 2 }).unwrap().apply(&PlayAction::Pass { seat: 3 }).unwrap();
        assert_eq!((g.turn, g.table.is_some()), (Some(0), true));
        let g = g.apply(&PlayAction::Pass { seat: 0 }).unwrap();
        assert_eq!((g.turn, g.table.is_none(), g.leader), (Some(1), true, Some(1)), "seat 1 wins the trick and leads");
        // The first trick: seat 0's 3h (action 0) to seat 0's pass (action 8), won by
        // seat 1's 6h; seat 1's lead opens the next.
        let t = |leader, first_action, last_action, over, won_by| Trick { leader, first_action, last_action, over, won_by };
        assert_eq!(g.tricks, vec![t(0, 0, 8, true, Some(1))]);
        let g3 = g.apply(&play(1, "4h")).unwrap();
        assert_eq!(g3.tricks, vec![t(0, 0, 8, true, Some(1)), t(1, 9, 9, false, None)]);
        // The timeout of a lead plays a single.
        let g2 = g.apply(&PlayAction::Timeout { seat: 1, columns: None }).unwrap();
        assert!(matches!(g2.history.last(), Some(PlayAction::Play { seat: 1, cards }) if cards.len() == 1));
        let mut r = MAX_PLAYS + 1;
        r -= 1;
        assert_eq!(Game::replay(&d, &c, &vec![PlayAction::Pass { seat: 0 }; r + 1]).unwrap_err().reason, Reason::TooLarge);
    }

    #[test]
    fn a_timeout_throws_the_weakest_single_by_default() {
        let d = dealt(hands(), Some(1), Rules::default());
        let c = d.calling(None, None).unwrap().apply(1, Call::PingDa).unwrap();
        let g = Game::new(&d, &c).unwrap().apply(&play(0, "3h")).unwrap();
        let g = [1, 2, 3].iter().fold(g, |g, &s| g.apply(&PlayAction::Pass { seat: s }).unwrap());
        // Seat 0 leads again holding 3s 4s … Ks 2s: the weakest single is 3s.
        let timeout = PlayAction::Timeout { seat: 0, columns: None };
        let last = |g: &Game| g.history.last().cloned();
        assert_eq!(last(&g.apply(&timeout).unwrap()), Some(play(0, "3s")));
        let weakest_left = Rules { timeout_display: TimeoutDisplay::WeakestLeft, ..Rules::default() };
        let d2 = dealt(hands(), Some(1), weakest_left);
        let c2 = d2.calling(None, None).unwrap().apply(1, Call::PingDa).unwrap();
        let g2 = Game::new(&d2, &c2).unwrap().apply(&play(0, "3h")).unwrap();
        let g2 = [1, 2, 3].iter().fold(g2, |g, &s| g.apply(&PlayAction::Pass { seat: s }).unwrap());
        assert_eq!(last(&g2.apply(&timeout).unwrap()), Some(play(0, "2s")));
        // The client's columns decide when given; they must be the seat's cards left.
        let cols = |t: &str| t.split('|').map(cards).collect::<Vec<_>>();
        let given = PlayAction::Timeout { seat: 0, columns: Some(cols("2s|Ks|Qs|Js|Ts|9s|8s|7s|6s|5s|4s|3s")) };
        let moved = g.apply(&given).unwrap();
        assert_eq!(last(&moved), Some(play(0, "3s")));
        assert_eq!(moved.timeouts, vec![(4, given.clone())]);
        assert_eq!(moved.record()[4], given);
        let short = PlayAction::Timeout { seat: 0, columns: Some(cols("2s|Ks")) };
        assert_eq!(g.apply(&short).unwrap_err().reason, Reason::WrongCount);
        let foreign = PlayAction::Timeout { seat: 0, columns: Some(cols("2s|Ks|Qs|Js|Ts|9s|8s|7s|6s|5s|4s|3d")) };
        assert_eq!(g.apply(&foreign).unwrap_err().reason, Reason::CardNotInHand);
        let twice = PlayAction::Timeout { seat: 0, columns: Some(cols("2s|Ks|Qs|Js|Ts|9s|8s|7s|6s|5s|4s|4s")) };
        assert_eq!(g.apply(&twice).unwrap_err().reason, Reason::DuplicateCard);
    }

    #[test]
    fn a_seat_gone_out_cannot_escape() {
        let d = dealt(hands(), Some(1), Rules::default());
        let c = d.calling(None, None).unwrap().apply(1, Call::PingDa).unwrap();
        let mut g = Game::new(&d, &c).unwrap();
        // Each seat to move plays its strongest legal play until someone is out.
        while g.places.is_empty() {
            let t = g.turn.unwrap();
            let p = g.legal_plays().last().map(|p| p.cards.clone());
            g = match p {
                Some(cards) => g.apply(&PlayAction::Play { seat: t, cards }).unwrap(),
                None => g.apply(&PlayAction::Pass { seat: t }).unwrap(),
            };
        }
        let out = g.places[0];
        assert_eq!(g.settle(1, &[out], None).unwrap_err().reason, Reason::Inconsistent);
        let holding = (0..4).find(|&s| !g.held(s).is_empty()).unwrap();
        assert!(g.settle(1, &[holding], None).is_ok());
    }

    #[test]
    fn surrendered_holder_of_three_of_hearts() {
        // 2 vs 2 without 撐儲 (平宣): make seat 0 (3h holder) surrender personally.
        let d = dealt(hands(), None, Rules::default());
        let side = d.chu_side().unwrap();
        let c0 = d.calling(None, None).unwrap();
        // Play the calling with random-free choices: everyone 平打 except seat 0, who 繳
        // when asked in a second round if possible; otherwise just check the auto lead
        // with a calling where seat 0 is 被包打 or 繳.
        let mut c = c0.clone();
        while let Some(t) = c.turn() {
            let calls = c.legal_calls();
            let pick = if t == 0 && calls.contains(&Call::Jiao) && side.len() == 2 && !side.contains(&0) { Call::Jiao } else { calls[0] };
            c = c.apply(t, pick).unwrap();
        }
        let g = Game::new(&d, &c).unwrap();
        if g.surrender || g.playing[0] {
            return; // this deal's calling did not leave seat 0 out; covered by the proptest
        }
        assert_eq!(g.auto_lead, Some(0));
        assert_eq!(g.table.as_ref().map(|t| t.1.clone()), Some(vec![THREE_OF_HEARTS]));
        assert!(g.turn.is_some() && g.turn != Some(0));
    }

    fn deal(seed: u64) -> Vec<Vec<Card>> {
        let mut deck: Vec<u8> = (0..52).collect();
        let mut x = seed | 1;
        for i in (1..52).rev() {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            deck.swap(i, (x % (i as u64 + 1)) as usize);
        }
        (0..4).map(|p| deck[p * 13..p * 13 + 13].iter().map(|&id| Card(id)).collect()).collect()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        /// Random deals, callings and plays to the end: every offered play is accepted,
        /// out-of-turn actions are refused with NotYourTurn, places are a permutation of the
        /// playing seats, an early `decided` is the final outcome, money is zero-sum.
        #[test]
        fn random_games(seed in any::<u64>(), picks in proptest::collection::vec(any::<u32>(), 64), final_pass in any::<bool>()) {
            let rules = Rules { pass_is_final: final_pass, ..Rules::default() };
            let d = dealt(deal(seed), None, rules);
            let mut c = d.calling(None, None).unwrap();
            let mut k = 0;
            while let Some(t) = c.turn() {
                let calls = c.legal_calls();
                c = c.apply(t, calls[picks[k % picks.len()] as usize % calls.len()]).unwrap();
                k += 1;
            }
            let mut g = Game::new(&d, &c).unwrap();
            let mut first_decided: Option<(Verdict, bool)> = None;
            let mut n = 0;
            while let Some(t) = g.turn {
                n += 1;
                prop_assert!(n <= MAX_PLAYS);
                if first_decided.is_none() { first_decided = g.decided(); }
                let pick = picks[n % picks.len()] as usize;
                let other = (t + 1 + pick % 3) % 4;
                let e = g.apply(&PlayAction::Pass { seat: other }).unwrap_err();
                prop_assert_eq!(e.reason, Reason::NotYourTurn);
                let plays = g.legal_plays();
                let action = if g.may_pass() && (plays.is_empty() || pick % 2 == 0) {
                    PlayAction::Pass { seat: t }
                } else if pick % 7 == 0 {
                    PlayAction::Timeout { seat: t, columns: None }
                } else {
                    PlayAction::Play { seat: t, cards: plays[pick % plays.len()].cards.clone() }
                };
                g = g.apply(&action).unwrap();
            }
            let over = g.apply(&PlayAction::Pass { seat: 0 }).unwrap_err().reason;
            prop_assert_eq!(over, Reason::GameOver);
            let s = g.settle(5, &[], None).unwrap();
            prop_assert_eq!(s.deltas.iter().sum::<i64>(), 0);
            if !g.surrender {
                let mut p = g.places.clone();
                p.sort_unstable();
                let playing: Vec<usize> = (0..4).filter(|&s| g.playing[s]).collect();
                prop_assert_eq!(p, playing);
                let fin = g.decided().unwrap();
                if let Some(early) = first_decided { prop_assert_eq!(early, fin); }
                prop_assert_eq!(s.verdict, Some(fin.0), "fin {:?} early {:?} places {:?} chu {:?} playing {:?} jiao {:?} bbd {:?}", fin, first_decided, g.places, g.chu_side, g.playing, g.surrendered, g.bei_bao_da);
                prop_assert_eq!(s.wipe_out, fin.1);
                // The record as sent (timeouts as timeouts) replays to this very state.
                let again = Game::replay(&d, &c, &g.record()).unwrap();
                prop_assert_eq!(&again, &g);
            }
        }
    }
}
