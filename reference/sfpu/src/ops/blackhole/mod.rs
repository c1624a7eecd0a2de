//! Blackhole A0's own instruction pages: those whose functional model differs from Wormhole's,
//! and the instructions only Blackhole has (SFPARECIP, SFPGT, SFPLE, SFPMUL24).

pub mod arecip;
pub mod cc;
pub mod convert;
pub mod integer;
pub mod load_store;
pub mod mad;
pub mod shuffle;
