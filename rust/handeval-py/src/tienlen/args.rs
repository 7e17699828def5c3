//! The 越式13张 `Rules` class (a file of its own, so that the binding's files import it
//! and not the module that registers them).

use crate::native_class;
use crate::rules::rules_arg;
use handeval_core::tienlen::{self as tl};
use pyo3::prelude::*;

// ---- Rules ----

handeval_core::tienlen_rule_options!(native_class! {
    rules:
    /// House-rule options of 越式13张 (docs/rules.md §2), keyword-only; an option not given
    /// is its default. Validated when constructed: a bad value is a HandevalError naming
    /// the option (``.field == "rules.<option>"``).
    pub struct TienlenRules(core = tl::Rules, game = "tienlen", module = "handeval.tienlen");
});

pub(super) fn rules_from(obj: Option<&Bound<'_, PyAny>>) -> PyResult<tl::Rules> {
    rules_arg::<TienlenRules>(obj)
}
