//! 十三水 over the gRPC wire: requests read from their `handeval.v2` messages into the
//! core's types, the core's results written as their messages. [`fast`] reads the hot
//! shape of Evaluate in place and falls back on this module for everything else.

use crate::call::{Ctx, CHECK_EVERY};
use crate::convert::{cards, cards_msg, rename};
use crate::enums::{name_of, value_of};
use crate::fail::{at, only, Fail, ItemFail};
use crate::pb;
use handeval_core::cards::{self, Card};
use handeval_core::shisanshui::arrange::{self as arr, top_k_from, ArrangeResult, Options};
use handeval_core::shisanshui::{self as ssw, eval, Hand, Rules, SpecialId};
use handeval_core::{Error, Reason};
use std::sync::OnceLock;

pub(crate) mod fast;

/// A seat index as the protos' `int32` (at most 4 seats).
fn seat(i: usize) -> i32 {
    i as i32
}

// ---- reading requests ----

use crate::convert::wire_rules;
handeval_core::shisanshui_rule_options!(wire_rules! {
    /// The request's `rules` (unset: the defaults), a bad value failing the request at
    /// `shisanshui.rules.<option>`.
    pub fn rules_from(pb::ShisanshuiRules) -> handeval_core::shisanshui::Rules;
});

/// The cards of a row (3 or 5) into `buf`, their number returned: no allocation when the
/// row is good; the error (no field: the caller names the row) as `convert::cards` words it, or
/// "a row has 3 or 5 cards".
fn row_into(m: Option<&pb::Cards>, buf: &mut [Card; 5]) -> Result<usize, Error> {
    let tokens: &[String] = m.map_or(&[], |m| &m.cards);
    let n = tokens.len();
    if n == 3 || n == 5 {
        let mut seen = 0u64;
        let mut ok = true;
        for (slot, t) in buf.iter_mut().zip(tokens) {
            match cards::parse_card(t.trim()) {
                Ok(c) if seen & c.bit() == 0 => {
                    seen |= c.bit();
                    *slot = c;
                }
                _ => {
                    ok = false;
                    break;
                }
            }
        }
        if ok {
            return Ok(n);
        }
    }
    // The long way, for its error (or an unusual good row).
    let cards = cards::parse_tokens(tokens)?;
    if cards.len() != 3 && cards.len() != 5 {
        return Err(Error::new(format!("a row has 3 or 5 cards, got {}", cards.len())).because(Reason::WrongCount));
    }
    buf[..cards.len()].copy_from_slice(&cards);
    Ok(cards.len())
}

// ---- writing results ----

/// The `ShisanshuiCategory` value of each category, indexed like `Category::ALL`.
fn category_value(cat: eval::Category) -> i32 {
    static VALUES: OnceLock<Vec<i32>> = OnceLock::new();
    let values = VALUES.get_or_init(|| eval::Category::ALL.iter().map(|c| value_of::<pb::ShisanshuiCategory>(c.name())).collect());
    values[cat as usize]
}

/// A classified row: its strength and its cards in order of significance.
fn row_msg(strength: u32, order: &[Card]) -> pb::ShisanshuiRow {
    let cat = eval::Category::from_strength(strength);
    pb::ShisanshuiRow {
        category: category_value(cat),
        category_zh: cat.name_zh().to_string(),
        strength: strength as i64,
        cards: Some(cards_msg(order)),
    }
}

fn special_kind(id: SpecialId) -> i32 {
    value_of::<pb::ShisanshuiSpecialKind>(id.id())
}

fn special_msg(s: &ssw::SpecialHand) -> pb::ShisanshuiSpecial {
    pb::ShisanshuiSpecial {
        kind: special_kind(s.id),
        name_zh: s.id.name_zh().to_string(),
        waters: s.id.waters() as i32,
        split: s.split.iter().flatten().map(|r| cards_msg(r)).collect(),
    }
}

