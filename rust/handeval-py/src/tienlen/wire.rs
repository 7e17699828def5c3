//! 越式13张 requests and answers on the wire (see `crate::wire`): decoded from and encoded to
//! their `handeval.v2` messages here, from the core's types.

use crate::wire::{pb, Ctx, Fail};

// ---- the RPCs (`crate::wire::answer` dispatches here); None: answered in Python ----

pub fn evaluate(_req: pb::TienlenEvaluateRequest, _ctx: &Ctx) -> Result<Option<pb::TienlenEvaluateResponse>, Fail> {
    Ok(None)
}

pub fn compare(_req: pb::TienlenCompareRequest, _ctx: &Ctx) -> Result<Option<pb::TienlenCompareResponse>, Fail> {
    Ok(None)
}

pub fn settle(_req: pb::TienlenSettleRequest, _ctx: &Ctx) -> Result<Option<pb::TienlenSettleResponse>, Fail> {
    Ok(None)
}
