//! This binary's global allocator, which two kinds of test read: the allocations made on the
//! calling thread while it counts ([`allocations`], for "no allocation per execution"), and the
//! bytes allocated and not yet freed on every thread with their peak ([`peak_of`], for "memory
//! does not grow with the number of cases"). Every call is forwarded to the system allocator.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicUsize, Ordering};

struct Measuring;

thread_local! {
    /// Allocations on this thread while `COUNTING` is set.
    static COUNT: Cell<usize> = const { Cell::new(0) };
    static COUNTING: Cell<bool> = const { Cell::new(false) };
}

/// Bytes allocated and not freed, on every thread.
static LIVE: AtomicUsize = AtomicUsize::new(0);
/// The most `LIVE` has been since the last reset.
static PEAK: AtomicUsize = AtomicUsize::new(0);

fn note(grown: usize) {
    // `try_with`: the allocator also runs while thread-locals are being torn down.
    let _ = COUNTING.try_with(|on| {
        if on.get() {
            let _ = COUNT.try_with(|c| c.set(c.get() + 1));
        }
    });
    let now = LIVE.fetch_add(grown, Ordering::Relaxed) + grown;
    PEAK.fetch_max(now, Ordering::Relaxed);
}

// SAFETY: every call is forwarded to `System` unchanged; the bookkeeping touches only
// const-initialised thread-locals (which do not allocate) and two atomics.
unsafe impl GlobalAlloc for Measuring {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        note(layout.size());
        // SAFETY: the caller's contract, forwarded.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        note(layout.size());
        // SAFETY: the caller's contract, forwarded.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        // SAFETY: the caller's contract, forwarded.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if new_size >= layout.size() {
            note(new_size - layout.size());
        } else {
            note(0);
            LIVE.fetch_sub(layout.size() - new_size, Ordering::Relaxed);
        }
        // SAFETY: the caller's contract, forwarded.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Measuring = Measuring;

/// The allocations `f` makes on this thread.
pub fn allocations(f: impl FnOnce()) -> usize {
    COUNT.with(|c| c.set(0));
    COUNTING.with(|on| on.set(true));
    f();
    COUNTING.with(|on| on.set(false));
    COUNT.with(|c| c.get())
}

/// The most memory `f` had allocated at once (on every thread), above what was allocated before
/// it, and its result. Only meaningful when nothing else runs in the process: see
/// [`in_a_process_of_its_own`].
pub fn peak_of<T>(f: impl FnOnce() -> T) -> (usize, T) {
    let before = LIVE.load(Ordering::Relaxed);
    PEAK.store(before, Ordering::Relaxed);
    let out = f();
    (PEAK.load(Ordering::Relaxed).saturating_sub(before), out)
}

/// Runs the test named `name` (its full path in this binary) in a child process of this binary
/// with no other test beside it, and returns `true` there; in the parent, waits for the child,
/// fails if it failed, and returns `false`. For measurements other tests' threads would disturb.
pub fn in_a_process_of_its_own(name: &str) -> bool {
    const CHILD: &str = "HARNESS_SFPU_TEST_ALONE";
    if std::env::var_os(CHILD).is_some() {
        return true;
    }
    let me = std::env::current_exe().expect("the test binary's path");
    let out = std::process::Command::new(me)
        .args([name, "--exact", "--test-threads=1", "--nocapture"])
        .env(CHILD, "1")
        .output()
        .expect("run the test binary again");
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "{name} failed in its own process:\n{text}");
    assert!(text.contains("1 passed"), "{name} did not run in its own process:\n{text}");
    eprint!("{text}");
    false
}
