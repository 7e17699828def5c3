//! Binding of handeval_core::dachu (打儲): conversions only; the rules are in the core.

use crate::conv::{bad, RuleAttrs, bool_from, card_strings, cards_from, carried_from, int_from, list_from, IntoPyResult};
use handeval_core::cards::Card;
use handeval_core::dachu::calling::{side_name, Call, Calling, Outcome, Stage};
use handeval_core::dachu::deal::{Deal, DealAction};
use handeval_core::dachu::rules::{FirstCaller, UnitPer};
use handeval_core::dachu::{self as dc, Chu, Constraints, Rules};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString, PyTuple};

/// `None` → default rules; otherwise any object with the option attributes (the Python
/// `dachu.Rules` dataclass).
fn rules_from(obj: Option<&Bound<'_, PyAny>>) -> PyResult<Rules> {
    let Some(o) = obj.filter(|o| !o.is_none()) else { return Ok(Rules::default()) };
    let r = RuleAttrs(o);
    let within = |e: handeval_core::Error| e.within("rules");
    let rules = Rules {
        mixed_ace_pair: r.flag("mixed_ace_pair")?,
        cheng_chu_alone: r.flag("cheng_chu_alone")?,
        escape_shared_by_all: r.flag("escape_shared_by_all")?,
        unit_per: UnitPer::parse(&r.text("unit_per")?).map_err(within).py()?,
        first_caller_2v2: FirstCaller::parse(&r.text("first_caller_2v2")?).map_err(within).py()?,
        escape_units: r.count("escape_units", "a non-negative integer")?,
        jiao_round_up: r.flag("jiao_round_up")?,
        declare_once_per: handeval_core::dachu::rules::DeclareOncePer::parse(&r.text("declare_once_per")?).map_err(within).py()?,
    };
    rules.validate().map_err(within).py()?;
    Ok(rules)
}

fn chu_from(obj: &Bound<'_, PyAny>) -> PyResult<Chu> {
    let s: String = obj.extract().map_err(|_| bad("chu", "must be \"red\" or \"black\""))?;
    Chu::parse(&s).py()
}

fn seat_from(obj: &Bound<'_, PyAny>, field: &str) -> PyResult<usize> {
    let v = int_from(obj, field)?;
    if !(0..4).contains(&v) {
        return Err(bad(field, format!("unknown seat {v} (打儲 seats are 0..3)")));
    }
    Ok(v as usize)
}

fn seats_from(obj: Option<&Bound<'_, PyAny>>, field: &str) -> PyResult<Vec<usize>> {
    match obj {
        None => Ok(Vec::new()),
        Some(o) if o.is_none() => Ok(Vec::new()),
        Some(o) => list_from(o, field, seat_from),
    }
}

fn opt_cards(obj: Option<&Bound<'_, PyAny>>, field: &str) -> PyResult<Option<Vec<Card>>> {
    match obj {
        None => Ok(None),
        Some(o) if o.is_none() => Ok(None),
        Some(o) => cards_from(o, field).map(Some),
    }
}

type PlayTuple = (&'static str, &'static str, u8, u8, Vec<String>);

/// (kind, kind_zh, len, strength, cards in the game's order)
#[pyfunction]
#[pyo3(signature = (cards, chu, rules=None))]
fn dc_classify(cards: &Bound<'_, PyAny>, chu: &Bound<'_, PyAny>, rules: Option<&Bound<'_, PyAny>>) -> PyResult<PlayTuple> {
    let rules = rules_from(rules)?;
    let chu = chu_from(chu)?;
    let cards = cards_from(cards, "cards")?;
    let p = dc::classify(&cards, chu, &rules).py()?;
    Ok((p.kind.name(), p.kind.name_zh(), p.len, p.strength, card_strings(&cards)))
}

