//! The mode constants of the instruction pages, named and valued exactly as each page's
//! "Supporting definitions" block names them (tt-isa-documentation BlackholeA0, and the WormholeB0
//! pages that the Blackhole stubs point to).
//!
//! A few pages define unprefixed names (`MOD0_FMT_*` on SFPLOAD/SFPSTORE, `MOD1_*` on SFPCONFIG);
//! they are kept unprefixed here, as written. [`DEFINITIONS`] lists every constant with the
//! page(s) defining it, so the text parser and the coverage tests can look names up; the test at
//! the bottom of this file checks it against the mirrored pages when they are available.

macro_rules! definitions {
    ($( $pages:literal { $($name:ident = $value:literal),* $(,)? } )*) => {
        $($(
            #[doc = concat!("`#define ", stringify!($name), " ", stringify!($value), "` (", $pages, ").")]
            pub const $name: u32 = $value;
        )*)*

        /// Every constant: its name, its value, and the page(s) whose supporting definitions
        /// give it.
        pub const DEFINITIONS: &[Definition] = &[$($(
            Definition { name: stringify!($name), value: $value, pages: $pages },
        )*)*];
    };
}

/// One `#define` from a page's supporting definitions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Definition {
    /// The macro name.
    pub name: &'static str,
    /// Its value.
    pub value: u32,
    /// The page(s) defining it.
    pub pages: &'static str,
}

/// The value of the constant called `name` (an upstream definition or one of the [`ALIASES`]),
/// if any.
pub fn lookup(name: &str) -> Option<u32> {
    DEFINITIONS.iter().chain(ALIASES).find(|d| d.name == name).map(|d| d.value)
}

/// Names that kernels use for the same values but that the pinned pages do not define: SFPI's
/// `sfpi_constants.h` and tt-llk spellings, and a correctly spelled twin of upstream's
/// `SFPSDIVP2_MOD1_ADD`. The text parser accepts them; nothing else in this crate uses them.
pub const ALIASES: &[Definition] = &[
    Definition { name: "SFPDIVP2_MOD1_ADD", value: 1, pages: "alias of SFPSDIVP2_MOD1_ADD" },
    Definition { name: "SFPEXEXP_MOD1_DEBIAS", value: 0, pages: "sfpi_constants.h" },
    Definition { name: "SFPEXEXP_MOD1_SET_CC_SGN_COMP_EXP", value: 10, pages: "sfpi_constants.h" },
    Definition { name: "SFPEXMAN_MOD1_PAD8", value: 0, pages: "sfpi_constants.h" },
    Definition {
        name: "SFPSETCC_MOD1_COMP",
        value: 8,
        pages: "sfpi_constants.h (upstream: SFPSETCC_MOD1_CLEAR)",
    },
    Definition {
        name: "SFPSTOCHRND_RND_EVEN",
        value: 0,
        pages: "tt-llk (upstream: SFPSTOCHRND_RND_NEAREST)",
    },
];

