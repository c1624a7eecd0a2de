//! What a vector's `post` may state: nothing where its `skip` covers (undefined or unspecified
//! behaviour), so that no importer reads a value there as a promise (`vectors/README.md`,
//! "Applying `post`"). [`leave_out`] takes those values out of a `post` (the generator's and the
//! loader's way from a format-2 file); [`stated_in_skip`] lists what a `post` states there (the
//! loader refuses a format-3 vector that does).

use sfpu_reference::state::{FlagStackDoc, FlagStackLevelDoc, Hex, Index, StateDoc};

use crate::taint::Locations;

/// Every lane.
const ALL: u32 = u32::MAX;

/// Leaves out of `post` every value at a location `skip` covers: a part, register or word whose
/// every lane (or, for `Dst` and `Addressing`, the whole of which) `skip` covers is removed; in
/// one it covers partly, the covered lanes have no value (`null`), and in the flag stacks a lane
/// without a depth has no bits in the levels (which end at the deepest stated lane). Under
/// `skip.all` nothing is left but `arch`.
pub fn leave_out(post: &mut StateDoc, skip: &Locations) {
    if skip.all {
        *post = StateDoc { arch: post.arch, ..StateDoc::default() };
        return;
    }
    post.LReg = std::mem::take(&mut post.LReg)
        .into_iter()
        .filter_map(|(Index(reg), v)| Some((Index(reg), v.without(skip.lreg(reg as usize))?)))
        .collect();
    post.LaneFlags = post.LaneFlags.take().and_then(|b| b.without(skip.LaneFlags.0));
    post.UseLaneFlagsForLaneEnable =
        post.UseLaneFlagsForLaneEnable.take().and_then(|b| b.without(skip.UseLaneFlagsForLaneEnable.0));
    post.FlagStack = post.FlagStack.take().and_then(|fs| {
        let covered = skip.FlagStack.0;
        let depth = fs.depth.without(covered)?;
        let deepest = depth.lanes().iter().flatten().copied().max().unwrap_or(0) as usize;
        let levels = fs
            .levels
            .iter()
            .take(deepest)
            .map(|level| FlagStackLevelDoc {
                LaneFlags: Hex(level.LaneFlags.0 & !covered),
                UseLaneFlagsForLaneEnable: Hex(level.UseLaneFlagsForLaneEnable.0 & !covered),
            })
            .collect();
        Some(FlagStackDoc { depth, levels })
    });
    post.LaneConfig = post.LaneConfig.take().and_then(|v| v.without(skip.LaneConfig.0));
    post.LoadMacroConfig = post.LoadMacroConfig.take().and_then(|mut lmc| {
        let covered = skip.LoadMacroConfig.0;
        if covered == ALL {
            return None;
        }
        for words in [&mut lmc.InstructionTemplate, &mut lmc.Sequence] {
            *words = std::mem::take(words)
                .into_iter()
                .filter_map(|(i, v)| Some((i, v.without(covered)?)))
                .collect();
        }
        lmc.Misc = lmc.Misc.take().and_then(|v| v.without(covered));
        Some(lmc)
    });
    post.PRNG = post.PRNG.take().and_then(|v| v.without(skip.PRNG.0));
    if skip.Dst {
        post.Dst = None;
    }
    if skip.Addressing {
        post.Addressing = None;
    }
}

/// Every value `post` states at a location `skip` covers, as `part lanes 0x...` (or the part's
/// name, for `Dst`, `Addressing` and anything under `skip.all`), in the state format's order;
/// empty when `post` states nothing there.
pub fn stated_in_skip(post: &StateDoc, skip: &Locations) -> Vec<String> {
    let mut out = Vec::new();
    if skip.all {
        let parts = [
            ("LReg", !post.LReg.is_empty()),
            ("LaneFlags", post.LaneFlags.is_some()),
            ("UseLaneFlagsForLaneEnable", post.UseLaneFlagsForLaneEnable.is_some()),
            ("FlagStack", post.FlagStack.is_some()),
            ("LaneConfig", post.LaneConfig.is_some()),
            ("LoadMacroConfig", post.LoadMacroConfig.is_some()),
            ("PRNG", post.PRNG.is_some()),
            ("Dst", post.Dst.is_some()),
            ("Addressing", post.Addressing.is_some()),
            ("SFPSHFT2_vc0", post.SFPSHFT2_vc0.is_some()),
        ];
        out.extend(parts.iter().filter(|(_, listed)| *listed).map(|(part, _)| format!("{part} (skip: all)")));
        return out;
    }
    // (part, the lanes it states, the lanes skip covers)
    let mut parts: Vec<(String, u32, u32)> = Vec::new();
    let mut lanes = |part: String, stated: u32, covered: u32| parts.push((part, stated, covered));
    for (Index(reg), v) in &post.LReg {
        lanes(format!("LReg[{reg}]"), v.stated(), skip.lreg(*reg as usize));
    }
    if let Some(b) = &post.LaneFlags {
        lanes("LaneFlags".into(), b.stated(), skip.LaneFlags.0);
    }
    if let Some(b) = &post.UseLaneFlagsForLaneEnable {
        lanes("UseLaneFlagsForLaneEnable".into(), b.stated(), skip.UseLaneFlagsForLaneEnable.0);
    }
    if let Some(fs) = &post.FlagStack {
        // A lane's flag stack is one location: its depth and its bits in every level.
        let bits = fs.levels.iter().fold(0, |m, l| m | l.LaneFlags.0 | l.UseLaneFlagsForLaneEnable.0);
        lanes("FlagStack".into(), fs.depth.stated() | bits, skip.FlagStack.0);
    }
    if let Some(v) = &post.LaneConfig {
        lanes("LaneConfig".into(), v.stated(), skip.LaneConfig.0);
    }
    if let Some(lmc) = &post.LoadMacroConfig {
        let covered = skip.LoadMacroConfig.0;
        for (Index(i), v) in &lmc.InstructionTemplate {
            lanes(format!("LoadMacroConfig.InstructionTemplate[{i}]"), v.stated(), covered);
        }
        for (Index(i), v) in &lmc.Sequence {
            lanes(format!("LoadMacroConfig.Sequence[{i}]"), v.stated(), covered);
        }
        if let Some(v) = &lmc.Misc {
            lanes("LoadMacroConfig.Misc".into(), v.stated(), covered);
        }
    }
    if let Some(v) = &post.PRNG {
        lanes("PRNG".into(), v.stated(), skip.PRNG.0);
    }
    for (part, stated, covered) in parts {
        if stated & covered != 0 {
            out.push(format!("{part} lanes 0x{:08x}", stated & covered));
        }
    }
    if skip.Dst && post.Dst.is_some() {
        out.push("Dst".into());
    }
    if skip.Addressing && post.Addressing.is_some() {
        out.push("Addressing".into());
    }
    out
}
