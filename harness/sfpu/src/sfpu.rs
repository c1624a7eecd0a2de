//! The instruction set's type, [`Sfpu`], alone: the files that implement its parts (models, corpus,
//! DUT protocol, report sections) name it without depending on the seam's implementation in
//! [`crate::isa`], which calls them.

/// The Tenstorrent Tensix Vector Unit.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Sfpu;
