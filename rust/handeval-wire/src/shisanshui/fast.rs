//! The hot shape of 十三水 Evaluate without per-card allocations: a request of card-string
//! rows and/or packed rows is read in place (card strings borrowed from the request's
//! bytes, parsed by the core's parser) and its answer written straight into the output
//! buffer (`&'static str` category names, the cards' two-character strings from one
//! table). Anything the fast reader does not take — another game, a field out of the
//! expected set, a repeated singular field (which proto3 merges), unknown fields, bytes
//! prost would refuse — returns `None` before any work, and the request goes the prost
//! way ([`super::evaluate`]); an item that is not a plain good row is decoded by prost
//! alone and answered by the prost path's own [`super::evaluate_item`]. The answer's
//! bytes equal the prost path's (tests/grpc/test_grpc_wire_fast.py proves it on random
//! and mutated requests). Field numbers and wire types are read from the generated types
//! ([`key_of`]), not retyped.

use super::{category_value, evaluate_item, packed_into, row_size_of, rules_from};
use crate::call::Ctx;
use crate::codec::{key_of, only_field, put_key, put_varint, take_len, varint_len};
use crate::convert::card_string;
use crate::fail::only;
use crate::fail::Fail;
use crate::pb;
use handeval_core::cards::{self, Card};
use handeval_core::shisanshui::eval;
use prost::Message;
use std::sync::OnceLock;

/// The field keys the fast path reads and writes.
struct Keys {
    // EvaluateRequest → ShisanshuiEvaluateRequest → ShisanshuiEvaluateItem → Cards
    req_game: u64,
    rules: u64,
    items: u64,
    packed_rows: u64,
    row_size: u64,
    item_row: u64,
    item_hand: u64,
    card: u64,
    // EvaluateResponse → ShisanshuiEvaluateResponse → ShisanshuiEvaluateResult → ShisanshuiRow
    resp_game: u64,
    results: u64,
    packed_categories: u64,
    result_row: u64,
    strength: u64,
    cards: u64,
    /// Each card's entry of a `Cards` message (key, length, `As`), by id.
    card_fields: Vec<Vec<u8>>,
    /// The fields of a `ShisanshuiRow` before its strength (category, category_zh), by
    /// category.
    row_heads: Vec<Vec<u8>>,
}

fn keys() -> &'static Keys {
    static KEYS: OnceLock<Keys> = OnceLock::new();
    KEYS.get_or_init(|| {
        use pb::evaluate_request::Game as Q;
        use pb::evaluate_response::Game as A;
        use pb::shisanshui_evaluate_item::Item as I;
        use pb::shisanshui_evaluate_result::Result as R;
        type Req = pb::ShisanshuiEvaluateRequest;
        type Resp = pb::ShisanshuiEvaluateResponse;
        type Row = pb::ShisanshuiRow;
        Keys {
            req_game: key_of(pb::EvaluateRequest { game: Some(Q::Shisanshui(Req::default())) }),
            rules: key_of(Req { rules: Some(Default::default()), ..Default::default() }),
            items: key_of(Req { items: vec![Default::default()], ..Default::default() }),
            packed_rows: key_of(Req { packed_rows: vec![0], ..Default::default() }),
            row_size: key_of(Req { row_size: 1, ..Default::default() }),
            item_row: key_of(pb::ShisanshuiEvaluateItem { item: Some(I::Row(Default::default())) }),
            item_hand: key_of(pb::ShisanshuiEvaluateItem { item: Some(I::Hand(Default::default())) }),
            card: key_of(pb::Cards { cards: vec![String::new()] }),
            resp_game: key_of(pb::EvaluateResponse { game: Some(A::Shisanshui(Resp::default())) }),
            results: key_of(Resp { results: vec![Default::default()], ..Default::default() }),
            packed_categories: key_of(Resp { packed_categories: vec![0], ..Default::default() }),
            result_row: key_of(pb::ShisanshuiEvaluateResult { result: Some(R::Row(Row::default())) }),
            strength: key_of(Row { strength: 1, ..Default::default() }),
            cards: key_of(Row { cards: Some(Default::default()), ..Default::default() }),
            card_fields: (0..52).map(|id| pb::Cards { cards: vec![card_string(Card(id))] }.encode_to_vec()).collect(),
            row_heads: eval::Category::ALL
                .iter()
                .map(|&cat| {
                    Row { category: category_value(cat), category_zh: cat.name_zh().to_string(), ..Default::default() }.encode_to_vec()
                })
                .collect(),
        }
    })
}

