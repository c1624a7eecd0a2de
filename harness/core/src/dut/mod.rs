//! External implementations ("devices under test", DUTs), whatever their instruction set: any
//! program that speaks an instruction set's JSON-lines protocol on its standard input and output
//! (`docs/dut-protocol.md`), checked through the same [`Model`] interface as the reference.
//!
//! The protocol's envelope is the same for every instruction set: a `hello` each way (the
//! harness's names the protocol, the instruction set and the chip; the DUT's its name, version,
//! the chips it models and, where the instruction set has them, what it declares it models), then
//! one `case` at a time answered by `result`, `unsupported` or `error`, then `bye`. What a state,
//! a program, a result and a declaration look like is the instruction set's ([`Protocol`], named by
//! its [`DutIsa`] implementation: the SFPU speaks `sfpu-dut/1`, AMX `amx-dut/1`).
//!
//! The harness never trusts a DUT. Every answer is validated ([`parse_answer`] is a pure function
//! that accepts any bytes without panicking); a malformed answer, a crash, or a case that gets no
//! answer within the per-case timeout fails that case with a message saying which, the process is
//! killed and reaped, and a fresh one (with a fresh hello) is started for the next case
//! ([`process`] runs it: its own process group, one thread each for its input, output and
//! standard error). A DUT is given up on after [`MAX_FAILED_STARTS`] consecutive failed restarts,
//! [`MAX_CONSECUTIVE_TIMEOUTS`] consecutive timeouts, or [`MAX_CONSECUTIVE_FAULTS`] consecutive
//! cases that each cost a restart: every later case then fails at once, with the reason, and
//! nothing computed before is lost.

pub mod process;

use std::fmt;
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use serde::Deserialize;
use serde_json::Value;

use crate::isa::{Isa, Model, ModelError, Run, RunResult};
use crate::observe::Cancel;
use process::{Process, quote, quote_bytes, show_duration, split_command_line};

/// The hello gets at least this long, whatever the per-case timeout (simulators may start slowly).
pub const MIN_HELLO_TIMEOUT: Duration = Duration::from_secs(10);

/// After this many consecutive failed restarts the DUT is given up on: every later case fails at
/// once.
pub const MAX_FAILED_STARTS: u32 = 3;
/// After this many consecutive cases without an answer within the timeout the DUT is given up
/// on: every later case fails at once (a DUT that hangs on everything would otherwise cost the
/// timeout once per case).
pub const MAX_CONSECUTIVE_TIMEOUTS: u32 = 3;
/// After this many consecutive cases that each ended the process (a malformed answer, a crash
/// before answering, a timeout) the DUT is given up on: a DUT that answers every case with
/// something that is not an answer would otherwise be restarted once per case, for ever.
pub const MAX_CONSECUTIVE_FAULTS: u32 = 10;

/// One line a DUT wrote, validated. `D` is the instruction set's declaration, `S` its state
/// document, `O` its outcome.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer<D, S, O> {
    /// The DUT accepts the protocol and the chip.
    Hello {
        /// The protocol it speaks (the harness requires the one it sent).
        protocol: String,
        /// The implementation's name.
        name: String,
        /// Its version.
        version: String,
        /// What it declares it models; `None` when the hello declares nothing (everything).
        declaration: Option<D>,
        /// The chips it models.
        chips: Vec<String>,
        /// The optional state fields it reads ([`Protocol::OPTIONAL_STATE_FIELDS`]), if its hello
        /// names them (`reads`); `None`: [`Protocol::DEFAULT_READS`].
        reads: Option<Vec<String>>,
    },
    /// The case ran.
    Result {
        /// The case's id, echoed.
        id: String,
        /// The final state the DUT reports (checked to describe a valid state), to apply over
        /// the case's initial state.
        state: Box<S>,
        /// The DUT's verdict, if it reports one.
        outcome: Option<O>,
    },
    /// The DUT does not implement something the case needs.
    Unsupported {
        /// The case's id, echoed.
        id: String,
        /// Why, for the report.
        reason: String,
    },
    /// The DUT could not run the case, or (without an id, in answer to the hello) refuses the
    /// protocol or the chip.
    Error {
        /// The case's id, if the DUT could read it.
        id: Option<String>,
        /// What went wrong.
        message: String,
    },
}

