//! The recording warmer: a thread that makes a full-speed run's recording buffers ahead of
//! need, so that the solver thread writes its chunks into memory already mapped.

use std::sync::mpsc::{self, Sender};
use std::thread;

use crate::runs::recording::SpentChunk;

/// The fewest expansions in a chunk for which the warmer makes the next chunks' buffers.
pub(super) const WARM_FROM: usize = 16_384;
/// How many buffers the warmer makes ahead, at a run's first large chunk.
pub(super) const WARM_AHEAD: usize = 4;

/// Starts the thread (`recording-warmer`) that makes a full-speed run's recording buffers
/// ahead of need, every page written once ([`SpentChunk::warmed`]), and sends them to the
/// solver beside those the window gives back. A writer that writes its 100 MB of chunks in
/// new memory takes a page fault for each 4 KB page, a third of the search's time once the
/// window was busy; here they are taken on the other processor. Returns where to ask for a
/// buffer (the thread ends when that is dropped), `None` if the thread cannot start (the
/// solver then writes in new memory).
pub(super) fn spawn_warmer(buffers: Sender<SpentChunk>) -> Option<Sender<(usize, usize)>> {
    let (requests, asked) = mpsc::channel::<(usize, usize)>();
    thread::Builder::new()
        .name("recording-warmer".into())
        .spawn(move || {
            while let Ok((expansions, generated)) = asked.recv() {
                if buffers
                    .send(SpentChunk::warmed(expansions, generated))
                    .is_err()
                {
                    break;
                }
            }
        })
        .ok()?;
    Some(requests)
}