definitions! {
    "SFPLOAD.md, SFPSTORE.md" {
        MOD0_FMT_SRCB = 0, MOD0_FMT_FP16 = 1, MOD0_FMT_BF16 = 2, MOD0_FMT_FP32 = 3, MOD0_FMT_INT32 = 4,
        MOD0_FMT_INT8 = 5, MOD0_FMT_UINT16 = 6, MOD0_FMT_HI16 = 7, MOD0_FMT_INT16 = 8, MOD0_FMT_LO16 = 9,
        MOD0_FMT_INT32_ALL = 10, MOD0_FMT_ZERO = 11, MOD0_FMT_INT32_SM = 12, MOD0_FMT_INT8_COMP = 13,
        MOD0_FMT_LO16_ONLY = 14, MOD0_FMT_HI16_ONLY = 15,
    }
    "WormholeB0 SFPLOADI.md" {
        SFPLOADI_MOD0_FLOATB = 0, SFPLOADI_MOD0_FLOATA = 1, SFPLOADI_MOD0_USHORT = 2, SFPLOADI_MOD0_SHORT = 4,
        SFPLOADI_MOD0_UPPER = 8, SFPLOADI_MOD0_LOWER = 10,
    }
    "SFPLUT.md" {
        SFPLUT_MOD0_SGN_RETAIN = 4, SFPLUT_MOD0_INDIRECT_VD = 8,
    }
    "SFPMAD.md, SFPADDI.md, SFPMULI.md" {
        SFPMAD_MOD1_NEGATE_VA = 1, SFPMAD_MOD1_NEGATE_VC = 2, SFPMAD_MOD1_INDIRECT_VA = 4,
        SFPMAD_MOD1_INDIRECT_VD = 8,
    }
    "WormholeB0 SFPDIVP2.md (spelled SFPSDIVP2 there)" {
        SFPSDIVP2_MOD1_ADD = 1,
    }
    "WormholeB0 SFPEXEXP.md" {
        SFPEXEXP_MOD1_NODEBIAS = 1, SFPEXEXP_MOD1_SET_CC_SGN_EXP = 2, SFPEXEXP_MOD1_SET_CC_COMP_EXP = 8,
    }
    "WormholeB0 SFPEXMAN.md" {
        SFPEXMAN_MOD1_PAD9 = 1,
    }
    "WormholeB0 SFPIADD.md" {
        SFPIADD_MOD1_ARG_LREG_DST = 0, SFPIADD_MOD1_ARG_IMM = 1, SFPIADD_MOD1_ARG_2SCOMP_LREG_DST = 2,
        SFPIADD_MOD1_CC_LT0 = 0, SFPIADD_MOD1_CC_NONE = 4, SFPIADD_MOD1_CC_GTE0 = 8,
    }
    "SFPSHFT.md" {
        SFPSHFT_MOD1_ARG_IMM = 1, SFPSHFT_MOD1_ARITHMETIC = 2, SFPSHFT_MOD1_ARG_IMM_USE_VC = 4,
    }
    "WormholeB0 SFPSETCC.md" {
        SFPSETCC_MOD1_LREG_LT0 = 0, SFPSETCC_MOD1_IMM_BIT0 = 1, SFPSETCC_MOD1_LREG_NE0 = 2,
        SFPSETCC_MOD1_LREG_GTE0 = 4, SFPSETCC_MOD1_LREG_EQ0 = 6, SFPSETCC_MOD1_CLEAR = 8,
    }
    "WormholeB0 SFPMOV.md" {
        SFPMOV_MOD1_NEGATE = 1, SFPMOV_MOD1_ALL_LANES_ENABLED = 2, SFPMOV_MOD1_FROM_SPECIAL = 8,
    }
    "WormholeB0 SFPABS.md" {
        SFPABS_MOD1_INT = 0, SFPABS_MOD1_FLOAT = 1,
    }
    "SFPAND.md" {
        SFPAND_MOD1_USE_VB = 1,
    }
    "SFPOR.md" {
        SFPOR_MOD1_USE_VB = 1,
    }
    "SFPLZ.md" {
        SFPLZ_MOD1_CC_NE0 = 2, SFPLZ_MOD1_NOSGN_MASK = 4, SFPLZ_MOD1_CC_COMP = 8,
    }
    "WormholeB0 SFPSETEXP.md" {
        SFPSETEXP_MOD1_ARG_IMM = 1, SFPSETEXP_MOD1_ARG_EXPONENT = 2,
    }
    "WormholeB0 SFPSETMAN.md" {
        SFPSETMAN_MOD1_ARG_IMM = 1,
    }
    "WormholeB0 SFPSETSGN.md" {
        SFPSETSGN_MOD1_ARG_IMM = 1,
    }
    "SFPENCC.md" {
        SFPENCC_IMM2_E = 1, SFPENCC_IMM2_R = 2, SFPENCC_MOD1_EC = 1, SFPENCC_MOD1_EI = 2, SFPENCC_MOD1_RI = 8,
    }
    "SFPSTOCHRND_FloatFloat.md, SFPSTOCHRND_FloatInt.md, SFPSTOCHRND_IntInt.md" {
        SFPSTOCHRND_RND_NEAREST = 0, SFPSTOCHRND_RND_STOCH = 1, SFPSTOCHRND_RND_ZERO = 2,
        SFPSTOCHRND_MOD1_FP32_TO_FP16A = 0, SFPSTOCHRND_MOD1_FP32_TO_FP16B = 1,
        SFPSTOCHRND_MOD1_FP32_TO_UINT8 = 2, SFPSTOCHRND_MOD1_FP32_TO_INT8 = 3,
        SFPSTOCHRND_MOD1_INT32_TO_UINT8 = 4, SFPSTOCHRND_MOD1_INT32_TO_INT8 = 5,
        SFPSTOCHRND_MOD1_FP32_TO_UINT16 = 6, SFPSTOCHRND_MOD1_FP32_TO_INT16 = 7,
    }
    "SFPCAST_IntFloat.md, SFPCAST_IntInt.md, SFPCAST_IntAbs.md" {
        SFPCAST_MOD1_SM32_TO_FP32_RNE = 0, SFPCAST_MOD1_SM32_TO_FP32_RNS = 1, SFPCAST_MOD1_INT32_ABS = 2,
        SFPCAST_MOD1_INT32_SM32 = 3,
    }
    "WormholeB0 SFPCAST.md" {
        SFPCAST_MOD1_RND_STOCH = 1,
    }
    "SFPCONFIG.md" {
        MOD1_IMM16_IS_VALUE = 1, MOD1_BITWISE_OR = 2, MOD1_BITWISE_AND = 4, MOD1_BITWISE_XOR = 6,
        MOD1_IMM16_IS_LANE_MASK = 8,
    }
    "SFPSWAP.md" {
        SFPSWAP_MOD1_SWAP = 0, SFPSWAP_MOD1_VEC_MIN_MAX = 1, SFPSWAP_MOD1_SUBVEC_MIN01_MAX23 = 2,
        SFPSWAP_MOD1_SUBVEC_MIN02_MAX13 = 3, SFPSWAP_MOD1_SUBVEC_MIN03_MAX12 = 4,
        SFPSWAP_MOD1_SUBVEC_MIN0_MAX123 = 5, SFPSWAP_MOD1_SUBVEC_MIN1_MAX023 = 6,
        SFPSWAP_MOD1_SUBVEC_MIN2_MAX013 = 7, SFPSWAP_MOD1_SUBVEC_MIN3_MAX012 = 8,
    }
    "SFPSHFT2.md" {
        SFPSHFT2_MOD1_COPY4 = 0, SFPSHFT2_MOD1_SUBVEC_CHAINED_COPY4 = 1,
        SFPSHFT2_MOD1_SUBVEC_SHFLROR1_AND_COPY4 = 2, SFPSHFT2_MOD1_SUBVEC_SHFLROR1 = 3,
        SFPSHFT2_MOD1_SUBVEC_SHFLSHR1 = 4, SFPSHFT2_MOD1_SHFT_LREG = 5, SFPSHFT2_MOD1_SHFT_IMM = 6,
    }
    "SFPLUTFP32.md" {
        SFPLUTFP32_MOD1_FP32_3ENTRY_TABLE = 0, SFPLUTFP32_MOD1_FP16_6ENTRY_TABLE1 = 2,
        SFPLUTFP32_MOD1_FP16_6ENTRY_TABLE2 = 3, SFPLUTFP32_MOD1_SGN_RETAIN = 4,
        SFPLUTFP32_MOD1_INDIRECT_VD = 8, SFPLUTFP32_MOD1_FP16_3ENTRY_TABLE = 10,
    }
    "SFPGT.md" {
        SFPGT_MOD1_SET_CC = 1, SFPGT_MOD1_MUTATE_STACK = 2, SFPGT_MOD1_MUTATE_OR = 4, SFPGT_MOD1_SET_VD = 8,
    }
    "SFPLE.md" {
        SFPLE_MOD1_SET_CC = 1, SFPLE_MOD1_MUTATE_STACK = 2, SFPLE_MOD1_MUTATE_OR = 4, SFPLE_MOD1_SET_VD = 8,
    }
    "SFPMUL24.md" {
        SFPMUL24_MOD1_UPPER = 1, SFPMUL24_MOD1_INDIRECT_VA = 4, SFPMUL24_MOD1_INDIRECT_VD = 8,
    }
    "SFPARECIP.md" {
        SFPARECIP_MOD1_RECIP = 0, SFPARECIP_MOD1_COND_RECIP = 1, SFPARECIP_MOD1_EXP = 2,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique() {
        let mut names: Vec<_> = DEFINITIONS.iter().chain(ALIASES).map(|d| d.name).collect();
        names.sort_unstable();
        let before = names.len();
        names.dedup();
        assert_eq!(before, names.len());
        assert_eq!(lookup("SFPMAD_MOD1_INDIRECT_VA"), Some(4));
        assert_eq!(lookup("SFPLUTFP32_MOD1_FP16_3ENTRY_TABLE"), Some(10));
        assert_eq!(lookup("NOPE"), None);
    }
}