/// Why a line is not a valid answer.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct ProtocolError {
    message: String,
}

impl ProtocolError {
    /// An error explained by `message`.
    pub fn new(message: impl Into<String>) -> ProtocolError {
        ProtocolError { message: message.into() }
    }

    /// The explanation.
    pub fn message(&self) -> &str {
        &self.message
    }
}

/// An instruction set whose external implementations speak a protocol of this envelope.
pub trait DutIsa: Isa {
    /// The protocol.
    type Protocol: Protocol<Isa = Self>;
}

/// What an instruction set's protocol adds to the envelope.
pub trait Protocol: Send + Sync + 'static {
    /// The instruction set.
    type Isa: Isa;
    /// The state document a result carries.
    type Doc: Send + Sync;
    /// The protocol identifier (`sfpu-dut/1`).
    const PROTOCOL: &'static str;

    /// The field of the harness's hello that names the chip (`arch`, `chip`).
    const CHIP_FIELD: &'static str;
    /// The chips a DUT's hello names, from its fields (`archs`, `chips`); the default when it
    /// names none.
    fn hello_chips(fields: &serde_json::Map<String, Value>) -> Result<Vec<String>, ProtocolError>;
    /// The declaration of a DUT's hello, from its fields and the optional state fields it says it
    /// reads (`reads`, validated; `None` when absent); `None` when it declares nothing.
    fn hello_declaration(
        fields: &serde_json::Map<String, Value>,
        reads: Option<&[String]>,
    ) -> Result<Option<<Self::Isa as Isa>::Declaration>, ProtocolError>;
    /// The fields a hello may have beyond `protocol`, `name`, `version`, `isa` and `reads`.
    const HELLO_FIELDS: &'static [&'static str];
    /// The top-level fields of a case's state document that were added after the protocol's
    /// first revision, which a DUT's hello may name in `reads` (those it reads). A case's state
    /// carries only the ones the DUT reads; the harness keeps their values from the case's
    /// initial state, and the instruction set's declaration leaves out what depends on the
    /// others.
    const OPTIONAL_STATE_FIELDS: &'static [&'static str] = &[];
    /// What a DUT whose hello has no `reads` reads of [`OPTIONAL_STATE_FIELDS`](Protocol::OPTIONAL_STATE_FIELDS):
    /// the fields of the protocol as it stood when `reads` was introduced. This list never grows:
    /// a field added later reaches only the DUTs that name it, so no existing DUT breaks.
    const DEFAULT_READS: &'static [&'static str] = &[];
    /// A result's `state` and `outcome` fields, validated.
    fn result(state: Value, outcome: Option<Value>) -> Result<ResultParts<Self>, ProtocolError>;
    /// The whole initial state of a case, as the protocol's state document.
    fn case_state(pre: &<Self::Isa as Isa>::State) -> Value;
    /// The final state: `doc` applied over `pre`.
    fn apply(pre: &<Self::Isa as Isa>::State, doc: &Self::Doc) -> Result<<Self::Isa as Isa>::State, String>;
}

/// A result's state document and outcome, in protocol `P`.
pub type ResultParts<P> = (<P as Protocol>::Doc, Option<<<P as Protocol>::Isa as Isa>::Outcome>);

/// The answers of protocol `P`.
pub type AnswerOf<P> = Answer<
    <<P as Protocol>::Isa as Isa>::Declaration,
    <P as Protocol>::Doc,
    <<P as Protocol>::Isa as Isa>::Outcome,
