//! Settlement (RULES 2.6): cards left, 2s by colour, special groups, the no-card double,
//! chop transfers, instant wins; then the cap (RULES §4) and the 抽水 rake.

use super::instant::instant_winner;
use super::play::{rank, sorted, strength, text, Kind, ACE, TWO};
use super::round::Transfer;
use super::rules::{check_players, check_seat, Rules, HAND_SIZE};
use crate::cards::{check_distinct_across, Card};
use crate::error::{Error, Reason, Result};
use crate::money;

/// Multiplier of a red 2 (♥♦) left in hand.
pub(crate) const RED_TWO: i64 = 5;
/// Multiplier of a black 2 (♠♣) left in hand.
pub(crate) const BLACK_TWO: i64 = 2;
/// A loser who played no card pays 2 × 13 (and every instant-win loser pays 13 × 2).
pub(crate) const NO_CARD: i64 = 26;

/// A special group found in a hand: 炸弹, 3连对 or 4连对 with its cards.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Group {
    pub kind: Kind,
    pub cards: Vec<Card>,
}

/// Group types by their lowest rank: (kind, ranks it spans, cards per rank).
const SHAPES: [(Kind, usize, u8); 3] = [(Kind::FourPairRun, 4, 2), (Kind::Bomb, 1, 4), (Kind::ThreePairRun, 3, 2)];

/// The best total multiplier of disjoint groups in `counts` (ranks 3..A; 2s never form
/// groups) using only groups whose lowest rank is ≥ `from`, and those groups.
fn best(counts: &mut [u8; 12], from: usize) -> (i64, Vec<(Kind, usize)>) {
    let Some(r) = (from..12).find(|&r| counts[r] >= 2) else { return (0, Vec::new()) };
    // Either no further group starts at rank r…
    let mut top = best(counts, r + 1);
    // …or one more does (and maybe others after it, hence `from = r` again).
    for (kind, span, per) in SHAPES {
        if r + span <= ACE as usize + 1 && (r..r + span).all(|x| counts[x] >= per) {
            (r..r + span).for_each(|x| counts[x] -= per);
            let (v, mut g) = best(counts, r);
            (r..r + span).for_each(|x| counts[x] += per);
            if v + kind.multiplier() > top.0 {
                g.insert(0, (kind, r));
                top = (v + kind.multiplier(), g);
            }
        }
    }
    top
}

/// The disjoint 炸弹 / 3连对 / 4连对 groups with the largest total multiplier (RULES 2.6),
/// and that total. 2s are never part of a group (they are paid one by one by colour).
pub fn special_groups(cards: &[Card]) -> (Vec<Group>, i64) {
    let mut by_rank: Vec<Vec<Card>> = vec![Vec::new(); 13];
    for c in sorted(cards) {
        by_rank[rank(c) as usize].push(c);
    }
    let mut counts = [0u8; 12];
    for r in 0..12 {
        counts[r] = by_rank[r].len() as u8;
    }
    let (total, shapes) = best(&mut counts, 0);
    // Give each group concrete cards: the highest suits of each rank first.
    let mut groups: Vec<Group> = shapes
        .into_iter()
        .map(|(kind, lo)| {
            let (span, per) = match kind {
                Kind::Bomb => (1, 4),
                Kind::ThreePairRun => (3, 2),
                _ => (4, 2),
            };
            let mut cards: Vec<Card> = Vec::new();
            for rank_cards in &mut by_rank[lo..lo + span] {
                for _ in 0..per {
                    cards.push(rank_cards.pop().expect("counted"));
                }
            }
            cards.sort_by_key(|&c| strength(c));
            Group { kind, cards }
        })
        .collect();
    groups.sort_by_key(|g| strength(g.cards[0]));
    (groups, total)
}

/// What a line of the breakdown is for: the one list of line kinds (the Python
/// `tienlen.LineKind` is generated from it, the proto's `TienlenLineKind` checked against
/// it); [`LineKind::doc`] says what each is.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum LineKind {
    Cards,
    NoCard,
    InstantWin,
    RedTwo,
    BlackTwo,
    Bomb,
    ThreePairRun,
    FourPairRun,
    Win,
    Chop,
    Cap,
    Rake,
}

