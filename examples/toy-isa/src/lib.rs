//! A toy instruction set that runs through the whole harness: four lanes of 32-bit integers,
//! eight registers and twelve instructions ([`isa`]), a literal reference model
//! ([`reference`](mod@reference)), a fast model written apart from it ([`fast`]), and the harness's seam
//! implemented for it ([`harness`]: golden vectors, random cases, the `toy-dut/1` protocol).
//!
//! It is the guide to adding an instruction set (README.md): nothing outside this folder names
//! it. Its tests register it beside the SFPU and AMX (`DRIVER` in the command's registry) and run
//! it through `conform`, the DUT protocol (`dut.py` is its template DUT), replay, sharding, the
//! report and the fuzz oracle.

#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod fast;
pub mod harness;
pub mod isa;
pub mod reference;

pub use harness::Toy;

/// The toy as the command line sees it: the one line a registry needs.
pub static DRIVER: harness_core::driver::IsaDriver<Toy> = harness_core::driver::IsaDriver::NEW;
