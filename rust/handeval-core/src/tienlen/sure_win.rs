//! 必胜: whether a seat goes out first whatever the unseen cards are (docs/suggest.md).
//!
//! The seat knows its own cards, the record and the other seats' card counts. The others
//! hold some of the *unseen* cards (neither the seat's nor played; with 2 or 3 players
//! the undealt cards are unseen too). A sure win is a strategy for the seat — its moves
//! may depend on what it sees played — that makes it go out first against every deal of
//! the unseen cards and every way the others play them.
//!
//! The search treats the others as one adversary that picks their cards only when it
//! plays them: an opponent with `n` cards left may play any play of at most `n` unseen
//! cards (`n` exactly: it goes out). That is the same game: a sequence of their plays is
//! possible for some deal exactly when every opponent's plays fit its count, and the seat
//! sees every play, so its strategy cannot profit from a deal fixed in advance. When the
//! seat and an opponent may both act (a passed opponent may chop while the seat is in
//! turn, RULES 2.4) the adversary also chooses who acts first; so out of turn a chop of
//! the seat's own never changes the answer. The rounds, passes and chop windows are the
//! engine's [`RoundState`] under the game's rules.
//!
//! Two searches of that game, both bounded: every state visited and every candidate
//! play made counts against a budget (past it the answer is "unknown").
//!
//! * [`search`], the plain one: exact (a test checks it against a brute force over every
//!   deal of the unseen cards), every play of the unseen cards tried. [`check`] runs it:
//!   the measurements' check, kept apart from `suggest`.
//! * [`fast::fast_search`], the one `suggest` runs with [`NODE_BUDGET`]: first the same game
//!   against a stronger adversary whose played cards stay unseen (what it proves is a
//!   sure win), which makes a play of theirs only its effect; with proofs without search
//!   that most positions have no sure win ([`fast::surely_not`]), iterative deepening on the
//!   seat's plays and a table of positions decided (see `fast::Fast`); then the same search
//!   against the real adversary, for the sure wins that need an opponent to run out of a
//!   card. With 3 × 1,000 it proves what the plain search needs 8,000 or more for
//!   (docs/benchmarks.md).

use super::game::Game;
use super::play::{beats_key, rank, strength, Kind, PlayKey, ACE, TWO};
use super::round::{Action, RoundState};
use super::rules::Rules;
use crate::cards::{Card, CardSet};
pub(crate) mod fast;

/// The work `suggest` allows its sure-win search ([`fast::fast_search`]: 3 × this, shared by
/// the stronger adversary and the real one), and one check that a move hands no
/// opponent a way out: states visited plus candidate plays generated.
pub const NODE_BUDGET: u32 = 1000;

const FULL: u64 = (1u64 << 52) - 1;

/// A position as one seat sees it, in the terms of the search.
#[derive(Clone, Debug)]
pub(crate) struct Endgame {
    pub round: RoundState,
    pub me: usize,
    /// The seat's cards.
    pub mine: u64,
    /// The unseen cards: what the opponents may hold.
    pub pool: u64,
    /// Cards each seat holds (the seat's own entry is unused).
    pub counts: Vec<u32>,
    pub rules: Rules,
}

impl Endgame {
    /// The position of `seat` in `g` (public information only: counts, record, own cards).
    /// `None` before the first play of a game whose first lead must contain a card (the
    /// search does not model that rule) and once the game is over.
    pub(crate) fn of(g: &Game, seat: usize) -> Option<Endgame> {
        if g.is_over() || g.must_contain().is_some() {
            return None;
        }
        let mine = g.held_mask(seat);
        let mut pool = FULL & !mine;
        for s in 0..g.players {
            pool &= !g.played_mask(s);
        }
        Some(Endgame {
            round: g.current.clone(),
            me: seat,
            mine,
            pool,
            counts: (0..g.players).map(|s| g.held_mask(s).count_ones()).collect(),
            rules: g.rules().clone(),
        })
    }
}

/// A state after an action.
enum Next {
    Won,
    Lost,
    Goes(Endgame),
}

fn cards_of(mask: u64) -> Vec<Card> {
    let mut v = CardSet(mask).cards();
    v.sort_by_key(|&c| strength(c));
    v
}

