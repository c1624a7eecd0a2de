//! Writes vector files as YAML by hand, so the output is stable, compact and commented: bit
//! patterns are plain hexadecimal scalars with their decoded value as a comment
//! (`0xff7fffff  # -3.4028235e38`), as rustc_apfloat writes its test tables. serde_yaml reads the
//! result back; the writer never depends on it. Also writes the JSON form of a file
//! ([`write_json`]).
//!
//! Comments: every LReg lane's FP32 value (and small integers); instruction templates as their
//! `TTI_` text; `Sequence` and `Misc` words field by field (`SFPLOADMACRO.md`); Dst rows as FP16 or
//! BF16 values when the program accesses Dst in that format; and in `post`, how many times each
//! lane's PRNG advanced from `pre` (`VectorUnit.md` "PRNG").

use std::fmt::Write as _;

use serde_json::Value;
use sfpu_reference::isa::{Arch, DecodeError, Opcode, decode, decode_ignoring_undrawn};
use sfpu_reference::state::{DstDecodeBF16, DstDecodeFP16, LANES, ResetValues, State};

use super::format::VectorFile;

/// One step of a path into the document, for the comment callback.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PathItem {
    /// A map key.
    Key(String),
    /// A sequence index.
    Index(usize),
}

/// The decoded value of a 32-bit pattern, for comments: the FP32 value, plus the two's complement
/// integer when the pattern is a small integer.
pub fn describe_u32(bits: u32) -> String {
    let f = f32::from_bits(bits);
    let fp = if f.is_nan() {
        format!("{}nan(0x{:x})", if bits >> 31 != 0 { "-" } else { "+" }, bits & 0x7F_FFFF)
    } else if f.is_infinite() {
        (if f < 0.0 { "-inf" } else { "+inf" }).to_string()
    } else {
        format!("{f:?}")
    };
    let i = bits as i32;
    if i.unsigned_abs() <= 0x1_0000 && bits != 0 && bits != 0x8000_0000 {
        format!("{fp} | i32 {i}")
    } else {
        fp
    }
}

fn is_hex(s: &str) -> bool {
    s.len() > 2 && s.starts_with("0x") && s[2..].bytes().all(|b| b.is_ascii_hexdigit())
}

/// Whether `s` can be written as a plain YAML scalar and read back as the same string.
fn is_plain(s: &str) -> bool {
    !s.is_empty()
        && !s.starts_with(|c: char| " -?:,[]{}#&*!|>'\"%@`".contains(c) || c.is_ascii_digit())
        && !s.ends_with([' ', ':'])
        && !s.contains(": ")
        && !s.contains(" #")
        && s.chars().all(|c| c.is_ascii_graphic() || c == ' ' || c == '§')
        && !matches!(s, "true" | "false" | "null" | "yes" | "no" | "on" | "off" | "~" | "Null" | "NULL")
}

