//! The chips: [`Arch`], the Tensix architectures whose Vector Unit the crate models, with their
//! names. Which opcodes each chip has ([`Arch::opcodes`], [`Arch::has`]) is with the opcodes, in
//! `instr.rs`.

use std::fmt;

/// A Tensix architecture whose Vector Unit this crate models.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Arch {
    /// Blackhole A0.
    Blackhole,
    /// Wormhole B0.
    Wormhole,
}

impl Arch {
    /// Every modelled chip.
    pub const ALL: [Arch; 2] = [Arch::Blackhole, Arch::Wormhole];
}

impl fmt::Display for Arch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Arch::Blackhole => "blackhole",
            Arch::Wormhole => "wormhole",
        })
    }
}

impl std::str::FromStr for Arch {
    type Err = String;
    fn from_str(s: &str) -> Result<Arch, String> {
        match s.to_ascii_lowercase().as_str() {
            "blackhole" | "bh" => Ok(Arch::Blackhole),
            "wormhole" | "wh" => Ok(Arch::Wormhole),
            _ => Err(format!("unknown architecture `{s}` (expected `blackhole` or `wormhole`)")),
        }
    }
}