impl From<&ssw::Settlement> for pb::ShisanshuiSettlement {
    fn from(s: &ssw::Settlement) -> Self {
        pb::ShisanshuiSettlement {
            waters: s.waters.clone(),
            deltas: s.deltas.clone(),
            pairwise: s.pairwise.iter().map(|r| pb::IntRow { values: r.clone() }).collect(),
            fouls: s.fouls.clone(),
            specials: s.specials.iter().map(|x| x.as_ref().map_or(0, |sp| special_kind(sp.id))).collect(),
            home_runs: s.home_runs.clone(),
            theoretical: s.theoretical.clone(),
            rake: s.rake,
            pairs: s
                .pairs
                .iter()
                .map(|p| pb::ShisanshuiPair {
                    a: seat(p.a),
                    b: seat(p.b),
                    kind: value_of::<pb::ShisanshuiPairKind>(p.kind.as_str()),
                    rows: p.rows.to_vec(),
                    scooper: p.scooper().map(seat),
                    home_run: p.home_run,
                    waters: p.waters,
                })
                .collect(),
        }
    }
}

fn choice_msg(a: &arr::Arrangement) -> pb::ShisanshuiArrangeChoice {
    pb::ShisanshuiArrangeChoice {
        arrangement: Some(pb::ShisanshuiArrangement {
            front: Some(cards_msg(&a.front)),
            middle: Some(cards_msg(&a.middle)),
            back: Some(cards_msg(&a.back)),
        }),
        expected: a.expected,
    }
}

fn answer_msg(r: &ArrangeResult) -> pb::ShisanshuiArrangeAnswer {
    pb::ShisanshuiArrangeAnswer {
        best: Some(choice_msg(&r.best)),
        special: r.special.as_ref().map_or(0, |s| special_kind(s.id)),
        declare_special: r.declare_special,
        alternatives: r.alternatives.iter().map(choice_msg).collect(),
    }
}

// ---- Evaluate ----

/// Cards per packed row of a request's `row_size` (0 = unset = 5), None for a bad one.
fn row_size_of(row_size: i32) -> Option<usize> {
    match row_size {
        0 | 5 => Some(5),
        3 => Some(3),
        _ => None,
    }
}

/// The packed bulk path: card-id bytes → category bytes, appended to `out`. One bad row
/// fails the request (a packed answer has no per-row errors).
fn packed_into(rows: &[u8], row_size: i32, ctx: &Ctx, out: &mut Vec<u8>) -> Result<(), Fail> {
    let Some(size) = row_size_of(row_size) else {
        return Err(ctx.bad("row_size", format!("must be 3 or 5 (or unset = 5), got {row_size}"), Reason::OutOfRange));
    };
    ctx.count_more("packed_rows", rows.len() / size)?;
    if rows.is_empty() {
        return Ok(());
    }
    eval::categories_from_ids_into(rows, size, out).map_err(|e| {
        let row = e.field.as_deref().and_then(|f| f.strip_prefix("data[")?.strip_suffix(']')?.parse::<usize>().ok());
        let message = match row {
            Some(i) => format!("row {i} (bytes {}..{}): {}", i * size, i * size + size - 1, e.message),
            None => e.message,
        };
        ctx.bad("packed_rows", message, e.reason)
    })
}

