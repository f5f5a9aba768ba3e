//! The successor generator: which grounded operators apply in a state.
//!
//! Each operator is filed under its first (lowest-numbered) precondition, so a state's
//! candidates are the operators filed under the facts it holds, plus those with no
//! precondition: an operator whose first precondition is false is never looked at. A
//! candidate's preconditions are then tested a word of the state at a time: for each 64-bit
//! word of the state its preconditions touch, one mask of the facts that must hold and one of
//! the facts that must not (its negative preconditions). Fast Downward's successor generator
//! (Helmert, JAIR 2006, section 5.3.1) walks a decision tree over the SAS+ variables instead;
//! both return every applicable operator, none else. An operator's effects are applied a word
//! at a time too (its deletes, then its adds, as masks). The plain reference is
//! [`super::task::Operator::applicable`] on flags (`tests/it/planning_successors.rs` compares the two on
//! every state the search reaches in several IPC tasks).

use super::task::{FactId, Task};

/// One word's test of an operator: `state[word] & pos == pos && state[word] & neg == 0`; or,
/// in [`SuccessorGenerator`]'s effects, one word's change: `state[word] & !neg | pos` (its
/// deletes `neg`, then its adds `pos`).
#[derive(Clone, Copy, Debug)]
struct WordTest {
    word: u32,
    pos: u64,
    neg: u64,
}

/// The grounded operators indexed for [`SuccessorGenerator::applicable`] (see the module docs).
#[derive(Debug)]
pub struct SuccessorGenerator {
    /// For each fact, the operators whose first precondition it is.
    first_pre: Vec<Vec<u32>>,
    /// The operators with no positive precondition.
    no_pre: Vec<u32>,
    /// Every operator's word tests: operator `o`'s are `tests[starts[o]..starts[o + 1]]`.
    tests: Vec<WordTest>,
    starts: Vec<u32>,
    /// Every operator's effects a word at a time: operator `o`'s are
    /// `effects[effect_starts[o]..effect_starts[o + 1]]`.
    effects: Vec<WordTest>,
    effect_starts: Vec<u32>,
}

/// Adds fact `f` to the masks of `words[start..]` (to `neg` when `negative`, else to `pos`),
/// with a new entry for its word when it has none yet.
fn add_to_masks(words: &mut Vec<WordTest>, start: usize, f: FactId, negative: bool) {
    let (word, bit) = (f / 64, 1u64 << (f % 64));
    let at = match words[start..].iter().position(|t| t.word == word) {
        Some(at) => start + at,
        None => {
            words.push(WordTest {
                word,
                pos: 0,
                neg: 0,
            });
            words.len() - 1
        }
    };
    if negative {
        words[at].neg |= bit;
    } else {
        words[at].pos |= bit;
    }
}

impl SuccessorGenerator {
    /// Indexes `task`'s operators. Its size is linear in the operators' preconditions.
    pub fn new(task: &Task) -> Self {
        let mut first_pre = vec![Vec::new(); task.facts.len()];
        let mut no_pre = Vec::new();
        let mut tests: Vec<WordTest> = Vec::new();
        let mut starts = Vec::with_capacity(task.operators.len() + 1);
        let mut effects: Vec<WordTest> = Vec::new();
        let mut effect_starts = Vec::with_capacity(task.operators.len() + 1);
        for (i, op) in task.operators.iter().enumerate() {
            match op.pre.iter().min() {
                Some(&f) => first_pre[f as usize].push(i as u32),
                None => no_pre.push(i as u32),
            }
            starts.push(tests.len() as u32);
            let start = tests.len();
            for &f in &op.pre {
                add_to_masks(&mut tests, start, f, false);
            }
            for &f in &op.pre_neg {
                add_to_masks(&mut tests, start, f, true);
            }
            effect_starts.push(effects.len() as u32);
            let start = effects.len();
            for &f in &op.del {
                add_to_masks(&mut effects, start, f, true);
            }
            for &f in &op.add {
                add_to_masks(&mut effects, start, f, false);
            }
        }
        starts.push(tests.len() as u32);
        effect_starts.push(effects.len() as u32);
        SuccessorGenerator {
            first_pre,
            no_pre,
            tests,
            starts,
            effects,
            effect_starts,
        }
    }

    /// Whether operator `op` applies in `state` (bit `f % 64` of word `f / 64` for fact `f`,
    /// as [`super::State`]): its preconditions hold, its negative preconditions do not.
    pub fn applies(&self, state: &[u64], op: u32) -> bool {
        let range = self.starts[op as usize] as usize..self.starts[op as usize + 1] as usize;
        self.tests[range].iter().all(|t| {
            let w = state.get(t.word as usize).copied().unwrap_or(0);
            w & t.pos == t.pos && w & t.neg == 0
        })
    }

    /// Applies operator `op` to `state`: its deletes made false, then its adds true (as
    /// [`super::task::Operator::apply`] does on flags). Does not check that it applies.
    pub fn apply(&self, state: &mut [u64], op: u32) {
        let range =
            self.effect_starts[op as usize] as usize..self.effect_starts[op as usize + 1] as usize;
        for t in &self.effects[range] {
            if let Some(w) = state.get_mut(t.word as usize) {
                *w = *w & !t.neg | t.pos;
            }
        }
    }

    /// Calls `found` with every operator that applies in `state`, each once: first those
    /// with no precondition, then by their first precondition's fact, ascending.
    pub fn applicable(&self, state: &[u64], mut found: impl FnMut(u32)) {
        for &op in &self.no_pre {
            if self.applies(state, op) {
                found(op);
            }
        }
        for (w, &word) in state.iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                let f = w * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                for &op in self.first_pre.get(f).map_or(&[][..], Vec::as_slice) {
                    if self.applies(state, op) {
                        found(op);
                    }
                }
            }
        }
    }
}
