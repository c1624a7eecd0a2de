//! The human-readable, lossless serde form of [`State`] (YAML and JSON).
//!
//! The form is sparse: every part may be omitted, and an omitted part takes the default given
//! below. Bit patterns are written as hexadecimal strings (`"0x3f800000"`); readers also accept
//! plain integers and `0b` binary strings. Per-lane values are either one value for all 32 lanes
//! or a list of exactly 32; per-lane booleans are one 32-bit mask with bit `i` for lane `i`.
//! Unknown fields and out-of-range values are errors.
//!
//! ```yaml
//! arch: wormhole              # blackhole (the default when omitted) or wormhole
//! LReg:                       # LReg index -> value(s); default 0 (constants 8, 9, 10, 15 are fixed)
//!   0: "0x3f800000"           # one value for all lanes
//!   3: ["0x00000000", ...]    # or exactly 32 values, lane 0 first
//! LaneFlags: "0x0000ffff"     # mask, bit i = lane i; default 0
//! UseLaneFlagsForLaneEnable: "0xffffffff"   # mask; default 0
//! FlagStack:                  # default: every stack empty
//!   depth: 2                  # entries per lane (0..=8): one value or 32
//!   levels:                   # bottom first, one per level up to the deepest lane
//!     - {LaneFlags: "0xffffffff", UseLaneFlagsForLaneEnable: "0xffffffff"}
//!     - {LaneFlags: "0x0000ffff", UseLaneFlagsForLaneEnable: "0xffffffff"}
//! LaneConfig: "0x00000002"    # 18 bits per lane: one value or 32; default 0
//! LoadMacroConfig:            # default 0 everywhere
//!   InstructionTemplate: {0: "0x84000000"}  # index 0..3 -> one value or 32
//!   Sequence: {1: "0x00000004"}             # index 0..3 -> one value or 32
//!   Misc: "0x000"             # 12 bits: one value or 32
//! PRNG: "0x00000001"          # one value or 32; default 0
//! Dst:
//!   rows: {0: ["0x3f80", ...]}  # physical row of DstBits -> its 16 cells; default 0
//!   invalid_rows: [5, 6]        # rows whose DstRowValid is false; default none
//! Addressing:                 # ThreadConfig / Config / RWC fields, default 0 / false
//!   SFPU_STACK_Incr: 4
//!   ADDR_MOD: {3: {DestIncr: 2}}
//!   RWC: {Dst: 8, Sp: 0}     # Sp, DEST_SP_BASE_Base, SFPU_STACK_Incr, SFPU_DEST_FMT_*,
//!                             # DEST_ACCESS_CFG_*: Blackhole only
//! SFPSHFT2_vc0: "0x00000000"  # Wormhole only: the SHFLSHR1 bug's latch, one value or 32
//! ```
//!
//! A document for one chip that sets a location only the other chip has is refused.
//!
//! A golden vector's `post` gives no value for what its `skip` covers: a part or register whose
//! every lane is covered is left out, and in a per-lane list the covered lanes are `null`, as are
//! they in a lane mask, which is then written as a list of 32 lane bits (0, 1 or `null`), and in
//! `FlagStack.depth` (a lane without a depth has no bits in `levels`). Only
//! [`StateDoc::apply_stated_to`] takes such a document; everything else refuses a `null`.
//!
//! The format is documented for importers in `vectors/README.md`; this module is its
//! implementation.

#![allow(non_snake_case, reason = "field names follow the ISA documentation")]

use std::collections::BTreeMap;
use std::fmt;

use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::ser::Serializer;
use serde::{Deserialize, Serialize};

use super::{
    AddrModSlot, Addressing, DST_COLS, DST_ROWS, FLAG_STACK_CAPACITY, FlagStack, FlagStackEntry, LANES,
    LaneConfig, LoadMacroConfig, Misc, NUM_LREGS, ResetValues, Rwc, State, lreg_constant,
};
use crate::isa::Arch;

/// A value in the serde form: written as a fixed-width hexadecimal string, read from an integer
/// or a `0x`/`0b`/decimal string. `DIGITS` is the number of hex digits written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct Hex<const DIGITS: usize>(pub u32);

impl<const DIGITS: usize> Hex<DIGITS> {
    const MAX: u64 = if DIGITS >= 8 { u32::MAX as u64 } else { (1u64 << (4 * DIGITS)) - 1 };
}

impl<const DIGITS: usize> Serialize for Hex<DIGITS> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&format!("0x{:0width$x}", self.0, width = DIGITS))
    }
}

/// Parses an unsigned integer written as decimal, `0x` hexadecimal or `0b` binary, with optional
/// `_` separators.
pub(crate) fn parse_uint(text: &str) -> Option<u64> {
    let t = text.trim().replace('_', "");
    let (digits, radix) = if let Some(h) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        (h.to_string(), 16)
    } else if let Some(b) = t.strip_prefix("0b").or_else(|| t.strip_prefix("0B")) {
        (b.to_string(), 2)
    } else {
        (t, 10)
    };
    if digits.is_empty() {
        return None;
    }
    u64::from_str_radix(&digits, radix).ok()
}

impl<'de, const DIGITS: usize> Deserialize<'de> for Hex<DIGITS> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<const N: usize>;
        impl<const N: usize> Visitor<'_> for V<N> {
            type Value = Hex<N>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "an unsigned integer of at most {} bits (e.g. \"0x{:0n$x}\")", 4 * N, 0, n = N)
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Hex<N>, E> {
                if v <= Hex::<N>::MAX {
                    Ok(Hex(v as u32))
                } else {
                    Err(E::custom(format!("0x{v:x} does not fit in {} bits", 4 * N)))
                }
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Hex<N>, E> {
                if v < 0 {
                    return Err(E::custom(format!("{v} is negative; bit patterns are unsigned")));
                }
                self.visit_u64(v as u64)
            }
            fn visit_u128<E: de::Error>(self, v: u128) -> Result<Hex<N>, E> {
                match u64::try_from(v) {
                    Ok(v) => self.visit_u64(v),
                    Err(_) => {
                        Err(E::custom(format!("{v} is out of range: it does not fit in {} bits", 4 * N)))
                    }
                }
            }
            fn visit_i128<E: de::Error>(self, v: i128) -> Result<Hex<N>, E> {
                if v < 0 {
                    return Err(E::custom(format!("{v} is negative; bit patterns are unsigned")));
                }
                self.visit_u128(v as u128)
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Hex<N>, E> {
                match parse_uint(v) {
                    Some(n) => self.visit_u64(n),
                    None => {
                        Err(E::custom(format!("`{v}` is not a number (write e.g. \"0x{:0n$x}\")", 0, n = N)))
                    }
                }
            }
        }
        d.deserialize_any(V::<DIGITS>)
    }
}

/// A map key that is a small index: written as an integer, read from an integer or a numeric
/// string (JSON object keys are always strings).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(transparent)]
pub struct Index(pub u16);

impl<'de> Deserialize<'de> for Index {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = Index;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an index (a small unsigned integer)")
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Index, E> {
                u16::try_from(v).map(Index).map_err(|_| E::custom(format!("index {v} is out of range")))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Index, E> {
                u16::try_from(v).map(Index).map_err(|_| E::custom(format!("index {v} is out of range")))
            }
            fn visit_u128<E: de::Error>(self, v: u128) -> Result<Index, E> {
                u16::try_from(v).map(Index).map_err(|_| E::custom(format!("index {v} is out of range")))
            }
            fn visit_i128<E: de::Error>(self, v: i128) -> Result<Index, E> {
                u16::try_from(v).map(Index).map_err(|_| E::custom(format!("index {v} is out of range")))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Index, E> {
                match parse_uint(v) {
                    Some(n) => self.visit_u64(n),
                    None => Err(E::custom(format!("`{v}` is not an index"))),
                }
            }
        }
        d.deserialize_any(V)
    }
}

