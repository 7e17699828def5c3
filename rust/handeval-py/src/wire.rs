//! Results written as their `handeval.v1` gRPC messages, for the server's hot path: one
//! native call and one `MergeFromString` in place of a protobuf write per field from
//! Python (most of a small Settle call's server CPU). The message types are generated
//! from `protos/` by `build.rs`, so the protos stay the one definition of the wire form;
//! `tests/test_grpc_wire.py` checks these bytes against the messages the Python
//! converter would write.

#[allow(clippy::all, dead_code)]
pub mod pb {
    include!(concat!(env!("OUT_DIR"), "/handeval.v1.rs"));
}

/// A seat index as the protos' `int32` (at most 4 seats).
fn seat(i: usize) -> i32 {
    i as i32
}

impl From<&crate::shisanshui::Settlement> for pb::ShisanshuiSettlement {
    fn from(s: &crate::shisanshui::Settlement) -> Self {
        pb::ShisanshuiSettlement {
            waters: s.waters.clone(),
            deltas: s.deltas.clone(),
            pairwise: s.pairwise.iter().map(|r| pb::IntRow { values: r.clone() }).collect(),
            fouls: s.fouls.clone(),
            specials: s.specials.iter().map(|x| x.as_ref().map(|t| t.0.to_string()).unwrap_or_default()).collect(),
            home_runs: s.home_runs.clone(),
            theoretical: s.theoretical.clone(),
            rake: s.rake,
            pairs: s
                .pairs
                .iter()
                .map(|p| pb::ShisanshuiPair {
                    a: seat(p.a),
                    b: seat(p.b),
                    kind: p.kind.0.to_string(),
                    rows: p.rows.clone(),
                    scooper: p.scooper.map(seat),
                    home_run: p.home_run,
                    waters: p.waters,
                })
                .collect(),
        }
    }
}
