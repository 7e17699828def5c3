//! The table model of 越式13张 on a replayed record ([`Game`]): what a seat may see
//! ([`Game::view`]) and every action it may send now ([`Game::offers`]), each with how it
//! may act ([`Acting`]). Every surface (Python's `Game.view`, gRPC's seat views, the CLI's
//! `--viewer`) converts these; none decides visibility or the offers itself.
//!
//! What a seat sees is built from public events only (RULES 2.4–2.6): its own dealt
//! cards, every action of the record (plays and passes are made face up), each seat's
//! count of cards (13 dealt, less the cards it played), the instant win declared at the
//! deal, and the holder of the lowest card (it leads). The lowest card itself is shown
//! to its holder, or once played. Another seat's cards never appear.

use super::game::{Game, Trick};
use super::instant::InstantWin;
use super::play::{classify, sorted, Play};
use super::round::{first_leader, Action};
use super::rules::check_seat;
use crate::cards::Card;
use crate::error::{Error, Reason, Result};
use crate::table::{Acting, Offer};

/// The state of a game as one seat (or, with no seat, the table itself) may see it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatView {
    /// The seat it is seen by; `None`: the table, which sees every seat's cards.
    pub viewer: Option<usize>,
    pub players: usize,
    /// Each seat's dealt cards: `Some` for the viewer (every seat for the table).
    pub hands: Vec<Option<Vec<Card>>>,
    /// Each seat's cards left, the same seats shown.
    pub held: Vec<Option<Vec<Card>>>,
    /// Each seat's number of cards left (public: 13 dealt, less its plays).
    pub counts: Vec<usize>,
    pub played_any: Vec<bool>,
    /// Every action of the record (public: made face up).
    pub history: Vec<(usize, Action)>,
    pub tricks: Vec<Trick>,
    /// The chop chains so far: (payer, payee, value in bases).
    pub chops: Vec<(usize, usize, i64)>,
    /// The current round, 0 for the first.
    pub round: usize,
    /// Who led the current round (`None` after an instant win).
    pub leader: Option<usize>,
    /// The seat to move in turn (`None` once over).
    pub turn: Option<usize>,
    /// The play to beat and its seat (`None` on a lead).
    pub table: Option<(usize, Play)>,
    pub passed: Vec<usize>,
    pub winner: Option<usize>,
    pub instant: Option<InstantWin>,
    pub over: bool,
    /// The holder of the lowest card dealt (it leads the game: public).
    pub first_lead_seat: usize,
    /// The lowest card dealt: to its holder, or once played (`None` otherwise).
    pub first_lead_card: Option<Card>,
    /// The card the next play must contain (the first lead, under the rule), when shown.
    pub must_contain: Option<Card>,
    /// Every action the viewer may send now (the table: every seat), the seat in turn's
    /// first, then the chops of seats that passed, by seat; plays weakest first.
    pub offers: Vec<Offer<Action>>,
}

impl SeatView {
    /// The viewer's plays in turn (weakest first), whether it may pass, and its chops out of
    /// turn, from `offers` (the one list): what the surfaces show as `legal_plays`,
    /// `may_pass` and `chop_offers`.
    pub fn offer_groups(&self) -> Vec<OfferGroup> {
        let mut out: Vec<OfferGroup> = Vec::new();
        for o in &self.offers {
            let at = match out.last_mut() {
                Some(g) if g.seat == o.seat && g.acting == o.acting => g,
                _ => {
                    out.push(OfferGroup { seat: o.seat, acting: o.acting, plays: Vec::new(), may_pass: false });
                    out.last_mut().expect("pushed")
                }
            };
            match &o.action {
                Action::Pass => at.may_pass = true,
                Action::Play(c) => at.plays.push(classify(c).expect("an offered play is a play")),
            }
        }
        out
    }
}

/// One seat's offers of one kind: its plays (weakest first) and whether it may pass.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OfferGroup {
    pub seat: usize,
    pub acting: Acting,
    pub plays: Vec<Play>,
    pub may_pass: bool,
}

