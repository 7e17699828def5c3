//! 托管's exact check of a sure win in 打儲's play (docs/suggest.md): whether the seat
//! to move can go out — take the next finishing place (RULES 3.4a) — whatever the unseen
//! cards are and whatever the other seats do, and with which move; and whether a move
//! lets an opponent go out for sure.
//!
//! The model is the seat keeping the lead: every play but its last is one that no other
//! seat still playing could beat with any cards it might hold — any of the unseen cards,
//! at most as many as it holds (a seat with n cards follows with n cards or fewer) — so
//! every other seat must pass and the seat leads again; its last play is all its cards
//! left. The first play is one it may make now (it beats the table when following; on
//! the game's first lead it holds 3♥). The search knows only the seat's own cards, the
//! table, the other seats' counts and the pool of unseen cards (never who holds which),
//! so it is blind to hidden cards by construction; it is exact for that model within
//! [`SURE_WIN_NODES`], and says so when the budget ran out.

use super::deal::SEATS;
use super::game::{Game, PlayAction};
use super::play::{beats_play, classify, legal_plays, Chu, Constraints, Play};
use super::rules::Rules;
use crate::cards::Card;
use std::collections::HashSet;

/// The most search nodes (a node: one set of cards left to split into plays) one check
/// visits; past it the check answers "no sure win found". Far above what a 13-card hand
/// needs with the memo, and it keeps a decision well under a millisecond.
pub(crate) const SURE_WIN_NODES: u32 = 4096;

/// An opponent with more cards than this is never "sure to go out" on its next play (the
/// check enumerates its possible hands, and 5 unseen cards already make a non-play).
pub(crate) const SURE_OUT_MOST: usize = 4;

/// What the search knows: the seat's cards and situation, and the unseen pool.
#[derive(Clone, Debug)]
pub(crate) struct Endgame {
    pub(crate) hand: Vec<Card>,
    /// The play to beat now, `None` when the seat leads.
    pub(crate) table: Option<Vec<Card>>,
    /// The seat's limits now (the first lead's 3♥, its 夢踹 triple).
    pub(crate) cons: Constraints,
    /// Every card the seat cannot see: the other seats' cards, played by nobody yet.
    pub(crate) pool: Vec<Card>,
    /// The most cards any other seat still playing holds.
    pub(crate) most: usize,
    pub(crate) chu: Chu,
    pub(crate) rules: Rules,
}

impl Endgame {
    /// The seat to move's endgame in `g` (a view's game or the real one: only the union of
    /// the other seats' cards and their counts are read).
    pub(crate) fn of(g: &Game, seat: usize) -> Endgame {
        let pool: Vec<Card> = (0..SEATS).filter(|&s| s != seat).flat_map(|s| g.held(s).iter().copied()).collect();
        let most = (0..SEATS).filter(|&s| s != seat && g.playing[s]).map(|s| g.held(s).len()).max().unwrap_or(0);
        Endgame {
            hand: g.held(seat).to_vec(),
            table: g.table.as_ref().map(|t| t.1.clone()),
            cons: g.constraints(seat),
            pool,
            most,
            chu: g.chu,
            rules: g.rules().clone(),
        }
    }
}

/// The answer of a search.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Search {
    /// A sure win, its plays in order (the first one to make now), or `None`.
    pub(crate) plan: Option<Vec<Vec<Card>>>,
    /// Nodes visited (at most [`SURE_WIN_NODES`]).
    pub(crate) nodes: u32,
    /// The budget ran out before an answer: `plan` is `None` without proof.
    pub(crate) cut: bool,
}

fn mask(cards: &[Card]) -> u64 {
    cards.iter().fold(0, |m, c| m | c.bit())
}