>;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ResultAnswer {
    id: String,
    state: Value,
    #[serde(default)]
    outcome: Option<Value>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct UnsupportedAnswer {
    id: String,
    reason: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ErrorAnswer {
    #[serde(default)]
    id: Option<String>,
    message: String,
}

fn json_kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// Parses and validates one line a DUT of protocol `P` wrote (without its `\n`; a trailing `\r`
/// is tolerated).
///
/// Pure, and total: any bytes give an answer or a [`ProtocolError`], never a panic. Unknown
/// fields, unknown answer types, out-of-range numbers and state documents that do not describe a
/// valid state are all errors.
pub fn parse_answer<P: Protocol>(line: &[u8]) -> Result<AnswerOf<P>, ProtocolError> {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    let text = std::str::from_utf8(line).map_err(|e| ProtocolError::new(format!("not UTF-8 ({e})")))?;
    let value: Value =
        serde_json::from_str(text).map_err(|e| ProtocolError::new(format!("not JSON ({e})")))?;
    let Value::Object(mut map) = value else {
        return Err(ProtocolError::new("not a JSON object"));
    };
    let kind = match map.remove("type") {
        Some(Value::String(kind)) => kind,
        Some(other) => {
            return Err(ProtocolError::new(format!("`type` must be a string, not {}", json_kind(&other))));
        }
        None => return Err(ProtocolError::new("no `type` field")),
    };
    let fields = |e: serde_json::Error| ProtocolError::new(format!("`{kind}` answer: {e}"));
    match kind.as_str() {
        "hello" => {
            let string = |map: &mut serde_json::Map<String, Value>, key: &str| match map.remove(key) {
                Some(Value::String(s)) => Ok(s),
                Some(other) => Err(ProtocolError::new(format!(
                    "`hello` answer: `{key}` must be a string, not {}",
                    json_kind(&other)
                ))),
                None => Err(ProtocolError::new(format!("`hello` answer: missing field `{key}`"))),
            };
            let protocol = string(&mut map, "protocol")?;
            let name = string(&mut map, "name")?;
            let version = string(&mut map, "version")?;
            // A hello may echo the instruction set; if it does, it must be the harness's.
            match map.remove("isa") {
                None => {}
                Some(Value::String(isa)) if isa == <P::Isa as Isa>::NAME => {}
                Some(other) => {
                    return Err(ProtocolError::new(format!(
                        "`hello` answer: `isa` must be \"{}\", not {}",
                        <P::Isa as Isa>::NAME,
                        quote(&other.to_string())
                    )));
                }
            }
            let reads = match map.remove("reads") {
                None => None,
                Some(v) => {
                    let reads: Vec<String> = serde_json::from_value(v).map_err(|_| {
                        ProtocolError::new("`hello` answer: `reads` must be an array of strings")
                    })?;
                    if let Some(bad) = reads.iter().find(|f| !P::OPTIONAL_STATE_FIELDS.contains(&f.as_str()))
                    {
                        let known: Vec<String> =
                            P::OPTIONAL_STATE_FIELDS.iter().map(|f| format!("`{f}`")).collect();
                        return Err(ProtocolError::new(format!(
                            "`hello` answer: `reads`: `{}` is not an optional state field of {} ({})",
                            quote(bad),
                            P::PROTOCOL,
                            if known.is_empty() { "it has none".to_string() } else { known.join(", ") }
                        )));
                    }
                    Some(reads)
                }
            };
            if let Some(unknown) = map.keys().find(|k| !P::HELLO_FIELDS.contains(&k.as_str())) {
                return Err(ProtocolError::new(format!(
                    "`hello` answer: unknown field `{}`, expected one of `protocol`, `name`, `version`, `reads`, {}",
                    quote(unknown),
                    P::HELLO_FIELDS.iter().map(|f| format!("`{f}`")).collect::<Vec<_>>().join(", ")
                )));
            }
            let declaration = P::hello_declaration(&map, reads.as_deref())?;
            let chips = P::hello_chips(&map)?;
            Ok(Answer::Hello { protocol, name, version, declaration, chips, reads })
        }
        "result" => {
            let r: ResultAnswer = serde_json::from_value(Value::Object(map)).map_err(fields)?;
            let (state, outcome) = P::result(r.state, r.outcome)?;
            Ok(Answer::Result { id: r.id, state: Box::new(state), outcome })
        }
        "unsupported" => {
            let u: UnsupportedAnswer = serde_json::from_value(Value::Object(map)).map_err(fields)?;
            Ok(Answer::Unsupported { id: u.id, reason: u.reason })
        }
        "error" => {
            let e: ErrorAnswer = serde_json::from_value(Value::Object(map)).map_err(fields)?;
            Ok(Answer::Error { id: e.id, message: e.message })
        }
        other => Err(ProtocolError::new(format!(
            "unknown answer type `{}` (expected hello, result, unsupported or error)",
            quote(other)
        ))),
    }
}

/// Why a DUT did not start.
enum StartError {
    /// It declined the hello (protocol or chip): [`ModelError::Unsupported`].
    Refused(String),
    /// Anything else: [`ModelError::Failed`].
    Failed(String),
    /// The run was interrupted during the hello: [`ModelError::Interrupted`].
    Interrupted,
}

impl StartError {
    fn into_model_error(self) -> ModelError {
        match self {
            StartError::Refused(m) => ModelError::Unsupported(m),
            StartError::Failed(m) => ModelError::Failed(m),
            StartError::Interrupted => ModelError::Interrupted,
        }
    }
}

/// What a started DUT said of itself: its process, name, version, declaration, and the optional
/// state fields it reads.
type Started<P> = (Process, String, String, Option<<<P as Protocol>::Isa as Isa>::Declaration>, Vec<String>);

/// Starts the DUT and exchanges hellos (the wait for its hello ends once `cancel` is raised).
fn start<P: Protocol>(
    argv: &[String],
    chip: <P::Isa as Isa>::Chip,
    timeout: Duration,
    cancel: &Cancel,
) -> Result<Started<P>, StartError> {
    let mut process = Process::spawn(argv, cancel).map_err(StartError::Failed)?;
    let mut hello =
        serde_json::json!({"type": "hello", "protocol": P::PROTOCOL, "isa": <P::Isa as Isa>::NAME});
    hello[P::CHIP_FIELD] = Value::String(<P::Isa as Isa>::chip_name(chip));
    process.send(&hello);
    let timeout = timeout.max(MIN_HELLO_TIMEOUT);
    let chip_name = <P::Isa as Isa>::chip_name(chip);
    let protocol_id = P::PROTOCOL;
    match receive::<P>(&mut process, timeout, "the hello") {
        Ok(Answer::Hello { protocol, name, version, declaration, chips, reads }) => {
            if protocol != P::PROTOCOL {
                return Err(StartError::Failed(format!(
                    "the DUT speaks `{}`, the harness `{protocol_id}`",
                    quote(&protocol)
                )));
            }
            // A hello that does not name the chip declines it.
            if !chips.iter().any(|c| c.eq_ignore_ascii_case(&chip_name)) {
                return Err(StartError::Refused(format!(
                    "the DUT refused the hello ({protocol_id}, {chip_name}): its hello names {} only",
                    quote(&chips.join(", "))
                )));
            }
            let reads = reads.unwrap_or_else(|| P::DEFAULT_READS.iter().map(|f| f.to_string()).collect());
            Ok((process, quote(&name), quote(&version), declaration, reads))
        }
        Ok(Answer::Error { message, .. }) => Err(StartError::Refused(format!(
            "the DUT refused the hello ({protocol_id}, {chip_name}): {}",
            quote(&message)
        ))),
        Ok(other) => Err(StartError::Failed(format!(
            "malformed answer: expected a hello, got {}",
            describe_answer(&other)
        ))),
        Err(_) if cancel.is_cancelled() => Err(StartError::Interrupted),
        Err(e) => Err(StartError::Failed(e)),
    }
}

/// The next answer of `process`, or why there is none (timeout, crash, malformed line). After an
/// `Err` the process must be killed.
fn receive<P: Protocol>(
    process: &mut Process,
    timeout: Duration,
    waiting_for: &str,
) -> Result<AnswerOf<P>, String> {
    let line = process.receive_line(timeout, waiting_for)?;
    parse_answer::<P>(&line).map_err(|e| {
        format!("malformed answer: {e}; the line was `{}`{}", quote_bytes(&line), process.stderr_suffix())
    })
}

fn describe_answer<D, S, O>(a: &Answer<D, S, O>) -> String {
    match a {
        Answer::Hello { .. } => "a hello".to_string(),
        Answer::Result { id, .. } => format!("a result for case `{}`", quote(id)),
        Answer::Unsupported { id, .. } => format!("an unsupported answer for case `{}`", quote(id)),
        Answer::Error { id: Some(id), .. } => format!("an error for case `{}`", quote(id)),
        Answer::Error { id: None, message } => format!("an error without an id (`{}`)", quote(message)),
    }
}

/// A DUT as a [`Model`]: cases run one at a time (a mutex guards the process), each answered
/// within the timeout or recorded as failed, with the process restarted before the next case.
pub struct ExternalModel<P: Protocol> {
    argv: Vec<String>,
    chip: <P::Isa as Isa>::Chip,
    timeout: Duration,
    name: String,
    version: String,
    declaration: Option<<P::Isa as Isa>::Declaration>,
    /// The optional state fields the DUT reads (its first hello's).
    reads: Vec<String>,
    cancel: Cancel,
    inner: Mutex<Inner>,
}

struct Inner {
    process: Option<Process>,
    next_id: u64,
    failed_starts: u32,
    /// Cases in a row that got no answer within the timeout.
    timeouts: u32,
    /// Cases in a row that ended the process (malformed answer, crash, timeout).
    faults: u32,
    /// Why the DUT was given up on, once it was.
    given_up: Option<String>,
}

impl<P: Protocol> fmt::Debug for ExternalModel<P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ExternalModel")
            .field("protocol", &P::PROTOCOL)
            .field("argv", &self.argv)
            .field("chip", &self.chip)
            .field("timeout", &self.timeout)
            .field("name", &self.name)
            .field("version", &self.version)
            .finish_non_exhaustive()
    }
}