impl fmt::Display for Index {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// Reads a map, refusing a key that appears twice (YAML and JSON readers otherwise keep the last
/// value silently: `LReg: {0: 1, 0: 2}` would set LReg[0] to 2 without a word).
fn unique_keys<'de, D, K, V>(d: D) -> Result<BTreeMap<K, V>, D::Error>
where
    D: Deserializer<'de>,
    K: Deserialize<'de> + Ord + fmt::Display,
    V: Deserialize<'de>,
{
    struct Unique<K, V>(std::marker::PhantomData<(K, V)>);
    impl<'de, K, V> Visitor<'de> for Unique<K, V>
    where
        K: Deserialize<'de> + Ord + fmt::Display,
        V: Deserialize<'de>,
    {
        type Value = BTreeMap<K, V>;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("a map whose keys are all different")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<BTreeMap<K, V>, A::Error> {
            let mut out = BTreeMap::new();
            while let Some((k, v)) = map.next_entry::<K, V>()? {
                let key = k.to_string();
                if out.insert(k, v).is_some() {
                    return Err(de::Error::custom(format!("duplicate key {key}")));
                }
            }
            Ok(out)
        }
    }
    d.deserialize_map(Unique(std::marker::PhantomData))
}

/// A per-lane value: one value for all lanes, or exactly 32 values. In a golden vector's `post`
/// (only there) a lane may have no value, `null`: the lanes its `skip` covers, whose value is not
/// promised ([`PerLane::Partial`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PerLane<T> {
    /// The same value in every lane.
    All(T),
    /// One value per lane, lane 0 first.
    Each(Vec<T>),
    /// One value or none per lane, lane 0 first: `None` (`null`) where the document states no
    /// value. [`StateDoc::apply_to`] refuses it; [`StateDoc::apply_stated_to`] leaves those lanes
    /// as they are.
    Partial(Vec<Option<T>>),
}

impl<T: Copy + PartialEq> PerLane<T> {
    /// The most compact form of `lanes`.
    pub fn compact(lanes: &[T; LANES]) -> PerLane<T> {
        if lanes.iter().all(|v| *v == lanes[0]) {
            PerLane::All(lanes[0])
        } else {
            PerLane::Each(lanes.to_vec())
        }
    }

    /// The value of each lane, `None` where the document states none.
    pub fn lanes(&self) -> [Option<T>; LANES] {
        match self {
            PerLane::All(v) => [Some(*v); LANES],
            PerLane::Each(vs) => std::array::from_fn(|i| vs.get(i).copied()),
            PerLane::Partial(vs) => std::array::from_fn(|i| vs.get(i).copied().flatten()),
        }
    }

    /// The value of each lane, or `None` when some lane has none.
    pub fn expand(&self) -> Option<[T; LANES]> {
        let lanes = self.lanes();
        let mut out = [lanes[0]?; LANES];
        for (o, v) in out.iter_mut().zip(lanes) {
            *o = v?;
        }
        Some(out)
    }

    /// The lanes that have a value, as a lane mask.
    pub fn stated(&self) -> u32 {
        self.lanes().iter().enumerate().fold(0, |m, (l, v)| m | ((v.is_some() as u32) << l))
    }

    /// The same values without those of the lanes in `mask` (`None` where that leaves no lane
    /// with a value): how a vector's `post` leaves out what its `skip` covers.
    pub fn without(&self, mask: u32) -> Option<PerLane<T>> {
        if mask == 0 {
            return Some(self.clone());
        }
        let lanes = self.lanes();
        let kept: Vec<Option<T>> =
            lanes.iter().enumerate().map(|(l, v)| v.filter(|_| (mask >> l) & 1 == 0)).collect();
        kept.iter().any(Option::is_some).then_some(PerLane::Partial(kept))
    }
}

impl<T: Serialize> Serialize for PerLane<T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            PerLane::All(v) => v.serialize(s),
            PerLane::Each(vs) => vs.serialize(s),
            PerLane::Partial(vs) => vs.serialize(s),
        }
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for PerLane<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<T>(std::marker::PhantomData<T>);
        impl<'de, T: Deserialize<'de>> Visitor<'de> for V<T> {
            type Value = PerLane<T>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("one value for all lanes, or a list of exactly 32 values")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<PerLane<T>, A::Error> {
                let mut out: Vec<Option<T>> = Vec::with_capacity(LANES);
                while let Some(v) = seq.next_element::<Option<T>>()? {
                    out.push(v);
                    if out.len() > LANES {
                        return Err(de::Error::custom("more than 32 per-lane values"));
                    }
                }
                if out.len() != LANES {
                    return Err(de::Error::custom(format!(
                        "a per-lane list needs exactly 32 values, found {}",
                        out.len()
                    )));
                }
                if out.iter().all(Option::is_some) {
                    Ok(PerLane::Each(out.into_iter().flatten().collect()))
                } else {
                    Ok(PerLane::Partial(out))
                }
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<PerLane<T>, E> {
                T::deserialize(de::value::U64Deserializer::new(v)).map(PerLane::All)
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<PerLane<T>, E> {
                T::deserialize(de::value::I64Deserializer::new(v)).map(PerLane::All)
            }
            fn visit_u128<E: de::Error>(self, v: u128) -> Result<PerLane<T>, E> {
                T::deserialize(de::value::U128Deserializer::new(v)).map(PerLane::All)
            }
            fn visit_i128<E: de::Error>(self, v: i128) -> Result<PerLane<T>, E> {
                T::deserialize(de::value::I128Deserializer::new(v)).map(PerLane::All)
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<PerLane<T>, E> {
                T::deserialize(de::value::StrDeserializer::new(v)).map(PerLane::All)
            }
        }
        d.deserialize_any(V(std::marker::PhantomData))
    }
}

/// A per-lane boolean (`LaneFlags`, `UseLaneFlagsForLaneEnable`): a lane mask, bit `i` for lane
/// `i`. In a golden vector's `post` (only there), where its `skip` covers some of the lanes, a
/// list of exactly 32 entries instead, lane 0 first, each 0, 1 or `null` (no value: not promised)
/// ([`LaneBits::Partial`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LaneBits {
    /// Every lane's bit.
    Mask(Hex<8>),
    /// One bit or none per lane, lane 0 first.
    Partial(Vec<Option<bool>>),
}

impl LaneBits {
    /// Each lane's bit, `None` where the document states none.
    pub fn lanes(&self) -> [Option<bool>; LANES] {
        match self {
            LaneBits::Mask(m) => std::array::from_fn(|l| Some((m.0 >> l) & 1 != 0)),
            LaneBits::Partial(bits) => std::array::from_fn(|l| bits.get(l).copied().flatten()),
        }
    }

    /// The mask, or `None` when some lane has no bit.
    pub fn mask(&self) -> Option<u32> {
        self.lanes().iter().enumerate().try_fold(0u32, |m, (l, b)| Some(m | ((((*b)?) as u32) << l)))
    }

    /// The lanes that have a bit, as a lane mask.
    pub fn stated(&self) -> u32 {
        self.lanes().iter().enumerate().fold(0, |m, (l, b)| m | ((b.is_some() as u32) << l))
    }

    /// The same bits without those of the lanes in `mask` (`None` where that leaves no lane with
    /// a bit).
    pub fn without(&self, mask: u32) -> Option<LaneBits> {
        if mask == 0 {
            return Some(self.clone());
        }
        let kept: Vec<Option<bool>> =
            self.lanes().iter().enumerate().map(|(l, b)| b.filter(|_| (mask >> l) & 1 == 0)).collect();
        kept.iter().any(Option::is_some).then_some(LaneBits::Partial(kept))
    }
}

impl Serialize for LaneBits {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            LaneBits::Mask(m) => m.serialize(s),
            LaneBits::Partial(bits) => {
                bits.iter().map(|b| b.map(u8::from)).collect::<Vec<Option<u8>>>().serialize(s)
            }
        }
    }
}

