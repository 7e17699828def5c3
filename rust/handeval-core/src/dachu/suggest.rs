//! 托管 for 打儲: the move a seat should make, from what that seat can see
//! (docs/suggest.md).
//!
//! * [`View`] (the play), [`DealView`] (the deal's declarations) and [`CallView`] (the
//!   calling) are a seat's information sets: its own cards, the public record, the other
//!   seats' card counts, the sides and the 儲 colour. A play view replaces the other
//!   seats' cards by a fixed placeholder deal when it is made, so nothing built on it can
//!   read them.
//! * The play at effort 0 (the default) is a team-aware heuristic: plan the hand into
//!   groups, shed the weakest whole group, let a partner's play stand, keep bombs, 2s
//!   and 儲 aces for tricks that matter, beat an opponent about to go out. At effort
//!   n > 0 each of the heuristic's best candidates is played out to the end in n deals
//!   of the unseen cards consistent with the seat's information (card counts, cards
//!   played, the shown 夢踹 triples, who holds a 儲A), with the heuristic in every seat;
//!   the best mean money wins.
//! * The deal and the calling use a hand-strength rule at every effort.

use super::calling::{Call, Calling};
use super::deal::{Deal, DealAction, SEATS};
use super::game::{Game, PlayAction};
use super::play::{rank_value, Chu, Kind, LegalPlay};
use super::sure_win;
use crate::cards::Card;
use crate::error::{Error, Reason, Result};
use crate::sampling::{mix, weigh, Rng, Scored};

pub use crate::tienlen::suggest::{DEFAULT_EFFORT, MAX_EFFORT};
const SAMPLED_CANDIDATES: usize = 4;

fn card_value(c: Card, chu: Chu) -> u8 {
    if chu.is_chu(c) {
        14
    } else {
        rank_value(c.rank())
    }
}

/// Cards per value (1 = `3` … 12 = `A`, 13 = `2`, 14 = 儲A).
fn value_counts(cards: &[Card], chu: Chu) -> [u8; 15] {
    let mut c = [0u8; 15];
    for &x in cards {
        c[card_value(x, chu) as usize] += 1;
    }
    c
}

/// How good a hand is to hold: ten points less per group it needs to go out (straights
/// over its single ranks 3..A, one group per other rank), plus points for what takes
/// tricks (bombs, 獨儲, 2s, 儲 aces, aces).
fn hand_value(cards: &[Card], chu: Chu) -> f64 {
    let mut c = value_counts(cards, chu);
    let mut groups = 0f64;
    let mut control = 0f64;
    if c[14] == 2 {
        c[14] = 0;
        groups += 1.0;
        control += 16.0;
    }
    for v in 1..=13 {
        if c[v] >= 3 {
            groups += 1.0;
            control += if c[v] == 4 { 14.0 } else { 9.0 } + v as f64 * 0.2;
            c[v] = 0;
        }
    }
    // Straights over 3..A (values 1..12; a 儲A counts as an A here).
    let mut run = c;
    run[12] += run[14];
    let mut v = 1;
    while v <= 12 {
        if run[v] == 0 {
            v += 1;
            continue;
        }
        let start = v;
        while v <= 12 && run[v] > 0 {
            v += 1;
        }
        let end = v;
        if end - start >= 3 {
            let singles: Vec<usize> = (start..end).filter(|&x| run[x] == 1).collect();
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
                    if x == 12 && c[12] == 0 {
                        c[14] -= 1;
                    } else {
                        c[x] -= 1;
                    }
                    run[x] -= 1;
                }
                groups += 1.0;
                control += (hi as f64 - 8.0).max(0.0) * 0.5;
            }
        }
    }
    for (v, &n) in c.iter().enumerate() {
        if n == 0 {
            continue;
        }
        groups += 1.0;
        control += match v {
            14 => 7.0,
            13 => 5.0 + 2.0 * (n as f64 - 1.0),
            12 => 2.5,
            11 => 1.0,
            _ => 0.0,
        };
    }
    -10.0 * groups + control
}

// ------------------------------------------------------------------------- the play

/// What one seat can see of the play: its information set.
#[derive(Clone, Debug)]
pub struct View {
    seat: usize,
    /// The game with every other seat's cards replaced by a placeholder deal of the
    /// unseen cards (shown 夢踹 triples with their owner, the rest lowest first).
    game: Game,
}

