//! The integration tests of `harness-sfpu`, one binary (as regex-automata's): a module per
//! subject. The golden vectors and their loader, the IEEE 754 characterisation, the DUT protocol
//! end to end, the fuzz oracles, the differential property tests, the program forms, the report
//! renderers on a sample with every cell status, the SFPU's random campaign through the core.
//! The browser test of the HTML report is its own harness (`tests/report_browser.rs`).

mod alloc;
mod campaign;
mod campaign_memory;
mod dut;
mod fuzz_alloc;
mod fuzz_complete;
mod fuzz_stable;
mod fuzz_triage;
mod ieee;
mod loader;
mod programs;
mod prop_common;
mod prop_instructions;
mod prop_streams;
mod protocol_docs;
mod report;
mod report_sample;
mod spec_docs;
mod vectors;
mod wormhole_vectors;
