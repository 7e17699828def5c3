//! The one way a native class of `handeval._core` is declared: [`native_class!`].
//!
//! Every class — a result, a game's `Rules`, the `handeval.Rules` bundle, a play, and the
//! game-record state machines — is a `#[pyclass(frozen)]` declared by one
//! `native_class!` call that writes its public fields once, in order. From that list
//! come `FIELDS` ([`NativeClass::FIELDS`]), `to_dict()` (its keys, in that order) and,
//! for a value class, `__repr__`, `==`/`hash`, pickling, `replace` and
//! `__match_args__`. A field is either
//! * stored: the struct's `pub` fields are the fields (the getters are pyo3's, the
//!   constructor takes them as keywords, `new = "from_fields"`), or
//! * computed: the struct holds what the class wraps, and each field is a getter in the
//!   call's `fields { … }` section (the constructor is the `#[new]` in `impl { … }`).
//!
//! What a value class gets, all defined here once and driven by `FIELDS` (read back
//! through the getters, so a field cannot be forgotten):
//! * `to_dict()` — a dict of the fields; nested results become dicts, lists stay lists;
//! * `__repr__` — `Row(category='pair', …)`;
//! * `__eq__` / `__hash__` — same class and equal fields; lists hash as tuples, so every
//!   result is hashable (a float field hashes like the float);
//! * pickling — `__reduce__` rebuilds through the keyword constructor
//!   (`copyreg.__newobj_ex__(cls, (), fields)`), so pickles name only public fields;
//! * `replace(**changes)` — a copy with some fields changed, through the constructor (so a
//!   `Rules` copy is validated again), like `dataclasses.replace`;
//! * `__match_args__` — the fields, for positional patterns in `match`.
//!
//! A state class (a game record: `apply` makes the next state) is declared with
//! `state <member>, repr <what>;` first: it gets `FIELDS` and `to_dict()` the same way,
//! `==`/`hash` by its core state `<member>`, and a `__repr__` of the fields listed in
//! `[…]` (or of a closure over the object); it has no `replace` nor `__match_args__` (its
//! constructor does not take its fields) and writes its own `__reduce__` (it is pickled
//! by replaying its history).
//!
//! Getters return fresh lists, so no caller can change a result in place.
//!
//! `*_many` functions return one list item per input: the result, or the
//! `HandevalError` *instance* (not raised) that the single call on that input raises —
//! the same `.field` and `.description` (e.g. `cards: bad card …`); its place in the list
//! says which input, so no caller re-roots or re-parses a path. See [`item_error`].
//! Errors about the call as a whole (a bad `rules` or option, a non-list) are raised.

use handeval_core::cards::{Card, RANK_CHARS, SUIT_CHARS};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyList, PyString, PyTuple, PyType};
use pyo3::PyClass;

/// A class declared by [`native_class!`]: its public fields, in order, and its repr.
pub(crate) trait NativeClass: PyClass {
    const FIELDS: &'static [&'static str];
    /// `Name(field=repr, …)` of every field; a state class lists fewer (see the module doc).
    fn repr(slf: &Bound<'_, Self>) -> PyResult<String> {
        repr_of(slf, Self::FIELDS)
    }
}

/// `to_dict()` of a result: field → plain value (nested results as dicts).
pub(crate) fn to_dict<'py, T: NativeClass>(slf: &Bound<'py, T>) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(slf.py());
    for f in T::FIELDS {
        d.set_item(*f, plain(&slf.as_any().getattr(*f)?)?)?;
    }
    Ok(d)
}

/// A value as JSON-like data: results → dicts, lists/tuples → lists, the rest as is.
pub(crate) fn plain<'py>(v: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    if v.is_instance_of::<PyList>() || v.is_instance_of::<PyTuple>() {
        let out = PyList::empty(v.py());
        for x in v.try_iter()? {
            out.append(plain(&x?)?)?;
        }
        return Ok(out.into_any());
    }
    if is_native(v) {
        return v.call_method0(pyo3::intern!(v.py(), "to_dict"));
    }
    Ok(v.clone())
}

/// Whether `v` is a result to turn into a dict (plain values are checked first so the
/// common case costs one type test).
fn is_native(v: &Bound<'_, PyAny>) -> bool {
    use pyo3::types::{PyFloat, PyInt};
    if v.is_none() || v.is_instance_of::<PyString>() || v.is_instance_of::<PyInt>() || v.is_instance_of::<PyFloat>() {
        return false;
    }
    v.hasattr(pyo3::intern!(v.py(), "to_dict")).unwrap_or(false)
}

