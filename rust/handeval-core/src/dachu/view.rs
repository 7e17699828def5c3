//! The 打儲 table as each seat sees it: the one definition of what a seat may see
//! ([`Replayed::view`]), what it may send now ([`Replayed::offers`]) and the 托管 answer for
//! it ([`Replayed::suggest`]). Every surface (Python, the CLI, gRPC) only converts these.
//!
//! What a seat may see is derived from the rule book's public events ([`public_cards`]):
//! the cards played, the ace of a 夢宣, the triple of a 夢踹, the two aces of a 撐儲, and the
//! last card dealt only when 平宣 turns it up at the end of the deal (RULES 3.5 [v5]); to
//! those a seat adds its own cards. Every card of a view passes through [`Sight`].

use super::calling::{Call, Calling};
use super::deal::{ChuSource, Deal, DealAction, SEATS};
use super::game::{Game, PlayAction, Trick};
use super::play::{Chu, LegalPlay, Play, THREE_OF_HEARTS};
use super::record::Replayed;
use super::settle::Verdict;
use super::suggest;
use crate::cards::{Card, CardSet};
use crate::error::{Error, Reason, Result};
use crate::table::{Acting, Offer};

/// One action a seat sends to the table, of any phase.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// A declaration of the deal (夢宣, 夢踹, 撐儲); the table's own DEAL and FINISH are
    /// never a seat's offer.
    Deal(DealAction),
    /// A call of 叫牌.
    Call { seat: usize, call: Call },
    /// A play, a pass, or the timeout (RULES 3.7: the table plays for the seat).
    Play(PlayAction),
}

/// Where the record stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    Deal,
    Calling,
    Play,
    /// The play is over, or a whole side surrendered at the calling.
    Over,
}

/// The cards the rule book has made public in a deal and its play: played cards
/// (the 3♥ played out for a holder who sits out included), the 夢宣 ace, the 夢踹 triples,
/// the aces a 撐儲 declares, and the last card dealt once 平宣 has turned it up.
pub(crate) fn public_cards(deal: &Deal, game: Option<&Game>) -> CardSet {
    let mut m = 0u64;
    for a in &deal.history {
        match a {
            DealAction::MengXuan { card, .. } => m |= card.bit(),
            DealAction::MengChuai { cards, .. } => m |= CardSet::from_cards(cards).0,
            DealAction::ChengChu { chu, .. } => m |= CardSet::from_cards(&chu.aces()).0,
            DealAction::Deal | DealAction::Finish => {}
        }
    }
    if deal.finished && deal.chu_source == Some(ChuSource::PingXuan) {
        m |= deal.last_card().bit();
    }
    if let Some(g) = game {
        for a in &g.history {
            if let PlayAction::Play { cards, .. } = a {
                m |= CardSet::from_cards(cards).0;
            }
        }
        if g.auto_lead.is_some() {
            m |= THREE_OF_HEARTS.bit();
        }
    }
    CardSet(m)
}

/// Who looks: the table itself (`viewer: None`, every card), or one seat (its own cards
/// and the public ones).
#[derive(Clone, Copy, Debug)]
pub struct Sight {
    pub viewer: Option<usize>,
    public: CardSet,
    known: CardSet,
}

fn not_a_seat(seat: impl std::fmt::Display) -> Error {
    Error::field("seat", format!("seat {seat} is not in the game (seats 0..3)")).because(Reason::OutOfRange)
}

/// A viewer seat as a caller gives it (any integer): 0..3, else OUT_OF_RANGE at `seat`.
pub fn viewer_seat(seat: i64) -> Result<usize> {
    usize::try_from(seat).ok().filter(|&v| v < SEATS).ok_or_else(|| not_a_seat(seat))
}

