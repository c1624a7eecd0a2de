//! Random kernels: programs built from a small grammar of the layer (arithmetic, assignments
//! under predication, chains nested up to four deep with `&`, `|`, `!`, `v_block` / `v_and`,
//! `vec_min_max`, `lut`, field operations, stores), checked the same way as the corpus: the
//! lowered program on each model leaves exactly what the lane-by-lane meaning gives. Kernels the
//! lowering rejects (more than eight live values, the flag stack) must be rejected with an error,
//! never a panic.

use crate::common::*;
use proptest::prelude::*;
use sfpi::rng::Rng;
use sfpi::run::{Engine, compare, lint_findings, run, undefined_notes};
use sfpi::*;

struct Gen<'a> {
    rng: &'a mut Rng,
}

impl Gen<'_> {
    fn pick(&mut self, n: usize) -> usize {
        (self.rng.next_u32() as usize) % n
    }

    fn literal(&mut self) -> f32 {
        [0.0, 1.0, -1.5, 0.25, 3.0, 1.2, -0.0][self.pick(7)]
    }

    fn expr(&mut self, v: &[vFloat]) -> vFloat {
        let (a, b) = (v[self.pick(v.len())], v[self.pick(v.len())]);
        match self.pick(9) {
            0 => a + b,
            1 => a - b,
            2 => a * b,
            3 => a * b + self.literal(),
            4 => a - self.literal(),
            5 => -a,
            6 => abs(a),
            7 => setsgn(a, b),
            _ => addexp(a, self.pick(3) as i32 - 1),
        }
    }

    fn cond(&mut self, v: &[vFloat], depth: u32) -> VCond {
        let a = v[self.pick(v.len())];
        let leaf = |g: &mut Self| {
            let b = v[g.pick(v.len())];
            match g.pick(8) {
                0 => a.lt(b),
                1 => a.le(g.literal()),
                2 => a.gt(0.0),
                3 => a.ge(b),
                4 => a.eq(g.literal()),
                5 => a.ne(0.0),
                6 => VCond::from(exexp(a)),
                _ => exexp(a).ge(g.pick(5) as i32 - 2),
            }
        };
        match (self.pick(5), depth) {
            (0, d) if d < 2 => self.cond(v, d + 1) & self.cond(v, d + 1),
            (1, d) if d < 2 => self.cond(v, d + 1) | self.cond(v, d + 1),
            (2, d) if d < 2 => !self.cond(v, d + 1),
            _ => leaf(self),
        }
    }

    fn block(&mut self, v: &mut [vFloat], depth: u32) {
        let steps = 1 + self.pick(4);
        for _ in 0..steps {
            match self.pick(if depth < 4 { 10 } else { 6 }) {
                0 | 1 => {
                    let i = self.pick(v.len());
                    let e = self.expr(v);
                    v[i].assign(e);
                }
                2 => {
                    let i = self.pick(v.len());
                    let k = self.literal();
                    v[i] += k;
                }
                3 => {
                    let (i, j) = (self.pick(v.len()), self.pick(v.len()));
                    if i != j {
                        let (lo, hi) = (i.min(j), i.max(j));
                        let (x, y) = v.split_at_mut(hi);
                        vec_min_max(&mut x[lo], &mut y[0]);
                    }
                }
                4 => {
                    let n = self.pick(4);
                    let e = self.expr(v);
                    dst_reg[8 + n].set(e);
                }
                5 => {
                    let i = self.pick(v.len());
                    let t = [0x30FFu32, 0x0010, 0x8020];
                    let r = lut(v[i], vUInt::from(t[0]), vUInt::from(t[1]), vUInt::from(t[2]), 0);
                    v[i].assign(r);
                }
                6 | 7 => {
                    let c = self.cond(v, 0);
                    let chain = v_if(c, || self.block(v, depth + 1));
                    let chain = if self.pick(2) == 0 {
                        let c2 = self.cond(v, 0);
                        chain.v_elseif(c2, || self.block(v, depth + 1))
                    } else {
                        chain
                    };
                    if self.pick(2) == 0 {
                        chain.v_else(|| self.block(v, depth + 1)).v_endif();
                    } else {
                        chain.v_endif();
                    }
                }
                8 => v_block(|| {
                    let c = self.cond(v, 1);
                    v_and(c);
                    self.block(v, depth + 1);
                }),
                _ => {
                    let c = self.cond(v, 0);
                    v_if(c, || {
                        let c2 = self.cond(v, 1);
                        v_and(c2);
                        self.block(v, depth + 1);
                    })
                    .v_else(|| self.block(v, depth + 1))
                    .v_endif();
                }
            }
        }
    }
}

