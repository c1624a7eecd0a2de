//! The golden-vector generator: every opcode x every value of its mode field, each with several
//! operand mixes and predication patterns, plus multi-instruction sequences.
//!
//! Deterministic: one seed, one [`Rng`] stream per file (named after the file), stable ordering,
//! no timestamps; files are generated in parallel. The expected results come from the reference
//! model; the outcome and the taint (what is not promised) from its [`Outcome`](sfpu_reference::Outcome)s.

pub mod kernels;
pub mod operands;
pub mod sequences;
pub mod streams;
pub mod wormhole;

use rayon::prelude::*;
use sfpu_reference::isa::mods::{
    DEFINITIONS, SFPCAST_MOD1_SM32_TO_FP32_RNS, SFPGT_MOD1_MUTATE_STACK, SFPMOV_MOD1_FROM_SPECIAL,
};
use sfpu_reference::isa::{Arch, Instr, Opcode, decode};
use sfpu_reference::state::{LANES, LaneConfig, StateDoc};
use sfpu_reference::{Machine, ResetValues, State, hazard};

use crate::features::{encoding_tags, requires};
use crate::taint::Tracker;
use crate::vectors::emit::write_file;
use crate::vectors::{FORMAT, Note, Vector, VectorFile, Word};
use operands::*;

/// Bump when the generator changes what it generates (recorded in every file's header).
pub const GENERATOR_VERSION: &str = "6";

/// The seed of the checked-in corpus.
pub const DEFAULT_SEED: u64 = 0x5F9C_0DE5_EED0_0001;

/// The command that regenerates the corpus, named in every file's header.
pub const REGENERATE: &str = "cargo xtask vectors";

/// One test case before it is run: a program and the state it starts from.
#[derive(Clone, Debug)]
pub struct Case {
    /// The case's name within its mode (`specials`, `flags`, ...).
    pub name: String,
    /// The mode value it exercises, canonical form (`mod1=3`).
    pub mode: Option<String>,
    /// The mode value with the documentation's names, for the id (`mod1=NEGATE_VA+NEGATE_VC`).
    pub mode_label: Option<String>,
    /// Tags.
    pub tags: Vec<String>,
    /// The instructions.
    pub program: Vec<Instr>,
    /// The initial state.
    pub pre: State,
}

/// Runs `case` on the reference model and turns it into a vector of `file`. The chip is the
/// initial state's: the words and their text are that chip's encoding.
pub fn to_vector(file: &str, case: &Case) -> Vector {
    let arch = case.pre.arch();
    let mut s = case.pre.clone();
    let mut m = Machine::new();
    let mut tracker = Tracker::default();
    let mut outcome = sfpu_reference::Outcome::defined();
    let mut written = 0u32;
    for instr in &case.program {
        let o = m.issue(&mut s, instr);
        tracker.step(instr, &o);
        outcome.merge(&o);
        written |= hazard::actual(arch, instr, &sfpu_reference::ops::Ctx::REGULAR).writes;
    }
    let tail = m.drain(&mut s);
    if let Some(last) = case.program.last() {
        tracker.step(last, &tail);
    }
    outcome.merge(&tail);
    let id = match &case.mode_label {
        Some(label) => format!("{file}/{label}/{}", case.name),
        None => format!("{file}/{}", case.name),
    };
    let mut tags = case.tags.clone();
    for tag in encoding_tags(&case.program) {
        if !tags.iter().any(|t| t == tag) {
            tags.push(tag.to_string());
        }
    }
    Vector {
        id,
        mode: case.mode.clone(),
        tags,
        requires: Some(requires(&case.pre, &case.program).to_vec()),
        program: case
            .program
            .iter()
            .map(|i| Word {
                // An instruction the chip cannot express has no word of its own; its Blackhole
                // word stands in (the vector's run then decodes it as the chip does).
                word: sfpu_reference::state::Hex(i.encode(arch).unwrap_or_else(|_| i.encode_blackhole())),
                text: i.display(arch).to_string(),
            })
            .collect(),
        pre: StateDoc::from_state(&case.pre),
        post: StateDoc::changes(&case.pre, &s, written & 0x1_00FF),
        outcome: outcome
            .notes()
            .map(|(c, lanes)| Note {
                clause: c.id().to_string(),
                kind: c.kind(),
                section: c.section().to_string(),
                lanes: sfpu_reference::state::Hex(lanes),
            })
            .collect(),
        skip: (!tracker.unpromised.is_empty()).then_some(tracker.unpromised),
        non_contractual: (!tracker.non_contractual.is_empty()).then_some(tracker.non_contractual),
    }
}

/// The tt-isa-documentation commits whose pages the reference model transcribes (every commit id
/// cited in `reference/sfpu/src`, sorted): the specification revision the expected values follow,
/// named in every file's header (by 12-digit prefixes) and in the report. A test checks that this
/// list matches `reference/sfpu/src`, so a re-transcribed page shows up as a stale header.
pub const SPEC_COMMITS: &[&str] = &[
    "06c5af5b8b68c9e59e698ab76b59181b7dd47222",
    "093af914694547840dfc96750df15f003517129e",
    "0f3f6b70850f1241f2ea1233f37129625850488a",
    "135471044308278122aec9664bd5f0935429205f",
    "1392d237dca6f783b1b1efb44b82f492fc1bc32e",
    "18b6c91cd8cfc165d32c8e2bbd3fae92447d918b",
    "241b4eafd49839467d0d83b30feb12bc7f4b2d80",
    "2f0ad45d5791aaee8f48e227049379d407440f58",
    "4042f5405b56a274553edf4827d684fafbb8ecb2",
    "41d2c717775aef45b428b287144bd96353f4a9d6",
    "445ebb1fe6905e0c4688160ace34580db56e0108",
    "487985445df2865103dcec7972bb5050af2fe27c",
    "545c98a36757417fc518c70f54032bb05063dbf7",
    "585749d1dcc6bcc56f1d6ff2dd6b72682d57fcd1",
    "9bb1ac3df6f36b8fc93f27ac9280629b8942bae2",
    "a052bcc95da50343edb5ff0baff874e229266dc0",
    "a981f40374e1e0a2833d88824f69c4e0487263cc",
    "b7738d9ac14a34a4033d60dde9463466b23082e1",
    "ba533c05f430d0da6640877a31982d6b38b34e90",
    "c2e709d3f186ac5fe7073d6c65a2bc1b998b9e27",
    "c7cbab6324600ecdb6975e7c4744c587cefdfed9",
    "e99938d294d4db7e3be8dc9e120bbb614356e4cb",
    "f7fda211c86e1977ff430076cf52b96a7aba8cca",
    "f916ebc3e35ab667647375f04ec7fd56ecba002b",
];

