//! Test support (feature `testing`): a counting allocator, installed by a test binary as
//! its `#[global_allocator]`, and `peak_of`, which answers how many bytes a piece of work
//! held at its peak. Counts are per thread, so tests running side by side do not mix.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

/// The system allocator, counting each thread's bytes in use and their peak.
pub struct CountingAllocator;

thread_local! {
    static IN_USE: Cell<isize> = const { Cell::new(0) };
    static PEAK: Cell<isize> = const { Cell::new(0) };
}

fn size_of(layout: Layout) -> isize {
    isize::try_from(layout.size()).unwrap_or(isize::MAX)
}

// The counters are const thread-locals: reading them allocates nothing. During a thread's
// teardown they may be gone, and the count is skipped.
#[allow(unsafe_code)]
unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwards the caller's layout to the system allocator unchanged.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            let _ = IN_USE.try_with(|n| {
                n.set(n.get() + size_of(layout));
                let _ = PEAK.try_with(|peak| peak.set(peak.get().max(n.get())));
            });
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from `alloc` above with this layout.
        unsafe { System.dealloc(ptr, layout) };
        let _ = IN_USE.try_with(|n| n.set(n.get() - size_of(layout)));
    }
}

/// Runs `f` and answers, with its result, the most bytes it held at once on this thread
/// beyond what was held before (0 when the counting allocator is not installed).
pub fn peak_of<T>(f: impl FnOnce() -> T) -> (T, usize) {
    let start = IN_USE.with(Cell::get);
    PEAK.with(|p| p.set(start));
    let out = f();
    let peak = PEAK.with(Cell::get) - start;
    (out, usize::try_from(peak).unwrap_or(0))
}