/// The [`strength`] of the highest card of a mask.
fn top_strength(mask: u64) -> u8 {
    let mut m = mask;
    let mut top = 0;
    while m != 0 {
        top = top.max(strength(Card(m.trailing_zeros() as u8)));
        m &= m - 1;
    }
    top
}

/// `seat` makes `act` (`None`: a pass) in `e`.
fn step(e: &Endgame, seat: usize, act: Option<u64>) -> Option<Next> {
    let mut n = Endgame { round: e.round.without_history(), counts: e.counts.clone(), rules: e.rules.clone(), ..*e };
    let action = match act {
        None => Action::Pass,
        Some(m) => Action::Play(cards_of(m)),
    };
    n.round.apply(seat, &action).ok()?;
    if let Some(m) = act {
        if seat == e.me {
            n.mine &= !m;
            if n.mine == 0 {
                return Some(Next::Won);
            }
        } else {
            n.pool &= !m;
            n.counts[seat] -= m.count_ones();
            if n.counts[seat] == 0 {
                return Some(Next::Lost);
            }
        }
    }
    if let Some(l) = n.round.next_leader() {
        n.round = RoundState::new(e.counts.len(), l, None, &e.rules).ok()?;
    }
    Some(Next::Goes(n))
}

/// What a search found.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Verdict {
    /// A sure win, with the seat's first move (`None`: let the play go on, out of turn).
    Win(Option<Action>),
    /// No sure win (the adversary has an answer to everything).
    NoWin,
    /// The budget ran out first.
    Unknown,
}

/// Work done and allowed; work is refused (not done) when it would go past the limit.
struct Budget {
    used: u32,
    limit: u32,
}

impl Budget {
    fn spend(&mut self, n: u32) -> Option<()> {
        let after = self.used.checked_add(n).filter(|&u| u <= self.limit)?;
        self.used = after;
        Some(())
    }
    /// `None` when the budget left cannot pay for every combination of `parts` (checked
    /// before they are made: a long straight over many suits has thousands).
    fn afford(&self, parts: &[Vec<u64>]) -> Option<()> {
        let size = parts.iter().try_fold(1u64, |n, p| n.checked_mul(p.len() as u64)).unwrap_or(u64::MAX);
        (size <= u64::from(self.limit - self.used)).then_some(())
    }
}

/// Every play of at most `max_len` cards of `pool` that could matter: all of them on a
/// lead, else those that beat `table` (only specials for a seat that `passed`). Each
/// candidate looked at costs one unit of `b`; `None` when it runs out. With `first`,
/// stop at the first one found.
fn plays_of(pool: u64, max_len: u32, table: Option<PlayKey>, passed: bool, b: &mut Budget, first: bool) -> Option<Vec<u64>> {
    plays_between(pool, 1, max_len, table, passed, b, first)
}

