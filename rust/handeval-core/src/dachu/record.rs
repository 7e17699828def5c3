//! A whole 打儲 game as a record — the deal's actions, the calls, the plays — its bounds and
//! its replay: the one definition the binding and the wire both use.

use super::calling::{Call, Calling, Outcome};
use super::deal::{Deal, DealAction};
use super::game::{Game, PlayAction, MAX_PLAYS};
use super::play::Chu;
use super::rules::Rules;
use super::settle::GameResult;
use crate::cards::Card;
use crate::error::{Error, Reason, Result};

/// The most actions a legal deal holds (RULES 3.5): 9 `deal` steps (cards 1–8 one at a
/// time, then 9–13 at once), one 夢宣 (it fixes the 儲: none after it), one 夢踹 per seat
/// (4: each declaration at most once per player, fewer under the other
/// `declare_once_per` readings), one 撐儲 (one per game), and `finish`.
pub const MAX_DEAL_ACTIONS: usize = 9 + 1 + 4 + 1 + 1;

/// The most calls a legal calling holds (RULES 3.6): found by walking every calling the
/// state machine allows, over every 儲方 (1 vs 3, 2 vs 2), start seat, first side and rule
/// (the test `max_calls_is_the_longest_legal_calling`). The longest is a 2 vs 2: on each
/// side a 繳 and a 踹 (the choices differ, so the side is asked again), then a 繳 and a 包踹
/// and the partner's answer to the 包踹 (5 calls a side); then the second round of note 3,
/// one call by each side's player.
pub const MAX_CALLS: usize = 2 * 5 + 2;

/// Each list of a record and the most entries it may hold (checked by
/// [`Record::check_bounds`]; the binding and the wire check the same before reading).
pub const RECORD_BOUNDS: [(&str, usize); 3] = [("deal_actions", MAX_DEAL_ACTIONS), ("calls", MAX_CALLS), ("plays", MAX_PLAYS)];

/// A deal action as a record holds it: a 撐儲 may leave its colour out (`chu: None`), and
/// the deal names it when the record is replayed ([`Deal::cheng_chu_colour`]: the colour
/// of which the seat holds both aces).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DealEntry {
    Action(DealAction),
    ChengChu { seat: usize, chu: Option<Chu> },
}

impl From<DealAction> for DealEntry {
    fn from(a: DealAction) -> Self {
        DealEntry::Action(a)
    }
}

impl DealEntry {
    /// The action this entry is in `deal`'s state.
    pub fn resolve(&self, deal: &Deal) -> Result<DealAction> {
        Ok(match *self {
            DealEntry::Action(ref a) => a.clone(),
            DealEntry::ChengChu { seat, chu: Some(chu) } => DealAction::ChengChu { seat, chu },
            DealEntry::ChengChu { seat, chu: None } => DealAction::ChengChu { seat, chu: deal.cheng_chu_colour(seat)? },
        })
    }
}

/// A whole game as played: the deal (`hands` in dealing order, the seat dealt to first
/// and the deal's actions), the calling (who is asked first, and the calls as (seat,
/// call)) and the play. Any prefix of a game is a record too: the replay stops where the
/// record does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    pub hands: Vec<Vec<Card>>,
    pub first_seat: usize,
    pub deal_actions: Vec<DealEntry>,
    /// Each side is asked in seat order from here (`None`: the seat dealt to first).
    pub start_seat: Option<usize>,
    /// The side that calls first (`None`: the rule book's choice, see [`Calling::new`]).
    pub first_side: Option<usize>,
    pub calls: Vec<(usize, Call)>,
    pub plays: Vec<PlayAction>,
}

/// The states a record reaches: the deal always; the calling once the deal is finished;
/// the play once the calling is over with [`Outcome::Play`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Replayed {
    pub deal: Deal,
    pub calling: Option<Calling>,
    pub game: Option<Game>,
}

