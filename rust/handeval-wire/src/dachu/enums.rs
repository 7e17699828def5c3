//! 打儲's proto enums and the core's names of their values (`DACHU_COLOUR_RED` ↔ `"red"`).

use crate::convert::{enum_name, enum_value};
use crate::pb;

/// A generated proto enum: its value names are `PREFIX` + the core's name upper-cased.
pub(crate) trait ProtoEnum: Sized + Copy + TryFrom<i32> + Into<i32> {
    const TYPE: &'static str;
    const PREFIX: &'static str;
    fn full_name(self) -> &'static str;
    fn from_full(name: &str) -> Option<Self>;
}

macro_rules! proto_enums {
    ($($t:ident = $prefix:literal;)+) => {$(
        impl ProtoEnum for pb::$t {
            const TYPE: &'static str = stringify!($t);
            const PREFIX: &'static str = $prefix;
            fn full_name(self) -> &'static str {
                self.as_str_name()
            }
            fn from_full(name: &str) -> Option<Self> {
                Self::from_str_name(name)
            }
        }
    )+};
}

proto_enums! {
    DachuColour = "DACHU_COLOUR_";
    DachuSide = "DACHU_SIDE_";
    DachuUnitPer = "DACHU_UNIT_PER_";
    DachuDeclareOncePer = "DACHU_DECLARE_ONCE_PER_";
    DachuTimeoutDisplay = "DACHU_TIMEOUT_DISPLAY_";
    DachuPlayKind = "DACHU_PLAY_KIND_";
    DachuDealActionKind = "DACHU_DEAL_ACTION_KIND_";
    DachuChuSource = "DACHU_CHU_SOURCE_";
    DachuCallKind = "DACHU_CALL_KIND_";
    DachuCallingPhase = "DACHU_CALLING_PHASE_";
    DachuCallingOutcome = "DACHU_CALLING_OUTCOME_";
    DachuVerdict = "DACHU_VERDICT_";
    DachuLineKind = "DACHU_LINE_KIND_";
}

/// The core's name of the proto enum value `v` (`DACHU_COLOUR_RED` → `"red"`); None for
/// UNSPECIFIED; a number the enum does not have is the error message (`convert::enum_name`).
pub(crate) fn name_of<E: ProtoEnum>(v: i32) -> Result<Option<String>, String> {
    enum_name::<E>(v, E::PREFIX, E::TYPE, |e| e.full_name())
}

/// The proto enum value of the core's name (`convert::enum_value`).
pub(crate) fn value_of<E: ProtoEnum>(name: &str) -> i32 {
    enum_value(E::from_full, E::PREFIX, name)
}