/// [`plays_of`] with at least `min_len` cards.
fn plays_between(
    pool: u64,
    min_len: u32,
    max_len: u32,
    table: Option<PlayKey>,
    passed: bool,
    b: &mut Budget,
    first: bool,
) -> Option<Vec<u64>> {
    let min_len = min_len as usize;
    let mut by_rank: [Vec<u64>; 13] = Default::default();
    for c in cards_of(pool) {
        by_rank[rank(c) as usize].push(c.bit());
    }
    let max_len = max_len.min(13) as usize;
    let mut out: Vec<u64> = Vec::new();
    // Whether a play of this kind and size may beat the table at all.
    let may = |kind: Kind, len: usize| -> bool {
        match table {
            None => !passed,
            Some(t) => (!passed || kind.is_special()) && (kind == t.kind && len == t.len as usize || kind.is_special()),
        }
    };
    let take = |m: u64, kind: Kind, b: &mut Budget, out: &mut Vec<u64>| -> Option<bool> {
        b.spend(1)?;
        let ok = match table {
            None => true,
            Some(t) => beats_key(PlayKey { kind, len: m.count_ones() as u8, top: top_strength(m) }, t),
        };
        if ok {
            out.push(m);
        }
        Some(ok && first)
    };
    // Same-rank plays: singles, pairs, triples, bombs (never four 2s).
    for (k, kind) in [(1usize, Kind::Single), (2, Kind::Pair), (3, Kind::Triple), (4, Kind::Bomb)] {
        if k > max_len || k < min_len || !may(kind, k) {
            continue;
        }
        for (r, cs) in by_rank.iter().enumerate() {
            if k == 4 && r as u8 == TWO {
                continue;
            }
            for m in subsets(cs, k) {
                if take(m, kind, b, &mut out)? {
                    return Some(out);
                }
            }
        }
    }
    // Straights over ranks 3..A.
    for len in min_len.max(3)..=max_len.min(ACE as usize + 1) {
        if !may(Kind::Straight, len) {
            continue;
        }
        for lo in 0..=(ACE as usize + 1 - len) {
            let parts: Vec<Vec<u64>> = (lo..lo + len).map(|r| by_rank[r].clone()).collect();
            if parts.iter().any(|p| p.is_empty()) {
                continue;
            }
            b.afford(&parts)?;
            for m in product(&parts) {
                if take(m, Kind::Straight, b, &mut out)? {
                    return Some(out);
                }
            }
        }
    }
    // 3连对 and 4连对.
    for (pairs, kind) in [(3usize, Kind::ThreePairRun), (4, Kind::FourPairRun)] {
        if 2 * pairs > max_len || 2 * pairs < min_len || !may(kind, 2 * pairs) {
            continue;
        }
        for lo in 0..=(ACE as usize + 1 - pairs) {
            let parts: Vec<Vec<u64>> = (lo..lo + pairs).map(|r| subsets(&by_rank[r], 2)).collect();
            if parts.iter().any(|p| p.is_empty()) {
                continue;
            }
            b.afford(&parts)?;
            for m in product(&parts) {
                if take(m, kind, b, &mut out)? {
                    return Some(out);
                }
            }
        }
    }
    Some(out)
}

/// Every `k`-card subset of `cs` (single-card masks), as masks.
fn subsets(cs: &[u64], k: usize) -> Vec<u64> {
    let mut out = Vec::new();
    fn rec(cs: &[u64], k: usize, start: usize, cur: u64, out: &mut Vec<u64>) {
        if k == 0 {
            out.push(cur);
            return;
        }
        for i in start..cs.len() {
            rec(cs, k - 1, i + 1, cur | cs[i], out);
        }
    }
    rec(cs, k, 0, 0, &mut out);
    out
}

/// One choice from each part, united.
fn product(parts: &[Vec<u64>]) -> Vec<u64> {
    let mut out = vec![0u64];
    for p in parts {
        out = out.iter().flat_map(|&m| p.iter().map(move |&x| m | x)).collect();
    }
    out
}

/// What the search is for.
#[derive(Copy, Clone, PartialEq)]
enum Goal {
    /// The seat goes out first.
    GoOut,
    /// No opponent goes out before the seat's next move in turn.
    Survive,
}

struct Search {
    me: usize,
    goal: Goal,
    b: Budget,
    /// The opponents' cards stay unseen when played (`fast::Fast`'s adversary; the tests'
    /// reference for it).
    fixed_pool: bool,
}

impl Search {
    /// The opponents' actions at `e`: (seat, play or pass).
    fn opponent_actions(&mut self, e: &Endgame) -> Option<Vec<(usize, Option<u64>)>> {
        let table = e.round.table().map(|t| t.1.key);
        let mut out = Vec::new();
        let to_move = e.round.to_move.expect("a live round has a seat to move");
        for o in (0..e.counts.len()).filter(|&o| o != self.me) {
            if o == to_move {
                for m in plays_of(e.pool, e.counts[o], table, false, &mut self.b, false)? {
                    out.push((o, Some(m)));
                }
                if table.is_some() {
                    out.push((o, None));
                }
            } else if e.round.passed[o] && e.round.chop_window_open(o) {
                for m in plays_of(e.pool, e.counts[o], table, true, &mut self.b, false)? {
                    out.push((o, Some(m)));
                }
            }
        }
        // A way out first: the adversary takes it.
        out.sort_by_key(|&(o, m)| m.map_or(1, |m| u32::from(m.count_ones() != e.counts[o])));
        Some(out)
    }

