//! Triage: what `cargo xtask fuzz --triage` does with a divergence, as a pure function of the
//! regressions file's text ([`append_regression`]: append the vector with its tags, or report a
//! duplicate of a known failure shape).

use std::collections::BTreeMap;
use std::path::Path;

use crate::vectors::{Vector, VectorFile};

/// What [`append_regression`] made of a divergence.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Appended {
    /// The vector was appended: its id, and the whole new text of the file (checked to load).
    Added {
        /// The new vector's id.
        id: String,
        /// The file's new text.
        text: String,
    },
    /// A vector of the same failure shape is already in the file; nothing was added.
    Duplicate {
        /// The id of the vector that has the shape.
        id: String,
    },
}

/// The failure shapes (`fuzz-shape:` tags) of the vectors of `file`, each with the id of the
/// first vector that has it.
pub fn regression_shapes(file: &VectorFile) -> BTreeMap<String, String> {
    let mut m = BTreeMap::new();
    for v in &file.vectors {
        for t in &v.tags {
            if let Some(s) = t.strip_prefix("fuzz-shape:") {
                m.entry(s.to_string()).or_insert_with(|| v.id.clone());
            }
        }
    }
    m
}

fn load_errors(e: &[crate::vectors::LoadError]) -> String {
    e.iter().map(|e| e.to_string()).collect::<Vec<_>>().join("; ")
}

/// What `cargo xtask fuzz --triage` does with one divergence, as a pure function of the
/// regressions file's text: `text` (the file at `path`, whose stem the loader checks against its
/// `file:` field) with the regression vector `yaml` (a [`Divergence::snippet`]) of failure `shape`
/// appended, unless a vector tagged `fuzz-shape:<shape>` is there already
/// ([`Appended::Duplicate`]; the same instruction, mode and differing parts are reported once).
///
/// The appended vector carries the tags `fuzz`, `fuzz-shape:<shape>` and
/// `fuzz-artifact:<artifact>` (added where the YAML lacks them) and is preceded by a comment
/// naming the artifact and the shape and saying that the expected values are the reference
/// model's. A file that ends in `vectors: []` gets a proper list. The new text is checked with the
/// vector loader before it is returned.
///
/// Errors (nothing is added): `text` does not load or is a format-1 file, `yaml` does not parse
/// as a list holding a vector, or the file with the vector would not load.
///
/// [`Divergence::snippet`]: super::Divergence::snippet
pub fn append_regression(
    text: &str,
    path: &Path,
    artifact: &str,
    shape: &str,
    yaml: &str,
) -> Result<Appended, String> {
    let existing = crate::vectors::parse_file(path, text)
        .map_err(|e| format!("{} does not load: {}", path.display(), load_errors(&e)))?;
    // The appended vector lists `requires`, which a format-1 file refuses, and may give a lane no
    // value (`null`), which a format-2 file does (the loader has read this one as a current file,
    // so its own text says which).
    #[derive(serde::Deserialize)]
    struct Head {
        format: String,
    }
    if let Ok(Head { format }) = serde_yaml::from_str::<Head>(text)
        && [crate::vectors::FORMAT_V1, crate::vectors::FORMAT_V2].contains(&format.as_str())
    {
        return Err(format!(
            "{} is a {format} file; triage appends {} vectors: upgrade the file first \
             (vectors/README.md, \"Migrating from earlier formats\")",
            path.display(),
            crate::vectors::FORMAT
        ));
    }
    if let Some(id) = regression_shapes(&existing).get(shape) {
        return Ok(Appended::Duplicate { id: id.clone() });
    }
    let mut vectors: Vec<Vector> = serde_yaml::from_str(yaml)
        .map_err(|e| format!("the regression vector does not parse: {e}\n{yaml}"))?;
    let Some(mut v) = vectors.pop() else {
        return Err(format!("the regression vector does not parse: no vector in\n{yaml}"));
    };
    for tag in ["fuzz".to_string(), format!("fuzz-shape:{shape}"), format!("fuzz-artifact:{artifact}")] {
        if !v.tags.contains(&tag) {
            v.tags.push(tag);
        }
    }
    let id = v.id.clone();
    let body = crate::campaign::vector_yaml(&v);
    let comment = format!(
        "# Found by `cargo xtask fuzz` (diff_stream, artifact {artifact}, shape {shape}). The expected values are the\n\
         # reference model's, not hand-checked: confirm them against the documentation when fixing the divergence.\n"
    );
    let candidate = if let Some(stripped) = text.trim_end().strip_suffix("vectors: []") {
        format!("{stripped}vectors:\n{comment}{body}")
    } else {
        let sep = if text.is_empty() || text.ends_with('\n') { "" } else { "\n" };
        format!("{text}{sep}{comment}{body}")
    };
    crate::vectors::parse_file(path, &candidate)
        .map_err(|e| format!("appending the vector would break {}: {}", path.display(), load_errors(&e)))?;
    Ok(Appended::Added { id, text: candidate })
}