impl<'de> Deserialize<'de> for LaneBits {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = LaneBits;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a lane mask, or (in a vector's post) a list of 32 lane bits, each 0, 1 or null")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<LaneBits, A::Error> {
                let mut out: Vec<Option<bool>> = Vec::with_capacity(LANES);
                while let Some(b) = seq.next_element::<Option<u8>>()? {
                    out.push(match b {
                        None => None,
                        Some(0) => Some(false),
                        Some(1) => Some(true),
                        Some(n) => {
                            return Err(de::Error::custom(format!("a lane bit is 0, 1 or null, not {n}")));
                        }
                    });
                    if out.len() > LANES {
                        return Err(de::Error::custom("more than 32 lane bits"));
                    }
                }
                if out.len() != LANES {
                    return Err(de::Error::custom(format!(
                        "a list of lane bits needs exactly 32 entries, found {}",
                        out.len()
                    )));
                }
                Ok(LaneBits::Partial(out))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<LaneBits, E> {
                Hex::<8>::deserialize(de::value::U64Deserializer::new(v)).map(LaneBits::Mask)
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<LaneBits, E> {
                Hex::<8>::deserialize(de::value::I64Deserializer::new(v)).map(LaneBits::Mask)
            }
            fn visit_u128<E: de::Error>(self, v: u128) -> Result<LaneBits, E> {
                Hex::<8>::deserialize(de::value::U128Deserializer::new(v)).map(LaneBits::Mask)
            }
            fn visit_i128<E: de::Error>(self, v: i128) -> Result<LaneBits, E> {
                Hex::<8>::deserialize(de::value::I128Deserializer::new(v)).map(LaneBits::Mask)
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<LaneBits, E> {
                Hex::<8>::deserialize(de::value::StrDeserializer::new(v)).map(LaneBits::Mask)
            }
        }
        d.deserialize_any(V)
    }
}

/// One level of the flag stacks, across lanes.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FlagStackLevelDoc {
    /// Bit `i`: the saved `LaneFlags` of lane `i`.
    #[serde(default)]
    pub LaneFlags: Hex<8>,
    /// Bit `i`: the saved `UseLaneFlagsForLaneEnable` of lane `i`.
    #[serde(default)]
    pub UseLaneFlagsForLaneEnable: Hex<8>,
}

/// The flag stacks of all lanes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FlagStackDoc {
    /// Entries on each lane's stack.
    pub depth: PerLane<u8>,
    /// The levels, bottom first.
    #[serde(default)]
    pub levels: Vec<FlagStackLevelDoc>,
}

/// `LoadMacroConfig` of all lanes.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LoadMacroConfigDoc {
    /// `InstructionTemplate[i]`, by index.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty", deserialize_with = "unique_keys")]
    pub InstructionTemplate: BTreeMap<Index, PerLane<Hex<8>>>,
    /// `Sequence[i]`, by index.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty", deserialize_with = "unique_keys")]
    pub Sequence: BTreeMap<Index, PerLane<Hex<8>>>,
    /// `Misc` (12 bits).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub Misc: Option<PerLane<Hex<3>>>,
}

/// Dst contents.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DstDoc {
    /// Physical row of `DstBits` -> its 16 cells.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty", deserialize_with = "unique_keys")]
    pub rows: BTreeMap<Index, Vec<Hex<4>>>,
    /// Physical rows whose `DstRowValid` is false.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub invalid_rows: Vec<u16>,
}

macro_rules! addressing_doc {
    (
        struct $doc:ident for $ty:ident {
            $( $field:ident : $kind:ident $(($bits:literal))? ),* $(,)?
        }
    ) => {
        /// The serde form of the struct of the same name; every field defaults to 0 / false.
        #[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
        #[serde(deny_unknown_fields)]
        pub struct $doc {
            $(
                #[allow(missing_docs)]
                #[serde(default, skip_serializing_if = "is_default")]
                pub $field: addressing_doc!(@ty $kind),
            )*
        }

        impl $doc {
            fn from_state(v: &$ty) -> $doc {
                $doc { $( $field: addressing_doc!(@to $kind, v.$field), )* }
            }

            fn to_state(&self, path: &str) -> Result<$ty, StateError> {
                Ok($ty {
                    $( $field: addressing_doc!(@from $kind $(($bits))?, self.$field, path, stringify!($field)), )*
                })
            }
        }
    };
    (@ty num) => { u32 };
    (@ty flag) => { bool };
    (@to num, $e:expr) => { $e as u32 };
    (@to flag, $e:expr) => { $e };
    (@from num($bits:literal), $e:expr, $path:expr, $name:expr) => {{
        if $e >> $bits != 0 {
            return Err(StateError::new(format!("{}.{}: {} does not fit in {} bits", $path, $name, $e, $bits)));
        }
        $e as u16
    }};
    (@from flag, $e:expr, $path:expr, $name:expr) => { $e };
}

fn is_default<T: Default + PartialEq>(v: &T) -> bool {
    *v == T::default()
}

addressing_doc! {
    struct RwcDoc for Rwc {
        Dst: num(10), Dst_Cr: num(10), SrcA: num(6), SrcA_Cr: num(6), SrcB: num(6), SrcB_Cr: num(6),
        FidelityPhase: num(2), ExtraAddrModBit: num(1), Sp: num(10),
    }
}

addressing_doc! {
    struct AddrModSlotDoc for AddrModSlot {
        SrcAIncr: num(6), SrcACR: flag, SrcAClear: flag, SrcBIncr: num(6), SrcBCR: flag, SrcBClear: flag,
        DestIncr: num(10), DestCR: flag, DestClear: flag, DestCToCR: flag, FidelityIncr: num(2),
        FidelityClear: flag, BiasIncr: num(4), BiasClear: flag,
    }
}

/// The serde form of [`Addressing`]; every field defaults to 0 / false.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AddressingDoc {
    #[allow(missing_docs)]
    #[serde(default, skip_serializing_if = "is_default")]
    pub DEST_TARGET_REG_CFG_MATH_Offset: u32,
    #[allow(missing_docs)]
    #[serde(default, skip_serializing_if = "is_default")]
    pub SFPU_STACK_Incr: u32,
    #[allow(missing_docs)]
    #[serde(default, skip_serializing_if = "is_default")]
    pub SFPU_DEST_FMT_Enable: bool,
    #[allow(missing_docs)]
    #[serde(default, skip_serializing_if = "is_default")]
    pub SFPU_DEST_FMT_Base: u32,
    #[allow(missing_docs)]
    #[serde(default, skip_serializing_if = "is_default")]
    pub ADDR_MOD_SET_Base: bool,
    #[allow(missing_docs)]
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty", deserialize_with = "unique_keys")]
    pub ADDR_MOD: BTreeMap<Index, AddrModSlotDoc>,
    #[allow(missing_docs)]
    #[serde(default, skip_serializing_if = "is_default")]
    pub DEST_REGW_BASE_Base: u32,
    #[allow(missing_docs)]
    #[serde(default, skip_serializing_if = "is_default")]
    pub DEST_SP_BASE_Base: u32,
    #[allow(missing_docs)]
    #[serde(default, skip_serializing_if = "is_default")]
    pub ALU_ACC_CTRL_SFPU_Fp32_enabled: bool,
    #[allow(missing_docs)]
    #[serde(default, skip_serializing_if = "is_default")]
    pub ALU_FORMAT_SPEC_REG_SrcB_override: bool,
    #[allow(missing_docs)]
    #[serde(default, skip_serializing_if = "is_default")]
    pub ALU_FORMAT_SPEC_REG_SrcB_val: u32,
    #[allow(missing_docs)]
    #[serde(default, skip_serializing_if = "is_default")]
    pub ALU_FORMAT_SPEC_REG1_SrcB: u32,
    #[allow(missing_docs)]
    #[serde(default, skip_serializing_if = "is_default")]
    pub DEST_ACCESS_CFG_remap_addrs: bool,
    #[allow(missing_docs)]
    #[serde(default, skip_serializing_if = "is_default")]
    pub DEST_ACCESS_CFG_swizzle_32b: bool,
    #[allow(missing_docs)]
    #[serde(default, skip_serializing_if = "is_default")]
    pub DBG_FEATURE_DISABLE_bit11: bool,
    #[allow(missing_docs)]
    #[serde(default, skip_serializing_if = "is_default")]
    pub RWC: RwcDoc,
}

/// The serde form of a [`State`]. See the module documentation for the format.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StateDoc {
    /// The chip (`blackhole` or `wormhole`); a document without it is for Blackhole, so the
    /// Blackhole form omits it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arch: Option<Arch>,
    /// LReg index -> value(s).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty", deserialize_with = "unique_keys")]
    pub LReg: BTreeMap<Index, PerLane<Hex<8>>>,
    /// `LaneFlags` as a lane mask.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub LaneFlags: Option<LaneBits>,
    /// `UseLaneFlagsForLaneEnable` as a lane mask.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub UseLaneFlagsForLaneEnable: Option<LaneBits>,
    /// The flag stacks.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub FlagStack: Option<FlagStackDoc>,
    /// `LaneConfig`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub LaneConfig: Option<PerLane<Hex<5>>>,
    /// `LoadMacroConfig`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub LoadMacroConfig: Option<LoadMacroConfigDoc>,
    /// The PRNG state.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub PRNG: Option<PerLane<Hex<8>>>,
    /// Dst.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub Dst: Option<DstDoc>,
    /// Configuration and RWCs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub Addressing: Option<AddressingDoc>,
    /// Wormhole only: the SFPSHFT2 `vc0` latch ([`WormholeState`](super::WormholeState)).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub SFPSHFT2_vc0: Option<PerLane<Hex<8>>>,
}

