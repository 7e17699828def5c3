//! Conversions shared by every game: cards, integers, optional lists, errors.

use handeval_core::cards::{self, Card};
use handeval_core::{money, Error};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString, PyTuple};

pyo3::create_exception!(
    handeval._core,
    HandevalError,
    pyo3::exceptions::PyValueError,
    "Bad input to handeval. `.field` is the path of the bad input (e.g. `players[1].front`) or None, `.description` says what is wrong, `.reason` names the kind of mistake for programs (`\"bad_card\"`, `\"duplicate_card\"`, `\"not_your_turn\"`…; `\"invalid\"` when no narrower kind fits), and `str()` is `\"field: description\"`."
);

/// Map a core error to `HandevalError` with `.field` and `.description` kept apart
/// (nobody downstream re-parses the sentence).
pub(crate) fn to_py(e: Error) -> PyErr {
    Python::attach(|py| {
        let err = HandevalError::new_err(e.to_string());
        let v = err.value(py);
        let _ = v.setattr(pyo3::intern!(py, "field"), e.field);
        let _ = v.setattr(pyo3::intern!(py, "description"), e.message);
        let _ = v.setattr(pyo3::intern!(py, "reason"), e.reason.as_str());
        let _ = v.setattr(pyo3::intern!(py, "action_index"), e.action_index);
        err
    })
}

/// A `HandevalError` whose field starts at `from` (`cards`, `cards[2]`, `cards.x`), named
/// from `to` instead: the Python API's parameter when the core's differs. Other errors
/// pass unchanged.
pub(crate) fn field_renamed(e: PyErr, from: &str, to: &str) -> PyErr {
    Python::attach(|py| {
        if !e.is_instance_of::<HandevalError>(py) {
            return e;
        }
        let v = e.value(py);
        let field: Option<String> = v.getattr("field").ok().and_then(|f| f.extract().ok());
        let Some(rest) = field.as_deref().and_then(|f| f.strip_prefix(from)).filter(|r| r.is_empty() || r.starts_with(['.', '['])) else {
            return e;
        };
        let path = format!("{to}{rest}");
        let desc: String = v.getattr("description").and_then(|d| d.extract()).unwrap_or_default();
        let err = HandevalError::new_err(format!("{path}: {desc}"));
        let nv = err.value(py);
        let _ = nv.setattr("field", path);
        let _ = nv.setattr("description", desc);
        for attr in ["reason", "action_index"] {
            if let Ok(x) = v.getattr(attr) {
                let _ = nv.setattr(attr, x);
            }
        }
        err
    })
}

/// The same `HandevalError`, of another reason (for an error raised by the binding's own
/// conversions, e.g. a rule option's integer).
pub(crate) fn with_reason(e: PyErr, reason: handeval_core::Reason) -> PyErr {
    Python::attach(|py| {
        let _ = e.value(py).setattr(pyo3::intern!(py, "reason"), reason.as_str());
    });
    e
}

pub(crate) trait IntoPyResult<T> {
    fn py(self) -> PyResult<T>;
}

impl<T> IntoPyResult<T> for Result<T, Error> {
    fn py(self) -> PyResult<T> {
        self.map_err(to_py)
    }
}

pub(crate) fn bad(field: &str, message: impl Into<String>) -> PyErr {
    to_py(Error::field(field, message))
}

/// [`bad`] of a given reason.
pub(crate) fn bad_as(field: &str, message: impl Into<String>, reason: handeval_core::Reason) -> PyErr {
    to_py(Error::field(field, message).because(reason))
}

pub(crate) fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type().name().map(|n| n.to_string()).unwrap_or_else(|_| "?".into())
}

/// Rank (0..=12) and suit (0..=3) of each ASCII character, as the core parser reads them
/// (ranks and suits use disjoint letters, either case); `NONE` for anything else.
const NONE: u8 = 0xFF;
/// `table[c] = i` for the i-th character of `upper` and of `lower` (the same letters in
/// the other case).
const fn index_table(upper: &[u8], lower: &[u8]) -> [u8; 128] {
    let mut table = [NONE; 128];
    let mut i = 0;
    while i < upper.len() {
        table[upper[i] as usize] = i as u8;
        table[lower[i] as usize] = i as u8;
        i += 1;
    }
    table
}
const ASCII: ([u8; 128], [u8; 128]) = (index_table(b"23456789TJQKA", b"23456789tjqka"), index_table(b"SHDC", b"shdc"));

#[inline]
fn ascii_rank(c: u8) -> Option<u8> {
    let r = *ASCII.0.get(c as usize)?;
    (r != NONE).then_some(r)
}

#[inline]
fn ascii_suit(c: u8) -> Option<u8> {
    let s = *ASCII.1.get(c as usize)?;
    (s != NONE).then_some(s)
}

