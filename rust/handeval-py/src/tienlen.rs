//! Binding of handeval_core::tienlen (越式13张).

use crate::conv::{bad, RuleAttrs, card_strings, cards_from, carried_from, int_from, list_from, IntoPyResult};
use handeval_core::cards::Card;
use handeval_core::tienlen::{self as tl, play, Action, Play, Rules, RoundState, Transfer};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString, PyTuple};

/// `None` → default rules; otherwise any object with the option attributes (the Python
/// `tienlen.Rules` dataclass).
fn rules_from(obj: Option<&Bound<'_, PyAny>>) -> PyResult<Rules> {
    let Some(o) = obj.filter(|o| !o.is_none()) else { return Ok(Rules::default()) };
    let r = RuleAttrs(o);
    let rules = Rules {
        first_lead_must_contain_lowest: r.flag("first_lead_must_contain_lowest")?,
        unplayed_loser_adds_multipliers: r.flag("unplayed_loser_adds_multipliers")?,
        turn_after_chop: tl::TurnAfterChop::parse(&r.text("turn_after_chop")?).map_err(|e| e.within("rules")).py()?,
        rake_percent: r.count("rake_percent", "0..100")?,
    };
    rules.validate().map_err(|e| e.within("rules")).py()?;
    Ok(rules)
}

fn usize_from(obj: &Bound<'_, PyAny>, field: &str) -> PyResult<usize> {
    let v = int_from(obj, field)?;
    usize::try_from(v).map_err(|_| bad(field, format!("seat {v} is not in the game (seats are 0..3)")))
}

fn players_from(obj: Option<&Bound<'_, PyAny>>) -> PyResult<usize> {
    match obj {
        Some(o) if !o.is_none() => {
            let v = int_from(o, "players")?;
            usize::try_from(v).map_err(|_| bad("players", format!("越式13张 has 2 to 4 players (got {v})")))
        }
        _ => Ok(4),
    }
}

fn opt<T>(obj: Option<&Bound<'_, PyAny>>, f: impl FnOnce(&Bound<'_, PyAny>) -> PyResult<T>) -> PyResult<Option<T>> {
    match obj {
        Some(o) if !o.is_none() => f(o).map(Some),
        _ => Ok(None),
    }
}

/// Cards, or a `tienlen.Play` (anything else with a `.cards` attribute) standing for its cards.
fn set_from(obj: &Bound<'_, PyAny>, field: &str) -> PyResult<Vec<Card>> {
    if !(obj.is_instance_of::<PyString>() || obj.is_instance_of::<PyList>() || obj.is_instance_of::<PyTuple>()) {
        if let Ok(cards) = obj.getattr("cards") {
            return cards_from(&cards, field);
        }
    }
    cards_from(obj, field)
}

fn play_from(obj: &Bound<'_, PyAny>, field: &str) -> PyResult<Play> {
    let cards = set_from(obj, field)?;
    tl::classify(&cards).map_err(|e| e.within(field)).py()
}

/// (kind, kind_zh, cards lowest first, top card, strength of the top card)
type PlayTuple = (&'static str, &'static str, Vec<String>, String, u8);

fn play_tuple(p: &Play) -> PlayTuple {
    (p.kind().name(), p.kind().name_zh(), card_strings(&p.cards), p.top_card().to_string(), p.key.top)
}

#[pyfunction]
fn tl_classify(cards: &Bound<'_, PyAny>) -> PyResult<PlayTuple> {
    Ok(play_tuple(&play_from(cards, "cards")?))
}

/// Kinds of many sets; parsing holds the GIL, classification releases it. A set that is
/// not a play raises, naming `sets[i]`.
#[pyfunction]
fn tl_classify_many(py: Python<'_>, sets: &Bound<'_, PyAny>) -> PyResult<Vec<Py<PyString>>> {
    let parsed = sets_from(sets, "sets")?;
    let kinds = py.detach(|| {
        parsed.iter().enumerate().map(|(i, s)| tl::classify(s).map(|p| p.kind() as usize).map_err(|e| e.within(&format!("sets[{i}]")))).collect::<Result<Vec<_>, _>>()
    }).py()?;
    let names: Vec<Py<PyString>> = tl::Kind::ALL.iter().map(|k| PyString::intern(py, k.name()).unbind()).collect();
    Ok(kinds.iter().map(|&k| names[k].clone_ref(py)).collect())
}

