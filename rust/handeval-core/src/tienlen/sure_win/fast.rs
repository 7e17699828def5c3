//! The sure-win search `suggest` runs ([`fast_search`]): see the parent module and
//! [`Fast`].

use super::super::play::{beats_key, card_of, rank, strength, Kind, PlayKey, ACE, TWO};
use super::{cards_of, plan, plays_between, plays_of, step, top_strength, Action, Budget, Card, Endgame, Next, Verdict};
use std::collections::HashMap;
use std::hash::BuildHasherDefault;

/// Cards by tienlen rank, lowest suit first, and how many of each rank.
type Ranked = ([[u64; 4]; 13], [usize; 13]);

/// The cards of `mask` by tienlen rank.
fn by_rank(mask: u64) -> Ranked {
    let mut cards = [[0u64; 4]; 13];
    let mut n = [0usize; 13];
    for r in 0..13u8 {
        for s in 0..4u8 {
            let bit = card_of(r * 4 + s).bit();
            if mask & bit != 0 {
                cards[r as usize][n[r as usize]] = bit;
                n[r as usize] += 1;
            }
        }
    }
    (cards, n)
}

/// One play of `pool` per key (type, size, top card) with `min_len..=max_len` cards that
/// could matter, as [`super::plays_between`] lists them (the lowest cards under the top), with
/// its key: for the adversary whose cards stay unseen, plays of one key do the same.
/// Each play that beats the table costs one unit of `b` (one comparison rejects the
/// others); with `first`, stop at the first one.
fn key_plays(
    pool: &Ranked,
    min_len: u32,
    max_len: u32,
    table: Option<PlayKey>,
    passed: bool,
    b: &mut Budget,
    first: bool,
) -> Option<Vec<(u64, PlayKey)>> {
    let (cards, n) = pool;
    let (min_len, max_len) = (min_len as usize, (max_len.min(13)) as usize);
    let may = |kind: Kind, len: usize| -> bool {
        len >= min_len
            && len <= max_len
            && match table {
                None => !passed,
                Some(t) => (!passed || kind.is_special()) && (kind == t.kind && len == t.len as usize || kind.is_special()),
            }
    };
    let mut out = Vec::new();
    let mut take = |m: u64, kind: Kind, top_card: u64, out: &mut Vec<(u64, PlayKey)>| -> Option<bool> {
        let key = PlayKey { kind, len: m.count_ones() as u8, top: strength(Card(top_card.trailing_zeros() as u8)) };
        let ok = table.is_none_or(|t| beats_key(key, t));
        if ok {
            b.spend(1)?;
            out.push((m, key));
        }
        Some(ok && first)
    };
    let low = |r: usize, k: usize| cards[r][..k].iter().fold(0u64, |m, &c| m | c);
    for (k, kind) in [(1usize, Kind::Single), (2, Kind::Pair), (3, Kind::Triple), (4, Kind::Bomb)] {
        if !may(kind, k) {
            continue;
        }
        for r in 0..13 {
            if k == 4 && r as u8 == TWO {
                continue;
            }
            // The top card, over the k - 1 lowest of its rank.
            for t in k - 1..n[r] {
                if take(cards[r][t] | low(r, k - 1), kind, cards[r][t], &mut out)? {
                    return Some(out);
                }
            }
        }
    }
    for len in 3..=(ACE as usize + 1) {
        if !may(Kind::Straight, len) {
            continue;
        }
        for lo in 0..=(ACE as usize + 1 - len) {
            let top = lo + len - 1;
            if (lo..=top).any(|r| n[r] == 0) {
                continue;
            }
            let under = (lo..top).fold(0u64, |m, r| m | cards[r][0]);
            for &c in &cards[top][..n[top]] {
                if take(under | c, Kind::Straight, c, &mut out)? {
                    return Some(out);
                }
            }
        }
    }
    for (pairs, kind) in [(3usize, Kind::ThreePairRun), (4, Kind::FourPairRun)] {
        if !may(kind, 2 * pairs) {
            continue;
        }
        for lo in 0..=(ACE as usize + 1 - pairs) {
            let top = lo + pairs - 1;
            if (lo..=top).any(|r| n[r] < 2) {
                continue;
            }
            let under = (lo..top).fold(0u64, |m, r| m | low(r, 2));
            for t in 1..n[top] {
                if take(under | cards[top][0] | cards[top][t], kind, cards[top][t], &mut out)? {
                    return Some(out);
                }
            }
        }
    }
    Some(out)
}

