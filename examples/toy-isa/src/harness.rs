//! The toy in the harness: its implementation of the seam ([`Isa`], [`DutIsa`]), its golden
//! vectors (`toy-vectors/1`, JSON: [`generate`], [`VectorFile`], [`ToyCorpus`]), its protocol
//! for external implementations (`toy-dut/1`, [`ToyDut`]) and its random cases. Everything the
//! harness does with an instruction set (conform, replay, sharding, the DUT protocol, the report,
//! the fuzz oracle) comes from these few items.

use std::path::Path;

use harness_core::dut::{DutIsa, Protocol, ProtocolError, ResultParts};
use harness_core::isa::{
    Cell, Corpus, Isa, Job, Model, ModelError, Run, RunOutput, RunRequest, Strictness, VectorCase,
};
use harness_core::report::{CorpusInfo, SpecInfo};
use harness_core::rng::Rng;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::isa::{Instr, LANES, Op, REGS, State, decode, encode, meaning, parse};

/// The toy instruction set.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Toy;

/// The toy's one chip: four lanes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct T4;

/// The vector format's identifier.
pub const FORMAT: &str = "toy-vectors/1";

/// The protocol's identifier.
pub const PROTOCOL: &str = "toy-dut/1";

/// The seed of the generated vectors.
pub const SEED: u64 = 0x70;

/// The literal reference model.
pub struct Reference;

/// The fast model.
pub struct Fast;

impl Model<Toy> for Reference {
    fn name(&self) -> String {
        "reference".into()
    }

    fn run(&self, _: T4, pre: &State, program: &[u32]) -> Result<Run<State, ()>, ModelError> {
        let mut s = *pre;
        crate::reference::run(&mut s, program);
        Ok(Run { post: s, outcome: Some(()) })
    }
}

impl Model<Toy> for Fast {
    fn name(&self) -> String {
        "fastpath".into()
    }

    fn run(&self, _: T4, pre: &State, program: &[u32]) -> Result<Run<State, ()>, ModelError> {
        let mut s = *pre;
        crate::fast::run(&mut s, program);
        Ok(Run { post: s, outcome: Some(()) })
    }
}

/// A state as documents carry it: eight registers of four `0x%08x` lanes.
pub fn to_doc(s: &State) -> Value {
    Value::Array(
        s.R.iter()
            .map(|r| Value::Array(r.iter().map(|x| Value::String(format!("{x:#010x}"))).collect()))
            .collect(),
    )
}

/// The state a document describes, or why it describes none.
pub fn from_doc(doc: &Value) -> Result<State, String> {
    let regs = doc.as_array().filter(|r| r.len() == REGS).ok_or("a state is an array of 8 registers")?;
    let mut s = State::default();
    for (r, lanes) in regs.iter().enumerate() {
        let lanes =
            lanes.as_array().filter(|l| l.len() == LANES).ok_or("a register is an array of 4 lanes")?;
        for (l, x) in lanes.iter().enumerate() {
            let text = x.as_str().ok_or("a lane is a string `0x%08x`")?;
            s.R[r][l] = text
                .strip_prefix("0x")
                .filter(|h| h.len() == 8)
                .and_then(|h| u32::from_str_radix(h, 16).ok())
                .ok_or_else(|| format!("`{text}` is not `0x` and 8 hex digits"))?;
        }
    }
    Ok(s)
}

/// One vector of a file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Vector {
    /// `{row}/{name}`.
    pub id: String,
    /// The instruction words.
    pub program: Vec<String>,
    /// The words in text form, for people.
    pub text: Vec<String>,
    /// The state before.
    pub pre: Value,
    /// The state after.
    pub post: Value,
}

/// A vector file: every vector of the chip.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VectorFile {
    /// [`FORMAT`].
    pub format: String,
    /// What made it.
    pub generator: String,
    /// The vectors.
    pub vectors: Vec<Vector>,
}

/// The vector of `program` on `pre`, named `id`, its `post` the reference's.
fn vector(id: String, pre: State, program: &[u32]) -> Vector {
    let mut post = pre;
    crate::reference::run(&mut post, program);
    Vector {
        id,
        program: program.iter().map(|w| format!("{w:#010x}")).collect(),
        text: program.iter().map(|&w| decode(w).to_string()).collect(),
        pre: to_doc(&pre),
        post: to_doc(&post),
    }
}

