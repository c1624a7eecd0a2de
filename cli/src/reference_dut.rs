//! `sfpu-conformance reference-dut`: the reference model as a `--dut`, speaking `sfpu-dut/1` on its
//! standard input and output (docs/dut-protocol.md), with a declaration of your choosing and,
//! for the harness's own tests, a bug planted in exactly one feature.
//!
//! It answers every case with the reference model's result, so whatever a run reports about it
//! comes from the harness alone: which cases its declaration lets through (`--features`,
//! `--refuses`), and which cases a bug in one feature fails (`--ignore FEATURE`: the model runs
//! as if that part of the state were at its baseline value, as a simulator without it would,
//! and reports the configuration it was given unchanged).
//!
//! ```sh
//! cargo xtask conform --dut "target/debug/sfpu-conformance reference-dut --features ''"        # baseline only
//! cargo xtask conform --dut "target/debug/sfpu-conformance reference-dut --ignore dest-remap"  # a planted bug
//! ```

use std::io::{BufRead, Write};
use std::process::ExitCode;

use anyhow::{Result, bail};
use harness_core::isa::Model as _;
use harness_sfpu::Reference;
use harness_sfpu::features::Feature;
use serde_json::{Value, json};
use sfpu_reference::State;
use sfpu_reference::isa::Arch;
use sfpu_reference::state::{FlagStack, FlagStackEntry, LANES, LaneConfig, StateDoc};

#[derive(clap::Args)]
pub struct Args {
    /// The features to declare, comma-separated (`''`: the baseline only; omitted: declare
    /// nothing, which means every feature).
    #[arg(long, value_name = "LIST")]
    features: Option<String>,
    /// Instructions or `INSTRUCTION/mode` values to refuse up front, comma-separated.
    #[arg(long, value_name = "LIST", value_delimiter = ',')]
    refuses: Vec<String>,
    /// Plant a bug: run as if FEATURE's part of the state were at its baseline value.
    #[arg(long, value_name = "FEATURE")]
    ignore: Option<String>,
    /// The chips to answer for, comma-separated (default both); a hello for another chip is
    /// refused, as a DUT that models one chip refuses the other.
    #[arg(long, value_name = "LIST", value_delimiter = ',')]
    arch: Vec<Arch>,
}

const PROTOCOL: &str = "sfpu-dut/1";