/// A hasher for the search's tables (keys are card masks and packed counters: a
/// multiply-rotate mix is enough, and much cheaper than the default SipHash).
#[derive(Default)]
struct MixHasher(u64);

impl std::hash::Hasher for MixHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(23) ^ n).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }
}

type Table<K, V> = HashMap<K, V, BuildHasherDefault<MixHasher>>;

/// A position in the table: the seat's cards, the round's key and the card counts (the
/// unseen cards never change in this search).
type Key = (u64, u64, u64, u64);

/// What is known of a position: it is won with at most `win` plays of the seat, and not
/// won with at most `no` (`u32::MAX`: not won at all).
#[derive(Clone, Copy)]
struct Known {
    win: u32,
    no: u32,
}

/// A seat's play and its key.
type KeyedPlay = (u64, PlayKey);

/// The search `suggest` runs (the census checks it with [`super::search`], a separate and
/// larger one). First against a stronger adversary than `Search`'s: the cards the
/// opponents play stay unseen, so they may play them again (even in the same round). Whatever
/// the seat wins against it, it wins against the real one (every real play is one of its
/// plays), and the work shrinks: the unseen cards never change, so a play of theirs is
/// only its effect — one play per key, and of the plays of one type and size that the
/// seat's same plays beat, only the lowest (it does all the others do) — and which of
/// the seat's plays nothing beats is known once for the whole search. Then, for the sure
/// wins that need an opponent to run out of a card, against the real adversary
/// (`exact`: every play of theirs). Both deepen iteratively the number of plays the seat
/// may still make, bounded below by the fewest plays its cards split into (a hand that
/// needs more is cut at once), so the short proofs most sure wins have come before the
/// long lines; keep a table of positions already decided; and look for the opponents'
/// way out before their other plays.
struct Fast {
    me: usize,
    /// The unseen cards (fixed), by rank.
    pool: Ranked,
    b: Budget,
    known: Table<Key, Known>,
    /// The fewest plays a hand splits into, by its packed rank counts.
    parts: Table<u64, u32>,
    /// Whether a limit on the seat's plays cut the search below the current position (a
    /// "no" there holds for that limit only).
    cut: bool,
    /// Every play of each hand of the seat's, with its key.
    my_plays: Table<u64, std::rc::Rc<Vec<KeyedPlay>>>,
    /// Whether nothing unseen of at most `n` cards beats a play of the seat's: by (play,
    /// n, unseen cards).
    boss: Table<(u64, u32, u64), bool>,
    /// The real adversary (its played cards leave the unseen ones): every play of theirs
    /// is searched.
    exact: bool,
}

/// Cards per rank of a mask.
fn ranks_of(mask: u64) -> [u8; 13] {
    let mut c = [0u8; 13];
    let mut m = mask;
    while m != 0 {
        c[rank(Card(m.trailing_zeros() as u8)) as usize] += 1;
        m &= m - 1;
    }
    c
}

impl Fast {
    fn new(e: &Endgame, budget: u32) -> Fast {
        Fast {
            me: e.me,
            pool: by_rank(e.pool),
            b: Budget { used: 0, limit: budget },
            known: Table::default(),
            parts: Table::default(),
            cut: false,
            my_plays: Table::default(),
            boss: Table::default(),
            exact: false,
        }
    }

    fn key(&self, e: &Endgame) -> Key {
        let (table, round) = e.round.search_key();
        let counts = e.counts.iter().enumerate().fold(0u64, |k, (i, &n)| k | u64::from(n) << (4 * i));
        (e.mine, if self.exact { e.pool } else { 0 }, table, u64::from(round) | counts << 32)
    }

    /// The fewest plays the cards of `mask` split into.
    fn min_plays(&mut self, mask: u64) -> u32 {
        self.min_plays_of(ranks_of(mask))
    }