/// A state document that is well-formed but does not describe a valid [`State`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct StateError {
    message: String,
}

impl StateError {
    fn new(message: String) -> StateError {
        StateError { message }
    }
}

fn mask_of(bits: &[bool; LANES]) -> u32 {
    bits.iter().enumerate().fold(0, |m, (i, &b)| m | ((b as u32) << i))
}

impl StateDoc {
    /// The sparse form of `state`: every part equal to its default is omitted (and `arch` for
    /// Blackhole).
    pub fn from_state(state: &State) -> StateDoc {
        let mut doc = StateDoc::default();
        if state.arch() != Arch::Blackhole {
            doc.arch = Some(state.arch());
        }
        if let Some(wh) = state.wormhole()
            && wh.SFPSHFT2_vc0.iter().any(|&v| v != 0)
        {
            doc.SFPSHFT2_vc0 = Some(PerLane::compact(&wh.SFPSHFT2_vc0.map(Hex)));
        }
        for reg in 0..NUM_LREGS {
            if lreg_constant(reg, 0).is_some() || state.LReg[reg].iter().all(|&v| v == 0) {
                continue;
            }
            doc.LReg.insert(Index(reg as u16), PerLane::compact(&state.LReg[reg].map(Hex)));
        }
        let flags = mask_of(&state.LaneFlags);
        doc.LaneFlags = (flags != 0).then_some(LaneBits::Mask(Hex(flags)));
        let use_flags = mask_of(&state.UseLaneFlagsForLaneEnable);
        doc.UseLaneFlagsForLaneEnable = (use_flags != 0).then_some(LaneBits::Mask(Hex(use_flags)));
        let depths: [u8; LANES] = std::array::from_fn(|l| state.FlagStack[l].len() as u8);
        let max_depth = depths.iter().copied().max().unwrap_or(0) as usize;
        if max_depth > 0 {
            let levels = (0..max_depth)
                .map(|k| {
                    let entry = |l: usize| state.FlagStack[l].entries().get(k).copied().unwrap_or_default();
                    FlagStackLevelDoc {
                        LaneFlags: Hex((0..LANES).fold(0, |m, l| m | ((entry(l).LaneFlags as u32) << l))),
                        UseLaneFlagsForLaneEnable: Hex(
                            (0..LANES).fold(0, |m, l| m | ((entry(l).UseLaneFlagsForLaneEnable as u32) << l))
                        ),
                    }
                })
                .collect();
            doc.FlagStack = Some(FlagStackDoc { depth: PerLane::compact(&depths), levels });
        }
        if state.LaneConfig.iter().any(|c| c.bits() != 0) {
            doc.LaneConfig = Some(PerLane::compact(&state.LaneConfig.map(|c| Hex(c.bits()))));
        }
        let mut lmc = LoadMacroConfigDoc::default();
        for i in 0..4 {
            let t: [Hex<8>; LANES] =
                std::array::from_fn(|l| Hex(state.LoadMacroConfig[l].InstructionTemplate[i]));
            if t.iter().any(|v| v.0 != 0) {
                lmc.InstructionTemplate.insert(Index(i as u16), PerLane::compact(&t));
            }
            let s: [Hex<8>; LANES] = std::array::from_fn(|l| Hex(state.LoadMacroConfig[l].Sequence[i]));
            if s.iter().any(|v| v.0 != 0) {
                lmc.Sequence.insert(Index(i as u16), PerLane::compact(&s));
            }
        }
        let misc: [Hex<3>; LANES] = std::array::from_fn(|l| Hex(state.LoadMacroConfig[l].Misc.bits()));
        if misc.iter().any(|v| v.0 != 0) {
            lmc.Misc = Some(PerLane::compact(&misc));
        }
        if lmc != LoadMacroConfigDoc::default() {
            doc.LoadMacroConfig = Some(lmc);
        }
        if state.PRNG.iter().any(|&v| v != 0) {
            doc.PRNG = Some(PerLane::compact(&state.PRNG.map(Hex)));
        }
        let mut dst = DstDoc::default();
        for (r, row) in state.Dst.DstBits.iter().enumerate() {
            if row.iter().any(|&c| c != 0) {
                dst.rows.insert(Index(r as u16), row.iter().map(|&c| Hex(c as u32)).collect());
            }
        }
        dst.invalid_rows = (0..DST_ROWS).filter(|&r| !state.Dst.DstRowValid[r]).map(|r| r as u16).collect();
        if dst != DstDoc::default() {
            doc.Dst = Some(dst);
        }
        let a = &state.Addressing;
        let addressing = AddressingDoc {
            DEST_TARGET_REG_CFG_MATH_Offset: a.DEST_TARGET_REG_CFG_MATH_Offset as u32,
            SFPU_STACK_Incr: a.SFPU_STACK_Incr as u32,
            SFPU_DEST_FMT_Enable: a.SFPU_DEST_FMT_Enable,
            SFPU_DEST_FMT_Base: a.SFPU_DEST_FMT_Base as u32,
            ADDR_MOD_SET_Base: a.ADDR_MOD_SET_Base,
            ADDR_MOD: a
                .ADDR_MOD
                .iter()
                .enumerate()
                .filter(|(_, slot)| **slot != AddrModSlot::default())
                .map(|(i, slot)| (Index(i as u16), AddrModSlotDoc::from_state(slot)))
                .collect(),
            DEST_REGW_BASE_Base: a.DEST_REGW_BASE_Base as u32,
            DEST_SP_BASE_Base: a.DEST_SP_BASE_Base as u32,
            ALU_ACC_CTRL_SFPU_Fp32_enabled: a.ALU_ACC_CTRL_SFPU_Fp32_enabled,
            ALU_FORMAT_SPEC_REG_SrcB_override: a.ALU_FORMAT_SPEC_REG_SrcB_override,
            ALU_FORMAT_SPEC_REG_SrcB_val: a.ALU_FORMAT_SPEC_REG_SrcB_val as u32,
            ALU_FORMAT_SPEC_REG1_SrcB: a.ALU_FORMAT_SPEC_REG1_SrcB as u32,
            DEST_ACCESS_CFG_remap_addrs: a.DEST_ACCESS_CFG_remap_addrs,
            DEST_ACCESS_CFG_swizzle_32b: a.DEST_ACCESS_CFG_swizzle_32b,
            DBG_FEATURE_DISABLE_bit11: a.DBG_FEATURE_DISABLE_bit11,
            RWC: RwcDoc::from_state(&a.RWC),
        };
        if addressing != AddressingDoc::default() {
            doc.Addressing = Some(addressing);
        }
        doc
    }