/// The strongest play of each type and length that some other seat could hold: plays of
/// at most `most` cards out of `pool`.
pub(crate) fn strongest(pool: &[Card], most: usize, chu: Chu, rules: &Rules) -> Vec<Play> {
    let mut best: Vec<Play> = Vec::new();
    let mut keep = |p: Play| match best.iter_mut().find(|b| b.kind == p.kind && b.len == p.len) {
        Some(b) if p.strength > b.strength => *b = p,
        Some(_) => {}
        None => best.push(p),
    };
    let mut by_rank: [Vec<Card>; 13] = Default::default();
    for &c in pool {
        by_rank[c.rank() as usize].push(c);
    }
    for g in &by_rank {
        for sub in 1u32..(1 << g.len()) {
            if sub.count_ones() as usize > most {
                continue;
            }
            let cards: Vec<Card> = (0..g.len()).filter(|i| sub & (1 << i) != 0).map(|i| g[i]).collect();
            if let Ok(p) = classify(&cards, chu, rules) {
                keep(p);
            }
        }
    }
    // Straights: one card of each rank of a window of places A(1) 2 … K A(14).
    let rank_at = |pos: usize| if pos == 1 || pos == 14 { crate::cards::rank::ACE as usize } else { pos - 2 };
    for len in 3..=most.min(13) {
        for lo in 1..=(15 - len) {
            let hi = lo + len - 1;
            let cards: Option<Vec<Card>> = (lo..=hi).map(|p| by_rank[rank_at(p)].first().copied()).collect();
            if let Some(p) = cards.and_then(|c| classify(&c, chu, rules).ok()) {
                keep(p);
            }
        }
    }
    best
}

struct Searcher<'a> {
    /// Every play of the seat's cards (as a lead), its mask and whether nobody can beat it.
    plays: Vec<(u64, bool, &'a [Card])>,
    /// For each card id, the indices of the plays holding it.
    with_card: Vec<Vec<usize>>,
    /// The masks of `plays`, sorted: whether a set of cards is one play.
    is_play: Vec<u64>,
    failed: HashSet<(u64, bool)>,
    nodes: u32,
    cut: bool,
}

impl Searcher<'_> {
    /// Split `left` into plays nobody can beat and (`last`) one final play of any kind;
    /// the plays' masks, final last.
    fn split(&mut self, left: u64, last: bool) -> Option<Vec<u64>> {
        if left == 0 {
            return (!last).then(Vec::new);
        }
        if last && self.is_play.binary_search(&left).is_ok() {
            return Some(vec![left]);
        }
        if self.failed.contains(&(left, last)) || self.cut {
            return None;
        }
        if self.nodes >= SURE_WIN_NODES {
            self.cut = true;
            return None;
        }
        self.nodes += 1;
        // The lowest card left is in one of the plays: an unbeatable one, or the final one.
        let low = left & left.wrapping_neg();
        for k in 0..self.with_card[low.trailing_zeros() as usize].len() {
            let (m, unbeatable, _) = self.plays[self.with_card[low.trailing_zeros() as usize][k]];
            if m & !left != 0 {
                continue;
            }
            if unbeatable {
                if let Some(mut rest) = self.split(left ^ m, last) {
                    rest.insert(0, m);
                    return Some(rest);
                }
            }
            if last && m != left {
                if let Some(mut rest) = self.split(left ^ m, false) {
                    rest.push(m);
                    return Some(rest);
                }
            }
        }
        self.failed.insert((left, last));
        None
    }
}

/// Whether some other seat could beat `p`.
fn beatable(p: &Play, strongest: &[Play]) -> bool {
    strongest.iter().any(|q| beats_play(q, p))
}

