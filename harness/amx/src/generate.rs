//! The AMX golden-vector generator: one file per chip profile (`vectors/amx/m1.yaml`, `m2.yaml`,
//! `m4.yaml`; M3 is M2), deterministic in the seed.
//!
//! What it enumerates is the "one-factor-at-a-time floor" of the semantic classes
//! (`docs/spec/amx-vecfp.md#semantic-classes`), per lane width of
//! the chip, from a base class (the FMA, identity shuffles, every lane enabled, aligned offsets,
//! ZROW 0), changing one axis at a time:
//!
//! * `source`: every source of the chip (`amx_reference::classes::sources`: the ALU modes and
//!   the four indexed loads);
//! * `shuffle`: the three non-identity X shuffles and the three non-identity Y shuffles;
//! * `select`: every lane-selection class but the base's (`classes::select_classes`: the 17
//!   writemask classes and, on M2+, the 16 multi-vector classes);
//! * `offset`: X and Y each unaligned and wrapping past byte 511; and, with 4-bit and 2-bit
//!   indexed loads and the multi-vector BMODEs, unaligned offsets (where M4's masking differs);
//! * `zrow`: ZROW 1 (odd rows matter in pair modes) and, in multi-vector mode, ZROW's high bits;
//!
//! plus the chip's no-op classes (`nop`: MBZ ≠ 0, invalid ALU codes, on M1 ALU 10 and bit 31
//! as a named vector), and the numeric-edge set (`numeric`): every ALU mode × lane width, two vectors each,
//! whose lanes pair the 18 special values of the format (±0, ±smallest and ±largest subnormal,
//! ±smallest normal, ±1, ±largest finite, ±∞, ±quiet NaN, ±signalling NaN) in X, Y and Z; and
//! the `named` vectors of the notes' worked examples.
//!
//! The state of a one-factor vector is random: each X/Y lane, in the lane width's X/Y format, is
//! a special value one time in four and random bits otherwise, and Z lanes likewise in the Z
//! format. Only the registers that matter are kept in `pre`: the X and Y registers whose change
//! changes the result and the Z rows the instruction changes; the others are zero. The expected
//! state is the reference model's on exactly that `pre`.

use amx_reference::classes::{self, SelectClass, Source};
use amx_reference::fp::Format;
use amx_reference::state::{REG_BYTES, XY_REGS, set_lane};
use amx_reference::{AluMode, Bmode, Chip, Field, LaneWidth, Operand, State, StateDoc, XY};

use super::format::{AmxVector, AmxVectorFile, AmxWord, FORMAT, PROVENANCE};
use harness_core::rng::Rng;

/// The generator's default seed (the checked-in corpus uses it).
pub const DEFAULT_SEED: u64 = 0xA3C0_5EED_0000_0001;

/// The file stem of `chip`'s vectors.
pub fn file_stem(chip: Chip) -> String {
    chip.name().to_ascii_lowercase()
}

/// Every chip profile's vector file, in [`Chip::ALL`] order.
pub fn files(seed: u64) -> Vec<AmxVectorFile> {
    Chip::ALL.iter().map(|&chip| file(chip, seed)).collect()
}

/// A short name of a lane width, for ids.
pub fn lw_name(lw: LaneWidth) -> &'static str {
    match lw {
        LaneWidth::Bf16 => "bf16",
        LaneWidth::Bf16F32Pair => "bf16-f32pair",
        LaneWidth::F16F32Pair => "f16-f32pair",
        LaneWidth::F32 => "f32",
        LaneWidth::F64 => "f64",
        LaneWidth::F16 => "f16",
    }
}

fn alu_name(a: AluMode) -> &'static str {
    match a {
        AluMode::Fma => "fma",
        AluMode::Fms => "fms",
        AluMode::Select => "select",
        AluMode::Min => "min",
        AluMode::Max => "max",
        AluMode::Mul => "mul",
        AluMode::AddX => "add-x",
        AluMode::AddY => "add-y",
    }
}

/// The class name of a source.
pub fn source_name(s: Source) -> String {
    match s {
        Source::Alu(a) => format!("alu={}", alu_name(a)),
        Source::Indexed { IDXY, IB4 } => {
            format!("indexed-{}-{}bit", if IDXY == XY::X { "x" } else { "y" }, if IB4 { 4 } else { 2 })
        }
    }
}

