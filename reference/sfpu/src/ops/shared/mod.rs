//! The instruction pages both chips share: one transcription serves Blackhole A0 and Wormhole
//! B0 (the Blackhole pages of most are stubs pointing to the Wormhole page; each module names the
//! revisions it compared).

pub mod cc;
pub mod config;
pub mod dst_formats;
pub mod field;
pub mod integer;
pub mod lut;
pub mod mov;
pub mod shuffle;
