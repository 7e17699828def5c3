//! What the bindings of the card games with plays (越式13张, 打儲) share, written once:
//! the interned names of a play kind, the check of a `Play(...)` constructor's fields, the
//! cards of every seat as lists, and the parts of the game-record state classes that are
//! the same logic in each game (`check(action)` and pickling by replaying).

use crate::result::{card_list, item_error, Names};
use handeval_core::cards::Card;
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString, PyTuple};
use pyo3::PyClass;

/// The interned names (`kind`, `kind_zh`) of a game's play kinds: `legal_plays` returns
/// dozens of plays per call. One static per game, e.g.
/// `static NAMES: KindNames = KindNames::new(); NAMES.get(py, k as usize, &Kind::ALL, Kind::name, Kind::name_zh)`.
pub(crate) struct KindNames(Names, Names);

impl KindNames {
    pub(crate) const fn new() -> Self {
        KindNames(Names::new(), Names::new())
    }

    /// The names of kind number `i` of `all` (the game's kinds, in their enum's order).
    pub(crate) fn get<'py, K: Copy>(
        &self,
        py: Python<'py>,
        i: usize,
        all: &[K],
        name: fn(K) -> &'static str,
        name_zh: fn(K) -> &'static str,
    ) -> (Bound<'py, PyString>, Bound<'py, PyString>) {
        let names = |f: fn(K) -> &'static str| move || all.iter().map(|&k| f(k)).collect();
        (self.0.get(py, i, names(name)), self.1.get(py, i, names(name_zh)))
    }
}

/// The first `(field, value)` of `given` that `me`'s field does not equal, as `(field,
/// repr of me's, repr of the given)`; None when all agree. A `Play(kind, …, cards, …)`
/// constructor checks so that its cards make the play it is told.
pub(crate) fn first_mismatch<T: PyClass>(
    me: &Bound<'_, T>,
    given: &[(&'static str, &Bound<'_, PyAny>)],
) -> PyResult<Option<(&'static str, String, String)>> {
    for &(name, value) in given {
        let actual = me.as_any().getattr(name)?;
        if !actual.eq(value)? {
            return Ok(Some((name, actual.repr()?.to_string(), value.repr()?.to_string())));
        }
    }
    Ok(None)
}

/// Each seat's cards as a list of card strings (a game's `hands`, `held`).
pub(crate) fn card_lists<'py, C: AsRef<[Card]>>(py: Python<'py>, seats: impl IntoIterator<Item = C>) -> PyResult<Vec<Bound<'py, PyList>>> {
    seats.into_iter().map(|c| card_list(py, c.as_ref())).collect()
}

/// A state class's `check(action)`: the HandevalError its `apply(action)` gave, as an
/// instance (not raised), or None when the action was allowed. Any other error is raised.
pub(crate) fn check<S>(py: Python<'_>, applied: PyResult<S>) -> PyResult<Option<Py<PyAny>>> {
    match applied {
        Ok(_) => Ok(None),
        Err(e) => item_error(py, e).map(Some),
    }
}

/// A state class's `__reduce__`: `(handeval._core.<replay>, args)`, rebuilt by replaying
/// its record.
pub(crate) fn replay_reduce<'py>(py: Python<'py>, replay: &str, args: impl IntoPyObject<'py>) -> PyResult<Bound<'py, PyTuple>> {
    let replay = py.import("handeval._core")?.getattr(replay)?;
    (replay, args).into_pyobject(py)
}

/// The arguments of the games' `suggest(seat=None, *, seed=0, effort=None)`: the seat (None:
/// the caller's default), a seed ≥ 0 and an effort in 0..=MAX_EFFORT (None: the default).
pub(crate) fn suggest_args(
    seat: Option<&Bound<'_, PyAny>>,
    seed: Option<&Bound<'_, PyAny>>,
    effort: Option<&Bound<'_, PyAny>>,
) -> PyResult<(Option<usize>, u64, u32)> {
    use handeval_core::tienlen::suggest::{DEFAULT_EFFORT, MAX_EFFORT};
    let seat = match crate::conv::given(seat) {
        Some(s) => {
            let v = crate::conv::int_from(s, "seat")?;
            if !(0..4).contains(&v) {
                return Err(crate::conv::bad_as("seat", format!("must be a seat 0..3 (got {v})"), handeval_core::Reason::OutOfRange));
            }
            Some(v as usize)
        }
        None => None,
    };
    let seed = match crate::conv::given(seed) {
        Some(s) => {
            let v = crate::conv::int_from(s, "seed")?;
            if v < 0 {
                return Err(crate::conv::bad_as("seed", format!("must be ≥ 0 (got {v})"), handeval_core::Reason::OutOfRange));
            }
            v as u64
        }
        None => 0,
    };
    let effort = match crate::conv::given(effort) {
        Some(e) => {
            let v = crate::conv::int_from(e, "effort")?;
            if !(0..=MAX_EFFORT as i64).contains(&v) {
                return Err(crate::conv::bad_as("effort", format!("must be 0..{MAX_EFFORT} (got {v})"), handeval_core::Reason::OutOfRange));
            }
            v as u32
        }
        None => DEFAULT_EFFORT,
    };
    Ok((seat, seed, effort))
}

/// [`crate::conv::list_from`] for a record's actions: an error in item `i` also carries
/// `action_index` `i` (as the core's replay and the wire name it), unless it has one.
pub(crate) fn actions_from<T>(
    obj: &Bound<'_, PyAny>,
    field: &str,
    mut item: impl FnMut(&Bound<'_, PyAny>, &str) -> PyResult<T>,
) -> PyResult<Vec<T>> {
    let mut index = 0usize;
    crate::conv::list_from(obj, field, |x, f| {
        let out = item(x, f).inspect_err(|e| {
            let py = x.py();
            if e.is_instance_of::<crate::conv::HandevalError>(py) {
                let v = e.value(py);
                if v.getattr("action_index").is_ok_and(|a| a.is_none()) {
                    let _ = v.setattr("action_index", index);
                }
            }
        });
        index += 1;
        out
    })
}
