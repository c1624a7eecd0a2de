//! Shared helpers of the fast model's tests: a fixed-seed generator, random states of either chip
//! with interesting values, random instruction words of either chip, and a readable state diff.

pub mod machine;

use sfpu_reference::isa::{Arch, Instr, decode};
use sfpu_reference::state::{AddrModSlot, FlagStack, FlagStackEntry, LaneConfig, Misc, ResetValues, State};

/// SplitMix64: a small, well-known generator; the sequence is fixed by the seed.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    pub fn u32(&mut self) -> u32 {
        (self.next() >> 32) as u32
    }
    pub fn below(&mut self, n: u32) -> u32 {
        (((self.next() >> 32) * n as u64) >> 32) as u32
    }
    pub fn chance(&mut self, num: u32, den: u32) -> bool {
        self.below(den) < num
    }

    /// An FP32 / integer pattern from an interesting class.
    pub fn value(&mut self) -> u32 {
        let sign = self.u32() & 0x8000_0000;
        match self.below(16) {
            0 => sign,                                                            // ±0
            1 => sign | (self.u32() & 0x7F_FFFF),                                 // denormal
            2 => sign | 0x7F80_0000,                                              // ±Inf
            3 => sign | 0x7F80_0000 | (self.u32() & 0x7F_FFFF) | 1,               // NaN
            4 => 0x7FC0_0000,                                                     // canonical NaN
            5 => sign | ((124 + self.below(8)) << 23) | (self.u32() & 0x7F_FFFF), // near 1
            6 => self.below(64),                                                  // small non-negative int
            7 => (self.below(64) as i32 - 32) as u32,                             // small two's complement
            8 => sign | self.below(300),                                          // small sign-magnitude
            9 => sign | ((1 + self.below(254)) << 23) | (self.u32() & 0x7F_FFFF), // any normal
            10 => {
                sign | ((self.below(3) + if self.chance(1, 2) { 1 } else { 252 }) << 23)
                    | (self.u32() & 0x7F_FFFF)
            }
            11 => self.u32() & 0xFFFF,
            12 => sign | (self.u32() & 0x7FFF_0000),
            _ => self.u32(),
        }
    }

    /// A random decodable Blackhole instruction word (opcode uniform, fields random).
    pub fn instr(&mut self) -> Instr {
        self.instr_on(Arch::Blackhole)
    }

    /// A random decodable instruction word of `arch` (one of its opcodes, uniform; fields
    /// random), via `decode(arch, ..)`.
    pub fn instr_on(&mut self, arch: Arch) -> Instr {
        let ops = arch.opcodes();
        loop {
            let op = ops[self.below(ops.len() as u32) as usize];
            let mut word = ((op.number() as u32) << 24) | (self.u32() & op.drawn_mask(arch) & 0x00FF_FFFF);
            // Bias VD-like 4-bit fields towards small registers half the time, so results land
            // in writable registers often.
            if self.chance(1, 2) {
                for f in op.fields(arch) {
                    if f.bits == 4 && f.name.starts_with('V') {
                        let v = self.below(8);
                        word = (word & !f.mask()) | (v << f.lo);
                    }
                }
            }
            if let Ok(i) = decode(arch, word) {
                return i;
            }
        }
    }

    /// A random word: any 32 bits (most do not decode), or a drawn-bits-only word of `arch`.
    pub fn raw_word_on(&mut self, arch: Arch) -> u32 {
        if self.chance(1, 4) {
            self.u32()
        } else {
            let ops = arch.opcodes();
            let op = ops[self.below(ops.len() as u32) as usize];
            ((op.number() as u32) << 24) | (self.u32() & op.drawn_mask(arch) & 0x00FF_FFFF)
        }
    }

    /// A per-lane word array that is uniform, 8-lane periodic (as SFPCONFIG writes), or random.
    fn per_lane(&mut self, mut f: impl FnMut(&mut Rng) -> u32) -> [u32; 32] {
        let mut v = [0u32; 32];
        match self.below(8) {
            0..=3 => {
                let x = f(self);
                v = [x; 32];
            }
            4..=6 => {
                let cols: Vec<u32> = (0..8).map(|_| f(self)).collect();
                for l in 0..32 {
                    v[l] = cols[l & 7];
                }
            }
            _ => {
                for x in v.iter_mut() {
                    *x = f(self);
                }
            }
        }
        v
    }

    /// A random Blackhole state with interesting contents everywhere the instructions look.
    pub fn state(&mut self) -> State {
        self.state_on(Arch::Blackhole)
    }

    /// A random state of `arch` with interesting contents everywhere the instructions look. On
    /// Wormhole the SFPSHFT2 `vc0` latch is random too, and so are the addressing fields only
    /// Blackhole reads (neither model may read them there).
    pub fn state_on(&mut self, arch: Arch) -> State {
        let mut s = State::reset(arch, &ResetValues::ZEROS);
        if let Some(wh) = s.wormhole_mut() {
            wh.SFPSHFT2_vc0 = std::array::from_fn(|_| self.value());
        }
        for r in (0..8).chain(11..15).chain(16..17) {
            for l in 0..32 {
                s.LReg[r][l] = self.value();
            }
            if self.chance(1, 6) {
                // Register-wide patterns: equal lanes, or indices for indirect modes.
                let x = self.value();
                s.LReg[r] = [x; 32];
            }
        }
        if self.chance(1, 3) {
            // Indices for the indirect modes: one per lane; or one register named by every lane
            // under differing upper bits, which the fast model reads and writes whole
            // (`ops::indirect_register`); or that register and the one 8 above it in random
            // lanes (bit 3 alone differs), which it must not take for one register.
            let pattern = self.below(4);
            let one = self.below(16);
            let flip = if pattern == 3 { self.u32() | 1 << self.below(32) } else { 0 };
            for l in 0..32 {
                let index = if pattern < 2 { self.below(16) } else { one ^ (flip >> l & 1) << 3 };
                s.LReg[7][l] = (s.LReg[7][l] & !15) | index;
            }
        }
        let flags = self.u32();
        let uses = match self.below(4) {
            0 => 0,
            1 => !0,
            _ => self.u32(),
        };
        let uniform_depth = self.chance(3, 4);
        let depth0 = self.below(9);
        for l in 0..32 {
            s.LaneFlags[l] = flags >> l & 1 != 0;
            s.UseLaneFlagsForLaneEnable[l] = uses >> l & 1 != 0;
            let d = if uniform_depth { depth0 } else { self.below(9) };
            let entries: Vec<FlagStackEntry> = (0..d)
                .map(|_| FlagStackEntry {
                    LaneFlags: self.chance(1, 2),
                    UseLaneFlagsForLaneEnable: self.chance(3, 4),
                })
                .collect();
            s.FlagStack[l] = FlagStack::from_entries(&entries).unwrap();
        }
        let lc = self.per_lane(|r| {
            let mut v = 0;
            if r.chance(1, 2) {
                v |= 2; // DISABLE_BACKDOOR_LOAD
            }
            if r.chance(1, 4) {
                v |= r.u32() & 0x1FD;
            }
            if r.chance(1, 4) {
                v |= (r.below(16)) << 12; // ROW_MASK
            }
            if r.chance(1, 8) {
                v |= r.u32() & 0x3_FFFF;
            }
            v
        });
        for l in 0..32 {
            s.LaneConfig[l] = LaneConfig::truncating(lc[l]);
        }
        for k in 0..4 {
            let t = self.per_lane(|r| r.raw_word_on(arch));
            let q = self.per_lane(|r| {
                let mut w = 0;
                for unit in 0..4 {
                    let sel = match r.below(8) {
                        0..=2 => 0,
                        3 => 2,
                        4 => 3,
                        5 => {
                            if r.chance(1, 8) {
                                1
                            } else {
                                4 + r.below(4)
                            }
                        }
                        _ => 4 + r.below(4),
                    };
                    let delay = if r.chance(1, 2) { r.below(3) } else { r.below(8) };
                    let hi = r.below(4);
                    w |= (sel | delay << 3 | hi << 6) << (8 * unit);
                }
                w
            });
            for l in 0..32 {
                s.LoadMacroConfig[l].InstructionTemplate[k] = t[l];
                s.LoadMacroConfig[l].Sequence[k] = q[l];
            }
        }
        let misc = self.per_lane(|r| r.u32() & 0xFFF);
        for l in 0..32 {
            s.LoadMacroConfig[l].Misc = Misc::truncating(misc[l]);
        }
        for l in 0..32 {
            s.PRNG[l] = self.u32();
        }
        // Dst: random cells, some rows invalid.
        for row in s.Dst.DstBits.iter_mut() {
            for c in row.iter_mut() {
                *c = self.u32() as u16;
            }
        }
        if self.chance(1, 8) {
            for _ in 0..self.below(64) {
                let r = self.below(1024) as usize;
                s.Dst.DstRowValid[r] = false;
            }
        }
        let a = &mut s.Addressing;
        a.DEST_TARGET_REG_CFG_MATH_Offset = self.below(1024) as u16 * self.below(2) as u16;
        a.SFPU_STACK_Incr = self.below(16) as u16;
        a.SFPU_DEST_FMT_Enable = self.chance(1, 4);
        a.SFPU_DEST_FMT_Base = self.below(16) as u16;
        a.ADDR_MOD_SET_Base = self.chance(1, 4);
        for slot in a.ADDR_MOD.iter_mut() {
            if self.chance(1, 3) {
                *slot = AddrModSlot {
                    SrcAIncr: self.below(64) as u16,
                    SrcACR: self.chance(1, 4),
                    SrcAClear: self.chance(1, 8),
                    SrcBIncr: self.below(64) as u16,
                    SrcBCR: self.chance(1, 4),
                    SrcBClear: self.chance(1, 8),
                    DestIncr: self.below(1024) as u16,
                    DestCR: self.chance(1, 4),
                    DestClear: self.chance(1, 8),
                    DestCToCR: self.chance(1, 4),
                    FidelityIncr: self.below(4) as u16,
                    FidelityClear: self.chance(1, 4),
                    BiasIncr: self.below(16) as u16,
                    BiasClear: self.chance(1, 4),
                };
            }
        }
        a.DEST_REGW_BASE_Base = self.below(1024) as u16 * self.below(2) as u16;
        a.DEST_SP_BASE_Base = self.below(1024) as u16 * self.below(2) as u16;
        a.ALU_ACC_CTRL_SFPU_Fp32_enabled = self.chance(1, 3);
        a.ALU_FORMAT_SPEC_REG_SrcB_override = self.chance(1, 2);
        a.ALU_FORMAT_SPEC_REG_SrcB_val = self.below(16) as u16;
        a.ALU_FORMAT_SPEC_REG1_SrcB = self.below(16) as u16;
        // Blackhole's Dst row remapping. On Wormhole these two stay at their defaults, as the
        // `State` documentation says they do there (its serde form refuses other values); both
        // models ignore them on Wormhole, whose `Dst.md` has no remapping.
        if arch == Arch::Blackhole {
            a.DEST_ACCESS_CFG_remap_addrs = self.chance(1, 4);
            a.DEST_ACCESS_CFG_swizzle_32b = self.chance(1, 4);
        }
        a.DBG_FEATURE_DISABLE_bit11 = self.chance(1, 16);
        a.RWC.Dst = self.below(1024) as u16;
        a.RWC.Dst_Cr = self.below(1024) as u16;
        a.RWC.SrcA = self.below(64) as u16;
        a.RWC.SrcA_Cr = self.below(64) as u16;
        a.RWC.SrcB = self.below(64) as u16;
        a.RWC.SrcB_Cr = self.below(64) as u16;
        a.RWC.FidelityPhase = self.below(4) as u16;
        a.RWC.ExtraAddrModBit = self.below(2) as u16;
        a.RWC.Sp = if self.chance(1, 3) { 0 } else { self.below(1024) as u16 };
        s
    }
}