impl Sight {
    /// The sight of `viewer` on the deal and its play; a seat outside 0..3 is OUT_OF_RANGE
    /// at `seat`.
    pub fn new(deal: &Deal, game: Option<&Game>, viewer: Option<usize>) -> Result<Sight> {
        let public = public_cards(deal, game);
        let known = match viewer {
            None => CardSet::FULL_DECK,
            Some(v) if v < SEATS => CardSet(public.0 | CardSet::from_cards(deal.held(v)).0),
            Some(v) => return Err(not_a_seat(v)),
        };
        Ok(Sight { viewer, public, known })
    }
    /// Whether every card of `seat` is seen (the table, or the seat itself).
    pub fn sees_seat(&self, seat: usize) -> bool {
        self.viewer.is_none_or(|v| v == seat)
    }
    /// Whether `seat`'s choices are shown (the table's, or the viewer's own).
    pub fn shows_choices_of(&self, seat: Option<usize>) -> bool {
        self.viewer.is_none() || (seat.is_some() && seat == self.viewer)
    }
    pub fn sees(&self, c: Card) -> bool {
        self.known.contains(c)
    }
    /// The cards the rule book made public so far.
    pub fn public(&self) -> CardSet {
        self.public
    }
    /// `seat`'s cards when seen, else `None`.
    fn seat_cards(&self, seat: usize, cards: &[Card]) -> Option<Vec<Card>> {
        self.sees_seat(seat).then(|| cards.to_vec())
    }
}

/// The deal as one seat (or the table) sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DealView {
    pub dealt: u8,
    pub finished: bool,
    pub chu: Option<Chu>,
    pub chu_source: Option<ChuSource>,
    /// The 儲方 seats once the deal is finished (public: the calling is by sides).
    pub chu_side: Option<Vec<usize>>,
    pub multiplier: i64,
    pub declared: bool,
    /// Per seat: the cards dealt so far; `None` for a seat the viewer does not see.
    pub held: Vec<Option<Vec<Card>>>,
    pub meng_xuan: [Option<Card>; SEATS],
    pub meng_chuai: [Option<[Card; 3]>; SEATS],
    pub cheng_chu: [bool; SEATS],
    /// The last card dealt: for the table once dealt; for a seat only once 平宣 turned it
    /// up at the end of the deal (RULES 3.5 [v5]).
    pub last_card: Option<Card>,
    /// The seat holding the 3♥: for a seat, once the play begins or when it holds it.
    pub first_leader: Option<usize>,
    /// The actions allowed now: for the table all of them (DEAL and FINISH first), for a
    /// seat its own declarations.
    pub legal_actions: Vec<DealAction>,
}

impl DealView {
    /// `play_begun`: the play has begun (who leads first is then public).
    pub fn new(deal: &Deal, sight: &Sight, play_begun: bool) -> DealView {
        let leader = deal.first_leader();
        let holds_3h = |v: usize| deal.held(v).contains(&THREE_OF_HEARTS);
        DealView {
            dealt: deal.dealt,
            finished: deal.finished,
            chu: deal.chu,
            chu_source: deal.chu_source,
            chu_side: deal.chu_side(),
            multiplier: deal.multiplier,
            declared: deal.declared(),
            held: (0..SEATS).map(|s| sight.seat_cards(s, deal.held(s))).collect(),
            meng_xuan: deal.meng_xuan,
            meng_chuai: deal.meng_chuai,
            cheng_chu: deal.cheng_chu,
            last_card: deal.dealt_last_card().filter(|&c| sight.viewer.is_none() || sight.public.contains(c)),
            first_leader: match sight.viewer {
                Some(v) if !play_begun && !holds_3h(v) => None,
                _ => Some(leader),
            },
            legal_actions: deal.legal_actions().into_iter().filter(|a| sight.viewer.is_none() || a.seat() == sight.viewer).collect(),
        }
    }
}

/// The calling as one seat sees it: all of it is public but the choices, shown to the
/// seat to call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CallingView {
    pub calling: Calling,
    pub legal_calls: Vec<Call>,
}

impl CallingView {
    /// `viewer`: the seat that looks (`None`: the table).
    pub fn new(calling: &Calling, viewer: Option<usize>) -> CallingView {
        let shown = viewer.is_none() || (calling.turn().is_some() && calling.turn() == viewer);
        let legal_calls = if shown { calling.legal_calls() } else { Vec::new() };
        CallingView { calling: calling.clone(), legal_calls }
    }
}

