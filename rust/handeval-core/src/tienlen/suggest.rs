//! 托管: the move a seat should make, from what that seat can see (docs/suggest.md).
//!
//! [`View`] is a seat's information set: its own cards, the public record and the other
//! seats' card counts. The other seats' cards are replaced, when the view is made, by a
//! fixed placeholder deal of the unseen cards, so nothing built on a view can read them.
//!
//! * effort 0 (the default): a heuristic — plan the hand into groups (straights, pairs,
//!   triples, specials, singles), shed the weakest whole group, keep 2s and specials for
//!   when they win a trick, chop when offered, block a seat about to go out;
//! * effort n > 0: n determinizations (deals of the unseen cards consistent with the
//!   card counts and the record), each candidate played out to the end with the
//!   heuristic in every seat; the candidate with the best mean money wins.

use super::game::Game;
use super::play::{rank, Kind, Play, ACE, TWO};
use super::round::Action;
use super::sure_win::{self, Endgame, Verdict, NODE_BUDGET};
use crate::error::{Error, Reason, Result};
use crate::sampling::{mix, weigh, Rng, Scored};

/// The default effort: the heuristic alone.
pub const DEFAULT_EFFORT: u32 = 0;
/// The largest effort accepted (determinizations per candidate).
pub const MAX_EFFORT: u32 = 64;
/// Candidates the sampling weighs (the heuristic's best ones).
const SAMPLED_CANDIDATES: usize = 4;
const FULL: u64 = (1u64 << 52) - 1;

/// What one seat can see of a game: its information set.
#[derive(Clone, Debug)]
pub struct View {
    seat: usize,
    /// The game with every other seat's cards replaced by a placeholder deal of the
    /// unseen cards (the lowest unseen cards to the lowest seat, and so on).
    game: Game,
}

impl View {
    /// The view of `seat`: the other seats' hidden cards are dropped here.
    pub fn new(game: &Game, seat: usize) -> Result<View> {
        if seat >= game.players {
            return Err(
                Error::field("seat", format!("seat {seat} is not in the game (seats 0..{})", game.players - 1)).because(Reason::OutOfRange)
            );
        }
        let mut g = game.clone();
        let mut unseen = FULL & !g.held_mask(seat);
        for s in 0..g.players {
            unseen &= !g.played_mask(s);
        }
        for s in (0..g.players).filter(|&s| s != seat) {
            let n = g.held_mask(s).count_ones();
            let mut m = 0u64;
            for _ in 0..n {
                let b = unseen & unseen.wrapping_neg();
                m |= b;
                unseen &= !b;
            }
            g.set_held(s, m);
        }
        Ok(View { seat, game: g })
    }

    pub fn seat(&self) -> usize {
        self.seat
    }

    /// The cards each seat still holds, by count.
    pub fn counts(&self) -> Vec<usize> {
        (0..self.game.players).map(|s| self.game.held_mask(s).count_ones() as usize).collect()
    }

    /// The seat's own cards.
    pub fn hand(&self) -> Vec<crate::cards::Card> {
        self.game.held(self.seat)
    }
}

/// One choice the suggestion weighed: the action (`None`: let the play go on, for a
/// seat that may chop out of turn) and its score (higher is better; with sampling, the
/// mean money of the playouts at base 1).
#[derive(Clone, Debug, PartialEq)]
pub struct Alternative {
    pub action: Option<Action>,
    pub score: f64,
}