/// The header of every generated Blackhole file ([`header_for`] of Blackhole).
pub fn header(seed: u64) -> Vec<String> {
    header_for(Arch::Blackhole, seed)
}

/// The header of every generated file of `arch`: the regenerating command, format, generator and
/// seed, the chip, and the specification revision.
pub fn header_for(arch: Arch, seed: u64) -> Vec<String> {
    let (tree, notes) = match arch {
        Arch::Blackhole => ("BlackholeA0", "blackhole-sfpu.md"),
        Arch::Wormhole => ("WormholeB0", "wormhole-vs-blackhole.md, blackhole-sfpu.md"),
    };
    let mut lines = vec![
        format!(
            "Generated by `{REGENERATE}`: do not edit. Change the generator (harness/sfpu/src/generate) and rerun."
        ),
        format!(
            "format: {FORMAT}; generator: sfpu-conformance {} (generator v{GENERATOR_VERSION}); seed: 0x{seed:016x}",
            env!("CARGO_PKG_VERSION")
        ),
        format!("specification: tt-isa-documentation ({tree}/TensixTile/TensixCoprocessor, Miscellaneous/FMA)"),
        "  pages at these commits (12-digit prefixes; each reference/sfpu/src module names its page and commit):"
            .to_string(),
    ];
    for chunk in SPEC_COMMITS.chunks(8) {
        let prefixes: Vec<&str> = chunk.iter().map(|c| &c[..12]).collect();
        lines.push(format!("  {}", prefixes.join(" ")));
    }
    lines.push(format!(
        "  as restated by the project's specification notes ({notes}); the expected values are"
    ));
    lines.push("  the reference model's (reference/sfpu/src).".to_string());
    lines
}

/// Every generated file of `arch`, rendered, as `(file name, text)`, in a stable order.
pub fn render_all(arch: Arch, seed: u64) -> Vec<(String, String)> {
    generate(arch, seed)
        .into_iter()
        .map(|f| (format!("{}.yaml", f.file), write_file(&f, &header_for(arch, seed))))
        .collect()
}

/// Every generated vector file of `arch`: one per opcode of the chip, then `sequences`, then
/// `kernels`. Wormhole's opcode files end with the named cases of its own behaviour
/// ([`wormhole::named_cases`]).
pub fn generate(arch: Arch, seed: u64) -> Vec<VectorFile> {
    let mut files: Vec<VectorFile> = arch
        .opcodes()
        .par_iter()
        .map(|&op| {
            let mut rng = Rng::stream(seed, op.name());
            let mut cases = opcode_cases_for(arch, op, &mut rng);
            if arch == Arch::Wormhole {
                cases.extend(wormhole::named_cases(op));
            }
            VectorFile {
                format: FORMAT.to_string(),
                arch,
                file: op.name().to_string(),
                vectors: cases.iter().map(|c| to_vector(op.name(), c)).collect(),
            }
        })
        .collect();
    let mut rng = Rng::stream(seed, "sequences");
    let seqs = sequences::cases(arch, &mut rng);
    files.push(VectorFile {
        format: FORMAT.to_string(),
        arch,
        file: "sequences".to_string(),
        vectors: seqs.iter().map(|c| to_vector("sequences", c)).collect(),
    });
    files.push(kernels::file(arch, seed));
    files
}

/// How an opcode's mode is selected: which field(s), and the prefix of its named constants.
#[derive(Clone, Copy, Debug)]
pub struct ModeField {
    /// The field (`Mod1`, `Mod0`), or `None` for instructions without modes.
    pub field: Option<&'static str>,
    /// The prefix of the documentation's names for its values.
    pub prefix: &'static str,
}

/// The mode field of `op`.
pub fn mode_field(op: Opcode) -> ModeField {
    use Opcode::*;
    let (field, prefix) = match op {
        SFPLOAD | SFPSTORE | SFPLOADMACRO => (Some("Mod0"), "MOD0_FMT_"),
        SFPLOADI => (Some("Mod0"), "SFPLOADI_MOD0_"),
        SFPLUT => (Some("Mod0"), "SFPLUT_MOD0_"),
        SFPMAD | SFPADD | SFPMUL | SFPADDI | SFPMULI => (Some("Mod1"), "SFPMAD_MOD1_"),
        SFPDIVP2 => (Some("Mod1"), "SFPSDIVP2_MOD1_"),
        SFPCONFIG => (Some("Mod1"), "MOD1_"),
        SFPSTOCHRND => (Some("Mod1"), "SFPSTOCHRND_MOD1_"),
        SFPNOT | SFPXOR | SFPCOMPC | SFPTRANSP | SFPNOP => (None, ""),
        _ => (Some("Mod1"), ""),
    };
    let prefix = if prefix.is_empty() && field.is_some() { leak_prefix(op) } else { prefix };
    ModeField { field, prefix }
}

/// The mode field of `op` on `arch`: [`mode_field`], unless the chip's encoding of the opcode has
/// no such field (Wormhole's SFPAND, SFPOR and SFPPUSHC have no `Mod1`), when it has no modes.
pub fn mode_field_for(arch: Arch, op: Opcode) -> ModeField {
    let mf = mode_field(op);
    match mf.field {
        Some(field) if !op.fields(arch).iter().any(|f| f.name == field) => {
            ModeField { field: None, prefix: "" }
        }
        _ => mf,
    }
}

/// `"{OP}_MOD1_"` for the opcodes whose constants follow that pattern.
fn leak_prefix(op: Opcode) -> &'static str {
    // A small fixed set, so a match is clearer than building strings at run time.
    use Opcode::*;
    match op {
        SFPEXEXP => "SFPEXEXP_MOD1_",
        SFPEXMAN => "SFPEXMAN_MOD1_",
        SFPIADD => "SFPIADD_MOD1_",
        SFPSHFT => "SFPSHFT_MOD1_",
        SFPSETCC => "SFPSETCC_MOD1_",
        SFPMOV => "SFPMOV_MOD1_",
        SFPABS => "SFPABS_MOD1_",
        SFPAND => "SFPAND_MOD1_",
        SFPOR => "SFPOR_MOD1_",
        SFPLZ => "SFPLZ_MOD1_",
        SFPSETEXP => "SFPSETEXP_MOD1_",
        SFPSETMAN => "SFPSETMAN_MOD1_",
        SFPSETSGN => "SFPSETSGN_MOD1_",
        SFPENCC => "SFPENCC_MOD1_",
        SFPCAST => "SFPCAST_MOD1_",
        SFPSWAP => "SFPSWAP_MOD1_",
        SFPSHFT2 => "SFPSHFT2_MOD1_",
        SFPLUTFP32 => "SFPLUTFP32_MOD1_",
        SFPLE => "SFPLE_MOD1_",
        SFPGT => "SFPGT_MOD1_",
        SFPMUL24 => "SFPMUL24_MOD1_",
        SFPARECIP => "SFPARECIP_MOD1_",
        _ => "",
    }
}

