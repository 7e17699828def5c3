//! 打儲 requests and answers on the wire (see `crate::wire`): decoded from and encoded to
//! their `handeval.v2` messages here, from the core's types.

use crate::wire::{pb, Ctx, Fail};

// ---- the RPCs (`crate::wire::answer` dispatches here); None: answered in Python ----

pub fn evaluate(_req: pb::DachuEvaluateRequest, _ctx: &Ctx) -> Result<Option<pb::DachuEvaluateResponse>, Fail> {
    Ok(None)
}

pub fn compare(_req: pb::DachuCompareRequest, _ctx: &Ctx) -> Result<Option<pb::DachuCompareResponse>, Fail> {
    Ok(None)
}

pub fn settle(_req: pb::DachuSettleRequest, _ctx: &Ctx) -> Result<Option<pb::DachuSettleResponse>, Fail> {
    Ok(None)
}