/// The play as one seat sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayView {
    pub chu: Chu,
    pub chu_side: Vec<usize>,
    pub multiplier: i64,
    pub playing: [bool; SEATS],
    pub surrendered: Vec<usize>,
    pub bei_bao_da: Vec<usize>,
    /// Per seat: the 夢踹 triple (public since the deal).
    pub shown: [Option<[Card; 3]>; SEATS],
    pub auto_lead: Option<usize>,
    pub turn: Option<usize>,
    pub leader: Option<usize>,
    pub table: Option<(usize, Vec<Card>, Play)>,
    pub passed: Vec<usize>,
    pub places: Vec<usize>,
    /// The actions applied, a timeout as the play or pass it became.
    pub history: Vec<PlayAction>,
    pub tricks: Vec<Trick>,
    /// The index in `history` of each timeout (the client's columns stay unseen).
    pub timeouts: Vec<usize>,
    pub over: bool,
    pub surrender: bool,
    pub decided: Option<(Verdict, bool)>,
    /// Per seat: the 13 cards dealt, `None` for a seat the viewer does not see.
    pub hands: Vec<Option<Vec<Card>>>,
    /// Per seat: the cards still held, `None` for a seat the viewer does not see.
    pub held: Vec<Option<Vec<Card>>>,
    /// Per seat: the number of cards still held (public).
    pub counts: Vec<usize>,
    /// The choices of the seat to move, for the table or that seat only.
    pub legal_plays: Vec<LegalPlay>,
    pub may_pass: bool,
}

impl PlayView {
    pub fn new(g: &Game, sight: &Sight) -> PlayView {
        let mine = sight.shows_choices_of(g.turn);
        PlayView {
            chu: g.chu,
            chu_side: g.chu_side.clone(),
            multiplier: g.multiplier,
            playing: g.playing,
            surrendered: g.surrendered.clone(),
            bei_bao_da: g.bei_bao_da.clone(),
            shown: g.shown,
            auto_lead: g.auto_lead,
            turn: g.turn,
            leader: g.leader,
            table: g.table.clone(),
            passed: g.passed_seats(),
            places: g.places.clone(),
            history: g.history.clone(),
            tricks: g.tricks.clone(),
            timeouts: g.timeouts.iter().map(|(k, _)| *k).collect(),
            over: g.is_over(),
            surrender: g.surrender,
            decided: g.decided(),
            hands: (0..SEATS).map(|s| sight.seat_cards(s, &g.hands()[s])).collect(),
            held: (0..SEATS).map(|s| sight.seat_cards(s, g.held(s))).collect(),
            counts: (0..SEATS).map(|s| g.held(s).len()).collect(),
            legal_plays: if mine { g.legal_plays() } else { Vec::new() },
            may_pass: mine && g.may_pass(),
        }
    }
}

/// A whole record as one seat (or the table) sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct View {
    pub viewer: Option<usize>,
    pub phase: Phase,
    pub deal: DealView,
    pub calling: Option<CallingView>,
    pub play: Option<PlayView>,
    /// What the viewer may send now ([`Replayed::offers`]); for the table, every seat's.
    pub offers: Vec<Offer<Action>>,
}

impl DealView {
    fn cards(&self) -> Vec<Card> {
        let mut out: Vec<Card> = self.held.iter().flatten().flatten().copied().collect();
        out.extend(self.meng_xuan.iter().flatten());
        out.extend(self.meng_chuai.iter().flatten().flatten());
        out.extend(self.last_card);
        for a in &self.legal_actions {
            match a {
                DealAction::MengXuan { card, .. } => out.push(*card),
                DealAction::MengChuai { cards, .. } => out.extend(cards),
                _ => {}
            }
        }
        out
    }
}

impl PlayView {
    fn cards(&self) -> Vec<Card> {
        let mut out: Vec<Card> = self.hands.iter().chain(&self.held).flatten().flatten().copied().collect();
        out.extend(self.shown.iter().flatten().flatten());
        out.extend(self.table.iter().flat_map(|t| t.1.iter()));
        for a in &self.history {
            if let PlayAction::Play { cards, .. } = a {
                out.extend(cards);
            }
        }
        out.extend(self.legal_plays.iter().flat_map(|p| p.cards.iter()));
        out
    }
}

impl View {
    /// Every card the view shows, wherever it is (with repeats).
    pub fn cards(&self) -> Vec<Card> {
        let mut out = self.deal.cards();
        out.extend(self.play.iter().flat_map(PlayView::cards));
        out
    }
}

impl Replayed {
    pub fn phase(&self) -> Phase {
        match (&self.calling, &self.game) {
            (None, _) => Phase::Deal,
            (Some(c), None) if c.is_over() => Phase::Over,
            (Some(_), None) => Phase::Calling,
            (Some(_), Some(g)) if g.is_over() => Phase::Over,
            (Some(_), Some(_)) => Phase::Play,
        }
    }