/// The constant prefixes whose values are an enumeration, not independent bits: a value that no
/// constant names is shown as its number, never as a sum of unrelated constants (SFPLOADI's
/// reserved `Mod0` 3 is not `FLOATA+USHORT`).
const ENUMERATED_PREFIXES: &[&str] = &[
    "MOD0_FMT_",
    "SFPLOADI_MOD0_",
    "SFPSETCC_MOD1_",
    "SFPCAST_MOD1_",
    "SFPSWAP_MOD1_",
    "SFPSHFT2_MOD1_",
    "SFPARECIP_MOD1_",
    "SFPSTOCHRND_MOD1_",
    "SFPSTOCHRND_RND_",
];

/// The documentation's name for `value` under `prefix`: an exact constant, else (where the
/// constants are bits, not an enumeration) single-bit constants joined with `+`, else the number.
pub fn mode_name(prefix: &str, value: u32) -> String {
    let named: Vec<(&str, u32)> = DEFINITIONS
        .iter()
        .filter(|d| !prefix.is_empty() && d.name.starts_with(prefix))
        .map(|d| (&d.name[prefix.len()..], d.value))
        .collect();
    if let Some((n, _)) = named.iter().find(|(_, v)| *v == value) {
        return n.to_string();
    }
    if ENUMERATED_PREFIXES.contains(&prefix) {
        return value.to_string();
    }
    // Disjoint named constants covering the value, multi-bit fields first (SFPLUTFP32's
    // `FP16_3ENTRY_TABLE` is bits 1 and 3; SFPCONFIG's `BITWISE_XOR` bits 1 and 2), listed from
    // the lowest bit up.
    let mut parts: Vec<(&str, u32)> = named.iter().copied().filter(|&(_, v)| v != 0 && v <= 0xF).collect();
    parts.sort_by_key(|&(_, v)| (std::cmp::Reverse(v.count_ones()), std::cmp::Reverse(v)));
    let mut rest = value;
    let mut taken: Vec<(&str, u32)> = Vec::new();
    for (n, v) in parts {
        if v & rest == v {
            taken.push((n, v));
            rest &= !v;
        }
    }
    if value != 0 && rest == 0 {
        taken.sort_by_key(|&(_, v)| v.trailing_zeros());
        taken.iter().map(|(n, _)| *n).collect::<Vec<_>>().join("+")
    } else {
        value.to_string()
    }
}

/// Every mode value of Blackhole's `op` the corpus must cover ([`modes_for`] of Blackhole).
pub fn modes(op: Opcode) -> Vec<(String, String)> {
    mode_table(op).to_vec()
}

/// Every mode value of `op` on `arch` the corpus must cover, as `(canonical, label)`: every value
/// of the chip's mode field (reserved and non-contractual ones too), or `none`; empty if the chip
/// has no such opcode.
pub fn modes_for(arch: Arch, op: Opcode) -> Vec<(String, String)> {
    mode_table_for(arch, op).to_vec()
}

/// [`modes`] of `op`, computed once (naming SFPCONFIG's 256 mode values is not free, and the
/// random campaign asks for every case).
pub fn mode_table(op: Opcode) -> &'static [(String, String)] {
    mode_table_for(Arch::Blackhole, op)
}

/// [`modes_for`] of `arch` and `op`, computed once.
pub fn mode_table_for(arch: Arch, op: Opcode) -> &'static [(String, String)] {
    type ModesByOpcode = Vec<Vec<(String, String)>>;
    static TABLE: std::sync::OnceLock<Vec<ModesByOpcode>> = std::sync::OnceLock::new();
    let table = TABLE.get_or_init(|| {
        Arch::ALL
            .iter()
            .map(|&a| {
                Opcode::ALL.iter().map(|&o| if a.has(o) { compute_modes(a, o) } else { Vec::new() }).collect()
            })
            .collect()
    });
    let chip = Arch::ALL.iter().position(|&a| a == arch).unwrap_or(0);
    let index = Opcode::ALL.iter().position(|&o| o == op).unwrap_or(0);
    &table[chip][index]
}

fn compute_modes(arch: Arch, op: Opcode) -> Vec<(String, String)> {
    let mf = mode_field_for(arch, op);
    // SFPSTOCHRND's rounding mode is two bits on Blackhole, one on Wormhole.
    let rounding_modes =
        op.fields(arch).iter().find(|f| f.name == "RoundingMode").map_or(1, |f| 1u32 << f.bits);
    match (op, mf.field) {
        (Opcode::SFPSTOCHRND, _) => (0..rounding_modes)
            .flat_map(|rnd| {
                (0..8).map(move |m| {
                    let rnd_name = mode_name("SFPSTOCHRND_RND_", rnd);
                    (
                        format!("rnd={rnd},mod1={m}"),
                        format!("rnd={rnd_name},mod1={}", mode_name(mf.prefix, m)),
                    )
                })
            })
            .collect(),
        (Opcode::SFPCONFIG, _) => (0..16)
            .flat_map(|vd| {
                (0..16).map(move |m| {
                    (format!("vd={vd},mod1={m}"), format!("vd={vd},mod1={}", mode_name("MOD1_", m)))
                })
            })
            .collect(),
        (_, None) => vec![("none".to_string(), "none".to_string())],
        (_, Some(field)) => (0..16)
            .map(|v| {
                (
                    format!("{}={v}", field.to_ascii_lowercase()),
                    format!("{}={}", field.to_ascii_lowercase(), mode_name(mf.prefix, v)),
                )
            })
            .collect(),
    }
}

/// The canonical mode value of Blackhole's `instr` ([`mode_of_for`] of Blackhole).
pub fn mode_of(instr: &Instr) -> String {
    mode_of_for(Arch::Blackhole, instr)
}

/// The canonical mode value of `instr` on `arch` (one of [`modes_for`] of its opcode): `mod1=3`,
/// `mod0=1`, `rnd=1,mod1=0`, `vd=15,mod1=1`, `none`.
pub fn mode_of_for(arch: Arch, instr: &Instr) -> String {
    let op = instr.opcode();
    let fields = instr.field_values();
    let get = |name: &str| fields.iter().find(|(n, _)| *n == name).map_or(0, |&(_, v)| v);
    match (op, mode_field_for(arch, op).field) {
        (Opcode::SFPSTOCHRND, _) => format!("rnd={},mod1={}", get("RoundingMode"), get("Mod1")),
        (Opcode::SFPCONFIG, _) => format!("vd={},mod1={}", get("VD"), get("Mod1")),
        (_, None) => "none".to_string(),
        (_, Some(field)) => format!("{}={}", field.to_ascii_lowercase(), get(field)),
    }
}