/// An item as read: a plain good row (its cards), or anything else decoded by prost.
enum Item {
    Row([Card; 5], u8),
    Other(Box<pb::ShisanshuiEvaluateItem>),
}

/// The request as read (borrowing its bytes).
struct Request<'a> {
    rules: Option<pb::ShisanshuiRules>,
    items: Vec<Item>,
    packed_rows: &'a [u8],
    row_size: i32,
}

/// The cards of a `Cards` message's bytes when it is a good row for the prost path's
/// `row_into` fast loop (3 or 5 cards, each one field, parsed by the core, none twice);
/// None for anything else (the item is then decoded by prost).
fn row_cards(mut m: &[u8], k: &Keys) -> Option<([Card; 5], u8)> {
    let mut buf = [Card(0); 5];
    let (mut n, mut seen) = (0usize, 0u64);
    while !m.is_empty() {
        if n == 5 || prost::encoding::decode_varint(&mut m).ok()? != k.card {
            return None;
        }
        let token = std::str::from_utf8(take_len(&mut m)?).ok()?;
        let c = cards::parse_card(token.trim()).ok()?;
        if seen & c.bit() != 0 {
            return None;
        }
        seen |= c.bit();
        buf[n] = c;
        n += 1;
    }
    (n == 3 || n == 5).then_some((buf, n as u8))
}

/// Reads the ShisanshuiEvaluateRequest body `m`; None when it is not of the shape taken.
fn read<'a>(mut m: &'a [u8], k: &Keys) -> Option<Request<'a>> {
    let mut req = Request { rules: None, items: Vec::new(), packed_rows: &[], row_size: 0 };
    let (mut had_rules, mut had_packed, mut had_size) = (false, false, false);
    while !m.is_empty() {
        let key = prost::encoding::decode_varint(&mut m).ok()?;
        if key == k.items {
            let item = take_len(&mut m)?;
            let read = only_field(item, k.item_row).and_then(|cards| row_cards(cards, k));
            req.items.push(match read {
                Some((cards, n)) => Item::Row(cards, n),
                None => Item::Other(Box::new(pb::ShisanshuiEvaluateItem::decode(item).ok()?)),
            });
        } else if key == k.packed_rows && !had_packed {
            had_packed = true;
            req.packed_rows = take_len(&mut m)?;
        } else if key == k.row_size && !had_size {
            had_size = true;
            // As prost reads an int32: the varint's low 32 bits.
            req.row_size = prost::encoding::decode_varint(&mut m).ok()? as i32;
        } else if key == k.rules && !had_rules {
            had_rules = true;
            req.rules = Some(pb::ShisanshuiRules::decode(take_len(&mut m)?).ok()?);
        } else {
            return None;
        }
    }
    Some(req)
}

/// Appends a length-delimited field of key `key` whose body is `len` bytes (the body
/// follows).
#[inline]
fn put_len(key: u64, len: usize, out: &mut Vec<u8>) {
    put_key(key, out);
    put_varint(len as u64, out);
}

/// Appends the `results` entry of a classified row, as prost writes a
/// `ShisanshuiEvaluateResult { row: ShisanshuiRow { .. } }` (fields in order: the
/// category's head written by prost once, the strength, the cards).
fn put_row(k: &Keys, strength: u32, order: &[Card], out: &mut Vec<u8>) {
    let head = &k.row_heads[eval::Category::from_strength(strength) as usize];
    let st = strength as i64 as u64;
    let cards_len: usize = order.iter().map(|c| k.card_fields[c.0 as usize].len()).sum();
    let row_len = head.len()
        + if st != 0 { varint_len(k.strength) + varint_len(st) } else { 0 }
        + varint_len(k.cards)
        + varint_len(cards_len as u64)
        + cards_len;
    put_len(k.results, varint_len(k.result_row) + varint_len(row_len as u64) + row_len, out);
    put_len(k.result_row, row_len, out);
    out.extend_from_slice(head);
    if st != 0 {
        put_key(k.strength, out);
        put_varint(st, out);
    }
    put_len(k.cards, cards_len, out);
    for c in order {
        out.extend_from_slice(&k.card_fields[c.0 as usize]);
    }
}

/// Appends a `results` entry written by prost.
fn put_result(k: &Keys, r: pb::shisanshui_evaluate_result::Result, out: &mut Vec<u8>) {
    prost::encoding::message::encode((k.results >> 3) as u32, &pb::ShisanshuiEvaluateResult { result: Some(r) }, out);
}

