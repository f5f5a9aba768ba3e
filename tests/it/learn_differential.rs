//! Issue 56's differential test of the Learn panel: for every algorithm the panel offers, on
//! seeded mazes and easy 8-puzzles, at seeded random moments and micro-steps, the step (the
//! lit line), the caption's state and counts, and the open list equal what a plain re-run of
//! the search to that event says.
//!
//! The reference is written here, apart from the app: the search is run again with a
//! watcher that follows its events (each state taken off, each put on the frontier with its
//! `g` and `h`) and keeps the frontier the plain way (a state on it until taken off; put on
//! again, it keeps its least `g`), stopping at the event asked for. Nothing of the
//! recording, its replay or the open list's code is used to make it.

use std::collections::HashMap;

use puzzlelab::app::learn::{Ending, Moment};
use puzzlelab::puzzles::{self, Picture, Place, Puzzle, Watcher};
use puzzlelab::runs::open_list::{OpenListError, open_list_during};
use puzzlelab::runs::recording::TraceRecorder;
use puzzlelab::search::pseudocode::{Step, pseudocode};
use puzzlelab::search::{Algorithm, CancelToken, Cost, Outcome, Stats, TieBreak, format_cost};
use rand::{Rng, SeedableRng};

/// A state as the reference tells states apart: a place, or a board's squares.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum State {
    Place(Place),
    Board(Vec<SquareKey>),
}

/// A board's square, comparable (a picture's squares are not ordered).
type SquareKey = String;

fn board_key(picture: &Picture) -> Vec<SquareKey> {
    picture.squares.iter().map(|s| format!("{s:?}")).collect()
}

/// A state on the reference's frontier: `g`, `h`, the parent's place and the depth.
#[derive(Clone, Debug, PartialEq)]
struct Entry {
    g: Option<f32>,
    h: Option<f32>,
    parent: Option<Place>,
    depth: u32,
}

/// The event a re-run goes to.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
enum Target {
    /// Just before expansion `j` (from 0) takes its state: every earlier expansion done.
    #[default]
    Before0,
    Before(usize),
    /// Expansion `j` taken, and `k` of its successors put on.
    During(usize, usize),
}

/// What the re-run saw by the event asked for.
#[derive(Default)]
struct Reference {
    target: Target,
    cancel: CancelToken,
    /// Expansions seen.
    expanded: usize,
    /// The state being expanded, its `g`, `h` and depth.
    current: Option<(State, Option<f32>, Option<f32>, u32)>,
    /// The successors the current expansion put on so far: state, g, h.
    pushed: Vec<(State, Option<f32>, Option<f32>)>,
    frontier: HashMap<State, Entry>,
    /// The picture given for the next board expanded or put on.
    next_board: Option<Picture>,
    next_generated: Option<Picture>,
    /// The state last put on, waiting for its score.
    scoring: Option<State>,
    /// The take asked for is done: frozen at the next event, once scored.
    take_done: bool,
    /// Frozen at the event: the frontier, the state expanded, its successors put on, and
    /// the state the run expands after it (if any).
    frozen: Option<Frozen>,
}

struct Frozen {
    frontier: HashMap<State, Entry>,
    current: Option<(State, Option<f32>, Option<f32>, u32)>,
    pushed: Vec<(State, Option<f32>, Option<f32>)>,
    next: Option<State>,
}

impl Reference {
    fn new(target: Target) -> Self {
        Self {
            target,
            ..Self::default()
        }
    }

    fn freeze(&mut self) {
        if self.frozen.is_none() {
            self.frozen = Some(Frozen {
                frontier: self.frontier.clone(),
                current: self.current.clone(),
                pushed: self.pushed.clone(),
                next: None,
            });
        }
    }

    fn is_frozen(&self) -> bool {
        self.frozen.is_some()
    }
}

impl Watcher for Reference {
    fn expanded(&mut self, place: Option<Place>, depth: u64, _stats: &Stats) {
        let state = match place {
            Some(p) => State::Place(p),
            None => State::Board(board_key(&self.next_board.take().expect("a board"))),
        };
        if !self.is_frozen() {
            self.settle();
        }
        if std::mem::take(&mut self.take_done) {
            self.freeze();
        }
        // "Before expansion j" is where expansion j begins; an event during expansion j is
        // past once the next one begins.
        match self.target {
            Target::Before0 => self.freeze(),
            Target::Before(j) if self.expanded == j => self.freeze(),
            Target::During(j, _) if self.expanded > j + 1 => self.freeze(),
            _ => {}
        }
        if let Some(frozen) = &mut self.frozen {
            frozen.next.get_or_insert(state);
            self.cancel.cancel();
            return;
        }
        self.frontier.remove(&state);
        self.current = Some((state, None, None, depth as u32));
        self.pushed.clear();
        self.expanded += 1;
        // The take is frozen once its state is scored: at the next event.
        self.take_done = self.target == Target::During(self.expanded - 1, 0);
    }

