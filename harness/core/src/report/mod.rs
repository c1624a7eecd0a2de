//! The compliance report of `conform`: its data model (serialised as `report.json`, format
//! `conform-report/4`, documented in `docs/report.md`), the renderers that turn it into Markdown,
//! a self-contained HTML page, JUnit XML and the terminal summary, writing it, and merging shards'
//! reports.
//!
//! The JSON is the source of truth; every other form is rendered from a [`Report`] alone, so a
//! report can be re-rendered from a saved `report.json` ([`Report::from_json`]).
//!
//! A report has a section per instruction set and chip checked ([`ChipReport`], `chips` in the
//! JSON, each naming its `isa`) and what concerns the whole run (what an instruction set adds,
//! such as the SFPU's kernel accuracy, in [`Report::extensions`]; the timings; an interruption).
//! Nothing here knows an instruction set: the sections are filled in by each one's code.
//!
//! Compatibility: a reader refuses a `format` other than [`REPORT_FORMAT`] (the one strict
//! check; [`Report::from_json`] also reads [`REPORT_FORMAT_V3`], [`REPORT_FORMAT_V2`], whose
//! sections are all SFPU ones, and [`REPORT_FORMAT_V1`], one chip at the top level, as a
//! one-chip report), and ignores fields it does not know, so that adding a field does not change
//! the format number; fields added after a format's first version default when absent, so an
//! older file still reads.

mod files;
pub mod html;
pub mod junit;
pub mod markdown;
pub mod merge;
mod model;
pub mod terminal;
pub mod text;

pub use files::{DirLock, FILES, LOCK_FILE, abandon_writes, cases_jsonl, lock_dir, write_files};
pub use model::*;
