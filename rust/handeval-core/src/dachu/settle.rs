//! Settlement of a 打儲 game (RULES 3.7): the outcome by finishing places, 全殲, 繳,
//! 被包打, escapes, then the cap (RULES §4). Exactly zero-sum.

use super::calling::check_multiplier;
use super::rules::{Rules, UnitPer};
use crate::bail;
use crate::error::{Error, Reason, Result};
use crate::money;

/// The result of a game, as settlement needs it: who was on which side, the places,
/// surrenders and escapes, the multiplier and the stake.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameResult {
    /// The 儲方 seats (1 or 2); everyone else is the 非儲方.
    pub chu_side: Vec<usize>,
    /// The multiplier after the deal and the calling (a power of two), before 全殲.
    pub multiplier: i64,
    /// 底分, the base stake (> 0).
    pub base: i64,
    /// Finishing order (first out first) of the seats that played; `None` when a whole
    /// side surrendered or someone escaped (the game is then not scored by places).
    pub places: Option<Vec<usize>>,
    /// Seats that surrendered (繳), personally or with their whole side.
    pub surrendered: Vec<usize>,
    /// Seats that sat out 被包打 (they pay or win with their side).
    pub bei_bao_da: Vec<usize>,
    /// Seats that escaped (逃跑): the game is abandoned and each pays the escape penalty.
    pub escaped: Vec<usize>,
    /// Carried-in amounts for the cap (`None` entries are uncapped).
    pub carried: Option<Vec<Option<i64>>>,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    Win,
    Draw,
    Loss,
}

impl Verdict {
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Win => "win",
            Verdict::Draw => "draw",
            Verdict::Loss => "loss",
        }
    }
}

/// What a line of the breakdown is for: the one list of line kinds (the Python
/// `dachu.LineKind` is generated from it, the proto's `DachuLineKind` checked against it).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum LineKind {
    Jiao,
    Result,
    Escape,
    Cap,
}

impl LineKind {
    pub const ALL: [LineKind; 4] = [LineKind::Jiao, LineKind::Result, LineKind::Escape, LineKind::Cap];
    pub fn name(self) -> &'static str {
        match self {
            LineKind::Jiao => "jiao",
            LineKind::Result => "result",
            LineKind::Escape => "escape",
            LineKind::Cap => "cap",
        }
    }
    /// What a line of this kind is for, in one sentence.
    pub fn doc(self) -> &'static str {
        match self {
            LineKind::Jiao => "繳: a surrendering seat pays the other side.",
            LineKind::Result => "The game's result (win or loss of the 儲方).",
            LineKind::Escape => "逃跑: a seat ran away.",
            LineKind::Cap => "The change the cap (RULES 4) made to a seat's total.",
        }
    }
}

/// One line of the breakdown: `amount` (signed) for `seat` because of `kind`, which `text` explains.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// A [`LineKind`]'s name.
    pub kind: &'static str,
    pub seat: usize,
    pub amount: i64,
    pub text: String,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settlement {
    /// The 儲方's result when places were scored.
    pub verdict: Option<Verdict>,
    /// 全殲 (wipe-out), which doubled the multiplier of the result.
    pub wipe_out: bool,
    /// The multiplier of the result (×2 with 全殲).
    pub result_multiplier: i64,
    /// Itemised breakdown; each item's lines add up to 0, all lines of a seat to its delta.
    pub lines: Vec<Line>,
    /// Sum of the lines before the cap.
    pub theoretical: Vec<i64>,
    /// Money per seat after the cap.
    pub deltas: Vec<i64>,
}

fn seats(list: &[usize], field: &str) -> Result<u8> {
    let mut mask = 0u8;
    for (i, &s) in list.iter().enumerate() {
        if s >= 4 {
            bail!(reason = OutOfRange, field = format!("{field}[{i}]"), "unknown seat {s} (打儲 seats are 0..3)");
        }
        if mask & (1 << s) != 0 {
            bail!(reason = Inconsistent, field = format!("{field}[{i}]"), "seat {s} is listed twice");
        }
        mask |= 1 << s;
    }
    Ok(mask)
}

