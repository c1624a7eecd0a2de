//! How a session tells its front end where it is, and learns that it must stop: an [`Observer`]
//! opens a [`Phase`] per long step (a model's vectors, its random campaign), and says whether the
//! run was interrupted. The command line draws progress bars with it; tests and libraries use
//! [`Silent`]. A [`Cancel`] carries the interruption to what waits outside the session's loops (a
//! DUT's answer, its hello), so that those waits end within [`Cancel::POLL`] of it.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// One phase of a run: a number of steps, a message, an end.
pub trait Phase: Sync {
    /// `n` more steps done.
    fn inc(&self, n: u64);
    /// What the phase is doing now.
    fn message(&self, text: String);
    /// The phase is over; `text` says how it ended.
    fn finish(&self, text: String);
}

/// The front end of a session.
pub trait Observer: Sync {
    /// A phase of `steps` steps, labelled `label` (`blackhole vectors: fastpath`).
    fn phase(&self, steps: u64, label: &str) -> Box<dyn Phase + '_>;
    /// Whether the run must stop (an interruption): no further case starts once it says so.
    fn stopped(&self) -> bool;
    /// A remark for the user that is not an error (`note: DIR has no vectors for --only X`).
    fn note(&self, text: &str);
}

/// An observer that shows nothing and never stops the run.
#[derive(Clone, Copy, Debug, Default)]
pub struct Silent;

impl Phase for Silent {
    fn inc(&self, _: u64) {}
    fn message(&self, _: String) {}
    fn finish(&self, _: String) {}
}

impl Observer for Silent {
    fn phase(&self, _: u64, _: &str) -> Box<dyn Phase + '_> {
        Box::new(Silent)
    }

    fn stopped(&self) -> bool {
        false
    }

    fn note(&self, _: &str) {}
}

/// A run's interruption as a flag any thread can raise and any wait can poll: cheap to clone, all
/// clones share the flag. The default is never raised until [`cancel`](Cancel::cancel) is called.
#[derive(Clone, Debug, Default)]
pub struct Cancel(Arc<AtomicBool>);

impl Cancel {
    /// How often a wait that honours a [`Cancel`] looks at it.
    pub const POLL: Duration = Duration::from_millis(50);

    /// Raises the flag: every wait polling it ends.
    pub fn cancel(&self) {
        self.0.store(true, Ordering::SeqCst);
    }

    /// Whether the flag is raised.
    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::SeqCst)
    }
}
