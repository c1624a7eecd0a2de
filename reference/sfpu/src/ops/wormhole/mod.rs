//! Wormhole B0's own instruction pages: those whose functional model differs from Blackhole's,
//! side by side with [`ops::blackhole`](crate::ops::blackhole) (same file and function names).
//! Wormhole has no instruction Blackhole lacks.

pub mod cc;
pub mod convert;
pub mod integer;
pub mod load_store;
pub mod mad;
pub mod shuffle;