fn unseen_cards(g: &Game, seat: usize) -> (Vec<Card>, Vec<Vec<Card>>) {
    // Played cards of each seat: dealt minus held.
    let mut seen = 0u64;
    for c in g.held(seat) {
        seen |= c.bit();
    }
    let played: Vec<Vec<Card>> = (0..SEATS).map(|s| g.hands()[s].iter().copied().filter(|c| !g.held(s).contains(c)).collect()).collect();
    for p in &played {
        for c in p {
            seen |= c.bit();
        }
    }
    ((0..52u8).map(Card).filter(|c| seen & c.bit() == 0).collect(), played)
}

/// Cards of the unseen pool that are known to be in a seat's hand: a shown 夢踹 triple
/// still unplayed, and the 儲 aces of the 儲方 (the lone 儲 seat holds both; in 2 vs 2
/// each holds one, and a seat that has played its 儲A holds no other).
fn known_cards(g: &Game, seat: usize, unseen: &[Card], played: &[Vec<Card>], rng: Option<&mut Rng>) -> Vec<(usize, Card)> {
    let mut out = Vec::new();
    for s in (0..SEATS).filter(|&s| s != seat) {
        if let Some(t) = g.shown[s] {
            out.extend(t.iter().filter(|c| unseen.contains(c)).map(|&c| (s, c)));
        }
    }
    let aces: Vec<Card> = g.chu.aces().into_iter().filter(|c| unseen.contains(c)).collect();
    let holders: Vec<usize> = if g.chu_side.len() == 1 {
        vec![g.chu_side[0]; 2]
    } else {
        g.chu_side.iter().copied().filter(|&s| s != seat && !played[s].iter().any(|c| g.chu.is_chu(*c))).collect()
    };
    if holders.len() >= aces.len() && holders.iter().all(|&h| h != seat) {
        let mut hs = holders;
        if let (Some(rng), 2) = (rng, hs.len()) {
            if rng.below(2) == 1 {
                hs.swap(0, 1);
            }
        }
        out.extend(aces.into_iter().zip(hs).map(|(c, s)| (s, c)));
    }
    out
}

/// The other seats' hands dealt from the unseen cards: the known ones first, the rest
/// in `order` (shuffled for a sample, lowest first for the placeholder).
fn redeal(g: &Game, seat: usize, mut rng: Option<&mut Rng>) -> Game {
    let (unseen, played) = unseen_cards(g, seat);
    let known = known_cards(g, seat, &unseen, &played, rng.as_deref_mut());
    let mut hands: Vec<Vec<Card>> = vec![Vec::new(); SEATS];
    let mut pool: Vec<Card> = unseen.clone();
    for &(s, c) in &known {
        if hands[s].len() < g.held(s).len() {
            hands[s].push(c);
            pool.retain(|&x| x != c);
        }
    }
    if let Some(rng) = rng {
        rng.shuffle(&mut pool);
    }
    let mut k = 0;
    let mut out = g.clone();
    for s in (0..SEATS).filter(|&s| s != seat) {
        let need = g.held(s).len() - hands[s].len();
        hands[s].extend_from_slice(&pool[k..k + need]);
        k += need;
        out.set_held(s, std::mem::take(&mut hands[s]));
    }
    out
}