/// One card token of the common ASCII forms: `As`, `sA`, `10d`, `d10` (any case).
#[inline]
fn ascii_card(t: &[u8]) -> Option<Card> {
    let (r, s) = match t {
        [a, b] => ascii_rank(*a).zip(ascii_suit(*b)).or_else(|| ascii_rank(*b).zip(ascii_suit(*a)))?,
        [b'1', b'0', b] => (8, ascii_suit(*b)?),
        [a, b'1', b'0'] => (8, ascii_suit(*a)?),
        _ => return None,
    };
    Some(Card::new(r, s))
}

/// The fast path of every card argument: cards of a string of single-space-separated
/// ASCII tokens, or of a list of one-token strings; distinct cards only. `None` for
/// anything else (commas, symbols, padding, a bad or repeated card), which the core
/// parser in [`cards_from`] then reads with its full error messages. Accepts a subset of
/// what the core accepts, with the same cards (tests/test_cards.py checks both).
pub(crate) fn quick_cards(obj: &Bound<'_, PyAny>) -> Option<Vec<Card>> {
    let mut buf = [Card(0); 52];
    let n = quick_cards_into(obj, &mut buf)?;
    Some(buf[..n].to_vec())
}

/// [`quick_cards`] into `out` (no allocation); `None` also when more than `out.len()`
/// cards are given.
pub(crate) fn quick_cards_into(obj: &Bound<'_, PyAny>, out: &mut [Card]) -> Option<usize> {
    if let Ok(s) = obj.cast::<PyString>() {
        if let Some(n) = canonical_cards(s.to_str().ok()?.as_bytes(), out) {
            return Some(n);
        }
    }
    let mut seen = 0u64;
    let mut n = 0;
    let mut push = |c: Card| {
        if seen & c.bit() != 0 || n == out.len() {
            return None;
        }
        seen |= c.bit();
        out[n] = c;
        n += 1;
        Some(())
    };
    // `to_str` borrows the str's UTF-8 (no copy for the usual ASCII strings); a
    // non-ASCII byte is in no table, so such text falls through to the core parser.
    if let Ok(s) = obj.cast::<PyString>() {
        let text = s.to_str().ok()?.as_bytes();
        if !text.is_empty() {
            for t in text.split(|&c| c == b' ') {
                push(ascii_card(t)?)?;
            }
        }
    } else if let Ok(l) = obj.cast::<PyList>() {
        for item in l.iter() {
            push(ascii_card(item.cast::<PyString>().ok()?.to_str().ok()?.as_bytes())?)?;
        }
    } else {
        return None;
    }
    Some(n)
}

/// An optional argument: `None` when absent or Python `None`.
pub(crate) fn given<'a, 'py>(value: Option<&'a Bound<'py, PyAny>>) -> Option<&'a Bound<'py, PyAny>> {
    value.filter(|v| !v.is_none())
}

/// An optional argument read by `read`: `None` when absent or Python `None`.
pub(crate) fn opt<'py, T>(value: Option<&Bound<'py, PyAny>>, read: impl FnOnce(&Bound<'py, PyAny>) -> PyResult<T>) -> PyResult<Option<T>> {
    given(value).map(read).transpose()
}

/// An optional flag: absent or `None` is false, else `True`/`False` ([`bool_from`]).
pub(crate) fn opt_flag(value: Option<&Bound<'_, PyAny>>, field: &str) -> PyResult<bool> {
    Ok(opt(value, |v| bool_from(v, field))?.unwrap_or(false))
}

/// The canonical text form (`"As Kd Qh"`: two-letter tokens, single spaces, either case),
/// distinct cards, at most `out.len()`: the common case of [`quick_cards_into`], read
/// without splitting. `None` for anything else (then read by the general loop).
#[inline]
fn canonical_cards(text: &[u8], out: &mut [Card]) -> Option<usize> {
    if text.len() % 3 != 2 || text.len() / 3 >= out.len() {
        return None;
    }
    let mut seen = 0u64;
    for (i, t) in text.chunks(3).enumerate() {
        if t.len() == 3 && t[2] != b' ' {
            return None;
        }
        let c = Card::new(ascii_rank(t[0])?, ascii_suit(t[1])?);
        if seen & c.bit() != 0 {
            return None;
        }
        seen |= c.bit();
        out[i] = c;
    }
    Some(text.len() / 3 + 1)
}