#[pyfunction]
#[pyo3(signature = (play, table, chu, rules=None))]
fn dc_beats(play: &Bound<'_, PyAny>, table: &Bound<'_, PyAny>, chu: &Bound<'_, PyAny>, rules: Option<&Bound<'_, PyAny>>) -> PyResult<bool> {
    let rules = rules_from(rules)?;
    let chu = chu_from(chu)?;
    let (p, t) = (cards_from(play, "play")?, cards_from(table, "table")?);
    dc::beats(&p, &t, chu, &rules).py()
}

/// Many (play, table) pairs at once: parsing holds the GIL, classify + beats release it.
#[pyfunction]
#[pyo3(signature = (pairs, chu, rules=None))]
fn dc_beats_many(py: Python<'_>, pairs: &Bound<'_, PyAny>, chu: &Bound<'_, PyAny>, rules: Option<&Bound<'_, PyAny>>) -> PyResult<Vec<bool>> {
    let rules = rules_from(rules)?;
    let chu = chu_from(chu)?;
    let parsed = list_from(pairs, "pairs", |x, f| {
        let items = list_from(x, f, cards_from)?;
        match <[Vec<Card>; 2]>::try_from(items) {
            Ok([p, t]) => Ok((p, t)),
            Err(_) => Err(bad(f, "expected a (play, table) pair")),
        }
    })?;
    let out: Result<Vec<bool>, (usize, handeval_core::Error)> =
        py.detach(|| parsed.iter().enumerate().map(|(i, (p, t))| dc::beats(p, t, chu, &rules).map_err(|e| (i, e))).collect());
    out.map_err(|(i, e)| crate::conv::to_py(e.within(&format!("pairs[{i}]"))))
}

/// An optional flag: None (or left out) is false.
fn flag(obj: Option<&Bound<'_, PyAny>>, field: &str) -> PyResult<bool> {
    match obj {
        Some(o) if !o.is_none() => bool_from(o, field),
        _ => Ok(false),
    }
}

fn constraints(first_lead: Option<&Bound<'_, PyAny>>, surrendered: Option<&Bound<'_, PyAny>>, shown: Option<&Bound<'_, PyAny>>) -> PyResult<Constraints> {
    Ok(Constraints {
        first_lead: flag(first_lead, "first_lead")?,
        surrendered: flag(surrendered, "surrendered")?,
        shown_triple: opt_cards(shown, "shown_triple")?.unwrap_or_default(),
    })
}

/// [(kind, kind_zh, len, strength, cards)] weakest first.
#[pyfunction]
#[pyo3(signature = (hand, table, chu, first_lead=None, surrendered=None, shown_triple=None, rules=None))]
fn dc_legal_plays(
    hand: &Bound<'_, PyAny>,
    table: Option<&Bound<'_, PyAny>>,
    chu: &Bound<'_, PyAny>,
    first_lead: Option<&Bound<'_, PyAny>>,
    surrendered: Option<&Bound<'_, PyAny>>,
    shown_triple: Option<&Bound<'_, PyAny>>,
    rules: Option<&Bound<'_, PyAny>>,
) -> PyResult<Vec<PlayTuple>> {
    let rules = rules_from(rules)?;
    let chu = chu_from(chu)?;
    let hand = cards_from(hand, "hand")?;
    let table = opt_cards(table, "table")?;
    let cons = constraints(first_lead, surrendered, shown_triple)?;
    let plays = dc::legal_plays(&hand, table.as_deref(), chu, &cons, &rules).py()?;
    Ok(plays.iter().map(|p| (p.play.kind.name(), p.play.kind.name_zh(), p.play.len, p.play.strength, card_strings(&p.cards))).collect())
}

#[pyfunction]
#[pyo3(signature = (hand, table, chu, first_lead=None, shown_triple=None, rules=None))]
fn dc_timeout_play(
    hand: &Bound<'_, PyAny>,
    table: Option<&Bound<'_, PyAny>>,
    chu: &Bound<'_, PyAny>,
    first_lead: Option<&Bound<'_, PyAny>>,
    shown_triple: Option<&Bound<'_, PyAny>>,
    rules: Option<&Bound<'_, PyAny>>,
) -> PyResult<Option<Vec<String>>> {
    let rules = rules_from(rules)?;
    let chu = chu_from(chu)?;
    let hand = cards_from(hand, "hand")?;
    let table = opt_cards(table, "table")?;
    let cons = constraints(first_lead, None, shown_triple)?;
    Ok(dc::timeout_play(&hand, table.as_deref(), chu, &cons, &rules).py()?.map(|c| card_strings(&c)))
}