/// Builds a Blackhole instruction of `op` from `fields` ([`build_for`] of Blackhole).
pub fn build(op: Opcode, fields: &[(&str, u32)]) -> Instr {
    build_for(Arch::Blackhole, op, fields)
}

/// Builds an instruction of `op` for `arch` from `fields` (name -> value): unset fields are zero,
/// fields the chip's encoding lacks are dropped and values are masked to the chip's widths (so the
/// result always encodes for `arch`). SFPNOP if the chip has no such opcode.
pub fn build_for(arch: Arch, op: Opcode, fields: &[(&str, u32)]) -> Instr {
    let mut word = (op.number() as u32) << 24;
    for f in op.fields(arch) {
        if let Some(&(_, v)) = fields.iter().find(|(n, _)| *n == f.name) {
            word |= (v << f.lo) & f.mask();
        }
    }
    // Every field is masked to its width, so the word decodes.
    decode(arch, word).unwrap_or(Instr::SFPNOP {})
}

/// The variants of a case: how lanes, destinations, the backdoor and the immediates are set up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Variant {
    /// Operand mix A, every lane enabled; immediates all ones (unsigned max, signed -1).
    A,
    /// Operand mix B (special values), every lane enabled; immediates the most negative signed
    /// value.
    B,
    /// Lane flags in use, enabling a mixed pattern of lanes; immediates 0.
    Flags,
    /// LaneConfig ROW_MASK disabling some rows of some columns; immediates the largest positive
    /// signed value.
    RowMask,
    /// Operand mix A with immediate +1.
    ImmOne,
    /// Operand mix A with a random immediate.
    ImmRandom,
    /// VD in 8..=11 with DISABLE_BACKDOOR_LOAD set: the write is dropped (W8).
    Vd8Dbl1,
    /// VD in 8..=11 with DISABLE_BACKDOOR_LOAD clear: no backdoor below 12, the write is dropped.
    Vd8Dbl0,
    /// VD in 12..=15 with DISABLE_BACKDOOR_LOAD set: the instruction executes, the write is dropped.
    Vd12Dbl1,
    /// VD in 12..=15 with DISABLE_BACKDOOR_LOAD clear: a backdoor load (unspecified).
    Backdoor,
    /// As `B`, with flag stacks of every depth 0..=8 across the lanes (feature
    /// `flag-stack-ragged`).
    FlagStackRagged,
    /// As `B`, with `UseLaneFlagsForLaneEnable` different between lanes (feature
    /// `use-lane-flags-ragged`).
    UseFlagsRagged,
    /// As `A`, with a random PRNG state in every lane (feature `prng`).
    OnlyPrng,
    /// As `A`, with random `LaneConfig` bits other than `ROW_MASK` per column (feature
    /// `lane-config`).
    OnlyLaneConfig,
    /// As `A`, with random `LoadMacroConfig` `Sequence` words and `Misc` per column (feature
    /// `load-macro-config`).
    OnlyLoadMacroConfig,
    /// As `A`, with random `LoadMacroConfig` instruction templates per column (feature
    /// `instruction-template`).
    OnlyInstructionTemplate,
    /// SFPSTOCHRND's float flavours with `Imm5` and `UseImm5` set, which they ignore (tagged
    /// `reserved-encoding`).
    Imm5Ignored,
}

impl Variant {
    fn name(self) -> &'static str {
        match self {
            Variant::A => "mix-a",
            Variant::B => "specials",
            Variant::Flags => "lane-flags",
            Variant::RowMask => "row-mask",
            Variant::ImmOne => "imm-plus-one",
            Variant::ImmRandom => "imm-random",
            Variant::Vd8Dbl1 => "vd-8-11-dropped",
            Variant::Vd8Dbl0 => "vd-8-11-dbl0-dropped",
            Variant::Vd12Dbl1 => "vd-12-15-dbl1-dropped",
            Variant::Backdoor => "vd-12-15-backdoor",
            Variant::FlagStackRagged => "flag-stack-ragged",
            Variant::UseFlagsRagged => "only-use-lane-flags-ragged",
            Variant::OnlyPrng => "only-prng",
            Variant::OnlyLaneConfig => "only-lane-config",
            Variant::OnlyLoadMacroConfig => "only-load-macro-config",
            Variant::OnlyInstructionTemplate => "only-instruction-template",
            Variant::Imm5Ignored => "imm5-ignored",
        }
    }

    /// The destination variants: VD outside 0..=7.
    fn high_vd(self) -> bool {
        matches!(self, Variant::Vd8Dbl1 | Variant::Vd8Dbl0 | Variant::Vd12Dbl1 | Variant::Backdoor)
    }

    /// Whether the variant sets DISABLE_BACKDOOR_LOAD in every lane.
    fn dbl(self) -> bool {
        matches!(self, Variant::Vd8Dbl1 | Variant::Vd12Dbl1)
    }
}

/// A reset state (the baseline: zero PRNG); in the `only-prng` variant every lane's PRNG seeded
/// differently.
fn base_state(arch: Arch, rng: &mut Rng, variant: Variant) -> State {
    let mut s = State::reset(arch, &ResetValues::ZEROS);
    if variant == Variant::OnlyPrng {
        s.PRNG = std::array::from_fn(|_| rng.u32());
    }
    s
}

/// The operand roles of `instr`, in the order its operand pools are dealt: the registers named by
/// its `VA`, `VB`, `VC` and `VD` fields (SFPSHFT2's `VB` is `Imm12 & 15`; SFPSTOCHRND's rounded
/// `VC` first). For the SFPMAD family the first three pools are a designed `(a, b, c)` triple for
/// `a * b + c`, so they land in `VA`, `VB` and `VC` exactly.
fn operand_roles(instr: &Instr) -> Vec<usize> {
    let fields = instr.field_values();
    let get = |name: &str| fields.iter().find(|(n, _)| *n == name).map(|&(_, v)| v as usize);
    let vb = match instr.opcode() {
        Opcode::SFPSHFT2 => get("Imm12").map(|v| v & 15),
        _ => get("VB"),
    };
    match instr.opcode() {
        // The rounded value is VC; VB is the shift amount of the integer flavour.
        Opcode::SFPSTOCHRND => [get("VC"), vb, get("VD")].into_iter().flatten().collect(),
        _ => [get("VA"), vb, get("VC"), get("VD")].into_iter().flatten().collect(),
    }
}

