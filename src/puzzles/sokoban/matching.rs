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
    if n == 0 {
        return Some(0);
    }
    let a = |i: usize, j: usize| cost(i, j).map_or(FORBIDDEN, i64::from);
    // 1-based rows and columns; column 0 is the augmenting path's virtual start.
    let mut u = vec![0i64; n + 1];
    let mut v = vec![0i64; n + 1];
    let mut owner = vec![0usize; n + 1]; // the row matched to each column
    let mut way = vec![0usize; n + 1];
    for i in 1..=n {
        owner[0] = i;
        let mut j0 = 0;
        let mut minv = vec![i64::MAX; n + 1];
        let mut used = vec![false; n + 1];
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
    }
    let mut total = 0i64;
    for (j, &row) in owner.iter().enumerate().skip(1) {
        let c = a(row - 1, j - 1);
        if c >= FORBIDDEN {
            return None;
        }
        total += c;
    }
    u32::try_from(total).ok()
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
}