/// The sure win of the seat to move, if any: see the module's model. `first`, if given,
/// is the only first move tried (is that move the start of a sure win?).
pub(crate) fn search(e: &Endgame, first: Option<&[Card]>) -> Search {
    let none = |nodes, cut| Search { plan: None, nodes, cut };
    let Ok(now) = legal_plays(&e.hand, e.table.as_deref(), e.chu, &e.cons, &e.rules) else { return none(0, false) };
    let whole = mask(&e.hand);
    let first = first.map(mask);
    // Going out now.
    if let Some(p) = now.iter().find(|p| mask(&p.cards) == whole && first.is_none_or(|f| f == whole)) {
        return Search { plan: Some(vec![p.cards.clone()]), nodes: 0, cut: false };
    }
    let strong = strongest(&e.pool, e.most, e.chu, &e.rules);
    let later = Constraints { first_lead: false, surrendered: false, shown_triple: e.cons.shown_triple.clone() };
    let Ok(all) = legal_plays(&e.hand, None, e.chu, &later, &e.rules) else { return none(0, false) };
    let mut s = Searcher {
        plays: all.iter().map(|p| (mask(&p.cards), !beatable(&p.play, &strong), p.cards.as_slice())).collect(),
        is_play: all.iter().map(|p| mask(&p.cards)).collect(),
        with_card: vec![Vec::new(); 52],
        failed: HashSet::new(),
        nodes: 0,
        cut: false,
    };
    s.is_play.sort_unstable();
    for (i, p) in s.plays.iter().enumerate() {
        for c in p.2 {
            s.with_card[c.0 as usize].push(i);
        }
    }
    let cards_of = |s: &Searcher, m: u64| s.plays.iter().find(|p| p.0 == m).map(|p| p.2.to_vec()).expect("a play of the hand");
    // A free lead (not the first of the game): any split with the plays in order.
    if e.table.is_none() && !e.cons.first_lead && first.is_none() {
        let plan = s.split(whole, true).map(|ms| ms.iter().map(|&m| cards_of(&s, m)).collect());
        return Search { plan, nodes: s.nodes, cut: s.cut };
    }
    // Otherwise the first play is one of `now`, and nobody may beat it (unless it is all).
    for p in &now {
        let m = mask(&p.cards);
        if first.is_some_and(|f| f != m) || beatable(&p.play, &strong) {
            continue;
        }
        if let Some(rest) = s.split(whole ^ m, true) {
            let mut plan = vec![p.cards.clone()];
            plan.extend(rest.iter().map(|&r| cards_of(&s, r)));
            return Search { plan: Some(plan), nodes: s.nodes, cut: s.cut };
        }
        if s.cut {
            break;
        }
    }
    none(s.nodes, s.cut)
}

/// The sure win of the seat to move in `g` (its plays in order), if any.
pub(crate) fn sure_win(g: &Game) -> Option<Vec<Vec<Card>>> {
    let seat = g.turn?;
    search(&Endgame::of(g, seat), None).plan
}

/// Whether `action` by the seat to move starts a sure win (a pass never does).
pub(crate) fn starts_sure_win(g: &Game, action: &PlayAction) -> bool {
    let (Some(seat), PlayAction::Play { cards, .. }) = (g.turn, action) else { return false };
    search(&Endgame::of(g, seat), Some(cards)).plan.is_some()
}

fn same_side(g: &Game, a: usize, b: usize) -> bool {
    g.chu_side.contains(&a) == g.chu_side.contains(&b)
}

/// Whether every hand of `n` cards out of `pool` is one play that `seat` may make now in
/// `g` (it beats the table, or it leads): then `seat` goes out on its turn whatever it
/// holds. Stops at the first hand that is not.
fn every_hand_goes_out(g: &Game, pool: &[Card], n: usize) -> bool {
    if n == 0 || n > SURE_OUT_MOST || pool.len() < n {
        return false;
    }
    let table = g.table.as_ref().map(|t| &t.2);
    let mut idx: Vec<usize> = (0..n).collect();
    loop {
        let hand: Vec<Card> = idx.iter().map(|&i| pool[i]).collect();
        let out = classify(&hand, g.chu, g.rules()).is_ok_and(|p| table.is_none_or(|t| beats_play(&p, t)));
        if !out {
            return false;
        }
        // The next n-subset in lexicographic order.
        let mut k = n;
        while k > 0 && idx[k - 1] == pool.len() - n + k - 1 {
            k -= 1;
        }
        if k == 0 {
            return true;
        }
        idx[k - 1] += 1;
        for j in k..n {
            idx[j] = idx[j - 1] + 1;
        }
    }
}

