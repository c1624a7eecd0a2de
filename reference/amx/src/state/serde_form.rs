//! The state document: the lossless YAML / JSON form of [`State`] that golden vectors and
//! external implementations exchange.
//!
//! The document maps a register index to its 64 bytes, for each of the pools `X` (0..=7), `Y`
//! (0..=7) and `Z` (0..=63). A register that is not listed is all zero, and so is a pool that is
//! not given. The bytes are hexadecimal **in memory order, byte 0 first**: exactly 128 hex digits,
//! written as 16 groups of 4 bytes separated by spaces; readers ignore spaces and `_`. Because
//! lanes are little-endian, the f32 lane 1.0 (`0x3f800000`) reads `0000803f`, and the f16 lanes
//! 1.0, 2.0 read `003c0040`. Memory order was chosen over words so that one form serves every
//! lane width without a byte-order convention of its own.
//!
//! ```yaml
//! X:
//!   0: "0000803f 00000040 ... (16 groups)"
//! Z:
//!   12: "00000000 ..."
//! ```
//!
//! Unknown keys, indices out of range, a wrong number of digits and non-hex characters are
//! errors naming the place (`Z.12: ...`); YAML and JSON syntax errors carry the line and column.

#![allow(non_snake_case, reason = "pool names follow the specification notes")]

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::{REG_BYTES, Reg, State, XY_REGS, Z_ROWS};

/// The state document (see the module docs for the format).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StateDoc {
    /// X register index → its bytes in memory order, as hex.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty", deserialize_with = "unique_keys")]
    pub X: BTreeMap<Index, String>,
    /// Y register index → its bytes in memory order, as hex.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty", deserialize_with = "unique_keys")]
    pub Y: BTreeMap<Index, String>,
    /// Z row index → its bytes in memory order, as hex.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty", deserialize_with = "unique_keys")]
    pub Z: BTreeMap<Index, String>,
}

/// A register index as a map key: written as an integer, read from an integer or a decimal
/// string (JSON object keys are strings).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(transparent)]
pub struct Index(pub u64);

impl<'de> Deserialize<'de> for Index {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Index, D::Error> {
        struct V;
        impl serde::de::Visitor<'_> for V {
            type Value = Index;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a register index (an unsigned integer)")
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<Index, E> {
                Ok(Index(v))
            }
            fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<Index, E> {
                u64::try_from(v).map(Index).map_err(|_| E::custom(format!("register index {v} is negative")))
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Index, E> {
                v.trim().parse().map(Index).map_err(|_| E::custom(format!("`{v}` is not a register index")))
            }
        }
        d.deserialize_any(V)
    }
}

/// Reads a pool's map, refusing a register listed twice (serde's `BTreeMap` would keep the last).
fn unique_keys<'de, D: serde::Deserializer<'de>>(d: D) -> Result<BTreeMap<Index, String>, D::Error> {
    struct V;
    impl<'de> serde::de::Visitor<'de> for V {
        type Value = BTreeMap<Index, String>;
        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("a map from register index to 128 hex digits")
        }
        fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
            let mut out = BTreeMap::new();
            while let Some((k, v)) = map.next_entry::<Index, String>()? {
                if out.insert(k, v).is_some() {
                    return Err(serde::de::Error::custom(format!("register {} is listed twice", k.0)));
                }
            }
            Ok(out)
        }
    }
    d.deserialize_map(V)
}

/// A document that is well-formed but does not describe a state; the message names the place.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{path}: {message}")]
pub struct StateError {
    /// Where: `X.3`, `Z.12`.
    pub path: String,
    /// What is wrong there.
    pub message: String,
}

/// Why a state document could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StateReadError {
    /// Not well-formed YAML / JSON for the format; the message has the line and column.
    #[error("{0}")]
    Syntax(String),
    /// Well-formed, but not a state.
    #[error(transparent)]
    Invalid(#[from] StateError),
}

/// A register as the document writes it.
pub fn reg_to_hex(reg: &Reg) -> String {
    let groups: Vec<String> =
        reg.chunks(4).map(|g| g.iter().map(|b| format!("{b:02x}")).collect::<String>()).collect();
    groups.join(" ")
}

