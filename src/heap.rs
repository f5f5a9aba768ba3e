//! The process's allocator: the system's, counting the heap bytes each thread allocates and
//! frees, so that a call into a puzzle's program (a script function) can be held to a memory
//! limit ([`crate::puzzles::call_limits`]) without the process aborting when memory runs out.
//!
//! The count is per thread and costs one thread-local addition per allocation. Memory freed
//! on another thread than the one that allocated it is subtracted there: a thread's count is
//! meaningful as a difference over a stretch of its own work (bytes held at the end of a call
//! that were not held at its start), not as a total.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

/// The allocator under the count: the system's. mimalloc was tried (issue 56 item 15) and
/// not kept: the script bench gained under 5 % on a quiet machine, while the frame bench's
/// longest frames grew from 16-38 ms to 100-113 ms (docs/benchmarks.md).
const INNER: System = System;

/// The system allocator, counting each thread's bytes (see the module documentation).
pub struct Counting;

thread_local! {
    /// Bytes this thread allocated minus the bytes it freed (wrapping).
    static NET: Cell<i64> = const { Cell::new(0) };
}

#[inline]
fn add(bytes: i64) {
    // A constant-initialised cell without a destructor: available until the thread ends.
    let _ = NET.try_with(|n| n.set(n.get().wrapping_add(bytes)));
}

// SAFETY: every method forwards to the system allocator unchanged; the counting touches no
// memory the allocator hands out.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract is passed on unchanged.
        let p = unsafe { INNER.alloc(layout) };
        if !p.is_null() {
            add(layout.size() as i64);
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as `alloc`.
        let p = unsafe { INNER.alloc_zeroed(layout) };
        if !p.is_null() {
            add(layout.size() as i64);
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: as `alloc`.
        unsafe { INNER.dealloc(ptr, layout) };
        add(-(layout.size() as i64));
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: as `alloc`.
        let p = unsafe { INNER.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            add(new_size as i64 - layout.size() as i64);
        }
        p
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// The heap bytes this thread has allocated minus those it has freed, since it began
/// (wrapping; compare two readings on one thread).
#[inline]
pub fn thread_net_bytes() -> i64 {
    NET.try_with(Cell::get).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::thread_net_bytes;

    #[test]
    fn a_thread_counts_what_it_holds() {
        let before = thread_net_bytes();
        let held = vec![0u8; 1 << 20];
        let during = thread_net_bytes();
        drop(held);
        let after = thread_net_bytes();
        assert!(during - before >= 1 << 20, "{before} -> {during}");
        assert!(after - before < 1 << 20, "{before} -> {after}");
    }
}