fn scalar(v: &Value) -> String {
    match v {
        Value::Null => "null".into(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        Value::String(s) if is_hex(s) || is_plain(s) => s.clone(),
        Value::String(s) => serde_json::to_string(s).unwrap_or_default(),
        Value::Array(a) if a.is_empty() => "[]".into(),
        Value::Object(o) if o.is_empty() => "{}".into(),
        _ => String::new(),
    }
}

/// [`scalar`] as an item of a flow sequence (`[a, b]`), where a plain scalar cannot hold the
/// flow indicators `,[]{}` (YAML 1.2 §7.3.3): such a string is quoted.
fn flow_scalar(v: &Value) -> String {
    match v {
        Value::String(s) if s.contains([',', '[', ']', '{', '}']) => {
            serde_json::to_string(s).unwrap_or_default()
        }
        _ => scalar(v),
    }
}

fn is_scalar(v: &Value) -> bool {
    match v {
        Value::Array(a) => a.is_empty(),
        Value::Object(o) => o.is_empty(),
        _ => true,
    }
}

/// Writes `v` as YAML. `comment` is asked for a comment after every scalar; sequences of
/// scalars without comments are written on one line, and `comment` is then asked for a comment
/// on the whole sequence.
pub fn write_yaml(v: &Value, comment: &dyn Fn(&[PathItem], &Value) -> Option<String>) -> String {
    let mut out = String::new();
    let mut path = Vec::new();
    match v {
        Value::Object(_) => write_map(&mut out, v, 0, &mut path, comment),
        _ => {
            let _ = writeln!(out, "{}", scalar(v));
        }
    }
    out
}

fn with_comment(text: String, c: Option<String>) -> String {
    match c {
        Some(c) => format!("{text}  # {c}"),
        None => text,
    }
}

fn write_map(
    out: &mut String,
    v: &Value,
    indent: usize,
    path: &mut Vec<PathItem>,
    comment: &dyn Fn(&[PathItem], &Value) -> Option<String>,
) {
    let Value::Object(map) = v else { return };
    let pad = " ".repeat(indent);
    for (k, val) in map {
        let key = if is_plain(k) || k.bytes().all(|b| b.is_ascii_digit()) {
            k.clone()
        } else {
            scalar(&Value::String(k.clone()))
        };
        path.push(PathItem::Key(k.clone()));
        write_entry(out, &format!("{pad}{key}:"), val, indent, path, comment);
        path.pop();
    }
}

/// Writes `val` after `lead` (`key:` or `-`), either on the same line or as a nested block.
fn write_entry(
    out: &mut String,
    lead: &str,
    val: &Value,
    indent: usize,
    path: &mut Vec<PathItem>,
    comment: &dyn Fn(&[PathItem], &Value) -> Option<String>,
) {
    if is_scalar(val) {
        let _ = writeln!(out, "{}", with_comment(format!("{lead} {}", scalar(val)), comment(path, val)));
        return;
    }
    match val {
        Value::Array(items) => {
            let flat = items.iter().all(is_scalar)
                && items.iter().enumerate().all(|(i, it)| {
                    path.push(PathItem::Index(i));
                    let c = comment(path, it);
                    path.pop();
                    c.is_none()
                });
            if flat {
                let parts: Vec<String> = items.iter().map(flow_scalar).collect();
                let line = format!("{lead} [{}]", parts.join(", "));
                let _ = writeln!(out, "{}", with_comment(line, comment(path, val)));
                return;
            }
            let _ = writeln!(out, "{lead}");
            let pad = " ".repeat(indent);
            for (i, it) in items.iter().enumerate() {
                path.push(PathItem::Index(i));
                if let Value::Object(m) = it
                    && !m.is_empty()
                {
                    // `- key: value` then the remaining keys aligned under the first.
                    let mut first = true;
                    for (k, v) in m {
                        path.push(PathItem::Key(k.clone()));
                        let lead = if first { format!("{pad}- {k}:") } else { format!("{pad}  {k}:") };
                        write_entry(out, &lead, v, indent + 2, path, comment);
                        path.pop();
                        first = false;
                    }
                } else {
                    write_entry(out, &format!("{pad}-"), it, indent, path, comment);
                }
                path.pop();
            }
        }
        Value::Object(_) => {
            let _ = writeln!(out, "{lead}");
            write_map(out, val, indent + 2, path, comment);
        }
        _ => {}
    }
}

/// The text of an instruction word for comments: its `TTI_` form, with undrawn bits or a
/// non-SFPU opcode said as such.
pub fn describe_word(word: u32) -> String {
    match decode(Arch::Blackhole, word) {
        Ok(instr) => instr.display(Arch::Blackhole).to_string(),
        Err(DecodeError::UndrawnBits { bits, .. }) => match decode_ignoring_undrawn(Arch::Blackhole, word) {
            Ok((instr, _)) => format!("{} + undrawn bits 0x{bits:08x}", instr.display(Arch::Blackhole)),
            Err(_) => "not an instruction".to_string(),
        },
        Err(DecodeError::NotSfpu { opcode, .. }) => format!("opcode 0x{opcode:02x}: not an SFPU instruction"),
    }
}

/// A `LoadMacroConfig.Sequence` word, byte by byte (`SFPLOADMACRO.md`): sub-unit, then selector
/// (`-` nothing, `UB` selector 1, `NOP`, `STORE`, `T0`..`T3` the templates), delay, `L16` (result
/// to `LReg[16]`) and `VB` (the loaded register goes to VB; for the store, keep the template's VD).
pub fn describe_sequence(word: u32) -> String {
    let units = ["simple", "mad", "round", "store"];
    let parts: Vec<String> = (0..4)
        .map(|i| {
            let b = (word >> (8 * i)) & 0xFF;
            let sel = match b & 7 {
                0 => "-".to_string(),
                1 => "UB".to_string(),
                2 => "NOP".to_string(),
                3 => "STORE".to_string(),
                t => format!("T{}", t - 4),
            };
            let mut p = format!("{} {sel} d{}", units[i], (b >> 3) & 7);
            if b & 0x40 != 0 {
                p.push_str(" L16");
            }
            if b & 0x80 != 0 {
                p.push_str(if i == 3 { " keepVD" } else { " VB" });
            }
            p
        })
        .collect();
    parts.join(", ")
}

/// A `LoadMacroConfig.Misc` value, field by field (`SFPLOADMACRO.md`).
pub fn describe_misc(misc: u32) -> String {
    format!(
        "StoreMod0 {}, UsesLoadMod0ForStore 0b{:04b}, UnitDelayKind 0b{:04b}",
        misc & 15,
        (misc >> 4) & 15,
        (misc >> 8) & 15
    )
}

/// The 16-bit Dst formats a comment can decode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum DstFormat {
    Fp16,
    Bf16,
}