impl Game {
    /// A seat number from a caller (`field` names it): a seat of this game.
    pub fn seat_from(&self, seat: i64, field: &str) -> Result<usize> {
        match usize::try_from(seat) {
            Ok(s) => check_seat(s, self.players, field).map(|_| s),
            Err(_) => {
                Err(Error::field(field, format!("seat {seat} is not in the game (seats 0..{})", self.players - 1))
                    .because(Reason::OutOfRange))
            }
        }
    }

    /// Every action `seat` may send now, ready to apply as it is: in turn its legal plays
    /// then the pass when it may ([`Acting::Turn`]); after passing, the chops the rule
    /// `chop_window` leaves open ([`Acting::MayAct`]: letting the chance go is not acting).
    /// Empty when the seat has nothing to decide. An error: a seat not in the game.
    pub fn offers(&self, seat: usize) -> Result<Vec<Offer<Action>>> {
        check_seat(seat, self.players, "seat")?;
        let offer = |acting, action| Offer { seat, action, acting };
        let mut out = Vec::new();
        if self.turn() == Some(seat) {
            out.extend(self.legal_plays().into_iter().map(|p| offer(Acting::Turn, Action::Play(p.cards))));
            if self.may_pass() {
                out.push(offer(Acting::Turn, Action::Pass));
            }
        } else {
            out.extend(self.chops_open_to(seat).into_iter().map(|p| offer(Acting::MayAct, Action::Play(p.cards))));
        }
        Ok(out)
    }

    /// Whether `seat` has a decision to make now (its turn, or a chop open to it).
    pub fn decides(&self, seat: usize) -> bool {
        self.offers(seat).is_ok_and(|o| !o.is_empty())
    }

    /// The state as `seat` may see it (RULES 2.4–2.6, module doc). An error: a seat not in
    /// the game (OUT_OF_RANGE at `seat`).
    pub fn view(&self, seat: usize) -> Result<SeatView> {
        check_seat(seat, self.players, "seat")?;
        Ok(self.seen_by(Some(seat)))
    }

    /// The whole state, as the table (which dealt the cards) sees it: every seat's cards
    /// and every seat's offers.
    pub fn table_view(&self) -> SeatView {
        self.seen_by(None)
    }

    fn seen_by(&self, viewer: Option<usize>) -> SeatView {
        let n = self.players;
        let shown = |s: usize| viewer.is_none_or(|v| v == s);
        let (lead_seat, lead_card) = first_leader(self.hands()).expect("a game's hands were checked when it was made");
        // The lowest card is public once played, or to its holder.
        let lead_card_seen = shown(lead_seat) || !self.held(lead_seat).contains(&lead_card);
        let offers = match viewer {
            Some(v) => self.offers(v).expect("the viewer is a seat"),
            None => {
                let turn = self.turn().into_iter().flat_map(|t| self.offers(t).expect("a seat"));
                let chops = (0..n).filter(|&s| Some(s) != self.turn()).flat_map(|s| self.offers(s).expect("a seat"));
                turn.chain(chops).collect()
            }
        };
        SeatView {
            viewer,
            players: n,
            hands: (0..n).map(|s| shown(s).then(|| self.hands()[s].clone())).collect(),
            held: (0..n).map(|s| shown(s).then(|| self.held(s))).collect(),
            counts: (0..n).map(|s| self.held_mask(s).count_ones() as usize).collect(),
            played_any: (0..n).map(|s| self.played_any(s)).collect(),
            history: self.history.iter().map(|(s, a)| (*s, public(a))).collect(),
            tricks: self.tricks.clone(),
            chops: self.chops.clone(),
            round: self.round_no,
            leader: self.instant.is_none().then_some(self.current.leader),
            turn: self.turn(),
            table: self.table().cloned(),
            passed: self.passed(),
            winner: self.winner,
            instant: self.instant,
            over: self.is_over(),
            first_lead_seat: lead_seat,
            first_lead_card: lead_card_seen.then_some(lead_card),
            must_contain: self.must_contain().filter(|_| lead_card_seen),
            offers,
        }
    }
}