/// Cards from a string (`"As Td"`) or a list/tuple of one-card strings.
pub(crate) fn cards_from(obj: &Bound<'_, PyAny>, field: &str) -> PyResult<Vec<Card>> {
    if let Some(cards) = quick_cards(obj) {
        return Ok(cards);
    }
    if obj.is_instance_of::<PyString>() {
        let s: String = obj.extract().map_err(|_| bad(field, "is not valid text"))?;
        return cards::parse_cards(&s).map_err(|e| to_py(e.within(field)));
    }
    if obj.is_instance_of::<PyList>() || obj.is_instance_of::<PyTuple>() {
        let mut tokens: Vec<String> = Vec::new();
        for (i, item) in obj.try_iter()?.enumerate() {
            let item = item?;
            if !item.is_instance_of::<PyString>() {
                return Err(bad(field, format!("item {i} is a {}, not a card string", type_name(&item))));
            }
            tokens.push(item.extract().map_err(|_| bad(field, format!("item {i} is not valid text")))?);
        }
        return cards::parse_tokens(&tokens).map_err(|e| to_py(e.within(field)));
    }
    Err(bad(field, format!("expected cards as a string or a list of strings, got {}", type_name(obj))))
}

/// The base stake (底分) of every game's settle: an integer, or None (left out) for 1
/// (RULES §0: where the base may be omitted, every game treats it alike).
pub(crate) fn base_from(obj: Option<&Bound<'_, PyAny>>) -> PyResult<i64> {
    given(obj).map_or(Ok(1), |b| int_from(b, "base"))
}

pub(crate) fn card_strings(cards: &[Card]) -> Vec<String> {
    cards.iter().map(|c| c.to_string()).collect()
}

/// An integer that fits in i64 (bools are refused: they are almost always a mistake).
pub(crate) fn int_from(obj: &Bound<'_, PyAny>, field: &str) -> PyResult<i64> {
    if obj.is_instance_of::<pyo3::types::PyBool>() || !obj.is_instance_of::<pyo3::types::PyInt>() {
        return Err(bad(field, format!("expected an integer, got {}", type_name(obj))));
    }
    obj.extract::<i64>().map_err(|_| bad_as(field, "does not fit in a 64-bit integer", handeval_core::Reason::OutOfRange))
}

/// A bool (only `True`/`False`: a bad flag is a HandevalError, not a TypeError).
pub(crate) fn bool_from(obj: &Bound<'_, PyAny>, field: &str) -> PyResult<bool> {
    obj.extract::<bool>().map_err(|_| bad(field, format!("expected True or False, got {}", type_name(obj))))
}

/// A list or tuple (not a string).
pub(crate) fn check_list(obj: &Bound<'_, PyAny>, field: &str) -> PyResult<()> {
    if obj.is_instance_of::<PyString>() || !(obj.is_instance_of::<PyList>() || obj.is_instance_of::<PyTuple>()) {
        return Err(bad(field, format!("expected a list, got {}", type_name(obj))));
    }
    Ok(())
}

/// A list (or tuple) of items converted one by one, errors naming `field[i]`.
pub(crate) fn list_from<T>(
    obj: &Bound<'_, PyAny>,
    field: &str,
    mut item: impl FnMut(&Bound<'_, PyAny>, &str) -> PyResult<T>,
) -> PyResult<Vec<T>> {
    check_list(obj, field)?;
    let mut out = Vec::new();
    for (i, x) in obj.try_iter()?.enumerate() {
        out.push(item(&x?, &format!("{field}[{i}]"))?);
    }
    Ok(out)
}

/// `None` or a list of optional integers (carried-in amounts).
pub(crate) fn carried_from(obj: Option<&Bound<'_, PyAny>>, field: &str) -> PyResult<Option<Vec<Option<i64>>>> {
    match obj {
        None => Ok(None),
        Some(o) if o.is_none() => Ok(None),
        Some(o) => Ok(Some(list_from(o, field, |x, f| if x.is_none() { Ok(None) } else { int_from(x, f).map(Some) })?)),
    }
}

#[pyfunction]
fn parse_cards(cards: &Bound<'_, PyAny>) -> PyResult<Vec<String>> {
    Ok(card_strings(&cards_from(cards, "cards")?))
}

#[pyfunction]
fn card_ids(cards: &Bound<'_, PyAny>) -> PyResult<Vec<u8>> {
    Ok(cards_from(cards, "cards")?.iter().map(|c| c.0).collect())
}

#[pyfunction]
#[pyo3(signature = (theoretical, carried))]
fn cap(theoretical: &Bound<'_, PyAny>, carried: &Bound<'_, PyAny>) -> PyResult<Vec<i64>> {
    let t = list_from(theoretical, "theoretical", int_from)?;
    let c = carried_from(Some(carried), "carried")?.unwrap_or_else(|| vec![None; t.len()]);
    money::cap(&t, &c).py()
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(parse_cards, m)?)?;
    m.add_function(wrap_pyfunction!(card_ids, m)?)?;
    m.add_function(wrap_pyfunction!(cap, m)?)?;
    Ok(())
}