/// The format of the program's Dst accesses, when every SFPLOAD, SFPSTORE and SFPLOADMACRO of it
/// uses `MOD0_FMT_FP16` (1) or every one `MOD0_FMT_BF16` (2).
fn dst_format(program: &[Value]) -> Option<DstFormat> {
    let mut format = None;
    for w in program {
        let word =
            w.get("word").and_then(Value::as_str).and_then(|t| u32::from_str_radix(t.get(2..)?, 16).ok())?;
        let Ok(instr) = decode(Arch::Blackhole, word) else { continue };
        if !matches!(instr.opcode(), Opcode::SFPLOAD | Opcode::SFPSTORE | Opcode::SFPLOADMACRO) {
            continue;
        }
        let mod0 = instr.field_values().iter().find(|(n, _)| *n == "Mod0").map_or(0, |&(_, v)| v);
        let this = match mod0 {
            1 => DstFormat::Fp16,
            2 => DstFormat::Bf16,
            _ => return None,
        };
        if format.is_some_and(|f| f != this) {
            return None;
        }
        format = Some(this);
    }
    format
}

/// The values of a Dst row's 16-bit cells in `format` (Dst's own bit layouts, `Dst.md`).
fn describe_dst_row(cells: &[Value], format: DstFormat) -> Option<String> {
    let values: Option<Vec<String>> = cells
        .iter()
        .map(|c| {
            let bits = hex_of(c)?;
            let v = match format {
                DstFormat::Fp16 => half::f16::from_bits(DstDecodeFP16(bits) as u16).to_f32(),
                DstFormat::Bf16 => f32::from_bits(DstDecodeBF16(bits) << 16),
            };
            Some(short_float(v))
        })
        .collect();
    let name = match format {
        DstFormat::Fp16 => "fp16",
        DstFormat::Bf16 => "bf16",
    };
    Some(format!("{name}: {}", values?.join(" ")))
}

fn short_float(v: f32) -> String {
    if v.is_nan() {
        "nan".to_string()
    } else if v.is_infinite() {
        (if v < 0.0 { "-inf" } else { "inf" }).to_string()
    } else {
        format!("{v:?}")
    }
}

fn hex_of(v: &Value) -> Option<u32> {
    let t = v.as_str()?;
    u32::from_str_radix(t.strip_prefix("0x")?, 16).ok()
}

/// The per-lane values of a per-lane part (one value or 32).
fn per_lane(v: &Value) -> Option<[u32; LANES]> {
    match v {
        Value::Array(items) if items.len() == LANES => {
            let mut out = [0; LANES];
            for (o, it) in out.iter_mut().zip(items) {
                *o = hex_of(it)?;
            }
            Some(out)
        }
        _ => hex_of(v).map(|x| [x; LANES]),
    }
}

