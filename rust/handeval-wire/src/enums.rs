//! The protos' enums and the core's names of their values (`DACHU_COLOUR_RED` ↔
//! `"red"`): the one mapping, for every enum the wire reads or writes ([`value_of`],
//! [`name_of`]), with no allocation per value.

use crate::pb;

/// A generated proto enum whose value names are `PREFIX` + a core name upper-cased
/// (`DACHU_COLOUR_` + `red`); its zero is `PREFIX` + `UNSPECIFIED` (a test checks both
/// against the generated code). `TYPE` names it in errors.
pub(crate) trait ProtoEnum: Sized + Copy + TryFrom<i32> + Into<i32> {
    const TYPE: &'static str;
    const PREFIX: &'static str;
    fn full_name(self) -> &'static str;
    fn from_full(name: &str) -> Option<Self>;
}

macro_rules! proto_enums {
    ($($t:ident = $prefix:literal;)+) => {
        $(impl ProtoEnum for pb::$t {
            const TYPE: &'static str = stringify!($t);
            const PREFIX: &'static str = $prefix;
            fn full_name(self) -> &'static str {
                self.as_str_name()
            }
            fn from_full(name: &str) -> Option<Self> {
                Self::from_str_name(name)
            }
        })+
        /// Each enum's prefix and its generated zero value.
        #[cfg(test)]
        fn prefix_checks() -> Vec<(&'static str, &'static str)> {
            vec![$(($prefix, pb::$t::Unspecified.as_str_name())),+]
        }
    };
}

proto_enums! {
    ErrorReason = "ERROR_REASON_";
    ShisanshuiA2345 = "SHISANSHUI_A2345_";
    ShisanshuiCategory = "SHISANSHUI_CATEGORY_";
    ShisanshuiSpecialKind = "SHISANSHUI_SPECIAL_KIND_";
    ShisanshuiPairKind = "SHISANSHUI_PAIR_KIND_";
    TienlenTurnAfterChop = "TIENLEN_TURN_AFTER_CHOP_";
    TienlenChopWindow = "TIENLEN_CHOP_WINDOW_";
    TienlenPlayKind = "TIENLEN_PLAY_KIND_";
    TienlenInstantWinKind = "TIENLEN_INSTANT_WIN_KIND_";
    TienlenLineKind = "TIENLEN_LINE_KIND_";
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
    DachuTeams = "DACHU_TEAMS_";
}

/// Value names whose core name is not their suffix lower-cased.
const ALIASES: &[(&str, &str)] = &[("DACHU_TEAMS_ONE_VS_THREE", "1v3"), ("DACHU_TEAMS_TWO_VS_TWO", "2v2")];

/// The longest value name (prefix included) the mapping builds; longer names have no value.
const NAME_MAX: usize = 64;

/// A name built on the stack (no allocation per value): a core name, or a full value name.
pub(crate) struct EnumName {
    buf: [u8; NAME_MAX],
    len: usize,
}

impl EnumName {
    /// `head` then `tail` with `case` applied to each byte of `tail`; None when too long.
    fn join(head: &str, tail: &str, case: fn(&u8) -> u8) -> Option<EnumName> {
        let len = head.len() + tail.len();
        if len > NAME_MAX {
            return None;
        }
        let mut buf = [0u8; NAME_MAX];
        buf[..head.len()].copy_from_slice(head.as_bytes());
        for (d, s) in buf[head.len()..len].iter_mut().zip(tail.as_bytes()) {
            *d = case(s);
        }
        Some(EnumName { buf, len })
    }
    pub(crate) fn as_str(&self) -> &str {
        // Built from whole `&str`s with ASCII case changes only, so always UTF-8.
        std::str::from_utf8(&self.buf[..self.len]).unwrap_or("")
    }
}

impl PartialEq<&str> for EnumName {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl std::fmt::Display for EnumName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::ops::Deref for EnumName {
    type Target = str;
    fn deref(&self) -> &str {
        self.as_str()
    }
}

/// The proto value of the core's name `name` (`E::PREFIX` + `name` upper-cased); 0
/// (UNSPECIFIED) if the enum has none (tests/grpc/test_grpc_protos.py keeps the enums
/// equal to the core's lists).
pub(crate) fn value_of<E: ProtoEnum>(name: &str) -> i32 {
    if let Some((full, _)) = ALIASES.iter().find(|(full, alias)| *alias == name && full.starts_with(E::PREFIX)) {
        return E::from_full(full).map_or(0, Into::into);
    }
    EnumName::join(E::PREFIX, name, u8::to_ascii_uppercase).and_then(|full| E::from_full(&full)).map_or(0, Into::into)
}

/// The core's name of the proto value `v`: `Ok(None)` for 0 (UNSPECIFIED); a number the
/// enum does not have (a newer client) is the error message, naming the enum.
pub(crate) fn name_of<E: ProtoEnum>(v: i32) -> Result<Option<EnumName>, String> {
    if v == 0 {
        return Ok(None);
    }
    let Ok(e) = E::try_from(v) else { return Err(format!("{v} is not a value of {}", E::TYPE)) };
    let full = e.full_name();
    if let Some((_, alias)) = ALIASES.iter().find(|(f, _)| *f == full) {
        return Ok(EnumName::join(alias, "", u8::to_ascii_lowercase));
    }
    Ok(EnumName::join("", full.strip_prefix(E::PREFIX).unwrap_or(full), u8::to_ascii_lowercase))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_prefix_is_its_enums() {
        for (prefix, unspecified) in prefix_checks() {
            assert_eq!(format!("{prefix}UNSPECIFIED"), unspecified);
        }
    }

    #[test]
    fn names_and_values_round_trip() {
        for v in 1..=4 {
            let name = name_of::<pb::DachuLineKind>(v).unwrap().unwrap();
            assert_eq!(value_of::<pb::DachuLineKind>(&name), v, "{}", &*name);
        }
        assert_eq!(&*name_of::<pb::ShisanshuiA2345>(pb::ShisanshuiA2345::SecondHighest as i32).unwrap().unwrap(), "second_highest");
        assert_eq!(value_of::<pb::DachuTeams>("1v3"), pb::DachuTeams::OneVsThree as i32);
        assert_eq!(&*name_of::<pb::DachuTeams>(pb::DachuTeams::TwoVsTwo as i32).unwrap().unwrap(), "2v2");
        assert_eq!(value_of::<pb::DachuColour>("nosuch"), 0);
        assert_eq!(value_of::<pb::DachuColour>(&"x".repeat(100)), 0);
        assert!(name_of::<pb::DachuColour>(0).unwrap().is_none());
        assert_eq!(name_of::<pb::DachuColour>(99).err().unwrap(), "99 is not a value of DachuColour");
    }
}