    fn scored(&mut self, _place: Place, g: Cost, h: Option<Cost>, _parent: Option<Place>) {
        self.scored_board(g, h);
    }

    fn scored_board(&mut self, g: Cost, h: Option<Cost>) {
        if self.is_frozen() {
            return;
        }
        if let Some(current) = &mut self.current {
            current.1 = Some(g as f32);
            current.2 = h.map(|h| h as f32);
        }
    }

    fn wants_scores(&self) -> bool {
        true
    }

    fn generated(&mut self, place: Option<Place>) {
        if std::mem::take(&mut self.take_done) {
            self.freeze();
        }
        if self.is_frozen() {
            return;
        }
        self.settle();
        let state = match place {
            Some(p) => State::Place(p),
            None => match self.next_generated.take() {
                Some(b) => State::Board(board_key(&b)),
                None => return,
            },
        };
        self.scoring = Some(state);
    }

    fn scored_generated(&mut self, g: Cost, h: Option<Cost>) {
        if self.is_frozen() {
            return;
        }
        if let Some(state) = self.scoring.take() {
            self.put(state, Some(g as f32), h.map(|h| h as f32));
        }
    }

    fn wants_board(&self) -> bool {
        true
    }

    fn board(&mut self, picture: Picture) {
        self.next_board = Some(picture);
    }

    fn wants_generated_boards(&self) -> bool {
        true
    }

    fn generated_board(&mut self, picture: Picture) {
        self.next_generated = Some(picture);
    }
}

impl Reference {
    /// A state put on with no score (the algorithm gave none) is put on as it is.
    fn settle(&mut self) {
        if let Some(state) = self.scoring.take() {
            self.put(state, None, None);
        }
    }

    fn put(&mut self, state: State, g: Option<f32>, h: Option<f32>) {
        let (parent, depth) = match &self.current {
            Some((State::Place(p), _, _, d)) => (Some(*p), d + 1),
            Some((_, _, _, d)) => (None, d + 1),
            None => (None, 0),
        };
        let better = self
            .frontier
            .get(&state)
            .is_none_or(|old| matches!((g, old.g), (Some(new), Some(old)) if new < old));
        if better {
            self.frontier.insert(
                state.clone(),
                Entry {
                    g,
                    h,
                    parent,
                    depth,
                },
            );
        }
        if self.current.is_some() {
            self.pushed.push((state, g, h));
            if self.target == Target::During(self.expanded - 1, self.pushed.len()) {
                self.freeze();
            }
        }
    }

    /// The re-run's reading at the event: runs `puzzle` with `algorithm` to it.
    fn read(puzzle: &dyn Puzzle, algorithm: Algorithm, target: Target) -> Frozen {
        let mut reference = Reference::new(target);
        let cancel = reference.cancel.clone();
        let _ = puzzle.solve(algorithm, &mut reference, &cancel);
        reference.settle();
        reference.freeze();
        reference.frozen.take().unwrap()
    }
}

/// ": f = 12 = g 7 + h 5", as the caption writes scores.
fn scores(g: Option<f32>, h: Option<f32>) -> String {
    let c = |v: f32| format_cost(f64::from(v));
    match (g, h) {
        (Some(g), Some(h)) => format!(": f = {} = g {} + h {}", c(g + h), c(g), c(h)),
        (Some(g), None) => format!(": g = {}", c(g)),
        (None, Some(h)) => format!(": h = {}", c(h)),
        (None, None) => String::new(),
    }
}

fn name(state: &State) -> String {
    match state {
        State::Place(p) => format!("({}, {})", p.cell.row, p.cell.col),
        State::Board(_) => "the board shown".to_owned(),
    }
}

/// A random maze of `rows x cols`, about a quarter walls, start top left, goal bottom right.
fn random_maze(rows: usize, cols: usize, seed: u64) -> Box<dyn Puzzle> {
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let mut text = String::new();
    for r in 0..rows {
        for c in 0..cols {
            text.push(match (r, c) {
                (0, 0) => 'S',
                _ if (r, c) == (rows - 1, cols - 1) => 'G',
                _ if rng.random_bool(0.25) => '#',
                _ => '.',
            });
        }
        text.push('\n');
    }
    puzzles::parse(&text, Some("maze")).expect("a maze")
}