/// How many times each lane's PRNG advanced from `pre` to `post` (at most 16; `?` when not
/// reachable), as one digit per lane, lane 0 first, or one number when every lane agrees.
fn describe_prng_advance(pre: &[u32; LANES], post: &[u32; LANES]) -> String {
    let mut s = State::reset(Arch::Blackhole, &ResetValues::ZEROS);
    s.PRNG = *pre;
    let mut steps: [Option<u32>; LANES] = [None; LANES];
    for n in 0..=16u32 {
        for l in 0..LANES {
            if steps[l].is_none() && s.PRNG[l] == post[l] {
                steps[l] = Some(n);
            }
        }
        for l in 0..LANES {
            s.AdvancePRNG(l);
        }
    }
    if steps.iter().all(|&n| n.is_some() && n == steps[0]) {
        let n = steps[0].unwrap_or(0);
        return format!("every lane's PRNG advanced {n} time{} from pre", if n == 1 { "" } else { "s" });
    }
    let digits: String = steps
        .iter()
        .map(|n| match n {
            Some(n) if *n < 10 => char::from(b'0' + *n as u8),
            Some(_) => '+',
            None => '?',
        })
        .collect();
    format!("PRNG advances from pre per lane (lane 0 first): {digits}")
}

/// Whether `word`'s opcode is an SFPU instruction (undrawn bits or not).
fn is_sfpu_word(word: u32) -> bool {
    decode_ignoring_undrawn(Arch::Blackhole, word).is_ok()
}

/// The value at `path` in `v`.
fn lookup<'a>(v: &'a Value, path: &[PathItem]) -> Option<&'a Value> {
    path.iter().try_fold(v, |v, p| match p {
        PathItem::Key(k) => v.get(k.as_str()),
        PathItem::Index(i) => v.get(*i),
    })
}

/// The comment for a value in a vector file (see the module documentation).
fn vector_comment(file: &Value, path: &[PathItem], v: &Value) -> Option<String> {
    let key = |i: usize| match path.get(i) {
        Some(PathItem::Key(k)) => Some(k.as_str()),
        _ => None,
    };
    // vectors / <i> / pre|post / <part> / ...
    let (Some("vectors"), Some(PathItem::Index(index)), Some(side @ ("pre" | "post"))) =
        (key(0), path.get(1), key(2))
    else {
        return None;
    };
    let vector = file.get("vectors")?.get(*index)?;
    let last_is_key = matches!(path.last(), Some(PathItem::Key(_)));
    let all = if last_is_key { " (all lanes)" } else { "" };
    match (key(3), v) {
        (Some("LReg"), Value::String(_)) => {
            let bits = hex_of(v)?;
            Some(format!("{}{all}", describe_u32(bits)))
        }
        (Some("LoadMacroConfig"), Value::String(_)) => {
            let bits = hex_of(v)?;
            match key(4) {
                // A per-lane list of templates is described lane by lane only when every lane
                // holds an SFPU instruction (random configuration bits are not worth a line each).
                Some("InstructionTemplate") if !last_is_key => {
                    let list = lookup(file, &path[..path.len() - 1])?.as_array()?;
                    let words: Option<Vec<u32>> = list.iter().map(hex_of).collect();
                    words?.iter().all(|&w| is_sfpu_word(w)).then(|| describe_word(bits))
                }
                Some("InstructionTemplate") => Some(format!("{}{all}", describe_word(bits))),
                // Sequence and Misc words are described when one value holds for every lane.
                Some("Sequence") if last_is_key => Some(format!("{}{all}", describe_sequence(bits))),
                Some("Misc") if last_is_key => Some(format!("{}{all}", describe_misc(bits))),
                _ => None,
            }
        }
        (Some("PRNG"), _) if side == "post" && path.len() == 4 => {
            let post = per_lane(v)?;
            let pre = vector.get("pre").and_then(|p| p.get("PRNG")).map_or(Some([0; LANES]), per_lane)?;
            Some(describe_prng_advance(&pre, &post))
        }
        (Some("Dst"), Value::Array(cells)) if key(4) == Some("rows") && path.len() == 6 => {
            let format = dst_format(vector.get("program")?.as_array()?)?;
            describe_dst_row(cells, format)
        }
        _ => None,
    }
}

/// Writes a whole vector file, `header` first (each line prefixed with `# `).
pub fn write_file(file: &VectorFile, header: &[String]) -> String {
    let mut out = String::new();
    for line in header {
        let _ = writeln!(out, "# {line}");
    }
    let value = serde_json::to_value(file).unwrap_or(Value::Null);
    out.push_str(&write_yaml(&value, &|path, v| vector_comment(&value, path, v)));
    out
}