fn field_values<'py, T: NativeClass>(slf: &Bound<'py, T>) -> PyResult<Vec<Bound<'py, PyAny>>> {
    T::FIELDS.iter().map(|f| slf.as_any().getattr(*f)).collect()
}

/// `Name(field=repr, …)` of `fields`, with the Python class name.
pub(crate) fn repr_of<T: PyClass>(slf: &Bound<'_, T>, fields: &[&str]) -> PyResult<String> {
    let mut s = slf.as_any().get_type().name()?.to_string();
    s.push('(');
    for (i, f) in fields.iter().enumerate() {
        if i > 0 {
            s.push_str(", ");
        }
        s.push_str(f);
        s.push('=');
        s.push_str(&slf.as_any().getattr(*f)?.repr()?.to_cow()?);
    }
    s.push(')');
    Ok(s)
}

/// Same class and equal fields; `NotImplemented` for anything else.
pub(crate) fn eq<T: NativeClass>(slf: &Bound<'_, T>, other: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
    let py = slf.py();
    let Ok(other) = other.cast::<T>() else { return Ok(py.NotImplemented()) };
    let mut same = slf.as_any().is(other.as_any());
    if !same {
        same = true;
        for f in T::FIELDS {
            if !slf.as_any().getattr(*f)?.eq(other.as_any().getattr(*f)?)? {
                same = false;
                break;
            }
        }
    }
    Ok(pyo3::types::PyBool::new(py, same).to_owned().into_any().unbind())
}

/// Hash of the fields, lists hashed as tuples (consistent with [`eq`]).
pub(crate) fn hash<T: NativeClass>(slf: &Bound<'_, T>) -> PyResult<isize> {
    let parts: Vec<Bound<'_, PyAny>> = field_values(slf)?.iter().map(frozen).collect::<PyResult<_>>()?;
    PyTuple::new(slf.py(), parts)?.hash()
}

fn frozen<'py>(v: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    if let Ok(l) = v.cast::<PyList>() {
        let items: Vec<Bound<'py, PyAny>> = l.iter().map(|x| frozen(&x)).collect::<PyResult<_>>()?;
        return Ok(PyTuple::new(v.py(), items)?.into_any());
    }
    Ok(v.clone())
}

/// The fields as constructor keywords.
fn kwargs<'py, T: NativeClass>(slf: &Bound<'py, T>) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(slf.py());
    for (f, v) in T::FIELDS.iter().zip(field_values(slf)?) {
        d.set_item(*f, v)?;
    }
    Ok(d)
}

/// Pickling: `copyreg.__newobj_ex__(cls, (), fields)`, i.e. `cls(**fields)`.
pub(crate) fn reduce<'py, T: NativeClass>(slf: &Bound<'py, T>) -> PyResult<Bound<'py, PyTuple>> {
    let py = slf.py();
    static NEWOBJ_EX: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
    let newobj = NEWOBJ_EX.get_or_try_init(py, || py.import("copyreg")?.getattr("__newobj_ex__").map(Bound::unbind))?;
    let args = (slf.as_any().get_type(), PyTuple::empty(py), kwargs(slf)?);
    (newobj.bind(py), args).into_pyobject(py)
}

/// `replace(**changes)`: `cls(**(fields | changes))`; an unknown name is a HandevalError.
pub(crate) fn replace<'py, T: NativeClass>(slf: &Bound<'py, T>, changes: Option<&Bound<'py, PyDict>>) -> PyResult<Bound<'py, PyAny>> {
    let kw = kwargs(slf)?;
    if let Some(ch) = changes {
        for (k, v) in ch.iter() {
            let name: String = k.extract()?;
            if !T::FIELDS.contains(&name.as_str()) {
                return Err(crate::conv::bad(
                    &name,
                    format!("is not a field of {} (fields: {})", slf.as_any().get_type().name()?, T::FIELDS.join(", ")),
                ));
            }
            kw.set_item(k, v)?;
        }
    }
    slf.as_any().get_type().call((), Some(&kw))
}

/// `__match_args__`: the fields, for positional patterns in `match` (and for tests).
pub(crate) fn match_args<'py>(py: Python<'py>, fields: &[&str]) -> PyResult<Bound<'py, PyTuple>> {
    PyTuple::new(py, fields)
}