    fn min_plays_of(&mut self, c: [u8; 13]) -> u32 {
        // Every play holding a card of the lowest rank starts at that rank.
        let Some(r) = c.iter().position(|&n| n > 0) else { return 0 };
        let packed = c.iter().enumerate().fold(0u64, |k, (i, &n)| k | u64::from(n) << (3 * i));
        if let Some(&n) = self.parts.get(&packed) {
            return n;
        }
        let mut best = u32::MAX;
        for k in 1..=c[r] {
            if k == 4 && r as u8 == TWO {
                continue;
            }
            let mut d = c;
            d[r] -= k;
            best = best.min(1 + self.min_plays_of(d));
        }
        let top = ACE as usize;
        let mut d = c;
        let mut x = r;
        while x <= top && c[x] > 0 {
            d[x] -= 1;
            if x >= r + 2 {
                best = best.min(1 + self.min_plays_of(d));
            }
            x += 1;
        }
        for pairs in [3usize, 4] {
            if r + pairs - 1 <= top && (r..r + pairs).all(|x| c[x] >= 2) {
                let mut d = c;
                (r..r + pairs).for_each(|x| d[x] -= 2);
                best = best.min(1 + self.min_plays_of(d));
            }
        }
        self.parts.insert(packed, best);
        best
    }

    /// Every play of the seat's hand `mine`, with its key (made once a hand).
    fn plays_of_mine(&mut self, mine: u64) -> Option<std::rc::Rc<Vec<KeyedPlay>>> {
        if let Some(p) = self.my_plays.get(&mine) {
            return Some(p.clone());
        }
        let ms = plays_of(mine, 13, None, false, &mut self.b, false)?;
        let keyed: Vec<KeyedPlay> =
            ms.into_iter().filter_map(|m| super::super::play::classify(&cards_of(m)).ok().map(|p| (m, p.key))).collect();
        let keyed = std::rc::Rc::new(keyed);
        self.my_plays.insert(mine, keyed.clone());
        Some(keyed)
    }

    /// Whether no play of at most `most` unseen cards beats `key` (the seat's play `m`).
    fn is_boss(&mut self, pool: u64, m: u64, key: PlayKey, most: u32) -> Option<bool> {
        let pool = if self.exact { pool } else { 0 };
        if let Some(&b) = self.boss.get(&(m, most, pool)) {
            return Some(b);
        }
        let ranked = if self.exact { by_rank(pool) } else { self.pool };
        let b = key_plays(&ranked, 1, most, Some(key), false, &mut self.b, true)?.is_empty();
        self.boss.insert((m, most, pool), b);
        Some(b)
    }

    /// The opponents' actions at `e` (seat, play or pass); only a way out when one has it.
    fn opponent_actions(&mut self, e: &Endgame) -> Option<Vec<(usize, Option<u64>)>> {
        let table = e.round.table().map(|t| t.1.key);
        let to_move = e.round.to_move.expect("a live round has a seat to move");
        let mut movers = [(0usize, false); 4];
        let mut k = 0;
        for o in (0..e.counts.len()).filter(|&o| o != self.me) {
            if o == to_move {
                movers[k] = (o, false);
                k += 1;
            } else if e.round.passed[o] && e.round.chop_window_open(o) {
                movers[k] = (o, true);
                k += 1;
            }
        }
        let movers = &movers[..k];
        let ranked = if self.exact { by_rank(e.pool) } else { self.pool };
        for &(o, passed) in movers {
            let n = e.counts[o];
            if let Some(&(m, _)) = key_plays(&ranked, n, n, table, passed, &mut self.b, true)?.first() {
                return Some(vec![(o, Some(m))]);
            }
        }
        let mine = self.plays_of_mine(e.mine)?;
        let mut out = Vec::new();
        for &(o, passed) in movers {
            let mut ms: Vec<u64> = if self.exact {
                plays_between(e.pool, 1, e.counts[o] - 1, table, passed, &mut self.b, false)?
            } else {
                let keyed = key_plays(&ranked, 1, e.counts[o] - 1, table, passed, &mut self.b, false)?;
                lowest_of_each_effect(&mine, keyed).into_iter().map(|(m, _)| m).collect()
            };
            // The longest and highest plays first: the likeliest to hold the lead.
            ms.sort_by_key(|&m| (std::cmp::Reverse(m.count_ones()), std::cmp::Reverse(top_strength(m))));
            out.extend(ms.into_iter().map(|m| (o, Some(m))));
            if !passed && table.is_some() {
                out.push((o, None));
            }
        }
        Some(out)
    }

