//! The 十三水 `Rules` class and the argument readers the binding's files share (a file of
//! its own, so that they import it and not the module that registers them).

use crate::conv::{bad, cards_from, IntoPyResult};
use crate::native_class;
use crate::rules::rules_arg;
use handeval_core::cards::Card;
use handeval_core::shisanshui::{Hand, Rules, SpecialId};
use pyo3::prelude::*;
use pyo3::types::PyDict;

handeval_core::shisanshui_rule_options!(native_class! {
    rules:
    /// House-rule options of 十三水 (docs/rules.md §1), keyword-only; an option not given
    /// is its default. Validated when constructed: a bad value is a HandevalError naming
    /// the option (``.field == "rules.<option>"``).
    pub struct ShisanshuiRules(core = Rules, game = "shisanshui", module = "handeval.shisanshui");
});

pub(crate) fn rules_from(obj: Option<&Bound<'_, PyAny>>) -> PyResult<Rules> {
    rules_arg::<ShisanshuiRules>(obj)
}

pub(crate) fn hand_from(obj: &Bound<'_, PyAny>, field: &str) -> PyResult<Hand> {
    let d = obj.cast::<PyDict>().map_err(|_| bad(field, "expected a dict with front/middle/back or special/cards"))?;
    let item = |k: &str| d.get_item(k);
    if let Some(sp) = item("special")? {
        for k in d.keys() {
            let k: String = k.extract().unwrap_or_default();
            if !["special", "cards"].contains(&k.as_str()) {
                return Err(bad(field, format!("unexpected key {k:?} beside \"special\"")));
            }
        }
        let id: String = sp.extract().map_err(|_| bad(&format!("{field}.special"), "must be a special id string"))?;
        let id = SpecialId::parse(&id).map_err(|e| e.within(&format!("{field}.special"))).py()?;
        let cards = item("cards")?.ok_or_else(|| bad(field, "a declared special needs its 13 \"cards\""))?;
        return Ok(Hand::Special { id, cards: cards_from(&cards, &format!("{field}.cards"))? });
    }
    for k in d.keys() {
        let k: String = k.extract().unwrap_or_default();
        if !["front", "middle", "back"].contains(&k.as_str()) {
            return Err(bad(field, format!("unexpected key {k:?} (expected front, middle, back; or special, cards)")));
        }
    }
    let get = |k: &str| -> PyResult<Vec<Card>> {
        let v = item(k)?.ok_or_else(|| bad(field, format!("missing \"{k}\"")))?;
        cards_from(&v, &format!("{field}.{k}"))
    };
    Ok(Hand::Rows { front: get("front")?, middle: get("middle")?, back: get("back")? })
}