/// A random state: lanes special (0, 1, all ones, the sign bit) one time in four.
fn random_state(rng: &mut Rng) -> State {
    let mut s = State::default();
    for r in 0..REGS {
        for l in 0..LANES {
            s.R[r][l] =
                if rng.below(4) == 0 { rng.pick(&[0, 1, u32::MAX, 0x8000_0000, 31, 32]) } else { rng.u32() };
        }
    }
    s
}

/// The cells: one per defined operation, and `RES` for the reserved codes.
fn rows() -> Vec<String> {
    Op::DEFINED.iter().map(|op| op.name()).chain(["RES".to_string()]).collect()
}

/// A random instruction of row `row`.
fn random_instr(row: &str, rng: &mut Rng) -> Option<u32> {
    let op = if row == "RES" {
        Op::Reserved(12 + rng.below(4) as u8)
    } else {
        *Op::DEFINED.iter().find(|op| op.name() == row)?
    };
    let i = Instr {
        op,
        rd: rng.below(REGS as u32) as usize,
        ra: rng.below(REGS as u32) as usize,
        rb: rng.below(REGS as u32) as usize,
        imm: rng.u32() & 0xFFFF,
    };
    // The ignored bits 18..16 random too: an implementation must ignore them.
    Some(encode(&i) | (rng.below(8) << 16))
}

/// The generated vector file: for each row, edge cases (zero, one, all ones, the sign bit and
/// the shift counts around 31 in the sources; every `ROT` amount) and random ones, then a few
/// programs of several instructions.
pub fn generate() -> VectorFile {
    let mut vectors = Vec::new();
    let mut rng = Rng::stream(SEED, "toy/vectors");
    for row in rows() {
        let mut edges = State::default();
        let special = [0, 1, u32::MAX, 0x8000_0000];
        for r in 0..REGS {
            for l in 0..LANES {
                edges.R[r][l] = special[(r + l) % 4] ^ if r > 3 { 31 + l as u32 } else { 0 };
            }
        }
        let amounts: Vec<u32> = if row == "ROT" { (0..4).collect() } else { vec![0x1234] };
        for (k, imm) in amounts.iter().enumerate() {
            let mut i = decode(random_instr(&row, &mut rng).unwrap_or(0));
            i.imm = *imm;
            (i.rd, i.ra, i.rb) = (1, 2, 5);
            vectors.push(vector(format!("{row}/edges-{k}"), edges, &[encode(&i)]));
        }
        for n in 0..3 {
            let pre = random_state(&mut rng);
            let word = random_instr(&row, &mut rng).unwrap_or(0);
            vectors.push(vector(format!("{row}/random-{n}"), pre, &[word]));
        }
    }
    for n in 0..4 {
        let pre = random_state(&mut rng);
        let rows = rows();
        let program: Vec<u32> = (0..6)
            .filter_map(|_| random_instr(&rows[rng.below(rows.len() as u32) as usize], &mut rng))
            .collect();
        vectors.push(vector(format!("programs/{n}"), pre, &program));
    }
    VectorFile {
        format: FORMAT.to_string(),
        generator: format!("toy-isa generator, seed {SEED:#x}"),
        vectors,
    }
}

/// The file as the repository keeps it (`examples/toy-isa/vectors/toy.json`).
pub fn render(file: &VectorFile) -> String {
    serde_json::to_string_pretty(file).unwrap_or_default() + "\n"
}

/// The toy's golden vectors, made runnable.
pub struct ToyCorpus {
    file: VectorFile,
    cases: Vec<VectorCase<Toy>>,
    path: String,
}

