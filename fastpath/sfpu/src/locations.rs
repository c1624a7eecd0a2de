//! The coarse state locations a footprint names ([`Locations`]: bit `r` for `LReg[r]`, then one
//! bit per other part of the state). A leaf: the footprints (`crate::footprint`, which
//! re-exports it) say which locations an instruction reads and writes, and the state
//! (`crate::state`) saves, restores and merges by them.

/// A set of coarse state locations (bit `r` for `LReg[r]`, then the named bits below).
pub type Locations = u32;

/// `LaneFlags`, `UseLaneFlagsForLaneEnable` and the flag stacks.
pub const PREDICATION: Locations = 1 << 17;
/// `LaneConfig` (and its derived masks).
pub const LANE_CONFIG: Locations = 1 << 18;
/// `LoadMacroConfig`.
pub const MACRO_CONFIG: Locations = 1 << 19;
/// The PRNG states.
pub const PRNG: Locations = 1 << 20;
/// The RWC counters (`Addressing::RWC`).
pub const RWC: Locations = 1 << 21;
/// The rest of the addressing configuration (formats, bases, address modifiers, remapping).
pub const ADDR_CONFIG: Locations = 1 << 22;
/// Dst (its cells and row-valid bits).
pub const DST: Locations = 1 << 23;
/// Everything.
pub const EVERYTHING: Locations = (1 << 24) - 1;