    /// The seat's actions in turn at `e`, the likeliest winners first: going out, then
    /// the longest and highest plays; a pass last.
    fn my_actions(&mut self, e: &Endgame) -> Option<Vec<Option<u64>>> {
        let table = e.round.table().map(|t| t.1.key);
        let mut ms = plays_of(e.mine, 13, table, false, &mut self.b, false)?;
        ms.sort_by_key(|&m| {
            (std::cmp::Reverse(u32::from(m == e.mine)), std::cmp::Reverse(m.count_ones()), std::cmp::Reverse(top_strength(m)))
        });
        let mut out: Vec<Option<u64>> = ms.into_iter().map(Some).collect();
        if table.is_some() {
            out.push(None);
        }
        Some(out)
    }

    /// Whether the goal holds from `e` whatever the adversary does (`None`: out of budget).
    fn value(&mut self, e: &Endgame) -> Option<bool> {
        self.b.spend(1)?;
        let to_move = e.round.to_move.expect("a live round has a seat to move");
        // The adversary's actions first (a chop while the seat is in turn included).
        for (o, m) in self.opponent_actions(e)? {
            match step(e, o, m) {
                Some(Next::Lost) => return Some(false),
                Some(Next::Goes(mut n)) => {
                    if self.fixed_pool {
                        n.pool = e.pool;
                        n.round.forget_played();
                    }
                    if !self.value(&n)? {
                        return Some(false);
                    }
                }
                _ => {}
            }
        }
        if to_move != self.me || self.goal == Goal::Survive {
            return Some(true);
        }
        if self.quick(e)?.is_some() {
            return Some(true);
        }
        for a in self.my_actions(e)? {
            if self.my_move_wins(e, a)? {
                return Some(true);
            }
        }
        Some(false)
    }

    fn my_move_wins(&mut self, e: &Endgame, a: Option<u64>) -> Option<bool> {
        Some(match step(e, self.me, a) {
            Some(Next::Won) => true,
            Some(Next::Lost) | None => false,
            Some(Next::Goes(n)) => self.value(&n)?,
        })
    }

    fn quick(&mut self, e: &Endgame) -> Option<Option<u64>> {
        quick(self.me, e, &mut self.b)
    }
}

/// A quick sure win, without the tree: the seat's cards split into plays nobody can
/// beat (whatever the unseen cards: so everyone passes on each and the seat leads
/// again) and at most one other, played last; when following, the first of them must
/// beat the table. The first move, or `None`.
fn quick(me: usize, e: &Endgame, b: &mut Budget) -> Option<Option<u64>> {
    let plays = plays_of(e.mine, 13, None, false, b, false)?;
    let most = (0..e.counts.len()).filter(|&o| o != me).map(|o| e.counts[o]).max().unwrap_or(0);
    let mut marked = Vec::with_capacity(plays.len());
    for &m in &plays {
        let key = super::play::classify(&cards_of(m)).ok()?.key;
        marked.push((m, key, plays_of(e.pool, most, Some(key), false, b, true)?.is_empty()));
    }
    Some(plan(e, &marked))
}

/// [`quick`]'s first move, from the seat's plays with their keys and whether nothing
/// unseen beats them.
fn plan(e: &Endgame, marked: &[(u64, PlayKey, bool)]) -> Option<u64> {
    let bosses: Vec<(u64, bool)> = marked.iter().map(|&(m, _, b)| (m, b)).collect();
    match e.round.table() {
        None => {
            let mut plan = Vec::new();
            split(e.mine, &bosses, false, &mut plan).then(|| plan.iter().find(|p| p.1).unwrap_or(&plan[0]).0)
        }
        Some((_, t)) => marked
            .iter()
            .find(|&&(m, key, boss)| beats_key(key, t.key) && (m == e.mine || boss && split(e.mine & !m, &bosses, false, &mut Vec::new())))
            .map(|&(m, _, _)| m),
    }
}