/// The answer (EvaluateResponse bytes) to the EvaluateRequest `data` when it is a 十三水
/// request of the shape taken; `Ok(None)`: answer it the prost way. `ctx` is made only
/// for a request taken (it names the call's game).
pub(crate) fn evaluate<'c>(data: &[u8], ctx: impl FnOnce() -> Ctx<'c>) -> Result<Option<Vec<u8>>, Fail> {
    use pb::shisanshui_evaluate_result::Result as R;
    let k = keys();
    let Some(body) = only_field(data, k.req_game) else { return Ok(None) };
    refuse_overfull(body, k)?;
    let Some(req) = read(body, k) else { return Ok(None) };
    let ctx = ctx();
    // As the prost path: the batch, the rules, the packed rows, then the items.
    let n = req.items.len();
    ctx.batch("items", n, n)?;
    let rules = rules_from(req.rules.as_ref(), &ctx)?;
    let packed_part = |cats: usize| if cats == 0 { 0 } else { varint_len(k.packed_categories) + varint_len(cats as u64) + cats };
    if n == 0 {
        // Packed rows only: the categories go straight into the answer (their number is
        // known before they are computed; a bad request fails and the buffer goes).
        let cats = row_size_of(req.row_size).map_or(0, |size| req.packed_rows.len() / size);
        let inner = packed_part(cats);
        let mut out = Vec::with_capacity(varint_len(k.resp_game) + varint_len(inner as u64) + inner);
        put_len(k.resp_game, inner, &mut out);
        if cats > 0 {
            put_len(k.packed_categories, cats, &mut out);
        }
        packed_into(req.packed_rows, req.row_size, &ctx, &mut out)?;
        return Ok(Some(out));
    }
    let mut cats = Vec::new();
    packed_into(req.packed_rows, req.row_size, &ctx, &mut cats)?;
    let mut results = Vec::with_capacity(n * 48);
    ctx.each_in(
        "items",
        req.items,
        &mut results,
        |out, _, item| {
            match item {
                Item::Row(cards, n) => {
                    let n = n as usize;
                    let (strength, order) = eval::classify_row(&cards[..n], &rules).map_err(only("row"))?;
                    put_row(k, strength, &order[..n], out);
                }
                Item::Other(item) => put_result(k, evaluate_item(*item, &rules)?, out),
            }
            Ok(())
        },
        |out, e| put_result(k, R::Error(e), out),
    )?;
    let inner = results.len() + packed_part(cats.len());
    let mut out = Vec::with_capacity(varint_len(k.resp_game) + varint_len(inner as u64) + inner);
    put_len(k.resp_game, inner, &mut out);
    out.extend_from_slice(&results);
    if !cats.is_empty() {
        put_len(k.packed_categories, cats.len(), &mut out);
        out.extend_from_slice(&cats);
    }
    Ok(Some(out))
}

/// Seconds of work per card-string row and per packed row of the fast path, as measured
/// on the benchmark machine under load (`_core.wire_answer` alone, thread CPU: ~0.6 µs
/// and ~4 ns), rounded up: what [`within`] estimates with.
const ROW_SECONDS: f64 = 0.8e-6;
const PACKED_ROW_SECONDS: f64 = 6e-9;
/// Longest card token of a row the event loop reads (`"10s"`, `" As "`: a few bytes).
const INLINE_TOKEN_BYTES: usize = 8;
/// Longest `rules` message the event loop reads: each option is a few bytes, so a longer
/// one holds an over-long value (e.g. a 16 MiB `suit_order`) or many repeated fields.
const INLINE_RULES_BYTES: usize = 256;

/// Whether a `ShisanshuiEvaluateItem`'s bytes are a row the event loop may read: the one
/// field `row`, of at most 5 cards of a few bytes each (anything else — a hand, an empty
/// `row` followed by a hand, thousands of tokens — is not priced and goes to a thread).
fn small_row(item: &[u8], k: &Keys) -> bool {
    let Some(mut cards) = only_field(item, k.item_row) else { return false };
    let mut n = 0;
    while !cards.is_empty() {
        n += 1;
        if n > 5 || prost::encoding::decode_varint(&mut cards).ok() != Some(k.card) {
            return false;
        }
        if take_len(&mut cards).is_none_or(|t| t.len() > INLINE_TOKEN_BYTES) {
            return false;
        }
    }
    true
}

