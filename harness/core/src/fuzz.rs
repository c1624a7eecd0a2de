//! A differential fuzz oracle for any instruction set ([`diff_cases`]): the input's bytes choose
//! a chip, a campaign job, case numbers and a seed; each case ([`Isa::job_case`], the reference
//! model's result expected) runs on the fast model, and a difference is reported with the case's
//! replay id. cargo-fuzz targets are one-line wrappers; tests run it on random bytes for a
//! second. (An instruction set's own oracles go further: the SFPU's compares after every
//! instruction of a stream.)

use crate::check::Status;
use crate::isa::{Isa, Strictness};
use crate::vectors::run_case;

/// Runs the cases `data` names on `I`'s fast model against its reference: byte 0 picks the chip,
/// byte 1 the job, bytes 2..10 the seed, and every 4 bytes after them a case number of that job
/// (at most 16 cases). `Err` describes the first divergence (or a case the fast model failed to
/// run), with the replay line's arguments. Total: any bytes, no panic.
pub fn diff_cases<I: Isa>(data: &[u8]) -> Result<(), String> {
    let chips = I::chips();
    let Some(&chip) = chips.get(usize::from(data.first().copied().unwrap_or(0)) % chips.len().max(1)) else {
        return Ok(());
    };
    let jobs = I::jobs(chip);
    let Some(job) = jobs.get(usize::from(data.get(1).copied().unwrap_or(0)) % jobs.len().max(1)) else {
        return Ok(());
    };
    let mut seed = [0u8; 8];
    for (i, b) in data.iter().skip(2).take(8).enumerate() {
        seed[i] = *b;
    }
    let seed = u64::from_le_bytes(seed);
    let rest = data.get(10..).unwrap_or(&[]);
    for chunk in rest.chunks(4).take(16) {
        let mut n = [0u8; 4];
        n[..chunk.len()].copy_from_slice(chunk);
        let index = u64::from(u32::from_le_bytes(n));
        let Some(mut case) = I::job_case(chip, seed, job, index, Strictness::Silicon) else { continue };
        case.id = crate::campaign::case_id(&job.name, index);
        let result = run_case(I::fast(), chip, &case);
        let replay =
            format!("--isa {} --chip {} --seed {seed:#x} --replay {}", I::NAME, I::chip_name(chip), case.id);
        match result.status {
            Status::Pass | Status::Unsupported(_) | Status::NotApplicable(_) | Status::Interrupted => {}
            Status::Fail(f) => return Err(format!("{}\nreplay: conform {replay}", f.report)),
            Status::Error(e) => {
                return Err(format!("{}: the fast model failed: {e}\nreplay: conform {replay}", case.id));
            }
        }
    }
    Ok(())
}
