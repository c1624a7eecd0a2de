//! What an implementation declares it models: the [features](super::features) it supports beyond
//! the baseline, and the instructions or (instruction, mode value) pairs it refuses up front. The
//! harness gives a model only the cases its declaration covers, and reports the rest as *not
//! applicable*, by feature and by refusal (`docs/dut-protocol.md`, "Declaring what the DUT
//! models").
//!
//! No declaration means everything (the built-in models, and a DUT whose hello declares nothing).

use std::collections::BTreeSet;
use std::fmt;

use sfpu_reference::isa::{Instr, Opcode};

use super::features::{Feature, FeatureSet};
use crate::generate::{mode_of, mode_table, mode_table_for};
use sfpu_reference::isa::Arch;

/// One refusal: a whole instruction, or one mode value of it.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Refusal {
    /// Every case using the instruction.
    Instruction(Opcode),
    /// Every case using the instruction in this mode value (canonical form, `mod1=3`).
    Mode(Opcode, String),
}

impl Refusal {
    /// Parses `SFPLOADMACRO` or `SFPSTOCHRND/rnd=1,mod1=0`: an instruction of the architecture, and
    /// one of its mode values in canonical form ([`crate::generate::modes`]).
    pub fn parse(text: &str) -> Result<Refusal, String> {
        let (name, mode) = match text.split_once('/') {
            Some((name, mode)) => (name, Some(mode)),
            None => (text, None),
        };
        let op = Opcode::from_name(name)
            .ok_or_else(|| format!("`{name}` is not an instruction of the architecture"))?;
        match mode {
            None => Ok(Refusal::Instruction(op)),
            Some(mode) => {
                // A mode value of the instruction on either chip (a DUT may model one).
                if Arch::ALL.iter().any(|&a| mode_table_for(a, op).iter().any(|(m, _)| m == mode)) {
                    Ok(Refusal::Mode(op, mode.to_string()))
                } else {
                    let some: Vec<&str> = mode_table(op).iter().take(3).map(|(m, _)| m.as_str()).collect();
                    Err(format!(
                        "`{mode}` is not a mode value of {name} (they read like {})",
                        some.join(", ")
                    ))
                }
            }
        }
    }

    /// Whether the refusal covers `instr`.
    pub fn covers(&self, instr: &Instr) -> bool {
        match self {
            Refusal::Instruction(op) => instr.opcode() == *op,
            Refusal::Mode(op, mode) => instr.opcode() == *op && mode_of(instr) == *mode,
        }
    }
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::Instruction(op) => f.write_str(op.name()),
            Refusal::Mode(op, mode) => write!(f, "{}/{mode}", op.name()),
        }
    }
}

/// What a model declares it models.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Declaration {
    /// The features it models beyond the baseline; `None` for every feature.
    pub features: Option<FeatureSet>,
    /// What it refuses up front.
    pub refuses: BTreeSet<Refusal>,
}

pub use harness_core::check::NotApplicable;

impl Declaration {
    /// Everything: no declaration.
    pub fn everything() -> Declaration {
        Declaration::default()
    }

    /// Whether the declaration covers a case requiring `requires` whose program is `program`.
    pub fn check(&self, requires: FeatureSet, program: &[Instr]) -> Result<(), NotApplicable> {
        let missing = match self.features {
            Some(declared) => requires.difference(declared),
            None => FeatureSet::EMPTY,
        };
        let refused: Vec<Refusal> =
            self.refuses.iter().filter(|r| program.iter().any(|i| r.covers(i))).cloned().collect();
        if missing.is_empty() && refused.is_empty() {
            Ok(())
        } else {
            Err(NotApplicable {
                missing: missing.iter().map(|f| f.id().to_string()).collect(),
                refused: refused.iter().map(Refusal::to_string).collect(),
            })
        }
    }

    /// Parses the declaration fields of a hello: `features` (feature ids; absent means every
    /// feature) and `refuses` (refusals). Unknown features and refusals are errors.
    pub fn from_hello(features: Option<&[String]>, refuses: &[String]) -> Result<Declaration, String> {
        let features = match features {
            None => None,
            Some(ids) => {
                let mut set = FeatureSet::EMPTY;
                for id in ids {
                    let f = Feature::from_id(id).ok_or_else(|| {
                        let known: Vec<&str> = Feature::ALL.iter().map(|f| f.id()).collect();
                        format!("`features`: unknown feature `{id}` (known: {})", known.join(", "))
                    })?;
                    set.insert(f);
                }
                Some(set)
            }
        };
        let refuses = refuses
            .iter()
            .map(|r| Refusal::parse(r).map_err(|e| format!("`refuses`: {e}")))
            .collect::<Result<BTreeSet<_>, _>>()?;
        Ok(Declaration { features, refuses })
    }

    /// The declaration in words, for the report: `features: row-mask, prng; refuses: SFPLOADMACRO`.
    pub fn describe(&self) -> String {
        let features = match self.features {
            None => "every feature".to_string(),
            Some(f) if f.is_empty() => "the baseline only".to_string(),
            Some(f) => format!("the baseline and {f}"),
        };
        if self.refuses.is_empty() {
            format!("models {features}")
        } else {
            let r: Vec<String> = self.refuses.iter().map(Refusal::to_string).collect();
            format!("models {features}; refuses {}", r.join(", "))
        }
    }
}