/// A short description of how two states differ (first few differences).
pub fn diff(a: &State, b: &State) -> String {
    let mut out = Vec::new();
    for r in 0..17 {
        for l in 0..32 {
            if a.LReg[r][l] != b.LReg[r][l] {
                out.push(format!("LReg[{r}][{l}]: 0x{:08x} vs 0x{:08x}", a.LReg[r][l], b.LReg[r][l]));
            }
        }
    }
    let mask = |v: &[bool; 32]| v.iter().enumerate().fold(0u32, |m, (i, &x)| m | (x as u32) << i);
    if a.LaneFlags != b.LaneFlags {
        out.push(format!("LaneFlags: 0x{:08x} vs 0x{:08x}", mask(&a.LaneFlags), mask(&b.LaneFlags)));
    }
    if a.UseLaneFlagsForLaneEnable != b.UseLaneFlagsForLaneEnable {
        out.push(format!(
            "Use: 0x{:08x} vs 0x{:08x}",
            mask(&a.UseLaneFlagsForLaneEnable),
            mask(&b.UseLaneFlagsForLaneEnable)
        ));
    }
    for l in 0..32 {
        if a.FlagStack[l] != b.FlagStack[l] {
            out.push(format!(
                "FlagStack[{l}]: {:?} vs {:?}",
                a.FlagStack[l].entries(),
                b.FlagStack[l].entries()
            ));
        }
        if a.LaneConfig[l] != b.LaneConfig[l] {
            out.push(format!(
                "LaneConfig[{l}]: 0x{:x} vs 0x{:x}",
                a.LaneConfig[l].bits(),
                b.LaneConfig[l].bits()
            ));
        }
        if a.LoadMacroConfig[l] != b.LoadMacroConfig[l] {
            out.push(format!(
                "LoadMacroConfig[{l}]: {:x?} vs {:x?}",
                a.LoadMacroConfig[l], b.LoadMacroConfig[l]
            ));
        }
        if a.PRNG[l] != b.PRNG[l] {
            out.push(format!("PRNG[{l}]: 0x{:08x} vs 0x{:08x}", a.PRNG[l], b.PRNG[l]));
        }
    }
    for r in 0..1024 {
        for c in 0..16 {
            if a.Dst.DstBits[r][c] != b.Dst.DstBits[r][c] {
                out.push(format!(
                    "DstBits[{r}][{c}]: 0x{:04x} vs 0x{:04x}",
                    a.Dst.DstBits[r][c], b.Dst.DstBits[r][c]
                ));
            }
        }
        if a.Dst.DstRowValid[r] != b.Dst.DstRowValid[r] {
            out.push(format!("DstRowValid[{r}]"));
        }
    }
    if a.Chip != b.Chip {
        match (a.wormhole(), b.wormhole()) {
            (Some(x), Some(y)) => {
                for l in 0..32 {
                    if x.SFPSHFT2_vc0[l] != y.SFPSHFT2_vc0[l] {
                        out.push(format!(
                            "SFPSHFT2_vc0[{l}]: 0x{:08x} vs 0x{:08x}",
                            x.SFPSHFT2_vc0[l], y.SFPSHFT2_vc0[l]
                        ));
                    }
                }
            }
            _ => out.push(format!("Chip: {} vs {}", a.arch(), b.arch())),
        }
    }
    if a.Addressing != b.Addressing {
        out.push(format!("Addressing: {:?}\n   vs {:?}", a.Addressing.RWC, b.Addressing.RWC));
    }
    let n = out.len();
    out.truncate(6);
    if n > 6 {
        out.push(format!("... {} more", n - 6));
    }
    out.join("; ")
}