/// An action as the table saw it made (its cards in the game's order).
fn public(a: &Action) -> Action {
    match a {
        Action::Pass => Action::Pass,
        Action::Play(c) => Action::Play(sorted(c)),
    }
}

#[cfg(test)]
mod tests {
    use super::super::rules::{ChopWindow, Rules, TurnAfterChop, HAND_SIZE};
    use super::*;
    use crate::sampling::Rng;
    use proptest::prelude::*;

    fn deal(rng: &mut Rng, players: usize) -> Vec<Vec<Card>> {
        let mut deck: Vec<u8> = (0..52).collect();
        rng.shuffle(&mut deck);
        (0..players).map(|p| deck[p * 13..p * 13 + 13].iter().map(|&id| Card(id)).collect()).collect()
    }

    /// What the rule book makes known, written here apart from the engine: the deal (each
    /// seat learns its own 13 cards, everyone the counts) and every action of the record
    /// (made face up at the table).
    enum Event {
        Dealt { seat: usize, cards: Vec<Card> },
        Acted { seat: usize, cards: Option<Vec<Card>> },
    }

    /// The cards `seat` has been shown by `events`: its own deal and every card played.
    fn public_to(events: &[Event], seat: usize) -> u64 {
        let bits = |c: &[Card]| c.iter().fold(0u64, |m, c| m | c.bit());
        events.iter().fold(0, |m, e| match e {
            Event::Dealt { seat: s, cards } if *s == seat => m | bits(cards),
            Event::Acted { cards: Some(c), .. } => m | bits(c),
            _ => m,
        })
    }

    /// Every card a view shows anywhere.
    fn shown(v: &SeatView) -> u64 {
        let mut m = 0u64;
        let mut add = |c: &[Card]| m |= c.iter().fold(0u64, |m, c| m | c.bit());
        v.hands.iter().chain(&v.held).flatten().for_each(|h| add(h));
        for (_, a) in &v.history {
            if let Action::Play(c) = a {
                add(c);
            }
        }
        if let Some((_, p)) = &v.table {
            add(&p.cards);
        }
        for o in &v.offers {
            if let Action::Play(c) = &o.action {
                add(c);
            }
        }
        add(&v.first_lead_card.into_iter().chain(v.must_contain).collect::<Vec<_>>());
        m
    }

    fn rules(k: u8) -> Rules {
        Rules {
            first_lead_must_contain_lowest: k & 1 != 0,
            turn_after_chop: if k & 2 != 0 { TurnAfterChop::Resume } else { TurnAfterChop::FromChopper },
            chop_window: ChopWindow::ALL[(k >> 2) as usize % 4],
            ..Rules::default()
        }
    }

    /// A random game to its end through the table's offers (chops out of turn included),
    /// with the events of the rule book kept beside it.
    type Record = (Vec<Vec<Card>>, Vec<(usize, Action)>, Vec<Event>);