/// `==` of a state class: `same(other)` when `other` is of the same class, else
/// NotImplemented.
pub(crate) fn state_eq<C>(other: &Bound<'_, PyAny>, same: impl FnOnce(&C) -> bool) -> Py<PyAny>
where
    C: PyClass<Frozen = pyo3::pyclass::boolean_struct::True> + Sync,
{
    let py = other.py();
    match other.cast::<C>() {
        Ok(o) => pyo3::types::PyBool::new(py, same(o.get())).to_owned().into_any().unbind(),
        Err(_) => py.NotImplemented(),
    }
}

/// Hash of a core state consistent with its `==` (equal states print the same).
pub(crate) fn state_hash(state: &impl std::fmt::Debug) -> isize {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    format!("{state:?}").hash(&mut h);
    h.finish() as isize
}

/// The `HandevalError` instance a `*_many` item holds in place of its result.
pub(crate) fn item_error(py: Python<'_>, e: PyErr) -> PyResult<Py<PyAny>> {
    if e.is_instance_of::<crate::conv::HandevalError>(py) {
        Ok(e.value(py).clone().into_any().unbind())
    } else {
        Err(e)
    }
}

/// The list a `*_many` call returns: `work` runs on every input that parsed, with the GIL
/// released; then each input gives its result (`out`) or, in its place, the
/// HandevalError of its parsing or of its work ([`item_error`]).
pub(crate) fn many_items<T: Sync, R: Send>(
    py: Python<'_>,
    parsed: Vec<PyResult<T>>,
    work: impl Fn(usize, &T) -> Result<R, handeval_core::Error> + Sync,
    out: impl Fn(Python<'_>, R) -> PyResult<Py<PyAny>>,
) -> PyResult<Vec<Py<PyAny>>> {
    let ok: Vec<(usize, &T)> = parsed.iter().enumerate().filter_map(|(i, p)| p.as_ref().ok().map(|t| (i, t))).collect();
    let done: Vec<Result<R, handeval_core::Error>> = py.detach(|| ok.iter().map(|&(i, t)| work(i, t)).collect());
    let mut done = done.into_iter();
    parsed
        .into_iter()
        .map(|p| match p {
            Err(e) => item_error(py, e),
            Ok(_) => match done.next().expect("one result per parsed input") {
                Ok(r) => out(py, r),
                Err(e) => item_error(py, crate::conv::to_py(e)),
            },
        })
        .collect()
}

/// Interned Python names of an enum's variants (a play kind, a category …), made once, so
/// results hand them out without building a string per object.
pub(crate) struct Names(PyOnceLock<Vec<Py<PyString>>>);

impl Names {
    pub(crate) const fn new() -> Self {
        Names(PyOnceLock::new())
    }
    /// Name `i` of `all()` (called once, on first use).
    pub(crate) fn get<'py>(&self, py: Python<'py>, i: usize, all: impl FnOnce() -> Vec<&'static str>) -> Bound<'py, PyString> {
        self.0.get_or_init(py, || all().into_iter().map(|n| PyString::intern(py, n).unbind()).collect())[i].bind(py).clone()
    }
}

/// Declares a native class (see the module doc). Four forms, one grammar:
///
/// ```ignore
/// native_class! {                       // a value class with stored fields
///     #[pyclass(module = "handeval.dachu")]
///     /// One item of a settlement.
///     pub struct Line { pub item: String, pub seat: usize }
///     impl { /* more methods (optional) */ }
/// }
/// native_class! {                       // a value class with computed fields
///     #[pyclass(from_py_object, module = "handeval.dachu", name = "Play")]
///     #[derive(Clone, Debug)]
///     pub struct DachuPlay { core: dc::Play, cards: Vec<Card> }
///     fields {
///         /// One of :data:`KINDS`.
///         fn kind<'py>(&self, py: Python<'py>) -> Bound<'py, PyString> { … }
///     }
///     impl { #[new] fn new(…) -> PyResult<Self> { … } }
/// }
/// native_class! {                       // a state class
///     state inner, repr [dealt, chu];   // or repr (|me| format!(…)) for a custom text
///     #[pyclass(module = "handeval.dachu", name = "Deal")]
///     pub struct DachuDeal { inner: CoreDeal }
///     fields { fn dealt(&self) -> u8 { … } … }
///     impl { #[new] … fn __reduce__(…) … }
/// }
/// handeval_core::dachu_rule_options!(native_class! {   // a game's Rules
///     rules:
///     /// House-rule options of 打儲 …
///     pub struct DachuRules(core = dc::Rules, game = "dachu", module = "handeval.dachu");
/// });
/// ```
///
/// `#[pyclass(…)]` takes pyo3's options (`frozen` is added); `fields { … }` holds the
/// getters of the public fields, in order (`#[getter]` and `pub(crate)` are added, so
/// Rust code in the crate reads a field the same way); `impl { … }` holds the class's
/// other methods and attributes (`#[new]`, getters that are not fields, `__len__` …),
/// in the same `#[pymethods]` block as the derived ones.
/// A stored field's type needs `Clone`, a conversion to Python (for `&T` or by value)
/// and one from Python (for the constructor), e.g. `String`, `i64`, `bool`, [`Cards`],
/// `Vec<…>`, `Option<…>` and other result classes.
///
/// The `rules:` form is what the core's `<game>_rule_options!` calls with the class
/// header followed by the options, each `doc comment, name: Type = default;` (the
/// default is the core's `Rules::default()`; the doc comment becomes the getter's
/// `__doc__`). It declares the class wrapping the core struct (`core`),
/// [`crate::rules::GameRules`], the keyword-only constructor (each option read by its
/// type's [`crate::rules::OptionValue`], the whole checked by the core's `validate()`)
/// and a field per option.
#[macro_export]
macro_rules! native_class {
    // ---- a game's Rules, from the core's list of its options ----
    (
        rules:
        $(#[$meta:meta])*
        pub struct $name:ident(core = $core:path, game = $game:literal, module = $module:literal);
        $( $(#[$ometa:meta])* $opt:ident : $ty:ty = $default:expr; )+
    ) => {
        impl $crate::rules::GameRules for $name {
            type Core = $core;
            const GAME: &'static str = $game;
            fn core(&self) -> &$core {
                &self.core
            }
        }
        $crate::native_class! {
            #[pyclass(from_py_object, module = $module, name = "Rules")]
            $(#[$meta])*
            #[derive(Clone, Default)]
            pub struct $name {
                pub core: $core,
            }
            fields {
                $(
                    $(#[$ometa])*
                    fn $opt(&self) -> <$ty as $crate::rules::OptionValue>::Out {
                        $crate::rules::OptionValue::get(&self.core.$opt)
                    }
                )+
            }
            impl {
                #[new]
                #[pyo3(signature = (*, $($opt = None),+, **extra))]
                fn new($($opt: Option<&Bound<'_, PyAny>>),+, extra: Option<&Bound<'_, pyo3::types::PyDict>>) -> PyResult<Self> {
                    $crate::rules::no_other_options(extra, $crate::rules::field, concat!("handeval.", $game, ".Rules"), &[$(stringify!($opt)),+])?;
                    type Core = $core; // a path cannot name a struct literal; an alias can
                    let d = Core::default();
                    let core = Core { $( $opt: <$ty as $crate::rules::OptionValue>::read($opt, stringify!($opt), d.$opt)? ),+ };
                    Ok($name { core: $crate::rules::validated(core, <$core>::validate)? })
                }
            }
        }
    };

    // ---- a state class: computed fields, == by its core state ----
    (
        state $state:ident, repr $repr:tt;
        #[pyclass($($pc:tt)*)]
        $(#[$meta:meta])*
        pub struct $name:ident { $($body:tt)* }
        fields {
            $( $(#[$gmeta:meta])* fn $g:ident $(<$lt:lifetime>)? (&$this:ident $(, $arg:ident : $aty:ty)*) -> $ret:ty $gbody:block )*
        }
        $( impl { $($methods:tt)* } )?
    ) => {
        $(#[$meta])*
        #[pyo3::pyclass(frozen, $($pc)*)]
        pub struct $name { $($body)* }
        impl $crate::result::NativeClass for $name {
            const FIELDS: &'static [&'static str] = &[$(stringify!($g)),*];
            fn repr(slf: &Bound<'_, Self>) -> PyResult<String> {
                $crate::native_class!(@repr slf $repr)
            }
        }
        #[pyo3::pymethods]
        impl $name {
            $( $(#[$gmeta])* #[getter] pub(crate) fn $g $(<$lt>)? (&$this $(, $arg: $aty)*) -> $ret $gbody )*
            /// The fields as a dict; nested results become dicts.
            fn to_dict<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, pyo3::types::PyDict>> {
                $crate::result::to_dict(slf)
            }
            fn __repr__(slf: &Bound<'_, Self>) -> PyResult<String> {
                <Self as $crate::result::NativeClass>::repr(slf)
            }
            fn __eq__(&self, other: &Bound<'_, PyAny>) -> Py<PyAny> {
                $crate::result::state_eq(other, |o: &Self| o.$state == self.$state)
            }
            fn __hash__(&self) -> isize {
                $crate::result::state_hash(&self.$state)
            }
            $($($methods)*)?
        }
    };
    (@repr $slf:ident [$($f:ident),* $(,)?]) => {
        $crate::result::repr_of($slf, &[$(stringify!($f)),*])
    };
    (@repr $slf:ident (|$me:ident| $text:expr)) => {{
        let $me = $slf.get();
        Ok($text)
    }};

    // ---- a value class with computed fields ----
    (
        #[pyclass($($pc:tt)*)]
        $(#[$meta:meta])*
        pub struct $name:ident { $($body:tt)* }
        fields {
            $( $(#[$gmeta:meta])* fn $g:ident $(<$lt:lifetime>)? (&$this:ident $(, $arg:ident : $aty:ty)*) -> $ret:ty $gbody:block )*
        }
        $( impl { $($methods:tt)* } )?
    ) => {
        $(#[$meta])*
        #[pyo3::pyclass(frozen, $($pc)*)]
        pub struct $name { $($body)* }
        $crate::native_class!(@value $name [$($g),*] {
            $( $(#[$gmeta])* #[getter] pub(crate) fn $g $(<$lt>)? (&$this $(, $arg: $aty)*) -> $ret $gbody )*
            $($($methods)*)?
        });
    };

    // ---- a value class with stored fields ----
    (
        #[pyclass($($pc:tt)*)]
        $(#[$meta:meta])*
        pub struct $name:ident {
            $( $(#[$fmeta:meta])* pub $field:ident : $fty:ty ),* $(,)?
        }
        $( impl { $($methods:tt)* } )?
    ) => {
        $(#[$meta])*
        #[pyo3::pyclass(frozen, get_all, new = "from_fields", from_py_object, $($pc)*)]
        #[derive(Clone, Debug)]
        pub struct $name {
            $( $(#[$fmeta])* pub $field: $fty ),*
        }
        $crate::native_class!(@value $name [$($field),*] { $($($methods)*)? });
    };

    // The methods of every value class, then the class's own.
    (@value $name:ident [$($field:ident),*] { $($methods:tt)* }) => {
        impl $crate::result::NativeClass for $name {
            const FIELDS: &'static [&'static str] = &[$(stringify!($field)),*];
        }
        #[pyo3::pymethods]
        impl $name {
            /// The fields as a dict; nested results become dicts.
            fn to_dict<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, pyo3::types::PyDict>> {
                $crate::result::to_dict(slf)
            }
            fn __repr__(slf: &Bound<'_, Self>) -> PyResult<String> {
                <Self as $crate::result::NativeClass>::repr(slf)
            }
            fn __eq__(slf: &Bound<'_, Self>, other: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
                $crate::result::eq(slf, other)
            }
            fn __hash__(slf: &Bound<'_, Self>) -> PyResult<isize> {
                $crate::result::hash(slf)
            }
            fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, pyo3::types::PyTuple>> {
                $crate::result::reduce(slf)
            }
            /// A copy with the given fields changed (validated again by the constructor).
            #[pyo3(signature = (**changes))]
            fn replace<'py>(slf: &Bound<'py, Self>, changes: Option<&Bound<'py, pyo3::types::PyDict>>) -> PyResult<Bound<'py, PyAny>> {
                $crate::result::replace(slf, changes)
            }
            #[classattr]
            fn __match_args__(py: Python<'_>) -> PyResult<Bound<'_, pyo3::types::PyTuple>> {
                $crate::result::match_args(py, <Self as $crate::result::NativeClass>::FIELDS)
            }
            $($methods)*
        }
    };
}

/// A text field: usually one of the engine's fixed names (`&'static str`, no allocation
/// per result), or any text given to the constructor.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Text(pub std::borrow::Cow<'static, str>);

impl From<&'static str> for Text {
    fn from(s: &'static str) -> Text {
        Text(std::borrow::Cow::Borrowed(s))
    }
}

impl<'py> IntoPyObject<'py> for &Text {
    type Target = PyString;
    type Output = Bound<'py, PyString>;
    type Error = std::convert::Infallible;
    fn into_pyobject(self, py: Python<'py>) -> Result<Bound<'py, PyString>, Self::Error> {
        Ok(PyString::new(py, &self.0))
    }
}

impl<'a, 'py> FromPyObject<'a, 'py> for Text {
    type Error = PyErr;
    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        Ok(Text(std::borrow::Cow::Owned(obj.extract::<String>()?)))
    }
}

/// Cards held natively (no strings until read): `list[str]` of canonical card strings to
/// Python, from a card string or a list of card strings (a bad card is a HandevalError).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Cards(pub Vec<Card>);

/// The cards of a row (at most 5) held inline: like [`Cards`] to and from Python, without
/// an allocation per result (the single `classify` call builds one per call).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RowCards {
    cards: [Card; 5],
    len: u8,
}

impl RowCards {
    /// The first `len` (≤ 5) of `cards`.
    pub fn new(cards: [Card; 5], len: usize) -> RowCards {
        debug_assert!(len <= 5);
        RowCards { cards, len: len as u8 }
    }
    pub fn as_slice(&self) -> &[Card] {
        &self.cards[..self.len as usize]
    }
}

impl<'py> IntoPyObject<'py> for &RowCards {
    type Target = PyList;
    type Output = Bound<'py, PyList>;
    type Error = PyErr;
    fn into_pyobject(self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        card_list(py, self.as_slice())
    }
}

impl<'a, 'py> FromPyObject<'a, 'py> for RowCards {
    type Error = PyErr;
    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        let cards = crate::conv::cards_from(&obj.to_owned(), "cards")?;
        if cards.len() > 5 {
            return Err(crate::conv::bad_as(
                "cards",
                format!("a row has at most 5 cards, got {}", cards.len()),
                handeval_core::Reason::WrongCount,
            ));
        }
        let mut buf = [Card(0); 5];
        buf[..cards.len()].copy_from_slice(&cards);
        Ok(RowCards::new(buf, cards.len()))
    }
}

/// The 52 canonical card strings, interned once.
pub(crate) fn card_str(py: Python<'_>, c: Card) -> Bound<'_, PyString> {
    static TABLE: PyOnceLock<Vec<Py<PyString>>> = PyOnceLock::new();
    let t = TABLE.get_or_init(py, || {
        (0..52u8)
            .map(|id| {
                let s: String = [RANK_CHARS[(id >> 2) as usize], SUIT_CHARS[(id & 3) as usize]].iter().collect();
                PyString::intern(py, &s).unbind()
            })
            .collect()
    });
    t[c.0 as usize].bind(py).clone()
}

pub(crate) fn card_list<'py>(py: Python<'py>, cards: &[Card]) -> PyResult<Bound<'py, PyList>> {
    PyList::new(py, cards.iter().map(|&c| card_str(py, c)))
}

impl<'py> IntoPyObject<'py> for &Cards {
    type Target = PyList;
    type Output = Bound<'py, PyList>;
    type Error = PyErr;
    fn into_pyobject(self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        card_list(py, &self.0)
    }
}

impl<'py> IntoPyObject<'py> for Cards {
    type Target = PyList;
    type Output = Bound<'py, PyList>;
    type Error = PyErr;
    fn into_pyobject(self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        card_list(py, &self.0)
    }
}

impl<'a, 'py> FromPyObject<'a, 'py> for Cards {
    type Error = PyErr;
    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        crate::conv::cards_from(&obj.to_owned(), "cards").map(Cards)
    }
}

/// Adds class `T` to `_core` as `name`. `_core` holds each class under a game-prefixed
/// name (`ShisanshuiRules`, `ShisanshuiRow`) because games share class names; the class's
/// own `name`/`module` (`handeval.shisanshui.Rules`) are where the public module re-exports
/// it, which is also what pickling looks up.
pub(crate) fn add_class<T: PyClass>(m: &Bound<'_, PyModule>, name: &str) -> PyResult<()> {
    let ty: Bound<'_, PyType> = m.py().get_type::<T>();
    m.add(name, ty)
}
