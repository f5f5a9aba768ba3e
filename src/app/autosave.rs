//! The state file group (no command: the frame's autosave, and the app made from the file).
//! Crash-safe work: the app's settings and work (each type's puzzle with its file name and
//! unsaved mark, the search settings, the theme, the recent files, the results) are written to
//! a state file of their own within [`AUTOSAVE_AFTER`] of a change, atomically (a temporary
//! file beside it, flushed to disk, then renamed over it), so a crash or a `kill -9` loses at
//! most that much and never leaves a torn file. The state file is the one store of the settings
//! (eframe's `app.ron` keeps only the window's size), read once at start and checked before it
//! is trusted (see [`load_with`]): a file that is not a regular file, is over
//! [`MAX_STATE_BYTES`], does not parse or holds fields larger than the app writes is set aside
//! (`work.json.bad-<seconds since 1970>`) and the app starts afresh, saying so in the status
//! bar; one that cannot be read is left as it is and not written over. One window at a time
//! writes it (see [`StateLock`]).

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use eframe::egui;

use super::job::Job;
use super::{AppState, Settings};
use crate::puzzles::{remove_leftover_writes, write_atomically};
use crate::search::CancelToken;

/// The longest a change waits before it is written: a crash loses at most this much work.
pub const AUTOSAVE_AFTER: Duration = Duration::from_secs(2);

/// How long the app waits after the last change before writing, so a drag writes once when
/// it pauses rather than every frame (within [`AUTOSAVE_AFTER`] of the first change all the
/// same).
const QUIET: Duration = Duration::from_millis(500);

/// The environment variable that moves the state file's folder (tests use a temporary one).
pub const STATE_DIR_VAR: &str = "PUZZLELAB_STATE_DIR";

/// The state file's name: the one store of the app's settings and work.
pub const STATE_FILE: &str = "work.json";

/// The state file: `work.json` in `$PUZZLELAB_STATE_DIR`, else in the user's data folder
/// (`~/.local/share/puzzlelab/` on Linux); `None` when there is none.
pub fn state_path() -> Option<PathBuf> {
    let dir = match std::env::var_os(STATE_DIR_VAR) {
        Some(dir) => PathBuf::from(dir),
        None => dirs::data_dir()?.join("puzzlelab"),
    };
    Some(dir.join(STATE_FILE))
}

/// The largest state file read or written, in bytes: 32 MiB, the limit of a puzzle file
/// ([`crate::puzzles::MAX_FILE_BYTES`]). The largest state the app writes holds one maze
/// of the largest size (4096 x 4096 squares, about 17 MB) besides the rest; a larger file
/// is set aside unread.
pub const MAX_STATE_BYTES: u64 = crate::puzzles::MAX_FILE_BYTES;

/// What reading the state file found: the settings, or none (no file, or one set aside or
/// left unread), a line for the status bar when a file was set aside or could not be read,
/// and whether the app must not write over the file.
#[derive(Debug, Default)]
pub struct Loaded {
    /// The settings read, if the file was there and whole.
    pub settings: Option<Settings>,
    /// Why the app starts afresh, when the file was there but could not be used.
    pub notice: Option<String>,
    /// Set when the file is there but could not be read: it is left as it is, and the app
    /// must not write over it this session (see [`AppState::from_loaded`]).
    pub unreadable: bool,
}

/// Reads the state file at `path` (see [`load_with`]), refusing, before it is opened,
/// whatever is not a regular file or is larger than [`MAX_STATE_BYTES`].
pub fn load(path: &Path) -> Loaded {
    load_with(path, read_regular)
}