/// The class name of a lane selection.
pub fn select_name(s: SelectClass) -> String {
    match s {
        SelectClass::Mode0 { N } if N >= 6 => "mode0-n6plus".to_string(),
        SelectClass::Mode0 { N } => format!("mode0-n{N}"),
        SelectClass::Broadcast => "broadcast".to_string(),
        SelectClass::Range { mode, n_zero } => {
            format!("mode{mode}-n{}", if n_zero { "0" } else { "nonzero" })
        }
        SelectClass::NoLanes => "no-lanes".to_string(),
        SelectClass::Multi { BMODE, FOUR } => {
            format!("multi-bmode{}-{}", BMODE as u64, if FOUR { "four" } else { "two" })
        }
    }
}

/// The 18 special values of `f` (§4.2 "Numeric edge vectors"), positive then negative.
pub fn specials(f: Format) -> [u64; 18] {
    let m = f.man_bits();
    let man = (1u64 << m) - 1;
    let inf = f.inf();
    let positive = [
        0,                      // +0
        1,                      // smallest subnormal
        man,                    // largest subnormal
        1 << m,                 // smallest normal
        f.one(),                // 1
        (inf - (1 << m)) | man, // largest finite
        inf,                    // infinity
        inf | (1 << (m - 1)),   // quiet NaN
        inf | 1,                // signalling NaN
    ];
    let mut out = [0; 18];
    for (i, &p) in positive.iter().enumerate() {
        out[i] = p;
        out[9 + i] = p | f.sign_bit();
    }
    out
}

/// A lane value of `f`: a special one time in four, random bits otherwise.
fn lane_value(rng: &mut Rng, f: Format) -> u64 {
    if rng.below(4) == 0 {
        specials(f)[rng.below(18) as usize]
    } else {
        let bits = f.bits();
        if bits == 64 { rng.next_u64() } else { rng.next_u64() & ((1u64 << bits) - 1) }
    }
}

fn fill_reg(rng: &mut Rng, reg: &mut [u8; REG_BYTES], f: Format) {
    let eb = f.bytes();
    for i in 0..REG_BYTES / eb {
        set_lane(reg, eb, i, lane_value(rng, f));
    }
}

/// A random state for lane width `lw`: X and Y in its X/Y format, Z in its Z format.
pub fn random_state_of(rng: &mut Rng, lw: LaneWidth) -> State {
    let mut s = State::zeroed();
    for r in 0..XY_REGS {
        fill_reg(rng, &mut s.X[r], lw.xyT());
        fill_reg(rng, &mut s.Y[r], lw.xyT());
    }
    for z in s.Z.iter_mut() {
        fill_reg(rng, z, lw.zT());
    }
    s
}

fn run(chip: Chip, s: &State, program: &[Operand]) -> State {
    let mut out = s.clone();
    for &op in program {
        amx_reference::vecfp(&mut out, chip, op);
    }
    out
}

/// `full` cut down to the registers that matter for `program` (module docs).
fn minimal_pre(chip: Chip, full: &State, program: &[Operand]) -> State {
    let after = run(chip, full, program);
    let mut pre = State::zeroed();
    for r in 0..full.Z.len() {
        if after.Z[r] != full.Z[r] {
            pre.Z[r] = full.Z[r];
        }
    }
    for r in 0..XY_REGS {
        for xy in [XY::X, XY::Y] {
            let mut changed = full.clone();
            let reg = if xy == XY::X { &mut changed.X[r] } else { &mut changed.Y[r] };
            for b in reg.iter_mut() {
                *b = !*b;
            }
            if run(chip, &changed, program).Z != after.Z {
                if xy == XY::X {
                    pre.X[r] = full.X[r];
                } else {
                    pre.Y[r] = full.Y[r];
                }
            }
        }
    }
    pre
}

/// One vector under construction.
struct Case {
    name: String,
    mode: String,
    tags: Vec<String>,
    program: Vec<Operand>,
    pre: State,
}

fn vector(chip: Chip, stem: &str, c: Case) -> AmxVector {
    let after = run(chip, &c.pre, &c.program);
    AmxVector {
        id: format!("{stem}/{}", c.name),
        mode: c.mode,
        tags: c.tags,
        program: c.program.iter().map(|&op| AmxWord::of(op)).collect(),
        pre: StateDoc::from_state(&c.pre),
        post: StateDoc::changes(&c.pre, &after),
    }
}