    /// The record as `viewer` sees it (`None`: the table, every card); a seat outside 0..3
    /// is OUT_OF_RANGE at `seat`.
    pub fn view(&self, viewer: Option<usize>) -> Result<View> {
        let sight = Sight::new(&self.deal, self.game.as_ref(), viewer)?;
        let phase = self.phase();
        let deal = DealView::new(&self.deal, &sight, self.game.is_some());
        let play = self.game.as_ref().map(|g| PlayView::new(g, &sight));
        // The offers from what the view already holds (the same as `offers(seat)`).
        let seats: Vec<usize> = viewer.map_or((0..SEATS).collect(), |v| vec![v]);
        let offers = match (phase, &self.calling, &play) {
            (Phase::Deal, _, _) => seats.iter().flat_map(|&s| deal_offers_among(&deal.legal_actions, s)).collect(),
            (Phase::Calling, Some(c), _) => seats.iter().flat_map(|&s| call_offers(c, s)).collect(),
            (Phase::Play, _, Some(p)) => match p.turn {
                Some(t) if seats.contains(&t) => play_offers_of(t, &p.legal_plays, p.may_pass),
                _ => Vec::new(),
            },
            _ => Vec::new(),
        };
        let view = View { viewer, phase, deal, calling: self.calling.as_ref().map(|c| CallingView::new(c, viewer)), play, offers };
        // By construction every card passed through `sight`; checked in debug builds.
        debug_assert!(view.cards().iter().all(|&c| sight.sees(c)), "a view shows a card its seat may not see");
        Ok(view)
    }

    /// Every action `seat` may send now, ready to send back as it is, with how it may act:
    /// in the deal its declarations (each seat may act beside the others), at the calling
    /// the calls of the seat to call, in the play the plays, the pass and the timeout of
    /// the seat to move. Never the table's own DEAL and FINISH.
    pub fn offers(&self, seat: usize) -> Result<Vec<Offer<Action>>> {
        if seat >= SEATS {
            return Err(Error::field("seat", format!("seat {seat} is not in the game (seats 0..3)")).because(Reason::OutOfRange));
        }
        Ok(match self.phase() {
            Phase::Deal => deal_offers(&self.deal, seat),
            Phase::Calling => call_offers(self.calling.as_ref().expect("the calling phase has a calling"), seat),
            Phase::Play => play_offers(self.game.as_ref().expect("the play phase has a game"), seat),
            Phase::Over => Vec::new(),
        })
    }

    /// Whether `seat` has a decision to make now (an offer).
    pub fn decides(&self, seat: usize) -> bool {
        self.offers(seat).is_ok_and(|o| !o.is_empty())
    }

    /// 托管: what `seat` should do now, from its own information only: in the deal a
    /// declaration or `None` (declare nothing), at the calling a call, in the play a play
    /// or a pass. `Ok(None)` too when `seat` has no decision now. `between`: called inside
    /// a long search; false stops it (see [`suggest::suggest_yielding`]).
    pub fn suggest(&self, seat: usize, seed: u64, effort: u32, between: &dyn Fn() -> bool) -> Result<Option<Suggested>> {
        if !self.decides(seat) {
            return Ok(None);
        }
        Ok(Some(match self.phase() {
            Phase::Deal => {
                let s = suggest::suggest_deal(&suggest::DealView::new(&self.deal, seat)?, seed, effort)?;
                Suggested {
                    action: s.action.map(Action::Deal),
                    alternatives: s.alternatives.into_iter().map(|a| (a.action.map(Action::Deal), a.score)).collect(),
                }
            }
            Phase::Calling => {
                let c = self.calling.as_ref().expect("the calling phase has a calling");
                let s = suggest::suggest_call(&suggest::CallView::of_deal(&self.deal, c, seat)?, seed, effort)?;
                Suggested {
                    action: Some(Action::Call { seat, call: s.call }),
                    alternatives: s.alternatives.into_iter().map(|a| (Some(Action::Call { seat, call: a.action }), a.score)).collect(),
                }
            }
            Phase::Play => {
                let g = self.game.as_ref().expect("the play phase has a game");
                let s = suggest::suggest_yielding(&suggest::View::new(g, seat)?, seed, effort, between)?;
                Suggested {
                    action: Some(Action::Play(s.action)),
                    alternatives: s.alternatives.into_iter().map(|a| (Some(Action::Play(a.action)), a.score)).collect(),
                }
            }
            Phase::Over => return Ok(None),
        }))
    }
}