/// Fills the registers `instr` reads (and writes, for their old values) with operand classes for
/// `variant`, dealing the pools to the instruction's operand roles in order.
fn fill_operands(rng: &mut Rng, s: &mut State, instr: &Instr, variant: Variant) {
    use Opcode::*;
    let access = hazard::actual(s.arch(), instr, &sfpu_reference::ops::Ctx::REGULAR);
    let used = access.reads | access.writes;
    let fp_like = matches!(
        instr.opcode(),
        SFPMAD
            | SFPADD
            | SFPMUL
            | SFPADDI
            | SFPMULI
            | SFPLUTFP32
            | SFPARECIP
            | SFPSTOCHRND
            | SFPDIVP2
            | SFPEXEXP
            | SFPEXMAN
            | SFPSETEXP
            | SFPSETMAN
            | SFPSETSGN
            | SFPABS
            | SFPSWAP
            | SFPGT
            | SFPLE
            | SFPSTORE
    );
    let shifty = matches!(instr.opcode(), SFPSHFT | SFPSHFT2);
    let specials = matches!(variant, Variant::B | Variant::FlagStackRagged | Variant::UseFlagsRagged);
    let pools: Vec<[u32; LANES]> = match (instr.opcode(), specials, fp_like) {
        // SFPSTOCHRND rounds VC (by VB's shift amount in the integer flavour): rounding ties.
        (SFPSTOCHRND, false, _) => vec![rounding_ties(rng), shift_amounts(rng), fp_random(rng)],
        (_, true, true) => {
            vec![FP_SPECIALS, rotated(&FP_SPECIALS, 7), rotated(&FP_SPECIALS, 13), rotated(&FP_SPECIALS, 3)]
        }
        (_, true, false) => {
            vec![INT_SPECIALS, rotated(&INT_SPECIALS, 5), rotated(&INT_SPECIALS, 11), FP_SPECIALS]
        }
        (_, false, true) => {
            let (a, b, c) = fma_edges(rng);
            vec![a, b, c, fp_random(rng), fp_wide(rng), rotated(&FP_SPECIALS, rng.below(32) as usize)]
        }
        (_, false, false) => vec![
            bits_random(rng),
            INT_SPECIALS,
            shift_amounts(rng),
            rotated(&INT_SPECIALS, 9),
            fp_random(rng),
        ],
    };
    let roles = operand_roles(instr);
    let mut filled = 0u32;
    for (k, &reg) in roles.iter().enumerate() {
        if reg < 8 && (used >> reg) & 1 != 0 && (filled >> reg) & 1 == 0 {
            s.LReg[reg] = pools[k % pools.len()];
            filled |= 1 << reg;
        }
    }
    let mut k = roles.len();
    for reg in 0..8 {
        if (used >> reg) & 1 != 0 && (filled >> reg) & 1 == 0 {
            s.LReg[reg] = pools[k % pools.len()];
            filled |= 1 << reg;
            k += 1;
        }
    }
    if shifty {
        // Shift amounts come from VC.
        if let Some(vc) = instr.field_values().iter().find(|(n, _)| *n == "VC").map(|&(_, v)| v as usize)
            && vc < 8
        {
            s.LReg[vc] = shift_amounts(rng);
        }
    }
    if matches!(instr.opcode(), SFPLUT | SFPLUTFP32) {
        s.LReg[3] = lut_inputs(rng);
        for reg in [0, 1, 2, 4, 5, 6] {
            s.LReg[reg] = bits_random(rng);
        }
    }
    let indirect = access.writes == hazard::ALL_LREGS || access.reads == hazard::ALL_LREGS;
    if indirect {
        // LReg[7] low bits select registers for the indirect modes: lane by lane
        // (`per_lane_index`), or, in about a quarter of the cases, one register for every lane, as
        // kernels set it. Decided by a hash of the register's words (its pools' first lanes are
        // often the same constants), so that no later draw moves.
        let h = s.LReg[7].iter().fold(0u32, |h, &w| (h.rotate_left(5) ^ w).wrapping_mul(0x9E37_79B9));
        let one = (h >> 30 == 0).then_some((h >> 24) & 15);
        s.LReg[7] = std::array::from_fn(|l| {
            (s.LReg[7][l] & !15) | one.unwrap_or_else(|| per_lane_index(l as u32, (h >> 8) & 3))
        });
    }
}

/// The register lane `l` names through `LReg[7]` in a lane-by-lane indirect case (generator v6;
/// `k` in 0..4 from the case's hash): each half of the lanes names all 16 registers, lanes `l`
/// and `l + 16` name registers 3 apart, and no lane names `l & 15`. So an implementation that
/// takes the register number from the lane number, or from the other half's lane (`l ^ 16`),
/// fails these cases; before v6 every lane named `l & 15`, which both mistakes give.
///
/// `5 * l` runs through every residue modulo 16 in each half (5 is odd); lane `l` would name
/// `l & 15` only if `4 * l + 2 + 4 * k + 3 * (l >> 4)` were a multiple of 16, and it is 2 or 1
/// modulo 4.
pub fn per_lane_index(l: u32, k: u32) -> u32 {
    (5 * l + 3 * (l >> 4) + 2 + 4 * k) & 15
}

/// Sets up predication and backdoor state for `variant`.
fn predication(rng: &mut Rng, s: &mut State, variant: Variant) {
    match variant {
        Variant::Flags => {
            let pattern = 0x5A3C_C3A5 ^ rng.u32() & 0x0F0F_0000;
            for l in 0..LANES {
                s.UseLaneFlagsForLaneEnable[l] = true;
                s.LaneFlags[l] = (pattern >> l) & 1 != 0;
            }
        }
        Variant::UseFlagsRagged => {
            // Lane flags driving the enable in some lanes and not in others; flags of both values.
            let (use_flags, flags) = (rng.u32(), rng.u32());
            for l in 0..LANES {
                s.UseLaneFlagsForLaneEnable[l] = (use_flags >> l) & 1 != 0;
                s.LaneFlags[l] = (flags >> l) & 1 != 0;
            }
            // Not every lane alike (with 32 random bits this only guards the improbable).
            s.UseLaneFlagsForLaneEnable[0] = true;
            s.UseLaneFlagsForLaneEnable[1] = false;
        }
        Variant::RowMask => {
            // Column c masks the rows in bits [15:12]: a different row set per column.
            for l in 0..LANES {
                let rows = (l as u32 & 7) * 2 + 1;
                s.LaneConfig[l] = LaneConfig::truncating((rows & 0xF) << 12);
            }
        }
        v if v.dbl() => {
            for l in 0..LANES {
                s.LaneConfig[l] = LaneConfig::truncating(2); // DISABLE_BACKDOOR_LOAD
            }
        }
        _ => {}
    }
}

/// The value of an immediate field of `bits` bits for `variant`: all ones (unsigned max, signed
/// -1), the most negative and the largest positive signed value, 0, +1, or random.
fn immediate(rng: &mut Rng, bits: u32, variant: Variant) -> u32 {
    let max = (1u32 << bits) - 1;
    match variant {
        Variant::A | Variant::OnlyPrng | Variant::OnlyLaneConfig => max,
        Variant::OnlyLoadMacroConfig | Variant::OnlyInstructionTemplate => max,
        Variant::B | Variant::FlagStackRagged | Variant::UseFlagsRagged => max / 2 + 1,
        Variant::Flags => 0,
        Variant::RowMask => max / 2,
        Variant::ImmOne => 1,
        _ => rng.u32() & max,
    }
}