fn evaluate_item(item: pb::ShisanshuiEvaluateItem, rules: &Rules) -> Result<pb::shisanshui_evaluate_result::Result, ItemFail> {
    use pb::shisanshui_evaluate_item::Item as I;
    use pb::shisanshui_evaluate_result::Result as R;
    let mut buf = [Card(0); 5];
    Ok(match item.item {
        Some(I::Row(c)) => {
            let n = row_into(Some(&c), &mut buf).map_err(only("row"))?;
            let (strength, order) = eval::classify_row(&buf[..n], rules).map_err(only("row"))?;
            R::Row(row_msg(strength, &order[..n]))
        }
        Some(I::Hand(c)) => {
            let cards = cards(Some(&c)).map_err(only("hand"))?;
            let s = ssw::special(&cards).map_err(only("hand"))?;
            R::Hand(pb::ShisanshuiHandResult { special: s.as_ref().map(special_msg) })
        }
        Some(I::Arrangement(a)) => {
            let parts =
                [("arrangement.front", a.front.as_ref()), ("arrangement.middle", a.middle.as_ref()), ("arrangement.back", a.back.as_ref())];
            let mut rows: [([Card; 5], usize, u32, [Card; 5]); 3] = [([Card(0); 5], 0, 0, [Card(0); 5]); 3];
            for (slot, (field, m)) in rows.iter_mut().zip(parts) {
                slot.1 = row_into(m, &mut slot.0).map_err(only(field))?;
                (slot.2, slot.3) = eval::classify_row(&slot.0[..slot.1], rules).map_err(only(field))?;
            }
            let [f, m, b] = &rows;
            let (fc, mc, bc) = (&f.0[..f.1], &m.0[..m.1], &b.0[..b.1]);
            cards::check_distinct_across(&[("front".into(), fc), ("middle".into(), mc), ("back".into(), bc)])
                .and_then(|_| eval::is_foul(fc, mc, bc, rules))
                .map_err(at("arrangement"))
                .map(|foul| {
                    R::Arrangement(pb::ShisanshuiArrangementResult {
                        foul,
                        front: Some(row_msg(f.2, &f.3[..f.1])),
                        middle: Some(row_msg(m.2, &m.3[..m.1])),
                        back: Some(row_msg(b.2, &b.3[..b.1])),
                    })
                })?
        }
        None => return Err(ItemFail::Item(Error::new("set one of row, hand, arrangement"))),
    })
}

pub(crate) fn evaluate(req: pb::ShisanshuiEvaluateRequest, ctx: &Ctx) -> Result<pb::ShisanshuiEvaluateResponse, Fail> {
    use pb::shisanshui_evaluate_result::Result as R;
    ctx.batch("items", req.items.len(), req.items.len())?;
    let rules = rules_from(req.rules.as_ref(), ctx)?;
    let mut packed_categories = Vec::new();
    packed_into(&req.packed_rows, req.row_size, ctx, &mut packed_categories)?;
    let results = ctx.each(
        "items",
        req.items,
        |_, item| evaluate_item(item, &rules).map(|r| pb::ShisanshuiEvaluateResult { result: Some(r) }),
        |e| pb::ShisanshuiEvaluateResult { result: Some(R::Error(e)) },
    )?;
    Ok(pb::ShisanshuiEvaluateResponse { results, packed_categories })
}

// ---- Compare ----

/// The rows of an `order` item get their keys with a deadline check every this many.
const ORDER_CHUNK: usize = 4096;

/// An `order` item: the row indices strongest first, equal rows in request order. One
/// total-order key per row from the core (the rows are independent: they may share
/// cards), then one sort.
fn order(rows: &[pb::Cards], rules: &Rules, ctx: &Ctx) -> Result<Vec<i32>, ItemFail> {
    let mut keyed: Vec<(u64, u32)> = Vec::with_capacity(rows.len());
    let mut size = 0;
    let mut buf = [Card(0); 5];
    for (j, r) in rows.iter().enumerate() {
        if j % ORDER_CHUNK == 0 {
            ctx.check_at(|| "inside a long item".to_string())?;
        }
        let field = || format!("order.rows[{j}]");
        let n = row_into(Some(r), &mut buf).map_err(|mut e| {
            e.field = Some(field());
            e
        })?;
        if j == 0 {
            size = n;
        }
        let key = eval::order_key_sized(&buf[..n], size, rules).map_err(|e| e.within(&field()))?;
        keyed.push((key, j as u32));
    }
    ctx.check_at(|| "inside a long item".to_string())?;
    keyed.sort_unstable_by(|x, y| y.0.cmp(&x.0).then(x.1.cmp(&y.1)));
    Ok(keyed.into_iter().map(|(_, j)| j as i32).collect())
}