impl LineKind {
    pub const ALL: [LineKind; 12] = [
        LineKind::Cards,
        LineKind::NoCard,
        LineKind::InstantWin,
        LineKind::RedTwo,
        LineKind::BlackTwo,
        LineKind::Bomb,
        LineKind::ThreePairRun,
        LineKind::FourPairRun,
        LineKind::Win,
        LineKind::Chop,
        LineKind::Cap,
        LineKind::Rake,
    ];
    /// What a line of this kind is for, in one sentence.
    pub fn doc(self) -> &'static str {
        match self {
            LineKind::Cards => "base × cards left.",
            LineKind::NoCard => "base × 26: a loser who played no card.",
            LineKind::InstantWin => "base × 26: a loser against an instant win.",
            LineKind::RedTwo => "base × 5 per red 2 left.",
            LineKind::BlackTwo => "base × 2 per black 2 left.",
            LineKind::Bomb => "base × the multiplier of a bomb left in hand.",
            LineKind::ThreePairRun => "base × the multiplier of a 3连对 left in hand.",
            LineKind::FourPairRun => "base × the multiplier of a 4连对 left in hand.",
            LineKind::Win => "The winner receives one loser's payment.",
            LineKind::Chop => "A 压牌 chop transfer (one line per side).",
            LineKind::Cap => "The change the cap (RULES 4) made to a seat's total.",
            LineKind::Rake => "抽水 taken from a seat's positive amount.",
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            LineKind::Cards => "cards",
            LineKind::NoCard => "no_card",
            LineKind::InstantWin => "instant_win",
            LineKind::RedTwo => "red_two",
            LineKind::BlackTwo => "black_two",
            LineKind::Bomb => "bomb",
            LineKind::ThreePairRun => "three_pair_run",
            LineKind::FourPairRun => "four_pair_run",
            LineKind::Win => "win",
            LineKind::Chop => "chop",
            LineKind::Cap => "cap",
            LineKind::Rake => "rake",
        }
    }
}

/// One amount of the breakdown. For every seat, the amounts of its lines add up to its
/// final delta.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    pub kind: LineKind,
    pub seat: usize,
    /// The seat on the other side of a payment, if any.
    pub other: Option<usize>,
    /// The multiplier of `base` (0 for cap and rake lines).
    pub multiplier: i64,
    /// Signed change to `seat`.
    pub amount: i64,
    pub cards: Vec<Card>,
    pub text: String,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settlement {
    pub winner: usize,
    /// What each loser pays the winner before chops (0 for the winner).
    pub pays: Vec<i64>,
    /// Σ chop transfers per seat (signed).
    pub chops: Vec<i64>,
    /// Before the cap.
    pub theoretical: Vec<i64>,
    /// After the cap, before the rake.
    pub capped: Vec<i64>,
    /// Final amounts: Σ deltas + rake = 0.
    pub deltas: Vec<i64>,
    pub rake: i64,
    pub lines: Vec<Line>,
    /// The instant win of each seat (settle_instant only).
    pub instant: Vec<Option<super::instant::InstantWin>>,
}

/// The lines of what a loser's cards add (2s by colour, special groups).
fn extras(seat: usize, winner: usize, cards: &[Card], base: i64) -> Result<Vec<Line>> {
    let mut lines = Vec::new();
    let mut line = |kind: LineKind, mult: i64, cards: Vec<Card>, what: String| -> Result<()> {
        let amount = money::mul(base, mult, "payment")?;
        lines.push(Line {
            kind,
            seat,
            other: Some(winner),
            multiplier: mult,
            amount: -amount,
            text: format!("seat {seat} pays {base} × {mult} = {amount} to seat {winner} for {what}"),
            cards,
        });
        Ok(())
    };
    for c in sorted(cards).into_iter().filter(|&c| rank(c) == TWO) {
        if c.is_red() {
            line(LineKind::RedTwo, RED_TWO, vec![c], format!("the red 2 {c}"))?;
        } else {
            line(LineKind::BlackTwo, BLACK_TWO, vec![c], format!("the black 2 {c}"))?;
        }
    }
    for g in special_groups(cards).0 {
        let kind = match g.kind {
            Kind::Bomb => LineKind::Bomb,
            Kind::ThreePairRun => LineKind::ThreePairRun,
            _ => LineKind::FourPairRun,
        };
        line(kind, g.kind.multiplier(), g.cards.clone(), format!("the {} {}", g.kind.name_zh(), text(&g.cards)))?;
    }
    Ok(lines)
}

