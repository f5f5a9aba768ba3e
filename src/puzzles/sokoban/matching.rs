//! The minimum-cost perfect matching of `n` boxes to `n` goals: the Hungarian algorithm
//! (Kuhn 1955, Munkres 1957) in its O(n^3) form with row and column potentials, as in
//! Jonker and Volgenant's shortest augmenting paths. Sokoban's lower bound on pushes is
//! this matching on push distances (Junghanns and Schaeffer, "Sokoban: enhancing general
//! single-agent search methods using domain knowledge", Artificial Intelligence 129, 2001:
//! Rolling Stone's minimum matching lower bound).

/// A cost that stands for "not allowed": larger than any sum of allowed costs.
const FORBIDDEN: i64 = 1 << 40;

/// The least total cost of matching each of `n` rows (boxes) to its own column (goal),
/// `cost(row, col)` `None` where a pair is not allowed; `None` when no perfect matching
/// of allowed pairs exists.
pub fn min_cost(n: usize, cost: impl Fn(usize, usize) -> Option<u32>) -> Option<u32> {
    Assignment::solve(n, &cost).total(&cost)
}

/// An optimal assignment of `n` rows to `n` columns with its row and column potentials (the
/// dual solution), kept so that a change of one row's costs is repaired by one augmenting
/// path in O(n^2) ([`Assignment::repair_row`]) instead of a new O(n^3) solution: the
/// incremental matching bound of Sokoban solvers (Junghanns and Schaeffer 2001: Rolling
/// Stone updates its lower bound incrementally after each push, as one box moves).
#[derive(Clone, Debug, Default)]
pub struct Assignment {
    n: usize,
    /// Row potentials, 1-based.
    u: Vec<i64>,
    /// Column potentials, 1-based; column 0 is the augmenting path's virtual start.
    v: Vec<i64>,
    /// The row (1-based) assigned to each column, 0 for none.
    owner: Vec<usize>,
    way: Vec<usize>,
    minv: Vec<i64>,
    used: Vec<bool>,
}

impl Assignment {
    /// The optimal assignment of the `n` x `n` costs `cost` (`None`: not allowed; then
    /// [`Assignment::total`] says whether a perfect matching of allowed pairs exists).
    pub fn solve(n: usize, cost: &impl Fn(usize, usize) -> Option<u32>) -> Assignment {
        let mut a = Assignment {
            n,
            u: vec![0; n + 1],
            v: vec![0; n + 1],
            owner: vec![0; n + 1],
            way: vec![0; n + 1],
            minv: vec![0; n + 1],
            used: vec![false; n + 1],
        };
        for i in 1..=n {
            a.add_row(i, cost);
        }
        a
    }

    /// The assignment after row `row` (0-based) takes new costs: its column freed, then one
    /// augmenting path from it, the other rows' potentials kept (still feasible: a column's
    /// potential only ever goes down, so the row starting at potential 0 is feasible).
    pub fn repair_row(&mut self, row: usize, cost: &impl Fn(usize, usize) -> Option<u32>) {
        let i = row + 1;
        if let Some(j) = (1..=self.n).find(|&j| self.owner[j] == i) {
            self.owner[j] = 0;
        }
        self.u[i] = 0;
        self.add_row(i, cost);
    }

    /// The total cost of the assignment, `None` when it uses a pair not allowed (no perfect
    /// matching of allowed pairs exists).
    pub fn total(&self, cost: &impl Fn(usize, usize) -> Option<u32>) -> Option<u32> {
        let mut total = 0u64;
        for (j, &row) in self.owner.iter().enumerate().skip(1) {
            total += u64::from(cost(row - 1, j - 1)?);
        }
        u32::try_from(total).ok()
    }

    /// Assigns row `i` (1-based, unassigned) by the shortest augmenting path (Jonker and
    /// Volgenant), updating the potentials.
    fn add_row(&mut self, i: usize, cost: &impl Fn(usize, usize) -> Option<u32>) {
        let n = self.n;
        let a = |i: usize, j: usize| cost(i, j).map_or(FORBIDDEN, i64::from);
        let Assignment {
            u,
            v,
            owner,
            way,
            minv,
            used,
            ..
        } = self;
        owner[0] = i;
        let mut j0 = 0;
        minv.fill(i64::MAX);
        used.fill(false);
        loop {
            used[j0] = true;
            let i0 = owner[j0];
            let mut delta = i64::MAX;
            let mut j1 = 0;
            for j in 1..=n {
                if !used[j] {
                    let cur = a(i0 - 1, j - 1) - u[i0] - v[j];
                    if cur < minv[j] {
                        minv[j] = cur;
                        way[j] = j0;
                    }
                    if minv[j] < delta {
                        delta = minv[j];
                        j1 = j;
                    }
                }
            }
            for j in 0..=n {
                if used[j] {
                    u[owner[j]] += delta;
                    v[j] -= delta;
                } else {
                    minv[j] -= delta;
                }
            }
            j0 = j1;
            if owner[j0] == 0 {
                break;
            }
        }
        loop {
            let j1 = way[j0];
            owner[j0] = owner[j1];
            j0 = j1;
            if j0 == 0 {
                break;
            }
        }
        owner[0] = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every permutation's cost, the least of them (the reference for small matrices).
    fn brute(m: &[Vec<Option<u32>>]) -> Option<u32> {
        fn go(m: &[Vec<Option<u32>>], row: usize, used: &mut Vec<bool>) -> Option<u32> {
            if row == m.len() {
                return Some(0);
            }
            let mut best: Option<u32> = None;
            for col in 0..m.len() {
                if used[col] {
                    continue;
                }
                let Some(c) = m[row][col] else { continue };
                used[col] = true;
                if let Some(rest) = go(m, row + 1, used) {
                    best = Some(best.map_or(c + rest, |b| b.min(c + rest)));
                }
                used[col] = false;
            }
            best
        }
        go(m, 0, &mut vec![false; m.len()])
    }

    #[test]
    fn agrees_with_every_permutation_on_small_matrices() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::StdRng::seed_from_u64(58);
        for _ in 0..300 {
            let n = rng.random_range(1..=6);
            let m: Vec<Vec<Option<u32>>> = (0..n)
                .map(|_| {
                    (0..n)
                        .map(|_| rng.random_bool(0.8).then(|| rng.random_range(0..20)))
                        .collect()
                })
                .collect();
            assert_eq!(min_cost(n, |i, j| m[i][j]), brute(&m), "{m:?}");
        }
    }

    /// A repaired row gives the same total as a new solution, over chains of changes (as a
    /// search moves one box after another).
    #[test]
    fn a_repaired_row_agrees_with_a_new_solution() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::StdRng::seed_from_u64(59);
        for _ in 0..200 {
            let n = rng.random_range(1..=7);
            let mut m: Vec<Vec<Option<u32>>> = (0..n)
                .map(|_| (0..n).map(|_| Some(rng.random_range(0..20))).collect())
                .collect();
            let mut a = Assignment::solve(n, &|i, j| m[i][j]);
            for _ in 0..6 {
                let row = rng.random_range(0..n);
                let before = m[row].clone();
                m[row] = (0..n)
                    .map(|_| rng.random_bool(0.85).then(|| rng.random_range(0..20)))
                    .collect();
                let cost = |i: usize, j: usize| m[i][j];
                let mut repaired = a.clone();
                repaired.repair_row(row, &cost);
                assert_eq!(repaired.total(&cost), brute(&m), "{m:?}");
                if repaired.total(&cost).is_some() {
                    a = repaired;
                } else {
                    // A search drops such a position: the next change starts from the last.
                    m[row] = before;
                }
            }
        }
    }
}