/// SFPCONFIG's `Imm16` for `variant`: all ones, or a lane mask (`IMM16_IS_LANE_MASK` reads bits
/// 0, 2, .., 14 as columns 0..=7) selecting some columns and not others, which also serves as the
/// value under `IMM16_IS_VALUE`.
fn sfpconfig_imm16(rng: &mut Rng, variant: Variant) -> u32 {
    // Spread the eight column bits over the even bit positions.
    let spread = |cols: u32| (0..8).fold(0, |m, c| m | (((cols >> c) & 1) << (2 * c)));
    // 1..=254: never no column and never every column.
    let mixed = |rng: &mut Rng| spread(1 + rng.below(254));
    match variant {
        Variant::A => 0xFFFF,
        Variant::Flags => 0x8000 | (rng.u32() & 0x2AAA) | mixed(rng),
        _ => (rng.u32() & 0x2AAA) | mixed(rng),
    }
}

/// Whether `op` has an immediate of 5 bits or more, which gets the `imm-*` variants.
fn has_wide_immediate(arch: Arch, op: Opcode) -> bool {
    op != Opcode::SFPCONFIG && op.fields(arch).iter().any(|f| f.name.starts_with("Imm") && f.bits >= 5)
}

/// Random values for the non-mode fields of an instruction of `op` in `variant`: registers,
/// immediates (see [`immediate`]) and the other fields.
fn random_fields(arch: Arch, rng: &mut Rng, op: Opcode, variant: Variant) -> Vec<(&'static str, u32)> {
    let mut out = Vec::new();
    for f in op.fields(arch) {
        let max = (1u32 << f.bits) - 1;
        let v = match f.name {
            "VA" | "VB" | "VC" => {
                // Mostly general registers; sometimes a constant register as a source.
                if rng.below(6) == 0 { rng.pick(&[8, 9, 10, 15]) } else { rng.below(8) }
            }
            "VD" => rng.below(8),
            "Imm16" if op == Opcode::SFPCONFIG => sfpconfig_imm16(rng, variant),
            "Imm8" | "Imm12" | "Imm16" | "Imm5" | "Imm1" | "Imm2" => immediate(rng, f.bits, variant),
            "Imm10" => rng.below(64) * 2, // stay low in Dst, both column halves
            "AddrMod" => rng.below(8),
            "Mod1Mirror" => rng.below(16),
            "RoundingMode" | "UseImm5" | "MacroIndex" | "VDLo" | "VDHi" | "Imm9" => rng.u32() & max,
            _ => 0,
        };
        out.push((f.name, v));
    }
    if matches!(op, Opcode::SFPMAD | Opcode::SFPADD | Opcode::SFPMUL | Opcode::SFPMUL24)
        && variant != Variant::B
    {
        // Three different general registers, so that a designed (a, b, c) triple reaches the
        // VA, VB and VC roles intact (the specials variant keeps constant and repeated sources).
        // Not LReg[7], which the indirect modes read as a register selector.
        let mut regs: Vec<u32> = (0..7).collect();
        for (k, name) in ["VA", "VB", "VC"].into_iter().enumerate() {
            let pick = k + rng.below(7 - k as u32) as usize;
            regs.swap(k, pick);
            set_field(&mut out, name, regs[k]);
        }
    }
    out
}

/// Every case of Blackhole's `op`.
pub fn opcode_cases(op: Opcode, rng: &mut Rng) -> Vec<Case> {
    opcode_cases_for(Arch::Blackhole, op, rng)
}

/// Every case of `op` on `arch` (none if the chip has no such opcode).
pub fn opcode_cases_for(arch: Arch, op: Opcode, rng: &mut Rng) -> Vec<Case> {
    if !arch.has(op) {
        return Vec::new();
    }
    match op {
        Opcode::SFPLOAD | Opcode::SFPSTORE | Opcode::SFPLOADMACRO => sequences::memory_cases(arch, op, rng),
        _ => lane_cases(arch, op, rng),
    }
}

/// The variants a lane instruction's cases use in `mode` (canonical form): the baseline ones
/// (`mix-a`, `specials`, `lane-flags`, the immediates, the VD 8..15 cases without
/// `DISABLE_BACKDOOR_LOAD`), and the ones that add one feature to the baseline, for the modes whose
/// page reads it (`row-mask`; `lane-config` through `DISABLE_BACKDOOR_LOAD` in the VD 8..15 cases;
/// the `only-*` variants; `flag-stack-ragged`).
fn variants_of(arch: Arch, op: Opcode, mode: &str) -> Vec<Variant> {
    use Variant::*;
    let has_vd = op.fields(arch).iter().any(|f| f.name == "VD") && op != Opcode::SFPCONFIG;
    let mod1 = mode_value(mode, "mod1");
    let mut v = match op {
        // 256 mode values: three variants each keeps the file small. ROW_MASK matters because
        // SFPCONFIG ignores it (spec §2.4).
        Opcode::SFPCONFIG => vec![A, Flags, RowMask],
        _ => vec![A, B, Flags, RowMask],
    };
    let imm_used = match op {
        // SFPSHFT2 reads Imm12 only in SHFT_IMM; SFPSTOCHRND reads Imm5 only in the integer flavour.
        Opcode::SFPSHFT2 => mode == "mod1=6",
        Opcode::SFPSTOCHRND => mode.ends_with("mod1=4") || mode.ends_with("mod1=5"),
        _ => true,
    };
    if has_wide_immediate(arch, op) && imm_used && op != Opcode::SFPCONFIG {
        v.extend([ImmOne, ImmRandom]);
    }
    if has_vd {
        v.extend([Vd8Dbl1, Vd8Dbl0, Vd12Dbl1, Backdoor]);
    }
    // One feature at a time, where the page reads it.
    let mutate_stack = matches!(op, Opcode::SFPGT | Opcode::SFPLE) && mod1 & SFPGT_MOD1_MUTATE_STACK != 0;
    if matches!(op, Opcode::SFPPUSHC | Opcode::SFPPOPC | Opcode::SFPCOMPC) || mutate_stack {
        v.push(FlagStackRagged);
    }
    if op != Opcode::SFPNOP && spread_modes_for(arch, op).iter().any(|m| m == mode) {
        v.push(UseFlagsRagged);
    }
    let from_special = op == Opcode::SFPMOV && mod1 & SFPMOV_MOD1_FROM_SPECIAL != 0;
    let config_vd = mode_value(mode, "vd");
    if op == Opcode::SFPSTOCHRND
        || (op == Opcode::SFPCAST && mod1 & 3 == SFPCAST_MOD1_SM32_TO_FP32_RNS)
        || from_special
    {
        v.push(OnlyPrng);
    }
    if from_special || op == Opcode::SFPSWAP || (op == Opcode::SFPCONFIG && config_vd == 15) {
        v.push(OnlyLaneConfig);
    }
    if from_special || (op == Opcode::SFPCONFIG && config_vd == 8) {
        v.push(OnlyLoadMacroConfig);
    }
    if from_special {
        v.push(OnlyInstructionTemplate);
    }
    if op == Opcode::SFPSTOCHRND && !(mode.ends_with("mod1=4") || mode.ends_with("mod1=5")) {
        v.push(Imm5Ignored);
    }
    v
}