/// Add the winner's receipts, chops, cap and rake to per-loser lines; build the result.
fn finish(
    winner: usize,
    mut lines: Vec<Line>,
    chops: &[Transfer],
    carried: Option<&[Option<i64>]>,
    rules: &Rules,
    players: usize,
    instant: Vec<Option<super::instant::InstantWin>>,
) -> Result<Settlement> {
    let mut pays = vec![0i64; players];
    for l in &lines {
        pays[l.seat] = money::add(pays[l.seat], -l.amount, "payment")?;
    }
    let total = money::sum(&pays, "the winner's receipts")?;
    for (i, &p) in pays.iter().enumerate() {
        if i != winner {
            lines.push(Line {
                kind: LineKind::Win,
                seat: winner,
                other: Some(i),
                multiplier: 0,
                amount: p,
                cards: vec![],
                text: format!("seat {winner} receives {p} from seat {i}"),
            });
        }
    }
    let mut theoretical = vec![0i64; players];
    for (i, &p) in pays.iter().enumerate() {
        theoretical[i] = -p;
    }
    theoretical[winner] = total;
    let mut chop = vec![0i64; players];
    for (k, t) in chops.iter().enumerate() {
        let f = format!("chops[{k}]");
        check_seat(t.from, players, &format!("{f}.from"))?;
        check_seat(t.to, players, &format!("{f}.to"))?;
        if t.from == t.to {
            return Err(Error::field(f, format!("seat {} cannot pay itself", t.from)));
        }
        if t.amount < 0 {
            return Err(Error::field(format!("{f}.amount"), format!("must not be negative (got {})", t.amount)).because(Reason::OutOfRange));
        }
        chop[t.from] = money::add(chop[t.from], -t.amount, "chop payments")?;
        chop[t.to] = money::add(chop[t.to], t.amount, "chop payments")?;
        lines.push(Line {
            kind: LineKind::Chop,
            seat: t.from,
            other: Some(t.to),
            multiplier: 0,
            amount: -t.amount,
            cards: vec![],
            text: format!("seat {} pays {} to seat {} for a chop (压牌)", t.from, t.amount, t.to),
        });
        lines.push(Line {
            kind: LineKind::Chop,
            seat: t.to,
            other: Some(t.from),
            multiplier: 0,
            amount: t.amount,
            cards: vec![],
            text: format!("seat {} receives {} from seat {} for a chop (压牌)", t.to, t.amount, t.from),
        });
    }
    for i in 0..players {
        theoretical[i] = money::add(theoretical[i], chop[i], "game total")?;
    }
    let capped = match carried {
        Some(c) => money::cap(&theoretical, c)?,
        None => theoretical.clone(),
    };
    for i in 0..players {
        if capped[i] != theoretical[i] {
            let d = capped[i] - theoretical[i];
            lines.push(Line {
                kind: LineKind::Cap,
                seat: i,
                other: None,
                multiplier: 0,
                amount: d,
                cards: vec![],
                text: format!("seat {i}: the cap (防以小博大) changes {} to {}", theoretical[i], capped[i]),
            });
        }
    }
    // 抽水 from the winner's positive final amount only (the seed: 赢家所赢金额的5%); a
    // loser who ends positive through chop transfers keeps it all.
    let (deltas, rake) = money::rake_only(&capped, rules.rake_percent, |i| i == winner)?;
    for i in 0..players {
        if deltas[i] != capped[i] {
            let r = capped[i] - deltas[i];
            lines.push(Line {
                kind: LineKind::Rake,
                seat: i,
                other: None,
                multiplier: 0,
                amount: -r,
                cards: vec![],
                text: format!("seat {i}: rake (抽水) {}% of {} = {r}", rules.rake_percent, capped[i]),
            });
        }
    }
    Ok(Settlement { winner, pays, chops: chop, theoretical, capped, deltas, rake, lines, instant })
}

