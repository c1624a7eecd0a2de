//! A chip profile's golden vectors as the ISA-neutral session reads them ([`AmxCorpus`], the
//! core's [`Corpus`](harness_core::vectors::Corpus)): `DIR/<chip>.yaml`, or built in (the file
//! the generator makes, in memory: the same as the repository's `vectors/amx/<chip>.yaml`, which a
//! test keeps current). Each vector's matrix row is its class ([`cell_of`]).

use std::path::Path;

use amx_reference::Chip;
use harness_core::isa::Strictness;
use harness_core::report::CorpusInfo;
use harness_core::vectors::VectorCase;

use crate::Amx;
use crate::format::{AmxVectorFile, Checked, parse, to_yaml};
use crate::generate::{DEFAULT_SEED, cell_of, file, file_stem};

/// One chip profile's vectors, each made runnable when loaded (a few hundred 5 KB states).
#[derive(Clone, Debug)]
pub struct AmxCorpus {
    /// The file as read (for the snippets and tags).
    pub file: AmxVectorFile,
    /// The vectors, runnable.
    pub cases: Vec<VectorCase<Amx>>,
    /// Where it was read from.
    path: String,
}

/// Where the built-in corpus of `chip` says it comes from.
pub fn builtin_path(chip: Chip) -> String {
    format!("built-in (generated in memory; the repository's vectors/amx/{}.yaml)", file_stem(chip))
}

impl AmxCorpus {
    /// Loads `chip`'s vectors from `dir/<chip>.yaml` (or `dir/amx/<chip>.yaml`, when `dir` holds
    /// the instruction sets' directories, as the repository's `vectors/` does), or the built-in
    /// ones.
    pub fn load(chip: Chip, dir: Option<&Path>) -> Result<AmxCorpus, String> {
        let (text, path) = match dir {
            Some(dir) => {
                let nested = dir.join("amx");
                let dir = if nested.is_dir() { nested.as_path() } else { dir };
                let path = dir.join(format!("{}.yaml", file_stem(chip)));
                let text = harness_core::input::read_regular(&path)
                    .map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
                (text, path.display().to_string())
            }
            None => (to_yaml(&file(chip, DEFAULT_SEED)), builtin_path(chip)),
        };
        AmxCorpus::parse(chip, &text, path)
    }

    /// The corpus of `chip` in `text`, read from `path`.
    pub fn parse(chip: Chip, text: &str, path: String) -> Result<AmxCorpus, String> {
        let (file_chip, checked) = parse(&path, text).map_err(|e| e.to_string())?;
        if file_chip != chip {
            return Err(format!("{path}: a file of chip profile {file_chip}, expected {chip}"));
        }
        // `parse` has checked it; reading it again keeps the vectors' YAML for the snippets.
        let file: AmxVectorFile = serde_yaml::from_str(text).map_err(|e| format!("{path}: {e}"))?;
        let cases = checked.into_iter().map(|c| case_of(&file.file, c)).collect();
        Ok(AmxCorpus { file, cases, path })
    }
}

/// A checked vector of the file `stem` as the core runs it.
fn case_of(stem: &str, c: Checked) -> VectorCase<Amx> {
    let (file, mode) = cell_of(stem, &c.id).unwrap_or_else(|| ("other".to_string(), c.mode.clone()));
    VectorCase {
        id: c.id,
        file,
        mode: Some(mode),
        pre: c.pre,
        program: c.program,
        expected: c.expected,
        outcome: None,
        skip: Default::default(),
        tainted: false,
        meta: (),
    }
}

impl harness_core::vectors::Corpus<Amx> for AmxCorpus {
    fn info(&self) -> CorpusInfo {
        CorpusInfo {
            path: self.path.clone(),
            format: self.file.format.clone(),
            files: 1,
            vectors: self.cases.len(),
            generator: self.file.provenance.clone(),
        }
    }

    fn len(&self) -> usize {
        self.cases.len()
    }

    fn id(&self, i: usize) -> &str {
        &self.cases[i].id
    }

    fn row(&self, i: usize) -> (String, Option<String>) {
        (self.cases[i].file.clone(), self.cases[i].mode.clone())
    }

    fn tags(&self, i: usize) -> &[String] {
        self.file.vectors.get(i).map_or(&[], |v| &v.tags)
    }

    /// Every `vecfp` result is promised: the strictness changes nothing.
    fn case(&self, i: usize, _: Strictness) -> Result<VectorCase<Amx>, String> {
        Ok(self.cases[i].clone())
    }

    fn snippet(&self, i: usize, _origin: &str) -> String {
        self.file.vectors.get(i).map(|v| serde_yaml::to_string(&[v]).unwrap_or_default()).unwrap_or_default()
    }
}