/// The value of `key` in a canonical mode (`mod1` of `rnd=1,mod1=3` is 3), or 0.
fn mode_value(mode: &str, key: &str) -> u32 {
    mode.split(',')
        .filter_map(|part| part.split_once('='))
        .find(|(k, _)| *k == key)
        .and_then(|(_, v)| v.parse().ok())
        .unwrap_or(0)
}

/// The modes of `op` that get the variants added for a feature every instruction reads
/// (`use-lane-flags-ragged`): four modes spread over the mode values (every mode when there are
/// at most four), which keeps the corpus within its size budget.
pub fn spread_modes(op: Opcode) -> Vec<String> {
    spread_modes_for(Arch::Blackhole, op)
}

/// [`spread_modes`] of `op` on `arch`.
pub fn spread_modes_for(arch: Arch, op: Opcode) -> Vec<String> {
    let all = mode_table_for(arch, op);
    if all.is_empty() {
        return Vec::new();
    }
    let n = all.len();
    let mut picked: Vec<String> = [0, n / 4, n / 2, 3 * n / 4].iter().map(|&i| all[i].0.clone()).collect();
    picked.dedup();
    picked
}

/// One case of a lane instruction: `mode` (canonical) with `label`, in `variant`.
fn lane_case(arch: Arch, op: Opcode, mode: &str, label: &str, variant: Variant, rng: &mut Rng) -> Case {
    let mut fields = random_fields(arch, rng, op, variant);
    set_mode(op, mode, &mut fields);
    if op == Opcode::SFPSHFT2 && mode != "mod1=6" {
        // Outside SHFT_IMM only Imm12[3:0] (VB) is drawn; upper bits are unspecified (spec §6.3
        // item 21) and would leave the whole result open. Keep them clear, except in the
        // specials of the reserved modes, whose result is open anyway.
        let reserved = !matches!(mode, "mod1=0" | "mod1=1" | "mod1=2" | "mod1=3" | "mod1=4" | "mod1=5");
        if !(reserved && variant == Variant::B) {
            let vb = rng.below(8);
            set_field(&mut fields, "Imm12", vb);
        }
    }
    match variant {
        Variant::Vd8Dbl1 | Variant::Vd8Dbl0 => set_field(&mut fields, "VD", 8 + rng.below(4)),
        Variant::Vd12Dbl1 | Variant::Backdoor => set_field(&mut fields, "VD", 12 + rng.below(4)),
        Variant::Imm5Ignored => {
            set_field(&mut fields, "UseImm5", 1);
            set_field(&mut fields, "Imm5", 1 + rng.below(31));
        }
        _ => {}
    }
    if op == Opcode::SFPMOV {
        // FROM_SPECIAL reads what VC selects: make the one-feature variants read their feature.
        match variant {
            Variant::OnlyLaneConfig => set_field(&mut fields, "VC", 15),
            Variant::OnlyLoadMacroConfig => set_field(&mut fields, "VC", 4 + rng.below(5)),
            Variant::OnlyInstructionTemplate => set_field(&mut fields, "VC", rng.below(4)),
            Variant::OnlyPrng => set_field(&mut fields, "VC", 9),
            _ => {}
        }
    }
    let instr = build_for(arch, op, &fields);
    let mut s = base_state(arch, rng, variant);
    fill_operands(rng, &mut s, &instr, variant);
    if variant.high_vd() {
        high_vd_operands(rng, &mut s, &instr);
    }
    predication(rng, &mut s, variant);
    extra_state(rng, &mut s, op, variant);
    let mut tags = vec![variant.name().to_string()];
    if mode_field_for(arch, op).field.is_some() {
        tags.push(mode.to_string());
    }
    Case {
        name: variant.name().to_string(),
        mode: Some(mode.to_string()),
        mode_label: Some(label.to_string()),
        tags,
        program: vec![instr],
        pre: s,
    }
}

/// Operands for a VD 8..=15 case. When the instruction's only register effect is its write to
/// VD (dropped, or a backdoor load; the indirect modes write where `LReg[7]` says) every register
/// holds one value in all lanes: the case checks what is written and what is not, and stays
/// small. When it also writes other registers from its fields (SFPSHFT2's COPY4 family,
/// SFPTRANSP) or the flags (the predication instructions, SFPIADD, SFPLZ, SFPEXEXP) the per-lane
/// operand classes stay. A programmable constant register used as VD (`LReg[11..=14]`) gets a
/// non-zero value, so that a write that should have been dropped shows.
fn high_vd_operands(rng: &mut Rng, s: &mut State, instr: &Instr) {
    let fields = instr.field_values();
    let get = |name: &str| fields.iter().find(|(n, _)| *n == name).map_or(0, |&(_, v)| v);
    let vd = get("VD") as usize;
    let f = crate::taint::footprint(instr);
    let other_writes = match instr.opcode() {
        Opcode::SFPTRANSP => true,
        Opcode::SFPSHFT2 => get("Mod1") <= 2,
        _ => f.writes.lane_flags || f.writes.flag_stack,
    };
    if !other_writes {
        for reg in 0..8 {
            let lane = rng.below(LANES as u32) as usize;
            s.LReg[reg] = [s.LReg[reg][lane]; LANES];
        }
    }
    if (11..=14).contains(&vd) {
        s.LReg[vd] = [rng.normal(100, 154); LANES];
    }
}

/// The generic cases: for every mode value, the operand mixes and predication variants.
fn lane_cases(arch: Arch, op: Opcode, rng: &mut Rng) -> Vec<Case> {
    let mut cases = Vec::new();
    for (mode, label) in modes_for(arch, op) {
        for variant in variants_of(arch, op, &mode) {
            cases.push(lane_case(arch, op, &mode, &label, variant, rng));
        }
    }
    cases
}

/// A random case of `op`: a random mode value, variant and operands, as the corpus would build
/// it. The random campaign draws its cases from here.
pub fn random_case(op: Opcode, rng: &mut Rng) -> Case {
    random_case_for(Arch::Blackhole, op, rng)
}

