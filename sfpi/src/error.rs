//! Why a kernel cannot be recorded, prepared for a chip, lowered or evaluated.
//!
//! Every bad kernel is one of these errors, never a panic: a kernel that needs more than eight
//! LRegs (the SFPI compiler does not spill either), an unclosed or misnested `v_if`, a value used
//! outside the lanes it is defined in, a call the chip does not have.

use sfpu_reference::isa::Arch;

/// Why a kernel is rejected.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum KernelError {
    /// The kernel needs more than the eight general LRegs at one point. SFPI's compiler does not
    /// spill either ("cannot store SFPU register (register spill?)").
    #[error(
        "kernel `{kernel}` needs more than 8 LRegs at {at}: {live} values are live there \
         (the SFPI compiler does not spill either; recompute or reload values to shorten their lives)"
    )]
    OutOfRegisters {
        /// The kernel.
        kernel: String,
        /// The operation being allocated.
        at: String,
        /// How many values were live.
        live: usize,
    },
    /// A `v_if` chain was not closed with `.v_endif()`.
    #[error(
        "kernel `{kernel}`: a v_if chain was not closed with .v_endif() \
         (SFPI requires v_endif after every v_if / v_elseif / v_else chain)"
    )]
    UnclosedVIf {
        /// The kernel.
        kernel: String,
    },
    /// A `v_elseif` / `v_else` / `v_endif` was applied to a chain that is not the innermost open
    /// one, or recorded code sits between a chain's body and its `v_else`.
    #[error("kernel `{kernel}`: misnested conditional: {what}")]
    Misnested {
        /// The kernel.
        kernel: String,
        /// What was wrong.
        what: String,
    },
    /// `v_and` outside a `v_block` or a `v_if` body.
    #[error("kernel `{kernel}`: v_and is only allowed inside a v_block or a v_if body")]
    VAndOutsideBlock {
        /// The kernel.
        kernel: String,
    },
    /// A value was used where it is not defined: a value computed inside a `v_if` used after its
    /// `v_endif` (or in another arm), or an `init` value used in the body.
    #[error(
        "kernel `{kernel}`: a value ({op}) defined inside a v_if / v_block is used outside it, where \
         its lanes are not all defined; to update a variable under predication use `.assign(..)` \
         or a compound assignment (`x += ..`), as SFPI's `x = ..` does"
    )]
    ValueOutOfScope {
        /// The kernel.
        kernel: String,
        /// The operation that defined the value.
        op: String,
    },
    /// A vector value from another recording (or none) was used.
    #[error("kernel `{kernel}`: a vector value from another kernel recording was used")]
    ForeignValue {
        /// The kernel.
        kernel: String,
    },
    /// Recording was started inside another recording.
    #[error("Kernel::record was called while recording kernel `{kernel}`")]
    NestedRecording {
        /// The kernel being recorded.
        kernel: String,
    },
    /// The chip does not have the operation.
    #[error("kernel `{kernel}`: {what} is not available on {arch}")]
    NotOnChip {
        /// The kernel.
        kernel: String,
        /// The operation.
        what: String,
        /// The chip.
        arch: Arch,
    },
    /// An argument the hardware cannot take.
    #[error("kernel `{kernel}`: {what}")]
    BadArgument {
        /// The kernel.
        kernel: String,
        /// What was wrong.
        what: String,
    },
    /// The nesting needs more than the 8 entries of the flag stack.
    #[error("kernel `{kernel}`: predication nests {depth} deep; the flag stack holds 8 entries")]
    FlagStackOverflow {
        /// The kernel.
        kernel: String,
        /// The depth needed.
        depth: usize,
    },
    /// A construct used where SFPI's lowering does not support it.
    #[error("kernel `{kernel}`: {what}")]
    Unsupported {
        /// The kernel.
        kernel: String,
        /// What and why.
        what: String,
    },
    /// The meaning stored a lane whose value is not defined (only possible through the
    /// cross-lane calls).
    #[error("kernel `{kernel}`: lane {lane} of a store has no defined value")]
    UndefinedStore {
        /// The kernel.
        kernel: String,
        /// The lane.
        lane: usize,
    },
}