pub fn main(args: Args) -> Result<ExitCode> {
    let ignore = match &args.ignore {
        Some(id) => {
            Some(Feature::from_id(id).ok_or_else(|| anyhow::anyhow!("--ignore: unknown feature `{id}`"))?)
        }
        None => None,
    };
    let features: Option<Vec<String>> = args
        .features
        .as_ref()
        .map(|list| list.split(',').map(str::trim).filter(|f| !f.is_empty()).map(String::from).collect());
    for f in features.iter().flatten() {
        if Feature::from_id(f).is_none() {
            bail!("--features: unknown feature `{f}`");
        }
    }
    let stdin = std::io::stdin();
    let mut stdout = std::io::stdout();
    let mut send = |v: Value| -> Result<()> {
        writeln!(stdout, "{v}")?;
        stdout.flush()?;
        Ok(())
    };
    let chips: Vec<Arch> = if args.arch.is_empty() { Arch::ALL.to_vec() } else { args.arch.clone() };
    let names: Vec<String> = chips.iter().map(Arch::to_string).collect();
    let mut hello_done = false;
    for line in stdin.lock().lines() {
        let line = line?;
        let message: Value = match serde_json::from_str(&line) {
            Ok(v) => v,
            Err(e) => {
                send(json!({"type": "error", "message": format!("not JSON: {e}")}))?;
                continue;
            }
        };
        match message["type"].as_str() {
            Some("hello") if !hello_done => {
                let asked = message["arch"].as_str().unwrap_or("blackhole");
                if message["protocol"] != PROTOCOL || !names.iter().any(|n| n == asked) {
                    send(json!({"type": "error", "message":
                        format!("reference-dut speaks {PROTOCOL} for {} only", names.join(", "))}))?;
                    return Ok(ExitCode::from(1));
                }
                let mut hello = json!({"type": "hello", "protocol": PROTOCOL, "name": "reference-dut",
                    "version": env!("CARGO_PKG_VERSION"), "archs": names});
                if let Some(f) = &features {
                    hello["features"] = json!(f);
                }
                if !args.refuses.is_empty() {
                    hello["refuses"] = json!(args.refuses);
                }
                hello_done = true;
                send(hello)?;
            }
            Some("case") => {
                let id = message["id"].clone();
                match run_case(&message, ignore) {
                    Ok((state, outcome)) => {
                        send(json!({"type": "result", "id": id, "state": state, "outcome": outcome}))?
                    }
                    Err(e) => send(json!({"type": "error", "id": id, "message": e}))?,
                }
            }
            Some("bye") => return Ok(ExitCode::SUCCESS),
            other => send(json!({"type": "error", "message": format!("unexpected message {other:?}")}))?,
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Runs one case on the reference model, with the planted bug if any.
fn run_case(message: &Value, ignore: Option<Feature>) -> Result<(Value, Value), String> {
    let doc: StateDoc =
        serde_json::from_value(message["state"].clone()).map_err(|e| format!("state: {e}"))?;
    let pre = doc.to_state().map_err(|e| format!("state: {e}"))?;
    let words: Vec<u32> = message["program"]
        .as_array()
        .ok_or("no program")?
        .iter()
        .map(|w| {
            let t = w.as_str().unwrap_or_default();
            u32::from_str_radix(t.trim_start_matches("0x"), 16).map_err(|e| format!("word `{t}`: {e}"))
        })
        .collect::<Result<_, _>>()?;
    let mut seen = pre.clone();
    if let Some(f) = ignore {
        forget(&mut seen, f);
    }
    let run = Reference.run(seen.arch(), &seen, &words).map_err(|e| e.to_string())?;
    let mut post = run.post;
    if let Some(f) = ignore {
        keep_configuration(&pre, &mut post, f);
    }
    let outcome: Vec<Value> = run
        .outcome
        .map(|o| o.notes().map(|(c, l)| json!({"clause": c.id(), "lanes": format!("0x{l:08x}")})).collect())
        .unwrap_or_default();
    let state = serde_json::to_value(StateDoc::changes(&pre, &post, 0)).map_err(|e| e.to_string())?;
    Ok((state, Value::Array(outcome)))
}

/// Puts `f`'s part of `s` at its baseline value, as an implementation without it would see it.
fn forget(s: &mut State, f: Feature) {
    let a = &mut s.Addressing;
    match f {
        Feature::FlagStackRagged => {
            // One depth for every lane: lane 0's.
            let depth = s.FlagStack[0].len();
            for st in s.FlagStack.iter_mut() {
                let mut entries = st.entries().to_vec();
                entries.resize(depth, FlagStackEntry::default());
                *st = FlagStack::from_entries(&entries).unwrap_or_default();
            }
        }
        Feature::UseLaneFlagsRagged => {
            // One UseLaneFlagsForLaneEnable for every lane, and per stack level: the first lane's.
            s.UseLaneFlagsForLaneEnable = [s.UseLaneFlagsForLaneEnable[0]; LANES];
            for level in 0..8 {
                let first = s.FlagStack.iter().find_map(|st| st.entries().get(level).copied());
                if let Some(first) = first {
                    for st in s.FlagStack.iter_mut() {
                        let mut entries = st.entries().to_vec();
                        if let Some(e) = entries.get_mut(level) {
                            e.UseLaneFlagsForLaneEnable = first.UseLaneFlagsForLaneEnable;
                        }
                        *st = FlagStack::from_entries(&entries).unwrap_or_default();
                    }
                }
            }
        }
        Feature::RowMask => {
            for c in s.LaneConfig.iter_mut() {
                *c = LaneConfig::truncating(c.bits() & !0xF000);
            }
        }
        Feature::LaneConfig => {
            for c in s.LaneConfig.iter_mut() {
                *c = LaneConfig::truncating(c.bits() & 0xF000);
            }
        }
        Feature::LoadMacroConfig => {
            for c in s.LoadMacroConfig.iter_mut() {
                c.Sequence = [0; 4];
                c.Misc = Default::default();
            }
        }
        Feature::InstructionTemplate => {
            for c in s.LoadMacroConfig.iter_mut() {
                c.InstructionTemplate = [0; 4];
            }
        }
        Feature::Prng => s.PRNG = [0; LANES],
        Feature::Lreg16 => s.LReg[16] = [0; LANES],
        Feature::DstInvalidRows => s.Dst.DstRowValid.fill(true),
        Feature::DstDebugAlias => a.DBG_FEATURE_DISABLE_bit11 = false,
        Feature::DestRemap => a.DEST_ACCESS_CFG_remap_addrs = false,
        Feature::Swizzle32b => a.DEST_ACCESS_CFG_swizzle_32b = false,
        Feature::SrcbOverride => {
            a.ALU_FORMAT_SPEC_REG_SrcB_override = false;
            a.ALU_FORMAT_SPEC_REG_SrcB_val = 0;
        }
        Feature::DstFormatConfig => {
            a.ALU_ACC_CTRL_SFPU_Fp32_enabled = false;
            a.ALU_FORMAT_SPEC_REG1_SrcB = 0;
            a.SFPU_DEST_FMT_Enable = false;
            a.SFPU_DEST_FMT_Base = 0;
        }
        Feature::AddrMod => {
            a.ADDR_MOD = Default::default();
            a.ADDR_MOD_SET_Base = false;
        }
        Feature::Rwc => a.RWC = sfpu_reference::state::Rwc { Sp: a.RWC.Sp, ..Default::default() },
        Feature::Sp => {
            a.RWC.Sp = 0;
            a.SFPU_STACK_Incr = 0;
            a.DEST_SP_BASE_Base = 0;
        }
        Feature::DestBase => {
            a.DEST_TARGET_REG_CFG_MATH_Offset = 0;
            a.DEST_REGW_BASE_Base = 0;
        }
        Feature::Sfpshft2Latch => {
            if let Some(wh) = s.wormhole_mut() {
                wh.SFPSHFT2_vc0 = [0; LANES];
            }
        }
    }
}

/// What an implementation that ignores `f` still reports as it was given: the configuration it
/// does not model (it leaves it out of its answer, which the harness reads as unchanged).
fn keep_configuration(pre: &State, post: &mut State, f: Feature) {
    let (a, p) = (&mut post.Addressing, &pre.Addressing);
    match f {
        // Storage it keeps: what the program did not change is reported as it was given.
        Feature::RowMask | Feature::LaneConfig => {
            let mask = if f == Feature::RowMask { 0xF000 } else { !0xF000 & LaneConfig::MASK };
            for (c, old) in post.LaneConfig.iter_mut().zip(&pre.LaneConfig) {
                if c.bits() == old.bits() & !mask {
                    *c = *old;
                }
            }
        }
        Feature::LoadMacroConfig | Feature::InstructionTemplate => {
            for (c, old) in post.LoadMacroConfig.iter_mut().zip(&pre.LoadMacroConfig) {
                if f == Feature::LoadMacroConfig {
                    if c.Sequence == [0; 4] && c.Misc.bits() == 0 {
                        c.Sequence = old.Sequence;
                        c.Misc = old.Misc;
                    }
                } else if c.InstructionTemplate == [0; 4] {
                    c.InstructionTemplate = old.InstructionTemplate;
                }
            }
        }
        // No LReg[16] at all: its writes are lost, and it reports none.
        Feature::Lreg16 => post.LReg[16] = pre.LReg[16],
        Feature::DstInvalidRows => post.Dst.DstRowValid = pre.Dst.DstRowValid.clone(),
        Feature::DstDebugAlias => a.DBG_FEATURE_DISABLE_bit11 = p.DBG_FEATURE_DISABLE_bit11,
        Feature::DestRemap => a.DEST_ACCESS_CFG_remap_addrs = p.DEST_ACCESS_CFG_remap_addrs,
        Feature::Swizzle32b => a.DEST_ACCESS_CFG_swizzle_32b = p.DEST_ACCESS_CFG_swizzle_32b,
        Feature::SrcbOverride => {
            a.ALU_FORMAT_SPEC_REG_SrcB_override = p.ALU_FORMAT_SPEC_REG_SrcB_override;
            a.ALU_FORMAT_SPEC_REG_SrcB_val = p.ALU_FORMAT_SPEC_REG_SrcB_val;
        }
        Feature::DstFormatConfig => {
            a.ALU_ACC_CTRL_SFPU_Fp32_enabled = p.ALU_ACC_CTRL_SFPU_Fp32_enabled;
            a.ALU_FORMAT_SPEC_REG1_SrcB = p.ALU_FORMAT_SPEC_REG1_SrcB;
            a.SFPU_DEST_FMT_Enable = p.SFPU_DEST_FMT_Enable;
            a.SFPU_DEST_FMT_Base = p.SFPU_DEST_FMT_Base;
        }
        Feature::AddrMod => {
            a.ADDR_MOD = p.ADDR_MOD;
            a.ADDR_MOD_SET_Base = p.ADDR_MOD_SET_Base;
        }
        Feature::Sp => {
            a.SFPU_STACK_Incr = p.SFPU_STACK_Incr;
            a.DEST_SP_BASE_Base = p.DEST_SP_BASE_Base;
        }
        Feature::DestBase => {
            a.DEST_TARGET_REG_CFG_MATH_Offset = p.DEST_TARGET_REG_CFG_MATH_Offset;
            a.DEST_REGW_BASE_Base = p.DEST_REGW_BASE_Base;
        }
        // State the program changes: reported as computed.
        Feature::FlagStackRagged
        | Feature::UseLaneFlagsRagged
        | Feature::Prng
        | Feature::Rwc
        | Feature::Sfpshft2Latch => {}
    }
}