/// `op` with `fields` set (every value the generator uses fits its field).
fn with(op: Operand, fields: &[(Field, u64)]) -> Operand {
    fields.iter().fold(op, |o, &(f, v)| o.with(f, v).unwrap_or(o))
}

/// The base class of `lw`: FMA, identity shuffles, every lane (mode 0, N = 0).
fn base(lw: LaneWidth) -> Operand {
    with(Operand::ZERO, &[(Field::LW, lw.code())])
}

/// The one-factor cases of `lw` on `chip`: (axis, class name, operand).
fn one_factor(chip: Chip, lw: LaneWidth) -> Vec<(&'static str, String, Operand)> {
    let b = base(lw);
    let mut out = vec![("base", "base".to_string(), b)];
    for s in classes::sources(chip).into_iter().filter(|&s| s != Source::Alu(AluMode::Fma)) {
        let class = classes::Class { lw, source: s, XSHUF: 0, YSHUF: 0, select: SelectClass::Mode0 { N: 0 } };
        out.push(("source", source_name(s), class.operand()));
    }
    for sh in 1..4u64 {
        out.push(("shuffle", format!("xshuf={sh}"), with(b, &[(Field::XSHUF, sh)])));
        out.push(("shuffle", format!("yshuf={sh}"), with(b, &[(Field::YSHUF, sh)])));
    }
    for sel in classes::select_classes(chip).into_iter().filter(|&s| s != SelectClass::Mode0 { N: 0 }) {
        let class = classes::Class { lw, source: Source::Alu(AluMode::Fma), XSHUF: 0, YSHUF: 0, select: sel };
        out.push(("select", select_name(sel), class.operand()));
    }
    // Offsets: unaligned, and a window wrapping past byte 511.
    out.push(("offset", "x-unaligned".to_string(), with(b, &[(Field::XOFF, 0x23)])));
    out.push(("offset", "x-wrap".to_string(), with(b, &[(Field::XOFF, 0x1E8)])));
    out.push(("offset", "y-unaligned".to_string(), with(b, &[(Field::YOFF, 0x45)])));
    out.push(("offset", "y-wrap".to_string(), with(b, &[(Field::YOFF, 0x1F9)])));
    // Where M4's masking applies (bit 31 = 1): indexed loads and multi-vector BMODEs with
    // unaligned offsets, on every chip (M1 ignores bit 31; M2 does not mask), so the three
    // profiles can be compared.
    if chip >= Chip::M2 {
        for s in classes::sources(chip).into_iter().filter(|s| matches!(s, Source::Indexed { .. })) {
            let class =
                classes::Class { lw, source: s, XSHUF: 0, YSHUF: 0, select: SelectClass::Mode0 { N: 0 } };
            let op = with(class.operand(), &[(Field::MULTI, 1), (Field::XOFF, 0x1B), (Field::YOFF, 0x2D)]);
            out.push(("offset", format!("{}-multi-unaligned", source_name(s)), op));
        }
        for bm in [Bmode::ALL[6], Bmode::ALL[7]] {
            let sel = SelectClass::Multi { BMODE: bm, FOUR: true };
            let class =
                classes::Class { lw, source: Source::Alu(AluMode::Fma), XSHUF: 0, YSHUF: 0, select: sel };
            let op = with(class.operand(), &[(Field::XOFF, 0x0C), (Field::YOFF, 0x31)]);
            out.push(("offset", format!("{}-unaligned", select_name(sel)), op));
        }
    }
    out.push(("zrow", "zrow=1".to_string(), with(b, &[(Field::ZROW, 1)])));
    if chip >= Chip::M2 {
        let sel = SelectClass::Multi { BMODE: Bmode::ALL[0], FOUR: true };
        let class = classes::Class { lw, source: Source::Alu(AluMode::Fma), XSHUF: 0, YSHUF: 0, select: sel };
        out.push(("zrow", "multi-zrow-high-bits".to_string(), with(class.operand(), &[(Field::ZROW, 0x3D)])));
    }
    out
}

/// One cell of `chip`'s coverage matrix: a semantic class of the notes' table (§4.2) as the
/// vectors cover it. `axis` is the matrix row (`source`, `shuffle`, `select`, `offset`, `zrow`,
/// `base`, `nop`, `numeric`, `named`), `mode` the class within it (`f32/fms`, `bf16/xshuf=2`,
/// `m1-alu-10`), `op` the class's operand and `lw` the lane width of its random states.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AmxCell {
    /// The matrix row.
    pub axis: String,
    /// The class within it.
    pub mode: String,
    /// The operand of the class.
    pub op: Operand,
    /// The lane width whose formats its random states use.
    pub lw: LaneWidth,
}