/// Whether the EvaluateRequest `data` is a 十三水 request of small card-string rows
/// and/or packed rows whose work is estimated at most `budget` seconds, so it may run on
/// the event loop: provably small in bytes and in work. A walk over its fields (nothing
/// decoded) that stops as soon as the estimate passes the budget or a field is not of the
/// priced shape: each item a row of at most 5 short tokens, `rules` of at most
/// [`INLINE_RULES_BYTES`], each singular field once (a repeated one — which proto3 merges —
/// is priced by its bytes, i.e. not here), nothing else. Every byte read is thus in a
/// priced row, the packed rows, or at most a few hundred bytes besides.
pub(crate) fn within(data: &[u8], budget: f64) -> bool {
    let k = keys();
    let Some(mut m) = only_field(data, k.req_game) else { return false };
    let (mut rows, mut packed, mut row_size, mut had_rules) = (0usize, None::<usize>, None::<usize>, false);
    let max_rows = (budget / ROW_SECONDS) as usize;
    while !m.is_empty() {
        let Ok(key) = prost::encoding::decode_varint(&mut m) else { return false };
        let ok = if key == k.items {
            rows += 1;
            take_len(&mut m).is_some_and(|item| small_row(item, k))
        } else if key == k.packed_rows && packed.is_none() {
            take_len(&mut m).map(|p| packed = Some(p.len())).is_some()
        } else if key == k.row_size && row_size.is_none() {
            prost::encoding::decode_varint(&mut m).map(|v| row_size = Some(row_size_of(v as i32).unwrap_or(5))).is_ok()
        } else if key == k.rules && !had_rules {
            had_rules = true;
            take_len(&mut m).is_some_and(|r| r.len() <= INLINE_RULES_BYTES)
        } else {
            false
        };
        if !ok || rows > max_rows {
            return false;
        }
    }
    rows as f64 * ROW_SECONDS + (packed.unwrap_or(0) / row_size.unwrap_or(5)) as f64 * PACKED_ROW_SECONDS <= budget
}

/// Most cards a `Cards` message of an item can hold and still be answered: a deck.
const DECK: usize = 52;