/// A register from the document's text; `path` names it in the error.
pub fn reg_from_hex(text: &str, path: &str) -> Result<Reg, StateError> {
    let err = |message: String| StateError { path: path.to_string(), message };
    let digits: Vec<char> = text.chars().filter(|c| !c.is_whitespace() && *c != '_').collect();
    if let Some(bad) = digits.iter().find(|c| !c.is_ascii_hexdigit()) {
        return Err(err(format!("`{bad}` is not a hex digit (a register is 128 hex digits, byte 0 first)")));
    }
    if digits.len() != 2 * REG_BYTES {
        return Err(err(format!(
            "a register is {REG_BYTES} bytes = {} hex digits, found {} digits",
            2 * REG_BYTES,
            digits.len()
        )));
    }
    let mut reg = [0u8; REG_BYTES];
    for (k, pair) in digits.chunks(2).enumerate() {
        let hi = pair[0].to_digit(16).unwrap_or(0);
        let lo = pair[1].to_digit(16).unwrap_or(0);
        reg[k] = (hi * 16 + lo) as u8;
    }
    Ok(reg)
}

fn pool_doc(regs: &[Reg], include: impl Fn(usize) -> bool) -> BTreeMap<Index, String> {
    regs.iter()
        .enumerate()
        .filter(|(i, _)| include(*i))
        .map(|(i, r)| (Index(i as u64), reg_to_hex(r)))
        .collect()
}

fn apply_pool(doc: &BTreeMap<Index, String>, regs: &mut [Reg], name: &str) -> Result<(), StateError> {
    for (&Index(i), text) in doc {
        let path = format!("{name}.{i}");
        let count = regs.len();
        let slot = usize::try_from(i).ok().and_then(|i| regs.get_mut(i)).ok_or_else(|| StateError {
            path: path.clone(),
            message: format!("{name} has {count} registers (0..={})", count - 1),
        })?;
        *slot = reg_from_hex(text, &path)?;
    }
    Ok(())
}

impl StateDoc {
    /// The sparse document of `s`: every register that is not all zero.
    pub fn from_state(s: &State) -> StateDoc {
        StateDoc {
            X: pool_doc(&s.X, |i| s.X[i] != [0; REG_BYTES]),
            Y: pool_doc(&s.Y, |i| s.Y[i] != [0; REG_BYTES]),
            Z: pool_doc(&s.Z, |i| s.Z[i] != [0; REG_BYTES]),
        }
    }

    /// The registers that differ between `before` and `after`, with their `after` contents
    /// (what a golden vector lists as "expected").
    pub fn changes(before: &State, after: &State) -> StateDoc {
        StateDoc {
            X: pool_doc(&after.X, |i| before.X[i] != after.X[i]),
            Y: pool_doc(&after.Y, |i| before.Y[i] != after.Y[i]),
            Z: pool_doc(&after.Z, |i| before.Z[i] != after.Z[i]),
        }
    }

    /// Overwrites the listed registers of `s` (the others are kept).
    pub fn apply_to(&self, s: &mut State) -> Result<(), StateError> {
        apply_pool(&self.X, &mut s.X, "X")?;
        apply_pool(&self.Y, &mut s.Y, "Y")?;
        apply_pool(&self.Z, &mut s.Z, "Z")?;
        Ok(())
    }

    /// The state the document describes: zero except for the listed registers.
    pub fn to_state(&self) -> Result<State, StateError> {
        let mut s = State::zeroed();
        self.apply_to(&mut s)?;
        Ok(s)
    }
}

// The pool sizes the format documents.
const _: () = assert!(XY_REGS == 8 && Z_ROWS == 64);

impl State {
    /// Reads a state document in YAML (which includes JSON).
    pub fn from_yaml(text: &str) -> Result<State, StateReadError> {
        if text.trim().is_empty() {
            return Ok(State::zeroed());
        }
        let doc: StateDoc = serde_yaml::from_str(text).map_err(|e| StateReadError::Syntax(e.to_string()))?;
        Ok(doc.to_state()?)
    }

    /// Reads a state document in JSON.
    pub fn from_json(text: &str) -> Result<State, StateReadError> {
        let doc: StateDoc = serde_json::from_str(text).map_err(|e| StateReadError::Syntax(e.to_string()))?;
        Ok(doc.to_state()?)
    }

    /// The sparse YAML document (`{}` for the zero state).
    pub fn to_yaml(&self) -> String {
        let doc = StateDoc::from_state(self);
        if doc == StateDoc::default() {
            return "{}\n".to_string();
        }
        serde_yaml::to_string(&doc).unwrap_or_else(|e| format!("# serialisation failed: {e}\n"))
    }

