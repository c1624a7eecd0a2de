//! What is specific to the SFPU in the conformance machinery added for issue 14: the state
//! features a vector needs ([`features`]), and what an implementation declares it models
//! ([`declaration`]), and vectors as self-checking programs ([`programs`]). Kept apart from the ISA-neutral parts (the runner, the
//! report, the DUT protocol) so that it can move behind an ISA-generic seam.

pub mod declaration;
pub mod features;
pub mod programs;
