//! Recording a kernel: the thread-local recorder behind the vector types.
//!
//! [`Kernel::record`] installs a recorder for the current thread, runs the kernel's closures, and
//! returns what they recorded. Every vector operation of [`crate::vector`] appends a statement
//! to the innermost open *frame*: the root of `init` or of the body, the body of a `v_if` arm or
//! `v_else`, a `v_block`, or an open `v_if` chain waiting for its `v_elseif` / `v_else` /
//! `v_endif` (whose statements are the next `v_elseif`'s condition operands, evaluated in the
//! lanes no earlier arm took, as SFPI's macros evaluate them after `cc.else_()`).
//!
//! Scopes track which lanes each value is defined in: a value computed inside an arm exists
//! only in the lanes that arm enables, so using it after `v_endif` is an error
//! ([`KernelError::ValueOutOfScope`]), while an assignment under predication
//! ([`Op::Merge`]) yields a value defined where the old one was.
//!
//! Misuse is an error of the recording, never a panic: the first error is kept and returned by
//! [`Kernel::record`]; vector operations after it return placeholder values.

use std::cell::RefCell;
use std::sync::atomic::{AtomicU32, Ordering};

use crate::error::KernelError;
use crate::ir::{Arm, Cond, IfStmt, Kernel, Op, ScopeId, Src, Stmt, VType, ValueId, ValueInfo};

thread_local! {
    static CURRENT: RefCell<Option<Recorder>> = const { RefCell::new(None) };
}

/// Recording generations, so that a value of one recording used in another is caught.
static NEXT_GEN: AtomicU32 = AtomicU32::new(1);

/// A value handle held by the vector types: the value and the recording it belongs to.
#[doc(hidden)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Handle {
    pub(crate) id: ValueId,
    pub(crate) generation: u32,
}

impl Handle {
    /// The placeholder returned after an error (or outside a recording).
    pub(crate) const POISON: Handle = Handle { id: u32::MAX, generation: 0 };
}

/// What a frame is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum FrameKind {
    /// The root of `init` or of the body.
    Root,
    /// The body of a `v_if` or `v_elseif` arm.
    Arm,
    /// The body of a `v_else`.
    Else,
    /// A `v_block`.
    Block,
    /// An open chain between its arms; its statements are the next arm's prelude.
    Chain,
}

pub(crate) struct Frame {
    id: u32,
    kind: FrameKind,
    /// The scope new values belong to (a `v_and` moves it to a child).
    scope: ScopeId,
    stmts: Vec<Stmt>,
    /// For a chain: the statement being built.
    chain: Option<IfStmt>,
}

pub(crate) struct Recorder {
    generation: u32,
    name: String,
    values: Vec<ValueInfo>,
    ops: Vec<&'static str>,
    scopes: Vec<Option<ScopeId>>,
    frames: Vec<Frame>,
    next_frame: u32,
    error: Option<KernelError>,
    in_init: bool,
}

/// Runs `f` on the current thread's recorder, if one is installed.
pub(crate) fn with<R>(f: impl FnOnce(&mut Recorder) -> R) -> Option<R> {
    CURRENT.with(|c| c.borrow_mut().as_mut().map(f))
}

/// Records `err` in the current recording (if any).
pub(crate) fn fail(err: impl FnOnce(&str) -> KernelError) {
    with(|r| r.fail(err));
}

impl Recorder {
    fn new(name: &str) -> Recorder {
        Recorder {
            generation: NEXT_GEN.fetch_add(1, Ordering::Relaxed),
            name: name.to_string(),
            values: Vec::new(),
            ops: Vec::new(),
            // Scope 0 is the root of init, scope 1 the root of the body.
            scopes: vec![None, None],
            frames: Vec::new(),
            next_frame: 0,
            error: None,
            in_init: false,
        }
    }

    /// The recording's generation.
    pub(crate) fn generation(&self) -> u32 {
        self.generation
    }

    /// Whether the init part is being recorded.
    pub(crate) fn in_init(&self) -> bool {
        self.in_init
    }

    /// Keeps the first error.
    pub(crate) fn fail(&mut self, err: impl FnOnce(&str) -> KernelError) {
        if self.error.is_none() {
            self.error = Some(err(&self.name));
        }
    }

    /// Whether an error has been recorded.
    pub(crate) fn failed(&self) -> bool {
        self.error.is_some()
    }