impl<P: Protocol> ExternalModel<P> {
    /// Starts the DUT `command_line` (split by [`split_command_line`]: shell-like quoting, no
    /// shell) for `chip`, and exchanges hellos. `timeout` bounds each case's answer (the hello
    /// gets at least [`MIN_HELLO_TIMEOUT`]).
    ///
    /// A DUT that refuses the hello (an `error` answer, or a hello not naming the chip) gives
    /// [`ModelError::Unsupported`] (run it as a [`RefusedDut`] to record every case as
    /// unsupported); a DUT that cannot be started, crashes, hangs or answers something else, and a
    /// zero `timeout`, give [`ModelError::Failed`].
    pub fn spawn(
        command_line: &str,
        chip: <P::Isa as Isa>::Chip,
        timeout: Duration,
    ) -> Result<Self, ModelError> {
        ExternalModel::spawn_cancellable(command_line, chip, timeout, &Cancel::default())
    }

    /// [`spawn`](ExternalModel::spawn) for a run that `cancel` interrupts: once it is raised, a
    /// wait for the DUT's hello or answer ends within [`Cancel::POLL`], the process is killed,
    /// and the call gives [`ModelError::Interrupted`] (the process is killed without the grace
    /// of a `bye` when the model is dropped).
    pub fn spawn_cancellable(
        command_line: &str,
        chip: <P::Isa as Isa>::Chip,
        timeout: Duration,
        cancel: &Cancel,
    ) -> Result<Self, ModelError> {
        let argv = split_command_line(command_line).map_err(ModelError::Failed)?;
        ExternalModel::start_argv(&argv, chip, timeout, cancel)
    }