    /// The parts of `after` that differ from `before`, as a document to
    /// [`apply_to`](StateDoc::apply_to) `before` (so `changes(a, b).apply_to(a)` gives `b`). Parts are
    /// whole: a changed LReg is listed with all its lanes, a changed Dst row with all its cells.
    /// `also_lregs` (a mask over `LReg[0..=16]`) lists registers to include even if unchanged.
    pub fn changes(before: &State, after: &State, also_lregs: u32) -> StateDoc {
        let full = StateDoc::from_state(after);
        let mut doc = StateDoc::default();
        for reg in 0..NUM_LREGS {
            let listed = (also_lregs >> reg) & 1 != 0 && lreg_constant(reg, 0).is_none();
            if before.LReg[reg] != after.LReg[reg] || listed {
                doc.LReg.insert(Index(reg as u16), PerLane::compact(&after.LReg[reg].map(Hex)));
            }
        }
        if before.LaneFlags != after.LaneFlags {
            doc.LaneFlags = Some(LaneBits::Mask(Hex(mask_of(&after.LaneFlags))));
        }
        if before.UseLaneFlagsForLaneEnable != after.UseLaneFlagsForLaneEnable {
            doc.UseLaneFlagsForLaneEnable =
                Some(LaneBits::Mask(Hex(mask_of(&after.UseLaneFlagsForLaneEnable))));
        }
        if before.FlagStack != after.FlagStack {
            doc.FlagStack = Some(
                full.FlagStack.clone().unwrap_or(FlagStackDoc { depth: PerLane::All(0), levels: vec![] }),
            );
        }
        if before.LaneConfig != after.LaneConfig {
            doc.LaneConfig = Some(PerLane::compact(&after.LaneConfig.map(|c| Hex(c.bits()))));
        }
        if before.LoadMacroConfig != after.LoadMacroConfig {
            let mut lmc = LoadMacroConfigDoc::default();
            for i in 0..4 {
                let t: [Hex<8>; LANES] =
                    std::array::from_fn(|l| Hex(after.LoadMacroConfig[l].InstructionTemplate[i]));
                if (0..LANES).any(|l| before.LoadMacroConfig[l].InstructionTemplate[i] != t[l].0) {
                    lmc.InstructionTemplate.insert(Index(i as u16), PerLane::compact(&t));
                }
                let q: [Hex<8>; LANES] = std::array::from_fn(|l| Hex(after.LoadMacroConfig[l].Sequence[i]));
                if (0..LANES).any(|l| before.LoadMacroConfig[l].Sequence[i] != q[l].0) {
                    lmc.Sequence.insert(Index(i as u16), PerLane::compact(&q));
                }
            }
            let misc: [Hex<3>; LANES] = std::array::from_fn(|l| Hex(after.LoadMacroConfig[l].Misc.bits()));
            if (0..LANES).any(|l| before.LoadMacroConfig[l].Misc.bits() != misc[l].0) {
                lmc.Misc = Some(PerLane::compact(&misc));
            }
            doc.LoadMacroConfig = Some(lmc);
        }
        if before.PRNG != after.PRNG {
            doc.PRNG = Some(PerLane::compact(&after.PRNG.map(Hex)));
        }
        if before.Dst != after.Dst {
            let mut dst = DstDoc::default();
            for r in 0..DST_ROWS {
                if before.Dst.DstBits[r] != after.Dst.DstBits[r] {
                    dst.rows.insert(
                        Index(r as u16),
                        after.Dst.DstBits[r].iter().map(|&c| Hex(c as u32)).collect(),
                    );
                }
            }
            dst.invalid_rows = (0..DST_ROWS)
                .filter(|&r| {
                    before.Dst.DstRowValid[r] != after.Dst.DstRowValid[r] && !after.Dst.DstRowValid[r]
                })
                .map(|r| r as u16)
                .collect();
            doc.Dst = Some(dst);
        }
        if before.Addressing != after.Addressing {
            doc.Addressing = Some(full.Addressing.clone().unwrap_or_default());
        }
        if let (Some(b), Some(a)) = (before.wormhole(), after.wormhole())
            && b.SFPSHFT2_vc0 != a.SFPSHFT2_vc0
        {
            doc.SFPSHFT2_vc0 = Some(PerLane::compact(&a.SFPSHFT2_vc0.map(Hex)));
        }
        doc
    }

    /// The chip the document is for (Blackhole when it does not say).
    pub fn arch(&self) -> Arch {
        self.arch.unwrap_or(Arch::Blackhole)
    }

    /// Refuses a document that sets a location only the other chip has.
    fn check_chip(&self, arch: Arch) -> Result<(), StateError> {
        let foreign = |location: &str, chip: Arch| {
            Err(StateError::new(format!(
                "{location}: only {chip} has this location, but the document is for {arch} (docs/spec/sfpu-wormhole.md#blackhole-only-state-in-a-wormhole-document)"
            )))
        };
        match arch {
            Arch::Blackhole => {
                if self.SFPSHFT2_vc0.is_some() {
                    return foreign("SFPSHFT2_vc0", Arch::Wormhole);
                }
            }
            Arch::Wormhole => {
                if let Some(a) = &self.Addressing {
                    let blackhole_only = [
                        ("Addressing.RWC.Sp", a.RWC.Sp != 0),
                        ("Addressing.DEST_SP_BASE_Base", a.DEST_SP_BASE_Base != 0),
                        ("Addressing.SFPU_STACK_Incr", a.SFPU_STACK_Incr != 0),
                        ("Addressing.SFPU_DEST_FMT_Enable", a.SFPU_DEST_FMT_Enable),
                        ("Addressing.SFPU_DEST_FMT_Base", a.SFPU_DEST_FMT_Base != 0),
                        ("Addressing.DEST_ACCESS_CFG_remap_addrs", a.DEST_ACCESS_CFG_remap_addrs),
                        ("Addressing.DEST_ACCESS_CFG_swizzle_32b", a.DEST_ACCESS_CFG_swizzle_32b),
                    ];
                    if let Some((location, _)) = blackhole_only.iter().find(|(_, set)| *set) {
                        return foreign(location, Arch::Blackhole);
                    }
                }
            }
        }
        Ok(())
    }

    /// The state this document describes: every omitted part takes its default (zero, false,
    /// empty, valid), the constant LRegs take their constants. Every lane the document lists must
    /// have a value (no `null`).
    pub fn to_state(&self) -> Result<State, StateError> {
        let mut s = State::reset(self.arch(), &ResetValues::ZEROS);
        self.apply_to(&mut s)?;
        Ok(s)
    }

    /// The first part with a lane the document gives no value (`null`), named, if there is one.
    pub fn first_unstated(&self) -> Option<String> {
        let lane = |stated: u32| (!stated).trailing_zeros();
        let mut parts: Vec<(String, u32)> = Vec::new();
        if let Some(v) = &self.SFPSHFT2_vc0 {
            parts.push(("SFPSHFT2_vc0".into(), v.stated()));
        }
        for (Index(reg), v) in &self.LReg {
            parts.push((format!("LReg.{reg}"), v.stated()));
        }
        if let Some(b) = &self.LaneFlags {
            parts.push(("LaneFlags".into(), b.stated()));
        }
        if let Some(b) = &self.UseLaneFlagsForLaneEnable {
            parts.push(("UseLaneFlagsForLaneEnable".into(), b.stated()));
        }
        if let Some(fs) = &self.FlagStack {
            parts.push(("FlagStack.depth".into(), fs.depth.stated()));
        }
        if let Some(v) = &self.LaneConfig {
            parts.push(("LaneConfig".into(), v.stated()));
        }
        if let Some(lmc) = &self.LoadMacroConfig {
            for (Index(i), v) in &lmc.InstructionTemplate {
                parts.push((format!("LoadMacroConfig.InstructionTemplate.{i}"), v.stated()));
            }
            for (Index(i), v) in &lmc.Sequence {
                parts.push((format!("LoadMacroConfig.Sequence.{i}"), v.stated()));
            }
            if let Some(v) = &lmc.Misc {
                parts.push(("LoadMacroConfig.Misc".into(), v.stated()));
            }
        }
        if let Some(v) = &self.PRNG {
            parts.push(("PRNG".into(), v.stated()));
        }
        parts
            .into_iter()
            .find(|(_, stated)| *stated != u32::MAX)
            .map(|(part, stated)| format!("{part}: lane {} has no value (null)", lane(stated)))
    }

    /// Writes every part this document mentions into `s`, leaving the other parts as they are. A
    /// document that names a chip must name `s`'s, no document may set a location `s`'s chip does
    /// not have, and every lane it lists must have a value: a lane without one (`null`, which
    /// only a golden vector's `post` may hold) is refused; see [`StateDoc::apply_stated_to`].
    pub fn apply_to(&self, s: &mut State) -> Result<(), StateError> {
        if let Some(what) = self.first_unstated() {
            return Err(StateError::new(format!(
                "{what}: only a golden vector's post may leave a lane without a value"
            )));
        }
        self.apply_stated_to(s)
    }

