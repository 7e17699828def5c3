//! 十三水 results written as their `handeval.v2` messages (see `crate::wire`).

use crate::wire::pb;

/// A seat index as the protos' `int32` (at most 4 seats).
fn seat(i: usize) -> i32 {
    i as i32
}

const SPECIAL: &str = "SHISANSHUI_SPECIAL_KIND_";
const PAIR_KIND: &str = "SHISANSHUI_PAIR_KIND_";

/// The proto enum value of the core's name `name` (e.g. `"liu_dui_ban"`): the enum value
/// named `prefix` + the name upper-cased. Every name has one (`tests/grpc/test_grpc_protos.py`
/// checks the enums against the core's lists); 0 (UNSPECIFIED) if not.
fn enum_value(prefix: &str, name: &str) -> i32 {
    let full = format!("{prefix}{}", name.to_ascii_uppercase());
    if prefix == SPECIAL {
        pb::ShisanshuiSpecialKind::from_str_name(&full).map_or(0, |k| k as i32)
    } else {
        pb::ShisanshuiPairKind::from_str_name(&full).map_or(0, |k| k as i32)
    }
}

impl From<&super::Settlement> for pb::ShisanshuiSettlement {
    fn from(s: &super::Settlement) -> Self {
        pb::ShisanshuiSettlement {
            waters: s.waters.clone(),
            deltas: s.deltas.clone(),
            pairwise: s.pairwise.iter().map(|r| pb::IntRow { values: r.clone() }).collect(),
            fouls: s.fouls.clone(),
            specials: s.specials.iter().map(|x| x.as_ref().map(|t| enum_value(SPECIAL, &t.0)).unwrap_or(0)).collect(),
            home_runs: s.home_runs.clone(),
            theoretical: s.theoretical.clone(),
            rake: s.rake,
            pairs: s
                .pairs
                .iter()
                .map(|p| pb::ShisanshuiPair {
                    a: seat(p.a),
                    b: seat(p.b),
                    kind: enum_value(PAIR_KIND, &p.kind.0),
                    rows: p.rows.clone(),
                    scooper: p.scooper.map(seat),
                    home_run: p.home_run,
                    waters: p.waters,
                })
                .collect(),
        }
    }
}

// ---- the RPCs (`crate::wire::answer` dispatches here); None: answered in Python ----

use crate::wire::{Ctx, Fail};

pub fn evaluate(_req: pb::ShisanshuiEvaluateRequest, _ctx: &Ctx) -> Result<Option<pb::ShisanshuiEvaluateResponse>, Fail> {
    Ok(None)
}

pub fn compare(_req: pb::ShisanshuiCompareRequest, _ctx: &Ctx) -> Result<Option<pb::ShisanshuiCompareResponse>, Fail> {
    Ok(None)
}

pub fn settle(_req: pb::ShisanshuiSettleRequest, _ctx: &Ctx) -> Result<Option<pb::ShisanshuiSettleResponse>, Fail> {
    Ok(None)
}

pub fn arrange(_req: pb::ShisanshuiArrangeRequest, _ctx: &Ctx) -> Result<Option<pb::ShisanshuiArrangeResponse>, Fail> {
    Ok(None)
}
