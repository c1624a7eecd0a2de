//! The C99 integer types, as crates.io `c99` 0.1.1 provides them, for the crates that depend on it
//! (softfloat-sys, behind the IEEE 754 oracle softfloat-wrapper).
//!
//! The exact-width types are Rust's own. The `fast`, `least`, `max` and `ptr` types vary by
//! platform ABI (glibc on LP64 makes `int_fast32_t` a `long`; musl, Apple and Windows an `int`);
//! `build.rs` reads their widths from the target C compiler's `<stdint.h>`, the compiler that builds
//! SoftFloat, so Rust and C agree by construction. The upstream crate ran CMake to do the same;
//! this one needs only the C compiler softfloat-sys needs anyway.
#![allow(non_camel_case_types)]

pub type int8_t = i8;
pub type int16_t = i16;
pub type int32_t = i32;
pub type int64_t = i64;
pub type uint8_t = u8;
pub type uint16_t = u16;
pub type uint32_t = u32;
pub type uint64_t = u64;

include!(concat!(env!("OUT_DIR"), "/gen.rs"));

macro_rules! limits {
    ($($min:ident $max:ident : $t:ident;)*) => {$(
        #[doc = concat!("`", stringify!($min), "` of `<stdint.h>`.")]
        pub const $min: $t = $t::MIN;
        #[doc = concat!("`", stringify!($max), "` of `<stdint.h>`.")]
        pub const $max: $t = $t::MAX;
    )*};
}

macro_rules! umax {
    ($($max:ident : $t:ident;)*) => {$(
        #[doc = concat!("`", stringify!($max), "` of `<stdint.h>`.")]
        pub const $max: $t = $t::MAX;
    )*};
}

limits! {
    INT8_MIN INT8_MAX: int8_t;
    INT16_MIN INT16_MAX: int16_t;
    INT32_MIN INT32_MAX: int32_t;
    INT64_MIN INT64_MAX: int64_t;
    INT_FAST8_MIN INT_FAST8_MAX: int_fast8_t;
    INT_FAST16_MIN INT_FAST16_MAX: int_fast16_t;
    INT_FAST32_MIN INT_FAST32_MAX: int_fast32_t;
    INT_FAST64_MIN INT_FAST64_MAX: int_fast64_t;
    INT_LEAST8_MIN INT_LEAST8_MAX: int_least8_t;
    INT_LEAST16_MIN INT_LEAST16_MAX: int_least16_t;
    INT_LEAST32_MIN INT_LEAST32_MAX: int_least32_t;
    INT_LEAST64_MIN INT_LEAST64_MAX: int_least64_t;
    INTPTR_MIN INTPTR_MAX: intptr_t;
    INTMAX_MIN INTMAX_MAX: intmax_t;
}

umax! {
    UINT8_MAX: uint8_t;
    UINT16_MAX: uint16_t;
    UINT32_MAX: uint32_t;
    UINT64_MAX: uint64_t;
    UINT_FAST8_MAX: uint_fast8_t;
    UINT_FAST16_MAX: uint_fast16_t;
    UINT_FAST32_MAX: uint_fast32_t;
    UINT_FAST64_MAX: uint_fast64_t;
    UINT_LEAST8_MAX: uint_least8_t;
    UINT_LEAST16_MAX: uint_least16_t;
    UINT_LEAST32_MAX: uint_least32_t;
    UINT_LEAST64_MAX: uint_least64_t;
    UINTPTR_MAX: uintptr_t;
    UINTMAX_MAX: uintmax_t;
}
