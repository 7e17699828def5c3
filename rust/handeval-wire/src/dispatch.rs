//! The entry point: the answer's bytes for a request's bytes, each RPC's request decoded
//! and sent to its game's module, the answer encoded; and [`inline`], whether a request is
//! cheap enough to answer on the caller's thread.

use crate::call::{Call, Limits, Pass};
use crate::codec::{key_of, put_varint};
use crate::fail::Fail;
use crate::pb;
use crate::sched::{Turn, Turns};
use crate::{dachu as dc, shisanshui as ssw, tienlen as tl};
use handeval_core::Reason;
use prost::Message;
use std::sync::{Mutex, OnceLock};

/// The RPCs, by their names in the service.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rpc {
    Evaluate,
    Compare,
    Settle,
    Arrange,
}

impl Rpc {
    /// Every RPC.
    pub const ALL: [Rpc; 4] = [Rpc::Evaluate, Rpc::Compare, Rpc::Settle, Rpc::Arrange];

    /// The RPC of the service named `name` (`"Evaluate"`).
    pub fn from_name(name: &str) -> Option<Rpc> {
        Some(match name {
            "Evaluate" => Rpc::Evaluate,
            "Compare" => Rpc::Compare,
            "Settle" => Rpc::Settle,
            "Arrange" => Rpc::Arrange,
            _ => return None,
        })
    }

    /// The full name of the RPC's request message.
    pub fn request_type(self) -> &'static str {
        match self {
            Rpc::Evaluate => "handeval.v2.EvaluateRequest",
            Rpc::Compare => "handeval.v2.CompareRequest",
            Rpc::Settle => "handeval.v2.SettleRequest",
            Rpc::Arrange => "handeval.v2.ArrangeRequest",
        }
    }
}

/// The request `data` decoded by prost. Bytes that are not a valid message fail at the
/// request's `game` (everything a request holds is its game), prost's description
/// naming the message and field that broke.
fn decode<M: Message + Default>(rpc: Rpc, data: &[u8]) -> Result<M, Fail> {
    M::decode(data).map_err(|e| Fail::bad("game", format!("the request is not a valid {}: {e}", rpc.request_type()), Reason::Invalid))
}

fn no_game(choices: &str) -> Fail {
    Fail::bad("game", format!("set one of {choices}"), Reason::Invalid)
}

/// The answer's bytes for the request bytes `data` of `rpc`, or why there is none (a bad
/// request naming its field, a request over `limits`, a passed deadline or a cancel; see
/// [`Fail`]). `call` is the call's deadline, cancel and counts. Given `turns`, the work
/// computes only in its turns: it waits for one first and passes it on at its checks.
pub fn answer(rpc: Rpc, data: &[u8], call: &Call, limits: Limits, turns: Option<&Turns>) -> Result<Vec<u8>, Fail> {
    match turns {
        None => answer_in_turn(rpc, data, call, limits, None),
        Some(turns) => {
            let turn = Mutex::new(Turn::start(turns, || call.check_stop(|| "before its work began".to_string()))?);
            answer_in_turn(rpc, data, call, limits, Some(&turn))
        }
    }
}

fn answer_in_turn<'a>(rpc: Rpc, data: &[u8], call: &'a Call, limits: Limits, turn: Option<&'a dyn Pass>) -> Result<Vec<u8>, Fail> {
    let ctx = |game: &'static str| call.ctx(game, limits, turn);
    let out = match rpc {
        Rpc::Evaluate => {
            if let Some(out) = ssw::fast::evaluate(data, || ctx("shisanshui"))? {
                return Ok(out);
            }
            use pb::evaluate_request::Game as Q;
            use pb::evaluate_response::Game as A;
            let game = decode::<pb::EvaluateRequest>(rpc, data)?.game.ok_or_else(|| no_game("shisanshui, tienlen, dachu"))?;
            let game = match game {
                Q::Shisanshui(r) => A::Shisanshui(ssw::evaluate(r, &ctx("shisanshui"))?),
                Q::Tienlen(r) => A::Tienlen(tl::evaluate(r, &ctx("tienlen"))?),
                Q::Dachu(r) => A::Dachu(dc::evaluate(r, &ctx("dachu"))?),
            };
            pb::EvaluateResponse { game: Some(game) }.encode_to_vec()
        }
        Rpc::Compare => {
            use pb::compare_request::Game as Q;
            use pb::compare_response::Game as A;
            let game = decode::<pb::CompareRequest>(rpc, data)?.game.ok_or_else(|| no_game("shisanshui, tienlen, dachu"))?;
            let game = match game {
                Q::Shisanshui(r) => A::Shisanshui(ssw::compare(r, &ctx("shisanshui"))?),
                Q::Tienlen(r) => A::Tienlen(tl::compare(r, &ctx("tienlen"))?),
                Q::Dachu(r) => A::Dachu(dc::compare(r, &ctx("dachu"))?),
            };
            pb::CompareResponse { game: Some(game) }.encode_to_vec()
        }
        Rpc::Settle => {
            use pb::settle_request::Game as Q;
            use pb::settle_response::Game as A;
            let game = decode::<pb::SettleRequest>(rpc, data)?.game.ok_or_else(|| no_game("shisanshui, tienlen, dachu"))?;
            let game = match game {
                Q::Shisanshui(r) => A::Shisanshui(ssw::settle(r, &ctx("shisanshui"))?),
                Q::Tienlen(r) => A::Tienlen(tl::settle(r, &ctx("tienlen"))?),
                Q::Dachu(r) => A::Dachu(dc::settle(r, &ctx("dachu"))?),
            };
            pb::SettleResponse { game: Some(game) }.encode_to_vec()
        }
        Rpc::Arrange => {
            use pb::arrange_request::Game as Q;
            use pb::arrange_response::Game as A;
            let game = decode::<pb::ArrangeRequest>(rpc, data)?.game.ok_or_else(|| no_game("shisanshui"))?;
            let game = match game {
                Q::Shisanshui(r) => A::Shisanshui(ssw::arrange(r, &ctx("shisanshui"))?),
            };
            pb::ArrangeResponse { game: Some(game) }.encode_to_vec()
        }
    };
    Ok(out)
}

