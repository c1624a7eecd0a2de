//! The rows of the SFPU's specification notes in the report and their entries in `docs/spec`: the
//! seed differences ([`SEED_DIFFERENCES`]), the notes overrides ([`NOTES_OVERRIDES`]), and
//! [`spec_entry`], which finds the entry of a row of a report (clauses by their id).

use sfpu_reference::outcome::Clause;

/// Where the reference follows the upstream documentation against the seed summaries (the
/// project's starting documents): (row, topic, what the model does, its entry in the
/// specification notes, `docs/spec/<page>#<anchor>`).
pub const SEED_DIFFERENCES: &[(u32, &str, &str, &str)] = &[
    (
        1,
        "SFPENCC",
        "updates every lane passing the VD < 12 guard, enabled or not",
        "docs/spec/sfpu-blackhole.md#seed-1-sfpencc-and-disabled-lanes",
    ),
    (
        2,
        "Flag-setting instructions",
        "SFPSETCC, SFPGT, SFPLE, SFPLZ, SFPIADD, SFPEXEXP change LaneFlags only in enabled lanes",
        "docs/spec/sfpu-blackhole.md#seed-2-flags-change-only-in-enabled-lanes",
    ),
    (
        3,
        "SFPCOMPC",
        "no lane-enable check, only the VD < 12 guard",
        "docs/spec/sfpu-blackhole.md#seed-3-sfpcompc-has-no-lane-enable-check",
    ),
    (
        4,
        "SFPPOPC Mod1 1..12",
        "LaneFlags = BooleanOp(Mod1, LaneFlags, top.LaneFlags) and Use = top.Use; empty stack reads {false, false}",
        "docs/spec/sfpu-blackhole.md#seed-4-sfppopc-combining-modes",
    ),
    (
        5,
        "SFPCONFIG Mod1",
        "value 1 IMM16_IS_VALUE, bits [2:1] a 2-bit operation (write, OR, AND, XOR), value 8 IMM16_IS_LANE_MASK",
        "docs/spec/sfpu-blackhole.md#seed-5-sfpconfig-mod1-encoding",
    ),
    (
        6,
        "SFPCONFIG VD=12 constant",
        "1/512 (0x3B000000) as the newest page revision writes it (older revisions: 1/65536); reported as unspecified",
        "docs/spec/sfpu-blackhole.md#seed-6-sfpconfig-lreg-12-constant",
    ),
    (7, "LReg[8]", "0x3F56594B, the FP32 nearest 0.8373", "docs/spec/sfpu-blackhole.md#seed-7-lreg-8-bits"),
    (
        8,
        "SFPCONFIG predication",
        "row-0 lane flags of the column, ROW_MASK ignored, Imm16 even bits as column mask, VD 9/10 no-ops",
        "docs/spec/sfpu-blackhole.md#seed-8-sfpconfig-predication",
    ),
    (
        9,
        "SFPMOV",
        "NEGATE only on the plain path, VD < 12 guard, reserved bit 2 cleared",
        "docs/spec/sfpu-blackhole.md#seed-9-sfpmov",
    ),
    (
        10,
        "SFPLOADMACRO encoding",
        "MacroIndex [23:22], VDLo [21:20], Mod0, AddrMod [15:13], Imm9 [9:1], VDHi [0]",
        "docs/spec/sfpu-blackhole.md#seed-10-sfploadmacro-encoding",
    ),
    (
        11,
        "SFPLOADMACRO load",
        "SFPLOAD with the instruction's own Mod0, AddrMod and Imm10, including ApplyPartialAddrMod",
        "docs/spec/sfpu-blackhole.md#seed-11-sfploadmacro-load-part",
    ),
    (
        12,
        "SFPLOADMACRO scheduling",
        "missing-field rules, SFPNOP substitution, cancellation, frozen store address, DISABLE_BACKDOOR_LOAD read as true",
        "docs/spec/sfpu-blackhole.md#seed-12-sfploadmacro-scheduling",
    ),
    (
        13,
        "SFPTRANSP",
        "honours the VD < 12 guard and writes only enabled lanes",
        "docs/spec/sfpu-blackhole.md#seed-13-sfptransp-guard-and-lane-enable",
    ),
    (
        14,
        "SFPSTORE VD range",
        "VD 0..11 store (8..11 the constants); 12..15 only with DISABLE_BACKDOOR_LOAD set",
        "docs/spec/sfpu-blackhole.md#seed-14-sfpstore-vd-range",
    ),
    (
        15,
        "SFPSTORE HI16/LO16",
        "raw / rotated 32-bit writes through the Dst32b view (loads use the 16-bit view)",
        "docs/spec/sfpu-blackhole.md#seed-15-sfpstore-hi16-and-lo16",
    ),
    (
        16,
        "SFPSTORE FP16",
        "overflow, Inf and NaN saturate to e=31 m=0x3FF; every exponent <= 112 flushes to signed zero; truncation",
        "docs/spec/sfpu-blackhole.md#seed-16-sfpstore-fp16",
    ),
    (
        17,
        "LReg 11..14 writes",
        "silently dropped (or a backdoor load), no fault",
        "docs/spec/sfpu-blackhole.md#seed-17-writes-to-lreg-11-to-14",
    ),
    (
        18,
        "Sub-unit map",
        "SFPSWAP and SFPTRANSP are simple-unit, SFPLUT MAD, SFPLOADMACRO load",
        "docs/spec/sfpu-blackhole.md#seed-18-sub-unit-map",
    ),
    (19, "SFPSTOCHRND latency", "one cycle", "docs/spec/sfpu-blackhole.md#seed-19-sfpstochrnd-latency"),
    (
        20,
        "SFPSWAP scheduling",
        "the next cycle accepts only SFPNOP",
        "docs/spec/sfpu-blackhole.md#seed-20-sfpswap-scheduling",
    ),
    (21, "SFPLUT", "opcode 0x73 with Lut8ToFp32 coefficients", "docs/spec/sfpu-blackhole.md#seed-21-sfplut"),
    (
        22,
        "SFPSTOCHRND",
        "the PRNG advances in every mode; RoundingMode 3 takes the PRNG path; documented sign and bias rules",
        "docs/spec/sfpu-blackhole.md#seed-22-sfpstochrnd-rounding",
    ),
    (
        23,
        "SFPSWAP",
        "EXCHANGE_SRCB_SRCC, argmin index swaps, equal values swapped in VD-gets-max lanes, Mod1 10..15 as 9",
        "docs/spec/sfpu-blackhole.md#seed-23-sfpswap",
    ),
    (
        24,
        "SFPLUTFP32 Mod1",
        "bit 0 only matters for 6-entry tables; FP16 3-entry always writes LReg[LReg[7] & 15]",
        "docs/spec/sfpu-blackhole.md#seed-24-sfplutfp32-mod1",
    ),
    (
        25,
        "Tile walk",
        "odd columns are Addr bit 1; the next 4-row group is Addr + 4",
        "docs/spec/sfpu-blackhole.md#seed-25-tile-walk",
    ),
    (
        26,
        "INT32_ALL addressing",
        "load pre-decrements Sp only if non-zero; store post-increments; even when VD >= 8",
        "docs/spec/sfpu-blackhole.md#seed-26-int32_all-addressing",
    ),
    (
        27,
        "SFPLOAD VD >= 8",
        "no LReg write, but the Sp update and ApplyPartialAddrMod still happen",
        "docs/spec/sfpu-blackhole.md#seed-27-sfpload-with-vd-8-or-more",
    ),
    (28, "SFPLOAD INT8", "8-bit magnitude", "docs/spec/sfpu-blackhole.md#seed-28-sfpload-int8"),
    (
        29,
        "FP32 conformance",
        "denormals can reach LRegs through loads; SGN_RETAIN can produce 0xFFC00000; SFPABS keeps -NaN",
        "docs/spec/sfpu-blackhole.md#seed-29-fp32-conformance",
    ),
    (
        30,
        "VD < 12 guards",
        "present on the instructions whose pages have them",
        "docs/spec/sfpu-blackhole.md#seed-30-backdoor-load-guards",
    ),
    (
        31,
        "Reserved modifiers",
        "current-silicon behaviour, reported as non-contractual",
        "docs/spec/sfpu-blackhole.md#seed-31-reserved-modifiers",
    ),
    (
        32,
        "SFPLOADI",
        "Mod0 outside {0, 1, 2, 4, 8, 10} is undefined behaviour",
        "docs/spec/sfpu-blackhole.md#seed-32-sfploadi-reserved-mod0",
    ),
    (
        33,
        "Modifier numbering",
        "modifiers are values, as upstream defines them",
        "docs/spec/sfpu-blackhole.md#seed-33-modifier-numbering",
    ),
    (
        34,
        "SFPLOADMACRO delay kinds",
        "if any pending instruction counts instructions, all do",
        "docs/spec/sfpu-blackhole.md#seed-34-sfploadmacro-delay-kinds",
    ),
    (
        35,
        "Flag stack undefined cases",
        "SFPPUSHC Mod1 != 0 on an empty stack is undefined; SFPPOPC Mod1 != 0 on empty is defined",
        "docs/spec/sfpu-blackhole.md#seed-35-flag-stack-undefined-cases",
    ),
];