// ---- the deal ----

/// Immutable deal state (RULES 3.5); `apply` returns a new one.
#[pyclass(frozen, module = "handeval._core", name = "DachuDeal")]
pub struct DachuDeal {
    inner: Deal,
}

/// An action tuple: its name and the rest of its items.
fn action_parts<'py>(action: &Bound<'py, PyAny>) -> PyResult<(String, Vec<Bound<'py, PyAny>>)> {
    if action.is_instance_of::<PyString>() {
        return Ok((action.extract().map_err(|_| bad("action", "is not valid text"))?, Vec::new()));
    }
    if !(action.is_instance_of::<PyTuple>() || action.is_instance_of::<PyList>()) {
        return Err(bad("action", "expected a tuple (name, seat, ...) or a name"));
    }
    let items: Vec<Bound<'py, PyAny>> = action.try_iter()?.collect::<PyResult<_>>()?;
    let Some(first) = items.first() else { return Err(bad("action", "is empty")) };
    let name: String = first.extract().map_err(|_| bad("action[0]", "must be the action's name"))?;
    Ok((name, items[1..].to_vec()))
}

fn arity(name: &str, rest: &[Bound<'_, PyAny>], min: usize, max: usize) -> PyResult<()> {
    if rest.len() < min || rest.len() > max {
        let want = if min == max { format!("{min}") } else { format!("{min} or {max}") };
        return Err(bad("action", format!("{name:?} takes {want} argument(s) after its name, got {}", rest.len())));
    }
    Ok(())
}

fn deal_action(d: &Deal, action: &Bound<'_, PyAny>) -> PyResult<DealAction> {
    let (name, rest) = action_parts(action)?;
    match name.as_str() {
        "deal" | "finish" => {
            arity(&name, &rest, 0, 0)?;
            Ok(if name == "deal" { DealAction::Deal } else { DealAction::Finish })
        }
        "meng_xuan" => {
            arity(&name, &rest, 2, 2)?;
            let seat = seat_from(&rest[0], "action[1]")?;
            let cards = cards_from(&rest[1], "action[2]")?;
            if cards.len() != 1 {
                return Err(bad("action[2]", format!("夢宣 reveals one ace, got {} cards", cards.len())));
            }
            Ok(DealAction::MengXuan { seat, card: cards[0] })
        }
        "meng_chuai" => {
            arity(&name, &rest, 2, 2)?;
            let seat = seat_from(&rest[0], "action[1]")?;
            let cards = cards_from(&rest[1], "action[2]")?;
            let cards: [Card; 3] = cards.try_into().map_err(|c: Vec<Card>| bad("action[2]", format!("夢踹 shows three cards, got {}", c.len())))?;
            Ok(DealAction::MengChuai { seat, cards })
        }
        "cheng_chu" => {
            arity(&name, &rest, 1, 2)?;
            let seat = seat_from(&rest[0], "action[1]")?;
            let chu = match rest.get(1) {
                Some(c) if !c.is_none() => chu_from(c)?,
                _ => d.cheng_chu_colour(seat).py()?,
            };
            Ok(DealAction::ChengChu { seat, chu })
        }
        other => Err(bad("action", format!("unknown deal action {other:?} (deal, meng_xuan, meng_chuai, cheng_chu, finish)"))),
    }
}

fn deal_action_py(py: Python<'_>, a: &DealAction) -> PyResult<Py<PyAny>> {
    Ok(match a {
        DealAction::Deal | DealAction::Finish => (a.name(),).into_pyobject(py)?.into_any().unbind(),
        DealAction::MengXuan { seat, card } => (a.name(), *seat, card.to_string()).into_pyobject(py)?.into_any().unbind(),
        DealAction::MengChuai { seat, cards } => (a.name(), *seat, card_strings(cards)).into_pyobject(py)?.into_any().unbind(),
        DealAction::ChengChu { seat, chu } => (a.name(), *seat, chu.as_str()).into_pyobject(py)?.into_any().unbind(),
    })
}

#[pymethods]
impl DachuDeal {
    #[new]
    #[pyo3(signature = (hands, first_seat=None, rules=None))]
    fn new(hands: &Bound<'_, PyAny>, first_seat: Option<&Bound<'_, PyAny>>, rules: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
        let rules = rules_from(rules)?;
        let hands = list_from(hands, "hands", cards_from)?;
        let first = match first_seat {
            Some(s) if !s.is_none() => seat_from(s, "first_seat")?,
            _ => 0,
        };
        Ok(DachuDeal { inner: Deal::new(hands, first, rules).py()? })
    }

    fn apply(&self, action: &Bound<'_, PyAny>) -> PyResult<DachuDeal> {
        let a = deal_action(&self.inner, action)?;
        Ok(DachuDeal { inner: self.inner.apply(&a).py()? })
    }

    #[getter]
    fn legal_actions(&self, py: Python<'_>) -> PyResult<Vec<Py<PyAny>>> {
        self.inner.legal_actions().iter().map(|a| deal_action_py(py, a)).collect()
    }
    #[getter]
    fn history(&self, py: Python<'_>) -> PyResult<Vec<Py<PyAny>>> {
        self.inner.history.iter().map(|a| deal_action_py(py, a)).collect()
    }
    #[getter]
    fn dealt(&self) -> u8 {
        self.inner.dealt
    }
    #[getter]
    fn first_seat(&self) -> usize {
        self.inner.first_seat
    }
    #[getter]
    fn multiplier(&self) -> i64 {
        self.inner.multiplier
    }
    #[getter]
    fn finished(&self) -> bool {
        self.inner.finished
    }
    #[getter]
    fn declared(&self) -> bool {
        self.inner.declared()
    }
    #[getter]
    fn chu(&self) -> Option<&'static str> {
        self.inner.chu.map(|c| c.as_str())
    }
    #[getter]
    fn chu_source(&self) -> Option<&'static str> {
        self.inner.chu_source.map(|c| c.as_str())
    }
    #[getter]
    fn chu_side(&self) -> Option<Vec<usize>> {
        self.inner.chu_side()
    }
    #[getter]
    fn hands(&self) -> Vec<Vec<String>> {
        self.inner.hands().iter().map(|h| card_strings(h)).collect()
    }
    #[getter]
    fn held(&self) -> Vec<Vec<String>> {
        (0..4).map(|s| card_strings(self.inner.held(s))).collect()
    }
    #[getter]
    fn last_card(&self) -> String {
        self.inner.last_card().to_string()
    }
    #[getter]
    fn first_leader(&self) -> usize {
        self.inner.first_leader()
    }
    #[getter]
    fn meng_xuan(&self) -> Vec<Option<String>> {
        self.inner.meng_xuan.iter().map(|c| c.map(|c| c.to_string())).collect()
    }
    #[getter]
    fn meng_chuai(&self) -> Vec<Option<Vec<String>>> {
        self.inner.meng_chuai.iter().map(|c| c.map(|c| card_strings(&c))).collect()
    }
    #[getter]
    fn cheng_chu(&self) -> Vec<bool> {
        self.inner.cheng_chu.to_vec()
    }

    #[pyo3(signature = (start_seat=None, first_side=None))]
    fn calling(&self, start_seat: Option<&Bound<'_, PyAny>>, first_side: Option<&Bound<'_, PyAny>>) -> PyResult<DachuCalling> {
        let start = match start_seat {
            Some(s) if !s.is_none() => Some(seat_from(s, "start_seat")?),
            _ => None,
        };
        let first = side_from(first_side)?;
        Ok(DachuCalling { inner: self.inner.calling(start, first).py()? })
    }
}

