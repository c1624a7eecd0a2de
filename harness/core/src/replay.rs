//! Replay lines: the one command, printed with every failure, that reproduces it exactly. It
//! names the instruction set, the chip, the seed of a random case, every option that changes the
//! case or its verdict (`--vectors`, `--architecture`, a DUT's `--dut` and `--timeout`) and the
//! case id, each word quoted for a POSIX shell (an id or a command line with spaces, quotes,
//! `$(...)` or `;` in it is pasted as one word, never run).

/// Quotes `word` for a POSIX shell (and for `--dut`'s own splitting), if it needs it.
pub fn shell_quote(word: &str) -> String {
    if !word.is_empty() && word.chars().all(|c| c.is_ascii_alphanumeric() || "-_./=,:@%+".contains(c)) {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

/// Everything a replay line carries besides the case id.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ReplayContext {
    /// The command that runs `conform` (`cargo xtask conform`, `sfpu-conformance conform`),
    /// already a shell command line.
    pub command: String,
    /// The instruction set.
    pub isa: String,
    /// The chip.
    pub chip: String,
    /// The campaign's seed (written for random cases).
    pub seed: u64,
    /// `--vectors DIR`, if the run had one.
    pub vectors: Option<String>,
    /// Whether the run skipped non-contractual locations (`--architecture`).
    pub architecture: bool,
    /// The DUT's command line and per-case timeout in seconds, for a DUT's failures.
    pub dut: Option<(String, u64)>,
}

/// The per-case timeout of a DUT when none is given, in seconds.
pub const DEFAULT_TIMEOUT_S: u64 = 10;

impl ReplayContext {
    /// The replay line of case `id` (`random` says whether it is a random case, whose seed then
    /// matters).
    pub fn line(&self, id: &str, random: bool) -> String {
        let mut out =
            format!("{} --isa {} --chip {}", self.command, shell_quote(&self.isa), shell_quote(&self.chip));
        if random {
            out += &format!(" --seed {:#x}", self.seed);
        }
        if let Some(dir) = &self.vectors {
            out += &format!(" --vectors {}", shell_quote(dir));
        }
        if self.architecture {
            out += " --architecture";
        }
        if let Some((dut, timeout)) = &self.dut {
            out += &format!(" --dut {}", shell_quote(dut));
            if *timeout != DEFAULT_TIMEOUT_S {
                out += &format!(" --timeout {timeout}");
            }
        }
        out + &format!(" --replay {}", shell_quote(id))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_that_a_shell_would_read_otherwise_are_quoted() {
        assert_eq!(shell_quote("SFPMAD/mod1=3/specials"), "SFPMAD/mod1=3/specials");
        assert_eq!(shell_quote("a b"), "'a b'");
        assert_eq!(shell_quote("$(rm -rf x)"), "'$(rm -rf x)'");
        assert_eq!(shell_quote("it's"), r"'it'\''s'");
        assert_eq!(shell_quote(""), "''");
        assert_eq!(shell_quote("x;y"), "'x;y'");
        assert_eq!(shell_quote("`x`"), "'`x`'");
    }

    #[test]
    fn a_line_names_everything_that_changes_the_case() {
        let mut c = ReplayContext {
            command: "cargo xtask conform".into(),
            isa: "sfpu".into(),
            chip: "wormhole".into(),
            seed: 0x2a,
            ..ReplayContext::default()
        };
        assert_eq!(
            c.line("SFPMAD/x", false),
            "cargo xtask conform --isa sfpu --chip wormhole --replay SFPMAD/x"
        );
        c.vectors = Some("my dir".into());
        c.architecture = true;
        c.dut = Some(("python3 dut.py --flag 'x'".into(), 30));
        assert_eq!(
            c.line("random/SFPMAD/7", true),
            "cargo xtask conform --isa sfpu --chip wormhole --seed 0x2a --vectors 'my dir' --architecture \
             --dut 'python3 dut.py --flag '\\''x'\\''' --timeout 30 --replay random/SFPMAD/7"
        );
    }
}
