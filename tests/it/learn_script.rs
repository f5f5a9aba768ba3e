//! The Learn panel on a script run that ended at a script error (Learn walk item 3): the
//! canvas shows the state whose expansion failed, and its last moment's caption says the run stopped at the error, with the error, not that "the
//! run went on unrecorded".

use puzzlelab::app::{Settings, ShownMoment};
use puzzlelab::search::Outcome;

use crate::common::gui::{harness, open_path, run_until};

/// Counts up to 5, but `moves` reads a variable no one defined from the state 2 on.
const THROWS: &str = "fn start() { 0 }\n\
                      fn is_goal(n) { n == 5 }\n\
                      fn moves(n) { if n >= 2 { n + JUMPS } [#{ label: \"+1\", to: n + 1 }] }\n";

#[test]
fn a_run_ended_at_a_script_error_is_captioned_stopped_at_it() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("throws.rhai");
    std::fs::write(&path, THROWS).unwrap();
    let mut h = harness(Settings {
        full_speed: true,
        ..Settings::default()
    });
    open_path(&mut h, path);
    h.state_mut().windows.learn.open = true;
    h.run();
    h.state_mut().push(puzzlelab::app::AppCommand::Start);
    run_until(&mut h, |app| app.result().is_some() && !app.is_running());
    h.run();
    assert_eq!(h.state().result().unwrap().outcome, Outcome::ScriptError);
    let (_, m) = h.state().learn_moment().expect("the run's moment");
    assert_eq!(m.position, m.len, "the last moment");
    // The canvas shows the state whose expansion failed (the state 2), not the start.
    assert_eq!(h.state().shown_moment(), ShownMoment::Search);
    let board = h.state().marks().board.as_ref().map(|b| b.board_text());
    assert_eq!(board.as_deref(), Some("2"));
    let caption = m.caption();
    assert!(
        caption.contains("stopped at a script error: line 3, column "),
        "{caption}"
    );
    assert!(caption.contains("JUMPS"), "{caption}");
    assert!(!caption.contains("unrecorded"), "{caption}");
    // The count comes first, so the error's own words end the sentence (the second walk of
    // 8 December read "Variable not found: knight after 21 expansions").
    assert!(caption.starts_with("After "), "{caption}");
    assert!(!caption.contains(" after "), "{caption}");
}
