//! Golden vectors: the format (`sfpu-vectors/3`, reading `/2` and `/1` too), its writer, loader and
//! runner.
//!
//! The format is specified for importers in `vectors/README.md` and `vectors/schema.json`; this
//! module is its implementation. A vector is a program, the state before it (`pre`), the expected
//! values of what it changes (`post`, applied on top of `pre`), the specification's verdict
//! (`outcome`), and the locations the specification does not promise (`skip`,
//! `non_contractual`); `post` states no value where `skip` covers ([`promise`]).

pub mod corpus;
pub mod emit;
pub mod format;
pub mod load;
pub mod promise;
pub mod run;

pub use corpus::SfpuCorpus;
pub use format::{FORMAT, FORMAT_V1, FORMAT_V2, Note, Vector, VectorFile, Word};
pub use load::{Corpus, LoadError, load_corpus, load_file, load_texts, parse_file};
pub use run::{Failure, Filter, Status, Strictness, VectorResult, expected_states, run_corpus, run_vector};
