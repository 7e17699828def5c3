//! The 打儲 `Rules` class and the argument readers the binding's files share (a file of
//! its own, so that they import it and not the module that registers them).

use crate::conv::{bad, int_from, list_from, opt, IntoPyResult};
use crate::native_class;
use crate::rules::rules_arg;
use handeval_core::dachu::{self as dc, Chu};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString, PyTuple};

// ---- Rules ----

handeval_core::dachu_rule_options!(native_class! {
    rules:
    /// House-rule options of 打儲 (docs/rules.md §3), keyword-only; an option not given
    /// is its default. Validated when constructed: a bad value is a HandevalError naming
    /// the option (``.field == "rules.<option>"``).
    pub struct DachuRules(core = dc::Rules, game = "dachu", module = "handeval.dachu");
});

pub(super) fn rules_from(obj: Option<&Bound<'_, PyAny>>) -> PyResult<dc::Rules> {
    rules_arg::<DachuRules>(obj)
}

/// The rules as a `dachu.Rules` object (what the pickles of the states carry).
pub(super) fn rules_py<'py>(py: Python<'py>, rules: &dc::Rules) -> PyResult<Bound<'py, DachuRules>> {
    Bound::new(py, DachuRules { core: rules.clone() })
}

// ---- arguments ----

pub(super) fn chu_from(obj: &Bound<'_, PyAny>) -> PyResult<Chu> {
    let s: String = obj.extract().map_err(|_| bad("chu", "must be \"red\" or \"black\""))?;
    Chu::parse(&s).py()
}

pub(super) fn seat_from(obj: &Bound<'_, PyAny>, field: &str) -> PyResult<usize> {
    let v = int_from(obj, field)?;
    if !(0..4).contains(&v) {
        return Err(crate::conv::bad_as(field, format!("unknown seat {v} (打儲 seats are 0..3)"), handeval_core::Reason::OutOfRange));
    }
    Ok(v as usize)
}

/// An optional seat.
pub(super) fn opt_seat(obj: Option<&Bound<'_, PyAny>>, field: &str) -> PyResult<Option<usize>> {
    opt(obj, |o| seat_from(o, field))
}

/// An optional list of seats (left out: none).
pub(super) fn seats_from(obj: Option<&Bound<'_, PyAny>>, field: &str) -> PyResult<Vec<usize>> {
    Ok(opt(obj, |o| list_from(o, field, seat_from))?.unwrap_or_default())
}

/// An optional integer (left out: `default`).
pub(super) fn int_or(obj: Option<&Bound<'_, PyAny>>, field: &str, default: i64) -> PyResult<i64> {
    Ok(opt(obj, |o| int_from(o, field))?.unwrap_or(default))
}

// ---- actions and records ----

/// An action tuple: its name and the rest of its items.
pub(super) fn action_parts<'py>(action: &Bound<'py, PyAny>) -> PyResult<(String, Vec<Bound<'py, PyAny>>)> {
    if action.is_instance_of::<PyString>() {
        return Ok((action.extract().map_err(|_| bad("action", "is not valid text"))?, Vec::new()));
    }
    if !(action.is_instance_of::<PyTuple>() || action.is_instance_of::<PyList>()) {
        return Err(bad("action", "expected a tuple (name, seat, ...) or a name"));
    }
    let items: Vec<Bound<'py, PyAny>> = action.try_iter()?.collect::<PyResult<_>>()?;
    let Some(first) = items.first() else { return Err(bad("action", "is empty")) };
    let name: String = first.extract().map_err(|_| bad("action.name", "must be the action's name"))?;
    Ok((name, items[1..].to_vec()))
}

pub(super) fn arity(name: &str, rest: &[Bound<'_, PyAny>], min: usize, max: usize) -> PyResult<()> {
    if rest.len() < min || rest.len() > max {
        let want = if min == max { format!("{min}") } else { format!("{min} or {max}") };
        return Err(crate::conv::bad_as(
            "action",
            format!("{name:?} takes {want} argument(s) after its name, got {}", rest.len()),
            handeval_core::Reason::WrongCount,
        ));
    }
    Ok(())
}

/// A core error of an `apply(action)`: its fields are the action's parts, named under the
/// parameter `action` (`cards` → `action.cards`; the core's `action`, or none, is `action`).
pub(super) fn in_action(e: handeval_core::Error) -> handeval_core::Error {
    match e.field.as_deref() {
        Some("action") => e,
        None => handeval_core::Error { field: Some("action".into()), ..e },
        Some(_) => e.within("action"),
    }
}

/// A pyo3 error renamed inside `field` (`action.cards` → `plays[3].cards`), of the
/// action at `index` of its list.
pub(super) fn renamed(py: Python<'_>, e: PyErr, field: &str, index: usize) -> PyErr {
    if !e.is_instance_of::<crate::conv::HandevalError>(py) {
        return e;
    }
    let v = e.value(py);
    let inner: Option<String> = v.getattr("field").ok().and_then(|f| f.extract().ok());
    let inner = inner.map(|f| f.strip_prefix("action").map(|r| r.to_string()).unwrap_or(format!(".{f}")));
    let path = format!("{field}{}", inner.unwrap_or_default());
    let _ = v.setattr("field", &path);
    let desc: String = v.getattr("description").and_then(|d| d.extract()).unwrap_or_default();
    let reason: String = v.getattr("reason").and_then(|d| d.extract()).unwrap_or_default();
    let err = crate::conv::HandevalError::new_err(format!("{path}: {desc}"));
    let nv = err.value(py);
    let _ = nv.setattr("field", path);
    let _ = nv.setattr("description", desc);
    let _ = nv.setattr("reason", reason);
    let _ = nv.setattr("action_index", index);
    err
}

/// `apply` each action of `actions` in turn, from `state` (pickling's replays, whose
/// records are the states' own: an error is the one `apply` raised).
pub(super) fn replay_each<S>(state: S, actions: &Bound<'_, PyAny>, apply: impl Fn(&S, &Bound<'_, PyAny>) -> PyResult<S>) -> PyResult<S> {
    actions.try_iter()?.try_fold(state, |s, a| apply(&s, &a?))
}
/// Each entry of `list` read by `read`, or its error named `field[i]` (a list that cannot
/// be walked is an error at once): the core decides which error a record gets.
pub(super) fn each_entry<T>(
    list: &Bound<'_, PyAny>,
    field: &str,
    read: impl Fn(&Bound<'_, PyAny>) -> PyResult<T>,
) -> PyResult<Vec<PyResult<T>>> {
    list.try_iter()?.enumerate().map(|(i, a)| Ok(read(&a?).map_err(|e| renamed(list.py(), e, &format!("{field}[{i}]"), i)))).collect()
}

/// A viewer seat (the core's [`viewer_seat`](handeval_core::dachu::view::viewer_seat)).
pub(super) fn view_seat(seat: &Bound<'_, PyAny>) -> PyResult<usize> {
    handeval_core::dachu::view::viewer_seat(crate::conv::int_from(seat, "seat")?).py()
}