/// `seat`'s declarations open now: each may be made beside the others' (never the
/// table's DEAL and FINISH).
pub fn deal_offers(deal: &Deal, seat: usize) -> Vec<Offer<Action>> {
    deal_offers_among(&deal.legal_actions(), seat)
}

/// `seat`'s offers among the deal's legal actions `legal`.
fn deal_offers_among(legal: &[DealAction], seat: usize) -> Vec<Offer<Action>> {
    let mine = legal.iter().filter(|a| a.seat() == Some(seat));
    mine.map(|a| Offer { seat, action: Action::Deal(a.clone()), acting: Acting::MayAct }).collect()
}

/// The calls of `seat` when it is to call.
pub(crate) fn call_offers(calling: &Calling, seat: usize) -> Vec<Offer<Action>> {
    if calling.turn() != Some(seat) {
        return Vec::new();
    }
    calling.legal_calls().into_iter().map(|call| Offer { seat, action: Action::Call { seat, call }, acting: Acting::Turn }).collect()
}

/// The plays, the pass (when following) and the timeout of `seat` when it is to move.
pub fn play_offers(g: &Game, seat: usize) -> Vec<Offer<Action>> {
    if g.turn != Some(seat) {
        return Vec::new();
    }
    play_offers_of(seat, &g.legal_plays(), g.may_pass())
}

/// The offers of the seat to move, from its legal plays and whether it may pass.
fn play_offers_of(seat: usize, legal_plays: &[LegalPlay], may_pass: bool) -> Vec<Offer<Action>> {
    let turn = |p: PlayAction| Offer { seat, action: Action::Play(p), acting: Acting::Turn };
    let mut out: Vec<Offer<Action>> = legal_plays.iter().map(|p| turn(PlayAction::Play { seat, cards: p.cards.clone() })).collect();
    if may_pass {
        out.push(turn(PlayAction::Pass { seat }));
    }
    out.push(turn(PlayAction::Timeout { seat, columns: None }));
    out
}

/// A suggestion of [`Replayed::suggest`]: the action (`None`: in the deal, declare
/// nothing) and the choices weighed, best first.
#[derive(Clone, Debug, PartialEq)]
pub struct Suggested {
    pub action: Option<Action>,
    pub alternatives: Vec<(Option<Action>, f64)>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dachu::record::{DealEntry, Record};
    use crate::dachu::rules::{DeclareOncePer, Rules};
    use crate::sampling::Rng;
    use proptest::prelude::*;

    /// A random game walked from the offers: in the deal mostly the table's DEAL (or
    /// FINISH), sometimes a seat's declaration; at the calling and in the play one of the
    /// offers of the seat to act, the timeout included. Every prefix of the result is a
    /// record too.
    fn random_game(seed: u64, rules: &Rules) -> Record {
        let mut rng = Rng::new(seed);
        let mut deck: Vec<Card> = (0..52u8).map(Card).collect();
        rng.shuffle(&mut deck);
        let hands: Vec<Vec<Card>> = deck.chunks(13).map(|c| c.to_vec()).collect();
        let mut r = Record {
            hands,
            first_seat: rng.below(4),
            deal_actions: vec![],
            start_seat: None,
            first_side: None,
            calls: vec![],
            plays: vec![],
        };
        loop {
            let replayed = r.replay(rules).expect("an offered action is legal");
            let offers: Vec<Offer<Action>> = (0..SEATS).flat_map(|s| replayed.offers(s).unwrap()).collect();
            match replayed.phase() {
                Phase::Over => return r,
                Phase::Deal => {
                    let table = if replayed.deal.dealt < 13 { DealAction::Deal } else { DealAction::Finish };
                    let a = match offers.len() {
                        n if n > 0 && rng.below(3) == 0 => match &offers[rng.below(n)].action {
                            Action::Deal(a) => a.clone(),
                            other => panic!("a deal offer is a declaration: {other:?}"),
                        },
                        _ => table,
                    };
                    r.deal_actions.push(DealEntry::Action(a));
                }
                Phase::Calling | Phase::Play => {
                    assert!(offers.iter().all(|o| o.acting == Acting::Turn), "{offers:?}");
                    match offers[rng.below(offers.len())].action.clone() {
                        Action::Call { seat, call } => r.calls.push((seat, call)),
                        Action::Play(p) => r.plays.push(p),
                        Action::Deal(a) => panic!("a deal action after the deal: {a:?}"),
                    }
                }
            }
        }
    }

