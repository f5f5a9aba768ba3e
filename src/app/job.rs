//! One way to run background work: a [`Job`] is a named thread that may report progress and
//! ends with a result, stopped through its [`CancelToken`]; the UI drains it once a frame
//! under a budget, as it drains the solver's channel (rerun's pattern: named threads, the
//! worker wakes the UI, the UI never waits).

use std::sync::Arc;
use std::sync::mpsc::{self, Receiver, Sender, TryRecvError};
use std::time::{Duration, Instant};

use crate::search::CancelToken;

/// How long one [`Job::poll`] may spend taking progress messages: a job reporting faster
/// than the UI draws cannot freeze a frame; the rest waits for the next.
const POLL_BUDGET: Duration = Duration::from_millis(2);

/// A message from a job's thread.
enum Message<T, P> {
    Progress(P),
    Done(T),
}

/// What a job's work gets: its stop token, and a way to report progress that wakes the UI.
pub struct JobContext<T, P> {
    tx: Sender<Message<T, P>>,
    wake: Arc<dyn Fn() + Send + Sync>,
    /// Cancelled when the job is stopped (or dropped); carries the job's limits.
    pub cancel: CancelToken,
}

impl<T, P> JobContext<T, P> {
    /// Sends `progress` to the UI and wakes it. A job whose UI side is gone reports into
    /// nothing: its work should check [`JobContext::cancel`], which dropping cancels.
    pub fn progress(&self, progress: P) {
        let _ = self.tx.send(Message::Progress(progress));
        (self.wake)();
    }
}

/// Why a job gave no result.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum JobError {
    /// Its thread ended without an answer (it panicked).
    #[error("the {0} thread ended without an answer")]
    Ended(&'static str),
}

/// A background task on a named thread: progress messages of type `P` while it runs, a
/// result of type `T` at its end. Dropping the job stops it.
pub struct Job<T, P = ()> {
    name: &'static str,
    rx: Receiver<Message<T, P>>,
    cancel: CancelToken,
    started: Instant,
}

impl<T: Send + 'static, P: Send + 'static> Job<T, P> {
    /// Starts `work` on a thread named `name`, under the limits of `cancel`; `wake` is called
    /// after each progress message and at the end, so the UI draws a frame to take them.
    ///
    /// # Errors
    /// The operating system's error when the thread cannot be spawned.
    pub fn start(
        name: &'static str,
        cancel: CancelToken,
        wake: Arc<dyn Fn() + Send + Sync>,
        work: impl FnOnce(&JobContext<T, P>) -> T + Send + 'static,
    ) -> std::io::Result<Self> {
        let (tx, rx) = mpsc::channel();
        let context = JobContext {
            tx,
            wake,
            cancel: cancel.clone(),
        };
        std::thread::Builder::new()
            .name(name.into())
            // A job may call a puzzle script (the oracle, the state count, measures): the
            // stack its calls may need at the engine's depth limits.
            .stack_size(crate::puzzles::call_limits::THREAD_STACK)
            .spawn(move || {
                let result = work(&context);
                let _ = context.tx.send(Message::Done(result));
                (context.wake)();
            })?;
        Ok(Job {
            name,
            rx,
            cancel,
            started: Instant::now(),
        })
    }

    /// Takes the messages that arrived, for at most a couple of milliseconds: each progress
    /// message goes to `on_progress`, in order; the result once the work has ended (an error
    /// when its thread ended without one). `None` while it runs.
    pub fn poll(&mut self, mut on_progress: impl FnMut(P)) -> Option<Result<T, JobError>> {
        let deadline = Instant::now() + POLL_BUDGET;
        loop {
            match self.rx.try_recv() {
                Ok(Message::Progress(p)) => on_progress(p),
                Ok(Message::Done(result)) => return Some(Ok(result)),
                Err(TryRecvError::Empty) => return None,
                Err(TryRecvError::Disconnected) => return Some(Err(JobError::Ended(self.name))),
            }
            if Instant::now() >= deadline {
                return None;
            }
        }
    }

    /// Waits for the work's result for at most `wait` (progress messages go to
    /// `on_progress` meanwhile): for work that usually ends within a frame's time (a short
    /// compile), so that its answer comes in the same frame, while a long one never holds
    /// the frame up for longer than `wait`. `None` while it runs.
    pub fn poll_for(
        &mut self,
        wait: Duration,
        mut on_progress: impl FnMut(P),
    ) -> Option<Result<T, JobError>> {
        let deadline = Instant::now() + wait;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.rx.recv_timeout(left) {
                Ok(Message::Progress(p)) => on_progress(p),
                Ok(Message::Done(result)) => return Some(Ok(result)),
                Err(mpsc::RecvTimeoutError::Timeout) => return None,
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    return Some(Err(JobError::Ended(self.name)));
                }
            }
        }
    }

    /// Asks the work to stop; its result (what it had when it stopped) still comes through
    /// [`Job::poll`].
    pub fn stop(&self) {
        self.cancel.cancel();
    }

    /// Whether [`Job::stop`] was called (or the job's limits were reached).
    pub fn is_stopped(&self) -> bool {
        self.cancel.is_cancelled()
    }

    /// The thread's name, which says what the job does.
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// How long the job has been running.
    pub fn elapsed(&self) -> Duration {
        self.started.elapsed()
    }
}

impl<T, P> Drop for Job<T, P> {
    fn drop(&mut self) {
        self.cancel.cancel();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn no_wake() -> Arc<dyn Fn() + Send + Sync> {
        Arc::new(|| {})
    }

    /// Polls until the job ends, collecting its progress.
    fn finish<T: Send + 'static, P: Send + 'static>(
        job: &mut Job<T, P>,
    ) -> (Vec<P>, Result<T, JobError>) {
        let mut seen = Vec::new();
        loop {
            if let Some(result) = job.poll(|p| seen.push(p)) {
                return (seen, result);
            }
            std::thread::sleep(Duration::from_millis(1));
        }
    }

    #[test]
    fn a_job_reports_its_progress_in_order_then_its_result() {
        let mut job = Job::start("count", CancelToken::new(), no_wake(), |cx| {
            for i in 0..1000 {
                cx.progress(i);
            }
            "done"
        })
        .unwrap();
        let (seen, result) = finish(&mut job);
        assert_eq!(seen, (0..1000).collect::<Vec<_>>());
        assert_eq!(result, Ok("done"));
        assert_eq!(job.name(), "count");
    }

    #[test]
    fn stop_reaches_the_work_and_its_answer_still_comes() {
        let mut job = Job::<u64>::start("spin", CancelToken::new(), no_wake(), |cx| {
            let mut n = 0;
            while !cx.cancel.is_cancelled() {
                n += 1;
                std::thread::yield_now();
            }
            n
        })
        .unwrap();
        job.stop();
        let (_, result) = finish(&mut job);
        assert!(result.is_ok());
    }

    #[test]
    fn a_thread_that_panics_is_an_error_not_a_hang() {
        let mut job = Job::<(), ()>::start("fails", CancelToken::new(), no_wake(), |_| {
            panic!("on purpose")
        })
        .unwrap();
        let (_, result) = finish(&mut job);
        assert_eq!(result, Err(JobError::Ended("fails")));
    }

    #[test]
    fn dropping_a_job_stops_its_work() {
        let cancel = CancelToken::new();
        let job = Job::<(), ()>::start("dropped", cancel.clone(), no_wake(), |cx| {
            while !cx.cancel.is_cancelled() {
                std::thread::sleep(Duration::from_millis(1));
            }
        })
        .unwrap();
        drop(job);
        assert!(cancel.is_cancelled());
    }
}