/// Whether, after the seat to move makes `action`, an opponent is sure to go out before
/// the seat's side moves again: the opponents to move next (each free to pass) reach one
/// that goes out on its turn whatever cards it holds (every hand of its size out of the
/// unseen cards is a play it may make then; e.g. one card and the lead).
pub(crate) fn lets_opponent_out(g: &Game, action: &PlayAction) -> bool {
    let Some(me) = g.turn else { return false };
    let pool: Vec<Card> = (0..SEATS).filter(|&s| s != me).flat_map(|s| g.held(s).iter().copied()).collect();
    let Ok(mut next) = g.apply(action) else { return false };
    for _ in 0..SEATS {
        let Some(t) = next.turn else { return false };
        if same_side(&next, t, me) {
            return false;
        }
        if every_hand_goes_out(&next, &pool, next.held(t).len()) {
            return true;
        }
        if !next.may_pass() || next.apply_in_place(&PlayAction::Pass { seat: t }).is_err() {
            return false;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::cards;
    use crate::dachu::calling::Call;
    use crate::dachu::deal::{Deal, DealAction};
    use crate::dachu::play::Kind;
    use crate::dachu::suggest::{self, View};
    use crate::sampling::Rng;
    use proptest::prelude::*;

    /// A game from its four hands (平宣, everyone 平打) and the plays so far as a record
    /// `seat:cards` / `seat:pass`, cards written without spaces.
    fn position(hands: [&str; 4], first: usize, record: &str) -> Game {
        let mut d = Deal::new(hands.iter().map(|h| cards(h)).collect(), first, Rules::default()).unwrap();
        while d.dealt < 13 {
            d = d.apply(&DealAction::Deal).unwrap();
        }
        d = d.apply(&DealAction::Finish).unwrap();
        let mut c = d.calling(None, None).unwrap();
        while let Some(t) = c.turn() {
            c = c.apply(t, Call::PingDa).unwrap();
        }
        let mut g = Game::new(&d, &c).unwrap();
        for a in record.split_whitespace() {
            let (seat, what) = a.split_once(':').unwrap();
            let seat: usize = seat.parse().unwrap();
            let action = if what == "pass" {
                PlayAction::Pass { seat }
            } else {
                let spaced: Vec<&str> = (0..what.len()).step_by(2).map(|i| &what[i..i + 2]).collect();
                PlayAction::Play { seat, cards: cards(&spaced.join(" ")) }
            };
            g.apply_in_place(&action).unwrap();
        }
        g
    }

    /// Positions of whole games (seeded deals, every seat the effort-0 heuristic of the
    /// build before the sure-win search) where the seat to move had a sure win and that
    /// heuristic's move threw it away; now `suggest` takes it at every effort.
    #[test]
    fn sure_wins_the_heuristic_missed_are_taken() {
        let cases: [([&str; 4], usize, &str, &str); 4] = [
            // Seat 1 (2s 2c Ad Kc, red 儲) on a 3c: 2s, 2c and the 儲A stand, Kc goes out;
            // the heuristic put the Kc on.
            (
                ["Js 5s 5h 9h Ah 2d 7s Kd Qd 4d 8d Jh 5d", "Kh 9d 2c 7c Td 8s 2s Ad 3s Qc Jc Kc 3d", "Ks 6s 8h 4h Ts Qs Th 9s 3c Jd 6d 6c 8c", "Ac 7h 9c 6h Qh 4c Tc 4s 5c 3h As 2h 7d"],
                0,
                "3:As2h3h4s5c6h7h 0:pass 1:7c8s9dTdJcQcKh 2:pass 3:pass 0:pass 1:3s3d 2:8h8c 3:pass 0:JsJh 1:pass 2:pass 3:pass 0:4d 1:pass 2:Ts 3:pass 0:2d 1:pass 2:pass 3:pass 0:7s8d9h 1:pass 2:pass 3:pass 0:QdKdAh 1:pass 2:pass 3:pass 0:5s5h5d 1:pass 2:6s6d6c 3:pass 1:pass 2:3c 3:pass",
                "Kc",
            ),
            // Seat 2 (8d 6d Th) leads against one seat with 2 cards, both below 8: 8d and Th
            // stand, 6d goes out; the heuristic led the 6d.
            (
                ["Ad 5h Qs 9c 9d 5c 9s 7c 8c 7h 8s Td 7d", "3h 6h Jc Ac Kc 6c 3c 6s 7s 4h 5d 2d 2c", "As Kd 8d Ts 9h 6d 8h Ah 3s Th 4s 4c 2h", "Tc 2s Ks 4d 5s Qc Js Jh Kh Qh Qd 3d Jd"],
                2,
                "1:3h4h5d6s7s 2:pass 3:pass 0:pass 1:3c 2:pass 3:Tc 0:pass 1:Jc 2:pass 3:2s 0:pass 1:Ac 2:pass 3:pass 0:pass 1:6h6c 2:pass 3:KsKh 0:pass 1:2d2c 2:pass 3:QhQdQc 0:pass 1:pass 2:pass 3:3d4d5s 0:pass 1:pass 2:8h9hTs 3:JsJhJd 0:pass 1:pass 2:pass 0:8s9sTd 1:pass 2:pass 0:7h8c9d 1:pass 2:pass 0:Qs 1:Kc 2:pass 0:Ad 2:2h 0:pass 2:4s4c 0:5h5c 2:AhAs 0:pass 2:3s 0:9c 2:Kd 0:pass",
                "6d",
            ),
            // Seat 0 (Jh Jd Jc 3c 4c 5d) on its partner's QKA: the JJJ bomb stands, 345 goes
            // out; the heuristic passed.
            (
                ["Jh 6d 3h Ks 3c 5d Kh Jd Jc 5h 9c 4c 4h", "2d Ts 6h 4d Ac 6s Qh Ah 2h 7h Qd Tc Js", "Kc 8h 5c 2c As 2s 5s 3s 8d 3d Qs 9d Th", "8c 7d 9h Td 7c 4s 7s Ad 9s 6c 8s Qc Kd"],
                0,
                "0:3h4h5h6d 1:pass 2:pass 3:6c7s8s9s 0:pass 1:pass 2:pass 3:4s 0:9c 1:Ts 2:pass 3:pass 0:pass 1:4d 2:8h 3:pass 0:pass 1:Qh 2:pass 3:pass 0:pass 1:6s6h 2:pass 3:pass 0:KsKh 1:AcAh 2:2s2c 3:pass 0:pass 1:pass 2:3s3d 3:7d7c 0:pass 1:pass 2:pass 3:8c9hTd 0:pass 1:pass 2:QsKcAs 3:pass",
                "pass",
            ),
            // Seat 2 (Ah 6s, red 儲) leads: the 儲A stands, the 6s goes out; the heuristic
            // led the 6s into a seat with 11 cards.
            (
                ["As 7h 9h 8s 5h 4s 5d 6h 4d 2d Js Th Jd", "2s 2h 8c 7d 5s Ac 3c Kh 9s 3d 7s Ad Ts", "8h Qd Ah Qc Td 9c 2c 5c Qh 6s 9d Qs Jh", "Kc Tc 3h Ks 8d 6c 7c Kd 6d 4h 3s 4c Jc"],
                3,
                "3:3s3h 0:pass 1:7s7d 2:pass 3:pass 0:JsJd 1:AcAd 2:pass 3:pass 0:pass 1:3d3c 2:pass 3:4h4c 0:pass 1:pass 2:pass 3:6d7c8d 0:pass 1:8c9sTs 2:pass 3:pass 0:pass 1:5s 2:pass 3:6c 0:pass 1:Kh 2:pass 3:KsKdKc 0:pass 1:pass 2:QsQhQdQc 3:pass 0:pass 1:pass 2:5c 3:Jc 0:pass 1:2s 2:pass 3:pass 0:pass 1:2h 2:pass 3:pass 0:pass 2:8h9dTdJh 3:pass 0:pass 2:9c 3:Tc 0:pass 2:2c 0:pass",
                "6s",
            ),
        ];
        for (hands, first, record, missed) in cases {
            let g = position(hands, first, record);
            let t = g.turn.unwrap();
            let v = View::new(&g, t).unwrap();
            assert!(suggest::sure_win(&v).is_some(), "{record}");
            let old = if missed == "pass" { PlayAction::Pass { seat: t } } else { PlayAction::Play { seat: t, cards: cards(missed) } };
            assert!(!suggest::starts_sure_win(&v, &old), "the heuristic's move {missed} does not win for sure");
            for effort in [0, 2, 8] {
                let s = suggest::suggest(&v, 7, effort).unwrap();
                assert!(suggest::starts_sure_win(&v, &s.action), "effort {effort}: {:?} after {record}", s.action);
                // Played on, whatever the others do (here: their suggestions), the seat
                // takes the next place.
                let places = g.places.len();
                let mut h = g.apply(&s.action).unwrap();
                while h.places.len() == places {
                    let u = h.turn.unwrap();
                    let a = suggest::suggest(&View::new(&h, u).unwrap(), 7, 0).unwrap().action;
                    h.apply_in_place(&a).unwrap();
                }
                assert_eq!(h.places[places], t);
            }
        }
    }

    /// A move after which an opponent is sure to go out is not made when another move
    /// prevents it: seat 2 (6d 8d 2d) leads against seat 1, whose one card is the only
    /// unseen one (Tc): the 6d or the 8d lets it out, the 2d does not.
    #[test]
    fn no_move_lets_an_opponent_out_for_sure() {
        let g = position(
            ["2s Td 5c 4s 5h Jc 2c Kd As Th 4h 2h 9s", "6s 4c 9h Jd 5d 8c Tc 8h Ad Qd 6c Ts Kh", "9c Ks Ac 8s Js 6d 4d 8d 7h 6h 9d 5s 2d", "7s 7d Kc 3c 3s Ah 3h Qc Qs 7c 3d Qh Jh"],
            2,
            "3:QsQh 0:pass 1:pass 2:pass 3:JhQcKcAh 0:pass 1:pass 2:pass 3:7s7d7c 0:pass 1:pass 2:pass 3:3s3h3d3c 0:pass 1:pass 2:pass 0:4s4h 1:8h8c 2:9d9c 0:pass 1:pass 2:4d5s6h7h8s 0:pass 1:9hTsJdQdKh 2:pass 0:pass 1:4c5d6s 2:pass 0:9sThJc 1:pass 2:pass 0:5h5c 1:pass 2:pass 0:Td 1:pass 2:pass 0:Kd 1:pass 2:pass 0:As 1:Ad 2:pass 0:2s2h2c 1:pass 2:pass 1:6c 2:Js 1:pass 2:Ks 1:pass 2:Ac 1:pass",
        );
        assert_eq!((g.turn, g.held(1).len()), (Some(2), 1));
        let play = |c: &str| PlayAction::Play { seat: 2, cards: cards(c) };
        let v = View::new(&g, 2).unwrap();
        assert!(suggest::sure_win(&v).is_none());
        assert!(lets_opponent_out(&g, &play("6d")) && lets_opponent_out(&g, &play("8d")));
        assert!(!lets_opponent_out(&g, &play("2d")));
        for effort in [0, 2, 8] {
            assert_eq!(suggest::suggest(&v, 3, effort).unwrap().action, play("2d"), "effort {effort}");
        }
    }

    // ------------------------------------------------------------- the brute force

    /// Every way to give the pool to seats holding `counts` cards.
    fn worlds(pool: &[Card], counts: &[usize]) -> Vec<Vec<Vec<Card>>> {
        fn rec(pool: &[Card], counts: &[usize], hands: &mut Vec<Vec<Card>>, out: &mut Vec<Vec<Vec<Card>>>) {
            let Some((&c, rest)) = pool.split_first() else {
                out.push(hands.clone());
                return;
            };
            for s in 0..counts.len() {
                if hands[s].len() < counts[s] {
                    hands[s].push(c);
                    rec(rest, counts, hands, out);
                    hands[s].pop();
                }
            }
        }
        let mut out = Vec::new();
        rec(pool, counts, &mut vec![Vec::new(); counts.len()], &mut out);
        out
    }

    /// Every split of `hand` into plays (each a lead), by brute force.
    fn splits(hand: &[Card], chu: Chu, rules: &Rules) -> Vec<Vec<Vec<Card>>> {
        let Some(&low) = hand.iter().min_by_key(|c| c.0) else { return vec![Vec::new()] };
        let mut out = Vec::new();
        for sub in 1u32..(1 << hand.len()) {
            let part: Vec<Card> = (0..hand.len()).filter(|i| sub & (1 << i) != 0).map(|i| hand[i]).collect();
            if !part.contains(&low) || classify(&part, chu, rules).is_err() {
                continue;
            }
            let rest: Vec<Card> = hand.iter().copied().filter(|c| !part.contains(c)).collect();
            for mut s in splits(&rest, chu, rules) {
                s.push(part.clone());
                out.push(s);
            }
        }
        out
    }

    /// The model of the module by brute force: some split of the hand has a final play and
    /// other plays that no seat beats in any world, and a play to make now (beating the
    /// table) that is the final one only when it is the only one.
    fn brute(e: &Endgame, counts: &[usize]) -> bool {
        let ws = worlds(&e.pool, counts);
        let stands = |p: &[Card]| {
            ws.iter().all(|w| w.iter().all(|h| legal_plays(h, Some(p), e.chu, &Constraints::default(), &e.rules).unwrap().is_empty()))
        };
        let now = |p: &[Card]| match &e.table {
            None => true,
            Some(t) => classify(p, e.chu, &e.rules).is_ok_and(|q| beats_play(&q, &classify(t, e.chu, &e.rules).unwrap())),
        };
        splits(&e.hand, e.chu, &e.rules).iter().any(|s| {
            (0..s.len()).any(|f| {
                let others_stand = (0..s.len()).filter(|&i| i != f).all(|i| stands(&s[i]));
                let first = if s.len() == 1 { now(&s[0]) } else { (0..s.len()).any(|i| i != f && now(&s[i])) };
                others_stand && first
            })
        })
    }

    /// A tiny endgame: cards of a few ranks (2s and aces often among them), 1–5 in hand,
    /// one to three other seats with 1–3 cards, maybe a play to beat.
    fn tiny(seed: u64) -> (Endgame, Vec<usize>) {
        let mut rng = Rng::new(seed);
        let mut ranks: Vec<u8> = (0..13).collect();
        rng.shuffle(&mut ranks);
        let mut deck: Vec<Card> = ranks[..5].iter().flat_map(|&r| (0..4).map(move |s| Card::new(r, s))).collect();
        rng.shuffle(&mut deck);
        let n = 1 + rng.below(5);
        let counts: Vec<usize> = (0..1 + rng.below(3)).map(|_| 1 + rng.below(3)).collect();
        let hand = deck[..n].to_vec();
        let k: usize = counts.iter().sum();
        let pool = deck[n..n + k].to_vec();
        let rules = Rules { mixed_ace_pair: rng.below(2) == 0, ..Rules::default() };
        let chu = if rng.below(2) == 0 { Chu::Red } else { Chu::Black };
        let table = if rng.below(2) == 0 {
            None
        } else {
            let spare = &deck[n + k..(n + k + 3).min(deck.len())];
            let plays = legal_plays(spare, None, chu, &Constraints::default(), &rules).unwrap();
            (!plays.is_empty()).then(|| plays[rng.below(plays.len())].cards.clone())
        };
        let most = *counts.iter().max().unwrap();
        (Endgame { hand, table, cons: Constraints::default(), pool, most, chu, rules }, counts)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(400))]
        /// The search agrees with the brute force on tiny endgames, and its plan is one:
        /// the hand's plays, the first one legal now, every one but the last unbeatable.
        #[test]
        fn search_agrees_with_brute_force(seed in any::<u64>()) {
            let (e, counts) = tiny(seed);
            let s = search(&e, None);
            prop_assert!(!s.cut);
            prop_assert_eq!(s.plan.is_some(), brute(&e, &counts), "{:?}", e);
            if let Some(plan) = s.plan {
                let mut all: Vec<Card> = plan.concat();
                all.sort();
                let mut hand = e.hand.clone();
                hand.sort();
                prop_assert_eq!(all, hand);
                let now = legal_plays(&e.hand, e.table.as_deref(), e.chu, &e.cons, &e.rules).unwrap();
                prop_assert!(now.iter().any(|p| mask(&p.cards) == mask(&plan[0])));
                let ws = worlds(&e.pool, &counts);
                for p in &plan[..plan.len() - 1] {
                    prop_assert!(ws.iter().all(|w| w.iter().all(|h| legal_plays(h, Some(p), e.chu, &Constraints::default(), &e.rules).unwrap().is_empty())));
                }
                // Its first move is a first move of a sure win, and so is no other move
                // that the brute force rejects.
                prop_assert!(search(&e, Some(&plan[0])).plan.is_some());
            }
        }

        /// The strongest plays the pool allows are what the brute force finds: a play of
        /// the hand is beaten in some world exactly when one of them beats it.
        #[test]
        fn strongest_plays_decide_beating(seed in any::<u64>()) {
            let (e, counts) = tiny(seed);
            let strong = strongest(&e.pool, e.most, e.chu, &e.rules);
            let ws = worlds(&e.pool, &counts);
            for p in legal_plays(&e.hand, None, e.chu, &Constraints::default(), &e.rules).unwrap() {
                let some_world = ws.iter().any(|w| w.iter().any(|h| !legal_plays(h, Some(&p.cards), e.chu, &Constraints::default(), &e.rules).unwrap().is_empty()));
                prop_assert_eq!(beatable(&p.play, &strong), some_world, "{:?}", p);
            }
            prop_assert!(strong.iter().all(|p| p.kind != Kind::Straight || p.len as usize <= e.most));
        }
    }
}
