//! Conversions shared by every game: cards, integers, optional lists, errors.

use handeval_core::cards::{self, Card};
use handeval_core::{money, Error};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString, PyTuple};

pyo3::create_exception!(
    handeval._core,
    HandevalError,
    pyo3::exceptions::PyValueError,
    "Bad input to handeval. `.field` is the path of the bad input (e.g. `players[1].front`) or None, `.description` says what is wrong, and `str()` is `\"field: description\"`."
);

/// Map a core error to `HandevalError` with `.field` and `.description` kept apart
/// (nobody downstream re-parses the sentence).
pub fn to_py(e: Error) -> PyErr {
    Python::attach(|py| {
        let err = HandevalError::new_err(e.to_string());
        let v = err.value(py);
        let _ = v.setattr(pyo3::intern!(py, "field"), e.field);
        let _ = v.setattr(pyo3::intern!(py, "description"), e.message);
        err
    })
}

pub trait IntoPyResult<T> {
    fn py(self) -> PyResult<T>;
}

impl<T> IntoPyResult<T> for Result<T, Error> {
    fn py(self) -> PyResult<T> {
        self.map_err(to_py)
    }
}

pub fn bad(field: &str, message: impl Into<String>) -> PyErr {
    to_py(Error::field(field, message))
}

pub fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type().name().map(|n| n.to_string()).unwrap_or_else(|_| "?".into())
}

/// Cards of a string or a list of one-card strings, without building any error text
/// (the hot path of every call): `None` when anything is off, and the caller re-parses
/// with [`cards_from`]'s detailed path for the error.
pub fn quick_cards(obj: &Bound<'_, PyAny>) -> Option<Vec<Card>> {
    if let Ok(s) = obj.cast::<PyString>() {
        return cards::parse_cards(&s.to_cow().ok()?).ok();
    }
    if let Ok(l) = obj.cast::<PyList>() {
        let mut out = Vec::with_capacity(l.len());
        let mut seen = 0u64;
        for item in l.iter() {
            let c = cards::parse_card(item.cast::<PyString>().ok()?.to_cow().ok()?.trim()).ok()?;
            if seen & c.bit() != 0 {
                return None;
            }
            seen |= c.bit();
            out.push(c);
        }
        return Some(out);
    }
    None
}

/// Cards from a string (`"As Td"`) or a list/tuple of one-card strings.
pub fn cards_from(obj: &Bound<'_, PyAny>, field: &str) -> PyResult<Vec<Card>> {
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

pub fn card_strings(cards: &[Card]) -> Vec<String> {
    cards.iter().map(|c| c.to_string()).collect()
}

/// An integer that fits in i64 (bools are refused: they are almost always a mistake).
pub fn int_from(obj: &Bound<'_, PyAny>, field: &str) -> PyResult<i64> {
    if obj.is_instance_of::<pyo3::types::PyBool>() || !obj.is_instance_of::<pyo3::types::PyInt>() {
        return Err(bad(field, format!("expected an integer, got {}", type_name(obj))));
    }
    obj.extract::<i64>().map_err(|_| bad(field, "does not fit in a 64-bit integer"))
}

/// A bool (only `True`/`False`: a bad flag is a HandevalError, not a TypeError).
pub fn bool_from(obj: &Bound<'_, PyAny>, field: &str) -> PyResult<bool> {
    obj.extract::<bool>().map_err(|_| bad(field, format!("expected True or False, got {}", type_name(obj))))
}

/// A list (or tuple) of items converted one by one, errors naming `field[i]`.
pub fn list_from<T>(
    obj: &Bound<'_, PyAny>,
    field: &str,
    mut item: impl FnMut(&Bound<'_, PyAny>, &str) -> PyResult<T>,
) -> PyResult<Vec<T>> {
    if obj.is_instance_of::<PyString>() || !(obj.is_instance_of::<PyList>() || obj.is_instance_of::<PyTuple>()) {
        return Err(bad(field, format!("expected a list, got {}", type_name(obj))));
    }
    let mut out = Vec::new();
    for (i, x) in obj.try_iter()?.enumerate() {
        out.push(item(&x?, &format!("{field}[{i}]"))?);
    }
    Ok(out)
}

/// `None` or a list of optional integers (carried-in amounts).
pub fn carried_from(obj: Option<&Bound<'_, PyAny>>, field: &str) -> PyResult<Option<Vec<Option<i64>>>> {
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

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(parse_cards, m)?)?;
    m.add_function(wrap_pyfunction!(card_ids, m)?)?;
    m.add_function(wrap_pyfunction!(cap, m)?)?;
    Ok(())
}