fn random_kernel(seed: u64) -> Result<Kernel, KernelError> {
    let mut rng = Rng::new(seed, 99);
    Kernel::record("random", || {
        let mut g = Gen { rng: &mut rng };
        let mut v: Vec<vFloat> = (0..3).map(|n| vFloat::from(dst_reg[n])).collect();
        g.block(&mut v, 0);
        for (n, x) in v.iter().enumerate() {
            dst_reg[4 + n].set(*x);
        }
    })
}

fn check(seed: u64) -> Result<bool, TestCaseError> {
    let k = random_kernel(seed).map_err(|e| TestCaseError::fail(format!("recording: {e}")))?;
    let mut rng = Rng::new(seed, 5);
    let values: Vec<(u32, [u32; 32])> =
        (0..12).map(|n| (n, std::array::from_fn(|_| ((rng.unit() * 8.0 - 4.0) as f32).to_bits()))).collect();
    let mut lowered_somewhere = false;
    for arch in CHIPS {
        let ck = match k.for_chip(arch) {
            Ok(c) => c,
            Err(e) => return Err(TestCaseError::fail(format!("{arch}: {e}"))),
        };
        let lowered = match ck.lower() {
            Ok(l) => l,
            Err(KernelError::OutOfRegisters { .. } | KernelError::FlagStackOverflow { .. }) => continue,
            Err(e) => return Err(TestCaseError::fail(format!("{arch}: {e}"))),
        };
        lowered_somewhere = true;
        let program = lowered.program(2).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let initial = state(arch, tile::TileFormat::Fp32, &values, &[]);
        let findings = lint_findings(&program, &initial);
        prop_assert!(
            findings.is_empty(),
            "{arch}: lint {findings:?}\n{}",
            lowered.text(2).unwrap_or_default()
        );
        let expected = meaning::evaluate(&ck, &initial, 2).map_err(|e| TestCaseError::fail(e.to_string()))?;
        for engine in [Engine::Reference, Engine::Fast] {
            if !engine.supports(arch) {
                continue;
            }
            let r = run(engine, &program, &initial).map_err(TestCaseError::fail)?;
            prop_assert!(undefined_notes(&r).is_empty(), "{arch}: {:?}", undefined_notes(&r));
            let mm = compare(&expected, &r.state);
            prop_assert!(
                mm.is_empty(),
                "seed {seed}, {arch}, {} model: {} mismatches, first {:?}\n{}",
                engine.name(),
                mm.len(),
                mm.first(),
                lowered.text(2).unwrap_or_default()
            );
        }
    }
    Ok(lowered_somewhere)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn random_kernels_do_what_they_mean(seed in any::<u64>()) {
        check(seed)?;
    }
}

/// Most random kernels fit the registers and the flag stack (so the property above checks
/// something).
#[test]
fn most_random_kernels_lower() {
    let lowered = (0..100u64).filter(|&s| matches!(check(s), Ok(true))).count();
    assert!(lowered >= 80, "{lowered} of 100");
}

/// A longer run: `SFPI_RANDOM_KERNELS=20000 cargo test -p sfpi --test it random_kernels:: -- --ignored`.
#[test]
#[ignore = "a longer campaign, run by hand"]
fn many_random_kernels() {
    let n: u64 = std::env::var("SFPI_RANDOM_KERNELS").ok().and_then(|v| v.parse().ok()).unwrap_or(5000);
    for seed in 0..n {
        if let Err(e) = check(seed) {
            panic!("seed {seed}: {e}");
        }
    }
}