#[pyfunction]
fn tl_beats(play: &Bound<'_, PyAny>, table: &Bound<'_, PyAny>) -> PyResult<bool> {
    let (b, a) = (play_from(play, "play")?, play_from(table, "table")?);
    tl::beats(&b, &a).py()
}

/// Why `play` does not beat `table`, or None when it does.
#[pyfunction]
fn tl_why_not(play: &Bound<'_, PyAny>, table: &Bound<'_, PyAny>) -> PyResult<Option<String>> {
    let (b, a) = (play_from(play, "play")?, play_from(table, "table")?);
    tl::beats(&b, &a).py()?;
    Ok(play::why_not(&b, &a))
}

/// A list of card sets: the quick path per set, the named one for errors.
fn sets_from(obj: &Bound<'_, PyAny>, field: &str) -> PyResult<Vec<Vec<Card>>> {
    if obj.is_instance_of::<PyString>() || !(obj.is_instance_of::<PyList>() || obj.is_instance_of::<PyTuple>()) {
        return Err(bad(field, "expected a list of card sets"));
    }
    obj.try_iter()?
        .enumerate()
        .map(|(i, x)| {
            let x = x?;
            match crate::conv::quick_cards(&x) {
                Some(c) => Ok(c),
                None => set_from(&x, &format!("{field}[{i}]")),
            }
        })
        .collect()
}

/// (play, table) of one pair: the quick path, else the named one for the error.
fn pair_from(item: &Bound<'_, PyAny>, i: usize) -> PyResult<(Vec<Card>, Vec<Card>)> {
    let two = if let Ok(t) = item.cast::<PyTuple>() {
        (t.len() == 2).then(|| (t.get_item(0), t.get_item(1)))
    } else if let Ok(l) = item.cast::<PyList>() {
        (l.len() == 2).then(|| (l.get_item(0), l.get_item(1)))
    } else {
        None
    };
    let f = || format!("pairs[{i}]");
    let Some((b, a)) = two else {
        return Err(bad(&f(), "expected a (play, table) pair"));
    };
    let (b, a) = (b?, a?);
    let b = match crate::conv::quick_cards(&b) {
        Some(c) => c,
        None => set_from(&b, &format!("{}[0]", f()))?,
    };
    let a = match crate::conv::quick_cards(&a) {
        Some(c) => c,
        None => set_from(&a, &format!("{}[1]", f()))?,
    };
    Ok((b, a))
}

/// `beats` over many (play, table) pairs: cards are parsed with the GIL held, then
/// classification and beating run with it released.
#[pyfunction]
fn tl_beats_many(py: Python<'_>, pairs: &Bound<'_, PyAny>) -> PyResult<Vec<bool>> {
    if pairs.is_instance_of::<PyString>() || !(pairs.is_instance_of::<PyList>() || pairs.is_instance_of::<PyTuple>()) {
        return Err(bad("pairs", "expected a list of (play, table) pairs"));
    }
    let parsed = pairs.try_iter()?.enumerate().map(|(i, x)| pair_from(&x?, i)).collect::<PyResult<Vec<_>>>()?;
    py.detach(|| {
        parsed
            .iter()
            .enumerate()
            .map(|(i, (b, a))| {
                let f = || format!("pairs[{i}]");
                let b = tl::classify(b).map_err(|e| e.within(&format!("{}[0]", f())))?;
                let a = tl::classify(a).map_err(|e| e.within(&format!("{}[1]", f())))?;
                tl::beats(&b, &a).map_err(|e| e.within(&f()))
            })
            .collect::<Result<Vec<bool>, _>>()
    })
    .py()
}

#[pyfunction]
#[pyo3(signature = (hand, table=None, passed=false))]
fn tl_legal_plays(py: Python<'_>, hand: &Bound<'_, PyAny>, table: Option<&Bound<'_, PyAny>>, passed: bool) -> PyResult<Vec<PlayTuple>> {
    let hand = cards_from(hand, "hand")?;
    let table = opt(table, |t| play_from(t, "table"))?;
    let plays = py.detach(|| tl::legal_plays(&hand, table.as_ref(), passed)).py()?;
    Ok(plays.iter().map(play_tuple).collect())
}

type InstantTuple = (&'static str, &'static str, Vec<String>);

fn instant_tuple(h: &tl::InstantHand) -> InstantTuple {
    (h.kind.name(), h.kind.name_zh(), card_strings(&h.cards))
}

