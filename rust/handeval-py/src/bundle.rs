//! `handeval.Rules`: the bundle of every game's `Rules`, one part per game. It names the
//! games, so it sits above them; the games read it through [`crate::rules::rules_arg`].

use crate::conv::{bad, given, type_name};
use crate::rules::GameRules;
use pyo3::prelude::*;

crate::native_class! {
    #[pyclass(name = "Rules", module = "handeval")]
    /// `handeval.Rules`: every game's rule options, one part per game. Any game function
    /// taking `rules=` accepts this or that game's own `Rules`.
    pub struct Rules {
        shisanshui: Py<crate::shisanshui::ShisanshuiRules>,
        tienlen: Py<crate::tienlen::TienlenRules>,
        dachu: Py<crate::dachu::DachuRules>,
    }
    fields {
        fn shisanshui(&self, py: Python<'_>) -> Py<crate::shisanshui::ShisanshuiRules> {
            self.shisanshui.clone_ref(py)
        }
        fn tienlen(&self, py: Python<'_>) -> Py<crate::tienlen::TienlenRules> {
            self.tienlen.clone_ref(py)
        }
        fn dachu(&self, py: Python<'_>) -> Py<crate::dachu::DachuRules> {
            self.dachu.clone_ref(py)
        }
    }
    impl {
        #[new]
        #[pyo3(signature = (*, shisanshui=None, tienlen=None, dachu=None, **extra))]
        fn new(py: Python<'_>, shisanshui: Option<&Bound<'_, PyAny>>, tienlen: Option<&Bound<'_, PyAny>>, dachu: Option<&Bound<'_, PyAny>>, extra: Option<&Bound<'_, pyo3::types::PyDict>>) -> PyResult<Self> {
            crate::rules::no_other_options(extra, str::to_string, "handeval.Rules", &["shisanshui", "tienlen", "dachu"])?;
            Ok(Rules {
                shisanshui: native_part(py, shisanshui, crate::shisanshui::ShisanshuiRules::default)?,
                tienlen: native_part(py, tienlen, crate::tienlen::TienlenRules::default)?,
                dachu: native_part(py, dachu, crate::dachu::DachuRules::default)?,
            })
        }
    }
}

/// A native part: the given game `Rules`, or its defaults when absent.
fn native_part<R: GameRules + Into<pyo3::PyClassInitializer<R>>>(
    py: Python<'_>,
    value: Option<&Bound<'_, PyAny>>,
    make_default: impl Fn() -> R,
) -> PyResult<Py<R>> {
    match given(value) {
        None => Py::new(py, make_default()),
        Some(v) => v
            .cast::<R>()
            .map(|r| r.clone().unbind())
            .map_err(|_| bad(R::GAME, format!("expected handeval.{}.Rules, got {}", R::GAME, type_name(v)))),
    }
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    crate::result::add_class::<Rules>(m, "Rules")
}