/// Whether `rest` splits into plays of `plays` all marked unbeatable but at most one;
/// `plan` gets the plays of the split.
fn split(rest: u64, plays: &[(u64, bool)], used_other: bool, plan: &mut Vec<(u64, bool)>) -> bool {
    if rest == 0 {
        return true;
    }
    let low = rest & rest.wrapping_neg();
    for &(m, boss) in plays {
        if m & low != 0 && m & !rest == 0 && (boss || !used_other) {
            plan.push((m, boss));
            if split(rest & !m, plays, used_other || !boss, plan) {
                return true;
            }
            plan.pop();
        }
    }
    false
}

/// Whether the seat of `e` has a sure win, and its first move; `budget` bounds the work.
/// Also returns the work done (never above `budget`: work past it is refused).
pub(crate) fn search(e: &Endgame, budget: u32) -> (Verdict, u32) {
    let mut s = Search { me: e.me, goal: Goal::GoOut, b: Budget { used: 0, limit: budget }, fixed_pool: false };
    let v = root(&mut s, e);
    (v, s.b.used)
}

fn root(s: &mut Search, e: &Endgame) -> Verdict {
    let Some(to_move) = e.round.to_move else { return Verdict::NoWin };
    if to_move != s.me {
        return match s.value(e) {
            Some(true) => Verdict::Win(None),
            Some(false) => Verdict::NoWin,
            None => Verdict::Unknown,
        };
    }
    // In turn: every chop the adversary may make first must lose for it, and one of the
    // seat's moves must win.
    let run = |s: &mut Search| -> Option<Verdict> {
        for (o, m) in s.opponent_actions(e)? {
            match step(e, o, m) {
                Some(Next::Lost) => return Some(Verdict::NoWin),
                Some(Next::Goes(mut n)) => {
                    if s.fixed_pool {
                        n.pool = e.pool;
                        n.round.forget_played();
                    }
                    if !s.value(&n)? {
                        return Some(Verdict::NoWin);
                    }
                }
                _ => {}
            }
        }
        if let Some(m) = s.quick(e)? {
            return Some(Verdict::Win(Some(Action::Play(cards_of(m)))));
        }
        for a in s.my_actions(e)? {
            if s.my_move_wins(e, a)? {
                return Some(Verdict::Win(Some(a.map_or(Action::Pass, |m| Action::Play(cards_of(m))))));
            }
        }
        Some(Verdict::NoWin)
    };
    run(s).unwrap_or(Verdict::Unknown)
}

/// Whether, after the seat makes `action` at `e` (`None`: lets the play go on), some
/// opponent may go out before the seat next moves in turn, for some deal of the unseen
/// cards and some play of theirs. `None`: out of budget (or not the seat's action).
pub(crate) fn hands_out(e: &Endgame, action: Option<&Action>, budget: u32) -> Option<bool> {
    let mut s = Search { me: e.me, goal: Goal::Survive, b: Budget { used: 0, limit: budget }, fixed_pool: false };
    let safe = match action {
        // The play goes on: the others act.
        None => s.value(e)?,
        Some(a) => {
            let m = match a {
                Action::Pass => None,
                Action::Play(c) => Some(c.iter().fold(0u64, |m, c| m | c.bit())),
            };
            match step(e, e.me, m)? {
                Next::Won => true,
                Next::Lost => false,
                Next::Goes(n) => s.value(&n)?,
            }
        }
    };
    Some(!safe)
}

/// The answer of [`check`].
#[derive(Clone, Debug, PartialEq)]
pub enum SureWin {
    /// `seat` goes out first whatever the unseen cards are; the move to start with
    /// (`None`: out of turn, let the play go on).
    Win(Option<Action>),
    /// It does not: for every plan some deal of the unseen cards and some play beats it.
    NoWin,
    /// The budget ran out before the search knew.
    Unknown,
}

/// Whether `seat` of `g` has a sure win, searched with at most `budget` nodes (a
/// measurement's check, independent of a suggestion: `suggest` makes its own call with
/// [`NODE_BUDGET`]). Reads only what the seat may see.
pub fn check(g: &Game, seat: usize, budget: u32) -> SureWin {
    match Endgame::of(g, seat).map(|e| search(&e, budget).0) {
        Some(Verdict::Win(a)) => SureWin::Win(a),
        Some(Verdict::Unknown) => SureWin::Unknown,
        _ => SureWin::NoWin,
    }
}

