//! Helpers shared by the sfpi integration tests.
//!
//! Expected values in the tests never come from the code under test: they come from seed 003's
//! descriptions, the specification notes, hand calculation written next to the assertion, or an
//! independent oracle (Rust's `f32`/`f64`). The helpers run a kernel's lowered program on the
//! reference model (for both chips) and also check, every time, that the machine agrees with the
//! kernel's meaning and that the program is clean under the scheduling linter.

use sfpi::run::{Engine, compare, lint_findings, run, undefined_notes};
use sfpi::tile::{self, TileFormat};
use sfpi::{Arch, Kernel, KernelError};
use sfpu_reference::state::{ResetValues, State};

/// Both chips.
pub const CHIPS: [Arch; 2] = Arch::ALL;

/// Rows of input: `(dst_reg index, 32 lanes as the format's elements)`.
pub type Rows<'a> = &'a [(u32, [u32; 32])];

/// 32 lanes of the same FP32 value.
pub fn splat(x: f32) -> [u32; 32] {
    [x.to_bits(); 32]
}

/// 32 lanes from a function of the lane.
pub fn lanes(f: impl Fn(usize) -> u32) -> [u32; 32] {
    std::array::from_fn(f)
}

/// The initial state: `format`'s Dst mode, zeros elsewhere, `rows` written, and `lreg` values in
/// LRegs 0..=7 if given.
pub fn state(arch: Arch, format: TileFormat, rows: Rows<'_>, lregs: &[(usize, [u32; 32])]) -> State {
    let mut s = State::reset(arch, &ResetValues::ZEROS);
    tile::configure(&mut s, format);
    for &(n, values) in rows {
        for (lane, &v) in values.iter().enumerate() {
            tile::write_native(arch, &mut s.Dst, format, 2 * n, lane, v);
        }
    }
    for &(r, v) in lregs {
        s.LReg[r] = v;
    }
    s
}

/// Runs `k` (one row) on `arch` from `initial`, after checking that the program lints clean, that
/// the model notes nothing undefined, and that the machine's result is the kernel's meaning.
pub fn run_on(arch: Arch, k: &Kernel, initial: &State) -> Result<State, KernelError> {
    run_rows(arch, k, initial, 1)
}

/// As [`run_on`], for `rows` rows (row `r` sees `dst_reg[n]` at `n + r`).
pub fn run_rows(arch: Arch, k: &Kernel, initial: &State, rows: u32) -> Result<State, KernelError> {
    let ck = k.for_chip(arch)?;
    let lowered = ck.lower()?;
    let program = lowered.program(rows)?;
    let lint = lint_findings(&program, initial);
    assert!(lint.is_empty(), "{} on {arch}: lint findings {lint:?}\n{}", k.name, lowered.text(rows)?);
    let r = run(Engine::Reference, &program, initial).expect("the reference model runs every chip");
    let notes = undefined_notes(&r);
    assert!(notes.is_empty(), "{} on {arch}: {notes:?}", k.name);
    let expected = sfpi::meaning::evaluate(&ck, initial, rows)?;
    let mismatches = compare(&expected, &r.state);
    assert!(
        mismatches.is_empty(),
        "{} on {arch}: machine != meaning: {:?}\n{}",
        k.name,
        &mismatches[..mismatches.len().min(8)],
        lowered.text(1)?
    );
    Ok(r.state)
}

/// Records `body`, runs it on `arch` over FP32 rows, and returns the final state.
pub fn run_fp32(arch: Arch, rows: Rows<'_>, body: impl FnOnce()) -> State {
    run_mixed(arch, rows, &[], body)
}

/// Records `body`, runs it on `arch` with FP32 rows `frows` and 32-bit integer rows `irows`
/// (two's complement values, in the chip's Dst encoding), and returns the final state.
pub fn run_mixed(arch: Arch, frows: Rows<'_>, irows: Rows<'_>, body: impl FnOnce()) -> State {
    let k = Kernel::record("test", body).expect("the test kernel records");
    let mut s = state(arch, TileFormat::Fp32, frows, &[]);
    for &(n, values) in irows {
        for (lane, &v) in values.iter().enumerate() {
            tile::write_native(arch, &mut s.Dst, TileFormat::Int32, 2 * n, lane, v);
        }
    }
    run_on(arch, &k, &s).expect("the test kernel lowers")
}

/// Records `body` (with an init part) and runs it on `arch` over FP32 rows.
pub fn run_with_init(arch: Arch, rows: Rows<'_>, init: impl FnOnce(), body: impl FnOnce()) -> State {
    let k = Kernel::record_with_init("test", init, body).expect("the test kernel records");
    run_on(arch, &k, &state(arch, TileFormat::Fp32, rows, &[])).expect("the test kernel lowers")
}

/// `dst_reg[n]` read as a `vFloat` would (FP32 mode).
pub fn row(s: &State, n: u32) -> [u32; 32] {
    let mode = tile::float_mode(s);
    std::array::from_fn(|lane| tile::load(s.arch(), &s.Dst, true, mode, 2 * n, lane))
}

/// `dst_reg[n]` read as a `vInt` would.
pub fn int_row(s: &State, n: u32) -> [u32; 32] {
    let mode = tile::float_mode(s);
    std::array::from_fn(|lane| tile::load(s.arch(), &s.Dst, false, mode, 2 * n, lane))
}

/// `dst_reg[n]` as FP32 values.
pub fn frow(s: &State, n: u32) -> [f32; 32] {
    row(s, n).map(f32::from_bits)
}

/// Every lane of `v` equals `want`.
pub fn all(v: [u32; 32], want: u32) -> bool {
    v.iter().all(|&x| x == want)
}