    /// [`StateDoc::apply_to`] for a golden vector's `post`, which lists only what the program
    /// changes and gives no value (`null`) for the lanes its `skip` covers: those lanes are left
    /// as they are in `s`, as the parts the document omits are.
    pub fn apply_stated_to(&self, s: &mut State) -> Result<(), StateError> {
        if let Some(arch) = self.arch
            && arch != s.arch()
        {
            return Err(StateError::new(format!(
                "arch: the document is for {arch}, the state for {}",
                s.arch()
            )));
        }
        self.check_chip(s.arch())?;
        if let (Some(vc0), Some(wh)) = (&self.SFPSHFT2_vc0, s.wormhole_mut()) {
            for (l, v) in vc0.lanes().iter().enumerate() {
                if let Some(v) = v {
                    wh.SFPSHFT2_vc0[l] = v.0;
                }
            }
        }
        for (&Index(reg), values) in &self.LReg {
            let reg = reg as usize;
            if reg >= NUM_LREGS {
                return Err(StateError::new(format!("LReg.{reg}: there are only 17 LRegs (0..=16)")));
            }
            for (lane, v) in values.lanes().iter().enumerate() {
                let Some(Hex(v)) = *v else { continue };
                if let Some(want) = lreg_constant(reg, lane)
                    && v != want
                {
                    return Err(StateError::new(format!(
                        "LReg.{reg}: LReg[{reg}] is a constant register (lane {lane} holds 0x{want:08x}); it cannot be set to 0x{v:08x}"
                    )));
                }
                s.LReg[reg][lane] = v;
            }
        }
        for (bits, part) in [
            (&self.LaneFlags, &mut s.LaneFlags),
            (&self.UseLaneFlagsForLaneEnable, &mut s.UseLaneFlagsForLaneEnable),
        ] {
            if let Some(bits) = bits {
                for (l, b) in bits.lanes().iter().enumerate() {
                    if let Some(b) = b {
                        part[l] = *b;
                    }
                }
            }
        }
        if let Some(fs) = &self.FlagStack {
            let depths = fs.depth.lanes();
            let max_depth = depths.iter().flatten().copied().max().unwrap_or(0) as usize;
            if max_depth > FLAG_STACK_CAPACITY {
                return Err(StateError::new(format!(
                    "FlagStack.depth: a flag stack holds at most {FLAG_STACK_CAPACITY} entries, found {max_depth}"
                )));
            }
            if fs.levels.len() != max_depth {
                return Err(StateError::new(format!(
                    "FlagStack.levels: the deepest stack has {max_depth} entries, so {max_depth} levels are needed, found {}",
                    fs.levels.len()
                )));
            }
            for (k, level) in fs.levels.iter().enumerate() {
                // A lane without a depth (`null`) has no entries here: its bits are 0, as are
                // those of a lane whose stack is shallower than the level.
                let present = (0..LANES)
                    .fold(0u32, |m, l| m | ((depths[l].is_some_and(|d| d as usize > k) as u32) << l));
                for (name, bits) in [
                    ("LaneFlags", level.LaneFlags.0),
                    ("UseLaneFlagsForLaneEnable", level.UseLaneFlagsForLaneEnable.0),
                ] {
                    if bits & !present != 0 {
                        return Err(StateError::new(format!(
                            "FlagStack.levels[{k}].{name}: 0x{bits:08x} sets lanes whose stack is shallower than {} or has no depth (lanes 0x{:08x})",
                            k + 1,
                            bits & !present
                        )));
                    }
                }
            }
            for l in 0..LANES {
                let Some(depth) = depths[l] else { continue };
                let entries: Vec<FlagStackEntry> = fs
                    .levels
                    .iter()
                    .take(depth as usize)
                    .map(|level| FlagStackEntry {
                        LaneFlags: (level.LaneFlags.0 >> l) & 1 != 0,
                        UseLaneFlagsForLaneEnable: (level.UseLaneFlagsForLaneEnable.0 >> l) & 1 != 0,
                    })
                    .collect();
                s.FlagStack[l] = FlagStack::from_entries(&entries)
                    .map_err(|e| StateError::new(format!("FlagStack: lane {l}: {e}")))?;
            }
        }
        if let Some(lc) = &self.LaneConfig {
            for (l, v) in lc.lanes().iter().enumerate() {
                let Some(v) = v else { continue };
                s.LaneConfig[l] =
                    LaneConfig::new(v.0).map_err(|e| StateError::new(format!("LaneConfig lane {l}: {e}")))?;
            }
        }
        if let Some(lmc) = &self.LoadMacroConfig {
            for (name, map, is_template) in
                [("InstructionTemplate", &lmc.InstructionTemplate, true), ("Sequence", &lmc.Sequence, false)]
            {
                for (&Index(i), values) in map {
                    if i >= 4 {
                        return Err(StateError::new(format!(
                            "LoadMacroConfig.{name}.{i}: the index is 0..=3"
                        )));
                    }
                    for (l, v) in values.lanes().iter().enumerate() {
                        let Some(v) = v else { continue };
                        let cfg: &mut LoadMacroConfig = &mut s.LoadMacroConfig[l];
                        if is_template {
                            cfg.InstructionTemplate[i as usize] = v.0;
                        } else {
                            cfg.Sequence[i as usize] = v.0;
                        }
                    }
                }
            }
            if let Some(misc) = &lmc.Misc {
                for (l, v) in misc.lanes().iter().enumerate() {
                    let Some(v) = v else { continue };
                    s.LoadMacroConfig[l].Misc = Misc::new(v.0).ok_or_else(|| {
                        StateError::new(format!(
                            "LoadMacroConfig.Misc lane {l}: 0x{:x} does not fit in 12 bits",
                            v.0
                        ))
                    })?;
                }
            }
        }
        if let Some(prng) = &self.PRNG {
            for (l, v) in prng.lanes().iter().enumerate() {
                if let Some(v) = v {
                    s.PRNG[l] = v.0;
                }
            }
        }
        if let Some(dst) = &self.Dst {
            for (&Index(r), cells) in &dst.rows {
                let r = r as usize;
                if r >= DST_ROWS {
                    return Err(StateError::new(format!("Dst.rows.{r}: Dst has {DST_ROWS} rows (0..=1023)")));
                }
                if cells.len() != DST_COLS {
                    return Err(StateError::new(format!(
                        "Dst.rows.{r}: a row has exactly {DST_COLS} cells, found {}",
                        cells.len()
                    )));
                }
                for (c, v) in cells.iter().enumerate() {
                    s.Dst.DstBits[r][c] = v.0 as u16;
                }
            }
            for &r in &dst.invalid_rows {
                let r = r as usize;
                if r >= DST_ROWS {
                    return Err(StateError::new(format!(
                        "Dst.invalid_rows: row {r} is out of range 0..=1023"
                    )));
                }
                s.Dst.DstRowValid[r] = false;
            }
        }
        if let Some(a) = &self.Addressing {
            let field = |v: u32, bits: u32, name: &str| -> Result<u16, StateError> {
                if v >> bits != 0 {
                    Err(StateError::new(format!("Addressing.{name}: {v} does not fit in {bits} bits")))
                } else {
                    Ok(v as u16)
                }
            };
            let mut slots = [AddrModSlot::default(); 8];
            for (&Index(i), slot) in &a.ADDR_MOD {
                if i >= 8 {
                    return Err(StateError::new(format!("Addressing.ADDR_MOD.{i}: slots are 0..=7")));
                }
                slots[i as usize] = slot.to_state(&format!("Addressing.ADDR_MOD.{i}"))?;
            }
            s.Addressing = Addressing {
                DEST_TARGET_REG_CFG_MATH_Offset: field(
                    a.DEST_TARGET_REG_CFG_MATH_Offset,
                    10,
                    "DEST_TARGET_REG_CFG_MATH_Offset",
                )?,
                SFPU_STACK_Incr: field(a.SFPU_STACK_Incr, 10, "SFPU_STACK_Incr")?,
                SFPU_DEST_FMT_Enable: a.SFPU_DEST_FMT_Enable,
                SFPU_DEST_FMT_Base: field(a.SFPU_DEST_FMT_Base, 4, "SFPU_DEST_FMT_Base")?,
                ADDR_MOD_SET_Base: a.ADDR_MOD_SET_Base,
                ADDR_MOD: slots,
                DEST_REGW_BASE_Base: field(a.DEST_REGW_BASE_Base, 10, "DEST_REGW_BASE_Base")?,
                DEST_SP_BASE_Base: field(a.DEST_SP_BASE_Base, 10, "DEST_SP_BASE_Base")?,
                ALU_ACC_CTRL_SFPU_Fp32_enabled: a.ALU_ACC_CTRL_SFPU_Fp32_enabled,
                ALU_FORMAT_SPEC_REG_SrcB_override: a.ALU_FORMAT_SPEC_REG_SrcB_override,
                ALU_FORMAT_SPEC_REG_SrcB_val: field(
                    a.ALU_FORMAT_SPEC_REG_SrcB_val,
                    4,
                    "ALU_FORMAT_SPEC_REG_SrcB_val",
                )?,
                ALU_FORMAT_SPEC_REG1_SrcB: field(
                    a.ALU_FORMAT_SPEC_REG1_SrcB,
                    4,
                    "ALU_FORMAT_SPEC_REG1_SrcB",
                )?,
                DEST_ACCESS_CFG_remap_addrs: a.DEST_ACCESS_CFG_remap_addrs,
                DEST_ACCESS_CFG_swizzle_32b: a.DEST_ACCESS_CFG_swizzle_32b,
                DBG_FEATURE_DISABLE_bit11: a.DBG_FEATURE_DISABLE_bit11,
                RWC: a.RWC.to_state("Addressing.RWC")?,
            };
        }
        Ok(())
    }
}