fn side_from(obj: Option<&Bound<'_, PyAny>>) -> PyResult<Option<usize>> {
    match obj {
        Some(o) if !o.is_none() => {
            let s: String = o.extract().map_err(|_| bad("first_side", "must be \"chu\" or \"other\""))?;
            match s.as_str() {
                "chu" => Ok(Some(0)),
                "other" => Ok(Some(1)),
                _ => Err(bad("first_side", format!("{s:?} is not \"chu\" or \"other\""))),
            }
        }
        _ => Ok(None),
    }
}

// ---- the calling ----

/// Immutable calling state (RULES 3.6); `apply` returns a new one.
#[pyclass(frozen, module = "handeval._core", name = "DachuCalling")]
pub struct DachuCalling {
    inner: Calling,
}

#[pymethods]
impl DachuCalling {
    #[new]
    #[pyo3(signature = (chu_side, declared=None, multiplier=None, start_seat=None, first_side=None, rules=None))]
    fn new(
        chu_side: &Bound<'_, PyAny>,
        declared: Option<&Bound<'_, PyAny>>,
        multiplier: Option<&Bound<'_, PyAny>>,
        start_seat: Option<&Bound<'_, PyAny>>,
        first_side: Option<&Bound<'_, PyAny>>,
        rules: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let rules = rules_from(rules)?;
        let side = list_from(chu_side, "chu_side", seat_from)?;
        let m = match multiplier {
            Some(m) if !m.is_none() => int_from(m, "multiplier")?,
            _ => 1,
        };
        let start = match start_seat {
            Some(s) if !s.is_none() => seat_from(s, "start_seat")?,
            _ => 0,
        };
        let declared = flag(declared, "declared")?;
        Ok(DachuCalling { inner: Calling::new(&side, declared, m, start, side_from(first_side)?, &rules).py()? })
    }

