//! The mode values of each opcode that the corpus covers: which field selects the mode
//! ([`mode_field_for`]), the documentation's names for its values ([`mode_name`], from the
//! "Supporting definitions"), the table of every value per chip ([`mode_table_for`]), the mode of
//! an instruction ([`mode_of_for`]) and the few modes that get the ragged-lane variants
//! ([`spread_modes_for`]).

use sfpu_reference::isa::mods::DEFINITIONS;
use sfpu_reference::isa::{Arch, Instr, Opcode};

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