    /// The sparse JSON document.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(&StateDoc::from_state(self))
            .unwrap_or_else(|e| format!("{{\"error\": \"serialisation failed: {e}\"}}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rich_state() -> State {
        let mut s = State::zeroed();
        s.X[0][0..4].copy_from_slice(&[0x00, 0x00, 0x80, 0x3f]);
        s.X[7] = std::array::from_fn(|i| i as u8);
        s.Y[3] = [0xff; 64];
        s.Z[63][63] = 0xa5;
        s.Z[12] = std::array::from_fn(|i| (i * 37) as u8);
        s
    }

    #[test]
    fn round_trips_exactly() {
        let s = rich_state();
        assert_eq!(State::from_yaml(&s.to_yaml()).unwrap(), s, "{}", s.to_yaml());
        assert_eq!(State::from_json(&s.to_json()).unwrap(), s, "{}", s.to_json());
        assert_eq!(State::from_yaml(&s.to_json()).unwrap(), s);
        let zero = State::zeroed();
        assert_eq!(zero.to_yaml(), "{}\n");
        assert_eq!(State::from_yaml(&zero.to_yaml()).unwrap(), zero);
        assert_eq!(State::from_json(&zero.to_json()).unwrap(), zero);
        assert_eq!(State::from_yaml("").unwrap(), zero);
    }

    #[test]
    fn the_written_form() {
        let s = rich_state();
        let yaml = s.to_yaml();
        // X[0] lane 0 as f32 is 1.0: bytes 00 00 80 3f in memory order.
        assert!(yaml.contains("0: 0000803f 00000000 "), "{yaml}");
        assert!(yaml.contains("7: 00010203 04050607 08090a0b"), "{yaml}");
        assert!(!yaml.contains("\n  1:"), "zero registers are not listed: {yaml}");
        let hand = "Z:\n  5: \"0000803f_00000000 00000000 00000000 00000000 00000000 00000000 00000000\n      00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000\"\n";
        let t = State::from_yaml(hand).unwrap();
        assert_eq!(super::super::lane(&t.Z[5], 4, 0), 0x3f80_0000);
    }

    #[test]
    fn changes_apply_back() {
        let before = rich_state();
        let mut after = before.clone();
        after.Z[12] = [0; 64]; // back to zero: still listed as a change
        after.Z[0][1] = 1;
        let doc = StateDoc::changes(&before, &after);
        assert_eq!(doc.Z.keys().map(|k| k.0).collect::<Vec<_>>(), vec![0, 12]);
        assert!(doc.X.is_empty() && doc.Y.is_empty());
        let mut s = before.clone();
        doc.apply_to(&mut s).unwrap();
        assert_eq!(s, after);
    }

    #[test]
    fn bad_documents_name_the_place() {
        let good = "00".repeat(64);
        let cases = [
            (format!("X:\n  8: {good}"), "X.8: X has 8 registers (0..=7)"),
            (format!("Z:\n  64: {good}"), "Z.64: Z has 64 registers (0..=63)"),
            ("Y:\n  2: 0011".to_string(), "Y.2: a register is 64 bytes = 128 hex digits, found 4"),
            (format!("Z:\n  3: {}zz", "00".repeat(63)), "Z.3: `z` is not a hex digit"),
            ("W: {}".to_string(), "unknown field `W`"),
            ("X: [1, 2]".to_string(), "invalid type"),
            (format!("X:\n  1: {good}\n  1: {good}"), "register 1 is listed twice"),
            ("X: {".to_string(), "line"),
        ];
        for (text, want) in cases {
            let err = State::from_yaml(&text).expect_err(&text).to_string();
            assert!(err.contains(want), "{text:?}: {err}");
        }
        let json_cases = [
            (format!("{{\"X\": {{\"9\": \"{good}\"}}}}"), "X.9: X has 8 registers"),
            ("{\"X\": {\"0\": 12}}".to_string(), "line 1 column"),
            ("{\"Q\": {}}".to_string(), "unknown field `Q`"),
            ("{".to_string(), "EOF"),
        ];
        for (text, want) in json_cases {
            let err = State::from_json(&text).expect_err(&text).to_string();
            assert!(err.contains(want), "{text:?}: {err}");
        }
    }
}