    fn apply(&self, action: &Bound<'_, PyAny>) -> PyResult<DachuCalling> {
        let (name, rest) = action_parts(action)?;
        let call = Call::parse(&name).py()?;
        arity(&name, &rest, 1, 1)?;
        let seat = seat_from(&rest[0], "action[1]")?;
        Ok(DachuCalling { inner: self.inner.apply(seat, call).py()? })
    }

    #[getter]
    fn turn(&self) -> Option<usize> {
        self.inner.turn()
    }
    #[getter]
    fn legal_actions(&self) -> Vec<(&'static str, usize)> {
        match self.inner.turn() {
            Some(t) => self.inner.legal_calls().iter().map(|c| (c.name(), t)).collect(),
            None => Vec::new(),
        }
    }
    #[getter]
    fn multiplier(&self) -> i64 {
        self.inner.multiplier
    }
    #[getter]
    fn over(&self) -> bool {
        self.inner.is_over()
    }
    #[getter]
    fn phase(&self) -> &'static str {
        self.inner.phase()
    }
    #[getter]
    fn calling_side(&self) -> Option<&'static str> {
        self.inner.calling_side().map(side_name)
    }
    #[getter]
    fn first_side(&self) -> &'static str {
        side_name(self.inner.first_side)
    }
    /// "play", "surrender" or None while calling.
    #[getter]
    fn outcome(&self) -> Option<&'static str> {
        self.inner.outcome.map(|o| match o {
            Outcome::Play => "play",
            Outcome::Surrender { .. } => "surrender",
        })
    }
    #[getter]
    fn surrendered_side(&self) -> Option<&'static str> {
        match self.inner.outcome {
            Some(Outcome::Surrender { side }) => Some(side_name(side)),
            _ => None,
        }
    }
    #[getter]
    fn chu_side(&self) -> Vec<usize> {
        let mut v = self.inner.sides[0].clone();
        v.sort_unstable();
        v
    }
    #[getter]
    fn surrendered(&self) -> Vec<usize> {
        self.inner.surrendered()
    }
    #[getter]
    fn bei_bao_da(&self) -> Vec<usize> {
        self.inner.bei_bao_da_seats()
    }
    /// The 包踹 player of the 儲方 and of the 非儲方 (or None each).
    #[getter]
    fn bao_chuai(&self) -> (Option<usize>, Option<usize>) {
        (self.inner.sole[0], self.inner.sole[1])
    }
    #[getter]
    fn playing(&self) -> Vec<usize> {
        self.inner.playing()
    }
    #[getter]
    fn finals(&self) -> Vec<(&'static str, &'static str)> {
        self.inner.finals.iter().map(|(s, c)| (side_name(*s), c.name())).collect()
    }
    #[getter]
    fn history(&self) -> Vec<(&'static str, usize)> {
        self.inner.history.iter().map(|(s, c)| (c.name(), *s)).collect()
    }
    /// The seats still to answer in the current step, in order (empty when over).
    #[getter]
    fn waiting(&self) -> Vec<usize> {
        match &self.inner.stage {
            Stage::Side { order, idx, .. } | Stage::Bao { order, idx, .. } | Stage::Again { order, idx, .. } => order[*idx..].to_vec(),
            Stage::Over => Vec::new(),
        }
    }
}