/// One entry of a game's chops: a transfer already worked out, or a whole round.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Chop {
    Transfer(Transfer),
    Round(Vec<(usize, super::round::Action)>),
}

/// Turn a game's chops into transfers (each round through [`super::chop_transfers`]),
/// checking rounds against the hands: a card played in a round cannot still be in a
/// hand, and a seat that played in a round cannot hold all 13 cards. Errors name
/// `chops[k]`. Rounds are replayed under `rules` (its turn order).
pub fn chop_list(remaining: &[Vec<Card>], chops: &[Chop], base: i64, rules: &Rules) -> Result<Vec<Transfer>> {
    let players = remaining.len();
    check_players(players).map_err(|e| e.within("remaining"))?;
    // Bounds first (RULES: 52 cards): at most 52 rounds, each holding a play, and at most
    // MAX_ACTIONS actions in all, before any round is replayed.
    crate::cards::check_record_len(chops.len(), "chops")?;
    let total: usize = chops.iter().map(|c| if let Chop::Round(a) = c { a.len() } else { 0 }).sum();
    crate::cards::check_record_len(total, "chops")?;
    // The base is the deal's, not a round's: checked once, named as itself.
    money::check_base(base)?;
    let mut out = Vec::new();
    // Cards played in the rounds so far, and where: a card is played once per game.
    let mut played: Vec<Option<usize>> = vec![None; 52];
    for (k, c) in chops.iter().enumerate() {
        let f = format!("chops[{k}]");
        match c {
            Chop::Transfer(t) => out.push(*t),
            Chop::Round(actions) => {
                for (i, (_, a)) in actions.iter().enumerate() {
                    let super::round::Action::Play(cards) = a else { continue };
                    for c in cards {
                        if let Some(&Some(prev)) = played.get(c.0 as usize) {
                            if prev != k {
                                return Err(Error::field(
                                    format!("{f}[{i}].cards"),
                                    format!("card {c} was already played in chops[{prev}]: a round is settled once and a card played once per game"),
                                )
                                .because(crate::error::Reason::Inconsistent)
                                .at_action(i));
                            }
                        }
                        if let Some(slot) = played.get_mut(c.0 as usize) {
                            *slot = Some(k);
                        }
                    }
                }
                // A round's action `round[i]` is `chops[k][i]` of the list.
                let in_list = |mut e: Error| {
                    e.field = e.field.map(|p| p.strip_prefix("round").map_or(p.clone(), str::to_string));
                    e.within(&f)
                };
                out.extend(super::round::chop_transfers(players, None, actions, base, rules).map_err(in_list)?);
                for (seat, a) in actions {
                    let super::round::Action::Play(cards) = a else { continue };
                    for (i, h) in remaining.iter().enumerate() {
                        if let Some(c) = cards.iter().find(|c| h.contains(c)) {
                            return Err(Error::field(f, format!("card {c} was played by seat {seat} but is still in remaining[{i}]"))
                                .because(crate::error::Reason::Inconsistent));
                        }
                    }
                    if remaining[*seat].len() == HAND_SIZE {
                        return Err(Error::field(
                            f,
                            format!("seat {seat} played {} but holds {HAND_SIZE} cards, as if it had played none", text(cards)),
                        )
                        .because(crate::error::Reason::Inconsistent));
                    }
                }
            }
        }
    }
    Ok(out)
}