/// Reads the state file at `path`, checking it before trusting it. Symbolic links are
/// followed. A file that is not a regular file (a FIFO, a device such as `/dev/zero`, a
/// socket), that is larger than [`MAX_STATE_BYTES`], that does not parse, or whose fields
/// are larger than any the app writes (see [`Settings::check_sizes`]) is renamed to
/// `<name>.bad-<seconds since 1970>` beside it (kept for the user to look at, never read
/// again; a link is moved, not what it points to), and the notice says so. A file that is
/// there but cannot be read (a folder, no permission, an input/output error) is left as it
/// is, and [`Loaded::unreadable`] says the app must not write over it. A missing file is no
/// notice. `read` reads the bytes of a regular file of at most [`MAX_STATE_BYTES`] (tests
/// put an error of their own there).
pub fn load_with(path: &Path, read: impl FnOnce(&Path) -> std::io::Result<Vec<u8>>) -> Loaded {
    clear_leftovers_unless_locked(path);
    let unreadable = |e: &dyn std::fmt::Display| Loaded {
        settings: None,
        notice: Some(format!(
            "The saved work in {} could not be read ({e}). It is left as it is, and this \
             window will not write over it: save your work to a file to keep it.",
            path.display()
        )),
        unreadable: true,
    };
    let meta = match std::fs::metadata(path) {
        Ok(meta) => meta,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Loaded::default(),
        Err(e) => return unreadable(&e),
    };
    if meta.is_dir() {
        return unreadable(&"it is a folder, not a file");
    }
    if !meta.is_file() {
        return set_aside(path, &"it is not a regular file");
    }
    if meta.len() > MAX_STATE_BYTES {
        return set_aside(path, &too_large(meta.len()));
    }
    let text = match read(path) {
        Ok(text) if text.len() as u64 > MAX_STATE_BYTES => {
            return set_aside(path, &too_large(text.len() as u64));
        }
        Ok(text) => text,
        Err(e) => return unreadable(&e),
    };
    match serde_json::from_slice::<Settings>(&text) {
        Ok(mut settings) => match settings.check_sizes() {
            Ok(()) => Loaded {
                settings: Some(settings),
                ..Loaded::default()
            },
            Err(e) => set_aside(path, &e),
        },
        Err(e) => set_aside(path, &e),
    }
}

/// Checks eframe's store at `path` (`app.ron`, which eframe reads whole at start, before the
/// app runs) the way the state file is checked: one that is not a regular file (a FIFO, a
/// link to `/dev/zero`) or is over [`MAX_STATE_BYTES`] is set aside as
/// `app.ron.bad-<seconds since 1970>`, and eframe starts with an empty store. The notice for
/// the status bar when it was set aside.
pub fn check_eframe_store(path: &Path) -> Option<String> {
    let meta = std::fs::metadata(path).ok()?;
    let why = if meta.is_dir() {
        // eframe's reading fails at once, and it writes nothing over a folder.
        return None;
    } else if !meta.is_file() {
        "it is not a regular file".to_owned()
    } else if meta.len() > MAX_STATE_BYTES {
        too_large(meta.len())
    } else {
        return None;
    };
    set_aside(path, &why).notice
}

/// Why a state file of `bytes` bytes is refused.
fn too_large(bytes: u64) -> String {
    format!(
        "it holds {bytes} bytes or more, over the limit of {} MiB",
        MAX_STATE_BYTES >> 20
    )
}

/// Renames the state file at `path` to `<name>.bad-<seconds since 1970>` beside it, with a
/// notice that says why (`why`) and where it went.
fn set_aside(path: &Path, why: &dyn std::fmt::Display) -> Loaded {
    let seconds = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let mut aside = path.as_os_str().to_owned();
    aside.push(format!(".bad-{seconds}"));
    let aside = PathBuf::from(aside);
    let moved = std::fs::rename(path, &aside);
    Loaded {
        settings: None,
        notice: Some(match moved {
            Ok(()) => format!(
                "The saved work could not be used ({why}): it was set aside as {} and the \
                 app starts afresh.",
                aside.display()
            ),
            Err(m) => format!(
                "The saved work in {} could not be used ({why}) nor set aside ({m}); the \
                 app starts afresh.",
                path.display()
            ),
        }),
        unreadable: false,
    }
}

/// Reads the regular file at `path`, at most one byte more than [`MAX_STATE_BYTES`],
/// refusing it unless the file opened is a regular file.
///
/// # Errors
/// The operating system's error, or one saying the file is not a regular file.
pub fn read_regular(path: &Path) -> std::io::Result<Vec<u8>> {
    read_regular_capped(path, MAX_STATE_BYTES)
}

/// Reads the regular file at `path`, at most one byte more than `max` (a caller refuses a
/// file that long), refusing what is not a regular file before opening it (a FIFO would
/// block the open, a device such as `/dev/zero` never end) and again once it is open. Links
/// are followed.
///
/// # Errors
/// The operating system's error, or one saying the file is not a regular file.
pub fn read_regular_capped(path: &Path, max: u64) -> std::io::Result<Vec<u8>> {
    use std::io::Read as _;
    if !std::fs::metadata(path)?.is_file() {
        return Err(std::io::Error::other("not a regular file"));
    }
    let file = std::fs::File::open(path)?;
    if !file.metadata()?.is_file() {
        return Err(std::io::Error::other("not a regular file"));
    }
    let mut data = Vec::new();
    file.take(max.saturating_add(1)).read_to_end(&mut data)?;
    Ok(data)
}