/// The app's reading of `recording` at `position`, event `event`, against the re-run's.
fn check(
    puzzle: &dyn Puzzle,
    algorithm: Algorithm,
    recording: &TraceRecorder,
    ending: Ending,
    (position, event): (usize, Option<usize>),
    goal: &State,
    what: &str,
) {
    let m = Moment::at(recording, position, event, ending).testing_on_generation(algorithm);
    let on_generation = matches!(
        algorithm,
        Algorithm::Bfs | Algorithm::BidirectionalBfs | Algorithm::BidirectionalAStar
    );
    let len = recording.expansions();
    let code = pseudocode(algorithm);
    // The event the re-run goes to: expansion position - 1 with its pushes so far.
    let pushes = event.map(|e| e.saturating_sub(1));
    let target = match (position, pushes) {
        (0, _) => Target::Before0,
        (p, Some(k)) => Target::During(p - 1, k),
        (p, None) => Target::Before(p),
    };
    let reference = Reference::read(puzzle, algorithm, target);
    // The step, hence the lit line.
    // A run testing on generation found its goal at its last expansion's last successor:
    // the goal test returns its path there, it is not put on the frontier.
    let goal_generated = |e: usize| {
        on_generation
            && position == len
            && ending == Ending::Ended(Outcome::Found)
            && e + 1
                == 2 + Reference::read(puzzle, algorithm, Target::Before(position))
                    .pushed
                    .len()
    };
    let step = match (position, event) {
        (0, _) => Step::Start,
        (_, Some(0)) => Step::Take,
        (_, Some(1)) => Step::GoalTest,
        (_, Some(e)) if goal_generated(e) => Step::Found,
        (_, Some(_)) => Step::Push,
        (p, None) if p == len => match ending {
            Ending::Ended(Outcome::Found) => Step::Found,
            Ending::Ended(Outcome::NotFound) => Step::Failed,
            _ => Step::Stopped,
        },
        _ => Step::Expand,
    };
    assert_eq!(m.step, step, "{what}");
    let lit = code.line(step).map(|i| code.lines[i].to_lowercase());
    match step {
        Step::Take => assert!(lit.unwrap().contains("pop()") || algorithm == Algorithm::IdaStar),
        Step::GoalTest => assert!(lit.unwrap().contains("goal"), "{what}"),
        Step::Push => {
            let l = lit.unwrap();
            assert!(
                l.contains("push") || l.contains("bounded-dfs(s"),
                "{what}: {l}"
            );
        }
        Step::Stopped => assert!(lit.is_none()),
        // The walk's W7: the moment of an expansion done ("Expanding n; 2 states put on the
        // frontier") lights the loop that put them on, not `n <- frontier.pop()`.
        Step::Expand => {
            let l = lit.unwrap();
            assert!(l.trim_start().starts_with("for each "), "{what}: {l}");
        }
        _ => {}
    }
    // The caption's state and counts.
    let caption = m.caption();
    if position > 0 && step != Step::Start {
        let (n, g, h, _) = reference.current.clone().expect("an expansion");
        match step {
            Step::Take => assert_eq!(
                caption,
                format!("Taking {} off the frontier{}.", name(&n), scores(g, h)),
                "{what}"
            ),
            Step::Expand => assert_eq!(
                caption,
                format!(
                    "Expanding {}{}; {} put on the frontier.",
                    name(&n),
                    scores(g, h),
                    puzzlelab::app::count(reference.pushed.len() as u64, "state")
                ),
                "{what}"
            ),
            Step::Push => {
                let i = pushes.unwrap();
                let (s, sg, sh) = &reference.pushed[i - 1];
                // The goal a search testing on generation returns is not put on.
                let found_here =
                    on_generation && position == len && ending == Ending::Ended(Outcome::Found);
                let total = Reference::read(puzzle, algorithm, Target::Before(position))
                    .pushed
                    .len()
                    - usize::from(found_here);
                let s = match s {
                    State::Place(_) => name(s),
                    State::Board(_) => "a board".to_owned(),
                };
                assert_eq!(
                    caption,
                    format!(
                        "Putting {s} on the frontier{} ({i} of {total}).",
                        scores(*sg, *sh)
                    ),
                    "{what}"
                );
            }
            Step::GoalTest if on_generation => assert!(
                caption.starts_with(&format!(
                    "Goal test: each successor of {} is tested as it is generated",
                    name(&n)
                )),
                "{what}: {caption}"
            ),
            Step::GoalTest => assert!(
                caption.starts_with(&format!("Goal test: {} is", name(&n))),
                "{what}: {caption}"
            ),
            _ => {}
        }
    }
    // The open list.
    let (j, on) = m.open_list_moment();
    match open_list_during(recording, j, on, algorithm, TieBreak::default()) {
        Ok(list) => {
            let mut got: Vec<(State, Entry)> = list
                .iter()
                .map(|e| {
                    let state = match (e.place, e.board) {
                        (Some(p), _) => State::Place(p),
                        (None, Some(k)) => State::Board(board_key(
                            &recording.generated_picture(k).expect("its board"),
                        )),
                        _ => panic!("an entry with no state"),
                    };
                    let entry = Entry {
                        g: e.g,
                        h: e.h,
                        parent: e.parent,
                        depth: e.depth,
                    };
                    (state, entry)
                })
                .collect();
            let head = got.first().map(|(s, _)| s.clone());
            got.sort_by(|a, b| a.0.cmp(&b.0));
            let mut want: Vec<(State, Entry)> = reference.frontier.clone().into_iter().collect();
            // The goal the run returned is on no open list: the pseudo-code returns it at
            // its goal test, before putting it on (a search testing on generation) or once
            // it took it off (one testing what it takes).
            let found = ending == Ending::Ended(Outcome::Found) && position == len;
            if found && event.is_none_or(goal_generated) {
                want.retain(|(s, _)| s != goal);
            }
            want.sort_by(|a, b| a.0.cmp(&b.0));
            assert_eq!(got, want, "{what}: the open list");
            // Between expansions, the state the list puts first is the one the run takes.
            if event.is_none() && reference.next.is_some() {
                assert_eq!(head, reference.next, "{what}: the next state");
            }
        }
        Err(OpenListError::NoOpenList(_)) => assert!(
            matches!(
                algorithm,
                Algorithm::Dfs
                    | Algorithm::IdaStar
                    | Algorithm::BidirectionalBfs
                    | Algorithm::BidirectionalAStar
            ),
            "{what}: no open list"
        ),
        Err(e) => panic!("{what}: {e}"),
    }
}

