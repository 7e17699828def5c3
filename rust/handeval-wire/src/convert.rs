//! Conversions the games' wire modules share: cards, error paths renamed to the proto's
//! fields, and the rules messages read into the core's rules ([`WireOption`], [`wire_rules!`]).

use crate::call::Ctx;
use crate::enums::name_of;
use crate::fail::{join, Fail};
use crate::pb;
use handeval_core::cards::{Card, RANK_CHARS, SUIT_CHARS};
use handeval_core::{Error, Reason};

/// The cards of a `Cards` message (each entry one card token, parsed by the core; unset =
/// none), like the Python API given `list(m.cards)`.
pub(crate) fn cards(m: Option<&pb::Cards>) -> Result<Vec<Card>, Error> {
    handeval_core::cards::parse_tokens(m.map_or(&[][..], |c| &c.cards[..]))
}

/// A card as the protos write it (`As`): two characters, no formatting machinery.
pub(crate) fn card_string(c: Card) -> String {
    let mut s = String::with_capacity(2);
    s.push(RANK_CHARS[c.rank() as usize]);
    s.push(SUIT_CHARS[c.suit() as usize]);
    s
}

/// A `Cards` message of `cards`, in the order given.
/// How a seat may act on an offer, as both trick games' offers carry it.
pub(crate) fn acting_msg(a: handeval_core::table::Acting) -> i32 {
    use handeval_core::table::Acting;
    match a {
        Acting::Turn => pb::Acting::Turn as i32,
        Acting::MayAct => pb::Acting::MayAct as i32,
    }
}

pub(crate) fn cards_msg(cards: &[Card]) -> pb::Cards {
    pb::Cards { cards: cards.iter().map(|&c| card_string(c)).collect() }
}

/// A core error's field as the proto names it: the first segment of its
/// path renamed by `renames` (the API's argument name → the proto field; `""` drops it),
/// the whole under `prefix`.
pub(crate) fn rename(mut e: Error, renames: &[(&str, &str)], prefix: &str) -> Error {
    let field = e.field.take().unwrap_or_default();
    let (head, rest) = field.split_once('.').map_or((field.as_str(), ""), |(h, r)| (h, r));
    let (base, index) = head.find('[').map_or((head, ""), |i| head.split_at(i));
    let field = match renames.iter().find(|(from, _)| *from == base) {
        Some((_, to)) => join(&[to, index, rest]),
        None => field.clone(),
    };
    let field = join(&[prefix, &field]);
    e.field = (!field.is_empty()).then_some(field);
    e
}

// ---- rules: the proto rules message → the core's Rules ----

/// A rule option's value as its proto field carries it (`P`: bool, int32, string or an
/// enum's int32) → the core's type; `Ok(None)` for an enum's UNSPECIFIED (the default).
/// The error is the description (the field and the reason BAD_RULE are the caller's).
pub(crate) trait WireOption<P>: Sized {
    fn from_wire(value: &P) -> Result<Option<Self>, String>;
}

impl WireOption<bool> for bool {
    fn from_wire(value: &bool) -> Result<Option<bool>, String> {
        Ok(Some(*value))
    }
}

impl WireOption<i32> for u32 {
    fn from_wire(value: &i32) -> Result<Option<u32>, String> {
        u32::try_from(*value).map(Some).map_err(|_| format!("must be a non-negative integer (got {value})"))
    }
}

impl WireOption<String> for handeval_core::shisanshui::SuitOrder {
    fn from_wire(value: &String) -> Result<Option<Self>, String> {
        Self::parse(value).map(Some).map_err(|e| e.message)
    }
}

/// Enum-valued rule options: `Core => proto enum`, read by the core's `parse` of the
/// value's core name ([`name_of`]); a number the enum does not have is refused, naming the
/// enum.
macro_rules! enum_options {
    ($($core:ty => $proto:ident;)+) => {$(
        impl WireOption<i32> for $core {
            fn from_wire(value: &i32) -> Result<Option<Self>, String> {
                match name_of::<pb::$proto>(*value)? {
                    None => Ok(None),
                    Some(name) => <$core>::parse(&name).map(Some).map_err(|e| e.message),
                }
            }
        }
    )+};
}

enum_options! {
    handeval_core::shisanshui::WheelRank => ShisanshuiA2345;
    handeval_core::tienlen::TurnAfterChop => TienlenTurnAfterChop;
    handeval_core::tienlen::ChopWindow => TienlenChopWindow;
    handeval_core::dachu::rules::UnitPer => DachuUnitPer;
    handeval_core::dachu::rules::FirstCaller => DachuSide;
    handeval_core::dachu::rules::DeclareOncePer => DachuDeclareOncePer;
    handeval_core::dachu::rules::TimeoutDisplay => DachuTimeoutDisplay;
}

/// A rules error of the core's `validate()` at `<game>.rules.<option>`: the core's reason
/// when it names one, else BAD_RULE.
pub(crate) fn rules_fail(ctx: &Ctx, e: Error) -> Fail {
    let reason = if e.reason == Reason::Invalid { Reason::BadRule } else { e.reason };
    ctx.bad(&join(&["rules", e.field.as_deref().unwrap_or("")]), e.message, reason)
}

/// Declares `fn name(Option<&proto rules>, &Ctx) -> Result<core Rules, Fail>` from the
/// core's list of a game's options (called by the core's `<game>_rule_options!`, so the
/// options are not listed twice): an unset option (or an enum's UNSPECIFIED) is the
/// core's default, each set one read by its type's [`WireOption`], the whole checked by
/// the core's `validate()`; a bad value fails the request at `<game>.rules.<option>`.
macro_rules! wire_rules {
    (
        $(#[$meta:meta])*
        pub fn $fname:ident($msg:ty) -> $core:path;
        $( $(#[$ometa:meta])* $opt:ident : $ty:ty = $default:expr; )+
    ) => {
        $(#[$meta])*
        pub(crate) fn $fname(m: Option<&$msg>, ctx: &$crate::call::Ctx) -> Result<$core, $crate::fail::Fail> {
            type Core = $core; // a path cannot name a struct literal; an alias can
            let d = Core::default();
            let Some(m) = m else { return Ok(d) };
            let core = Core { $( $opt: match &m.$opt {
                None => d.$opt,
                Some(v) => <$ty as $crate::convert::WireOption<_>>::from_wire(v)
                    .map_err(|msg| ctx.bad(concat!("rules.", stringify!($opt)), msg, handeval_core::Reason::BadRule))?
                    .unwrap_or(d.$opt),
            } ),+ };
            core.validate().map_err(|e| $crate::convert::rules_fail(ctx, e))?;
            Ok(core)
        }
    };
}
pub(crate) use wire_rules;