impl ToyCorpus {
    /// Reads and checks `text` (read from `path`): the format, unique ids starting with a row or
    /// `programs/`, words that are hex and match their text, states that are states.
    pub fn parse(text: &str, path: String) -> Result<ToyCorpus, String> {
        let file: VectorFile = serde_json::from_str(text).map_err(|e| format!("{path}: {e}"))?;
        if file.format != FORMAT {
            return Err(format!("{path}: format `{}`, expected `{FORMAT}`", file.format));
        }
        let mut ids = std::collections::BTreeSet::new();
        let mut cases = Vec::new();
        for v in &file.vectors {
            let at = |e: String| format!("{path}: {}: {e}", v.id);
            if !ids.insert(v.id.as_str()) {
                return Err(at("a second vector with this id".into()));
            }
            let (row, _) = v.id.split_once('/').ok_or_else(|| at("an id is `<row>/<name>`".into()))?;
            if row != "programs" && !rows().iter().any(|r| r == row) {
                return Err(at(format!("`{row}` is not a row")));
            }
            if v.program.len() != v.text.len() {
                return Err(at("`program` and `text` differ in length".into()));
            }
            let mut program = Vec::new();
            for (w, t) in v.program.iter().zip(&v.text) {
                let word = w
                    .strip_prefix("0x")
                    .and_then(|h| u32::from_str_radix(h, 16).ok())
                    .ok_or_else(|| at(format!("`{w}` is not a hex word")))?;
                // The text names what the word does.
                if parse(t).map(|p| meaning(p) != meaning(word)).unwrap_or(true) {
                    return Err(at(format!("`{t}` is not the word {w}")));
                }
                program.push(word);
            }
            let pre = from_doc(&v.pre).map_err(|e| at(format!("pre: {e}")))?;
            let expected = from_doc(&v.post).map_err(|e| at(format!("post: {e}")))?;
            cases.push(VectorCase {
                id: v.id.clone(),
                file: row.to_string(),
                mode: Some("-".to_string()),
                pre,
                program,
                expected,
                outcome: None,
                skip: 0,
                tainted: false,
                meta: (),
            });
        }
        Ok(ToyCorpus { file, cases, path })
    }
}

impl Corpus<Toy> for ToyCorpus {
    fn info(&self) -> CorpusInfo {
        CorpusInfo {
            path: self.path.clone(),
            format: FORMAT.to_string(),
            files: 1,
            vectors: self.cases.len(),
            generator: self.file.generator.clone(),
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

    fn tags(&self, _: usize) -> &[String] {
        &[]
    }

    fn case(&self, i: usize, _: Strictness) -> Result<VectorCase<Toy>, String> {
        Ok(self.cases[i].clone())
    }

    fn snippet(&self, i: usize, _: &str) -> String {
        serde_json::to_string_pretty(&self.file.vectors[i]).unwrap_or_default()
    }
}

impl Isa for Toy {
    const NAME: &'static str = "toy";
    type Chip = T4;
    type Word = u32;
    type State = State;
    /// The registers that differ (bit `r`).
    type Locations = u8;
    type Outcome = ();
    type Declaration = ();
    type CaseMeta = ();
    type Corpus = ToyCorpus;

    fn chips() -> Vec<T4> {
        vec![T4]
    }

    fn chip_name(_: T4) -> String {
        "t4".into()
    }

    fn word_hex(word: u32) -> String {
        format!("{word:#010x}")
    }

    fn disassemble(_: T4, word: u32) -> Result<String, String> {
        Ok(decode(word).to_string())
    }

    fn differing(expected: &State, actual: &State, skip: &u8) -> u8 {
        (0..REGS).filter(|&r| expected.R[r] != actual.R[r]).fold(0, |m, r| m | 1 << r) & !skip
    }

    fn is_empty(locations: &u8) -> bool {
        *locations == 0
    }

    fn describe(expected: &State, actual: &State, differing: &u8) -> String {
        (0..REGS)
            .filter(|r| differing >> r & 1 != 0)
            .map(|r| format!("  r{r}: expected {:08x?}, got {:08x?}\n", expected.R[r], actual.R[r]))
            .collect()
    }

    fn outcome_text(_: &()) -> String {
        "defined".into()
    }

    fn reference() -> &'static dyn Model<Toy> {
        &Reference
    }

    fn fast() -> &'static dyn Model<Toy> {
        &Fast
    }

    fn spec(_: T4) -> SpecInfo {
        SpecInfo {
            notes: "examples/toy-isa/src/isa.rs (the toy's definition)".into(),
            upstream: "none: an example instruction set".into(),
            ..SpecInfo::default()
        }
    }

    fn cells(_: T4) -> Vec<Cell> {
        rows().iter().map(|r| Cell::whole(r)).collect()
    }

    /// `programs` (the generated multi-instruction vectors) and the random streams after the
    /// rows of single instructions.
    fn matrix(chip: T4) -> Vec<Cell> {
        let mut rows = Self::cells(chip);
        rows.push(Cell::whole("programs"));
        rows.push(Cell::whole("streams"));
        rows
    }

    fn random_case(_: T4, cell: &Cell, rng: &mut Rng) -> Option<(State, Vec<u32>)> {
        let pre = random_state(rng);
        Some((pre, vec![random_instr(&cell.instruction, rng)?]))
    }

    fn load(_: T4, dir: Option<&Path>) -> Result<ToyCorpus, String> {
        match dir {
            Some(dir) => {
                let nested = dir.join("toy.json");
                let path = if nested.is_file() { nested } else { dir.join("vectors").join("toy.json") };
                let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
                ToyCorpus::parse(&text, path.display().to_string())
            }
            None => ToyCorpus::parse(&render(&generate()), "built-in (generated in memory)".into()),
        }
    }