pub(crate) fn compare(req: pb::ShisanshuiCompareRequest, ctx: &Ctx) -> Result<pb::ShisanshuiCompareResponse, Fail> {
    use pb::shisanshui_compare_item::Item as I;
    use pb::shisanshui_compare_result::Result as R;
    // Rows inside `order` items count as items against --max-batch.
    let rows: usize = req.items.iter().map(|it| if let Some(I::Order(l)) = &it.item { l.rows.len() } else { 0 }).sum();
    ctx.batch("items", req.items.len(), req.items.len() + rows)?;
    let rules = rules_from(req.rules.as_ref(), ctx)?;
    let results = ctx.each(
        "items",
        req.items,
        |_, item| {
            let r = match item.item {
                Some(I::Pair(p)) => {
                    let (mut x, mut y) = ([Card(0); 5], [Card(0); 5]);
                    let na = row_into(p.a.as_ref(), &mut x).map_err(only("pair.a"))?;
                    let nb = row_into(p.b.as_ref(), &mut y).map_err(only("pair.b"))?;
                    R::Comparison(eval::compare_rows(&x[..na], &y[..nb], &rules).map_err(at("pair"))? as i32)
                }
                Some(I::Order(l)) => R::Order(pb::ShisanshuiOrder { indices: order(&l.rows, &rules, ctx)? }),
                None => return Err(ItemFail::Item(Error::new("set one of pair, order"))),
            };
            Ok(pb::ShisanshuiCompareResult { result: Some(r) })
        },
        |e| pb::ShisanshuiCompareResult { result: Some(R::Error(e)) },
    )?;
    Ok(pb::ShisanshuiCompareResponse { results })
}

// ---- Settle ----

/// The players of a deal: first each one's kind (an unset or unknown kind names the
/// player), then their cards.
fn players(deal: &pb::ShisanshuiDeal) -> Result<Vec<Hand>, Error> {
    use pb::shisanshui_player::Hand as P;
    let mut kinds = Vec::with_capacity(deal.players.len());
    for (i, p) in deal.players.iter().enumerate() {
        kinds.push(match &p.hand {
            Some(P::Arrangement(_)) => None,
            Some(P::Special(s)) => {
                let field = format!("players[{i}].special.kind");
                let name = match name_of::<pb::ShisanshuiSpecialKind>(s.kind) {
                    Err(msg) => return Err(Error::field(field, msg)),
                    Ok(None) => return Err(Error::field(field, "set the declared special hand")),
                    Ok(Some(name)) => name,
                };
                Some(SpecialId::parse(&name).map_err(|e| e.within(&format!("players[{i}].special")))?)
            }
            None => return Err(Error::field(format!("players[{i}]"), "set arrangement or special")),
        });
    }
    let read = |m: Option<&pb::Cards>, field: String| cards(m).map_err(|e| e.within(&field));
    deal.players
        .iter()
        .zip(kinds)
        .enumerate()
        .map(|(i, (p, kind))| {
            use pb::shisanshui_player::Hand as P;
            Ok(match (&p.hand, kind) {
                (Some(P::Special(s)), Some(id)) => Hand::Special { id, cards: read(s.cards.as_ref(), format!("players[{i}].cards"))? },
                (Some(P::Arrangement(a)), _) => Hand::Rows {
                    front: read(a.front.as_ref(), format!("players[{i}].front"))?,
                    middle: read(a.middle.as_ref(), format!("players[{i}].middle"))?,
                    back: read(a.back.as_ref(), format!("players[{i}].back"))?,
                },
                _ => unreachable!("kinds were read above"),
            })
        })
        .collect()
}

