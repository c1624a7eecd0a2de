//! External implementations ("devices under test", DUTs): any program that speaks the
//! `sfpu-dut/1` JSON-lines protocol on its standard input and output, checked through the same
//! [`Model`] interface as the reference. The protocol is specified in `docs/dut-protocol.md`;
//! `examples/dut-python/` is a working DUT to start from.
//!
//! The harness never trusts a DUT. Every answer is validated ([`parse_answer`] is a pure function
//! that accepts any bytes without panicking); a malformed answer, a crash, or a case that gets no
//! answer within the per-case timeout fails that case with a message saying which, the process is
//! killed and reaped, and a fresh one (with a fresh hello) is started for the next case. The
//! DUT's standard output is read on its own thread and its standard error drained on another (the
//! last few KB are kept for error messages), so neither a hung nor a chatty DUT can block the
//! harness; the case is written to it on a third thread for the same reason.
//!
//! On Unix the DUT runs in a process group of its own, and killing it kills the whole group, so
//! a DUT started through a shell (`sh -c '...'` without `exec`) leaves no hung grandchild behind.
//! A DUT is given up on after [`MAX_FAILED_STARTS`] consecutive failed restarts,
//! [`MAX_CONSECUTIVE_TIMEOUTS`] consecutive timeouts, or [`MAX_CONSECUTIVE_FAULTS`] consecutive
//! cases that each cost a restart (a malformed answer, a crash, a timeout): every later case then
//! fails at once, with the reason, and nothing computed before is lost.
//!
//! The process handling (threads, process group, timeouts, the stderr tail) is `process.rs` and
//! knows neither the protocol's messages nor an instruction set; this module is the protocol.

use std::fmt;
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use serde::Deserialize;
use serde_json::Value;
use sfpu_reference::State;
use sfpu_reference::isa::Arch;
use sfpu_reference::outcome::{Clause, Outcome};
use sfpu_reference::state::{Hex, StateDoc};

pub use crate::dut::process::{MAX_LINE, split_command_line};
use crate::dut::process::{Process, quote, quote_bytes, show_duration};
use crate::sfpu::declaration::Declaration;
use crate::sfpu::model::{ModelError, Run};

/// The protocol identifier the harness sends in its hello and expects back.
pub const PROTOCOL: &str = "sfpu-dut/1";

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

// ---------------------------------------------------------------------------------------------
// Answers.
// ---------------------------------------------------------------------------------------------

