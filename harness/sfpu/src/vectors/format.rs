//! The data types of a vector file, as read and written.

use serde::{Deserialize, Serialize};
use sfpu_reference::isa::Arch;
use sfpu_reference::outcome::Kind;
use sfpu_reference::state::{Hex, StateDoc};

use crate::features::Feature;
use crate::taint::Locations;

/// The format identifier every file this crate writes carries; bumped on any incompatible change.
/// Version 2 added `requires` to every vector; version 3 states no value in `post` where `skip`
/// covers (a lane without a value is `null`).
pub const FORMAT: &str = "sfpu-vectors/3";

/// The previous format, still read: its `post` may state values where `skip` covers, which the
/// loader leaves out ([`super::promise::leave_out`]).
pub const FORMAT_V2: &str = "sfpu-vectors/2";

/// The first format, still read: its vectors have no `requires`, which the loader computes, and
/// its `post` is read as [`FORMAT_V2`]'s.
pub const FORMAT_V1: &str = "sfpu-vectors/1";

/// One vector file: all the vectors of one instruction (or the sequences, or the regressions) of
/// one architecture.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VectorFile {
    /// [`FORMAT`] (a file on disk may say [`FORMAT_V2`] or [`FORMAT_V1`]; the loader reads it as
    /// [`FORMAT`]: its vectors' `requires` computed where missing, and what their `post` states
    /// where `skip` covers left out).
    pub format: String,
    /// The architecture every vector of the file is for.
    pub arch: Arch,
    /// The file's stem (`SFPMAD`, `sequences`, `regressions`): every id starts with it and `/`.
    pub file: String,
    /// The vectors, in a stable order.
    pub vectors: Vec<Vector>,
}

/// One vector.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Vector {
    /// Stable, unique identifier: `{file}/{mode}/{case}`.
    pub id: String,
    /// The mode value the vector exercises (`mod1=5`, `mod0=FP16`, ...), for the coverage matrix.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mode: Option<String>,
    /// Free-form tags (operand classes, predication pattern, origin).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tags: Vec<String>,
    /// The state features beyond the baseline the vector needs an implementation to model
    /// ([`crate::features::requires`] of `pre` and `program`), in canonical order; empty for
    /// the baseline. Every `sfpu-vectors/2` and `/3` vector lists it (the loader checks it against the
    /// computed list); `sfpu-vectors/1` vectors have none in the file, and the loader fills it in.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub requires: Option<Vec<Feature>>,
    /// The instructions, issued one per cycle in order.
    pub program: Vec<Word>,
    /// The state before the program (omitted parts take the format's defaults).
    #[serde(default)]
    pub pre: StateDoc,
    /// The expected values of the parts the program changes, to apply on top of `pre`; no value
    /// where `skip` covers (a lane without one is `null`, [`StateDoc::apply_stated_to`]).
    #[serde(default)]
    pub post: StateDoc,
    /// The specification's verdict: every clause under which part of the effect is not defined.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub outcome: Vec<Note>,
    /// Locations the specification does not promise (undefined or unspecified behaviour):
    /// importers must not compare them, and `post` states no value there.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub skip: Option<Locations>,
    /// Locations whose value is the documented behaviour of current silicon but not promised
    /// (`NonContractualBehavior`): importers checking the architecture skip them, importers checking
    /// fidelity to current silicon compare them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub non_contractual: Option<Locations>,
}

/// One instruction of a program: the word (the truth) and its tt-llk text.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Word {
    /// The 32-bit instruction word.
    pub word: Hex<8>,
    /// The same instruction in tt-llk macro form.
    pub text: String,
}

/// One clause of the outcome.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Note {
    /// The clause's stable identifier (`sfppushc-full-stack`).
    pub clause: String,
    /// How much the documentation promises under it.
    pub kind: Kind,
    /// Where the specification states it.
    pub section: String,
    /// The lanes it concerns.
    pub lanes: Hex<8>,
}

impl Vector {
    /// The features the vector needs ([`Vector::requires`]; empty when not known yet).
    pub fn required(&self) -> crate::features::FeatureSet {
        self.requires.iter().flatten().copied().collect()
    }
}