impl View {
    pub fn new(game: &Game, seat: usize) -> Result<View> {
        if seat >= SEATS {
            return Err(Error::field("seat", format!("unknown seat {seat} (打儲 seats are 0..3)")).because(Reason::OutOfRange));
        }
        Ok(View { seat, game: redeal(game, seat, None) })
    }
    pub fn seat(&self) -> usize {
        self.seat
    }
    pub fn hand(&self) -> Vec<Card> {
        self.game.held(self.seat).to_vec()
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Alternative<A> {
    pub action: A,
    /// Higher is better: the heuristic's score, or with sampling the mean money of the
    /// playouts at base 1.
    pub score: f64,
}

impl<A> Scored for Alternative<A> {
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
    pub action: PlayAction,
    /// The choices weighed, best first.
    pub alternatives: Vec<Alternative<PlayAction>>,
    pub effort: u32,
}

fn options(g: &Game, seat: usize) -> Result<Vec<PlayAction>> {
    let Some(turn) = g.turn else {
        return Err(Error::new("the play is over: there is nothing to suggest").because(Reason::GameOver));
    };
    if turn != seat {
        return Err(Error::field("seat", format!("it is seat {turn}'s turn, not seat {seat}'s")).because(Reason::NotYourTurn));
    }
    let mut out: Vec<PlayAction> = Vec::new();
    let mut last: Option<(Kind, u8, u8)> = None;
    for LegalPlay { cards, play } in g.legal_plays() {
        // One play per (type, size, strength): the weakest-first order keeps the lowest ids.
        let key = (play.kind, play.len, play.strength);
        if last != Some(key) {
            out.push(PlayAction::Play { seat, cards });
            last = Some(key);
        }
    }
    if g.may_pass() {
        out.push(PlayAction::Pass { seat });
    }
    Ok(out)
}

fn same_side(g: &Game, a: usize, b: usize) -> bool {
    g.chu_side.contains(&a) == g.chu_side.contains(&b)
}

fn scores(g: &Game, seat: usize, opts: &[PlayAction]) -> Vec<f64> {
    let hand = g.held(seat);
    let chu = g.chu;
    let active = |s: usize| g.playing[s] && !g.held(s).is_empty();
    let opp_min = (0..SEATS).filter(|&s| active(s) && !same_side(g, s, seat)).map(|s| g.held(s).len()).min().unwrap_or(13);
    let base = hand_value(hand, chu);
    let table = g.table.as_ref();
    let partner_owns = table.is_some_and(|t| t.0 != seat && same_side(g, t.0, seat));
    opts.iter()
        .map(|o| match o {
            PlayAction::Pass { .. } => {
                let mut s = base + 2.0;
                if let Some(t) = table {
                    if !partner_owns && g.held(t.0).len() <= 2 {
                        s -= 30.0;
                    }
                    if partner_owns {
                        s += 20.0;
                    }
                }
                s
            }
            PlayAction::Play { cards, .. } => {
                if cards.len() == hand.len() {
                    return 1000.0;
                }
                let rem: Vec<Card> = hand.iter().copied().filter(|c| !cards.contains(c)).collect();
                let p = super::play::classify(cards, chu, g.rules()).expect("a legal play");
                let top = cards.iter().map(|&c| card_value(c, chu)).max().unwrap_or(0) as f64;
                let mut s = hand_value(&rem, chu) + cards.len() as f64 * 0.5;
                match table {
                    Some(t) => {
                        let ttop = t.1.iter().map(|&c| card_value(c, chu)).max().unwrap_or(0) as f64;
                        if p.kind != t.2.kind {
                            // A bomb on an ordinary play: only when it matters.
                            s -= if g.held(t.0).len() <= 3 && !partner_owns { 0.0 } else { 12.0 };
                        } else {
                            s -= (top - ttop).max(0.0) * 0.6;
                        }
                    }
                    None => {
                        s -= top * 0.4;
                        if opp_min <= cards.len() && p.kind != Kind::Straight {
                            s -= 25.0 - top;
                        }
                    }
                }
                if opp_min <= 2 && table.is_some() && !partner_owns {
                    s += top;
                }
                s
            }
            PlayAction::Timeout { .. } => f64::MIN,
        })
        .collect()
}

fn ranked(g: &Game, seat: usize) -> Result<Vec<Alternative<PlayAction>>> {
    let opts = options(g, seat)?;
    let sc = scores(g, seat, &opts);
    let mut alts: Vec<Alternative<PlayAction>> = opts.into_iter().zip(sc).map(|(action, score)| Alternative { action, score }).collect();
    alts.sort_by(|a, b| b.score.total_cmp(&a.score));
    Ok(alts)
}

fn playout(g: &mut Game) {
    let mut guard = 0;
    while !g.is_over() && g.decided().is_none() && guard < 400 {
        guard += 1;
        let t = g.turn.expect("not over");
        let a = ranked(g, t).expect("the seat in turn has a choice").swap_remove(0).action;
        g.apply_in_place(&a).expect("a legal action");
    }
}

/// The score of a move that starts a sure win (going out now included).
const SURE: f64 = 1000.0;
/// Taken off the score of a move after which an opponent is sure to go out, when some
/// other move is not such a move.
const LETS_OUT: f64 = 10_000.0;

/// The exact checks, before the heuristic's order counts (sure_win.rs): the first move of
/// a sure win goes first; moves after which an opponent is sure to go out go last when
/// another move prevents it. Returns how many alternatives, from the first, are safe to
/// weigh by sampling.
fn guard(g: &Game, seat: usize, alts: &mut Vec<Alternative<PlayAction>>) -> usize {
    if let Some(plan) = sure_win::sure_win(g) {
        let first = plan.into_iter().next().expect("a plan has a first play");
        let key = |c: &[Card]| c.iter().fold(0u64, |m, c| m | c.bit());
        alts.retain(|a| !matches!(&a.action, PlayAction::Play { cards, .. } if key(cards) == key(&first)));
        alts.insert(0, Alternative { action: PlayAction::Play { seat, cards: first }, score: SURE });
        return 1;
    }
    let near_out = (0..SEATS).any(|s| g.playing[s] && !same_side(g, s, seat) && (1..=sure_win::SURE_OUT_MOST).contains(&g.held(s).len()));
    if !near_out {
        return alts.len();
    }
    let lets_out: Vec<bool> = alts.iter().map(|a| sure_win::lets_opponent_out(g, &a.action)).collect();
    let safe = lets_out.iter().filter(|&&l| !l).count();
    if safe == 0 || safe == alts.len() {
        return alts.len();
    }
    for (a, &l) in alts.iter_mut().zip(&lets_out) {
        if l {
            a.score -= LETS_OUT;
        }
    }
    alts.sort_by(|a, b| b.score.total_cmp(&a.score));
    safe
}

/// The sure win of the view's seat when it is to move: its plays in order, the first one
/// to make now (sure_win.rs: plays nobody can beat, whatever the unseen cards are, then
/// its last cards), or `None`.
pub fn sure_win(view: &View) -> Option<Vec<Vec<Card>>> {
    (view.game.turn == Some(view.seat)).then(|| sure_win::sure_win(&view.game)).flatten()
}

/// Whether `action` by the view's seat starts a sure win ([`sure_win`]).
pub fn starts_sure_win(view: &View, action: &PlayAction) -> bool {
    view.game.turn == Some(view.seat) && sure_win::starts_sure_win(&view.game, action)
}

/// The suggestion for the view's seat in the play. Deterministic for (view, seed, effort).
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
    let safe = guard(&view.game, seat, &mut alts);
    if effort > 0 && safe > 1 && alts[0].score < SURE {
        alts.truncate(SAMPLED_CANDIDATES.min(safe));
        let seed = mix(seed, view.game.history.len() as u64 * 8 + seat as u64);
        let world = |rng: &mut Rng| redeal(&view.game, seat, Some(rng));
        weigh(&mut alts, seed, effort, between, world, |world, a| {
            let mut g = world.clone();
            g.apply_in_place(&a.action)?;
            playout(&mut g);
            Ok(g.settle(1, &[], None).map(|s| s.deltas[seat]).unwrap_or(0))
        })?;
    }
    Ok(Suggestion { seat, action: alts[0].action.clone(), alternatives: alts, effort })
}

// ------------------------------------------------------------- the deal and the calling

/// What one seat can see of the deal: its cards so far and the public declarations.
#[derive(Clone, Debug)]
pub struct DealView {
    seat: usize,
    held: Vec<Card>,
    /// The declarations open to this seat now (they depend on its cards and the public
    /// record only).
    open: Vec<DealAction>,
}

impl DealView {
    pub fn new(deal: &Deal, seat: usize) -> Result<DealView> {
        if seat >= SEATS {
            return Err(Error::field("seat", format!("unknown seat {seat} (打儲 seats are 0..3)")).because(Reason::OutOfRange));
        }
        let open = deal.legal_actions().into_iter().filter(|a| a.seat() == Some(seat)).collect();
        Ok(DealView { seat, held: deal.held(seat).to_vec(), open })
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct DealSuggestion {
    pub seat: usize,
    /// The declaration to make now, or `None`: make none (let the deal go on).
    pub action: Option<DealAction>,
    pub alternatives: Vec<Alternative<Option<DealAction>>>,
}

/// How strong 13 cards are to play alone against three: the hand value of a 儲 colour.
fn strength13(cards: &[Card], chu: Chu) -> f64 {
    hand_value(cards, chu)
}

/// Threshold of [`strength13`] above which a lone 儲 player plays for more (撐儲, 踹),
/// and below which it surrenders.
const STRONG: f64 = -45.0;
const WEAK: f64 = -75.0;

/// The deal: 撐儲 only with a hand strong enough to play alone for double; no 夢宣 or
/// 夢踹 (they double the stake without making the hand stronger).
pub fn suggest_deal(view: &DealView, _seed: u64, _effort: u32) -> Result<DealSuggestion> {
    let mut alts: Vec<Alternative<Option<DealAction>>> = vec![Alternative { action: None, score: 0.0 }];
    for a in &view.open {
        let score = match a {
            DealAction::ChengChu { chu, .. } => strength13(&view.held, *chu) - STRONG,
            _ => -1.0,
        };
        alts.push(Alternative { action: Some(a.clone()), score });
    }
    alts.sort_by(|a, b| b.score.total_cmp(&a.score));
    Ok(DealSuggestion { seat: view.seat, action: alts[0].action.clone(), alternatives: alts })
}

/// What one seat can see at the calling: its 13 cards, the 儲 colour, the sides and the
/// calls so far.
#[derive(Clone, Debug)]
pub struct CallView {
    seat: usize,
    hand: Vec<Card>,
    chu: Chu,
    calling: Calling,
}

impl CallView {
    /// The view of `seat` at `calling`: its 13 cards and the 儲 colour are what it knows
    /// besides the public calling.
    pub fn new(calling: &Calling, seat: usize, hand: &[Card], chu: Chu) -> Result<CallView> {
        if seat >= SEATS {
            return Err(Error::field("seat", format!("unknown seat {seat} (打儲 seats are 0..3)")).because(Reason::OutOfRange));
        }
        crate::cards::check_distinct(hand).map_err(|e| e.within("hand"))?;
        if hand.len() != crate::cards::HAND_SIZE {
            let n = crate::cards::HAND_SIZE;
            return Err(Error::field("hand", format!("a 打儲 hand has {n} cards (got {})", hand.len())).because(Reason::WrongCount));
        }
        Ok(CallView { seat, hand: hand.to_vec(), chu, calling: calling.clone() })
    }

    /// The view of `seat` at `calling`, its cards and colour read from the finished deal.
    pub fn of_deal(deal: &Deal, calling: &Calling, seat: usize) -> Result<CallView> {
        deal.require_finished()?;
        let chu = deal.chu.expect("a finished deal has a 儲 colour");
        if seat >= SEATS {
            return Err(Error::field("seat", format!("unknown seat {seat} (打儲 seats are 0..3)")).because(Reason::OutOfRange));
        }
        CallView::new(calling, seat, deal.held(seat), chu)
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct CallSuggestion {
    pub seat: usize,
    pub call: Call,
    pub alternatives: Vec<Alternative<Call>>,
}

/// The calling: a lone player (1 vs 3, or alone for a side) surrenders a weak hand and
/// kicks a strong one; a member of a larger side plays 平打 unless the hand is strong;
/// never 包踹.
pub fn suggest_call(view: &CallView, _seed: u64, _effort: u32) -> Result<CallSuggestion> {
    let c = &view.calling;
    let Some(turn) = c.turn() else {
        return Err(Error::new("the calling is over: there is nothing to suggest").because(Reason::GameOver));
    };
    if turn != view.seat {
        return Err(
            Error::field("seat", format!("it is seat {turn}'s turn to call, not seat {}'s", view.seat)).because(Reason::NotYourTurn)
        );
    }
    let st = strength13(&view.hand, view.chu);
    let side = c.calling_side().expect("calling");
    let lone = c.sides[side].len() == 1;
    let mut alts: Vec<Alternative<Call>> = c
        .legal_calls()
        .into_iter()
        .map(|call| {
            let score = match call {
                Call::PingDa => 0.0,
                Call::Chuai => st - STRONG - if lone { 0.0 } else { 10.0 },
                Call::Jiao => {
                    if c.phase() == "bao_chuai" {
                        1.0
                    } else if lone {
                        WEAK - st
                    } else {
                        WEAK - 15.0 - st
                    }
                }
                Call::BaoChuai => -100.0,
            };
            Alternative { action: call, score }
        })
        .collect();
    alts.sort_by(|a, b| b.score.total_cmp(&a.score));
    Ok(CallSuggestion { seat: view.seat, call: alts[0].action, alternatives: alts })
}

/// The baselines of the tournament (docs/benchmarks.md), also handy as simple bots.
pub mod baseline {
    use super::*;

    /// A uniformly random play or pass.
    pub fn random(g: &Game, rng: &mut Rng) -> PlayAction {
        let seat = g.turn.expect("not over");
        let opts = options(g, seat).expect("in turn");
        opts[rng.below(opts.len())].clone()
    }

    /// The usual 托管: the weakest play that beats the table, else pass; the weakest lead.
    pub fn weakest(g: &Game) -> PlayAction {
        let seat = g.turn.expect("not over");
        options(g, seat).expect("in turn").swap_remove(0)
    }

    /// A random declaration open to `seat`, or none (each choice equally likely).
    pub fn random_deal(d: &Deal, seat: usize, rng: &mut Rng) -> Option<DealAction> {
        let open: Vec<DealAction> = d.legal_actions().into_iter().filter(|a| a.seat() == Some(seat)).collect();
        let k = rng.below(open.len() + 1);
        open.get(k).cloned()
    }

    pub fn random_call(c: &Calling, rng: &mut Rng) -> Call {
        let calls = c.legal_calls();
        calls[rng.below(calls.len())]
    }

    /// The most passive call: 平打, else (asked after a partner's 包踹) 繳.
    pub fn passive_call(c: &Calling) -> Call {
        let calls = c.legal_calls();
        if calls.contains(&Call::PingDa) {
            Call::PingDa
        } else if calls.contains(&Call::Jiao) {
            Call::Jiao
        } else {
            calls[0]
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dachu::rules::{DeclareOncePer, FirstCaller, UnitPer};
    use crate::dachu::Rules;
    use crate::sampling::Rng;
    use proptest::prelude::*;

    fn rules(k: u16) -> Rules {
        Rules {
            mixed_ace_pair: k & 1 != 0,
            pass_is_final: k & 2 != 0,
            cheng_chu_alone: k & 4 != 0,
            jiao_round_up: k & 8 != 0,
            escape_shared_by_all: k & 16 != 0,
            unit_per: if k & 32 != 0 { UnitPer::LosingSide } else { UnitPer::LargerSide },
            first_caller_2v2: if k & 64 != 0 { FirstCaller::Chu } else { FirstCaller::Other },
            declare_once_per: match (k >> 7) % 3 {
                0 => DeclareOncePer::PlayerAndKind,
                1 => DeclareOncePer::Player,
                _ => DeclareOncePer::Game,
            },
            ..Rules::default()
        }
    }

    /// A random deal (random declarations), a random calling and `steps` random plays.
    fn random_game(seed: u64, steps: usize, r: &Rules) -> Option<(Deal, Calling, Game)> {
        let mut rng = Rng::new(seed);
        let mut deck: Vec<u8> = (0..52).collect();
        rng.shuffle(&mut deck);
        let hands: Vec<Vec<Card>> = (0..4).map(|p| deck[p * 13..p * 13 + 13].iter().map(|&id| Card(id)).collect()).collect();
        let mut d = Deal::new(hands, rng.below(4), r.clone()).ok()?;
        while !d.finished {
            let acts = d.legal_actions();
            let a = if rng.below(4) == 0 { acts[rng.below(acts.len())].clone() } else { acts[0].clone() };
            d = d.apply(&a).unwrap();
        }
        let mut c = d.calling(None, None).unwrap();
        while !c.is_over() {
            let t = c.turn().unwrap();
            let call = if rng.below(3) == 0 { baseline::random_call(&c, &mut rng) } else { baseline::passive_call(&c) };
            c = c.apply(t, call).unwrap();
        }
        let mut g = Game::new(&d, &c).unwrap();
        for _ in 0..steps {
            if g.is_over() {
                break;
            }
            let a = baseline::random(&g, &mut rng);
            g.apply_in_place(&a).unwrap();
        }
        Some((d, c, g))
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]
        #[test]
        fn suggestions_are_legal_and_deterministic(seed in any::<u64>(), steps in 0usize..60, k in 0u16..384, effort in prop_oneof![Just(0u32), Just(2u32)]) {
            let r = rules(k);
            let Some((_, _, g)) = random_game(seed, steps, &r) else { return Ok(()) };
            let Some(t) = g.turn else {
                prop_assert_eq!(suggest(&View::new(&g, 0).unwrap(), seed, effort).unwrap_err().reason, Reason::GameOver);
                return Ok(());
            };
            let s = suggest(&View::new(&g, t).unwrap(), seed, effort).unwrap();
            prop_assert!(g.apply(&s.action).is_ok(), "{:?}", s.action);
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
            prop_assert!(g.apply(&stopped.action).is_ok());
            for o in (0..4).filter(|&o| o != t) {
                prop_assert_eq!(suggest(&View::new(&g, o).unwrap(), seed, effort).unwrap_err().reason, Reason::NotYourTurn);
            }
        }

        /// The sure-win search stays within its node budget (whole random games, any
        /// hand size), and a sure win it finds is what `suggest` plays, at every effort.
        #[test]
        fn sure_wins_are_taken_within_the_budget(seed in any::<u64>(), steps in 0usize..160, k in 0u16..384, effort in prop_oneof![Just(0u32), Just(2u32)]) {
            let Some((_, _, g)) = random_game(seed, steps, &rules(k)) else { return Ok(()) };
            let Some(t) = g.turn else { return Ok(()) };
            let v = View::new(&g, t).unwrap();
            let s = sure_win::search(&sure_win::Endgame::of(&v.game, t), None);
            prop_assert!(s.nodes <= sure_win::SURE_WIN_NODES);
            prop_assert_eq!(s.plan.is_some(), sure_win(&v).is_some());
            if s.plan.is_some() {
                let a = suggest(&v, seed, effort).unwrap().action;
                prop_assert!(starts_sure_win(&v, &a), "{:?} {:?}", a, s.plan);
            }
        }

        /// Re-dealing the other seats' hidden cards (same counts, the shown triples and
        /// the 儲 aces where the seat knows them) never changes the suggestion.
        #[test]
        fn hidden_cards_do_not_matter(seed in any::<u64>(), other in any::<u64>(), steps in 0usize..50, effort in prop_oneof![Just(0u32), Just(3u32)]) {
            let Some((_, _, g)) = random_game(seed, steps, &Rules::default()) else { return Ok(()) };
            let Some(t) = g.turn else { return Ok(()) };
            let before = suggest(&View::new(&g, t).unwrap(), 9, effort).unwrap();
            let g2 = redeal(&g, t, Some(&mut Rng::new(other)));
            prop_assert_eq!(g2.held(t), g.held(t));
            let after = suggest(&View::new(&g2, t).unwrap(), 9, effort).unwrap();
            prop_assert_eq!(before, after);
        }

        /// The deal's and the calling's suggestions are always accepted.
        #[test]
        fn deal_and_call_suggestions_are_legal(seed in any::<u64>(), k in 0u16..384) {
            let r = rules(k);
            let mut rng = Rng::new(seed);
            let mut deck: Vec<u8> = (0..52).collect();
            rng.shuffle(&mut deck);
            let hands: Vec<Vec<Card>> = (0..4).map(|p| deck[p * 13..p * 13 + 13].iter().map(|&id| Card(id)).collect()).collect();
            let mut d = Deal::new(hands, rng.below(4), r).unwrap();
            while !d.finished {
                let mut acted = false;
                for s in 0..4 {
                    if let Some(a) = suggest_deal(&DealView::new(&d, s).unwrap(), 0, 0).unwrap().action {
                        d = d.apply(&a).unwrap();
                        acted = true;
                        break;
                    }
                }
                if !acted {
                    d = d.apply(&if d.dealt < 13 { DealAction::Deal } else { DealAction::Finish }).unwrap();
                }
            }
            let mut c = d.calling(None, None).unwrap();
            while !c.is_over() {
                let t = c.turn().unwrap();
                let s = suggest_call(&CallView::of_deal(&d, &c, t).unwrap(), 0, 0).unwrap();
                c = c.apply(t, s.call).unwrap();
            }
        }
    }
}