/// Where the reference follows an upstream page against the first version of the project's
/// specification notes: (topic, page, what the model does, its entry in the specification notes).
/// Each was found by the differential tests between the two models and is recorded at the code
/// that makes the choice.
pub const NOTES_OVERRIDES: &[(&str, &str, &str, &str)] = &[
    (
        "SFPCONFIG scheduled by SFPLOADMACRO",
        "BlackholeA0/TensixTile/TensixCoprocessor/SFPLOADMACRO.md",
        "the macro logic overrides the VD of every scheduled Simple/MAD/Round instruction, SFPCONFIG's selector included (VD 16 does nothing)",
        "docs/spec/sfpu-blackhole.md#sfpconfig-scheduled-by-sfploadmacro",
    ),
    (
        "Stall logic and SFPSWAP",
        "BlackholeA0/TensixTile/TensixCoprocessor/SFPMAD.md (instruction scheduling)",
        "never stalls SFPSWAP for data; its first-cycle reads (modes other than SWAP) of a MAD result are a hazard, not a stall",
        "docs/spec/sfpu-blackhole.md#stall-logic-and-sfpswap",
    ),
    (
        "Stall logic and SFPSTOCHRND",
        "BlackholeA0/TensixTile/TensixCoprocessor/SFPSTOCHRND_*.md",
        "the logic believes VB is read in every flavour (the false dependency the pages describe), so it may stall needlessly",
        "docs/spec/sfpu-blackhole.md#stall-logic-and-sfpstochrnd",
    ),
    (
        "Stall logic and SFPSHFT2 modes 5, 6",
        "BlackholeA0/TensixTile/TensixCoprocessor/SFPMAD.md (instruction scheduling)",
        "the logic sees VD instead of VB; mode 5's VC read is seen",
        "docs/spec/sfpu-blackhole.md#stall-logic-and-sfpshft2-modes-5-and-6",
    ),
    (
        "SFPCONFIG reading LReg[0]",
        "BlackholeA0/TensixTile/TensixCoprocessor/SFPCONFIG.md",
        "for hazards, SFPCONFIG reads LReg[0] exactly when its functional model does: VD 0..3 always, 4..8 and 11..15 unless IMM16_IS_VALUE",
        "docs/spec/sfpu-blackhole.md#sfpconfig-reading-lreg-0",
    ),
];

/// The entry in the specification notes (`docs/spec/<page>#<anchor>`, from the repository's root)
/// of a row of a report's `spec_notes`: seed difference `row`, the notes override on `topic`, or
/// the clause whose id is `clause`. `None` for a row this build does not know (a report written by
/// another version).
pub fn spec_entry(row: SpecRow<'_>) -> Option<&'static str> {
    match row {
        SpecRow::SeedDifference(n) => SEED_DIFFERENCES.iter().find(|d| d.0 == n).map(|d| d.3),
        SpecRow::NotesOverride(topic) => NOTES_OVERRIDES.iter().find(|o| o.0 == topic).map(|o| o.3),
        SpecRow::Clause(id) => Clause::from_id(id).map(Clause::section),
    }
}

/// A row of a report's `spec_notes`, as [`spec_entry`] looks it up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SpecRow<'a> {
    /// A seed difference, by its row number.
    SeedDifference(u32),
    /// A notes override, by its topic.
    NotesOverride(&'a str),
    /// A clause, by its id.
    Clause(&'a str),
}