#[test]
fn the_learn_panel_says_what_a_rerun_of_the_search_says() {
    let started = std::time::Instant::now();
    let mut puzzles: Vec<(String, Box<dyn Puzzle>)> = (0..3)
        .map(|seed| (format!("maze {seed}"), random_maze(8, 10, seed)))
        .collect();
    for file in ["sliding-8-easy-6.txt", "sliding-8-easy-12.txt"] {
        let text = std::fs::read_to_string(format!("puzzles/{file}")).unwrap();
        puzzles.push((
            file.to_owned(),
            puzzles::parse(&text, Some("sliding")).unwrap(),
        ));
    }
    let mut rng = rand::rngs::StdRng::seed_from_u64(56);
    let mut checked = 0;
    let mut seen: HashMap<Algorithm, [bool; 2]> = HashMap::new();
    for (label, puzzle) in &puzzles {
        let boards = puzzle.puzzle_type().name == "sliding";
        for algorithm in puzzle.algorithms() {
            let mut recording = if boards {
                TraceRecorder::with_boards(1 << 26)
            } else {
                TraceRecorder::new(1 << 26)
            };
            let report = puzzle
                .solve(algorithm, &mut recording, &CancelToken::new())
                .unwrap();
            recording.finish();
            let ending = Ending::Ended(report.outcome);
            let len = recording.expansions();
            // Each moment is a re-run of the search: depth-first search's 160,000
            // expansions on the 12-move board are left to the 6-move one.
            if len > 5_000 {
                continue;
            }
            seen.entry(algorithm).or_insert([false; 2])[usize::from(boards)] = true;
            let mut moments = vec![(0, None), (len, None)];
            for _ in 0..6 {
                let position = rng.random_range(1..=len.max(1)).min(len);
                let events = Moment::events(
                    position
                        .checked_sub(1)
                        .map_or(0, |j| recording.pushed_count(Some(j))),
                );
                let event = rng.random_range(0..=events);
                moments.push((position, (event < events).then_some(event)));
            }
            // The goal: the 8-puzzles' solved board, a maze's path's end.
            let goal = if boards {
                let solved = puzzles::parse("1 2 3\n4 5 6\n7 8 0\n", Some("sliding")).unwrap();
                State::Board(board_key(&solved.picture()))
            } else {
                // No path, no goal: a state that is on no list.
                (report.path.last().copied()).map_or(State::Board(Vec::new()), State::Place)
            };
            let t = std::time::Instant::now();
            for (position, event) in moments {
                let what = format!("{label}, {algorithm:?}, moment {position}, event {event:?}");
                check(
                    puzzle.as_ref(),
                    algorithm,
                    &recording,
                    ending,
                    (position, event),
                    &goal,
                    &what,
                );
                checked += 1;
            }
            if std::env::var("LEARN_TIMES").is_ok() {
                eprintln!("{label} {algorithm:?}: {len} expansions, {:?}", t.elapsed());
            }
        }
    }
    assert!(checked > 200, "only {checked} moments");
    // Every algorithm offered was checked on a maze, and on a board where offered.
    for (_, puzzle) in &puzzles {
        let boards = usize::from(puzzle.puzzle_type().name == "sliding");
        for algorithm in puzzle.algorithms() {
            assert!(seen[&algorithm][boards], "{algorithm:?} unchecked");
        }
    }
    assert!(
        started.elapsed() < std::time::Duration::from_secs(30),
        "{:?}",
        started.elapsed()
    );
}