fn hand13(obj: &Bound<'_, PyAny>, field: &str) -> PyResult<Vec<Card>> {
    let cards = cards_from(obj, field)?;
    if cards.len() != 13 {
        return Err(bad(field, format!("a dealt hand has 13 cards (got {})", cards.len())));
    }
    Ok(cards)
}

#[pyfunction]
fn tl_instant_win(cards: &Bound<'_, PyAny>) -> PyResult<Option<InstantTuple>> {
    let cards = hand13(cards, "cards13")?;
    Ok(tl::instant_win(&cards).py()?.as_ref().map(instant_tuple))
}

/// (per-seat instant win or None, winning seat or None)
#[pyfunction]
fn tl_instant_winner(hands: &Bound<'_, PyAny>) -> PyResult<(Vec<Option<InstantTuple>>, Option<usize>)> {
    let hands = list_from(hands, "hands", hand13)?;
    let (wins, best) = tl::instant_winner(&hands).py()?;
    Ok((wins.iter().map(|w| w.as_ref().map(instant_tuple)).collect(), best))
}

#[pyfunction]
fn tl_first_leader(hands: &Bound<'_, PyAny>) -> PyResult<(usize, String)> {
    let hands = list_from(hands, "hands", cards_from)?;
    let (seat, card) = tl::first_leader(&hands).py()?;
    Ok((seat, card.to_string()))
}

fn action_from(obj: &Bound<'_, PyAny>, field: &str) -> PyResult<Action> {
    if obj.is_instance_of::<PyString>() {
        let s: String = obj.extract().map_err(|_| bad(field, "is not valid text"))?;
        if s.trim().eq_ignore_ascii_case("pass") {
            return Ok(Action::Pass);
        }
    }
    let cards = set_from(obj, field)?;
    if cards.is_empty() {
        return Err(bad(field, "an empty play: write \"pass\" to pass"));
    }
    Ok(Action::Play(cards))
}

/// `[[seat, "cards" | "pass"], ...]`
fn round_from(obj: &Bound<'_, PyAny>) -> PyResult<Vec<(usize, Action)>> {
    round_named(obj, "round")
}

fn round_named(obj: &Bound<'_, PyAny>, field: &str) -> PyResult<Vec<(usize, Action)>> {
    list_from(obj, field, |item, f| {
        let ok = (item.is_instance_of::<PyList>() || item.is_instance_of::<PyTuple>()) && item.len()? == 2;
        if !ok {
            return Err(bad(f, "expected [seat, \"cards\" or \"pass\"]"));
        }
        let seat = usize_from(&item.get_item(0)?, &format!("{f}[0]"))?;
        Ok((seat, action_from(&item.get_item(1)?, &format!("{f}[1]"))?))
    })
}

fn replay(
    round: &Bound<'_, PyAny>,
    players: Option<&Bound<'_, PyAny>>,
    leader: Option<&Bound<'_, PyAny>>,
    must_contain: Option<&Bound<'_, PyAny>>,
    rules: Option<&Bound<'_, PyAny>>,
) -> PyResult<RoundState> {
    let rules = rules_from(rules)?;
    let actions = round_from(round)?;
    let players = players_from(players)?;
    let leader = opt(leader, |l| usize_from(l, "leader"))?;
    let must = opt(must_contain, |c| {
        let cs = cards_from(c, "must_contain")?;
        if cs.len() != 1 {
            return Err(bad("must_contain", format!("expected one card, got {}", cs.len())));
        }
        Ok(cs[0])
    })?;
    RoundState::replay(players, leader, must, &actions, &rules).py()
}

/// (plays [(seat, play)], passed seats, to_move, over, next_leader, leader)
type StateTuple = (Vec<(usize, PlayTuple)>, Vec<usize>, Option<usize>, bool, Option<usize>, usize);

fn state_tuple(st: &RoundState) -> StateTuple {
    (
        st.plays.iter().map(|(s, p)| (*s, play_tuple(p))).collect(),
        (0..st.players).filter(|&s| st.passed[s]).collect(),
        st.to_move,
        st.is_over(),
        st.next_leader(),
        st.leader,
    )
}

