//! The views group (`AppCommand::View`, a file a view claims, its work): what the view on
//! screen is asked to do ([`ViewRequest`], served right after the command that asked), and the
//! types' background work, owned by the app: a type's view hands the app a [`WorkOrder`] (what
//! to run, under what name and limits), the app starts it on a [`Job`], keeps it, and hands
//! what it sends (its progress messages, then its result) back to the view, each as one of the
//! view's own commands ([`super::TypeView::apply`]), in the frames that follow. The view keeps
//! only what it shows; no file of `src/ui` starts a thread (`tests/it/architecture.rs` checks
//! it).
//!
//! A view's work goes on while the view is put aside (another type on screen), and what it
//! sent waits until the type comes back, as it did when each view kept its own jobs.

use std::any::Any;
use std::path::Path;
use std::time::Duration;

use super::job::{Job, JobContext, JobError};
use super::view::ViewRequest;
use super::{AppState, ViewCommand};
use crate::search::CancelToken;

/// What a work order's thread sends to its view: one of the view's own commands.
type Sent = Box<dyn Any + Send>;

/// What a view's work gets: its stop token, and a way to send its view a command while it
/// runs (a progress message), which wakes the window.
pub struct WorkContext<'a> {
    inner: &'a JobContext<Sent, Sent>,
    /// Cancelled when the work is stopped (or dropped); carries the limits it runs under.
    pub cancel: &'a CancelToken,
}

impl WorkContext<'_> {
    /// Sends `command` (one of the view's own) to the view, which applies it in a frame to
    /// come; wakes the window.
    pub fn send(&self, command: impl Any + Send) {
        self.inner.progress(Box::new(command));
    }
}

/// Background work a type's view asks the app to run (see [`super::ViewContext::start_work`]).
pub struct WorkOrder {
    /// The view's name for the work: a new order under the same name replaces the old one
    /// (which is stopped), and the view stops or asks after its work by it.
    key: &'static str,
    /// The name of the work's thread, which says what it does.
    name: &'static str,
    cancel: CancelToken,
    work: Box<dyn FnOnce(&WorkContext<'_>) -> Sent + Send>,
    /// The view's command that says the thread ended without an answer (it panicked).
    failed: Box<dyn FnOnce(JobError) -> Sent + Send>,
}

impl WorkOrder {
    /// Work named `key` by the view, on a thread named `name`, under the limits of
    /// `cancel`: `work` runs there and returns the view's command that carries its result;
    /// `failed` makes the view's command for a thread that ended without one.
    pub fn new<T: Any + Send, F: Any + Send>(
        key: &'static str,
        name: &'static str,
        cancel: CancelToken,
        work: impl FnOnce(&WorkContext<'_>) -> T + Send + 'static,
        failed: impl FnOnce(JobError) -> F + Send + 'static,
    ) -> Self {
        Self {
            key,
            name,
            cancel,
            work: Box::new(move |cx| Box::new(work(cx)) as Sent),
            failed: Box::new(move |e| Box::new(failed(e)) as Sent),
        }
    }
}

/// A view's work running on its job.
struct Running {
    /// The type whose view asked for it.
    type_name: &'static str,
    key: &'static str,
    job: Job<Sent, Sent>,
    failed: Option<Box<dyn FnOnce(JobError) -> Sent + Send>>,
}

/// The views' work running: what [`AppState`] keeps of it.
#[derive(Default)]
pub struct ViewWork {
    running: Vec<Running>,
}

impl ViewWork {
    fn find(&self, type_name: &str, key: &str) -> Option<usize> {
        (self.running.iter()).position(|r| r.type_name == type_name && r.key == key)
    }
}

impl AppState {
    /// Starts `order` for the view of the type on screen, in place of its work of the same
    /// name (stopped and forgotten: what it would still send is not sent).
    ///
    /// # Errors
    /// The operating system's error when the thread cannot be spawned.
    pub(crate) fn start_work(&mut self, order: WorkOrder) -> std::io::Result<()> {
        let type_name = self.work.puzzle.puzzle_type().name;
        self.forget_work(order.key);
        let WorkOrder {
            key,
            name,
            cancel,
            work,
            failed,
        } = order;
        let job = Job::start(
            name,
            cancel,
            self.waker(),
            move |cx: &JobContext<Sent, Sent>| {
                work(&WorkContext {
                    inner: cx,
                    cancel: &cx.cancel,
                })
            },
        )?;
        self.views.work.running.push(Running {
            type_name,
            key,
            job,
            failed: Some(failed),
        });
        Ok(())
    }

    /// Asks the view's work `key` to stop; what it had when it stopped still comes.
    pub(crate) fn stop_work(&mut self, key: &str) {
        let type_name = self.work.puzzle.puzzle_type().name;
        if let Some(i) = self.views.work.find(type_name, key) {
            self.views.work.running[i].job.stop();
        }
    }

    /// Asks every view's work to stop (the window closes).
    pub(crate) fn stop_all_work(&mut self) {
        for running in &self.views.work.running {
            running.job.stop();
        }
    }

    /// Stops the view's work `key` and forgets it: nothing more of it comes.
    pub(crate) fn forget_work(&mut self, key: &str) {
        let type_name = self.work.puzzle.puzzle_type().name;
        if let Some(i) = self.views.work.find(type_name, key) {
            // Dropping the job cancels it.
            self.views.work.running.remove(i);
        }
    }

    /// Whether the view's work `key` is running (its result not yet handed over).
    pub(crate) fn is_working(&self, key: &str) -> bool {
        let type_name = self.work.puzzle.puzzle_type().name;
        self.views.work.find(type_name, key).is_some()
    }