fn members(mask: u8) -> Vec<usize> {
    (0..4).filter(|s| mask & (1 << s) != 0).collect()
}

/// A line before the per-seat check: amounts in 128 bits (RULES §0: a side's total may
/// exceed an i64 while each seat's result fits).
struct Wide {
    kind: LineKind,
    seat: usize,
    amount: i128,
    text: String,
}

/// `total` (> 0) paid by `payers` and received by `payees`, each side's shares equal up to
/// the rounding of RULES §0. `formula` says how `total` came about; every line's note
/// ends with `= ` and the amount that line carries.
fn transfer(
    lines: &mut Vec<Wide>,
    kind: LineKind,
    payers: &[usize],
    payees: &[usize],
    total: i128,
    head: &str,
    formula: &str,
) -> Result<()> {
    if total == 0 || payers.is_empty() {
        return Ok(());
    }
    if payees.is_empty() {
        return Err(Error::new(format!("{}: nobody to receive {total}", kind.name())).because(Reason::Inconsistent));
    }
    for (group, sign) in [(payers, -1i128), (payees, 1)] {
        let n = group.len() as i128;
        let shares = money::share_wide(sign * total, &vec![1; group.len()])?;
        for (&seat, amount) in group.iter().zip(shares) {
            let text = if n == 1 {
                format!("{head}: {formula} = {total}")
            } else if total % n == 0 {
                format!("{head}: {formula} = {total}, shared by {n}: {total} / {n} = {}", amount.abs())
            } else {
                format!("{head}: {formula} = {total}, shared by {n} (largest remainder, RULES §0) = {}", amount.abs())
            };
            lines.push(Wide { kind, seat, amount, text });
        }
    }
    Ok(())
}

/// `k × rest`, or `rest` alone when k is 1 (for notes).
fn times(k: usize, rest: &str) -> String {
    if k == 1 {
        rest.to_string()
    } else {
        format!("{k} × {rest}")
    }
}

fn seat_list(seats: &[usize]) -> String {
    seats.iter().map(|s| s.to_string()).collect::<Vec<_>>().join(", ")
}

/// The outcome for the 儲方 from the places of the playing seats (RULES 3.7), with 全殲.
/// `chu_places` / `other_places` are 1-based places among `n` players.
pub(crate) fn outcome(chu_places: &[usize], other_places: &[usize], n: usize) -> (Verdict, bool) {
    let mut a = chu_places.to_vec();
    a.sort_unstable();
    if a.len() == 2 && other_places.len() == 2 {
        return match (a[0], a[1]) {
            (1, 2) => (Verdict::Win, true),
            (1, 3) => (Verdict::Win, false),
            (1, 4) | (2, 3) => (Verdict::Draw, false),
            (2, 4) => (Verdict::Loss, false), // the other side has 1 + 3
            _ => (Verdict::Loss, true),       // 3 + 4
        };
    }
    // One side plays with one player (1 vs 3, or after 包踹/繳): first → win and 全殲,
    // last → loss and wiped out, in between → draw.
    let (lone, lone_is_chu) = if a.len() == 1 { (a[0], true) } else { (other_places[0], false) };
    let v = if lone == 1 {
        (Verdict::Win, true)
    } else if lone == n {
        (Verdict::Loss, true)
    } else {
        (Verdict::Draw, false)
    };
    if lone_is_chu {
        v
    } else {
        let flip = match v.0 {
            Verdict::Win => Verdict::Loss,
            Verdict::Loss => Verdict::Win,
            Verdict::Draw => Verdict::Draw,
        };
        (flip, v.1)
    }
}

/// `a × b` in 128 bits, or an error: amounts beyond even that cannot be any seat's result.
fn wide_mul(a: i128, b: i128, what: &str) -> Result<i128> {
    a.checked_mul(b).ok_or_else(|| Error::new(format!("{what}: {a} × {b} overflows")).because(Reason::OutOfRange))
}

