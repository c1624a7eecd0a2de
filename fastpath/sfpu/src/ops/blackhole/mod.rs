//! The pages Blackhole A0 does not share with Wormhole B0: its own versions of pages both chips
//! have, and its own instructions. One module per instruction family, named as in [`crate::ops`];
//! Wormhole's versions of the same pages are in [`super::wormhole`], in the same shape.
//!
//! * [`load_store`]: SFPLOAD, SFPSTORE (the `Sp` term and stack, `SFPU_DEST_FMT`, the deprecated
//!   raw `INT32_SM` / `INT8_COMP`, the flushing FP32 store).
//! * [`integer`]: SFPSHFT (arithmetic, `ARG_IMM_USE_VC`), SFPAND, SFPOR (`USE_VB`).
//! * [`cc`]: SFPPUSHC (`Mod1`), SFPPOPC (no full-stack bug), SFPGT, SFPLE (Blackhole only).
//! * [`convert`]: SFPCAST (`INT32_ABS`, `INT32_SM32`).
//! * [`shuffle`]: SFPSHFT2 (mode 4 shifts in zeros).
//! * [`mul24`]: SFPMUL24 (Blackhole only).
//! * [`arecip`]: SFPARECIP (Blackhole only).

pub mod arecip;
pub mod cc;
pub mod convert;
pub mod integer;
pub mod load_store;
pub mod mul24;
pub mod shuffle;