/// Settle a finished game (RULES 2.6): `remaining[i]` are seat i's cards left (the
/// winner's is empty); `played_any[i]` whether seat i played a card (default: it holds
/// fewer than 13); `chops` the chop transfers of the game; `carried` the carried-in
/// amounts for the cap.
pub fn settle(
    remaining: &[Vec<Card>],
    winner: usize,
    base: i64,
    played_any: Option<&[bool]>,
    chops: &[Transfer],
    carried: Option<&[Option<i64>]>,
    rules: &Rules,
) -> Result<Settlement> {
    rules.validate().map_err(|e| e.within("rules"))?;
    let players = remaining.len();
    check_players(players).map_err(|e| e.within("remaining"))?;
    check_seat(winner, players, "winner")?;
    money::check_base(base)?;
    let groups: Vec<(String, &[Card])> = remaining.iter().enumerate().map(|(i, h)| (format!("remaining[{i}]"), h.as_slice())).collect();
    for (i, (name, h)) in groups.iter().enumerate() {
        super::rules::check_hand_at_most(h.len(), name)?;
        if i == winner && !h.is_empty() {
            return Err(
                Error::field(name.clone(), format!("the winner (seat {winner}) has cards left: {}", text(h))).because(Reason::Inconsistent)
            );
        }
        if i != winner && h.is_empty() {
            return Err(Error::field(name.clone(), format!("seat {i} has no cards left but is not the winner (seat {winner})"))
                .because(Reason::Inconsistent));
        }
    }
    check_distinct_across(&groups)?;
    if let Some(pa) = played_any {
        if pa.len() != players {
            return Err(Error::field("played_any", format!("has {} entries for {players} players", pa.len())).because(Reason::WrongCount));
        }
        for (i, (&p, h)) in pa.iter().zip(remaining).enumerate() {
            if !p && h.len() != HAND_SIZE {
                return Err(Error::field(
                    format!("played_any[{i}]"),
                    format!("seat {i} played no card, so it must hold {HAND_SIZE} cards (it holds {})", h.len()),
                )
                .because(Reason::Inconsistent));
            }
            if p && h.len() == HAND_SIZE {
                return Err(Error::field(format!("played_any[{i}]"), format!("seat {i} holds all {HAND_SIZE} cards, so it played none"))
                    .because(Reason::Inconsistent));
            }
        }
    }
    let mut lines = Vec::new();
    for (i, h) in remaining.iter().enumerate() {
        if i == winner {
            continue;
        }
        let n = h.len() as i64;
        let no_card = h.len() == HAND_SIZE;
        let (kind, mult, what) = if no_card {
            (LineKind::NoCard, NO_CARD, "playing no card (2 × 13)".to_string())
        } else {
            (LineKind::Cards, n, format!("{n} card{} left", if n == 1 { "" } else { "s" }))
        };
        let amount = money::mul(base, mult, "payment")?;
        lines.push(Line {
            kind,
            seat: i,
            other: Some(winner),
            multiplier: mult,
            amount: -amount,
            cards: sorted(h),
            text: format!("seat {i} pays {base} × {mult} = {amount} to seat {winner} for {what}"),
        });
        if !no_card || rules.unplayed_loser_adds_multipliers {
            lines.extend(extras(i, winner, h, base)?);
        }
    }
    finish(winner, lines, chops, carried, rules, players, vec![None; players])
}

/// Settle an instant win (RULES 2.5/2.6) from the 13 dealt cards of every seat: each
/// loser pays base × 26, plus its specials and 2s unless it also held an instant win.
pub fn settle_instant(hands: &[Vec<Card>], base: i64, carried: Option<&[Option<i64>]>, rules: &Rules) -> Result<Settlement> {
    rules.validate().map_err(|e| e.within("rules"))?;
    money::check_base(base)?;
    let (wins, winner) = instant_winner(hands)?;
    let Some(winner) = winner else {
        return Err(Error::field("hands", "no hand holds an instant win (RULES 2.5)").because(Reason::Inconsistent));
    };
    let mut lines = Vec::new();
    for (i, h) in hands.iter().enumerate() {
        if i == winner {
            continue;
        }
        let amount = money::mul(base, NO_CARD, "payment")?;
        let w = wins[winner].as_ref().expect("winner").kind;
        lines.push(Line {
            kind: LineKind::InstantWin,
            seat: i,
            other: Some(winner),
            multiplier: NO_CARD,
            amount: -amount,
            cards: sorted(h),
            text: format!("seat {i} pays {base} × 26 = {amount} to seat {winner} for its instant win {} ({})", w.name_zh(), w.name()),
        });
        if wins[i].is_none() {
            lines.extend(extras(i, winner, h, base)?);
        }
    }
    let kinds = wins.iter().map(|w| w.as_ref().map(|h| h.kind)).collect();
    finish(winner, lines, &[], carried, rules, hands.len(), kinds)
}