    fn regression_file(_: T4) -> String {
        "examples/toy-isa/vectors/toy.json".into()
    }

    /// One job per row ([`harness_core::campaign::cell_jobs`]), then streams of one to eight
    /// random instructions.
    fn jobs(chip: T4) -> Vec<Job> {
        let mut jobs = harness_core::campaign::cell_jobs::<Toy>(chip);
        jobs.push(Job { name: "streams".into(), cells: 16 });
        jobs
    }

    fn job_case(chip: T4, seed: u64, job: &Job, index: u64, _: Strictness) -> Option<VectorCase<Toy>> {
        if job.name != "streams" {
            return harness_core::campaign::cell_job_case::<Toy>(chip, &Self::cells(chip), seed, job, index);
        }
        let mut rng = Rng::stream(seed, &format!("toy/streams/{index}"));
        let pre = random_state(&mut rng);
        let rows = rows();
        let len = 1 + rng.below(8);
        let program: Vec<u32> = (0..len)
            .filter_map(|_| random_instr(&rows[rng.below(rows.len() as u32) as usize], &mut rng))
            .collect();
        let mut expected = pre;
        crate::reference::run(&mut expected, &program);
        Some(VectorCase {
            id: String::new(),
            file: "streams".into(),
            mode: Some("-".into()),
            pre,
            program,
            expected,
            outcome: Some(()),
            skip: 0,
            tainted: false,
            meta: (),
        })
    }

    fn job_snippet(chip: T4, seed: u64, job: &Job, index: u64, origin: &str) -> String {
        Self::job_case(chip, seed, job, index, Strictness::Silicon)
            .map(|c| {
                let id = format!("programs/{origin}-{}-{index}", job.name);
                serde_json::to_string_pretty(&vector(id, c.pre, &c.program)).unwrap_or_default()
            })
            .unwrap_or_default()
    }

    fn run_program(request: &RunRequest) -> Result<RunOutput, String> {
        let mut program = Vec::new();
        for (n, line) in request.program.lines().enumerate() {
            let line = line.split('#').next().unwrap_or("").trim();
            if !line.is_empty() {
                program.push(parse(line).map_err(|e| format!("{}:{}: {e}", request.program_name, n + 1))?);
            }
        }
        let mut s = match &request.state {
            Some((path, text)) => {
                let doc: Value = serde_json::from_str(text).map_err(|e| format!("{path}: {e}"))?;
                from_doc(&doc).map_err(|e| format!("{path}: {e}"))?
            }
            None => State::default(),
        };
        crate::reference::run(&mut s, &program);
        Ok(RunOutput { stdout: format!("{:#}\n", to_doc(&s)), ..RunOutput::default() })
    }
}

/// `toy-dut/1`: a case carries the whole state (see [`to_doc`]) and the words; a result, the
/// whole state after. The DUT's hello names the chips it models (`chips`).
pub struct ToyDut;

impl Protocol for ToyDut {
    type Isa = Toy;
    type Doc = State;
    const PROTOCOL: &'static str = PROTOCOL;
    const CHIP_FIELD: &'static str = "chip";
    const HELLO_FIELDS: &'static [&'static str] = &["chips"];

    fn hello_chips(fields: &serde_json::Map<String, Value>) -> Result<Vec<String>, ProtocolError> {
        serde_json::from_value(fields.get("chips").cloned().unwrap_or(Value::Null))
            .map_err(|e| ProtocolError::new(format!("`hello` answer: `chips`: {e}")))
    }

    fn hello_declaration(
        _: &serde_json::Map<String, Value>,
        _: Option<&[String]>,
    ) -> Result<Option<()>, ProtocolError> {
        Ok(None)
    }

    fn result(state: Value, outcome: Option<Value>) -> Result<ResultParts<Self>, ProtocolError> {
        if outcome.is_some() {
            return Err(ProtocolError::new("`result` answer: toy results have no outcome"));
        }
        let s = from_doc(&state).map_err(|e| ProtocolError::new(format!("`result` answer: state: {e}")))?;
        Ok((s, None))
    }

    fn case_state(pre: &State) -> Value {
        to_doc(pre)
    }

    fn apply(_: &State, doc: &State) -> Result<State, String> {
        Ok(*doc)
    }
}

impl DutIsa for Toy {
    type Protocol = ToyDut;
}