    fn new_scope(&mut self, parent: ScopeId) -> ScopeId {
        self.scopes.push(Some(parent));
        (self.scopes.len() - 1) as ScopeId
    }

    fn new_frame(&mut self, kind: FrameKind, scope: ScopeId) -> u32 {
        let id = self.next_frame;
        self.next_frame += 1;
        self.frames.push(Frame { id, kind, scope, stmts: Vec::new(), chain: None });
        id
    }

    /// The scope new values belong to.
    pub(crate) fn current_scope(&self) -> ScopeId {
        self.frames.last().map_or(1, |f| f.scope)
    }

    /// Whether any enclosing frame predicates (a `v_if` arm, `v_else`, `v_block`, or a chain's
    /// prelude).
    pub(crate) fn predicated(&self) -> bool {
        self.frames.iter().any(|f| f.kind != FrameKind::Root)
    }

    /// Whether scope `inner` is `outer` or nested in it.
    fn within(&self, mut inner: ScopeId, outer: ScopeId) -> bool {
        loop {
            if inner == outer {
                return true;
            }
            match self.scopes.get(inner as usize).copied().flatten() {
                Some(p) => inner = p,
                None => return false,
            }
        }
    }

    /// The operand for `h`, if it is a value of this recording defined in the current lanes.
    pub(crate) fn src(&mut self, h: Handle) -> Option<Src> {
        if self.failed() {
            return None;
        }
        if h.generation != self.generation || h.id as usize >= self.values.len() {
            self.fail(|k| KernelError::ForeignValue { kernel: k.to_string() });
            return None;
        }
        let info = self.values[h.id as usize];
        if !self.within(self.current_scope(), info.scope) {
            let op = self.ops[h.id as usize].to_string();
            self.fail(|k| KernelError::ValueOutOfScope { kernel: k.to_string(), op });
            return None;
        }
        Some(Src::Val(h.id))
    }

    /// Appends a statement to the innermost frame.
    pub(crate) fn push(&mut self, stmt: Stmt) {
        if let Some(f) = self.frames.last_mut() {
            f.stmts.push(stmt);
        }
    }

    fn add_value(&mut self, ty: VType, scope: ScopeId, name: &'static str) -> Handle {
        self.values.push(ValueInfo { ty, scope });
        self.ops.push(name);
        Handle { id: (self.values.len() - 1) as ValueId, generation: self.generation }
    }

    /// Records `op` as a new value of type `ty` in the current scope.
    pub(crate) fn value(&mut self, ty: VType, op: Op) -> Handle {
        if self.failed() {
            return Handle::POISON;
        }
        let scope = match op {
            Op::Merge { old, .. } => self.values[old as usize].scope,
            _ => self.current_scope(),
        };
        let h = self.add_value(ty, scope, op.name());
        self.push(Stmt::Let { id: h.id, op });
        h
    }

    /// A value defined where `like`'s is (the outputs of `vec_swap`, which keep their inputs in
    /// disabled lanes), recorded by the caller's statement.
    pub(crate) fn tied_value(&mut self, ty: VType, like: ValueId, name: &'static str) -> Handle {
        let scope = self.values[like as usize].scope;
        self.add_value(ty, scope, name)
    }

    /// `old` replaced by `new` in the current lanes: `new` itself when `old` is defined in the
    /// current scope, otherwise an [`Op::Merge`].
    pub(crate) fn merge(&mut self, old: Handle, new: Handle) -> Handle {
        let (Some(o), Some(n)) = (self.src(old), self.src(new)) else { return Handle::POISON };
        let Src::Val(old_id) = o else { return Handle::POISON };
        if self.values[old_id as usize].scope == self.current_scope() {
            return new;
        }
        let ty = self.values[old_id as usize].ty;
        self.value(ty, Op::Merge { old: old_id, new: n })
    }

    /// `old` replaced by the constant register `reg` in the current lanes.
    pub(crate) fn merge_const(&mut self, old: Handle, reg: u8) -> Handle {
        let Some(Src::Val(old_id)) = self.src(old) else { return Handle::POISON };
        let ty = self.values[old_id as usize].ty;
        if self.values[old_id as usize].scope == self.current_scope() {
            return self.value(ty, Op::ConstReg(reg));
        }
        self.value(ty, Op::Merge { old: old_id, new: Src::Const(reg) })
    }