#[cfg(test)]
mod tests {
    use super::fast::{deepen, deepen_as, fast_search, surely_not};
    use super::*;
    use crate::sampling::Rng;
    use crate::tienlen::play::legal_plays;
    use crate::tienlen::{ChopWindow, TurnAfterChop};
    use proptest::prelude::*;
    use std::collections::BTreeMap;

    /// Every deal of the pool to the opponents (their counts; the rest undealt).
    fn deals(e: &Endgame) -> Vec<Vec<u64>> {
        let opps: Vec<usize> = (0..e.counts.len()).filter(|&o| o != e.me).collect();
        let mut out = Vec::new();
        fn rec(e: &Endgame, opps: &[usize], i: usize, left: u64, cur: &mut Vec<u64>, out: &mut Vec<Vec<u64>>) {
            if i == opps.len() {
                out.push(cur.clone());
                return;
            }
            let ids: Vec<u64> = cards_of(left).iter().map(|c| c.bit()).collect();
            for m in subsets(&ids, e.counts[opps[i]] as usize) {
                cur[opps[i]] = m;
                rec(e, opps, i + 1, left & !m, cur, out);
            }
        }
        rec(e, &opps, 0, e.pool, &mut vec![0; e.counts.len()], &mut out);
        out
    }

    fn act(m: Option<u64>) -> Action {
        m.map_or(Action::Pass, |m| Action::Play(cards_of(m)))
    }

    /// After `seat` acts: the round (a new one when it ended).
    fn next_round(r: &RoundState, seat: usize, m: Option<u64>, rules: &Rules) -> RoundState {
        let mut r = r.clone();
        r.apply(seat, &act(m)).expect("a legal action");
        match r.next_leader() {
            Some(l) => RoundState::new(r.players, l, None, rules).unwrap(),
            None => r,
        }
    }

    /// The brute force: the seat sees the record, not the deal, so its choice at a record
    /// must win in every deal still possible there; the opponents' actions come from
    /// their real hands in each deal (`legal_plays`), grouped by what the seat sees.
    fn brute(round: &RoundState, me: usize, mine: u64, worlds: &[Vec<u64>], rules: &Rules) -> bool {
        if worlds.is_empty() {
            return true;
        }
        let to_move = round.to_move.unwrap();
        let table = round.table().map(|t| &t.1);
        let mut seen: BTreeMap<(usize, Option<u64>), Vec<Vec<u64>>> = BTreeMap::new();
        for w in worlds {
            for o in (0..round.players).filter(|&o| o != me) {
                let plays = if o == to_move {
                    if table.is_some() {
                        seen.entry((o, None)).or_default().push(w.clone());
                    }
                    legal_plays(&cards_of(w[o]), table, false).unwrap()
                } else if round.passed[o] && round.chop_window_open(o) {
                    legal_plays(&cards_of(w[o]), table, true).unwrap()
                } else {
                    vec![]
                };
                for p in plays {
                    seen.entry((o, Some(p.mask()))).or_default().push(w.clone());
                }
            }
        }
        for ((o, m), ws) in seen {
            let ws: Vec<Vec<u64>> = ws
                .into_iter()
                .map(|mut w| {
                    w[o] &= !m.unwrap_or(0);
                    w
                })
                .collect();
            if ws.iter().any(|w| w[o] == 0) {
                return false;
            }
            if !brute(&next_round(round, o, m, rules), me, mine, &ws, rules) {
                return false;
            }
        }
        if to_move != me {
            return true;
        }
        let mut mine_acts: Vec<Option<u64>> = legal_plays(&cards_of(mine), table, false).unwrap().iter().map(|p| Some(p.mask())).collect();
        if table.is_some() {
            mine_acts.push(None);
        }
        mine_acts.into_iter().any(|m| {
            let left = mine & !m.unwrap_or(0);
            left == 0 || brute(&next_round(round, me, m, rules), me, left, worlds, rules)
        })
    }