/// The core (and the Python API) name a player's rows `players[i].front` and a declared
/// special's cards `players[i].cards`; over gRPC they sit in the player's oneof:
/// `players[i].arrangement.front`, `players[i].special.cards`.
fn player_path(mut e: Error) -> Error {
    if let Some(f) = e.field.as_deref() {
        if let Some((head, tail)) = f.strip_prefix("players[").and_then(|r| r.split_once("].")) {
            let part = tail.split(['.', '[']).next().unwrap_or("");
            let within = match part {
                "front" | "middle" | "back" => Some("arrangement"),
                "cards" => Some("special"),
                _ => None,
            };
            if let Some(w) = within {
                e.field = Some(format!("players[{head}].{w}.{tail}"));
            }
        }
    }
    e
}

pub(crate) fn settle(req: pb::ShisanshuiSettleRequest, ctx: &Ctx) -> Result<pb::ShisanshuiSettleResponse, Fail> {
    use pb::shisanshui_settle_result::Result as R;
    ctx.batch("deals", req.deals.len(), req.deals.len())?;
    let rules = rules_from(req.rules.as_ref(), ctx)?;
    let results = ctx.each(
        "deals",
        req.deals,
        |_, deal| {
            // The deal's shape before any of it is read (a huge list fails at its length).
            let carried = (!deal.carried.is_empty()).then_some(deal.carried.len());
            ssw::check_deal_shape(deal.players.len(), carried)?;
            let hands = players(&deal).map_err(player_path)?;
            let carried: Option<Vec<Option<i64>>> = carried.map(|_| deal.carried.iter().map(|c| c.amount).collect());
            let s = ssw::settle(&hands, deal.base.unwrap_or(1), carried.as_deref(), &rules).map_err(player_path)?;
            Ok(pb::ShisanshuiSettleResult { result: Some(R::Settlement((&s).into())) })
        },
        |e| pb::ShisanshuiSettleResult { result: Some(R::Error(e)) },
    )?;
    Ok(pb::ShisanshuiSettleResponse { results })
}

// ---- Arrange ----

/// Exact arrangements (no `samples`) run through the core's parallel `arrange_many` in
/// chunks of this many hands (a few ms), with a deadline check between; with Monte-Carlo
/// `samples`, one hand at a time (~70 µs per sample and hand on 2 cores).
const ARRANGE_CHUNK: usize = 256;

fn options(req: &pb::ShisanshuiArrangeRequest) -> Result<Options, Error> {
    let wide = |v: Option<i32>| v.map(i128::from);
    Options::from_ints(wide(req.opponents), wide(req.top_k), req.seed.map(i128::from), wide(req.samples))
}