    /// Checks that every operand of `cond` is defined in the current lanes.
    pub(crate) fn check_cond(&mut self, cond: &Cond) -> bool {
        for s in cond.srcs() {
            if let Src::Val(id) = s
                && self.src(Handle { id, generation: self.generation }).is_none()
            {
                return false;
            }
        }
        !self.failed()
    }

    /// Opens the first arm of a `v_if` chain; returns the arm frame's id.
    pub(crate) fn begin_if(&mut self) -> u32 {
        let scope = self.new_scope(self.current_scope());
        self.new_frame(FrameKind::Arm, scope)
    }

    /// Closes the body frame `frame` (an arm, `v_else` or `v_block`), returning its statements.
    fn close_body(&mut self, frame: u32) -> Option<Vec<Stmt>> {
        let pos = self.frames.iter().rposition(|f| f.id == frame)?;
        if pos + 1 != self.frames.len() {
            // An inner chain was left open in the body.
            self.fail(|k| KernelError::UnclosedVIf { kernel: k.to_string() });
            self.frames.truncate(pos + 1);
        }
        self.frames.pop().map(|f| f.stmts)
    }

    /// Closes the first arm (`frame`) of a new chain with condition `cond` and opens the chain's
    /// frame; returns the chain frame's id.
    pub(crate) fn end_first_arm(&mut self, frame: u32, cond: Cond) -> Option<u32> {
        let body = self.close_body(frame)?;
        let enclosing = self.current_scope();
        let else_scope = self.new_scope(enclosing);
        let id = self.new_frame(FrameKind::Chain, else_scope);
        if let Some(f) = self.frames.last_mut() {
            f.chain = Some(IfStmt { arms: vec![Arm { prelude: vec![], cond, body }], else_body: None });
        }
        Some(id)
    }

    /// Checks that `chain` is the innermost frame, for a `what` continuation.
    fn chain_on_top(&mut self, chain: u32, what: &str) -> bool {
        match self.frames.last() {
            Some(f) if f.id == chain && f.kind == FrameKind::Chain => true,
            _ => {
                let what = format!("{what} applied to a v_if chain that is not the innermost open construct");
                self.fail(|k| KernelError::Misnested { kernel: k.to_string(), what });
                false
            }
        }
    }

    /// Opens a `v_elseif` arm of `chain`: the statements recorded since the previous arm become
    /// its prelude. Returns the arm frame's id.
    pub(crate) fn begin_elseif(&mut self, chain: u32) -> Option<u32> {
        if !self.chain_on_top(chain, "v_elseif") {
            return None;
        }
        let scope = self.new_scope(self.current_scope());
        Some(self.new_frame(FrameKind::Arm, scope))
    }

    /// Closes a `v_elseif` arm (`frame`) of `chain` with condition `cond`.
    pub(crate) fn end_elseif(&mut self, frame: u32, cond: Cond) {
        let Some(body) = self.close_body(frame) else { return };
        let next = self.new_scope(self.current_scope());
        if let Some(f) = self.frames.last_mut() {
            let prelude = std::mem::take(&mut f.stmts);
            if let Some(c) = f.chain.as_mut() {
                c.arms.push(Arm { prelude, cond, body });
            }
            f.scope = next;
        }
    }

    /// Checks that nothing was recorded between the last arm of `chain` and a `v_else` or
    /// `v_endif`.
    fn no_prelude(&mut self, what: &str) -> bool {
        if self.frames.last().is_some_and(|f| !f.stmts.is_empty()) {
            let what = format!("vector code recorded between a v_if body and its {what}");
            self.fail(|k| KernelError::Misnested { kernel: k.to_string(), what });
            return false;
        }
        true
    }

    /// Opens the `v_else` body of `chain`; returns its frame's id.
    pub(crate) fn begin_else(&mut self, chain: u32) -> Option<u32> {
        if !self.chain_on_top(chain, "v_else") || !self.no_prelude("v_else") {
            return None;
        }
        let scope = self.new_scope(self.current_scope());
        Some(self.new_frame(FrameKind::Else, scope))
    }

    /// Closes the `v_else` body (`frame`) of the chain below it.
    pub(crate) fn end_else(&mut self, frame: u32) {
        let Some(body) = self.close_body(frame) else { return };
        if let Some(c) = self.frames.last_mut().and_then(|f| f.chain.as_mut()) {
            c.else_body = Some(body);
        }
    }