/// Every cell of `chip`, in the order [`file()`] writes their vectors.
pub fn cells(chip: Chip) -> Vec<AmxCell> {
    let mut out = Vec::new();
    for &lw in LaneWidth::on(chip) {
        for (axis, class, op) in one_factor(chip, lw) {
            out.push(AmxCell { axis: axis.to_string(), mode: format!("{}/{class}", lw_name(lw)), op, lw });
        }
    }
    for (class, op) in classes::nop_operands(chip) {
        let mode = format!("{class:?}-alu{}", op.get(Field::ALU)).to_ascii_lowercase();
        out.push(AmxCell { axis: "nop".to_string(), mode, op, lw: LaneWidth::F32 });
    }
    for &lw in LaneWidth::on(chip) {
        for &alu in AluMode::valid_on(chip) {
            let op = with(base(lw), &[(Field::ALU, alu.code())]);
            out.push(AmxCell {
                axis: "numeric".to_string(),
                mode: format!("{}/{}", lw_name(lw), alu_name(alu)),
                op,
                lw,
            });
        }
    }
    if chip == Chip::M1 {
        let op = with(base(LaneWidth::F32), &[(Field::MULTI, 1)]);
        out.push(AmxCell {
            axis: "named".to_string(),
            mode: "bit31-ignored".to_string(),
            op,
            lw: LaneWidth::F32,
        });
    }
    // Operand 0 has LW 0: f16 on M1, bf16 on M2+ (§1.2).
    let lw0 = if chip == Chip::M1 { LaneWidth::F16 } else { LaneWidth::Bf16 };
    out.push(AmxCell {
        axis: "named".to_string(),
        mode: "operand-zero".to_string(),
        op: Operand::ZERO,
        lw: lw0,
    });
    if chip >= Chip::M2 {
        let op = base(LaneWidth::Bf16);
        out.push(AmxCell {
            axis: "named".to_string(),
            mode: "bf16-double-rounding".to_string(),
            op,
            lw: LaneWidth::Bf16,
        });
    }
    out
}

/// The cell (row, class) of the vector `id` of a file with stem `stem`: the id's parts after the
/// stem, the first being the row; a numeric-edge vector's last part (its number) is not part of
/// its class.
pub fn cell_of(stem: &str, id: &str) -> Option<(String, String)> {
    let rest = id.strip_prefix(stem)?.strip_prefix('/')?;
    let (axis, class) = rest.split_once('/')?;
    let class = if axis == "numeric" { class.rsplit_once('/')?.0 } else { class };
    Some((axis.to_string(), class.to_string()))
}