/// Requests of at most this many bytes are answered on the servicer's event loop (not an
/// Arrange, and asking no suggestion): decoding, work and encoding cost tens of ns per
/// byte for every other item kind, so the largest takes well under a millisecond, less
/// than the hop to a worker thread and back.
pub const INLINE_BYTES: usize = 1024;

/// The bytes of a game record's `suggest` key, as on the wire (from the protos: the
/// same field in both games' records, checked by a test): a request that holds them may
/// ask for a search (up to ~0.12 s at the largest effort) that its size does not tell.
/// Other bytes that happen to match only send a small request to the thread pool.
fn suggest_key() -> &'static [u8] {
    static KEY: OnceLock<Vec<u8>> = OnceLock::new();
    KEY.get_or_init(|| {
        let mut out = Vec::new();
        put_varint(key_of(pb::TienlenGameRecord { suggest: Some(Default::default()), ..Default::default() }), &mut out);
        out
    })
}

/// Whether the request `data` of `rpc` is cheap enough to answer on the caller's thread
/// (the servicer's event loop), from its size and shape alone (nothing decoded): at most
/// [`INLINE_BYTES`] and asking no suggestion, or a 十三水 Evaluate of card-string rows or
/// packed rows whose work a walk over its fields prices at most `budget` seconds (stopped
/// once past it). Never an Arrange, nor an RPC the service does not have (`None`).
pub fn inline(rpc: Option<Rpc>, data: &[u8], budget: f64) -> bool {
    match rpc {
        None | Some(Rpc::Arrange) => false,
        Some(_) if data.len() <= INLINE_BYTES => {
            let key = suggest_key();
            !data.windows(key.len()).any(|w| w == key)
        }
        Some(Rpc::Evaluate) => ssw::fast::within(data, budget),
        Some(_) => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use prost::Message;

    #[test]
    fn both_games_records_ask_a_suggestion_by_the_same_key() {
        let dachu = key_of(pb::DachuGameRecord { suggest: Some(Default::default()), ..Default::default() });
        let mut out = Vec::new();
        put_varint(dachu, &mut out);
        assert_eq!(out, suggest_key());
        assert_eq!(suggest_key(), [0x92, 0x03]);
    }

    fn tienlen_game(suggest: Option<pb::SuggestQuery>) -> Vec<u8> {
        use pb::tienlen_evaluate_item::Item;
        let hands = ["3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks 2c 2d", "3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh 2s 2h"]
            .iter()
            .map(|h| pb::Cards { cards: h.split(' ').map(str::to_string).collect() })
            .collect();
        let record = pb::TienlenGameRecord { hands, suggest, ..Default::default() };
        let req =
            pb::TienlenEvaluateRequest { items: vec![pb::TienlenEvaluateItem { item: Some(Item::Game(record)) }], ..Default::default() };
        pb::EvaluateRequest { game: Some(pb::evaluate_request::Game::Tienlen(req)) }.encode_to_vec()
    }

    #[test]
    fn a_small_request_asking_a_suggestion_is_not_answered_on_the_loop() {
        let plain = tienlen_game(None);
        let asking = tienlen_game(Some(pb::SuggestQuery { effort: Some(64), ..Default::default() }));
        assert!(asking.len() <= INLINE_BYTES, "{} bytes", asking.len());
        assert!(inline(Some(Rpc::Evaluate), &plain, 1e-3));
        assert!(!inline(Some(Rpc::Evaluate), &asking, 1e-3));
        assert!(!inline(Some(Rpc::Arrange), &plain, 1e-3));
        // Even an empty query (the default effort) carries the key.
        assert!(!inline(Some(Rpc::Evaluate), &tienlen_game(Some(pb::SuggestQuery::default())), 1e-3));
    }
}