#[pyfunction]
#[pyo3(signature = (round, players=None, leader=None, must_contain=None, rules=None))]
fn tl_round_state(
    round: &Bound<'_, PyAny>,
    players: Option<&Bound<'_, PyAny>>,
    leader: Option<&Bound<'_, PyAny>>,
    must_contain: Option<&Bound<'_, PyAny>>,
    rules: Option<&Bound<'_, PyAny>>,
) -> PyResult<StateTuple> {
    Ok(state_tuple(&replay(round, players, leader, must_contain, rules)?))
}

/// None when `seat` may make `action` now, else the reason; bad input raises.
#[pyfunction]
#[pyo3(signature = (round, seat, action, players=None, leader=None, must_contain=None, rules=None))]
#[allow(clippy::too_many_arguments)]
fn tl_check_action(
    round: &Bound<'_, PyAny>,
    seat: &Bound<'_, PyAny>,
    action: &Bound<'_, PyAny>,
    players: Option<&Bound<'_, PyAny>>,
    leader: Option<&Bound<'_, PyAny>>,
    must_contain: Option<&Bound<'_, PyAny>>,
    rules: Option<&Bound<'_, PyAny>>,
) -> PyResult<Option<String>> {
    let st = replay(round, players, leader, must_contain, rules)?;
    let seat = usize_from(seat, "seat")?;
    let action = action_from(action, "action")?;
    Ok(st.check(seat, &action).py()?.err())
}

#[pyfunction]
#[pyo3(signature = (round, base, players=None, leader=None, rules=None))]
fn tl_chop_transfers(
    round: &Bound<'_, PyAny>,
    base: &Bound<'_, PyAny>,
    players: Option<&Bound<'_, PyAny>>,
    leader: Option<&Bound<'_, PyAny>>,
    rules: Option<&Bound<'_, PyAny>>,
) -> PyResult<Vec<(usize, usize, i64)>> {
    let rules = rules_from(rules)?;
    let actions = round_from(round)?;
    let base = int_from(base, "base")?;
    let players = players_from(players)?;
    let leader = opt(leader, |l| usize_from(l, "leader"))?;
    Ok(tl::chop_transfers(players, leader, &actions, base, &rules).py()?.iter().map(|t| (t.from, t.to, t.amount)).collect())
}

