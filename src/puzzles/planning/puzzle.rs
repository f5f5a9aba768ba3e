//! A planning task as a search problem (`Problem`), a space the oracle explores
//! (`Explorable`) and a puzzle of the app (`Model`).

use crate::puzzles::{
    Cell, Motion, Picture, PuzzleOption, PuzzleType, Report, Watcher, solve_on_boards,
};
use crate::search::{
    Algorithm, CancelToken, Cost, Interrupt, Problem, ProblemFacts, SearchError, Successor,
};

use super::*;

impl Problem for Planning {
    type State = State;
    type Move = Step;

    fn start_states(&self) -> Vec<State> {
        vec![self.state.clone()]
    }

    fn is_goal(&self, state: &State) -> Result<bool, Interrupt> {
        Ok(self.shared.task.goal.iter().all(|&g| holds(state, g)))
    }

    /// Every operator applicable in `state` (its preconditions true, its negative ones
    /// false), found through the index of first preconditions; each costs its action cost.
    fn successors(
        &self,
        state: &State,
        out: &mut Vec<Successor<State, Step>>,
    ) -> Result<(), Interrupt> {
        let shared = &*self.shared;
        let task = &shared.task;
        shared.generator.applicable(state, |op| {
            let mut next = State::from_slice(state);
            shared.generator.apply(&mut next, op);
            out.push(Successor {
                state: next,
                mv: Step {
                    op,
                    name: shared.names[op as usize].clone(),
                },
                cost: task.operators[op as usize].cost as Cost,
            });
        });
        Ok(())
    }

    fn heuristic(&self, state: &State) -> Result<Cost, Interrupt> {
        let shared = &*self.shared;
        Ok(match self.heuristic {
            Heuristic::LmCut => shared.lmcut.value(|f| holds(state, f)),
            h => shared
                .relaxation
                .value(&shared.task, h, |f| holds(state, f)),
        })
    }

    /// A heuristic unless blind, admissible as [`Heuristic::is_admissible`] says; unit
    /// costs when the task's operators all cost 1.
    fn facts(&self) -> ProblemFacts {
        ProblemFacts {
            has_heuristic: self.heuristic != Heuristic::Blind,
            admissible: self.heuristic.is_admissible(),
            unit_costs: self.shared.task.unit_costs,
            ..ProblemFacts::default()
        }
    }

    /// The words of a state too large to be held inline.
    fn state_heap_bytes(&self, state: &State) -> usize {
        if state.spilled() {
            state.capacity() * size_of::<u64>()
        } else {
            0
        }
    }
}

impl crate::puzzles::oracle::Explorable for Planning {
    /// No piece moves: a step changes facts, drawn as the squares that change.
    fn motion(&self, _state: &State, _mv: &Step, _next: &State) -> Option<Motion> {
        None
    }

    fn same_rules(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.shared, &other.shared)
            || (self.shared.domain.1 == other.shared.domain.1
                && self.shared.problem.1 == other.shared.problem.1
                && self.heuristic == other.heuristic)
    }

    fn at_state(&self, state: &State) -> Self {
        Planning {
            state: state.clone(),
            ..self.clone()
        }
    }

    fn metric_name(&self) -> String {
        if self.shared.task.unit_costs {
            "actions".into()
        } else {
            "cost".into()
        }
    }
}

impl crate::puzzles::Model for Planning {
    const TYPE: &'static PuzzleType = &TYPE;

    fn picture(&self) -> Picture {
        self.picture_of(&self.state)
    }

    fn heuristic_name(&self) -> String {
        self.heuristic.describe().into()
    }

    fn default_algorithm(&self) -> Algorithm {
        Algorithm::AStar
    }

    fn solve(
        &self,
        algorithm: Algorithm,
        watcher: &mut dyn Watcher,
        cancel: &CancelToken,
    ) -> Result<Report, SearchError> {
        let mut report = solve_on_boards(
            self,
            &TYPE,
            algorithm,
            watcher,
            cancel,
            |s| self.picture_of(s),
            |_, _| Motion {
                from: Cell::new(0, 0),
                by: (0, 0),
            },
        )?;
        let task = &self.shared.task;
        // The heuristic is named only for a search that uses one (breadth-first search,
        // Dijkstra and depth-first search read none).
        let heuristic = if algorithm.needs_heuristic() {
            format!("; heuristic: {}", self.heuristic.describe())
        } else {
            String::new()
        };
        report.notes.push(format!(
            "grounded: {} facts, {} operators{heuristic}",
            task.facts.len(),
            task.operators.len(),
        ));
        Ok(report)
    }

    fn options(&self) -> Vec<PuzzleOption> {
        vec![PuzzleOption::new(
            "heuristic",
            "blind|goalcount|hmax|lmcut|hadd|hff",
            "the heuristic: none, goal facts left, h^max or LM-cut (both admissible), h^add or h^FF",
        )]
    }

    fn set_option(&mut self, name: &str, value: &str) -> Result<(), String> {
        match (name, Heuristic::from_name(value)) {
            ("heuristic", Some(h)) => {
                self.heuristic = h;
                Ok(())
            }
            _ => Err(format!(
                "unknown {name} `{value}` (known: blind, goalcount, hmax, lmcut, hadd, hff)"
            )),
        }
    }

    /// A planning task is edited as text, not on the canvas.
    fn stroke_value(&self, _cell: Cell) -> Option<u8> {
        None
    }

    fn paint(&mut self, _cell: Cell, _value: u8) -> bool {
        false
    }

    fn unsolvable(&self) -> Option<String> {
        let task = &self.shared.task;
        let init = task.init_flags();
        let layers = self
            .shared
            .relaxation
            .explore(task, |f| init[f as usize], false);
        let missing: Vec<&str> = task
            .goal
            .iter()
            .filter(|&&g| layers.fact_cost[g as usize] == heuristics::UNREACHED)
            .map(|&g| task.facts[g as usize].as_str())
            .collect();
        (!missing.is_empty()).then(|| {
            format!(
                "the goal cannot be reached even ignoring delete effects: {} unreachable",
                missing.join(", ")
            )
        })
    }

    fn to_text(&self) -> String {
        self.joined_text()
    }

    /// The facts true in the position, one a line.
    fn position_text(&self) -> String {
        self.true_facts(&self.state).join("\n")
    }

    fn to_json(&self) -> serde_json::Value {
        serde_json::json!(PlanningJson {
            puzzle_type: TYPE.name.into(),
            version: TYPE.json_version,
            domain: self.shared.domain.1.clone(),
            problem: self.shared.problem.1.clone(),
            heuristic: self.heuristic,
        })
    }
}