#[cfg(test)]
#[allow(clippy::needless_range_loop)]
mod tests {
    use super::*;
    use crate::cards::cards;
    use proptest::prelude::*;

    fn pay(s: &str, base: i64, played_any: bool) -> i64 {
        let mut remaining = vec![vec![], cards(s)];
        // Pad to 2 seats; the winner is seat 0.
        remaining.truncate(2);
        let st = settle(&remaining, 0, base, Some(&[true, played_any]), &[], None, &Rules { rake_percent: 0, ..Rules::default() }).unwrap();
        st.pays[1]
    }

    #[test]
    fn seed_remaining_examples() {
        assert_eq!(pay("2h 7s 7h 7d 7c", 10, true), 130);
        assert_eq!(pay("3s 3h 3d 3c 4s 4h 5s 5h 6s 6h", 1, true), 15);
        assert_eq!(pay("3s 3h 4s 4h 4d 4c 5s 5h 6s 6h", 1, true), 14);
        assert_eq!(pay("3s 4h 5d 6c 8s 9h Td Jc Qs Kh Ad 7s 9c", 1, false), 26);
        // [decision] no card played and specials: 26 + Σ; the option turns it off.
        assert_eq!(pay("3s 4h 5d 6c 8s 9h Td Jc Qs Kh Ad 2s 2h", 1, false), 26 + 2 + 5);
        let r = vec![vec![], cards("3s 4h 5d 6c 8s 9h Td Jc Qs Kh Ad 2s 2h")];
        let off = Rules { unplayed_loser_adds_multipliers: false, rake_percent: 0, ..Rules::default() };
        assert_eq!(settle(&r, 0, 1, None, &[], None, &off).unwrap().pays[1], 26);
    }

    #[test]
    fn seed_instant_example() {
        let hands = vec![
            cards("3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks As 2s"),
            cards("2c 2d 3h 3c 5d 5c 7h 7c Qh Qd Ah Ad 8h"),
            cards("4h 4d 6h 6d 8d 8c 9c Tc Jc Qc Kd Kc Ac"),
            cards("2h 9h 9d Th Td Jh Jd 3d 4c 5h 6c 7d Kh"),
        ];
        let st = settle_instant(&hands, 10, None, &Rules { rake_percent: 0, ..Rules::default() }).unwrap();
        assert_eq!(st.deltas, vec![850, -260, -260, -330]);
        let st = settle_instant(&hands, 10, None, &Rules::default()).unwrap();
        assert_eq!(st.deltas, vec![850 - 42, -260, -260, -330]);
        assert_eq!(st.rake, 42);
    }

    #[test]
    fn cap_seed_and_chops() {
        // Seat 0 wins; chops move money too; the cap and rake come last.
        let remaining = vec![vec![], cards("3s 5s 7s"), cards("4s 6s 8s 9s"), cards("Ts Js Qs")];
        let chops = [Transfer { from: 1, to: 2, amount: 40 }];
        let st = settle(&remaining, 0, 10, None, &chops, Some(&[Some(80), Some(70), Some(100), Some(20)]), &Rules::default()).unwrap();
        assert_eq!(st.theoretical, vec![100, -70, 0, -30]);
        assert_eq!(st.deltas.iter().sum::<i64>() + st.rake, 0);
        for seat in 0..4 {
            let s: i64 = st.lines.iter().filter(|l| l.seat == seat).map(|l| l.amount).sum();
            assert_eq!(s, st.deltas[seat], "seat {seat}");
        }
    }