    /// Whether the view's work `key` was asked to stop (or reached its limits).
    pub(crate) fn work_stopped(&self, key: &str) -> bool {
        let type_name = self.work.puzzle.puzzle_type().name;
        (self.views.work.find(type_name, key))
            .is_some_and(|i| self.views.work.running[i].job.is_stopped())
    }

    /// Waits at most `wait` for the view's work `key` to end (for work that usually ends
    /// within a frame, such as a short compile); what it sent is handed to the view right
    /// after the command being served.
    pub(crate) fn wait_for_work(&mut self, key: &str, wait: Duration) {
        let type_name = self.work.puzzle.puzzle_type().name;
        if let Some(i) = self.views.work.find(type_name, key) {
            self.take_work(i, Some(wait));
        }
    }

    /// The frame's work: what the work of the view on screen sent since the last frame goes
    /// to the view, each message as its command, in order (the work of views put aside
    /// waits for them).
    pub(crate) fn poll_view_work(&mut self) {
        let type_name = self.work.puzzle.puzzle_type().name;
        let mut i = 0;
        while i < self.views.work.running.len() {
            if self.views.work.running[i].type_name == type_name && self.take_work(i, None) {
                continue;
            }
            i += 1;
        }
    }

    /// Takes what the work at `i` sent (waiting at most `wait` for its end, if given) into
    /// the view's requests; returns whether it ended (and is gone from the list).
    fn take_work(&mut self, i: usize, wait: Option<Duration>) -> bool {
        let running = &mut self.views.work.running[i];
        let type_name = running.type_name;
        let requests = &mut self.views.requests;
        let mut send = |sent: Sent| {
            requests.push_back(ViewRequest::Deliver(type_name, ViewCommand(sent)));
        };
        let answer = match wait {
            Some(wait) => running.job.poll_for(wait, &mut send),
            None => running.job.poll(&mut send),
        };
        let Some(answer) = answer else {
            return false;
        };
        let failed = running.failed.take();
        let sent = match (answer, failed) {
            (Ok(result), _) => Some(result),
            (Err(e), Some(failed)) => Some(failed(e)),
            (Err(_), None) => None,
        };
        if let Some(sent) = sent {
            send(sent);
        }
        self.views.work.running.remove(i);
        true
    }

    /// Leaves `request` for the view of the puzzle on screen, which serves it once the
    /// command that asked is carried out (see [`super::PuzzleLabApp::apply`]).
    pub(crate) fn ask_view(&mut self, request: ViewRequest) {
        self.views.requests.push_back(request);
    }

    /// Whether a type's view opens `path` itself (see [`super::ViewRegistry::claims`]).
    pub(super) fn view_claims(&self, path: &Path) -> bool {
        self.views
            .registry
            .is_some_and(|r| (r.claims)(path).is_some())
    }

    /// Opens `path` in the view of the type that claims it.
    pub(super) fn open_in_view(&mut self, path: &Path) {
        let Some(name) = self.views.registry.and_then(|r| (r.claims)(path)) else {
            return;
        };
        // The view of the type that claims it opens a puzzle of its type, or fails and
        // leaves the old one: either way the view then follows the puzzle on screen. It says
        // why it failed in the status bar, in red; a file it opened goes on File > Open
        // Recent, as any other.
        self.set_status(format!("Opening {}…", path.display()));
        self.ask_view(ViewRequest::Open(path.to_owned(), name));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Takes the frames' deliveries until `n` came, as the view on screen would.
    fn deliveries(app: &mut AppState, n: usize) -> Vec<u8> {
        let mut seen = Vec::new();
        for _ in 0..10_000 {
            app.poll_view_work();
            while let Some(request) = app.views.requests.pop_front() {
                if let ViewRequest::Deliver(_, command) = request {
                    seen.extend(command.take::<u8>());
                }
            }
            if seen.len() >= n {
                break;
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        seen
    }

    #[test]
    fn a_views_work_sends_its_progress_then_its_result_and_then_is_gone() {
        let mut app = AppState::new(super::super::Settings::default());
        let order = WorkOrder::new(
            "count",
            "count",
            CancelToken::new(),
            |cx| {
                cx.send(1_u8);
                cx.send(2_u8);
                3_u8
            },
            |_| 0_u8,
        );
        app.start_work(order).unwrap();
        assert_eq!(deliveries(&mut app, 3), [1, 2, 3]);
        assert!(!app.is_working("count"));
    }

    #[test]
    fn a_thread_that_panics_sends_the_views_failure_command() {
        let mut app = AppState::new(super::super::Settings::default());
        let order = WorkOrder::new(
            "fails",
            "fails",
            CancelToken::new(),
            |_| -> u8 { panic!("on purpose") },
            |_| 9_u8,
        );
        app.start_work(order).unwrap();
        assert_eq!(deliveries(&mut app, 1), [9]);
    }

    #[test]
    fn work_forgotten_sends_nothing_more_and_stopped_work_still_answers() {
        let mut app = AppState::new(super::super::Settings::default());
        let spin = |cx: &WorkContext<'_>| {
            while !cx.cancel.is_cancelled() {
                std::thread::sleep(Duration::from_millis(1));
            }
            5_u8
        };
        app.start_work(WorkOrder::new(
            "a",
            "spin",
            CancelToken::new(),
            spin,
            |_| 0_u8,
        ))
        .unwrap();
        assert!(app.is_working("a") && !app.work_stopped("a"));
        app.stop_work("a");
        assert!(app.work_stopped("a"));
        assert_eq!(deliveries(&mut app, 1), [5]);
        app.start_work(WorkOrder::new(
            "b",
            "spin",
            CancelToken::new(),
            spin,
            |_| 0_u8,
        ))
        .unwrap();
        app.forget_work("b");
        assert!(!app.is_working("b"));
        assert!(deliveries(&mut app, 1).is_empty());
    }
}