    /// `v_endif`: closes `chain` and appends the `v_if` statement to the enclosing frame.
    pub(crate) fn end_chain(&mut self, chain: u32) {
        if !self.chain_on_top(chain, "v_endif") || !self.no_prelude("v_endif") {
            return;
        }
        if let Some(f) = self.frames.pop()
            && let Some(c) = f.chain
        {
            self.push(Stmt::If(c));
        }
    }

    /// Whether `chain` is still open (for the drop check of an unclosed chain).
    pub(crate) fn chain_open(&self, chain: u32) -> bool {
        self.frames.iter().any(|f| f.id == chain)
    }

    /// Opens a `v_block`; returns its frame's id.
    pub(crate) fn begin_block(&mut self) -> u32 {
        let scope = self.new_scope(self.current_scope());
        self.new_frame(FrameKind::Block, scope)
    }

    /// Closes the `v_block` `frame`.
    pub(crate) fn end_block(&mut self, frame: u32) {
        if let Some(body) = self.close_body(frame) {
            self.push(Stmt::Block(body));
        }
    }

    /// `v_and(cond)`: narrows the rest of the innermost `v_block` or arm body.
    pub(crate) fn and(&mut self, cond: Cond) {
        match self.frames.last().map(|f| f.kind) {
            Some(FrameKind::Arm | FrameKind::Else | FrameKind::Block) => {}
            _ => {
                self.fail(|k| KernelError::VAndOutsideBlock { kernel: k.to_string() });
                return;
            }
        }
        if !self.check_cond(&cond) {
            return;
        }
        self.push(Stmt::And(cond));
        let scope = self.new_scope(self.current_scope());
        if let Some(f) = self.frames.last_mut() {
            f.scope = scope;
        }
    }
}

/// Removes the recorder when recording ends, even if a kernel closure panics.
struct Installed;

impl Drop for Installed {
    fn drop(&mut self) {
        CURRENT.with(|c| c.borrow_mut().take());
    }
}

impl Kernel {
    /// Records a kernel with only a body: `body` runs once and its vector operations are
    /// recorded; the body is what SFPI's kernel function does for one row of 32 lanes
    /// (`dst_reg[n]` is relative to that row).
    ///
    /// Returns the first error of the recording: an unclosed or misnested `v_if`, a value used
    /// outside its lanes, a bad argument.
    pub fn record(name: &str, body: impl FnOnce()) -> Result<Kernel, KernelError> {
        Kernel::record_with_init(name, || {}, body)
    }

    /// Records a kernel with an `init` part (run once before the rows, where SFPI programs set
    /// the programmable constants) and a body.
    pub fn record_with_init(
        name: &str,
        init: impl FnOnce(),
        body: impl FnOnce(),
    ) -> Result<Kernel, KernelError> {
        let busy = CURRENT.with(|c| c.borrow().as_ref().map(|r| r.name.clone()));
        if let Some(kernel) = busy {
            // Poison the outer recording too: the nested call is a bug in its kernel.
            with(|r| r.fail(|k| KernelError::NestedRecording { kernel: k.to_string() }));
            return Err(KernelError::NestedRecording { kernel });
        }
        CURRENT.with(|c| *c.borrow_mut() = Some(Recorder::new(name)));
        let guard = Installed;
        let mut parts = Vec::new();
        for (root, is_init, part) in
            [(0, true, Box::new(init) as Box<dyn FnOnce()>), (1, false, Box::new(body))]
        {
            let frame = with(|r| {
                r.in_init = is_init;
                r.new_frame(FrameKind::Root, root)
            });
            part();
            let stmts = with(|r| r.close_body(frame.unwrap_or(0))).flatten().unwrap_or_default();
            parts.push(stmts);
        }
        let rec = CURRENT.with(|c| c.borrow_mut().take());
        drop(guard);
        let Some(rec) = rec else {
            return Err(KernelError::Unsupported {
                kernel: name.to_string(),
                what: "the recorder was removed during recording".into(),
            });
        };
        if let Some(e) = rec.error {
            return Err(e);
        }
        let body = parts.pop().unwrap_or_default();
        let init = parts.pop().unwrap_or_default();
        Ok(Kernel { name: rec.name, init, body, values: rec.values, scopes: rec.scopes })
    }
}