/// The lock file of the state file at `path`: `<name>.lock` beside it.
fn lock_path(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".lock");
    PathBuf::from(name)
}

/// The lock that makes one window the writer of a state file: the lock file beside it
/// (`work.json.lock`), locked by the operating system (`flock` on Linux) for as long as the
/// window's process lives, and holding its process id for the others' message. The system
/// releases the lock when the process ends, however it ends (`kill -9` too), so a lock left
/// by a process that is gone never stops the next start.
#[derive(Debug)]
pub struct StateLock {
    _file: std::fs::File,
}

impl StateLock {
    /// Takes the lock of the state file at `path`, creating its folder and lock file if
    /// need be.
    ///
    /// # Errors
    /// A message for the status bar: another process holds the lock (with its id), or the
    /// lock file could not be made.
    pub fn acquire(path: &Path) -> Result<Self, String> {
        let lock = lock_path(path);
        let made = (|| {
            if let Some(dir) = path.parent() {
                std::fs::create_dir_all(dir)?;
            }
            std::fs::OpenOptions::new()
                .read(true)
                .write(true)
                .create(true)
                .truncate(false)
                .open(&lock)
        })();
        let mut file = made.map_err(|e| {
            format!(
                "The work cannot be kept in {}: its lock file {} could not be made ({e}); \
                 save your work to a file to keep it.",
                path.display(),
                lock.display()
            )
        })?;
        match file.try_lock() {
            Ok(()) => {
                use std::io::Write as _;
                // The id is for the others' message only: the lock is the system's.
                let _ = file
                    .set_len(0)
                    .and_then(|()| write!(file, "{}", std::process::id()));
                Ok(Self { _file: file })
            }
            Err(std::fs::TryLockError::WouldBlock) => {
                let owner = std::fs::read_to_string(&lock)
                    .ok()
                    .and_then(|t| t.trim().parse::<u32>().ok())
                    .map_or_else(String::new, |pid| format!(" (process {pid})"));
                Err(format!(
                    "Another puzzlelab window{owner} keeps its work in {}: this window will \
                     not write over it, so its work is not kept there; save it to a file to \
                     keep it.",
                    path.display()
                ))
            }
            Err(std::fs::TryLockError::Error(e)) => Err(format!(
                "The work cannot be kept in {}: its lock file {} could not be locked ({e}); \
                 save your work to a file to keep it.",
                path.display(),
                lock.display()
            )),
        }
    }
}

/// Removes the temporary files of cut-short writes to `path` (see [`remove_leftover_writes`])
/// unless a window holds the state file's lock (its write under way would lose its file).
fn clear_leftovers_unless_locked(path: &Path) {
    match std::fs::File::open(lock_path(path)) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => remove_leftover_writes(path),
        Ok(file) if file.try_lock().is_ok() => remove_leftover_writes(path),
        _ => {}
    }
}

/// The app's writer of its state file: when the work changed, and the write under way; or
/// why it does not write (another window holds the file's lock, or the file could not be
/// read and is left as it is).
pub struct Autosave {
    path: PathBuf,
    /// The state file's lock, held while this window writes it.
    _lock: Option<StateLock>,
    /// Why the work is not written this session, when it is not.
    off: Option<String>,
    /// When the first change not yet written was seen, and the last one.
    changed: Option<(Instant, Instant)>,
    /// What the last frame saw, to notice a change: the puzzle's revision and the results.
    seen: (u64, usize),
    writing: Option<Job<Result<(), String>>>,
    /// The last write's error, said once.
    failed: bool,
}

impl Autosave {
    /// A writer of the state file at `path`, holding its `lock`.
    fn new(path: PathBuf, lock: Option<StateLock>) -> Self {
        Self {
            path,
            _lock: lock,
            off: None,
            changed: None,
            seen: (0, 0),
            writing: None,
            failed: false,
        }
    }

    /// No writer of the state file at `path`, for the reason `why`.
    fn off(path: PathBuf, why: String) -> Self {
        Self {
            off: Some(why),
            ..Self::new(path, None)
        }
    }