    /// A small end game: cards of a few ranks (2s among them, so chops of 2s can arise),
    /// the seat with 1–4 cards, 1–2 opponents with 1–4 cards, a few unseen cards nobody
    /// holds, and maybe a play on the table.
    fn endgame(seed: u64) -> Endgame {
        let mut rng = Rng::new(seed);
        let players = 2 + rng.below(2);
        let me = rng.below(players);
        let mut ranks: Vec<u8> = (0..13).collect();
        rng.shuffle(&mut ranks);
        let mut deck: Vec<u64> =
            ranks[..4].iter().flat_map(|&r| (0..4).map(move |s| super::super::play::card_of(r * 4 + s).bit())).collect();
        rng.shuffle(&mut deck);
        let mut k = 0;
        let mut take = |n: usize| {
            let m = deck[k..k + n].iter().fold(0u64, |a, b| a | b);
            k += n;
            m
        };
        let mine = take(1 + rng.below(4));
        let mut counts = vec![0u32; players];
        let mut pool = 0;
        for o in (0..players).filter(|&o| o != me) {
            counts[o] = 1 + rng.below(if players == 2 { 4 } else { 3 }) as u32;
            pool |= take(counts[o] as usize);
        }
        pool |= take(rng.below(3));
        let rules = Rules {
            chop_window: ChopWindow::ALL[rng.below(4)],
            turn_after_chop: if rng.below(2) == 0 { TurnAfterChop::FromChopper } else { TurnAfterChop::Resume },
            ..Rules::default()
        };
        let leader = rng.below(players);
        let mut round = RoundState::new(players, leader, None, &rules).unwrap();
        if rng.below(2) == 0 {
            // A play already on the table, of cards played before (neither the seat's nor unseen).
            let played = take(1);
            let _ = round.apply(leader, &act(Some(played)));
            if leader != me && rng.below(2) == 0 {
                let next = round.to_move.unwrap();
                if next != me {
                    let _ = round.apply(next, &Action::Pass);
                }
            }
            if round.to_move.is_none() {
                round = RoundState::new(players, leader, None, &rules).unwrap();
            }
        }
        Endgame { round, me, mine, pool, counts, rules }
    }

