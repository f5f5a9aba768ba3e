//! What a type's view may do beyond drawing its tools and reading canvas input: opt-in
//! capabilities, as [`crate::puzzles::Capabilities`] are for models. A view names the ones it
//! has in [`super::TypeView::capability`]; the app asks for one at a time (each is the view
//! itself, borrowed to change, so two cannot be lent at once), through the helpers on
//! `dyn TypeView` ([`own_undo`](super::TypeView#method.own_undo) and its siblings), and a
//! view that has none of them is only its tools, its canvas input and its description.

use std::path::Path;

use eframe::egui;

use super::{ViewDraw, ViewWrite};

/// Declares the capabilities in one list: each one's kind ([`CapabilityKind`]), the view
/// lent as it ([`ViewCapability`]) and its getter on `dyn TypeView`, which asks
/// [`super::TypeView::capability`] for it.
macro_rules! capabilities {
    ($($name:ident, $getter:ident, $doc:literal;)*) => {
        /// Which capability the app asks a view for (see [`super::TypeView::capability`]).
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum CapabilityKind {
            $(#[doc = concat!("[`", stringify!($name), "`]: ", $doc)] $name,)*
        }

        /// One capability of a view, lent to the app: the view as that capability.
        pub enum ViewCapability<'a> {
            $(#[doc = concat!("See [`", stringify!($name), "`].")] $name(&'a mut dyn $name),)*
        }

        /// The capability getters on a view: each asks [`super::TypeView::capability`] for
        /// one.
        impl<'v> dyn super::TypeView + 'v {
            $(
                #[doc = concat!("The view as [`", stringify!($name), "`] (", $doc,
                    "), if it has that capability.")]
                pub fn $getter(&mut self) -> Option<&mut dyn $name> {
                    match self.capability(CapabilityKind::$name)? {
                        ViewCapability::$name(c) => Some(c),
                        _ => None,
                    }
                }
            )*

            /// The view's settings to keep, if it has any (see [`KeepsSettings`]).
            pub fn kept_settings(&mut self) -> Option<serde_json::Value> {
                self.keeps_settings()?.settings()
            }
        }
    };
}

/// The body of a view's [`super::TypeView::capability`]: lends the view as each capability
/// it lists, each named once (`lend_capabilities!(self, kind; OwnUndo, FollowsPuzzle)`),
/// and as no other.
#[macro_export]
macro_rules! lend_capabilities {
    ($view:expr, $kind:expr; $($name:ident),+ $(,)?) => {
        match $kind {
            $($crate::app::CapabilityKind::$name => {
                Some($crate::app::ViewCapability::$name($view))
            })+
            #[allow(unreachable_patterns)]
            _ => None,
        }
    };
}

capabilities! {
    OwnPanels, own_panels, "panels and windows of the view's own";
    SavesItself, saves_itself, "saving what it edits in place of File > Save";
    OwnUndo, own_undo, "an undo of its own in place of the app's history";
    OpensFiles, opens_files, "opening files it claims";
    KeepsSettings, keeps_settings, "settings kept across restarts";
    FrameWork, frame_work, "work of its own each frame before drawing";
    FollowsPuzzle, follows_puzzle, "state about the puzzle on screen, forgotten when it is replaced";
}

/// A view with panels or windows of its own: a panel docked beside the canvas (an editor of
/// the puzzle's text), windows drawn over it. Drawing code: it reads and sends commands.
pub trait OwnPanels {
    /// Whether the docked panel is open now ([`OwnPanels::docked_ui`]); it takes the
    /// details panel's place while it is open, as the Learn panel does. The default: never.
    fn is_docked(&self) -> bool {
        false
    }

    /// The docked panel, added to the window's `ui` before the canvas takes the rest.
    fn docked_ui(&mut self, _app: &mut ViewDraw<'_>, _ui: &mut egui::Ui) {}

    /// Windows of the view's own, drawn after the panels.
    fn windows_ui(&mut self, _app: &mut ViewDraw<'_>, _ctx: &egui::Context) {}
}

/// A view that saves what it edits itself, at times, in place of the app's writing of the
/// puzzle (a docked editor of the puzzle's text saves that text).
pub trait SavesItself {
    /// Whether File > Save (its menu item, the palette's Save) goes to the view now.
    fn saves_itself(&self) -> bool;

    /// Saves what the view edits (see [`SavesItself::saves_itself`]).
    fn save(&mut self, app: &mut ViewWrite<'_>);

    /// Saves what the view edits to `path`, the file it is bound to from then on (the
    /// answer of File > Save As's dialog while [`SavesItself::saves_itself`]).
    fn save_as(&mut self, app: &mut ViewWrite<'_>, path: std::path::PathBuf);

    /// The unsaved edits that quitting now would lose (too large to be kept across
    /// restarts), said for people; the app asks before it quits while there are any. The
    /// default: none (what is unsaved is kept across restarts).
    fn unkept_edits(&self) -> Option<String> {
        None
    }
}

/// A view with an undo of its own (types that keep moves and layouts apart): the app's
/// history does not cover its edits, and Ctrl+Z and Ctrl+Y come here.
pub trait OwnUndo {
    /// Takes back the last move or edit.
    fn undo(&mut self, app: &mut ViewWrite<'_>);

    /// Plays again the last move or edit taken back. The default: nothing to play again.
    fn redo(&mut self, _app: &mut ViewWrite<'_>) {}
}

/// A view that opens files it claims itself (see [`super::ViewRegistry::claims`]).
pub trait OpensFiles {
    /// Opens `path`; errors go to the status bar.
    fn open_path(&mut self, app: &mut ViewWrite<'_>, path: &Path);
}

/// A view with settings kept across restarts (the registry makes it again from them).
pub trait KeepsSettings {
    /// The settings to keep, as JSON (`None` if they cannot be written as JSON).
    fn settings(&self) -> Option<serde_json::Value>;
}

/// A view with work of its own each frame before anything is drawn: animations, keys it
/// takes before the panels, background work's results. Not drawing code: it may change
/// the app's state.
pub trait FrameWork {
    /// The frame's work.
    fn tick(&mut self, app: &mut ViewWrite<'_>, ctx: &egui::Context);
}

/// A view that keeps state about the puzzle on screen (histories, scrambles, selections).
pub trait FollowsPuzzle {
    /// A new puzzle of this type replaced the one on screen (opened, reset, resized): state
    /// about the old one is forgotten.
    fn puzzle_replaced(&mut self);
}