    /// [`spawn`](ExternalModel::spawn) with the program and its arguments already split.
    pub fn spawn_argv(
        argv: &[String],
        chip: <P::Isa as Isa>::Chip,
        timeout: Duration,
    ) -> Result<Self, ModelError> {
        ExternalModel::start_argv(argv, chip, timeout, &Cancel::default())
    }

    fn start_argv(
        argv: &[String],
        chip: <P::Isa as Isa>::Chip,
        timeout: Duration,
        cancel: &Cancel,
    ) -> Result<Self, ModelError> {
        if timeout.is_zero() {
            return Err(ModelError::Failed("the per-case timeout must be positive".to_string()));
        }
        let (process, name, version, declaration, reads) =
            start::<P>(argv, chip, timeout, cancel).map_err(StartError::into_model_error)?;
        Ok(ExternalModel {
            argv: argv.to_vec(),
            chip,
            timeout,
            name,
            version,
            declaration,
            reads,
            cancel: cancel.clone(),
            inner: Mutex::new(Inner {
                process: Some(process),
                next_id: 1,
                failed_starts: 0,
                timeouts: 0,
                faults: 0,
                given_up: None,
            }),
        })
    }

    /// The DUT as its hello named it: `name version`.
    pub fn describe(&self) -> String {
        format!("{} {}", self.name, self.version)
    }