pub fn settle(g: &GameResult, rules: &Rules) -> Result<Settlement> {
    rules.validate().map_err(|e| e.within("rules"))?;
    let chu = seats(&g.chu_side, "chu_side")?;
    if g.chu_side.is_empty() || g.chu_side.len() > 2 {
        bail!(reason = WrongCount, field = "chu_side", "the 儲方 is one seat (1 vs 3) or two (2 vs 2), got {}", g.chu_side.len());
    }
    check_multiplier(g.multiplier)?;
    money::check_base(g.base)?;
    let jiao = seats(&g.surrendered, "surrendered")?;
    let bbd = seats(&g.bei_bao_da, "bei_bao_da")?;
    let esc = seats(&g.escaped, "escaped")?;
    if jiao & bbd != 0 {
        bail!(reason = Inconsistent, field = "bei_bao_da", "seat {} cannot both surrender and be 被包打", members(jiao & bbd)[0]);
    }
    let other = 0b1111 & !chu;
    let side_of = |s: usize| if chu & (1 << s) != 0 { chu } else { other };
    for s in members(bbd) {
        if side_of(s) & !jiao & !bbd == 0 {
            bail!(reason = Inconsistent, field = "bei_bao_da", "seat {s} is 被包打 but nobody of its side plays for it");
        }
    }
    // Wider inside (RULES §0): only a seat's result must fit in an i64.
    let unit = g.base as i128 * g.multiplier as i128;
    let m = g.multiplier;
    let mut lines: Vec<Wide> = Vec::new();

    // 繳: base × multiplier / 2 each — [decision] rounded up to a whole unit (rule
    // `jiao_round_up`, so a surrender always costs something; off: toward zero) — shared
    // by the opposing side's members who did not surrender, or by all of them if that
    // whole side surrendered later (a personal 繳 followed by the other side's 繳). The
    // 繳 of one side are added up and shared once (RULES 3.7).
    let jiao_each = if rules.jiao_round_up { unit / 2 + unit % 2 } else { unit / 2 };
    let half = if rules.jiao_round_up { format!("⌈base × {m} / 2⌉") } else { format!("⌊base × {m} / 2⌋") };
    for side in [chu, other] {
        let payers = members(side & jiao);
        if payers.is_empty() {
            continue;
        }
        let opp = 0b1111 & !side;
        let receivers = if opp & !jiao != 0 { members(opp & !jiao) } else { members(opp) };
        let total = jiao_each * payers.len() as i128;
        let head = format!("繳 by seat {}", seat_list(&payers));
        let formula = times(payers.len(), &format!("{half} ({jiao_each})"));
        transfer(&mut lines, LineKind::Jiao, &payers, &receivers, total, &head, &formula)?;
    }

    let whole_side_out = chu & !jiao == 0 || other & !jiao == 0;
    let mut verdict = None;
    let mut wipe_out = false;
    let mut result_multiplier = g.multiplier;
    if esc != 0 {
        // 逃跑 ends the game (RULES 3.7): no places are scored. Each escaping player pays
        // the penalty; escapes paid to the same receivers are added up and shared once.
        if g.places.is_some() {
            bail!(reason = Inconsistent, field = "places", "must be omitted when someone escaped: the game is abandoned");
        }
        let penalty = wide_mul(unit, rules.escape_units as i128, "escape penalty")?;
        let mut groups: Vec<(u8, Vec<usize>)> = Vec::new();
        for s in members(esc) {
            let receivers = if rules.escape_shared_by_all { 0b1111 & !esc } else { (0b1111 & !side_of(s)) & !esc };
            match groups.iter_mut().find(|(r, _)| *r == receivers) {
                Some((_, payers)) => payers.push(s),
                None => groups.push((receivers, vec![s])),
            }
        }
        for (receivers, payers) in groups {
            // RULES 3.7 [v5]: a penalty whose receivers all escaped too is not paid (every
            // player escaping; under `escape_shared_by_all=False`, every opponent escaping).
            if receivers == 0 {
                continue;
            }
            let head = format!("seat {} escaped (逃跑)", seat_list(&payers));
            let formula = times(payers.len(), &format!("base × {m} × {}", rules.escape_units));
            transfer(
                &mut lines,
                LineKind::Escape,
                &payers,
                &members(receivers),
                wide_mul(penalty, payers.len() as i128, "escape penalty")?,
                &head,
                &formula,
            )?;
        }
    } else if whole_side_out {
        if g.places.as_ref().is_some_and(|p| !p.is_empty()) {
            bail!(reason = Inconsistent, field = "places", "must be omitted: a whole side surrendered, so nobody played");
        }
    } else {
        let Some(places) = &g.places else {
            bail!(reason = WrongCount, field = "places", "the finishing order of the playing seats is needed");
        };
        let played = seats(places, "places")?;
        let playing = 0b1111 & !jiao & !bbd;
        if played != playing || places.len() != members(playing).len() {
            let reason = if places.len() != members(playing).len() { Reason::WrongCount } else { Reason::Inconsistent };
            return Err(Error::field(
                "places",
                format!("must list each playing seat once ({:?}: not surrendered, not 被包打), got {:?}", members(playing), places),
            )
            .because(reason));
        }
        let place_of = |s: usize| places.iter().position(|&x| x == s).unwrap() + 1;
        let cp: Vec<usize> = members(chu & playing).into_iter().map(place_of).collect();
        let op: Vec<usize> = members(other & playing).into_iter().map(place_of).collect();
        let (v, w) = outcome(&cp, &op, places.len());
        verdict = Some(v);
        wipe_out = w;
        if w {
            result_multiplier = money::mul(g.multiplier, 2, "multiplier")?;
        }
        if v != Verdict::Draw {
            let (win, lose) = if v == Verdict::Win { (chu, other) } else { (other, chu) };
            // 被包打 seats pay or win with their side; surrendered seats already paid. With
            // `larger_side` units, whoever plays alone against two or three pays or
            // receives one unit per opponent (1 vs 3; 2 vs 2 after a partner's 繳).
            let winners = members(win & !jiao);
            let losers = members(lose & !jiao);
            let units = match rules.unit_per {
                UnitPer::LargerSide => winners.len().max(losers.len()),
                UnitPer::LosingSide => losers.len(),
            };
            let total = wide_mul(g.base as i128 * result_multiplier as i128, units as i128, "result")?;
            let head = format!("儲方 {}{}", v.as_str(), if w { " with 全殲 (×2)" } else { "" });
            let formula = times(units, &format!("base × {result_multiplier}"));
            transfer(&mut lines, LineKind::Result, &losers, &winners, total, &head, &formula)?;
        }
    }

    let mut wide = [0i128; 4];
    for l in &lines {
        wide[l.seat] = wide[l.seat]
            .checked_add(l.amount)
            .ok_or_else(|| Error::new(format!("seat {}'s result overflows", l.seat)).because(Reason::OutOfRange))?;
    }
    let mut theoretical = vec![0i64; 4];
    for s in 0..4 {
        theoretical[s] = money::narrow(wide[s], &format!("seat {s}'s result"))?;
    }
    let mut lines = lines
        .into_iter()
        .map(|l| {
            Ok(Line {
                kind: l.kind.name(),
                seat: l.seat,
                amount: money::narrow(l.amount, &format!("seat {}'s {} line", l.seat, l.kind.name()))?,
                text: l.text,
            })
        })
        .collect::<Result<Vec<Line>>>()?;
    let carried = g.carried.clone().unwrap_or_else(|| vec![None; 4]);
    if carried.len() != 4 {
        bail!(reason = WrongCount, field = "carried", "has {} entries for 4 players", carried.len());
    }
    let deltas = money::cap(&theoretical, &carried)?;
    for s in 0..4 {
        if deltas[s] != theoretical[s] {
            // The difference fits in an i64 unless the result was i64::MIN itself.
            let amount = money::narrow(deltas[s] as i128 - theoretical[s] as i128, &format!("seat {s}'s cap line"))?;
            let note = format!("防以小博大 (RULES §4): {} capped to {}, difference = {}", theoretical[s], deltas[s], amount.unsigned_abs());
            lines.push(Line { kind: LineKind::Cap.name(), seat: s, amount, text: note });
        }
    }
    Ok(Settlement { verdict, wipe_out, result_multiplier, lines, theoretical, deltas })
}