/// ([(kind, cards)], total multiplier)
type GroupsTuple = (Vec<(&'static str, Vec<String>)>, i64);

#[pyfunction]
fn tl_special_groups(cards: &Bound<'_, PyAny>) -> PyResult<GroupsTuple> {
    let cards = cards_from(cards, "cards")?;
    if cards.len() > 13 {
        return Err(bad("cards", format!("a hand has at most 13 cards (got {})", cards.len())));
    }
    let (groups, total) = tl::special_groups(&cards);
    Ok((groups.iter().map(|g| (g.kind.name(), card_strings(&g.cards))).collect(), total))
}

/// One entry of `chops`: a transfer (`{"from", "to", "amount"}` or `(from, to, amount)`),
/// or a whole round `[[seat, cards | "pass"], ...]` whose chop chain is settled here.
fn chop_item(obj: &Bound<'_, PyAny>, field: &str) -> PyResult<tl::Chop> {
    let is_seq = obj.is_instance_of::<PyList>() || obj.is_instance_of::<PyTuple>();
    let is_transfer_tuple = is_seq && obj.len()? == 3 && obj.try_iter()?.all(|x| x.is_ok_and(|x| x.is_instance_of::<pyo3::types::PyInt>()));
    if is_seq && !is_transfer_tuple {
        return Ok(tl::Chop::Round(round_named(obj, field)?));
    }
    Ok(tl::Chop::Transfer(transfer_from(obj, field)?))
}

fn transfer_from(obj: &Bound<'_, PyAny>, field: &str) -> PyResult<Transfer> {
    let get = |k: &str, i: usize| -> PyResult<Bound<'_, PyAny>> {
        if let Ok(d) = obj.cast::<PyDict>() {
            return d.get_item(k)?.ok_or_else(|| bad(field, format!("missing \"{k}\"")));
        }
        if (obj.is_instance_of::<PyList>() || obj.is_instance_of::<PyTuple>()) && obj.len()? == 3 {
            return obj.get_item(i);
        }
        Err(bad(field, "expected {\"from\": seat, \"to\": seat, \"amount\": int} or (from, to, amount)"))
    };
    Ok(Transfer {
        from: usize_from(&get("from", 0)?, &format!("{field}.from"))?,
        to: usize_from(&get("to", 1)?, &format!("{field}.to"))?,
        amount: int_from(&get("amount", 2)?, &format!("{field}.amount"))?,
    })
}

/// (kind, seat, other, multiplier, amount, cards, text)
type LineTuple = (&'static str, usize, Option<usize>, i64, i64, Vec<String>, String);
/// (deltas, rake, lines, pays, chops, theoretical, capped, winner, instant kinds)
type SettleTuple = (Vec<i64>, i64, Vec<LineTuple>, Vec<i64>, Vec<i64>, Vec<i64>, Vec<i64>, usize, Vec<Option<&'static str>>);

fn settle_tuple(s: tl::Settlement) -> SettleTuple {
    (
        s.deltas,
        s.rake,
        s.lines.iter().map(|l| (l.kind.name(), l.seat, l.other, l.multiplier, l.amount, card_strings(&l.cards), l.text.clone())).collect(),
        s.pays,
        s.chops,
        s.theoretical,
        s.capped,
        s.winner,
        s.instant.iter().map(|k| k.map(|k| k.name())).collect(),
    )
}

#[pyfunction]
#[pyo3(signature = (remaining, winner, base, played_any=None, chops=None, carried=None, rules=None))]
#[allow(clippy::too_many_arguments)]
fn tl_settle(
    remaining: &Bound<'_, PyAny>,
    winner: &Bound<'_, PyAny>,
    base: &Bound<'_, PyAny>,
    played_any: Option<&Bound<'_, PyAny>>,
    chops: Option<&Bound<'_, PyAny>>,
    carried: Option<&Bound<'_, PyAny>>,
    rules: Option<&Bound<'_, PyAny>>,
) -> PyResult<SettleTuple> {
    let rules = rules_from(rules)?;
    let remaining = sets_from(remaining, "remaining")?;
    let winner = usize_from(winner, "winner")?;
    let base = int_from(base, "base")?;
    let played_any = opt(played_any, |p| {
        list_from(p, "played_any", |x, f| {
            if !x.is_instance_of::<pyo3::types::PyBool>() {
                return Err(bad(f, "must be a bool"));
            }
            x.extract::<bool>()
        })
    })?;
    let chops = opt(chops, |c| list_from(c, "chops", chop_item))?.unwrap_or_default();
    let chops = tl::chop_list(&remaining, &chops, base, &rules).py()?;
    let carried = carried_from(carried, "carried")?;
    Ok(settle_tuple(tl::settle(&remaining, winner, base, played_any.as_deref(), &chops, carried.as_deref(), &rules).py()?))
}

#[pyfunction]
#[pyo3(signature = (hands13, base, carried=None, rules=None))]
fn tl_settle_instant(
    hands13: &Bound<'_, PyAny>,
    base: &Bound<'_, PyAny>,
    carried: Option<&Bound<'_, PyAny>>,
    rules: Option<&Bound<'_, PyAny>>,
) -> PyResult<SettleTuple> {
    let rules = rules_from(rules)?;
    let hands = list_from(hands13, "hands13", hand13)?;
    let base = int_from(base, "base")?;
    let carried = carried_from(carried, "carried")?;
    Ok(settle_tuple(tl::settle_instant(&hands, base, carried.as_deref(), &rules).py()?))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(tl_classify, m)?)?;
    m.add_function(wrap_pyfunction!(tl_classify_many, m)?)?;
    m.add_function(wrap_pyfunction!(tl_beats, m)?)?;
    m.add_function(wrap_pyfunction!(tl_why_not, m)?)?;
    m.add_function(wrap_pyfunction!(tl_beats_many, m)?)?;
    m.add_function(wrap_pyfunction!(tl_legal_plays, m)?)?;
    m.add_function(wrap_pyfunction!(tl_instant_win, m)?)?;
    m.add_function(wrap_pyfunction!(tl_instant_winner, m)?)?;
    m.add_function(wrap_pyfunction!(tl_first_leader, m)?)?;
    m.add_function(wrap_pyfunction!(tl_round_state, m)?)?;
    m.add_function(wrap_pyfunction!(tl_check_action, m)?)?;
    m.add_function(wrap_pyfunction!(tl_chop_transfers, m)?)?;
    m.add_function(wrap_pyfunction!(tl_special_groups, m)?)?;
    m.add_function(wrap_pyfunction!(tl_settle, m)?)?;
    m.add_function(wrap_pyfunction!(tl_settle_instant, m)?)?;
    Ok(())
}