/// Refuse a list longer than a legal game allows (reason `TooLarge`), before any of it is
/// read.
pub fn check_len(n: usize, field: &str, max: usize) -> Result<()> {
    if n > max {
        return Err(Error::field(field, format!("{n} entries are more than a game allows (at most {max})")).because(Reason::TooLarge));
    }
    Ok(())
}

/// An error of the action `list[index]`: the state machines name a whole action `action`,
/// which here is the entry itself.
fn of_entry(list: &'static str, index: usize) -> impl Fn(Error) -> Error {
    move |mut e| {
        if e.field.as_deref() == Some("action") {
            e.field = None;
        }
        e.within_action(list, index)
    }
}

impl Record {
    /// The bounds of every list, checked before anything is replayed.
    pub fn check_bounds(&self) -> Result<()> {
        let lens = [self.deal_actions.len(), self.calls.len(), self.plays.len()];
        RECORD_BOUNDS.iter().zip(lens).try_for_each(|(&(field, max), n)| check_len(n, field, max))
    }

    /// Replay the record phase by phase. An error names where it is: `hands[i]`,
    /// `first_seat`, `start_seat`, `first_side`, or the action (`deal_actions[i]`,
    /// `calls[i]`, `plays[i]`, with its index in `action_index`); an action of a phase
    /// that has not begun (calls before the deal's `finish`, plays before the calling is
    /// over with a play) is refused naming the first such action.
    pub fn replay(&self, rules: &Rules) -> Result<Replayed> {
        self.check_bounds()?;
        let mut deal = Deal::new(self.hands.clone(), self.first_seat, rules.clone())?;
        for (i, a) in self.deal_actions.iter().enumerate() {
            deal = a.resolve(&deal).and_then(|a| deal.apply(&a)).map_err(of_entry("deal_actions", i))?;
        }
        if !deal.finished {
            for (list, n) in [("calls", self.calls.len()), ("plays", self.plays.len())] {
                if n > 0 {
                    return Err(Error::new("the deal is not finished (its actions end with finish)")
                        .because(Reason::IllegalAction)
                        .within_action(list, 0));
                }
            }
            return Ok(Replayed { deal, calling: None, game: None });
        }
        let mut calling = deal.calling(self.start_seat, self.first_side)?;
        for (i, &(seat, call)) in self.calls.iter().enumerate() {
            calling = calling.apply(seat, call).map_err(of_entry("calls", i))?;
        }
        if calling.outcome != Some(Outcome::Play) {
            if !self.plays.is_empty() {
                let (message, reason) = if calling.is_over() {
                    ("a whole side surrendered: nobody plays", Reason::GameOver)
                } else {
                    ("the calling is not over with a play", Reason::IllegalAction)
                };
                return Err(Error::new(message).because(reason).within_action("plays", 0));
            }
            return Ok(Replayed { deal, calling: Some(calling), game: None });
        }
        let mut game = Game::new(&deal, &calling)?;
        for (i, a) in self.plays.iter().enumerate() {
            game.apply_in_place(a).map_err(of_entry("plays", i))?;
        }
        Ok(Replayed { deal, calling: Some(calling), game: Some(game) })
    }
}

/// Settling a finished 叫牌, defined once for every surface.
impl Calling {
    /// What settling this finished calling takes (RULES 3.7): the 儲方, the multiplier,
    /// 繳 and 被包打 it fixed, with the places, base, escapes and carried-in amounts given.
    /// A calling not over is ILLEGAL_ACTION at `calling`.
    pub fn game_result(
        &self,
        places: Option<Vec<usize>>,
        base: i64,
        escaped: Vec<usize>,
        carried: Option<Vec<Option<i64>>>,
    ) -> Result<GameResult> {
        if !self.is_over() {
            return Err(Error::field("calling", "the calling is not over yet").because(Reason::IllegalAction));
        }
        Ok(GameResult {
            chu_side: self.chu_side(),
            multiplier: self.multiplier,
            base,
            places,
            surrendered: self.surrendered(),
            bei_bao_da: self.bei_bao_da_seats(),
            escaped,
            carried,
        })
    }
}