/// Errors from reading a state document.
#[derive(Debug, thiserror::Error)]
pub enum StateReadError {
    /// The text is not well-formed YAML/JSON for the format (the message includes the location).
    #[error("{0}")]
    Syntax(String),
    /// The document is well-formed but describes an impossible state.
    #[error(transparent)]
    Invalid(#[from] StateError),
}

impl State {
    /// Reads a state from its YAML form (JSON is YAML, so this reads both).
    pub fn from_yaml(text: &str) -> Result<State, StateReadError> {
        let doc: StateDoc = if text.trim().is_empty() {
            StateDoc::default()
        } else {
            serde_yaml::from_str(text).map_err(|e| StateReadError::Syntax(e.to_string()))?
        };
        Ok(doc.to_state()?)
    }

    /// Writes the state in its sparse YAML form.
    pub fn to_yaml(&self) -> String {
        let doc = StateDoc::from_state(self);
        if doc == StateDoc::default() {
            return "{}\n".to_string();
        }
        serde_yaml::to_string(&doc).unwrap_or_else(|e| format!("# serialisation failed: {e}\n"))
    }

    /// Writes the state in its sparse JSON form.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(&StateDoc::from_state(self))
            .unwrap_or_else(|e| format!("{{\"error\": \"serialisation failed: {e}\"}}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rich_state() -> State {
        let mut s = State::reset(Arch::Blackhole, &ResetValues::ZEROS);
        s.LReg[0] = [0x3F80_0000; LANES];
        s.LReg[3] = std::array::from_fn(|l| 0xDEAD_0000 | l as u32);
        s.LReg[16][7] = 0xFFFF_FFFF;
        s.LaneFlags[5] = true;
        s.UseLaneFlagsForLaneEnable = [true; LANES];
        for l in 0..LANES {
            s.FlagStack[l]
                .push(FlagStackEntry { LaneFlags: true, UseLaneFlagsForLaneEnable: false })
                .unwrap();
        }
        s.FlagStack[4].push(FlagStackEntry { LaneFlags: false, UseLaneFlagsForLaneEnable: true }).unwrap();
        s.LaneConfig[2] = LaneConfig::new(0x3_F002).unwrap();
        s.LoadMacroConfig[1].InstructionTemplate[3] = 0x8400_1234;
        s.LoadMacroConfig[9].Misc = Misc::new(0xABC).unwrap();
        s.PRNG = std::array::from_fn(|l| l as u32 * 7);
        s.Dst.DstBits[1023][15] = 0xBEEF;
        s.Dst.DstRowValid[12] = false;
        s.Addressing.ADDR_MOD[3].DestIncr = 2;
        s.Addressing.ADDR_MOD[3].DestCToCR = true;
        s.Addressing.RWC.Sp = 0x3FF;
        s.Addressing.SFPU_STACK_Incr = 4;
        s
    }

    #[test]
    fn yaml_and_json_round_trip_exactly() {
        let s = rich_state();
        let yaml = s.to_yaml();
        assert_eq!(State::from_yaml(&yaml).unwrap(), s, "{yaml}");
        let json = s.to_json();
        assert_eq!(State::from_yaml(&json).unwrap(), s, "{json}");
        let empty = State::reset(Arch::Blackhole, &ResetValues::ZEROS);
        assert_eq!(State::from_yaml(&empty.to_yaml()).unwrap(), empty);
        assert_eq!(State::from_yaml("").unwrap(), empty);
    }

    #[test]
    fn changes_apply_back() {
        let before = rich_state();
        let mut after = before.clone();
        after.LReg[3] = [0; LANES]; // back to the default: must still be listed
        after.LaneFlags[5] = false;
        after.FlagStack[4].pop();
        after.Dst.DstBits[1023][15] = 0;
        after.Addressing.RWC.Sp = 0;
        after.PRNG[0] = 99;
        let doc = StateDoc::changes(&before, &after, 1 << 6);
        assert!(
            doc.LReg.contains_key(&Index(3))
                && doc.LReg.contains_key(&Index(6))
                && !doc.LReg.contains_key(&Index(0))
        );
        let mut s = before.clone();
        doc.apply_to(&mut s).unwrap();
        assert_eq!(s, after);
        let text = serde_yaml::to_string(&doc).unwrap();
        let mut t = before.clone();
        serde_yaml::from_str::<StateDoc>(&text).unwrap().apply_to(&mut t).unwrap();
        assert_eq!(t, after);
    }

    #[test]
    fn hand_written_documents() {
        let s = State::from_yaml(
            "LReg:\n  0: 0x3f800000\n  1: 12\nLaneFlags: 0b101\nFlagStack:\n  depth: 1\n  levels:\n    - {LaneFlags: 0xffffffff}\n",
        )
        .unwrap();
        assert_eq!(s.LReg[0][31], 0x3F80_0000);
        assert_eq!(s.LReg[1][0], 12);
        assert!(s.LaneFlags[0] && !s.LaneFlags[1] && s.LaneFlags[2]);
        assert_eq!(
            s.FlagStack[17].top(),
            Some(FlagStackEntry { LaneFlags: true, UseLaneFlagsForLaneEnable: false })
        );
    }

    fn rich_wormhole_state() -> State {
        let mut s = State::reset(Arch::Wormhole, &ResetValues::ZEROS);
        s.LReg[1] = std::array::from_fn(|l| 0x1000 + l as u32);
        s.LaneFlags[3] = true;
        s.Addressing.ADDR_MOD[5].DestIncr = 4;
        s.Addressing.RWC.ExtraAddrModBit = 1;
        if let Some(wh) = s.wormhole_mut() {
            wh.SFPSHFT2_vc0 = std::array::from_fn(|l| 0xC0DE_0000 | l as u32);
        }
        s
    }

    #[test]
    fn wormhole_states_round_trip_exactly() {
        let s = rich_wormhole_state();
        let yaml = s.to_yaml();
        assert!(yaml.contains("arch: wormhole"), "{yaml}");
        assert_eq!(State::from_yaml(&yaml).unwrap(), s, "{yaml}");
        assert_eq!(State::from_yaml(&s.to_json()).unwrap(), s);
        let empty = State::reset(Arch::Wormhole, &ResetValues::ZEROS);
        assert_eq!(empty.to_yaml(), "arch: wormhole\n");
        assert_eq!(State::from_yaml(&empty.to_yaml()).unwrap(), empty);
        // A document without `arch` is Blackhole's.
        assert_eq!(State::from_yaml("LReg: {0: 1}").unwrap().arch(), Arch::Blackhole);
        let mut after = s.clone();
        if let Some(wh) = after.wormhole_mut() {
            wh.SFPSHFT2_vc0[0] = 7;
        }
        let doc = StateDoc::changes(&s, &after, 0);
        let mut t = s.clone();
        doc.apply_to(&mut t).unwrap();
        assert_eq!(t, after);
    }

    #[test]
    fn the_other_chips_locations_are_refused() {
        let cases = [
            ("arch: wormhole\nAddressing: {RWC: {Sp: 1}}", "Addressing.RWC.Sp: only blackhole"),
            (
                "arch: wormhole\nAddressing: {DEST_SP_BASE_Base: 4}",
                "Addressing.DEST_SP_BASE_Base: only blackhole",
            ),
            (
                "arch: wormhole\nAddressing: {SFPU_STACK_Incr: 4}",
                "Addressing.SFPU_STACK_Incr: only blackhole",
            ),
            (
                "arch: wormhole\nAddressing: {SFPU_DEST_FMT_Enable: true}",
                "SFPU_DEST_FMT_Enable: only blackhole",
            ),
            ("arch: wormhole\nAddressing: {SFPU_DEST_FMT_Base: 5}", "SFPU_DEST_FMT_Base: only blackhole"),
            (
                "arch: wormhole\nAddressing: {DEST_ACCESS_CFG_remap_addrs: true}",
                "remap_addrs: only blackhole",
            ),
            (
                "arch: wormhole\nAddressing: {DEST_ACCESS_CFG_swizzle_32b: true}",
                "swizzle_32b: only blackhole",
            ),
            ("SFPSHFT2_vc0: 0x1", "SFPSHFT2_vc0: only wormhole"),
            ("arch: blackhole\nSFPSHFT2_vc0: 0x1", "SFPSHFT2_vc0: only wormhole"),
            ("arch: quasar", "unknown variant"),
        ];
        for (text, want) in cases {
            let err = State::from_yaml(text).expect_err(text).to_string();
            assert!(err.contains(want), "{text:?}: {err}");
        }
        // Applying a document for the other chip is refused too.
        let doc: StateDoc = serde_yaml::from_str("arch: wormhole").unwrap();
        let mut bh = State::reset(Arch::Blackhole, &ResetValues::ZEROS);
        assert!(doc.apply_to(&mut bh).unwrap_err().to_string().contains("the document is for wormhole"));
    }

    /// A `post` may give no value (`null`) for some lanes: of a per-lane list, of a lane mask
    /// written as 32 lane bits, of `FlagStack.depth`. [`StateDoc::apply_stated_to`] leaves those
    /// lanes as they were and writes the others; everything else refuses the document, naming
    /// the part and the lane.
    #[test]
    fn lanes_without_a_value_are_left_as_they_are() {
        let nulls = |values: &str, at: &[usize]| -> String {
            let items: Vec<String> = (0..LANES)
                .map(|l| if at.contains(&l) { "null".into() } else { values.to_string() })
                .collect();
            format!("[{}]", items.join(", "))
        };
        let bits = |one: &[usize], none: &[usize]| -> String {
            let items: Vec<&str> = (0..LANES)
                .map(|l| {
                    if none.contains(&l) {
                        "null"
                    } else if one.contains(&l) {
                        "1"
                    } else {
                        "0"
                    }
                })
                .collect();
            format!("[{}]", items.join(", "))
        };
        let text = format!(
            "LReg:\n  3: {}\nLaneFlags: {}\nPRNG: {}\nFlagStack:\n  depth: {}\n  levels:\n    - {{LaneFlags: 0x00000002}}\n",
            nulls("0x00000007", &[0, 31]),
            bits(&[1], &[2]),
            nulls("0x00000005", &[4]),
            nulls("1", &[6]),
        );
        let doc: StateDoc = serde_yaml::from_str(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        let mut before = rich_state();
        before.LReg[3][0] = 0x1111;
        before.LaneFlags[2] = true;
        let mut s = before.clone();
        doc.apply_stated_to(&mut s).unwrap();
        // The lanes with a value take it; those without keep what they had.
        assert_eq!((s.LReg[3][0], s.LReg[3][31], s.LReg[3][5]), (0x1111, before.LReg[3][31], 7));
        assert_eq!((s.LaneFlags[1], s.LaneFlags[2], s.LaneFlags[5]), (true, true, false));
        assert_eq!((s.PRNG[4], s.PRNG[3]), (before.PRNG[4], 5));
        assert_eq!(s.FlagStack[6], before.FlagStack[6]);
        assert_eq!(
            s.FlagStack[1].entries(),
            [FlagStackEntry { LaneFlags: true, UseLaneFlagsForLaneEnable: false }]
        );
        assert_eq!(s.FlagStack[4].entries().len(), 1, "lane 4's second entry is gone");
        // Written back (YAML and JSON), the nulls stay nulls.
        let back: StateDoc = serde_json::from_str(&serde_json::to_string(&doc).unwrap()).unwrap();
        assert_eq!(back, doc);
        assert_eq!(doc.PRNG.as_ref().map(PerLane::stated), Some(!(1 << 4)));
        // Anything but a vector's post refuses them, naming the first part and lane.
        let err = doc.apply_to(&mut before.clone()).unwrap_err().to_string();
        assert!(err.starts_with("LReg.3: lane 0 has no value (null)"), "{err}");
        let err = State::from_yaml(&format!("PRNG: {}", nulls("0x1", &[9]))).unwrap_err().to_string();
        assert!(err.contains("PRNG: lane 9 has no value (null)"), "{err}");
        // A lane without a depth has no bits in the levels; lane bits are 0, 1 or null.
        let err = serde_yaml::from_str::<StateDoc>(&format!(
            "FlagStack:\n  depth: {}\n  levels:\n    - {{LaneFlags: 0x00000040}}\n",
            nulls("1", &[6])
        ))
        .unwrap()
        .apply_stated_to(&mut before.clone())
        .unwrap_err()
        .to_string();
        assert!(
            err.contains("sets lanes whose stack is shallower than 1 or has no depth (lanes 0x00000040)"),
            "{err}"
        );
        let err =
            serde_yaml::from_str::<StateDoc>(&format!("LaneFlags: {}", bits(&[], &[]).replacen('0', "2", 1)))
                .unwrap_err()
                .to_string();
        assert!(err.contains("a lane bit is 0, 1 or null, not 2"), "{err}");
        // `without` leaves out the lanes of a mask, and nothing when they are all of them.
        let all7 = PerLane::All(Hex::<8>(7));
        assert_eq!(all7.without(u32::MAX), None);
        assert_eq!(all7.without(0), Some(all7.clone()));
        assert_eq!(all7.without(1).map(|p| p.stated()), Some(!1));
        assert_eq!(LaneBits::Mask(Hex(0b10)).without(0b1).and_then(|b| b.mask()), None);
        assert_eq!(LaneBits::Mask(Hex(0b10)).mask(), Some(0b10));
    }

    #[test]
    fn bad_documents_are_refused_with_a_reason() {
        let cases = [
            ("LReg:\n  8: 0", "constant register"),
            ("LReg:\n  17: 0", "only 17 LRegs"),
            ("LReg:\n  0: [1, 2]", "exactly 32"),
            ("LReg:\n  0: 0x1ffffffff", "does not fit"),
            ("LReg:\n  0: zebra", "not a number"),
            ("LaneConfig: 0x40000", "18 bits"),
            ("Bogus: 1", "unknown field"),
            ("FlagStack:\n  depth: 9\n  levels: []", "at most 8"),
            ("FlagStack:\n  depth: 1\n  levels: []", "levels are needed"),
            ("Dst:\n  rows:\n    0: [1]", "exactly 16 cells"),
            ("Addressing:\n  RWC: {Dst: 1024}", "10 bits"),
            ("LoadMacroConfig:\n  Misc: 0x1000", "does not fit"),
            // Duplicate keys are errors, not taken silently (the last winning); numbers too large
            // for any integer type are out of range (not "invalid type ... as u128").
            ("LReg: {0: 1, 0: 2}", "duplicate key 0"),
            ("LReg:\n  3: 1\n  3: 1", "duplicate key 3"),
            (
                "Dst:\n  rows:\n    5: [0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0]\n    5: [0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0]",
                "duplicate key 5",
            ),
            ("LReg:\n  0: 99999999999999999999999999", "out of range"),
            ("LReg:\n  99999999999999999999999999: 0", "out of range"),
            ("LReg:\n  0: [99999999999999999999999999]", "out of range"),
        ];
        for (text, want) in cases {
            let err = State::from_yaml(text).expect_err(text).to_string();
            assert!(err.contains(want), "{text:?}: {err}");
        }
        // The same in JSON, whose readers also keep the last of duplicate keys.
        let err = serde_json::from_str::<StateDoc>(r#"{"LReg": {"0": "0x1", "0": "0x2"}}"#)
            .expect_err("duplicate")
            .to_string();
        assert!(err.contains("duplicate key 0"), "{err}");
    }
}