    /// Every prefix of a record, shortest first.
    fn prefixes(r: &Record) -> Vec<Record> {
        let mut out = Vec::new();
        let empty = Record { deal_actions: vec![], calls: vec![], plays: vec![], ..r.clone() };
        for n in 0..=r.deal_actions.len() {
            out.push(Record { deal_actions: r.deal_actions[..n].to_vec(), ..empty.clone() });
        }
        for n in 1..=r.calls.len() {
            out.push(Record { calls: r.calls[..n].to_vec(), ..out.last().unwrap().clone() });
        }
        for n in 1..=r.plays.len() {
            out.push(Record { plays: r.plays[..n].to_vec(), ..out.last().unwrap().clone() });
        }
        out
    }

    /// The cards the rule book has made public in a record, listed from its events here,
    /// independently of the view: the 夢宣 ace, the 夢踹 triple, the 撐儲 aces, the last
    /// card dealt when the deal finished with neither 夢宣 nor a colour-fixing 撐儲 (平宣),
    /// every card played (a timeout: what the table played for it), and the 3♥ played out
    /// for a holder who sits out.
    fn public_by_the_book(r: &Record, rules: &Rules, replayed: &Replayed) -> Vec<Card> {
        let mut out = Vec::new();
        let (mut xuan, mut cheng, mut finished) = (false, false, false);
        for e in &r.deal_actions {
            match e {
                DealEntry::Action(DealAction::MengXuan { card, .. }) => {
                    xuan = true;
                    out.push(*card);
                }
                DealEntry::Action(DealAction::MengChuai { cards, .. }) => out.extend(cards),
                DealEntry::Action(DealAction::ChengChu { chu, .. }) => {
                    cheng = true;
                    out.extend(chu.aces());
                }
                DealEntry::Action(DealAction::Finish) => finished = true,
                _ => {}
            }
        }
        if finished && !xuan && !(cheng && rules.cheng_chu_alone) {
            out.push(r.hands[(r.first_seat + 3) % 4][12]);
        }
        for (k, p) in r.plays.iter().enumerate() {
            match p {
                PlayAction::Play { cards, .. } => out.extend(cards),
                PlayAction::Timeout { .. } => {
                    if let PlayAction::Play { cards, .. } = &replayed.game.as_ref().unwrap().history[k] {
                        out.extend(cards);
                    }
                }
                PlayAction::Pass { .. } => {}
            }
        }
        if let Some(c) = &replayed.calling {
            let holder = (0..4).find(|&s| r.hands[s].contains(&THREE_OF_HEARTS)).unwrap();
            if replayed.game.is_some() && !c.playing().contains(&holder) {
                out.push(THREE_OF_HEARTS);
            }
        }
        out
    }

    /// The cards `seat` holds so far: one a DEAL up to 8, then all 13.
    fn own(r: &Record, seat: usize) -> Vec<Card> {
        let deals = r.deal_actions.iter().filter(|e| matches!(e, DealEntry::Action(DealAction::Deal))).count();
        r.hands[seat][..if deals > 8 { 13 } else { deals }].to_vec()
    }

    fn rules_of(k: u8) -> Rules {
        let once = [DeclareOncePer::PlayerAndKind, DeclareOncePer::Player, DeclareOncePer::Game][usize::from(k % 3)];
        Rules { cheng_chu_alone: k & 4 == 0, declare_once_per: once, ..Rules::default() }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

        /// For every prefix of a random game and every seat, the view shows no card that
        /// is not the seat's own or made public by the rule book.
        #[test]
        fn a_seat_sees_only_its_own_and_public_cards(seed in any::<u64>(), k in 0u8..8) {
            let rules = rules_of(k);
            let game = random_game(seed, &rules);
            for r in prefixes(&game) {
                let replayed = r.replay(&rules).unwrap();
                let public = public_by_the_book(&r, &rules, &replayed);
                for seat in 0..SEATS {
                    let mine = own(&r, seat);
                    let view = replayed.view(Some(seat)).unwrap();
                    for c in view.cards() {
                        prop_assert!(mine.contains(&c) || public.contains(&c),
                            "seat {} sees {} (deal {:?}, {} calls, {} plays)", seat, c, r.deal_actions, r.calls.len(), r.plays.len());
                    }
                    // A suggestion is the seat's own decision, among its offers.
                    let offers = replayed.offers(seat).unwrap();
                    prop_assert_eq!(&view.offers, &offers);
                    let s = replayed.suggest(seat, seed, 0, &|| true).unwrap();
                    prop_assert_eq!(s.is_some(), !offers.is_empty());
                    if let Some(Suggested { action: Some(a), .. }) = s {
                        let timeout_as_pass = matches!(&a, Action::Play(PlayAction::Pass { .. }));
                        prop_assert!(offers.iter().any(|o| o.action == a) || timeout_as_pass, "{:?} not in {:?}", a, offers);
                    }
                }
                // The table sees every card dealt so far.
                let table = replayed.view(None).unwrap();
                let dealt: usize = (0..SEATS).map(|s| own(&r, s).len()).sum();
                prop_assert_eq!(table.deal.held.iter().flatten().map(Vec::len).sum::<usize>(), dealt);
            }
        }
    }