    /// The seat's actions in turn at `e` with at most `k` plays left: going out, then the
    /// plays whose rest splits into the fewest plays (a play that leaves more than `k - 1`
    /// is cut), longest and highest first; a pass last.
    fn my_actions(&mut self, e: &Endgame, k: u32) -> Option<Vec<Option<u64>>> {
        let table = e.round.table().map(|t| t.1.key);
        let mut ms = Vec::new();
        for &(m, key) in self.plays_of_mine(e.mine)?.iter() {
            if table.is_some_and(|t| !beats_key(key, t)) {
                continue;
            }
            let rest = if m == e.mine { 0 } else { self.min_plays(e.mine & !m) };
            if rest + 1 > k {
                self.cut = true;
            } else {
                ms.push((rest, m, key.top));
            }
        }
        ms.sort_by_key(|&(rest, m, top)| (rest, std::cmp::Reverse(m.count_ones()), std::cmp::Reverse(top)));
        let mut out: Vec<Option<u64>> = ms.into_iter().map(|(_, m, _)| Some(m)).collect();
        if table.is_some() {
            out.push(None);
        }
        Some(out)
    }

    /// Whether the seat goes out first from `e` with at most `k` more plays whatever the
    /// adversary does (`false` with `cut` set: not within `k`; `None`: out of budget).
    fn value(&mut self, e: &Endgame, k: u32) -> Option<bool> {
        if self.min_plays(e.mine) > k {
            self.cut = true;
            return Some(false);
        }
        let key = self.key(e);
        if let Some(kn) = self.known.get(&key) {
            if k >= kn.win {
                return Some(true);
            }
            if k <= kn.no {
                self.cut |= kn.no != u32::MAX;
                return Some(false);
            }
        }
        let outer = std::mem::replace(&mut self.cut, false);
        let v = self.value_here(e, k);
        let cut = self.cut;
        self.cut = outer || cut;
        let v = v?;
        let kn = self.known.entry(key).or_insert(Known { win: u32::MAX, no: 0 });
        if v {
            kn.win = kn.win.min(k);
        } else {
            kn.no = if cut { kn.no.max(k) } else { u32::MAX };
        }
        Some(v)
    }

    fn value_here(&mut self, e: &Endgame, k: u32) -> Option<bool> {
        self.b.spend(1)?;
        let to_move = e.round.to_move.expect("a live round has a seat to move");
        if !self.adversary_fails(e, k)? {
            return Some(false);
        }
        if to_move != self.me {
            return Some(true);
        }
        if self.quick(e)?.is_some() {
            return Some(true);
        }
        for a in self.my_actions(e, k)? {
            if self.my_move_wins(e, a, k)? {
                return Some(true);
            }
        }
        Some(false)
    }

    /// Whether every action the adversary may take at `e` (before the seat acts) leaves a
    /// position the seat still wins within `k` plays.
    fn adversary_fails(&mut self, e: &Endgame, k: u32) -> Option<bool> {
        for (o, m) in self.opponent_actions(e)? {
            match step(e, o, m) {
                Some(Next::Lost) => return Some(false),
                Some(Next::Goes(mut n)) => {
                    if !self.exact {
                        // Its cards stay unseen, and may be played again even in this round
                        // (so a lower play of one effect does all a higher one does).
                        n.pool = e.pool;
                        n.round.forget_played();
                    }
                    if !self.value(&n, k)? {
                        return Some(false);
                    }
                }
                None | Some(Next::Won) => {}
            }
        }
        Some(true)
    }

    fn my_move_wins(&mut self, e: &Endgame, a: Option<u64>, k: u32) -> Option<bool> {
        Some(match step(e, self.me, a) {
            Some(Next::Won) => true,
            Some(Next::Lost) | None => false,
            Some(Next::Goes(n)) => self.value(&n, if a.is_some() { k - 1 } else { k })?,
        })
    }

    /// `quick`'s proof, with the bosses known once for the search.
    fn quick(&mut self, e: &Endgame) -> Option<Option<u64>> {
        let plays = self.plays_of_mine(e.mine)?;
        let most = (0..e.counts.len()).filter(|&o| o != self.me).map(|o| e.counts[o]).max().unwrap_or(0);
        let mut marked = Vec::with_capacity(plays.len());
        for &(m, key) in plays.iter() {
            marked.push((m, key, self.is_boss(e.pool, m, key, most)?));
        }
        Some(plan(e, &marked))
    }

