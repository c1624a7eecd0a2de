//! The pages Wormhole B0 does not share with Blackhole A0: its own versions of pages both chips
//! have. One module per instruction family, named as in [`crate::ops`] and in the same shape as
//! [`super::blackhole`]. (Wormhole has no instructions of its own; it lacks SFPGT, SFPLE,
//! SFPMUL24 and SFPARECIP, which `exec/models.rs` reports as [`Clause::NotOnChip`].)
//!
//! * [`load_store`]: SFPLOAD, SFPSTORE (no `Sp`, INT8 ±127, `INT32_SM` / `INT8_COMP` conversions,
//!   raw FP32 store).
//! * [`integer`]: SFPSHFT (logical only), SFPAND, SFPOR (no `VB`).
//! * [`cc`]: SFPPUSHC (push only), SFPPOPC (the full-stack bug).
//! * [`convert`]: SFPCAST (`Mod1 & 1`).
//! * [`shuffle`]: SFPSHFT2 (mode 4's stale lane and its latch; modes 7..15 undefined).
//!
//! Shared pages with a Wormhole difference at one point (the FMA numerics of the MAD family and
//! the LUTs, the MAD family's unnamed `Mod1` bits, SFPSTOCHRND's one-bit rounding field, `Dst`
//! without remapping, `AddrMod`'s two bits) check the chip there, in [`crate::ops`].
//!
//! [`Clause::NotOnChip`]: sfpu_reference::outcome::Clause::NotOnChip

pub mod cc;
pub mod convert;
pub mod integer;
pub mod load_store;
pub mod shuffle;