/// The vectors of `chip`.
pub fn file(chip: Chip, seed: u64) -> AmxVectorFile {
    let stem = file_stem(chip);
    let mut vectors = Vec::new();
    for &lw in LaneWidth::on(chip) {
        for (axis, class, op) in one_factor(chip, lw) {
            let name = format!("{axis}/{}/{class}", lw_name(lw));
            let mut rng = Rng::stream(seed, &format!("{stem}/{name}"));
            let full = random_state_of(&mut rng, lw);
            let pre = minimal_pre(chip, &full, &[op]);
            let case = Case {
                name,
                mode: format!("{axis}={class}"),
                tags: vec![format!("axis={axis}"), format!("lw={}", lw_name(lw))],
                program: vec![op],
                pre,
            };
            vectors.push(vector(chip, &stem, case));
        }
    }
    let nops: Vec<(String, Operand)> = classes::nop_operands(chip)
        .into_iter()
        .map(|(class, op)| (format!("{class:?}-alu{}", op.get(Field::ALU)).to_ascii_lowercase(), op))
        .collect();
    for (class, op) in nops {
        let name = format!("nop/{class}");
        let mut rng = Rng::stream(seed, &format!("{stem}/{name}"));
        let mut pre = random_state_of(&mut rng, LaneWidth::F32);
        // A no-op changes nothing: keep a few registers so an implementation that writes shows it.
        for r in 0..pre.Z.len() {
            if r % 16 != 0 {
                pre.Z[r] = [0; REG_BYTES];
            }
        }
        for r in 1..XY_REGS {
            pre.X[r] = [0; REG_BYTES];
            pre.Y[r] = [0; REG_BYTES];
        }
        let case = Case {
            name,
            mode: format!("nop={class}"),
            tags: vec!["axis=nop".to_string()],
            program: vec![op],
            pre,
        };
        vectors.push(vector(chip, &stem, case));
    }
    for &lw in LaneWidth::on(chip) {
        for &alu in AluMode::valid_on(chip) {
            for k in 0..2u64 {
                let name = format!("numeric/{}/{}/{k}", lw_name(lw), alu_name(alu));
                let (xs, zs) = (specials(lw.xyT()), specials(lw.zT()));
                let mut pre = State::zeroed();
                let ec = lw.EC() as u64;
                for i in 0..ec {
                    let j = i + k * ec;
                    set_lane(&mut pre.X[0], lw.eb(), i as usize, xs[(j % 18) as usize]);
                    set_lane(&mut pre.Y[0], lw.eb(), i as usize, xs[((j * 7 + 3 + k) % 18) as usize]);
                }
                let zb = lw.zT().bytes();
                let rows = if lw.is_pair() { 2 } else { 1 };
                for row in 0..rows {
                    for i in 0..REG_BYTES / zb {
                        let j = (i + row * 16) as u64 + k * ec;
                        set_lane(&mut pre.Z[row], zb, i, zs[((j * 5 + 11) % 18) as usize]);
                    }
                }
                let op = with(base(lw), &[(Field::ALU, alu.code())]);
                let case = Case {
                    name,
                    mode: format!("numeric={}", alu_name(alu)),
                    tags: vec!["numeric-edge".to_string(), format!("lw={}", lw_name(lw))],
                    program: vec![op],
                    pre,
                };
                vectors.push(vector(chip, &stem, case));
            }
        }
    }
    if chip == Chip::M1 {
        // Bit 31 is ignored on M1: a "multi" operand is the writemask instruction (and the
        // fields of the multi view are its writemask fields).
        let name = "named/bit31-ignored".to_string();
        let op = with(base(LaneWidth::F32), &[(Field::MULTI, 1)]);
        let mut rng = Rng::stream(seed, &format!("{stem}/{name}"));
        let full = random_state_of(&mut rng, LaneWidth::F32);
        let pre = minimal_pre(chip, &full, &[op]);
        let case = Case {
            name,
            mode: "named=bit31-ignored".to_string(),
            tags: vec!["named".to_string()],
            program: vec![op],
            pre,
        };
        vectors.push(vector(chip, &stem, case));
    }
    {
        // Operand 0 (§1.2): an FMA into z[0], f16 on M1 and bf16 on M2+. The same bits,
        // x = 0x3c00 and y = 0x4000, are 1 × 2 in f16 and 2^-7 × 2 in bf16.
        let mut pre = State::zeroed();
        set_lane(&mut pre.X[0], 2, 0, 0x3c00);
        set_lane(&mut pre.Y[0], 2, 0, 0x4000);
        let case = Case {
            name: "named/operand-zero".to_string(),
            mode: "named=operand-zero".to_string(),
            tags: vec!["named".to_string()],
            program: vec![Operand::ZERO],
            pre,
        };
        vectors.push(vector(chip, &stem, case));
    }
    if chip >= Chip::M2 {
        // §5's bf16 example: x = 0x3f81, y = 0x3fc0, z = 0x8001; the exact product is a bf16
        // midpoint and the tiny negative z decides the direction (down).
        let mut pre = State::zeroed();
        set_lane(&mut pre.X[0], 2, 0, 0x3f81);
        set_lane(&mut pre.Y[0], 2, 0, 0x3fc0);
        set_lane(&mut pre.Z[0], 2, 0, 0x8001);
        let op = base(LaneWidth::Bf16);
        let case = Case {
            name: "named/bf16-double-rounding".to_string(),
            mode: "named=bf16-double-rounding".to_string(),
            tags: vec!["named".to_string(), "lw=bf16".to_string()],
            program: vec![op],
            pre,
        };
        vectors.push(vector(chip, &stem, case));
    }
    AmxVectorFile {
        format: FORMAT.to_string(),
        isa: "amx".to_string(),
        chip: chip.name().to_string(),
        file: stem,
        provenance: PROVENANCE.to_string(),
        vectors,
    }
}