/// Refuses, before anything is decoded, a request with an item whose `row` or `hand`
/// holds more card entries than a deck: no answer can come of it (a row has 3 or 5
/// cards, a hand 13), and decoding millions of tokens would hold a compute thread for
/// nothing. INVALID_ARGUMENT at `shisanshui.items[i].row` (or `.hand`); counting stops at
/// the first entry past the deck, so it costs a walk over the items' keys at most.
fn refuse_overfull(mut m: &[u8], k: &Keys) -> Result<(), Fail> {
    let mut i = 0usize;
    while !m.is_empty() {
        let Ok(key) = prost::encoding::decode_varint(&mut m) else { return Ok(()) };
        let body = match key & 7 {
            2 => match take_len(&mut m) {
                Some(b) => b,
                None => return Ok(()), // not a valid message: prost says so
            },
            _ => return Ok(()), // not the fast shape: prost reads it
        };
        if key != k.items {
            continue;
        }
        let mut item = body;
        while !item.is_empty() {
            let Ok(field) = prost::encoding::decode_varint(&mut item) else { break };
            if field & 7 != 2 {
                break;
            }
            let Some(mut cards) = take_len(&mut item) else { break };
            let name = if field == k.item_row {
                "row"
            } else if field == k.item_hand {
                "hand"
            } else {
                continue;
            };
            let mut n = 0usize;
            while !cards.is_empty() && n <= DECK {
                if prost::encoding::decode_varint(&mut cards).ok() != Some(k.card) || take_len(&mut cards).is_none() {
                    break;
                }
                n += 1;
            }
            if n > DECK {
                return Err(Fail::bad(
                    format!("shisanshui.items[{i}].{name}"),
                    format!("more than {DECK} cards (a deck): no answer can come of it; the request is refused before the rest is read"),
                    handeval_core::Reason::Invalid,
                ));
            }
        }
        i += 1;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cards(tokens: &[&str]) -> pb::Cards {
        pb::Cards { cards: tokens.iter().map(|t| t.to_string()).collect() }
    }

    fn row(tokens: &[&str]) -> pb::ShisanshuiEvaluateItem {
        pb::ShisanshuiEvaluateItem { item: Some(pb::shisanshui_evaluate_item::Item::Row(cards(tokens))) }
    }

    fn request(body: Vec<u8>) -> Vec<u8> {
        // The game field around raw body bytes (repeats and field order kept as written).
        let k = keys();
        let mut out = Vec::new();
        put_len(k.req_game, body.len(), &mut out);
        out.extend_from_slice(&body);
        out
    }

    fn body(req: pb::ShisanshuiEvaluateRequest) -> Vec<u8> {
        req.encode_to_vec()
    }

    #[test]
    fn small_rows_and_packed_rows_are_priced_for_the_loop() {
        let rows = body(pb::ShisanshuiEvaluateRequest { items: vec![row(&["As", "Ks", "Qs", "Js", "Ts"]); 500], ..Default::default() });
        assert!(within(&request(rows), 1e-3));
        let packed = body(pb::ShisanshuiEvaluateRequest { packed_rows: [0, 1, 2, 3, 4].repeat(10_000), row_size: 5, ..Default::default() });
        assert!(within(&request(packed.clone()), 1e-3));
        // Over the budget in work (rows) or in packed rows.
        let many = body(pb::ShisanshuiEvaluateRequest { items: vec![row(&["As", "Ks", "Qs"]); 2_000], ..Default::default() });
        assert!(!within(&request(many), 1e-3));
        assert!(!within(&request(packed), 1e-5));
    }

    #[test]
    fn shapes_that_imply_more_work_than_their_count_are_not_priced_for_the_loop() {
        let one =
            |item: pb::ShisanshuiEvaluateItem| request(body(pb::ShisanshuiEvaluateRequest { items: vec![item], ..Default::default() }));
        // More than 5 tokens, a long token, a hand.
        assert!(!within(&one(row(&["As", "Ks", "Qs", "Js", "Ts", "9s"])), 1.0));
        assert!(!within(&one(row(&["As", &"x".repeat(9)])), 1.0));
        assert!(within(&one(row(&["As", &"x".repeat(8)])), 1.0));
        assert!(!within(&one(pb::ShisanshuiEvaluateItem { item: Some(pb::shisanshui_evaluate_item::Item::Hand(cards(&["As"]))) }), 1.0));
        // An empty row, then a hand in the same item (the oneof keeps the hand).
        let mut item = row(&[]).encode_to_vec();
        item.extend(
            pb::ShisanshuiEvaluateItem { item: Some(pb::shisanshui_evaluate_item::Item::Hand(cards(&["As"; 100]))) }.encode_to_vec(),
        );
        let mut b = Vec::new();
        put_len(keys().items, item.len(), &mut b);
        b.extend(item);
        assert!(!within(&request(b), 1.0));
        // A repeated singular field (proto3 merges it): priced by its bytes, not inline.
        let size = body(pb::ShisanshuiEvaluateRequest { row_size: 5, ..Default::default() });
        assert!(within(&request(size.clone()), 1.0));
        assert!(!within(&request(size.repeat(2)), 1.0));
        let rules = body(pb::ShisanshuiEvaluateRequest { rules: Some(Default::default()), ..Default::default() });
        assert!(!within(&request(rules.repeat(2)), 1.0));
        // A long rules message (e.g. an over-long suit order).
        let long = |n: usize| {
            body(pb::ShisanshuiEvaluateRequest {
                rules: Some(pb::ShisanshuiRules { suit_order: Some("s".repeat(n)), ..Default::default() }),
                ..Default::default()
            })
        };
        assert!(within(&request(long(4)), 1.0));
        assert!(!within(&request(long(INLINE_RULES_BYTES)), 1.0));
    }

    #[test]
    fn a_row_or_hand_of_more_cards_than_a_deck_fails_the_request_at_its_field() {
        let k = keys();
        let tokens: Vec<&str> = vec!["As"; DECK + 1];
        let hand = pb::ShisanshuiEvaluateItem { item: Some(pb::shisanshui_evaluate_item::Item::Hand(cards(&tokens))) };
        for (item, field) in [(row(&tokens), "shisanshui.items[1].row"), (hand, "shisanshui.items[1].hand")] {
            let b = body(pb::ShisanshuiEvaluateRequest { items: vec![row(&["As", "Ks", "Qs"]), item], ..Default::default() });
            match refuse_overfull(&b, k) {
                Err(Fail::Bad { field: f, reason, .. }) => {
                    assert_eq!(f, field);
                    assert_eq!(reason, handeval_core::Reason::Invalid);
                }
                other => panic!("{other:?}"),
            }
        }
        // A deck's worth is answered item by item (a row of 52 cards is that item's error).
        let b = body(pb::ShisanshuiEvaluateRequest { items: vec![row(&tokens[..DECK])], ..Default::default() });
        assert!(refuse_overfull(&b, k).is_ok());
    }
}