    /// What the DUT's first hello declared it models (`None`: nothing declared, everything).
    pub fn declared(&self) -> Option<&<P::Isa as Isa>::Declaration> {
        self.declaration.as_ref()
    }

    /// Why the DUT was given up on, if it was: every case now fails at once.
    pub fn given_up(&self) -> Option<String> {
        self.inner.lock().unwrap_or_else(PoisonError::into_inner).given_up.clone()
    }

    fn check_chip(&self, chip: <P::Isa as Isa>::Chip) -> Result<(), ModelError> {
        if chip != self.chip {
            return Err(ModelError::Unsupported(format!(
                "the DUT was started for {}, not {}",
                <P::Isa as Isa>::chip_name(self.chip),
                <P::Isa as Isa>::chip_name(chip)
            )));
        }
        Ok(())
    }

    /// Runs one case under an id of the caller's choosing (a vector id, say, which then appears
    /// in the DUT's own logs). [`Model::run`] numbers cases `1`, `2`, ... instead.
    pub fn run_case(
        &self,
        id: &str,
        chip: <P::Isa as Isa>::Chip,
        pre: &<P::Isa as Isa>::State,
        program: &[<P::Isa as Isa>::Word],
    ) -> RunResult<P::Isa> {
        self.check_chip(chip)?;
        let mut inner = self.inner.lock().unwrap_or_else(PoisonError::into_inner);
        self.run_locked(&mut inner, id, pre, program)
    }

    fn run_locked(
        &self,
        inner: &mut Inner,
        id: &str,
        pre: &<P::Isa as Isa>::State,
        program: &[<P::Isa as Isa>::Word],
    ) -> RunResult<P::Isa> {
        if self.cancel.is_cancelled() {
            return Err(ModelError::Interrupted);
        }
        if let Some(why) = &inner.given_up {
            return Err(ModelError::Failed(why.clone()));
        }
        let process = match &mut inner.process {
            Some(p) => p,
            slot @ None => match start::<P>(&self.argv, self.chip, self.timeout, &self.cancel) {
                Ok((p, ..)) => {
                    inner.failed_starts = 0;
                    slot.insert(p)
                }
                Err(StartError::Interrupted) => return Err(ModelError::Interrupted),
                Err(e) => {
                    inner.failed_starts += 1;
                    let e = e.into_model_error();
                    let message = format!("cannot restart the DUT: {}", model_error_text(&e));
                    if inner.failed_starts >= MAX_FAILED_STARTS {
                        inner.given_up = Some(format!(
                            "the DUT was given up on after {MAX_FAILED_STARTS} failed restarts; the last: {message}"
                        ));
                    }
                    return Err(ModelError::Failed(message));
                }
            },
        };
        let words: Vec<String> = program.iter().map(|&w| <P::Isa as Isa>::word_hex(w)).collect();
        let mut state = P::case_state(pre);
        if let Value::Object(fields) = &mut state {
            fields.retain(|k, _| {
                !P::OPTIONAL_STATE_FIELDS.contains(&k.as_str()) || self.reads.iter().any(|r| r == k)
            });
        }
        process.send(&serde_json::json!({"type": "case", "id": id, "state": state, "program": words}));
        let waiting_for = format!("case `{id}`");
        let answer = receive::<P>(process, self.timeout, &waiting_for);
        if answer.is_err() && self.cancel.is_cancelled() {
            // Whatever went wrong, the run is being interrupted: the case did not complete.
            inner.process = None; // killed and reaped
            return Err(ModelError::Interrupted);
        }
        if process.timed_out {
            inner.timeouts += 1;
        } else {
            inner.timeouts = 0;
        }
        let fatal = match answer {
            Ok(Answer::Result { id: got, state, outcome }) if got == id => match P::apply(pre, &state) {
                Ok(post) => {
                    inner.faults = 0;
                    return Ok(Run { post, outcome });
                }
                Err(e) => format!("malformed answer: the result's state does not apply: {e}"),
            },
            Ok(Answer::Unsupported { id: got, reason }) if got == id => {
                inner.faults = 0;
                return Err(ModelError::Unsupported(quote(&reason)));
            }
            Ok(Answer::Error { id: got, message }) if got.as_deref().is_none_or(|g| g == id) => {
                inner.faults = 0;
                return Err(ModelError::Failed(format!("the DUT reported an error: {}", quote(&message))));
            }
            Ok(other) => {
                format!(
                    "malformed answer: expected the answer to {waiting_for}, got {}",
                    describe_answer(&other)
                )
            }
            Err(e) => e,
        };
        if let Some(p) = inner.process.take() {
            drop(p); // kill and reap; the next case starts a fresh one
        }
        inner.faults += 1;
        if inner.timeouts >= MAX_CONSECUTIVE_TIMEOUTS {
            inner.given_up = Some(format!(
                "the DUT was given up on after {MAX_CONSECUTIVE_TIMEOUTS} consecutive timeouts of {} \
                 (no answer to {MAX_CONSECUTIVE_TIMEOUTS} cases in a row); the last: {fatal}",
                show_duration(self.timeout)
            ));
        } else if inner.faults >= MAX_CONSECUTIVE_FAULTS {
            inner.given_up = Some(format!(
                "the DUT was given up on after {MAX_CONSECUTIVE_FAULTS} consecutive cases without a valid \
                 answer (each a malformed answer, a crash or a timeout, and a restart); the last: {fatal}"
            ));
        }
        Err(ModelError::Failed(fatal))
    }
}