/// [`random_case`] on `arch` (an SFPNOP case if the chip has no such opcode).
pub fn random_case_for(arch: Arch, op: Opcode, rng: &mut Rng) -> Case {
    let all = mode_table_for(arch, op);
    let index = rng.below(all.len().max(1) as u32) as usize;
    random_case_in_mode_for(arch, op, index, rng)
}

/// A random case of `op` in its mode value number `mode_index` (an index into [`modes`], taken
/// modulo their number): a random variant and operands, as the corpus would build it.
pub fn random_case_in_mode(op: Opcode, mode_index: usize, rng: &mut Rng) -> Case {
    random_case_in_mode_for(Arch::Blackhole, op, mode_index, rng)
}

/// [`random_case_in_mode`] on `arch` (an SFPNOP case if the chip has no such opcode).
pub fn random_case_in_mode_for(arch: Arch, op: Opcode, mode_index: usize, rng: &mut Rng) -> Case {
    let all = mode_table_for(arch, op);
    if all.is_empty() {
        return random_case_in_mode_for(arch, Opcode::SFPNOP, 0, rng);
    }
    let (mode, label) = all[mode_index % all.len()].clone();
    match op {
        Opcode::SFPLOAD | Opcode::SFPSTORE | Opcode::SFPLOADMACRO => {
            sequences::random_memory_case(arch, op, &mode, &label, rng)
        }
        _ => {
            let variants = variants_of(arch, op, &mode);
            let variant = variants[rng.below(variants.len() as u32) as usize];
            lane_case(arch, op, &mode, &label, variant, rng)
        }
    }
}

fn set_field(fields: &mut [(&'static str, u32)], name: &str, value: u32) {
    for f in fields.iter_mut() {
        if f.0 == name {
            f.1 = value;
        }
    }
}

/// Writes the mode value `mode` (canonical form) into the fields.
fn set_mode(op: Opcode, mode: &str, fields: &mut [(&'static str, u32)]) {
    for part in mode.split(',') {
        let Some((key, value)) = part.split_once('=') else { continue };
        let Ok(value) = value.parse::<u32>() else { continue };
        match key {
            "mod1" => set_field(fields, "Mod1", value),
            "mod0" => set_field(fields, "Mod0", value),
            "rnd" => set_field(fields, "RoundingMode", value),
            "vd" => set_field(fields, "VD", value),
            _ => {}
        }
    }
    if op == Opcode::SFPSTOCHRND {
        // UseImm5 in the integer flavour comes from the case's random fields; elsewhere clear it
        // unless the case is about it (Imm5/UseImm5 are not drawn in the float flavours).
        let m = fields.iter().find(|f| f.0 == "Mod1").map_or(0, |f| f.1);
        if !matches!(m, 4 | 5) {
            set_field(fields, "UseImm5", 0);
            set_field(fields, "Imm5", 0);
        }
    }
}

/// State an instruction reads beyond its registers: flag stacks for the predication
/// instructions (every lane the same depth, except in `flag-stack-ragged`), and, in the `only-*`
/// variants, the configuration SFPMOV, SFPCONFIG and SFPSWAP read.
fn extra_state(rng: &mut Rng, s: &mut State, op: Opcode, variant: Variant) {
    use Opcode::*;
    use sfpu_reference::state::{FlagStack, FlagStackEntry};
    if matches!(
        op,
        SFPSETCC | SFPENCC | SFPPUSHC | SFPPOPC | SFPCOMPC | SFPGT | SFPLE | SFPIADD | SFPLZ | SFPEXEXP
    ) {
        let ragged = variant == Variant::FlagStackRagged;
        // Software reaches only equal depths, each level's UseLaneFlagsForLaneEnable the same in
        // every lane: a depth of 1..=7 (pushes and pops then stay defined), random contents. The
        // ragged variant has every depth 0..=8 across the lanes.
        let depth = 1 + rng.below(7) as usize;
        let level_use: Vec<bool> = (0..8).map(|_| rng.below(2) == 1).collect();
        for l in 0..LANES {
            let d = if ragged { l % 9 } else { depth };
            let mut st = FlagStack::new();
            for &u in &level_use[..d] {
                let _ =
                    st.push(FlagStackEntry { LaneFlags: rng.below(2) == 1, UseLaneFlagsForLaneEnable: u });
            }
            s.FlagStack[l] = st;
        }
        if matches!(variant, Variant::B | Variant::FlagStackRagged) {
            // Random flags, lane flags in use (or not) in every lane alike.
            let use_flags = rng.below(3) != 0;
            for l in 0..LANES {
                s.LaneFlags[l] = rng.below(2) == 1;
                s.UseLaneFlagsForLaneEnable[l] = use_flags;
            }
        } else if !matches!(variant, Variant::Flags | Variant::UseFlagsRagged) {
            for l in 0..LANES {
                s.LaneFlags[l] = rng.below(2) == 1;
            }
        }
    }
    // Configuration to read or combine with, one random value per column (SFPCONFIG writes a
    // column at a time).
    let columns =
        |rng: &mut Rng, f: &dyn Fn(&mut Rng) -> u32| -> [u32; 8] { std::array::from_fn(|_| f(rng)) };
    match variant {
        Variant::OnlyLaneConfig => {
            let bits = if op == SFPSWAP {
                // The bits SFPSWAP reads: ENABLE_DEST_INDEX, EXCHANGE_SRCB_SRCC.
                columns(rng, &|rng| rng.pick(&[0, 0x4, 0x100, 0x104]))
            } else {
                // Random bits without ROW_MASK (its own feature) and DISABLE_BACKDOOR_LOAD (a
                // change to which is unspecified for the next instruction).
                columns(rng, &|rng| rng.u32() & 0x3_0FFD)
            };
            for l in 0..LANES {
                s.LaneConfig[l] = LaneConfig::truncating(s.LaneConfig[l].bits() | bits[l & 7]);
            }
        }
        Variant::OnlyLoadMacroConfig => {
            let sequences: Vec<[u32; 4]> = (0..8).map(|_| std::array::from_fn(|_| rng.u32())).collect();
            let miscs = columns(rng, &|rng| rng.u32());
            for l in 0..LANES {
                s.LoadMacroConfig[l].Sequence = sequences[l & 7];
                s.LoadMacroConfig[l].Misc = sfpu_reference::state::Misc::truncating(miscs[l & 7]);
            }
        }
        Variant::OnlyInstructionTemplate => {
            let templates: Vec<[u32; 4]> = (0..8).map(|_| std::array::from_fn(|_| rng.u32())).collect();
            for l in 0..LANES {
                s.LoadMacroConfig[l].InstructionTemplate = templates[l & 7];
            }
        }
        _ => {}
    }
    if op == SFPCONFIG {
        s.LReg[0] = bits_random(rng);
    }
}