    /// RULES 2.6: the 5% rake comes from the winner's positive final amount only (the
    /// seed: 赢家所赢金额的5%). Seat 2 ends +180 through a chop and keeps all of it.
    #[test]
    fn rake_only_from_the_winner() {
        let remaining = vec![vec![], cards("3s 4s"), cards("5s"), cards("6s")];
        let chops = [Transfer { from: 3, to: 2, amount: 190 }];
        let st = settle(&remaining, 0, 10, None, &chops, None, &Rules::default()).unwrap();
        assert_eq!(st.capped, vec![40, -20, 180, -200]);
        assert_eq!(st.rake, 2);
        assert_eq!(st.deltas, vec![38, -20, 180, -200]);
        assert_eq!(st.lines.iter().filter(|l| l.kind == LineKind::Rake).map(|l| (l.seat, l.amount)).collect::<Vec<_>>(), vec![(0, -2)]);
        // A winner left negative by chops is not raked either; nobody else is.
        let chops = [Transfer { from: 0, to: 2, amount: 190 }];
        let st = settle(&remaining, 0, 10, None, &chops, None, &Rules::default()).unwrap();
        assert_eq!((st.deltas.clone(), st.rake), (vec![-150, -20, 180, -10], 0));
    }

    #[test]
    fn base_is_at_least_one() {
        let r = Rules::default();
        let two = vec![vec![], cards("3s")];
        for base in [0, -1] {
            assert_eq!(settle(&two, 0, base, None, &[], None, &r).unwrap_err().field.as_deref(), Some("base"));
        }
        let hands = vec![cards("3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks Ah 2d"), cards("3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc Ac 2c")];
        assert_eq!(settle_instant(&hands, 0, None, &r).unwrap_err().field.as_deref(), Some("base"));
    }

    #[test]
    fn bad_input() {
        let r = Rules::default();
        let e = |rem: Vec<Vec<Card>>, w: usize| settle(&rem, w, 1, None, &[], None, &r).unwrap_err().message;
        assert!(e(vec![vec![], cards("3s")], 2).contains("seat 2 is not in the game"));
        assert!(e(vec![cards("4s"), cards("3s")], 0).contains("winner (seat 0) has cards left"));
        assert!(e(vec![vec![], vec![]], 0).contains("no cards left"));
        assert!(e(vec![vec![], cards("3s"), cards("3s")], 0).contains("3s"));
        assert!(e(vec![vec![]], 0).contains("2 to 4 players"));
        let many = cards("3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks As 2s 2h");
        assert!(e(vec![vec![], many], 0).contains("at most 13"));
        let two = vec![vec![], cards("3s")];
        assert!(settle(&two, 0, -1, None, &[], None, &r).unwrap_err().to_string().contains("base"));
        assert!(settle(&two, 0, 1, Some(&[true, false]), &[], None, &r).unwrap_err().message.contains("played no card"));
        assert!(settle(&two, 0, 1, None, &[Transfer { from: 0, to: 3, amount: 1 }], None, &r)
            .unwrap_err()
            .to_string()
            .contains("chops[0].to"));
        assert!(settle(&two, 0, i64::MAX, None, &[], None, &r).is_ok());
        assert!(settle(&[vec![], cards("3s 4s")], 0, i64::MAX, None, &[], None, &r).unwrap_err().message.contains("overflows"));
        let hands = vec![cards("3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks Ah 2d"), cards("3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc Ac 2c")];
        assert!(settle_instant(&hands, 1, None, &r).is_ok());
        let none = vec![cards("3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks 2h 2d"), cards("3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc Ac 2c")];
        assert!(settle_instant(&none, 1, None, &r).is_ok());
        let none = vec![cards("3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks 2h 2d"), cards("3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc 2c 3h")];
        assert!(settle_instant(&none, 1, None, &r).unwrap_err().message.contains("no hand holds an instant win"));
    }

    /// Brute force: every multiset of (group type, lowest rank) that fits in the counts.
    fn brute(counts: [u8; 12]) -> i64 {
        let mut shapes = Vec::new();
        for (kind, span, per) in SHAPES {
            for lo in 0..=12 - span {
                shapes.push((kind.multiplier(), lo, span, per));
            }
        }
        fn rec(i: usize, counts: &mut [u8; 12], shapes: &[(i64, usize, usize, u8)]) -> i64 {
            if i == shapes.len() {
                return 0;
            }
            let (m, lo, span, per) = shapes[i];
            let mut best = rec(i + 1, counts, shapes);
            let mut k = 0;
            while (lo..lo + span).all(|x| counts[x] >= per) {
                (lo..lo + span).for_each(|x| counts[x] -= per);
                k += 1;
                best = best.max(k * m + rec(i + 1, counts, shapes));
            }
            (lo..lo + span).for_each(|x| counts[x] += per * k as u8);
            best
        }
        rec(0, &mut counts.clone(), &shapes)
    }

