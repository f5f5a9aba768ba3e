//! The final walk of 8 December: on a planning task the Heuristic window said "Tick Optimal
//! moves in the side panel", a box the planning panel does not have. The windows that need
//! the explored state space now offer the exploration themselves, on every type.

use egui_kittest::kittest::Queryable as _;
use puzzlelab::app::{AppCommand, Settings, WindowCommand};

use crate::common::gui::{click_label, harness, run_until};

#[test]
fn the_heuristic_and_space_windows_explore_the_space_of_a_planning_task() {
    for window in [
        WindowCommand::HeuristicWindow(true),
        WindowCommand::SpaceWindow(true),
    ] {
        let mut h = harness(Settings::default());
        let (t, shipped) = puzzlelab::puzzles::shipped()
            .find(|(_, s)| s.file == "planning-blocks.pddl")
            .unwrap();
        h.state_mut().push(AppCommand::OpenShipped(t, shipped));
        h.run();
        assert!(
            h.query_by_label("Optimal moves").is_none(),
            "no such box here"
        );
        h.state_mut().push(AppCommand::Window(window));
        h.run();
        assert!(h.query_by_label_contains("Tick Optimal moves").is_none());
        click_label(&mut h, "Explore the state space");
        run_until(&mut h, |app| app.windows.oracle.space().is_some());
        h.run();
        assert!(
            h.query_by_label_contains("not explored yet").is_none(),
            "explored"
        );
    }
}
