//! Writes vector files as YAML by hand, so the output is stable, compact and commented: bit
//! patterns are plain hexadecimal scalars with their decoded value as a comment
//! (`0xff7fffff  # -3.4028235e38`), as rustc_apfloat writes its test tables. serde_yaml reads the
//! result back; the writer never depends on it.

use std::fmt::Write as _;

use serde_json::Value;

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

fn is_scalar(v: &Value) -> bool {
    match v {
        Value::Array(a) => a.is_empty(),
        Value::Object(o) => o.is_empty(),
        _ => true,
    }
}

/// Writes `v` as YAML. `comment` is asked for a comment after every scalar; sequences of
/// scalars without comments are written on one line.
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
                let parts: Vec<String> = items.iter().map(scalar).collect();
                let _ = writeln!(out, "{lead} [{}]", parts.join(", "));
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

/// The comment for a value in a vector file: the decoded value of every LReg lane.
fn vector_comment(path: &[PathItem], v: &Value) -> Option<String> {
    let in_lreg = path.windows(1).any(|w| w[0] == PathItem::Key("LReg".into()));
    let in_state = path.iter().any(|p| matches!(p, PathItem::Key(k) if k == "pre" || k == "post"));
    match v {
        Value::String(s) if in_lreg && in_state && is_hex(s) => {
            let bits = u32::from_str_radix(&s[2..], 16).ok()?;
            let all = if matches!(path.last(), Some(PathItem::Key(_))) { " (all lanes)" } else { "" };
            Some(format!("{}{all}", describe_u32(bits)))
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
    out.push_str(&write_yaml(&value, &vector_comment));
    out
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
}