    /// At most `d` plays: `None` out of budget, `Some(None)` no sure win within them,
    /// `Some(Some(first move))` a sure win.
    fn root(&mut self, e: &Endgame, d: u32) -> Option<Option<Option<Action>>> {
        let to_move = e.round.to_move?;
        if to_move != self.me {
            return Some(self.value(e, d)?.then_some(None));
        }
        // In turn: every chop the adversary may make first must lose for it, and one of
        // the seat's moves must win.
        if !self.adversary_fails(e, d)? {
            return Some(None);
        }
        if let Some(m) = self.quick(e)? {
            return Some(Some(Some(Action::Play(cards_of(m)))));
        }
        for a in self.my_actions(e, d)? {
            if self.my_move_wins(e, a, d)? {
                return Some(Some(Some(a.map_or(Action::Pass, |m| Action::Play(cards_of(m))))));
            }
        }
        Some(None)
    }
}

/// Of `plays` (the adversary's, one seat's, keyed), the lowest of each type, size and set
/// of the seat's plays (`mine`) that beat it: against the seat it does what the others
/// do, and the seats after it may beat it with more.
fn lowest_of_each_effect(mine: &[KeyedPlay], plays: Vec<KeyedPlay>) -> Vec<KeyedPlay> {
    if mine.len() > 256 {
        return plays;
    }
    let mut best: Table<(Kind, u8, [u64; 4]), KeyedPlay> = Table::default();
    for (m, key) in plays {
        let mut beaten_by = [0u64; 4];
        for (i, &(_, k)) in mine.iter().enumerate() {
            if beats_key(k, key) {
                beaten_by[i / 64] |= 1 << (i % 64);
            }
        }
        let slot = best.entry((key.kind, key.len, beaten_by)).or_insert((m, key));
        if key.top < slot.1.top {
            *slot = (m, key);
        }
    }
    best.into_values().collect()
}

/// The play types by size in [`tops`]: single, pair, triple, bomb, straights of 3..=12,
/// 3连对, 4连对.
const SLOTS: usize = 16;

fn slot_of(kind: Kind, len: usize) -> usize {
    match kind {
        Kind::Single => 0,
        Kind::Pair => 1,
        Kind::Triple => 2,
        Kind::Bomb => 3,
        Kind::Straight => len + 1,
        Kind::ThreePairRun => 14,
        Kind::FourPairRun => 15,
    }
}

fn slot_play(slot: usize) -> (Kind, usize) {
    match slot {
        0 => (Kind::Single, 1),
        1 => (Kind::Pair, 2),
        2 => (Kind::Triple, 3),
        3 => (Kind::Bomb, 4),
        14 => (Kind::ThreePairRun, 6),
        15 => (Kind::FourPairRun, 8),
        s => (Kind::Straight, s - 1),
    }
}

/// The highest top card ([`strength`]) of a play of each type and size in `r`; with
/// `plain`, no 2 in a single or pair and no specials (the plays a seat holding a
/// special cannot chop).
fn tops(r: &Ranked, plain: bool) -> [Option<u8>; SLOTS] {
    let (cards, n) = r;
    let top_of = |rank: usize| strength(Card(cards[rank][n[rank] - 1].trailing_zeros() as u8));
    let mut t = [None; SLOTS];
    for rank in 0..13 {
        let two = rank as u8 == TWO;
        for (k, slot) in [(1, 0), (2, 1), (3, 2), (4, 3)] {
            if n[rank] >= k && !(k == 4 && two) && !(plain && (two && k <= 2 || k == 4)) {
                t[slot] = Some(top_of(rank));
            }
        }
    }
    let ace = ACE as usize;
    for lo in 0..=ace {
        let mut hi = lo;
        while hi <= ace && n[hi] > 0 {
            if hi >= lo + 2 {
                let s = slot_of(Kind::Straight, hi - lo + 1);
                t[s] = t[s].max(Some(top_of(hi)));
            }
            hi += 1;
        }
        if !plain {
            for (pairs, slot) in [(3, 14), (4, 15)] {
                if lo + pairs - 1 <= ace && (lo..lo + pairs).all(|x| n[x] >= 2) {
                    t[slot] = t[slot].max(Some(top_of(lo + pairs - 1)));
                }
            }
        }
    }
    t
}