/// A record as a surface read it (Python objects, protobuf messages): each entry read, or
/// the surface's error for it (`E`: the surface's error, naming the entry), and the
/// calling's arguments likewise. [`Entries::replay`] decides in one place which error a
/// record with several bad entries gets: the first the replay reaches, in the order the
/// game is played.
pub struct Entries<E> {
    pub hands: Vec<Vec<Card>>,
    pub first_seat: usize,
    pub deal_actions: Vec<std::result::Result<DealEntry, E>>,
    /// `start_seat` and `first_side`, read only once the deal is finished.
    pub calling_args: std::result::Result<(Option<usize>, Option<usize>), E>,
    pub calls: Vec<std::result::Result<(usize, Call), E>>,
    pub plays: Vec<std::result::Result<PlayAction, E>>,
}

/// The entries read, up to the first that could not be (its error).
fn read<T, E>(list: Vec<std::result::Result<T, E>>) -> (Vec<T>, Option<E>) {
    let mut out = Vec::with_capacity(list.len());
    for e in list {
        match e {
            Ok(t) => out.push(t),
            Err(e) => return (out, Some(e)),
        }
    }
    (out, None)
}

impl<E> Entries<E> {
    /// Replay by [`Record::replay`], the core's errors made `E` by `err`. An entry that
    /// could not be read fails where the replay reaches it: after every earlier entry
    /// replayed without error, and only in a phase that has begun (a call before the
    /// deal's FINISH is refused by its phase, however it is written); the calling's
    /// arguments fail once the deal is finished.
    pub fn replay(self, rules: &Rules, err: impl Fn(Error) -> E) -> std::result::Result<Replayed, E> {
        let Entries { hands, first_seat, deal_actions, calling_args, calls, plays } = self;
        let (deal_actions, unread_deal) = read(deal_actions);
        let (calls, unread_calls) = read(calls);
        let (plays, unread_plays) = read(plays);
        let mut record = Record { hands, first_seat, deal_actions, start_seat: None, first_side: None, calls: vec![], plays: vec![] };
        let all_read = unread_deal.is_none() && unread_calls.is_none() && unread_plays.is_none();
        if let (true, Ok((start, side))) = (all_read, &calling_args) {
            // Every entry read: one replay.
            record.start_seat = *start;
            record.first_side = *side;
            record.calls = calls;
            record.plays = plays;
            return record.replay(rules).map_err(err);
        }
        // The deal, up to its first unread entry.
        record.check_bounds().map_err(&err)?;
        let (n_calls, n_plays) = (calls.len() + usize::from(unread_calls.is_some()), plays.len() + usize::from(unread_plays.is_some()));
        let deal = Record { calls: vec![], plays: vec![], ..record.clone() }.replay(rules).map_err(&err)?;
        if let Some(e) = unread_deal {
            return Err(e);
        }
        if !deal.deal.finished {
            // Calls or plays before the deal's end: refused by their phase.
            record.calls = vec![(0, Call::PingDa); n_calls.min(1)];
            record.plays = vec![PlayAction::Pass { seat: 0 }; n_plays.min(1)];
            return record.replay(rules).map_err(err);
        }
        let (start, side) = calling_args?;
        record.start_seat = start;
        record.first_side = side;
        record.calls = calls;
        let called = record.replay(rules).map_err(&err)?;
        if let Some(e) = unread_calls {
            return Err(e);
        }
        if called.game.is_none() && n_plays > 0 {
            // Plays before the calling is over with a play: refused by their phase.
            record.plays = vec![PlayAction::Pass { seat: 0 }];
            return record.replay(rules).map_err(err);
        }
        record.plays = plays;
        let played = record.replay(rules).map_err(&err)?;
        match unread_plays {
            Some(e) => Err(e),
            None => Ok(played),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dachu::play::Chu;
    use crate::dachu::rules::{DeclareOncePer, FirstCaller};

    /// Every calling the state machine allows, from every start: its longest length.
    fn longest(c: &Calling) -> usize {
        let Some(seat) = c.turn() else { return 0 };
        c.legal_calls().into_iter().map(|call| 1 + longest(&c.apply(seat, call).expect("a legal call applies"))).max().unwrap_or(0)
    }

    #[test]
    fn max_calls_is_the_longest_legal_calling() {
        let mut most = 0;
        let mut sides: Vec<Vec<usize>> = (0..4).map(|s| vec![s]).collect();
        sides.extend((0..4).flat_map(|a| (a + 1..4).map(move |b| vec![a, b])));
        for chu_side in &sides {
            for declared in [false, true] {
                for start in 0..4 {
                    for first_side in [None, Some(0), Some(1)] {
                        for first_caller_2v2 in [FirstCaller::Chu, FirstCaller::Other] {
                            let rules = Rules { first_caller_2v2, ..Rules::default() };
                            let c = Calling::new(chu_side, declared, 1, start, first_side, &rules).unwrap();
                            most = most.max(longest(&c));
                        }
                    }
                }
            }
        }
        assert_eq!(most, MAX_CALLS);
    }

    fn card(s: &str) -> Card {
        crate::cards::cards(s)[0]
    }

    /// Hands dealt so that every declaration is open: seat 0 gets an ace as its first card
    /// and both red aces; every seat holds a triple among its first five cards.
    fn rich_hands() -> Vec<Vec<Card>> {
        let hands = [
            "Ah 2s 2h 2d 3s Ad 4s 4h 5s 5h 6s 6h 7s",
            "8s 8h 8d 9s 9h 9d Ts Th Td Js Jh Jd Qs",
            "Qh Qd Qc Ks Kh Kd Kc 7h 7d 6d 6c 5d 5c",
            "3h 3d 3c 4d 4c 2c As Ac 7c 8c 9c Tc Jc",
        ];
        hands.iter().map(|h| crate::cards::cards(h)).collect()
    }

    /// The longest deal: 9 deal steps, a 夢宣, four 夢踹, a 撐儲 and the finish.
    fn longest_deal() -> Vec<DealAction> {
        let triple = |s: &str| {
            let c = crate::cards::cards(s);
            [c[0], c[1], c[2]]
        };
        let mut a = vec![DealAction::Deal, DealAction::MengXuan { seat: 0, card: card("Ah") }];
        a.extend(vec![DealAction::Deal; 4]);
        for (seat, t) in [(0, "2s 2h 2d"), (1, "8s 8h 8d"), (2, "Qh Qd Qc"), (3, "3h 3d 3c")] {
            a.push(DealAction::MengChuai { seat, cards: triple(t) });
        }
        a.extend(vec![DealAction::Deal; 4]);
        a.push(DealAction::ChengChu { seat: 0, chu: Chu::Red });
        a.push(DealAction::Finish);
        a
    }

    fn record(deal_actions: Vec<DealAction>) -> Record {
        let deal_actions = deal_actions.into_iter().map(DealEntry::from).collect();
        Record { hands: rich_hands(), first_seat: 0, deal_actions, start_seat: None, first_side: None, calls: vec![], plays: vec![] }
    }

    #[test]
    fn the_longest_deal_is_legal_and_has_max_deal_actions() {
        let actions = longest_deal();
        assert_eq!(actions.len(), MAX_DEAL_ACTIONS);
        let r = record(actions).replay(&Rules::default()).unwrap();
        assert!(r.deal.finished && r.calling.is_some() && r.game.is_none());
    }

    /// Random legal deals under every `declare_once_per`, walked to the end: none is longer
    /// than the bound.
    #[test]
    fn no_legal_deal_is_longer_than_the_bound() {
        let mut rng = crate::sampling::Rng::new(7);
        for once in [DeclareOncePer::PlayerAndKind, DeclareOncePer::Player, DeclareOncePer::Game] {
            let rules = Rules { declare_once_per: once, ..Rules::default() };
            for _ in 0..300 {
                let mut d = Deal::new(rich_hands(), 0, rules.clone()).unwrap();
                let mut n = 0;
                while !d.finished {
                    let legal = d.legal_actions();
                    // Declarations first when there are any: the long deals.
                    let decl: Vec<&DealAction> = legal.iter().filter(|a| a.seat().is_some()).collect();
                    let a = if !decl.is_empty() && rng.below(4) != 0 {
                        decl[rng.below(decl.len())].clone()
                    } else {
                        legal[rng.below(legal.len())].clone()
                    };
                    d = d.apply(&a).unwrap();
                    n += 1;
                }
                assert!(n <= MAX_DEAL_ACTIONS, "{:?}", d.history);
            }
        }
    }

    #[test]
    fn a_record_too_long_is_refused_before_replay() {
        let mut r = record(vec![DealAction::Deal; MAX_DEAL_ACTIONS + 1]);
        let e = r.replay(&Rules::default()).unwrap_err();
        assert_eq!((e.field.as_deref(), e.reason), (Some("deal_actions"), Reason::TooLarge));
        r.deal_actions = vec![];
        r.calls = vec![(0, Call::PingDa); MAX_CALLS + 1];
        assert_eq!(r.replay(&Rules::default()).unwrap_err().field.as_deref(), Some("calls"));
        r.calls = vec![];
        r.plays = vec![PlayAction::Pass { seat: 0 }; MAX_PLAYS + 1];
        assert_eq!(r.replay(&Rules::default()).unwrap_err().field.as_deref(), Some("plays"));
    }

    #[test]
    fn errors_name_the_action_and_phases_in_order() {
        let rules = Rules::default();
        // A 夢宣 before any card is dealt: the action itself.
        let e = record(vec![DealAction::MengXuan { seat: 0, card: card("Ah") }]).replay(&rules).unwrap_err();
        assert_eq!((e.field.as_deref(), e.action_index, e.reason), (Some("deal_actions[0]"), Some(0), Reason::IllegalAction));
        // A card the seat does not hold: the action's cards.
        let mut a = vec![DealAction::Deal; 5];
        a.push(DealAction::MengChuai { seat: 1, cards: [card("2s"), card("2h"), card("2d")] });
        let e = record(a).replay(&rules).unwrap_err();
        assert_eq!((e.field.as_deref(), e.action_index), (Some("deal_actions[5].cards"), Some(5)));
        // Calls before the deal is finished.
        let mut r = record(vec![DealAction::Deal]);
        r.calls = vec![(0, Call::PingDa)];
        let e = r.replay(&rules).unwrap_err();
        assert_eq!((e.field.as_deref(), e.reason), (Some("calls[0]"), Reason::IllegalAction));
        // A partial record stops where it ends.
        let r = record(vec![DealAction::Deal; 3]).replay(&rules).unwrap();
        assert!(!r.deal.finished && r.calling.is_none());
        // Plays before the calling is over.
        let mut r = record(longest_deal());
        r.plays = vec![PlayAction::Pass { seat: 0 }];
        let e = r.replay(&rules).unwrap_err();
        assert_eq!((e.field.as_deref(), e.reason), (Some("plays[0]"), Reason::IllegalAction));
        // A call out of turn names the call.
        let mut r = record(longest_deal());
        let c = r.replay(&rules).unwrap().calling.unwrap();
        let wrong = (c.turn().unwrap() + 1) % 4;
        r.calls = vec![(wrong, Call::PingDa)];
        let e = r.replay(&rules).unwrap_err();
        assert_eq!((e.field.as_deref().map(|f| f.starts_with("calls[0]")), e.action_index), (Some(true), Some(0)));
    }

    /// A 撐儲 without its colour is named by the deal: the colour of the seat's two aces,
    /// or an error of that entry when the seat holds none.
    #[test]
    fn a_cheng_chu_without_colour_is_named_by_the_deal() {
        let rules = Rules::default();
        let mut r = record(longest_deal());
        let at = r.deal_actions.len() - 2;
        r.deal_actions[at] = DealEntry::ChengChu { seat: 0, chu: None };
        let d = r.replay(&rules).unwrap().deal;
        assert_eq!(d.history, longest_deal());
        r.deal_actions[at] = DealEntry::ChengChu { seat: 1, chu: None };
        let e = r.replay(&rules).unwrap_err();
        let want = format!("deal_actions[{at}]");
        assert_eq!((e.field.as_deref(), e.action_index, e.reason), (Some(want.as_str()), Some(at), Reason::IllegalAction));
    }

    /// Several bad entries: the error is the first the replay reaches, an unreadable
    /// entry included, and an entry of a phase not begun is refused by its phase.
    #[test]
    fn entries_fail_where_the_replay_reaches_them() {
        let rules = Rules::default();
        let entries = |deal: Vec<std::result::Result<DealEntry, String>>, plays: Vec<std::result::Result<PlayAction, String>>| Entries {
            hands: rich_hands(),
            first_seat: 0,
            deal_actions: deal,
            calling_args: Ok((None, None)),
            calls: vec![],
            plays,
        };
        let core = |e: Error| format!("{:?} {:?} {:?}", e.field, e.reason, e.action_index);
        // An illegal deal_actions[0] before an unreadable plays[0]: the deal action.
        let e = entries(vec![Ok(DealAction::Finish.into())], vec![Err("plays[0] unreadable".into())]).replay(&rules, core).unwrap_err();
        assert_eq!(e, format!("{:?} {:?} {:?}", Some("deal_actions[0]"), Reason::IllegalAction, Some(0)));
        // An unreadable deal action after a legal one: that entry.
        let e =
            entries(vec![Ok(DealAction::Deal.into()), Err("deal_actions[1] unreadable".into())], vec![]).replay(&rules, core).unwrap_err();
        assert_eq!(e, "deal_actions[1] unreadable");
        // An unreadable play while the deal is not finished: refused by its phase.
        let e = entries(vec![Ok(DealAction::Deal.into())], vec![Err("plays[0] unreadable".into())]).replay(&rules, core).unwrap_err();
        assert_eq!(e, format!("{:?} {:?} {:?}", Some("plays[0]"), Reason::IllegalAction, Some(0)));
        // Every entry read: the record's own replay.
        let all: Vec<_> = longest_deal().into_iter().map(|a| Ok(a.into())).collect();
        let r = entries(all, vec![]).replay(&rules, core).unwrap();
        assert!(r.deal.finished && r.calling.is_some());
    }

    /// A whole game played with the first legal play (or a pass) replays to the same
    /// states as the state machines stepped by hand.
    #[test]
    fn a_whole_game_replays_to_the_state_machines_states() {
        let rules = Rules::default();
        let mut r = record(longest_deal());
        let mut c = r.replay(&rules).unwrap().calling.unwrap();
        while let Some(seat) = c.turn() {
            r.calls.push((seat, Call::PingDa));
            c = c.apply(seat, Call::PingDa).unwrap();
        }
        assert_eq!(c.outcome, Some(Outcome::Play));
        let deal = r.replay(&rules).unwrap().deal;
        let mut g = Game::new(&deal, &c).unwrap();
        while !g.is_over() {
            let a = match g.legal_plays().first() {
                Some(p) => PlayAction::Play { seat: g.turn.unwrap(), cards: p.cards.clone() },
                None => PlayAction::Pass { seat: g.turn.unwrap() },
            };
            g = g.apply(&a).unwrap();
            r.plays.push(a);
        }
        let out = r.replay(&rules).unwrap();
        assert_eq!((out.calling.as_ref(), out.game.as_ref()), (Some(&c), Some(&g)));
    }
}
