//! Native rule classes: how a game's `Rules` is declared, validated and read (the
//! `handeval.Rules` bundle of every game's part is in `bundle.rs`, above the games).
//!
//! A game's `Rules` is a frozen pyclass wrapping the core struct (`core`), declared by
//! the `rules:` form of [`crate::native_class!`] from the core's list of its options (the
//! same list declares the core struct, so each option's description is written once) and
//! registered in `_core` as `<Game>Rules` with Python name `Rules` in module
//! `handeval.<game>`:
//! * its constructor takes keyword-only options; an absent (or `None`) option is the core
//!   default (`Rules::default()`, the one definition of every default); each option is
//!   read by its type's [`OptionValue`] ([`flag`] / [`count`] / [`choice`]) and the
//!   whole checked with the core's
//!   `validate()`, so a bad value raises `HandevalError` with `.field = "rules.<option>"`
//!   at construction;
//! * its options are its fields (getters giving them back as Python values), so it has
//!   `to_dict`, `repr`, `==`, `hash`, pickling and `replace(**changes)` like every value
//!   class;
//! * it implements [`GameRules`], and every binding function reads its `rules=` argument
//!   with [`rules_arg`]: a copy of the already-validated core struct, no attribute reads.

use crate::conv::{bad, bad_as, given, int_from, type_name};
use handeval_core::{Error, Reason};
use pyo3::prelude::*;
use pyo3::types::PyBool;

/// How an option of a given core type is read from Python (an absent or `None` value is
/// the core default) and given back.
pub(crate) trait OptionValue: Sized {
    type Out;
    fn read(value: Option<&Bound<'_, PyAny>>, name: &str, default: Self) -> PyResult<Self>;
    fn get(&self) -> Self::Out;
}

impl OptionValue for bool {
    type Out = bool;
    fn read(value: Option<&Bound<'_, PyAny>>, name: &str, default: bool) -> PyResult<bool> {
        flag(value, name, default)
    }
    fn get(&self) -> bool {
        *self
    }
}

impl OptionValue for u32 {
    type Out = u32;
    fn read(value: Option<&Bound<'_, PyAny>>, name: &str, default: u32) -> PyResult<u32> {
        count(value, name, default)
    }
    fn get(&self) -> u32 {
        *self
    }
}

/// Text options: parsed by the core's `parse`, given back as text.
macro_rules! choice_options {
    ($($ty:ty => |$v:ident| $text:expr;)+) => {$(
        impl OptionValue for $ty {
            type Out = String;
            fn read(value: Option<&Bound<'_, PyAny>>, name: &str, default: Self) -> PyResult<Self> {
                choice(value, name, default, <$ty>::parse)
            }
            fn get(&self) -> String {
                let $v = *self;
                $text.into()
            }
        }
    )+};
}

choice_options! {
    handeval_core::shisanshui::SuitOrder => |v| v.to_text();
    handeval_core::shisanshui::WheelRank => |v| v.as_str();
    handeval_core::tienlen::TurnAfterChop => |v| v.as_str();
    handeval_core::tienlen::ChopWindow => |v| v.as_str();
    handeval_core::dachu::rules::UnitPer => |v| v.as_str();
    handeval_core::dachu::rules::FirstCaller => |v| v.as_str();
    handeval_core::dachu::rules::DeclareOncePer => |v| v.as_str();
    handeval_core::dachu::rules::TimeoutDisplay => |v| v.as_str();
}

/// A game's native `Rules` class.
pub(crate) trait GameRules: pyo3::PyClass<Frozen = pyo3::pyclass::boolean_struct::True> + Sync {
    type Core: Clone + Default;
    /// The attribute of the `handeval.Rules` bundle holding this game's part.
    const GAME: &'static str;
    fn core(&self) -> &Self::Core;
}

/// The `rules=` argument: `None` (the defaults), the game's own `Rules`, or the
/// `handeval.Rules` bundle (its [`GameRules::GAME`] part); anything else is an error.
pub(crate) fn rules_arg<R: GameRules>(obj: Option<&Bound<'_, PyAny>>) -> PyResult<R::Core> {
    let Some(o) = given(obj) else { return Ok(R::Core::default()) };
    if let Ok(r) = o.cast::<R>() {
        return Ok(r.get().core().clone());
    }
    // The `handeval.Rules` bundle, by its part's attribute: this module stays below
    // the games, which the bundle holds.
    if let Ok(part) = o.getattr(R::GAME) {
        if let Ok(r) = part.cast::<R>() {
            return Ok(r.get().core().clone());
        }
    }
    Err(bad("rules", format!("expected handeval.Rules or {}.Rules, got {}", R::GAME, type_name(o))))
}

/// An option's field path (`rules.<name>`).
pub(crate) fn field(name: &str) -> String {
    format!("rules.{name}")
}

/// Keywords a `Rules` constructor does not take (`**extra`): a `HandevalError` naming the
/// first (`field_of` it) and the options `class` takes, not Python's bare TypeError.
pub(crate) fn no_other_options(
    extra: Option<&Bound<'_, pyo3::types::PyDict>>,
    field_of: impl Fn(&str) -> String,
    class: &str,
    options: &[&str],
) -> PyResult<()> {
    let Some((key, _)) = extra.and_then(|e| e.iter().next()) else { return Ok(()) };
    let key = key.str()?.to_string();
    Err(bad_as(&field_of(&key), format!("{class} has no option {key:?} (its options: {})", options.join(", ")), Reason::BadRule))
}

/// A bool option (only `True`/`False`).
pub(crate) fn flag(value: Option<&Bound<'_, PyAny>>, name: &str, default: bool) -> PyResult<bool> {
    match given(value) {
        None => Ok(default),
        Some(v) if v.is_instance_of::<PyBool>() => v.extract(),
        Some(v) => Err(bad_as(&field(name), format!("expected True or False, got {}", type_name(v)), Reason::BadRule)),
    }
}

/// A non-negative integer option (fits in u32; the core's `validate` checks its range).
pub(crate) fn count(value: Option<&Bound<'_, PyAny>>, name: &str, default: u32) -> PyResult<u32> {
    let Some(v) = given(value) else { return Ok(default) };
    let n = int_from(v, &field(name)).map_err(|e| crate::conv::with_reason(e, Reason::BadRule))?;
    u32::try_from(n).map_err(|_| bad_as(&field(name), format!("must be a non-negative integer (got {n})"), Reason::BadRule))
}

/// A text option parsed by the core (`parse` names the option in its error).
pub(crate) fn choice<T>(value: Option<&Bound<'_, PyAny>>, name: &str, default: T, parse: impl Fn(&str) -> Result<T, Error>) -> PyResult<T> {
    let Some(v) = given(value) else { return Ok(default) };
    let text: String =
        v.extract().map_err(|_| bad_as(&field(name), format!("expected a string, got {}", type_name(v)), Reason::BadRule))?;
    parse(&text).map_err(|e| crate::conv::to_py(Error::field(field(name), e.message).because(Reason::BadRule)))
}

/// The core's `validate()` result, its field under `rules.`.
pub(crate) fn validated<T>(rules: T, check: impl Fn(&T) -> Result<(), Error>) -> PyResult<T> {
    check(&rules).map_err(|e| {
        let reason = if e.reason == Reason::Invalid { Reason::BadRule } else { e.reason };
        crate::conv::to_py(e.within("rules").because(reason))
    })?;
    Ok(rules)
}