    /// RULES 3.5 [v5] by hand: after a 夢宣 the last card dealt stays its holder's; with
    /// 平宣 it is shown to every seat only once the deal is finished.
    #[test]
    fn the_last_card_is_public_only_when_ping_xuan_turns_it_up() {
        let rules = Rules::default();
        let mut deck: Vec<Card> = (0..52u8).map(Card).collect();
        Rng::new(3).shuffle(&mut deck);
        // Put an ace first in seat 0's hand, so 夢宣 is open after the first card.
        let ace = *deck.iter().find(|c| c.rank() == crate::cards::rank::ACE).unwrap();
        let at = deck.iter().position(|&c| c == ace).unwrap();
        deck.swap(0, at);
        let hands: Vec<Vec<Card>> = deck.chunks(13).map(|c| c.to_vec()).collect();
        let last = hands[3][12];
        let record = |actions: Vec<DealAction>| Record {
            hands: hands.clone(),
            first_seat: 0,
            deal_actions: actions.into_iter().map(DealEntry::Action).collect(),
            start_seat: None,
            first_side: None,
            calls: vec![],
            plays: vec![],
        };
        let mut xuan = vec![DealAction::Deal, DealAction::MengXuan { seat: 0, card: ace }];
        xuan.extend(vec![DealAction::Deal; 8]);
        xuan.push(DealAction::Finish);
        let r = record(xuan).replay(&rules).unwrap();
        for v in 0..3 {
            assert_eq!(r.view(Some(v)).unwrap().deal.last_card, None);
            assert!(!r.view(Some(v)).unwrap().cards().contains(&last));
        }
        assert_eq!(r.view(None).unwrap().deal.last_card, Some(last));
        let dealt = record(vec![DealAction::Deal; 9]).replay(&rules).unwrap();
        assert_eq!(dealt.view(Some(1)).unwrap().deal.last_card, None, "before FINISH");
        let mut ping = vec![DealAction::Deal; 9];
        ping.push(DealAction::Finish);
        let r = record(ping).replay(&rules).unwrap();
        assert_eq!(r.deal.chu_source, Some(ChuSource::PingXuan));
        assert!((0..4).all(|v| r.view(Some(v)).unwrap().deal.last_card == Some(last)));
    }

    /// The offers: a deal's declarations may be made beside the others', DEAL and FINISH
    /// are never offered; the play's offers end with the timeout.
    #[test]
    fn offers_say_who_may_act() {
        let rules = Rules::default();
        let game = random_game(11, &rules);
        let mut saw_timeout = false;
        for r in prefixes(&game) {
            let replayed = r.replay(&rules).unwrap();
            for seat in 0..SEATS {
                let offers = replayed.offers(seat).unwrap();
                for o in &offers {
                    assert_eq!(o.seat, seat);
                    match &o.action {
                        Action::Deal(a) => {
                            assert_eq!((a.seat(), o.acting), (Some(seat), Acting::MayAct));
                        }
                        Action::Call { .. } | Action::Play(_) => assert_eq!(o.acting, Acting::Turn),
                    }
                }
                if let Some(Offer { action: Action::Play(PlayAction::Timeout { .. }), .. }) = offers.last() {
                    saw_timeout = true;
                }
            }
        }
        assert!(saw_timeout);
        assert_eq!(game.replay(&rules).unwrap().offers(4).unwrap_err().reason, Reason::OutOfRange);
    }
}