    /// The state file written.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

/// Serialises `settings` and writes them to `path` atomically, refusing more than
/// [`MAX_STATE_BYTES`] (a file the next start would set aside).
fn write_settings(path: &Path, settings: &Settings) -> Result<(), String> {
    let bytes = serde_json::to_vec(settings).map_err(|e| e.to_string())?;
    if bytes.len() as u64 > MAX_STATE_BYTES {
        return Err(format!(
            "the work takes {} MiB, over the state file's limit of {} MiB; save the puzzle \
             to a file to keep it",
            bytes.len() >> 20,
            MAX_STATE_BYTES >> 20
        ));
    }
    let dir = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)
        .and_then(|()| write_atomically(path, &bytes))
        .map_err(|e| e.to_string())
}

impl AppState {
    /// The app as the window starts it: the work kept in the state file at `state` (see
    /// [`load`]), read once, and written there from then on (see
    /// [`AppState::from_loaded`]). `storage` is eframe's store (`app.ron`), read only
    /// when there is no state file: where an earlier version kept the settings.
    pub fn from_state_file(state: Option<PathBuf>, storage: Option<&dyn eframe::Storage>) -> Self {
        let loaded = state.as_deref().map(load).unwrap_or_default();
        Self::from_loaded(state, loaded, storage)
    }

    /// The app started from what reading the state file at `state` gave (`loaded`, see
    /// [`load`]): its settings; with no state file at all, the settings an earlier version
    /// kept in eframe's `storage` (taken over once: they are written to the state file at
    /// once, and [`eframe::App::save`] then takes them out of `storage`). The work is
    /// written to `state` from then on (see [`AppState::enable_autosave`]), except when
    /// the file could not be read (it is left as it is) or another window holds it. The
    /// status bar says why the app starts afresh, and when and why the work is not kept.
    pub fn from_loaded(
        state: Option<PathBuf>,
        loaded: Loaded,
        storage: Option<&dyn eframe::Storage>,
    ) -> Self {
        let mut notices: Vec<String> = loaded.notice.into_iter().collect();
        let found = loaded.settings.is_some() || !notices.is_empty();
        let earlier = match storage.filter(|_| !found) {
            Some(storage) => match eframe::get_value::<Settings>(storage, eframe::APP_KEY) {
                Some(mut settings) => match settings.check_sizes() {
                    Ok(()) => Some(settings),
                    Err(e) => {
                        notices.push(format!(
                            "The settings of an earlier version (eframe's app.ron) were not \
                             taken over: {e}."
                        ));
                        None
                    }
                },
                None => None,
            },
            None => None,
        };
        let taken_over = earlier.is_some();
        let mut app = Self::new(loaded.settings.or(earlier).unwrap_or_default());
        if let Some(path) = state {
            if loaded.unreadable {
                // The notice already says the file is left as it is, and where.
                app.io.autosave = Some(Autosave::off(
                    path,
                    "the state file could not be read".into(),
                ));
            } else {
                match StateLock::acquire(&path) {
                    Ok(lock) => {
                        remove_leftover_writes(&path);
                        let mut autosave = Autosave::new(path, Some(lock));
                        if taken_over {
                            let now = Instant::now();
                            autosave.changed = Some((now, now));
                        }
                        app.io.autosave = Some(autosave);
                    }
                    Err(why) => {
                        notices.push(why.clone());
                        app.io.autosave = Some(Autosave::off(path, why));
                    }
                }
            }
        }
        if !notices.is_empty() {
            app.set_error(notices.join(" "));
        }
        app
    }

    /// Writes the work to `path` from now on, within [`AUTOSAVE_AFTER`] of each change (the
    /// window does this through [`AppState::from_state_file`]; tests with a temporary file). The
    /// file's lock is taken first (see [`StateLock`]): when another window holds it, the
    /// work is not written, and the status bar says so.
    pub fn enable_autosave(&mut self, path: PathBuf) {
        match StateLock::acquire(&path) {
            Ok(lock) => {
                remove_leftover_writes(&path);
                self.io.autosave = Some(Autosave::new(path, Some(lock)));
            }
            Err(why) => {
                self.set_error(why.clone());
                self.io.autosave = Some(Autosave::off(path, why));
            }
        }
    }

    /// Why the work is not written to the state file this session (another window holds
    /// it, or it could not be read and is left as it is); `None` when it is written, or when
    /// there is no state file.
    pub fn autosave_off(&self) -> Option<&str> {
        self.io.autosave.as_ref().and_then(|a| a.off.as_deref())
    }