impl Scored for Alternative {
    fn set_score(&mut self, score: f64) {
        self.score = score;
    }
    fn score(&self) -> f64 {
        self.score
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Suggestion {
    pub seat: usize,
    /// What to do: `Some` action for `Game::apply`, or `None` when the seat is offered a
    /// chop out of turn and should let the play go on.
    pub action: Option<Action>,
    /// The choices weighed, best first.
    pub alternatives: Vec<Alternative>,
    pub effort: u32,
}

/// The choices open to `seat`: in turn its plays (and a pass), or out of turn its chops
/// and `None`; an error when it has nothing to decide. The same sources as
/// [`Game::offers`] (the table's offers), read without building the offers: playouts
/// call this at every step.
fn options(g: &Game, seat: usize) -> Result<Vec<Option<Action>>> {
    if g.is_over() {
        return Err(Error::new("the game is over: there is nothing to suggest").because(Reason::GameOver));
    }
    if g.turn() == Some(seat) {
        let mut out: Vec<Option<Action>> = distinct(g.legal_plays()).into_iter().map(|p| Some(Action::Play(p.cards))).collect();
        if g.may_pass() {
            out.push(Some(Action::Pass));
        }
        return Ok(out);
    }
    let chops = g.chops_open_to(seat);
    if !chops.is_empty() {
        let mut out: Vec<Option<Action>> = distinct(chops).into_iter().map(|p| Some(Action::Play(p.cards))).collect();
        out.push(None);
        return Ok(out);
    }
    let t = g.turn().map_or(String::new(), |t| format!(" (seat {t} to move)"));
    Err(Error::field("seat", format!("seat {seat} has no decision to make now{t}")).because(Reason::NotYourTurn))
}

/// One play per (type, size, top card): the weakest-first order keeps the one with the
/// lowest other cards, and the suits below the top do not change what a play does.
fn distinct(plays: Vec<Play>) -> Vec<Play> {
    let mut out: Vec<Play> = Vec::with_capacity(plays.len());
    for p in plays {
        if out.last().is_none_or(|q| q.key != p.key) {
            out.push(p);
        }
    }
    out
}

fn mask_of(a: &Action) -> u64 {
    match a {
        Action::Play(c) => c.iter().fold(0, |m, c| m | c.bit()),
        Action::Pass => 0,
    }
}

/// Cards per tienlen rank of a mask.
fn rank_counts(mask: u64) -> [u8; 13] {
    let mut c = [0u8; 13];
    let mut m = mask;
    while m != 0 {
        let id = m.trailing_zeros() as u8;
        m &= m - 1;
        c[rank(crate::cards::Card(id)) as usize] += 1;
    }
    c
}

/// How good a hand is to hold: ten points less per group it needs to go out (a plan of
/// straights over its single ranks, 3/4连对 over its pair runs, one group per other
/// rank), plus points for the groups that take tricks (2s, aces, specials).
fn hand_value(mask: u64) -> f64 {
    let mut c = rank_counts(mask);
    let mut groups = 0f64;
    let mut control = 0f64;
    // Specials first: bombs, then runs of three or four pairs.
    for r in 0..=ACE as usize {
        if c[r] == 4 {
            c[r] = 0;
            groups += 1.0;
            control += 8.0;
        }
    }
    let mut r = 0;
    while r + 2 <= ACE as usize {
        let mut len = 0;
        while r + len <= ACE as usize && c[r + len] >= 2 && len < 4 {
            len += 1;
        }
        if len >= 3 {
            for x in r..r + len {
                c[x] -= 2;
            }
            groups += 1.0;
            control += if len == 4 { 10.0 } else { 5.0 };
            r += len;
        } else {
            r += 1;
        }
    }
    // Straights: over each run of present ranks 3..A, one straight from its first to its
    // last single rank (at least three long) saves a group per single but one.
    let mut r = 0;
    while r <= ACE as usize {
        if c[r] == 0 {
            r += 1;
            continue;
        }
        let start = r;
        while r <= ACE as usize && c[r] > 0 {
            r += 1;
        }
        let end = r; // exclusive
        if end - start >= 3 {
            let singles: Vec<usize> = (start..end).filter(|&x| c[x] == 1).collect();
            if singles.len() >= 2 {
                let (mut lo, mut hi) = (singles[0], *singles.last().expect("two"));
                while hi - lo + 1 < 3 {
                    if hi + 1 < end {
                        hi += 1;
                    } else {
                        lo -= 1;
                    }
                }
                for x in lo..=hi {
                    c[x] -= 1;
                }
                groups += 1.0;
                control += (hi as f64 - 8.0).max(0.0) * 0.5;
            }
        }
    }
    for (r, &n) in c.iter().enumerate() {
        if n == 0 {
            continue;
        }
        groups += 1.0;
        control += match r as u8 {
            TWO => 9.0 + 3.0 * (n as f64 - 1.0),
            ACE => 3.0,
            r if r >= 9 => 1.0,
            _ => 0.0,
        };
    }
    -10.0 * groups + control
}

/// Whether nothing among the `unseen` cards can beat `p` in kind (chops aside).
fn is_boss(p: &Play, unseen: u64) -> bool {
    let c = rank_counts(unseen);
    let top_rank = (p.key.top / 4) as usize;
    let higher_same_rank = |need: u8| {
        let m = (0..4u8).filter(|&s| {
            let st = top_rank as u8 * 4 + s;
            unseen & super::play::card_of(st).bit() != 0
        });
        m.count() as u8 >= need && (0..4u8).any(|s| s > p.key.top % 4 && unseen & super::play::card_of(top_rank as u8 * 4 + s).bit() != 0)
    };
    match p.kind() {
        Kind::Single => (top_rank + 1..13).all(|r| c[r] == 0) && !higher_same_rank(1),
        Kind::Pair => (top_rank + 1..13).all(|r| c[r] < 2) && !higher_same_rank(2),
        Kind::Triple => (top_rank + 1..13).all(|r| c[r] < 3),
        _ => false,
    }
}

/// The heuristic's score of each option for `seat` (higher is better).
fn scores(g: &Game, seat: usize, opts: &[Option<Action>]) -> Vec<f64> {
    let hand = g.held_mask(seat);
    let mut seen = hand;
    for s in 0..g.players {
        seen |= g.played_mask(s);
    }
    let unseen = FULL & !seen;
    let opp_min = (0..g.players).filter(|&s| s != seat).map(|s| g.held_mask(s).count_ones()).min().unwrap_or(13);
    let table = g.table().map(|t| t.1.clone());
    let base = hand_value(hand);
    // The heuristic's end game: with few cards left around the table, cards left cost
    // money, so 2s and specials stop being worth their keep.
    let late = opp_min <= 3 || hand.count_ones() <= 4;
    opts.iter()
        .map(|o| {
            let Some(a) = o else { return base };
            let m = mask_of(a);
            if m == 0 {
                // Pass: nothing shed; dangerous when an opponent is about to go out and
                // the table's play has its size.
                let mut s = base;
                if let Some(t) = &table {
                    if (t.key.len as u32) >= opp_min && t.key.kind != Kind::Straight {
                        s -= 30.0;
                    }
                }
                return s;
            }
            let rem = hand & !m;
            if rem == 0 {
                return 1000.0;
            }
            let Action::Play(cards) = a else { unreachable!() };
            let p = super::play::classify(cards).expect("a legal play");
            let top_rank = (p.key.top / 4) as f64;
            let mut s = hand_value(rem) + p.cards.len() as f64;
            if late {
                // Shed what would be paid for: 2s and specials count extra.
                s += cards.iter().filter(|c| rank(**c) == TWO).count() as f64 * 6.0;
                if p.is_special() {
                    s += 8.0;
                }
            }
            match &table {
                Some(t) => {
                    if p.is_special() && !t.is_special() || p.key.kind == t.key.kind && p.is_special() {
                        // A chop: the chain pays.
                        s += 12.0;
                    } else {
                        s -= (top_rank - (t.key.top / 4) as f64).max(0.0) * 0.6;
                    }
                }
                None => {
                    s -= top_rank * 0.4;
                    if opp_min <= p.key.len as u32 && p.key.kind != Kind::Straight && !is_boss(&p, unseen) {
                        // A lead the next seats may go out on.
                        s -= 25.0 - top_rank;
                    }
                }
            }
            if is_boss(&p, unseen) {
                s += 4.0;
            }
            if opp_min <= p.key.len as u32 && table.is_some() {
                s += top_rank;
            }
            s
        })
        .collect()
}

/// The heuristic's choice for `seat` in `g` (a game as the seat sees it, or a sampled
/// one): its options with their scores, best first (stable: the weakest first on ties).
fn ranked(g: &Game, seat: usize) -> Result<Vec<Alternative>> {
    let opts = options(g, seat)?;
    let sc = scores(g, seat, &opts);
    let mut alts: Vec<Alternative> = opts.into_iter().zip(sc).map(|(action, score)| Alternative { action, score }).collect();
    alts.sort_by(|a, b| b.score.total_cmp(&a.score));
    Ok(alts)
}

/// Play `g` to its end with the heuristic in every seat (chops out of turn included).
fn playout(g: &mut Game) {
    let mut guard = 0;
    while !g.is_over() && guard < 400 {
        guard += 1;
        let mut acted = false;
        for (s, _) in g.chop_offers() {
            if let Ok(alts) = ranked(g, s) {
                if let Some(a) = &alts[0].action {
                    if g.apply_mut(s, a).is_ok() {
                        acted = true;
                        break;
                    }
                }
            }
        }
        if acted {
            continue;
        }
        let Some(t) = g.turn() else { break };
        let alts = ranked(g, t).expect("the seat in turn has a choice");
        let a = alts[0].action.clone().expect("in turn: an action");
        g.apply_mut(t, &a).expect("a legal action");
    }
}

/// A deal of the unseen cards to the other seats, by their card counts (a seat's played
/// cards stay its own).
fn sample(view: &View, rng: &mut Rng) -> Game {
    let g = &view.game;
    let mut unseen = FULL & !g.held_mask(view.seat);
    for s in 0..g.players {
        unseen &= !g.played_mask(s);
    }
    let mut ids: Vec<u8> = (0..52u8).filter(|&i| unseen & (1u64 << i) != 0).collect();
    rng.shuffle(&mut ids);
    let mut out = g.clone();
    let mut k = 0;
    for s in (0..g.players).filter(|&s| s != view.seat) {
        let n = g.held_mask(s).count_ones() as usize;
        let m = ids[k..k + n].iter().fold(0u64, |m, &i| m | (1u64 << i));
        k += n;
        out.set_held(s, m);
    }
    out
}

/// The suggestion for the view's seat. Deterministic for (view, seed, effort).
pub fn suggest(view: &View, seed: u64, effort: u32) -> Result<Suggestion> {
    suggest_yielding(view, seed, effort, &|| true)
}

/// [`suggest`], calling `between()` between two determinizations (each a playout of
/// every weighed candidate, about a millisecond): a caller's point to let other work
/// run (a server's turn) inside a long search. Same answer while it says true; false
/// stops the search there (a cancelled call: the answer then rests on the
/// determinizations done, and the caller drops it).
pub fn suggest_yielding(view: &View, seed: u64, effort: u32, between: &dyn Fn() -> bool) -> Result<Suggestion> {
    if effort > MAX_EFFORT {
        return Err(Error::field("effort", format!("must be 0..{MAX_EFFORT} (got {effort})")).because(Reason::OutOfRange));
    }
    let seat = view.seat;
    let mut alts = ranked(&view.game, seat)?;
    let endgame = Endgame::of(&view.game, seat);
    if let Some(e) = &endgame {
        // Far from the end only the quick proofs fit a small budget (a sure win there is
        // rare, and the full budget would only run out).
        let budget = if near_the_end(e) { NODE_BUDGET } else { NODE_BUDGET / 8 };
        if let (Verdict::Win(a), _) = sure_win::search(e, budget) {
            // 必胜: the search's first move, whatever the heuristic thought.
            alts.retain(|x| x.action != a);
            alts.insert(0, Alternative { action: a, score: SURE_WIN });
            return Ok(Suggestion { seat, action: alts[0].action.clone(), alternatives: alts, effort });
        }
    }
    if effort > 0 && alts.len() > 1 && !alts.iter().any(|a| a.score >= 1000.0) {
        alts.truncate(SAMPLED_CANDIDATES);
        let seed = mix(seed, view.game.history.len() as u64 * 8 + seat as u64);
        weigh(
            &mut alts,
            seed,
            effort,
            between,
            |rng| sample(view, rng),
            |world, a| {
                let mut g = world.clone();
                if let Some(act) = &a.action {
                    g.apply_mut(seat, act)?;
                } else if let Some(t) = g.turn() {
                    // Letting the play go on: the seat in turn moves.
                    let first = ranked(&g, t)?[0].action.clone().expect("in turn: an action");
                    g.apply_mut(t, &first)?;
                }
                playout(&mut g);
                Ok(g.settle(1, None).map(|s| s.deltas[seat]).unwrap_or(0))
            },
        )?;
    }
    if let Some(e) = &endgame {
        keep_them_in(e, &mut alts);
    }
    Ok(Suggestion { seat, action: alts[0].action.clone(), alternatives: alts, effort })
}

/// The score of a sure win's first move (above any heuristic score but going out, 1000).
const SURE_WIN: f64 = 900.0;
/// An opponent with this many cards or fewer is one a move must not hand a way out.
const FEW_CARDS: u32 = 3;
/// The other choices, best first, tried for one that hands no opponent a way out.
const CHECKED_ALTERNATIVES: usize = 6;

/// The seat or an opponent is near the end.
fn near_the_end(e: &Endgame) -> bool {
    let fewest = (0..e.counts.len()).filter(|&o| o != e.me).map(|o| e.counts[o]).min().unwrap_or(13);
    e.mine.count_ones() <= 8 || fewest <= 4
}

/// Never hand an opponent with few cards a way out when another choice does not: if the
/// choice first in `alts` lets some opponent with at most [`FEW_CARDS`] cards go out
/// before the seat moves again (for some deal of the unseen cards), the best-scored
/// choice proved not to is put first. The checks share [`NODE_BUDGET`] (half for the
/// choice); a check that runs out counts as not proved.
fn keep_them_in(e: &Endgame, alts: &mut Vec<Alternative>) {
    let few = (0..e.counts.len()).any(|o| o != e.me && e.counts[o] <= FEW_CARDS);
    // Half the budget for the choice, the other half shared by the others.
    if !few || alts.len() < 2 || sure_win::hands_out(e, alts[0].action.as_ref(), NODE_BUDGET / 2) != Some(true) {
        return;
    }
    let each = NODE_BUDGET / 2 / CHECKED_ALTERNATIVES as u32;
    if let Some(i) =
        (1..alts.len().min(CHECKED_ALTERNATIVES + 1)).find(|&i| sure_win::hands_out(e, alts[i].action.as_ref(), each) == Some(false))
    {
        let safe = alts.remove(i);
        alts.insert(0, safe);
    }
}

/// The two baselines of the tournament (docs/benchmarks.md), also handy as simple bots.
pub mod baseline {
    use super::*;

    /// A uniformly random option (a chop out of turn taken half the time).
    pub fn random(g: &Game, seat: usize, rng: &mut Rng) -> Result<Option<Action>> {
        let opts = options(g, seat)?;
        Ok(opts[rng.below(opts.len())].clone())
    }

    /// The usual 托管: the weakest play that beats the table, else pass; on a lead the
    /// weakest lead; never a chop out of turn.
    pub fn weakest(g: &Game, seat: usize) -> Result<Option<Action>> {
        let opts = options(g, seat)?;
        Ok(if g.turn() == Some(seat) { opts[0].clone() } else { None })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::Card;
    use crate::sampling::Rng;
    use crate::tienlen::Rules;
    use proptest::prelude::*;

    fn deal(seed: u64, players: usize) -> Vec<Vec<Card>> {
        let mut rng = Rng::new(seed);
        let mut deck: Vec<u8> = (0..52).collect();
        rng.shuffle(&mut deck);
        (0..players).map(|p| deck[p * 13..p * 13 + 13].iter().map(|&id| Card(id)).collect()).collect()
    }

    fn rules(k: u8) -> Rules {
        Rules {
            first_lead_must_contain_lowest: k & 1 != 0,
            unplayed_loser_adds_multipliers: k & 2 != 0,
            turn_after_chop: if k & 4 != 0 { super::super::TurnAfterChop::Resume } else { super::super::TurnAfterChop::FromChopper },
            rake_percent: if k & 8 != 0 { 0 } else { 5 },
            chop_window: super::super::ChopWindow::ALL[(k >> 4) as usize % 4],
        }
    }

    /// A random record: `steps` random actions (chops out of turn included).
    fn random_game(seed: u64, players: usize, steps: usize, r: &Rules) -> Option<Game> {
        let mut g = Game::new(&deal(seed, players), r).ok()?;
        let mut rng = Rng::new(seed ^ 7);
        for _ in 0..steps {
            if g.is_over() {
                break;
            }
            let offers = g.chop_offers();
            if !offers.is_empty() && rng.below(3) == 0 {
                let (s, plays) = &offers[rng.below(offers.len())];
                g = g.apply(*s, &Action::Play(plays[rng.below(plays.len())].cards.clone())).unwrap();
                continue;
            }
            let t = g.turn()?;
            let a = baseline::random(&g, t, &mut rng).unwrap().unwrap();
            g = g.apply(t, &a).unwrap();
        }
        Some(g)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]
        /// Every suggestion, in turn or out of turn, is accepted by `Game::apply`, and the
        /// same seed gives the same suggestion.
        #[test]
        fn suggestions_are_legal_and_deterministic(seed in any::<u64>(), players in 2usize..=4, steps in 0usize..80, k in 0u8..64, effort in prop_oneof![Just(0u32), Just(2u32)]) {
            let r = rules(k);
            let Some(g) = random_game(seed, players, steps, &r) else { return Ok(()) };
            if g.is_over() {
                prop_assert_eq!(suggest(&View::new(&g, 0).unwrap(), seed, effort).unwrap_err().reason, Reason::GameOver);
                return Ok(());
            }
            let t = g.turn().unwrap();
            let s = suggest(&View::new(&g, t).unwrap(), seed, effort).unwrap();
            let a = s.action.clone().expect("in turn: an action");
            prop_assert!(g.apply(t, &a).is_ok(), "{:?}", a);
            prop_assert_eq!(&s, &suggest(&View::new(&g, t).unwrap(), seed, effort).unwrap());
            // The server's yielding search: the same answer, `between` once per determinization after the first.
            let calls = std::cell::Cell::new(0u32);
            prop_assert_eq!(&s, &suggest_yielding(&View::new(&g, t).unwrap(), seed, effort, &|| {
                calls.set(calls.get() + 1);
                true
            }).unwrap());
            prop_assert!(calls.get() == 0 || calls.get() == effort - 1, "between ran {} times at effort {}", calls.get(), effort);
            // A stopped call: `between` saying false ends the search at once (called once
            // at most, at an effort that would call it 7 times), and what it answers is
            // still a legal action.
            let stops = std::cell::Cell::new(0u32);
            let stopped = suggest_yielding(&View::new(&g, t).unwrap(), seed, 8, &|| {
                stops.set(stops.get() + 1);
                false
            }).unwrap();
            prop_assert!(stops.get() <= 1, "between ran {} times after saying stop", stops.get());
            prop_assert!(g.apply(t, stopped.action.as_ref().expect("in turn: an action")).is_ok());
            for (c, _) in g.chop_offers() {
                let s = suggest(&View::new(&g, c).unwrap(), seed, effort).unwrap();
                if let Some(a) = s.action { prop_assert!(g.apply(c, &a).is_ok()); }
            }
            // A seat with nothing to decide is told so.
            for o in (0..players).filter(|&o| o != t && !g.chop_offers().iter().any(|x| x.0 == o)) {
                prop_assert_eq!(suggest(&View::new(&g, o).unwrap(), seed, effort).unwrap_err().reason, Reason::NotYourTurn);
            }
        }

        /// Dealing the other seats' hidden cards differently (same counts, same record)
        /// never changes a seat's suggestion.
        #[test]
        fn hidden_cards_do_not_matter(seed in any::<u64>(), other in any::<u64>(), players in 2usize..=4, steps in 0usize..60, effort in prop_oneof![Just(0u32), Just(3u32)]) {
            let r = Rules::default();
            let Some(g) = random_game(seed, players, steps, &r) else { return Ok(()) };
            let Some(t) = g.turn() else { return Ok(()) };
            let before = suggest(&View::new(&g, t).unwrap(), 5, effort).unwrap();
            // Re-deal the others' unplayed cards, keeping the counts.
            let mut g2 = g.clone();
            let mut unseen = FULL & !g.held_mask(t);
            for s in 0..players { unseen &= !g.played_mask(s); }
            let mut ids: Vec<u8> = (0..52u8).filter(|&i| unseen & (1u64 << i) != 0).collect();
            Rng::new(other).shuffle(&mut ids);
            let mut k = 0;
            for s in (0..players).filter(|&s| s != t) {
                let n = g.held_mask(s).count_ones() as usize;
                g2.set_held(s, ids[k..k + n].iter().fold(0u64, |m, &i| m | (1u64 << i)));
                k += n;
            }
            let after = suggest(&View::new(&g2, t).unwrap(), 5, effort).unwrap();
            prop_assert_eq!(before, after);
        }
    }

    /// A record of the issue's form: `0:3s4h5h 1:pass …`.
    fn record(text: &str) -> Vec<(usize, Action)> {
        text.split_whitespace()
            .map(|t| {
                let (seat, what) = t.split_once(':').unwrap();
                let a = if what == "pass" {
                    Action::Pass
                } else {
                    let spaced: Vec<String> = what.as_bytes().chunks(2).map(|c| String::from_utf8_lossy(c).into_owned()).collect();
                    Action::Play(crate::cards::cards(&spaced.join(" ")))
                };
                (seat.parse().unwrap(), a)
            })
            .collect()
    }

    fn play_of(text: &str) -> Option<Action> {
        Some(Action::Play(super::super::play::sorted(&crate::cards::cards(text))))
    }

    /// Issue #39's game: seat 0 holds `3c 3h 9h`, seat 1 one card. The pair first wins
    /// whatever that card is (one card never follows a pair); the single first loses to
    /// any higher card. The heuristic alone led `9h`.
    #[test]
    fn leads_the_pair_into_one_card_issue_39() {
        let hands: Vec<Vec<Card>> = ["3s 3c 3h 4h 5h 7d 8c 9c 9h Qc Qd Kc 2c", "3d 4s 5c 6c 7c 8s 9d Td Th Js Ks Ad 2h"]
            .iter()
            .map(|x| crate::cards::cards(x))
            .collect();
        let r =
            record("0:3s4h5h 1:9dJsTd 0:pass 1:3d4s5c6c7c8s 0:pass 1:Th 0:Kc 1:2h 0:pass 1:Ks 0:2c 1:pass 0:7d8c9c 1:pass 0:QcQd 1:pass");
        let g = Game::replay(&hands, &r, &Rules::default()).unwrap();
        assert_eq!(g.turn(), Some(0));
        for effort in [0, 4] {
            let s = suggest(&View::new(&g, 0).unwrap(), 1, effort).unwrap();
            assert_eq!(s.action, play_of("3c 3h"), "effort {effort}");
        }
    }

    /// The issue's other examples: a pair and a single against one card (the card it held
    /// in the issue's game in brackets). Made from a fresh deal led by seat 0, with the
    /// two seats' cards replaced.
    #[test]
    fn leads_the_pair_before_the_single() {
        let g0 = (0u64..).find_map(|seed| Game::new(&deal(seed, 2), &Rules::default()).ok().filter(|g| g.turn() == Some(0))).unwrap();
        for (mine, pair, theirs) in
            [("4s 4c Js", "4s 4c", "Qd"), ("3d 3h 6s", "3d 3h", "Ah"), ("3s 3c 6s", "3s 3c", "As"), ("4s 4h Tc", "4s 4h", "Ad")]
        {
            let mut g = g0.clone();
            g.set_held(0, crate::cards::cards(mine).iter().fold(0, |m, c| m | c.bit()));
            g.set_held(1, crate::cards::cards(theirs).iter().fold(0, |m, c| m | c.bit()));
            for effort in [0, 4] {
                let s = suggest(&View::new(&g, 0).unwrap(), 3, effort).unwrap();
                assert_eq!(s.action, play_of(pair), "{mine} against {theirs}, effort {effort}");
            }
        }
    }

    #[test]
    fn goes_out_when_it_can() {
        let h: Vec<Vec<Card>> = ["3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks 2c 2d", "3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh 2s 2h"]
            .iter()
            .map(|x| crate::cards::cards(x))
            .collect();
        let g = Game::new(&h, &Rules::default()).unwrap();
        let g = g.apply(0, &Action::Play(crate::cards::cards("3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks"))).unwrap();
        let g = g.apply(1, &Action::Pass).unwrap();
        let s = suggest(&View::new(&g, 0).unwrap(), 0, 0).unwrap();
        assert_eq!(s.action, Some(Action::Play(super::super::play::sorted(&crate::cards::cards("2c 2d")))));
        assert!(suggest(&View::new(&g, 0).unwrap(), 0, MAX_EFFORT + 1).is_err());
    }
}