/// Writes a vector file in its JSON form: the same document, with every bit pattern a string
/// (`"0x3f800000"`) and every map key a string (`"0"`), as `vectors/README.md` describes.
pub fn write_json(file: &VectorFile) -> String {
    let mut text = serde_json::to_string_pretty(file).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"));
    text.push('\n');
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn descriptions() {
        assert_eq!(describe_u32(0x3F80_0000), "1.0");
        assert_eq!(describe_u32(0xFF7F_FFFF), "-3.4028235e38");
        assert_eq!(describe_u32(0x8000_0000), "-0.0");
        assert_eq!(describe_u32(0x7FC0_0000), "+nan(0x400000)");
        assert_eq!(describe_u32(0xFF80_0000), "-inf");
        assert_eq!(describe_u32(5), "7e-45 | i32 5");
        assert_eq!(describe_u32(0x0080_0000), "1.1754944e-38");
        assert_eq!(describe_u32(0xFFFF_FFFF), "-nan(0x7fffff) | i32 -1");
    }

    #[test]
    fn loadmacro_words_and_prng_are_described() {
        // SFPABS: VC = 0, VD = 1, Mod1 = 1 (tt-llk's first argument is the unused Imm12).
        assert_eq!(describe_word(0x7D00_0011), "TTI_SFPABS(0, 0, 1, 1)");
        assert_eq!(describe_word(0xED1B_6F6D), "opcode 0xed: not an SFPU instruction");
        assert!(describe_word(0x8F00_0080).contains("undrawn bits 0x00000080"));
        // Simple: template 0, delay 0; store: STORE, delay 3 (the sequences.yaml example).
        assert_eq!(describe_sequence(0x1B00_0004), "simple T0 d0, mad - d0, round - d0, store STORE d3");
        assert_eq!(describe_misc(0x123), "StoreMod0 3, UsesLoadMod0ForStore 0b0010, UnitDelayKind 0b0001");
        // AdvancePRNG (`VectorUnit.md` "PRNG") from 0: parity 0, so bit 31 comes in set.
        let pre = [0u32; LANES];
        let mut post = [0x8000_0000u32; LANES];
        assert_eq!(describe_prng_advance(&pre, &post), "every lane's PRNG advanced 1 time from pre");
        post[1] = 0;
        assert!(describe_prng_advance(&pre, &post).ends_with(": 10111111111111111111111111111111"));
    }

    #[test]
    fn yaml_round_trips_through_serde_yaml() {
        let v: Value = serde_json::json!({
            "a": "0x3f800000", "b": ["0x1", "0x2"], "c": {"d": [{"e": 1, "f": "text: with colon"}, 2]},
            "g": [], "h": {}, "i": "§6.1 item 2", "j": "07", "k": true, "l": "-x"
        });
        let text = write_yaml(&v, &|_, _| None);
        let back: Value = serde_yaml::from_str(&text).unwrap();
        // Hex strings come back as numbers (that is the point of writing them plain).
        let fixed = text.replace("0x3f800000", "1065353216");
        assert!(fixed.contains("1065353216"));
        assert_eq!(back["c"], v["c"], "{text}");
        assert_eq!(back["i"], v["i"], "{text}");
        assert_eq!(back["j"], v["j"], "{text}");
        assert_eq!(back["l"], v["l"], "{text}");
        assert_eq!(back["a"], serde_json::json!(0x3F80_0000u32), "{text}");
    }

    /// Strings with flow indicators in a one-line sequence are quoted (found by the
    /// `vectors_load` fuzz target: a tag `vd=0, mod1=0]` was written as `[vd=0, mod1=0]]`),
    /// and every string reads back as itself, in a sequence and as a map value.
    #[test]
    fn flow_sequences_quote_flow_indicators() {
        let strings = [
            "vd=0, mod1=0]",
            "a,b",
            "[x",
            "x]",
            "{y",
            "y}",
            "a{b}c",
            "plain",
            "mod1=0",
            "§6.1 item 2",
            "-x",
            "a: b",
            "a #b",
            "07",
            "true",
            "",
        ];
        let v = serde_json::json!({ "tags": strings, "one": strings[0], "two": strings[2] });
        let text = write_yaml(&v, &|_, _| None);
        assert!(text.contains("tags: [\"vd=0, mod1=0]\", \"a,b\", \"[x\""), "{text}");
        #[derive(serde::Deserialize)]
        struct Back {
            tags: Vec<String>,
            one: String,
            two: String,
        }
        let back: Back = serde_yaml::from_str(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(back.tags, strings, "{text}");
        assert_eq!((back.one.as_str(), back.two.as_str()), (strings[0], strings[2]), "{text}");
    }
}