/// A proof without search that the seat has no sure win: the seat is in turn, and
/// whatever it plays some opponent still to act beats it with a play the seat can never
/// beat and then sheds the rest of its cards in such plays (the seat passes on each: the
/// opponent keeps the lead); and a pass hands the lead to the table's owner, who sheds
/// its cards the same way. Against [`Fast`]'s adversary (`real` false) an opponent may
/// play such a play again and again; against the real one (`real`, [`surely_not_real`])
/// each card once. `false` says nothing.
pub(crate) fn surely_not(e: &Endgame, real: bool) -> bool {
    if real {
        return surely_not_real(e);
    }
    if e.round.to_move != Some(e.me) || super::super::play::classify(&cards_of(e.mine)).is_ok() {
        return false;
    }
    let mine = tops(&by_rank(e.mine), false);
    let has_special = mine[3].is_some() || mine[14].is_some() || mine[15].is_some();
    let unseen = tops(&by_rank(e.pool), has_special);
    // The plays (by type and size) the seat can never beat.
    let mut lasting = [false; SLOTS];
    for s in 0..SLOTS {
        lasting[s] = unseen[s].is_some_and(|u| mine[s].is_none_or(|m| u > m));
    }
    // Counts shed in such plays, each as often as wanted.
    let mut sheds = [false; 14];
    sheds[0] = true;
    for c in 1..14 {
        sheds[c] = (0..SLOTS).any(|s| lasting[s] && slot_play(s).1 <= c && sheds[c - slot_play(s).1]);
    }
    let answered = |s: usize| {
        let len = slot_play(s).1;
        lasting[s]
            && (0..e.counts.len()).any(|o| {
                let c = e.counts[o] as usize;
                o != e.me && !e.round.passed[o] && c >= len && sheds[c - len]
            })
    };
    match e.round.table() {
        None => (0..SLOTS).all(|s| mine[s].is_none() || answered(s)),
        Some((owner, t)) => {
            sheds[e.counts[*owner] as usize]
                && (0..SLOTS).all(|s| {
                    let (kind, len) = slot_play(s);
                    mine[s].is_none_or(|top| !beats_key(PlayKey { kind, len: len as u8, top }, t.key)) || answered(s)
                })
        }
    }
}

/// What an opponent with the lead can shed, each unseen card once, in plays the seat can
/// never beat: by the kinds of same-rank plays used (bit 0 singles, 1 pairs, 2 triples),
/// the card counts reachable (bit n: n cards). Only singles, pairs and triples of one
/// rank are counted (fewer plays than it has: the proof only gets harder).
fn real_sheds(pool: &Ranked, mine: &[Option<u8>; SLOTS], has_special: bool) -> [u16; 8] {
    let (cards, n) = pool;
    let st = |b: u64| strength(Card(b.trailing_zeros() as u8));
    let over = |top: u8, slot: usize| mine[slot].is_none_or(|m| top > m);
    let mut reach = [0u16; 8];
    reach[0] = 1;
    for r in 0..13 {
        let k = n[r];
        if k == 0 {
            continue;
        }
        let two = r as u8 == TWO;
        // Singles the seat can never beat: the highest cards of the rank.
        let singles = cards[r][..k].iter().filter(|&&c| over(st(c), 0) && !(has_special && two)).count();
        // Pairs and triples take the lowest cards; the lowest of each must do.
        let pair_ok = k >= 2 && over(st(cards[r][1]), 1) && !(has_special && two);
        let triple_ok = k >= 3 && over(st(cards[r][2]), 2);
        let mut next = reach;
        for p in 0..=if pair_ok { k / 2 } else { 0 } {
            for t in 0..=usize::from(triple_ok) {
                if 2 * p + 3 * t > k {
                    continue;
                }
                for j in 0..=singles.min(k - 2 * p - 3 * t) {
                    let (amount, kinds) = (2 * p + 3 * t + j, usize::from(j > 0) | usize::from(p > 0) << 1 | usize::from(t > 0) << 2);
                    if amount == 0 {
                        continue;
                    }
                    for f in 0..8 {
                        next[f | kinds] |= (reach[f] << amount) & 0x3fff;
                    }
                }
            }
        }
        reach = next;
    }
    reach
}