    fn random_game(seed: u64, players: usize, r: &Rules) -> Record {
        let mut rng = Rng::new(seed);
        let hands = deal(&mut rng, players);
        let mut events: Vec<Event> = hands.iter().enumerate().map(|(seat, h)| Event::Dealt { seat, cards: h.clone() }).collect();
        let mut g = Game::new(&hands, r).unwrap();
        while !g.is_over() {
            let offers = g.table_view().offers;
            let pass = offers.iter().position(|o| o.action == Action::Pass);
            let pick = match pass {
                Some(p) if rng.below(3) == 0 => p,
                _ => rng.below(offers.len()),
            };
            let o = &offers[pick];
            g.apply_mut(o.seat, &o.action).unwrap();
            events.push(Event::Acted {
                seat: o.seat,
                cards: match &o.action {
                    Action::Play(c) => Some(c.clone()),
                    Action::Pass => None,
                },
            });
        }
        (hands, g.history.clone(), events)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(40))]
        /// RULES 2.4 `chop_window`: on every state of random games, the chops open to each
        /// seat grow from `strict` to `first_actor` to `own_pass` to `open` (a reading opens
        /// all of a seat's chops or none), and every chop offered is accepted by `apply`.
        #[test]
        fn chop_windows_nest(seed in any::<u64>(), players in 2usize..=4, k in 0u8..16) {
            let r = rules(k);
            let (hands, record, _) = random_game(seed, players, &r);
            let mut g = Game::new(&hands, &r).unwrap();
            for (s, a) in &record {
                let opened = |w: ChopWindow| {
                    let mut h = g.clone();
                    h.current.chop_window = w;
                    (0..players).map(|s| h.chops_open_to(s).len()).collect::<Vec<_>>()
                };
                let sizes: Vec<Vec<usize>> = ChopWindow::ALL.iter().map(|&w| opened(w)).collect();
                let [first, strict, own, open] = [0, 1, 2, 3].map(|i| &sizes[i]);
                for seat in 0..players {
                    prop_assert!(strict[seat] <= first[seat] && first[seat] <= own[seat] && own[seat] <= open[seat]);
                    for x in [strict, first, own, open] {
                        prop_assert!(x[seat] == 0 || x[seat] == open[seat]);
                    }
                }
                for o in g.table_view().offers.iter().filter(|o| o.acting == Acting::MayAct) {
                    prop_assert!(g.apply(o.seat, &o.action).is_ok());
                }
                g.apply_mut(*s, a).unwrap();
            }
        }

        /// For every prefix of a random record and every seat: no card the rule book has not
        /// shown that seat appears in its view; its own cards, the counts and the record
        /// are the events' own; the offers are its own and each is accepted by `apply`;
        /// and redealing the cards it cannot see among the other seats changes nothing of
        /// its view.
        #[test]
        fn a_view_shows_only_public_cards(seed in any::<u64>(), players in 2usize..=4, k in 0u8..16) {
            let r = rules(k);
            let (hands, record, events) = random_game(seed, players, &r);
            let mut rng = Rng::new(seed ^ 0x5eed);
            for n in 0..=record.len() {
                let g = Game::replay(&hands, &record[..n], &r).unwrap();
                let seen = &events[..players + n];
                for v in 0..players {
                    let view = g.view(v).unwrap();
                    let public = public_to(seen, v);
                    prop_assert_eq!(shown(&view) & !public, 0, "prefix {} seat {}: {:?}", n, v, view);
                    let played = |s: usize| seen.iter().filter_map(|e| match e { Event::Acted { seat, cards: Some(c) } if *seat == s => Some(c.len()), _ => None }).sum::<usize>();
                    prop_assert_eq!(view.counts.clone(), (0..players).map(|s| HAND_SIZE - played(s)).collect::<Vec<_>>());
                    for s in 0..players {
                        prop_assert_eq!(view.hands[s].is_some(), s == v);
                        prop_assert_eq!(view.held[s].is_some(), s == v);
                    }
                    prop_assert_eq!(view.history.len(), n);
                    for o in &view.offers {
                        prop_assert_eq!(o.seat, v);
                        prop_assert!(g.apply(v, &o.action).is_ok());
                        prop_assert_eq!(o.acting == Acting::Turn, g.turn() == Some(v));
                    }
                    // The cards v cannot see, dealt again among the other seats (each keeps
                    // its count, the lowest card stays with its holder: it leads).
                    let lowest = first_leader(&hands).unwrap().1;
                    let mut hidden: Vec<Card> = (0..players).filter(|&s| s != v).flat_map(|s| g.held(s)).filter(|&c| c != lowest).collect();
                    rng.shuffle(&mut hidden);
                    let mut redealt = hands.clone();
                    for s in (0..players).filter(|&s| s != v) {
                        let held = g.held(s);
                        let keep: Vec<Card> = hands[s].iter().copied().filter(|c| !held.contains(c) || *c == lowest).collect();
                        let take = HAND_SIZE - keep.len();
                        redealt[s] = keep.into_iter().chain(hidden.drain(..take)).collect();
                    }
                    if let Ok(other) = Game::replay(&redealt, &record[..n], &r) {
                        if other.instant == g.instant && other.winner == g.winner {
                            prop_assert_eq!(other.view(v).unwrap(), view.clone());
                        }
                    }
                }
            }
        }
    }
}