pub(crate) fn arrange(req: pb::ShisanshuiArrangeRequest, ctx: &Ctx) -> Result<pb::ShisanshuiArrangeResponse, Fail> {
    use pb::shisanshui_arrange_item::Item as I;
    use pb::shisanshui_arrange_result::Result as R;
    let total = req.items.len();
    ctx.batch("items", total, total)?;
    let samples = req.samples.unwrap_or(0);
    if samples > 0 && samples as u32 > ctx.limits.max_samples {
        let message = format!("{samples} samples per hand exceed the limit of {} (the server's --max-samples)", ctx.limits.max_samples);
        return Err(ctx.bad("samples", message, Reason::TooLarge));
    }
    // Each hand costs its exact search and its samples (best responses count as hands).
    let per_hand = samples.max(0) as u64 + 1;
    ctx.work("items", total as u64 * per_hand, || format!("{total} items × ({} samples + 1)", per_hand - 1))?;
    let rules = rules_from(req.rules.as_ref(), ctx)?;
    // `top_k` is the request's (best_response items use it too): a bad one is the request's
    // error, whichever items there are.
    if let Some(v) = req.top_k.filter(|&v| v < 1 || v as usize > arr::MAX_TOP_K) {
        return Err(ctx.bad("top_k", format!("must be 1..{} (got {v})", arr::MAX_TOP_K), Reason::OutOfRange));
    }
    let mut out: Vec<Option<R>> = (0..total).map(|_| None).collect();
    let fail = |i: usize, e: Error| Some(R::Error(ctx.item_failed("items", i, e)));

    // Hands first, in chunks.
    let hands: Vec<usize> = (0..total).filter(|&i| matches!(req.items[i].item, Some(I::Hand(_)))).collect();
    if !hands.is_empty() {
        let o = options(&req).map_err(|e| ctx.bad(e.field.as_deref().unwrap_or("items"), e.message, e.reason))?;
        let step = if o.samples > 0 { 1 } else { ARRANGE_CHUNK };
        for (n, chunk) in hands.chunks(step).enumerate() {
            ctx.check(n * step, total)?;
            // The good hands' items and cards, side by side.
            let (mut good, mut cards): (Vec<usize>, Vec<Vec<Card>>) = (Vec::with_capacity(chunk.len()), Vec::with_capacity(chunk.len()));
            for &i in chunk {
                let Some(I::Hand(c)) = &req.items[i].item else { unreachable!("a hand item") };
                match crate::convert::cards(Some(c)) {
                    Ok(c) => {
                        good.push(i);
                        cards.push(c);
                    }
                    Err(e) => out[i] = fail(i, rename(e.within("cards"), &[("cards", "hand")], "")),
                }
            }
            // The core batch fails as a whole on one bad hand: then hand by hand, so each
            // hand gets its own answer or error.
            let answers: Vec<Result<ArrangeResult, Error>> = if o.samples > 0 {
                // One hand of many samples: the turn may pass between its sample blocks.
                cards.iter().map(|c| arr::arrange_yielding(c, &o, &rules, &|| ctx.pass_turn())).collect()
            } else {
                match arr::arrange_many(&cards, &o, &rules) {
                    Ok(rs) => rs.into_iter().map(Ok).collect(),
                    Err(_) => cards.iter().map(|c| arr::arrange(c, &o, &rules)).collect(),
                }
            };
            for (i, a) in good.iter().zip(answers) {
                out[*i] = match a {
                    Ok(a) => Some(R::Answer(answer_msg(&a))),
                    Err(e) => fail(*i, rename(e, &[("cards13", "hand"), ("cards", "hand")], "")),
                };
            }
        }
    }

    // Then best responses (and items that set nothing).
    let others: Vec<usize> = (0..total).filter(|&i| !matches!(req.items[i].item, Some(I::Hand(_)))).collect();
    for (n, &i) in others.iter().enumerate() {
        if n % CHECK_EVERY == 0 {
            ctx.check(n, others.len())?;
        }
        let answer = match &req.items[i].item {
            Some(I::BestResponse(br)) => {
                best_response(br, req.top_k, &rules).map_err(|e| rename(e, &[("cards13", "cards")], "best_response"))
            }
            _ => Err(Error::new("set one of hand, best_response")),
        };
        out[i] = match answer {
            Ok(a) => Some(R::Answer(answer_msg(&a))),
            Err(e) => fail(i, e),
        };
    }
    let results = out.into_iter().map(|r| pb::ShisanshuiArrangeResult { result: r }).collect();
    Ok(pb::ShisanshuiArrangeResponse { results })
}

fn best_response(br: &pb::ShisanshuiBestResponseItem, top_k: Option<i32>, rules: &Rules) -> Result<ArrangeResult, Error> {
    let top_k = top_k.map_or(Ok(1), |v| top_k_from(v.into()))?;
    let cards = cards(br.cards.as_ref()).map_err(|e| e.within("cards"))?;
    let read = |m: Option<&pb::Cards>, field: String| crate::convert::cards(m).map_err(|e| e.within(&field));
    let opponents = br
        .opponents
        .iter()
        .enumerate()
        .map(|(i, o)| {
            Ok(Hand::Rows {
                front: read(o.front.as_ref(), format!("opponents[{i}].front"))?,
                middle: read(o.middle.as_ref(), format!("opponents[{i}].middle"))?,
                back: read(o.back.as_ref(), format!("opponents[{i}].back"))?,
            })
        })
        .collect::<Result<Vec<Hand>, Error>>()?;
    arr::best_response(&cards, &opponents, top_k, rules)
}