/// [`surely_not`] against the real adversary: the opponent's cards are distinct. The
/// play that takes the lead is one of its shedding plays (a single, pair or triple), or a
/// straight or special the seat can never beat, from the cards left for the rest.
fn surely_not_real(e: &Endgame) -> bool {
    if e.round.to_move != Some(e.me) || super::super::play::classify(&cards_of(e.mine)).is_ok() {
        return false;
    }
    let mine = tops(&by_rank(e.mine), false);
    let has_special = mine[3].is_some() || mine[14].is_some() || mine[15].is_some();
    let pool = by_rank(e.pool);
    let reach = real_sheds(&pool, &mine, has_special);
    let any = |c: usize| reach.iter().any(|r| r & (1 << c) != 0);
    // The counts of the opponents still to act.
    let counts: Vec<usize> = (0..e.counts.len()).filter(|&o| o != e.me && !e.round.passed[o]).map(|o| e.counts[o] as usize).collect();
    let answered = |s: usize| -> bool {
        match s {
            0..=2 => counts.iter().any(|&c| reach.iter().enumerate().any(|(f, r)| f & (1 << s) != 0 && r & (1 << c) != 0)),
            _ => {
                // The straight or special: the highest the unseen cards make, if the seat
                // can never beat it, then the rest from the cards it leaves.
                let (kind, len) = slot_play(s);
                if has_special && kind.is_special() {
                    return false;
                }
                let Some(play) = best_play(&pool, kind, len).filter(|&(_, top)| mine[s].is_none_or(|m| top > m)) else {
                    return false;
                };
                let left = by_rank(e.pool & !play.0);
                let rest = real_sheds(&left, &mine, has_special);
                counts.iter().any(|&c| c >= len && rest.iter().any(|r| r & (1 << (c - len)) != 0))
            }
        }
    };
    match e.round.table() {
        None => (0..SLOTS).all(|s| mine[s].is_none() || answered(s)),
        Some((owner, t)) => {
            any(e.counts[*owner] as usize)
                && (0..SLOTS).all(|s| {
                    let (kind, len) = slot_play(s);
                    mine[s].is_none_or(|top| !beats_key(PlayKey { kind, len: len as u8, top }, t.key)) || answered(s)
                })
        }
    }
}

/// The play of `kind` and `len` cards with the highest top that the cards of `r` make
/// (the lowest cards under the top), with its top ([`strength`]).
fn best_play(r: &Ranked, kind: Kind, len: usize) -> Option<(u64, u8)> {
    let mut b = Budget { used: 0, limit: u32::MAX };
    let plays = key_plays(r, len as u32, len as u32, None, false, &mut b, false)?;
    plays.into_iter().filter(|(_, k)| k.kind == kind).max_by_key(|(_, k)| k.top).map(|(m, k)| (m, k.top))
}

/// Whether the seat of `e` has a sure win, and its first move, by the search `suggest`
/// runs: a proof without search that it has none against the real adversary
/// ([`surely_not`]) ends it; else [`Fast`] against the stronger adversary, and if that
/// proves it has an answer to everything (by search or without), against the real one,
/// sharing 3 × `budget`. Also returns the work done (states and candidate plays, as
/// [`super::search`]'s; never above 3 × `budget`).
pub(crate) fn fast_search(e: &Endgame, budget: u32) -> (Verdict, u32) {
    if surely_not(e, true) {
        return (Verdict::NoWin, 0);
    }
    // Against the stronger adversary first: most sure wins are proved there, and fast.
    let total = 3 * budget;
    let (v, used) = if surely_not(e, false) { (Verdict::NoWin, 0) } else { deepen(e, total) };
    if v != Verdict::NoWin {
        return (v, used);
    }
    // It has an answer to everything: then the real one, on what is left (a sure win
    // that needs an opponent to run out of a card).
    let (v, more) = deepen_as(e, total - used, true);
    (v, used + more)
}

/// [`Fast`]'s search, deepening the number of plays the seat may make.
pub(crate) fn deepen(e: &Endgame, budget: u32) -> (Verdict, u32) {
    deepen_as(e, budget, false)
}

pub(crate) fn deepen_as(e: &Endgame, budget: u32, exact: bool) -> (Verdict, u32) {
    let mut s = Fast::new(e, budget);
    s.exact = exact;
    let v = (|| {
        e.round.to_move?;
        // Each play sheds a card: with as many plays as cards no limit cuts.
        for d in s.min_plays(e.mine)..=e.mine.count_ones() {
            s.cut = false;
            match s.root(e, d)? {
                Some(a) => return Some(Verdict::Win(a)),
                None if !s.cut => return Some(Verdict::NoWin),
                None => {}
            }
        }
        Some(Verdict::NoWin)
    })();
    (v.unwrap_or(if e.round.to_move.is_none() { Verdict::NoWin } else { Verdict::Unknown }), s.b.used)
}