// ---- settlement ----

type LineTuple = (&'static str, usize, i64, String);
type SettleTuple = (Option<&'static str>, bool, i64, Vec<LineTuple>, Vec<i64>, Vec<i64>);

/// (verdict, wipe_out, result_multiplier, lines, theoretical, deltas)
#[pyfunction]
#[pyo3(signature = (chu_side, places=None, base=None, multiplier=None, surrendered=None, bei_bao_da=None, escaped=None, carried=None, rules=None))]
#[allow(clippy::too_many_arguments)]
fn dc_settle(
    chu_side: &Bound<'_, PyAny>,
    places: Option<&Bound<'_, PyAny>>,
    base: Option<&Bound<'_, PyAny>>,
    multiplier: Option<&Bound<'_, PyAny>>,
    surrendered: Option<&Bound<'_, PyAny>>,
    bei_bao_da: Option<&Bound<'_, PyAny>>,
    escaped: Option<&Bound<'_, PyAny>>,
    carried: Option<&Bound<'_, PyAny>>,
    rules: Option<&Bound<'_, PyAny>>,
) -> PyResult<SettleTuple> {
    let rules = rules_from(rules)?;
    let num = |o: Option<&Bound<'_, PyAny>>, f: &str| -> PyResult<i64> {
        match o {
            Some(v) if !v.is_none() => int_from(v, f),
            _ => Ok(1),
        }
    };
    let places = match places {
        Some(p) if !p.is_none() => Some(list_from(p, "places", seat_from)?),
        _ => None,
    };
    let g = dc::Game {
        chu_side: list_from(chu_side, "chu_side", seat_from)?,
        multiplier: num(multiplier, "multiplier")?,
        base: num(base, "base")?,
        places,
        surrendered: seats_from(surrendered, "surrendered")?,
        bei_bao_da: seats_from(bei_bao_da, "bei_bao_da")?,
        escaped: seats_from(escaped, "escaped")?,
        carried: carried_from(carried, "carried")?,
    };
    let s = dc::settle(&g, &rules).py()?;
    Ok((
        s.verdict.map(|v| v.as_str()),
        s.wipe_out,
        s.result_multiplier,
        s.lines.into_iter().map(|l| (l.item, l.seat, l.amount, l.note)).collect(),
        s.theoretical,
        s.deltas,
    ))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(dc_classify, m)?)?;
    m.add_function(wrap_pyfunction!(dc_beats, m)?)?;
    m.add_function(wrap_pyfunction!(dc_beats_many, m)?)?;
    m.add_function(wrap_pyfunction!(dc_legal_plays, m)?)?;
    m.add_function(wrap_pyfunction!(dc_timeout_play, m)?)?;
    m.add_function(wrap_pyfunction!(dc_settle, m)?)?;
    m.add_class::<DachuDeal>()?;
    m.add_class::<DachuCalling>()?;
    Ok(())
}