    /// Whether the autosave has work not written yet (a change, or a write under way).
    pub fn autosave_pending(&self) -> bool {
        self.io
            .autosave
            .as_ref()
            .is_some_and(|a| a.off.is_none() && (a.changed.is_some() || a.writing.is_some()))
    }

    /// Writes what is not written yet now, waiting for a write under way first (at the end
    /// of the session: [`eframe::App::save`] calls this). Whether the state file holds the
    /// work now.
    pub fn flush_autosave(&mut self) -> bool {
        let settings = match &self.io.autosave {
            Some(a) if a.off.is_none() => {
                let due = a.changed.is_some() || a.failed || !a.path.is_file();
                due.then(|| self.settings_to_save().clone())
            }
            _ => return false,
        };
        let Some(autosave) = &mut self.io.autosave else {
            return false;
        };
        if let Some(mut job) = autosave.writing.take() {
            let deadline = Instant::now() + Duration::from_secs(30);
            let result = loop {
                if let Some(result) = job.poll(|()| {}) {
                    break result;
                }
                if Instant::now() > deadline {
                    break Ok(Err("the write did not end".into()));
                }
                std::thread::sleep(Duration::from_millis(5));
            };
            autosave.failed = !matches!(result, Ok(Ok(())));
        }
        if let Some(settings) = settings {
            autosave.changed = None;
            autosave.failed = write_settings(&autosave.path, &settings).is_err();
        }
        !autosave.failed
    }

    /// At the end of each frame: notes a change (input that may edit, a command, an edit, a
    /// new result), and once the work has been quiet for a moment, or [`AUTOSAVE_AFTER`]
    /// has passed since the first change, hands a copy of the settings to a job that
    /// writes them atomically. Work proportional to the state happens only then (the
    /// puzzle's JSON is remade only after an edit).
    pub(super) fn autosave_tick(&mut self, ctx: &egui::Context, commands: bool) {
        let Some(autosave) = self.io.autosave.as_mut().filter(|a| a.off.is_none()) else {
            return;
        };
        let now = Instant::now();
        let input = ctx.input(|i| {
            i.events.iter().any(|e| {
                matches!(
                    e,
                    egui::Event::PointerButton { .. }
                        | egui::Event::Key { .. }
                        | egui::Event::Text(_)
                        | egui::Event::Paste(_)
                        | egui::Event::MouseWheel { .. }
                )
            })
        });
        let seen = (self.edits.revision, self.runs.results.len());
        if input || commands || seen != autosave.seen {
            autosave.seen = seen;
            autosave.changed = Some(match autosave.changed {
                Some((first, _)) => (first, now),
                None => (now, now),
            });
        }
        if let Some(job) = &mut autosave.writing {
            match job.poll(|()| {}) {
                None => {}
                Some(result) => {
                    autosave.writing = None;
                    let error = match result {
                        Ok(Ok(())) => None,
                        Ok(Err(e)) => Some(e),
                        Err(e) => Some(e.to_string()),
                    };
                    let first_failure = error.is_some() && !autosave.failed;
                    autosave.failed = error.is_some();
                    if let Some(e) = error.filter(|_| first_failure) {
                        let shown = autosave.path.display().to_string();
                        self.set_error(format!("Could not keep the work in {shown}: {e}"));
                    }
                }
            }
        }
        let Some(autosave) = &mut self.io.autosave else {
            return;
        };
        let Some((first, last)) = autosave.changed else {
            return;
        };
        let due = now - last >= QUIET || now - first >= AUTOSAVE_AFTER - QUIET;
        if !due || autosave.writing.is_some() {
            // Frames come back to write it in time even if nothing else happens.
            ctx.request_repaint_after(QUIET / 2);
            return;
        }
        autosave.changed = None;
        let path = autosave.path.clone();
        let settings = self.settings_to_save().clone();
        let job = Job::start("autosave", CancelToken::new(), self.waker(), move |_| {
            write_settings(&path, &settings)
        });
        if let Some(autosave) = &mut self.io.autosave {
            match job {
                Ok(job) => autosave.writing = Some(job),
                Err(e) => {
                    self.status = super::Status {
                        text: format!("Could not start keeping the work: {e}"),
                        is_error: true,
                    }
                }
            }
        }
        ctx.request_repaint_after(QUIET);
    }
}