/// One line a DUT wrote, validated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// The DUT accepts the protocol and the architecture.
    Hello {
        /// The protocol it speaks (the harness requires [`PROTOCOL`]).
        protocol: String,
        /// The implementation's name.
        name: String,
        /// Its version.
        version: String,
        /// What it declares it models (`features`, `refuses`); `None` when the hello declares
        /// nothing (everything).
        declaration: Option<Declaration>,
        /// The chips it models (`archs`; `["blackhole"]` when the hello does not say).
        archs: Vec<String>,
    },
    /// The case ran.
    Result {
        /// The case's id, echoed.
        id: String,
        /// The parts of the final state the DUT models, to apply over the case's initial state
        /// (checked to describe a valid state).
        state: Box<StateDoc>,
        /// The DUT's verdict, if it reports one.
        outcome: Option<Outcome>,
    },
    /// The DUT does not implement something the case needs.
    Unsupported {
        /// The case's id, echoed.
        id: String,
        /// Why, for the report.
        reason: String,
    },
    /// The DUT could not run the case, or (without an id, in answer to the hello) refuses the
    /// protocol or the architecture.
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
    fn new(message: impl Into<String>) -> ProtocolError {
        ProtocolError { message: message.into() }
    }

    /// The explanation.
    pub fn message(&self) -> &str {
        &self.message
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct HelloAnswer {
    protocol: String,
    name: String,
    version: String,
    #[serde(default)]
    features: Option<Vec<String>>,
    #[serde(default)]
    refuses: Option<Vec<String>>,
    /// The chips the DUT models (`blackhole`, `wormhole`); absent: Blackhole only (the protocol
    /// before Wormhole).
    #[serde(default)]
    archs: Option<Vec<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ResultAnswer {
    id: String,
    state: StateDoc,
    #[serde(default)]
    outcome: Option<Vec<OutcomeNote>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct OutcomeNote {
    clause: String,
    lanes: Hex<8>,
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

/// Parses and validates one line a DUT wrote (without its `\n`; a trailing `\r` is tolerated).
///
/// Pure, and total: any bytes give an [`Answer`] or a [`ProtocolError`], never a panic. Unknown
/// fields, unknown answer types, unknown outcome clauses, out-of-range numbers, and state
/// documents that do not describe a valid state are all errors.
pub fn parse_answer(line: &[u8]) -> Result<Answer, ProtocolError> {
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
    let rest = Value::Object(map);
    let fields = |e: serde_json::Error| ProtocolError::new(format!("`{kind}` answer: {e}"));
    match kind.as_str() {
        "hello" => {
            let h: HelloAnswer = serde_json::from_value(rest).map_err(fields)?;
            let declaration = if h.features.is_none() && h.refuses.is_none() {
                None
            } else {
                let d = Declaration::from_hello(h.features.as_deref(), h.refuses.as_deref().unwrap_or(&[]))
                    .map_err(|e| ProtocolError::new(format!("`hello` answer: {}", quote(&e))))?;
                Some(d)
            };
            let archs = h.archs.unwrap_or_else(|| vec![Arch::Blackhole.to_string()]);
            Ok(Answer::Hello { protocol: h.protocol, name: h.name, version: h.version, declaration, archs })
        }
        "result" => {
            let r: ResultAnswer = serde_json::from_value(rest).map_err(fields)?;
            // Without `arch` the document may be for either chip (the case's chip decides, when the
            // state is applied to its pre state): it must be a valid state of one of them.
            let valid = match r.state.arch {
                Some(_) => r.state.to_state().map(|_| ()),
                None => r.state.to_state().map(|_| ()).or_else(|e| {
                    let mut wormhole = r.state.clone();
                    wormhole.arch = Some(Arch::Wormhole);
                    wormhole.to_state().map(|_| ()).map_err(|_| e)
                }),
            };
            if let Err(e) = valid {
                return Err(ProtocolError::new(format!("`result` answer: state: {e}")));
            }
            let outcome = match r.outcome {
                None => None,
                Some(notes) => {
                    let mut o = Outcome::defined();
                    for n in notes {
                        let clause = Clause::from_id(&n.clause).ok_or_else(|| {
                            ProtocolError::new(format!(
                                "`result` answer: outcome: unknown clause `{}`",
                                quote(&n.clause)
                            ))
                        })?;
                        o.note(clause, n.lanes.0);
                    }
                    Some(o)
                }
            };
            Ok(Answer::Result { id: r.id, state: Box::new(r.state), outcome })
        }
        "unsupported" => {
            let u: UnsupportedAnswer = serde_json::from_value(rest).map_err(fields)?;
            Ok(Answer::Unsupported { id: u.id, reason: u.reason })
        }
        "error" => {
            let e: ErrorAnswer = serde_json::from_value(rest).map_err(fields)?;
            Ok(Answer::Error { id: e.id, message: e.message })
        }
        other => Err(ProtocolError::new(format!(
            "unknown answer type `{}` (expected hello, result, unsupported or error)",
            quote(other)
        ))),
    }
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

/// A DUT-supplied text made safe to put in a one-line message: control characters become
/// spaces, and it is cut to [`QUOTE`] characters.
/// Why a DUT did not start.
enum StartError {
    /// It declined the hello (protocol or architecture): [`ModelError::Unsupported`].
    Refused(String),
    /// Anything else: [`ModelError::Failed`].
    Failed(String),
}

impl StartError {
    fn into_model_error(self) -> ModelError {
        match self {
            StartError::Refused(m) => ModelError::Unsupported(m),
            StartError::Failed(m) => ModelError::Failed(m),
        }
    }
}

/// Starts the DUT and exchanges hellos.
fn start(
    argv: &[String],
    arch: Arch,
    timeout: Duration,
) -> Result<(Process, String, String, Option<Declaration>), StartError> {
    let mut process = Process::spawn(argv).map_err(StartError::Failed)?;
    let hello = serde_json::json!({"type": "hello", "protocol": PROTOCOL, "arch": arch.to_string()});
    process.send(&hello);
    let timeout = timeout.max(MIN_HELLO_TIMEOUT);
    match receive(&mut process, timeout, "the hello") {
        Ok(Answer::Hello { protocol, name, version, declaration, archs }) => {
            if protocol != PROTOCOL {
                return Err(StartError::Failed(format!(
                    "the DUT speaks `{}`, the harness `{PROTOCOL}`",
                    quote(&protocol)
                )));
            }
            // A hello that does not name the chip declines it (no `archs`: Blackhole only).
            if !archs.iter().any(|a| *a == arch.to_string()) {
                return Err(StartError::Refused(format!(
                    "the DUT refused the hello ({PROTOCOL}, {arch}): its hello names {} only",
                    quote(&archs.join(", "))
                )));
            }
            Ok((process, quote(&name), quote(&version), declaration))
        }
        Ok(Answer::Error { message, .. }) => Err(StartError::Refused(format!(
            "the DUT refused the hello ({PROTOCOL}, {arch}): {}",
            quote(&message)
        ))),
        Ok(other) => Err(StartError::Failed(format!(
            "malformed answer: expected a hello, got {}",
            describe_answer(&other)
        ))),
        Err(e) => Err(StartError::Failed(e)),
    }
}

/// The next answer of `process`, or why there is none (timeout, crash, malformed line). After an
/// `Err` the process must be killed.
fn receive(process: &mut Process, timeout: Duration, waiting_for: &str) -> Result<Answer, String> {
    let line = process.receive_line(timeout, waiting_for)?;
    parse_answer(&line).map_err(|e| {
        format!("malformed answer: {e}; the line was `{}`{}", quote_bytes(&line), process.stderr_suffix())
    })
}

fn describe_answer(a: &Answer) -> String {
    match a {
        Answer::Hello { .. } => "a hello".to_string(),
        Answer::Result { id, .. } => format!("a result for case `{}`", quote(id)),
        Answer::Unsupported { id, .. } => format!("an unsupported answer for case `{}`", quote(id)),
        Answer::Error { id: Some(id), .. } => format!("an error for case `{}`", quote(id)),
        Answer::Error { id: None, message } => format!("an error without an id (`{}`)", quote(message)),
    }
}

// ---------------------------------------------------------------------------------------------
// The model.
// ---------------------------------------------------------------------------------------------

/// A DUT as a [`Model`]: cases run one at a time (a mutex guards the process), each answered
/// within the timeout or recorded as failed, with the process restarted before the next case.
pub struct ExternalModel {
    argv: Vec<String>,
    arch: Arch,
    timeout: Duration,
    name: String,
    version: String,
    declaration: Option<Declaration>,
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
    /// Set after [`MAX_FAILED_STARTS`] failed restarts or [`MAX_CONSECUTIVE_TIMEOUTS`]
    /// timeouts in a row: why the DUT was given up on.
    given_up: Option<String>,
}

impl fmt::Debug for ExternalModel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ExternalModel")
            .field("argv", &self.argv)
            .field("arch", &self.arch)
            .field("timeout", &self.timeout)
            .field("name", &self.name)
            .field("version", &self.version)
            .finish_non_exhaustive()
    }
}

impl ExternalModel {
    /// Starts the DUT `command_line` (split by [`split_command_line`]: shell-like quoting, no
    /// shell) for `arch`, and exchanges hellos. `timeout` bounds each case's answer (the hello
    /// gets at least [`MIN_HELLO_TIMEOUT`]).
    ///
    /// A DUT that refuses the hello (an `error` answer: wrong protocol or architecture) gives
    /// [`ModelError::Unsupported`] (run it as a [`RefusedDut`] to record every case as
    /// unsupported); a DUT that cannot be started, crashes, hangs or answers something else, and a
    /// zero `timeout`, give [`ModelError::Failed`].
    pub fn spawn(command_line: &str, arch: Arch, timeout: Duration) -> Result<ExternalModel, ModelError> {
        let argv = split_command_line(command_line).map_err(ModelError::Failed)?;
        ExternalModel::spawn_argv(&argv, arch, timeout)
    }

    /// [`spawn`](ExternalModel::spawn) with the program and its arguments already split.
    pub fn spawn_argv(argv: &[String], arch: Arch, timeout: Duration) -> Result<ExternalModel, ModelError> {
        if timeout.is_zero() {
            return Err(ModelError::Failed("the per-case timeout must be positive".to_string()));
        }
        let (process, name, version, declaration) =
            start(argv, arch, timeout).map_err(StartError::into_model_error)?;
        Ok(ExternalModel {
            argv: argv.to_vec(),
            arch,
            timeout,
            name,
            version,
            declaration,
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
    pub fn declared(&self) -> Option<&Declaration> {
        self.declaration.as_ref()
    }

    /// Why the DUT was given up on ([`MAX_FAILED_STARTS`] failed restarts,
    /// [`MAX_CONSECUTIVE_TIMEOUTS`] timeouts or [`MAX_CONSECUTIVE_FAULTS`] faults in a row), if it
    /// was: every case now fails at once.
    pub fn given_up(&self) -> Option<String> {
        self.inner.lock().unwrap_or_else(PoisonError::into_inner).given_up.clone()
    }

    /// Runs one case under an id of the caller's choosing (a vector id, say, which then appears
    /// in the DUT's own logs). [`Model::run`] numbers cases `1`, `2`, ... instead.
    pub fn run_case(&self, id: &str, arch: Arch, pre: &State, program: &[u32]) -> Result<Run, ModelError> {
        if arch != self.arch {
            return Err(ModelError::Unsupported(format!(
                "the DUT was started for {}, not {arch}",
                self.arch
            )));
        }
        let mut inner = self.inner.lock().unwrap_or_else(PoisonError::into_inner);
        self.run_locked(&mut inner, id, pre, program)
    }

    fn run_locked(
        &self,
        inner: &mut Inner,
        id: &str,
        pre: &State,
        program: &[u32],
    ) -> Result<Run, ModelError> {
        if let Some(why) = &inner.given_up {
            return Err(ModelError::Failed(why.clone()));
        }
        let process = match &mut inner.process {
            Some(p) => p,
            slot @ None => match start(&self.argv, self.arch, self.timeout) {
                Ok((p, _, _, _)) => {
                    inner.failed_starts = 0;
                    slot.insert(p)
                }
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
        let program: Vec<String> = program.iter().map(|w| format!("0x{w:08x}")).collect();
        process.send(&serde_json::json!({
            "type": "case",
            "id": id,
            "state": StateDoc::from_state(pre),
            "program": program,
        }));
        let waiting_for = format!("case `{id}`");
        let answer = receive(process, self.timeout, &waiting_for);
        if process.timed_out {
            inner.timeouts += 1;
        } else {
            inner.timeouts = 0;
        }
        let fatal = match answer {
            Ok(Answer::Result { id: got, state, outcome }) if got == id => {
                let mut post = pre.clone();
                match state.apply_to(&mut post) {
                    Ok(()) => {
                        inner.faults = 0;
                        return Ok(Run { post, outcome });
                    }
                    Err(e) => format!("malformed answer: the result's state does not apply: {e}"),
                }
            }
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
    }
}

impl crate::isa::Model<crate::sfpu::Sfpu> for ExternalModel {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn declaration(&self) -> Option<&Declaration> {
        self.declaration.as_ref()
    }

    fn run(&self, arch: Arch, pre: &State, program: &[u32]) -> Result<Run, ModelError> {
        if arch != self.arch {
            return Err(ModelError::Unsupported(format!(
                "the DUT was started for {}, not {arch}",
                self.arch
            )));
        }
        let mut inner = self.inner.lock().unwrap_or_else(PoisonError::into_inner);
        let id = inner.next_id.to_string();
        inner.next_id += 1;
        self.run_locked(&mut inner, &id, pre, program)
    }
}

impl Drop for ExternalModel {
    fn drop(&mut self) {
        let inner = self.inner.get_mut().unwrap_or_else(PoisonError::into_inner);
        if let Some(p) = inner.process.take() {
            p.shutdown();
        }
    }
}

/// A DUT that refused the hello (the protocol or the architecture), as a [`Model`]: every case
/// is [`ModelError::Unsupported`] with the DUT's reason, so the report shows the whole DUT as
/// unsupported (`docs/dut-protocol.md`) rather than failing the run.
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

impl crate::isa::Model<crate::sfpu::Sfpu> for RefusedDut {
    fn name(&self) -> String {
        "refused".to_string()
    }

    fn run(&self, _arch: Arch, _pre: &State, _program: &[u32]) -> Result<Run, ModelError> {
        Err(ModelError::Unsupported(self.reason.clone()))
    }
}