    fn pair_heavy() -> impl Strategy<Value = Vec<Card>> {
        // Cards drawn from few ranks so that groups are common.
        (2usize..8, proptest::collection::vec(any::<proptest::sample::Index>(), 13)).prop_map(|(nranks, idx)| {
            let pool: Vec<Card> = (0..52u8).map(Card).filter(|c| (rank(*c) as usize) < nranks + 2 || rank(*c) == TWO).collect();
            let mut out: Vec<Card> = Vec::new();
            for i in idx {
                let c = pool[i.index(pool.len())];
                if !out.contains(&c) {
                    out.push(c);
                }
            }
            out
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(1000))]

        #[test]
        fn groups_are_the_brute_force_maximum(hand in prop_oneof![pair_heavy(), proptest::sample::subsequence((0..52u8).map(Card).collect::<Vec<_>>(), 0..=13)]) {
            let (groups, total) = special_groups(&hand);
            let mut counts = [0u8; 12];
            for c in &hand { if rank(*c) < 12 { counts[rank(*c) as usize] += 1; } }
            prop_assert_eq!(total, brute(counts));
            // The groups are real plays of that kind, disjoint, drawn from the hand.
            let mut seen = 0u64;
            for g in &groups {
                prop_assert_eq!(super::super::classify(&g.cards).unwrap().kind(), g.kind);
                for c in &g.cards { prop_assert!(hand.contains(c)); prop_assert!(seen & c.bit() == 0); seen |= c.bit(); }
            }
            prop_assert_eq!(groups.iter().map(|g| g.kind.multiplier()).sum::<i64>(), total);
        }

        #[test]
        fn settlement_is_zero_sum_capped_and_itemised(
            deck in Just((0..52u8).map(Card).collect::<Vec<_>>()).prop_shuffle(),
            players in 2usize..=4,
            winner in 0usize..4,
            left in proptest::collection::vec(1usize..=13, 4),
            base in 1i64..1000,
            rake in 0u32..=10,
            carried in proptest::collection::vec(proptest::option::of(0i64..20_000), 4),
            chop in proptest::option::of((0usize..4, 0usize..4, 0i64..500)),
        ) {
            let winner = winner % players;
            let mut at = 0;
            let remaining: Vec<Vec<Card>> = (0..players).map(|i| {
                let n = if i == winner { 0 } else { left[i] };
                let h = deck[at..at + n].to_vec();
                at += n;
                h
            }).collect();
            let chops: Vec<Transfer> = chop.into_iter().filter(|(f, t, _)| f % players != t % players).map(|(f, t, a)| Transfer { from: f % players, to: t % players, amount: a }).collect();
            let rules = Rules { rake_percent: rake, ..Rules::default() };
            let st = settle(&remaining, winner, base, None, &chops, Some(&carried[..players]), &rules).unwrap();
            prop_assert_eq!(st.deltas.iter().sum::<i64>() + st.rake, 0);
            prop_assert_eq!(st.theoretical.iter().sum::<i64>(), 0);
            prop_assert_eq!(st.rake, st.capped[winner].max(0) * rake as i64 / 100);
            for i in 0..players {
                if let Some(c) = carried[i] { prop_assert!(st.capped[i].abs() <= c); }
                let s: i64 = st.lines.iter().filter(|l| l.seat == i).map(|l| l.amount).sum();
                prop_assert_eq!(s, st.deltas[i]);
                // Only the winner is raked.
                if i != winner { prop_assert_eq!(st.deltas[i], st.capped[i]); }
            }
            // A loser pays at least base × cards left.
            for i in 0..players {
                if i != winner { prop_assert!(st.pays[i] >= base * remaining[i].len() as i64); }
            }
        }
    }
}