/// Runs the test named `name` (its full path in this binary) in a process of its own: this test
/// binary again, with that test alone, and returns `true` there; in the parent, waits for the
/// child, fails if it failed, and returns `false`. For a test that sets process-wide state (the
/// SIMD level). Under an emulator (`.ci/aarch64` runs the tests under `qemu-aarch64`, named by
/// `CARGO_TARGET_<ARCH>_UNKNOWN_LINUX_GNU_RUNNER`) the child runs under it too.
pub fn alone(name: &str) -> bool {
    const CHILD: &str = "SFPU_FASTPATH_TEST_ALONE";
    if std::env::var_os(CHILD).is_some() {
        return true;
    }
    let me = std::env::current_exe().expect("the test binary's path");
    let runner_key =
        format!("CARGO_TARGET_{}_UNKNOWN_LINUX_GNU_RUNNER", std::env::consts::ARCH.to_uppercase());
    let runner: Vec<String> = std::env::var(runner_key)
        .map(|r| r.split_whitespace().map(String::from).collect())
        .unwrap_or_default();
    let mut command = match runner.split_first() {
        Some((program, args)) => {
            let mut c = std::process::Command::new(program);
            c.args(args).arg(&me);
            c
        }
        None => std::process::Command::new(&me),
    };
    let out = command
        .args([name, "--exact", "--test-threads=1", "--nocapture"])
        .env(CHILD, "1")
        .output()
        .expect("run the test binary again");
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "{name} failed in its own process:\n{text}");
    assert!(text.contains("1 passed"), "{name} did not run in its own process:\n{text}");
    eprint!("{text}");
    false
}