fn model_error_text(e: &ModelError) -> String {
    match e {
        ModelError::Unsupported(m) | ModelError::Failed(m) => m.clone(),
        ModelError::Interrupted => "interrupted".to_string(),
    }
}

impl<P: Protocol> Model<P::Isa> for ExternalModel<P> {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn declaration(&self) -> Option<&<P::Isa as Isa>::Declaration> {
        self.declaration.as_ref()
    }

    fn run(
        &self,
        chip: <P::Isa as Isa>::Chip,
        pre: &<P::Isa as Isa>::State,
        program: &[<P::Isa as Isa>::Word],
    ) -> RunResult<P::Isa> {
        self.check_chip(chip)?;
        let mut inner = self.inner.lock().unwrap_or_else(PoisonError::into_inner);
        let id = inner.next_id.to_string();
        inner.next_id += 1;
        self.run_locked(&mut inner, &id, pre, program)
    }
}

impl<P: Protocol> Drop for ExternalModel<P> {
    fn drop(&mut self) {
        let inner = self.inner.get_mut().unwrap_or_else(PoisonError::into_inner);
        if let Some(p) = inner.process.take() {
            p.shutdown();
        }
    }
}

/// A DUT that refused the hello (the protocol or the chip), as a [`Model`] of any instruction
/// set: every case is [`ModelError::Unsupported`] with the DUT's reason, so the report shows the
/// whole DUT as unsupported (`docs/dut-protocol.md`) rather than failing the run.
#[derive(Clone, Debug)]
pub struct RefusedDut {
    reason: String,
}

impl RefusedDut {
    /// A DUT that refused with `reason` (the [`ModelError::Unsupported`] message of
    /// [`ExternalModel::spawn`]).
    pub fn new(reason: impl Into<String>) -> RefusedDut {
        RefusedDut { reason: reason.into() }
    }

    /// Why it refused.
    pub fn reason(&self) -> &str {
        &self.reason
    }
}

impl<I: Isa> Model<I> for RefusedDut {
    fn name(&self) -> String {
        "refused".to_string()
    }

    fn run(
        &self,
        _chip: I::Chip,
        _pre: &I::State,
        _program: &[I::Word],
    ) -> Result<Run<I::State, I::Outcome>, ModelError> {
        Err(ModelError::Unsupported(self.reason.clone()))
    }
}