    /// The generated end games are not all one way: the comparison below sees both answers.
    #[test]
    fn end_games_have_both_answers() {
        let wins = (0..300u64).filter(|&s| {
            let e = endgame(s);
            brute(&e.round, e.me, e.mine, &deals(&e), &e.rules)
        });
        let n = wins.count();
        assert!((30..270).contains(&n), "{n} sure wins in 300");
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(600))]
        /// The search agrees with the brute force over every deal of the unseen cards, and
        /// its first move wins there.
        #[test]
        fn search_is_the_brute_force(seed in any::<u64>()) {
            let e = endgame(seed);
            let worlds = deals(&e);
            let truth = brute(&e.round, e.me, e.mine, &worlds, &e.rules);
            let (v, used) = search(&e, 5_000_000);
            prop_assert!(used <= 5_000_000);
            match v {
                Verdict::Unknown => prop_assert!(false, "a tiny end game out of budget"),
                Verdict::NoWin => prop_assert!(!truth, "missed a sure win: {:?}", e),
                Verdict::Win(a) => {
                    prop_assert!(truth, "a sure win that is not: {:?}", e);
                    if let Some(a) = a {
                        let m = match &a { Action::Play(c) => Some(c.iter().fold(0u64, |m, c| m | c.bit())), Action::Pass => None };
                        let left = e.mine & !m.unwrap_or(0);
                        prop_assert!(left == 0 || brute(&next_round(&e.round, e.me, m, &e.rules), e.me, left, &worlds, &e.rules), "{:?} does not win", a);
                    }
                }
            }
        }

        /// `suggest`'s search: against the stronger adversary each sure win it finds is one
        /// (the brute force over every deal of the unseen cards agrees) and its first move
        /// wins there, and it answers as the plain search does against that adversary (no
        /// pruning of its own loses a win); against the real one it answers as the brute
        /// force; and the proofs without search never contradict them.
        #[test]
        fn fast_search_wins_are_sure_wins(seed in any::<u64>()) {
            let e = endgame(seed);
            let worlds = deals(&e);
            let (v, used) = deepen(&e, 5_000_000);
            prop_assert!(used <= 5_000_000);
            let mut plain = Search { me: e.me, goal: Goal::GoOut, b: Budget { used: 0, limit: 5_000_000 }, fixed_pool: true };
            let reference = root(&mut plain, &e);
            prop_assert_eq!(matches!(v, Verdict::Win(_)), matches!(reference, Verdict::Win(_)), "{:?} against {:?}: {:?}", &v, &reference, e);
            if surely_not(&e, false) {
                prop_assert!(!matches!(v, Verdict::Win(_)), "a proof of no sure win, and a sure win: {:?}", e);
            }
            // Against the real adversary: the same answers as the plain search and the brute
            // force, and the real proof without search never contradicts them.
            let truth = brute(&e.round, e.me, e.mine, &worlds, &e.rules);
            let (exact, _) = deepen_as(&e, 5_000_000, true);
            prop_assert_eq!(matches!(exact, Verdict::Win(_)), truth, "{:?}", e);
            prop_assert!(!(surely_not(&e, true) && truth), "a proof of no sure win, and a sure win: {:?}", e);
            let (all, _) = fast_search(&e, 5_000_000);
            prop_assert_eq!(matches!(all, Verdict::Win(_)), truth, "{:?}", e);
            match v {
                Verdict::Unknown => prop_assert!(false, "a tiny end game out of budget"),
                Verdict::NoWin => {}
                Verdict::Win(a) => {
                    prop_assert!(brute(&e.round, e.me, e.mine, &worlds, &e.rules), "a sure win that is not: {:?}", e);
                    if let Some(a) = a {
                        let m = match &a { Action::Play(c) => Some(c.iter().fold(0u64, |m, c| m | c.bit())), Action::Pass => None };
                        let left = e.mine & !m.unwrap_or(0);
                        prop_assert!(left == 0 || brute(&next_round(&e.round, e.me, m, &e.rules), e.me, left, &worlds, &e.rules), "{:?} does not win", a);
                    }
                }
            }
        }

        /// The search never works past its budget, on real positions of whole games.
        #[test]
        fn search_stays_within_budget(seed in any::<u64>(), players in 2usize..=4, steps in 0usize..60, budget in prop_oneof![Just(NODE_BUDGET), 1u32..200]) {
            let mut rng = Rng::new(seed);
            let mut deck: Vec<u8> = (0..52).collect();
            rng.shuffle(&mut deck);
            let hands: Vec<Vec<Card>> = (0..players).map(|p| deck[p * 13..p * 13 + 13].iter().map(|&i| Card(i)).collect()).collect();
            let Ok(mut g) = Game::new(&hands, &Rules::default()) else { return Ok(()) };
            for _ in 0..steps {
                let Some(t) = g.turn() else { break };
                let plays = g.legal_plays();
                let a = if g.may_pass() && (plays.is_empty() || rng.below(3) == 0) { Action::Pass } else { Action::Play(plays[rng.below(plays.len())].cards.clone()) };
                g.apply_mut(t, &a).unwrap();
            }
            let Some(t) = g.turn() else { return Ok(()) };
            if let Some(e) = Endgame::of(&g, t) {
                let (_, used) = search(&e, budget);
                prop_assert!(used <= budget, "{} > {}", used, budget);
                let (v, used) = fast_search(&e, budget);
                prop_assert!(used <= 3 * budget, "{} > 3 × {}", used, budget);
                // The proofs without search never contradict the searches.
                if surely_not(&e, false) {
                    prop_assert!(!matches!(deepen(&e, 20 * NODE_BUDGET).0, Verdict::Win(_)), "{:?}", e);
                }
                if surely_not(&e, true) {
                    prop_assert_eq!(v, Verdict::NoWin);
                    prop_assert!(!matches!(deepen_as(&e, 20 * NODE_BUDGET, true).0, Verdict::Win(_)), "{:?}", e);
                    prop_assert!(!matches!(search(&e, 20 * NODE_BUDGET).0, Verdict::Win(_)), "{:?}", e);
                }
            }
        }
    }
}
