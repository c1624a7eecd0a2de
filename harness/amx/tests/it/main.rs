//! The integration tests of `harness-amx`, one binary: the golden vectors (current, passed by both
//! models, covering every class), AMX through the core's session (every cell tested, a planted bug
//! found and replayed), and the template DUT over `amx-dut/1`.

mod conform;
mod dut;
mod vectors;

use std::path::{Path, PathBuf};

use amx_reference::Chip;
use harness_amx::Amx;
use harness_core::campaign::Limit;
use harness_core::isa::Model;
use harness_core::observe::Silent;
use harness_core::report::{ChipReport, ModelInfo};
use harness_core::session::{Implementation, Options, check_chip};

/// The repository's `vectors/amx`.
pub fn vectors_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../vectors/amx")
}

/// The report section of `chip` with `models` (reference first), `cases` random cases per class
/// and 16 times as many streams, the campaign seeded with `seed`, `keep` failures kept per cell.
pub fn section(chip: Chip, models: &[&dyn Model<Amx>], seed: u64, cases: u64, keep: usize) -> ChipReport {
    let options = Options {
        seed,
        limit: Limit::PerCell(cases),
        vectors: Some(vectors_dir()),
        keep_failures: Some(keep),
        ..Options::default()
    };
    let implementations: Vec<(Implementation<'_, Amx>, ModelInfo)> = models
        .iter()
        .map(|m| {
            let name = m.name();
            let kind =
                if name == "reference" || name == "fastpath" { name.clone() } else { "dut".to_string() };
            (Implementation::Builtin(*m), ModelInfo { name, kind, ..ModelInfo::default() })
        })
        .collect();
    check_chip::<Amx>(chip, &options, &implementations, &Silent)
        .unwrap_or_else(|e| panic!("{chip}: {e}"))
        .report
}