/// The part of `docs/dut-protocol.md` generated from the ISA tables (between its `BEGIN
/// generated` and `END generated` lines): every feature a hello may declare, with an example
/// state that has it and whether a per-lane model has it for free, and every name `refuses`
/// accepts, chip by chip (`...key=A..B` stands for every value of the last field from A to B).
pub fn protocol_reference() -> String {
    let mut out = String::new();
    out.push_str(
        "| Feature | The state has | Example state (over the reset state) | Free for a per-lane model |\n",
    );
    out.push_str("|---|---|---|---|\n");
    for f in Feature::ALL {
        out.push_str(&format!(
            "| `{}` | {} | `{}` | {} |\n",
            f.id(),
            f.summary().replace('|', "\\|"),
            f.example(),
            if f.per_lane() { "yes" } else { "no" }
        ));
    }
    out.push_str("\n| Instruction | Chips | Mode values (`INSTRUCTION/mode`) |\n|---|---|---|\n");
    for &op in Opcode::ALL {
        let per_chip: Vec<(Arch, Vec<String>)> = Arch::ALL
            .iter()
            .filter(|a| a.has(op))
            .map(|&a| (a, mode_table_for(a, op).iter().map(|(m, _)| m.clone()).collect()))
            .collect();
        let mut rows: Vec<(Vec<Arch>, &Vec<String>)> = Vec::new();
        for (arch, modes) in &per_chip {
            match rows.iter_mut().find(|(_, m)| *m == modes) {
                Some((chips, _)) => chips.push(*arch),
                None => rows.push((vec![*arch], modes)),
            }
        }
        for (chips, modes) in rows {
            let chips: Vec<String> = chips.iter().map(|a| a.to_string()).collect();
            out.push_str(&format!("| `{}` | {} | {} |\n", op.name(), chips.join(", "), compress(modes)));
        }
    }
    out
}

/// Mode values in order, runs of three or more that differ only in their last field's value,
/// counting up by one, written `...key=A..B` (`vd=0,mod1=0..15`).
fn compress(modes: &[String]) -> String {
    let numbered = |m: &str| -> Option<(String, u64)> {
        let (key, n) = m.rsplit_once('=')?;
        Some((key.to_string(), n.parse().ok()?))
    };
    let mut parts: Vec<String> = Vec::new();
    let mut i = 0;
    while i < modes.len() {
        let mut j = i + 1;
        if let Some((key, start)) = numbered(&modes[i]) {
            while j < modes.len() && numbered(&modes[j]) == Some((key.clone(), start + (j - i) as u64)) {
                j += 1;
            }
            if j - i >= 3 {
                parts.push(format!("`{key}={start}..{}`", start + (j - i - 1) as u64));
                i = j;
                continue;
            }
            j = i + 1;
        }
        parts.push(format!("`{}`", modes[i]));
        i = j;
    }
    if parts.is_empty() { "(no mode field)".to_string() } else { parts.join(", ") }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn i(s: &str) -> Instr {
        sfpu_reference::isa::parse_instr(Arch::Blackhole, s).unwrap()
    }

    #[test]
    fn refusals_parse_and_cover() {
        assert_eq!(Refusal::parse("SFPLOADMACRO"), Ok(Refusal::Instruction(Opcode::SFPLOADMACRO)));
        let r = Refusal::parse("SFPMAD/mod1=2").unwrap();
        assert!(r.covers(&i("TTI_SFPMAD(0, 1, 2, 3, 2)")));
        assert!(!r.covers(&i("TTI_SFPMAD(0, 1, 2, 3, 3)")));
        assert!(Refusal::parse("SFPMAD/mod1=16").unwrap_err().contains("not a mode value"));
        assert!(Refusal::parse("SFPBOGUS").is_err());
        let r = Refusal::parse("SFPSTOCHRND/rnd=1,mod1=0").unwrap();
        assert_eq!(r.to_string(), "SFPSTOCHRND/rnd=1,mod1=0");
    }

    #[test]
    fn the_declaration_decides_applicability() {
        let d = Declaration::from_hello(Some(&["row-mask".to_string()]), &["SFPMUL24".to_string()]).unwrap();
        let mad = [i("TTI_SFPMAD(0, 1, 2, 3, 0)")];
        let req = |fs: &[Feature]| fs.iter().copied().collect::<FeatureSet>();
        assert_eq!(d.check(req(&[Feature::RowMask]), &mad), Ok(()));
        let e = d.check(req(&[Feature::RowMask, Feature::Prng]), &mad).unwrap_err();
        assert_eq!(e.missing, ["prng"]);
        assert_eq!(e.to_string(), "requires prng (not declared)");
        let e = d.check(FeatureSet::EMPTY, &[i("TTI_SFPMUL24(0, 1, 2, 3, 0)")]).unwrap_err();
        assert_eq!(e.to_string(), "refused up front: SFPMUL24");
        assert_eq!(Declaration::everything().check(FeatureSet::all(), &mad), Ok(()));
        assert!(
            Declaration::from_hello(Some(&["rowmask".to_string()]), &[])
                .unwrap_err()
                .contains("unknown feature")
        );
        assert_eq!(d.describe(), "models the baseline and row-mask; refuses SFPMUL24");
    }
}
