//! `--shard K/N`: the K-th of N equal parts of a batch's problems, by index, so that a suite
//! runs as N processes (GNU parallel, a Slurm job array) whose JSON outputs `merge` joins
//! (`scenario`, every `bench`).

use std::ops::Range;

/// The largest N of `--shard K/N`.
pub const MAX_SHARDS: usize = 1_000_000;

/// Part `index` (1-based) of `count` equal parts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// K, from 1 to `count`.
    pub index: usize,
    /// N, from 1 to [`MAX_SHARDS`].
    pub count: usize,
}

/// Parses `K/N` (a clap value parser): whole numbers with 1 <= K <= N <= [`MAX_SHARDS`].
pub fn parse_shard(text: &str) -> Result<Shard, String> {
    let usage = || format!("`{text}` is not K/N (the K-th of N parts, 1 <= K <= N, e.g. 2/8)");
    let (k, n) = text.trim().split_once('/').ok_or_else(usage)?;
    let (Ok(index), Ok(count)) = (k.trim().parse::<usize>(), n.trim().parse::<usize>()) else {
        return Err(usage());
    };
    if count == 0 || count > MAX_SHARDS {
        return Err(format!("N of --shard K/N must be from 1 to {MAX_SHARDS}"));
    }
    if index == 0 || index > count {
        return Err(format!(
            "K of --shard {index}/{count} must be from 1 to {count}"
        ));
    }
    Ok(Shard { index, count })
}

impl Shard {
    /// The indices of this part of `total` problems: the K-th of N runs of consecutive
    /// indices whose lengths differ by at most one (empty when N > `total` and K is one of the
    /// parts left over).
    pub fn range(self, total: usize) -> Range<usize> {
        let at = |k: usize| (total as u128 * k as u128 / self.count as u128) as usize;
        at(self.index - 1)..at(self.index)
    }

    /// What a shard's JSON says of itself, for `merge`: `{"index": K, "count": N, "first":
    /// the index of its first problem, "of": the problems of the whole batch}`.
    pub fn to_json(self, total: usize) -> serde_json::Value {
        serde_json::json!({
            "index": self.index,
            "count": self.count,
            "first": self.range(total).start,
            "of": total,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_cover_the_batch_in_order() {
        for total in [0, 1, 2, 7, 100, 101] {
            for count in 1..=12 {
                let mut next = 0;
                for index in 1..=count {
                    let r = Shard { index, count }.range(total);
                    assert_eq!(r.start, next);
                    assert!(r.len() <= total / count + 1 && r.len() >= total / count);
                    next = r.end;
                }
                assert_eq!(next, total);
            }
        }
    }

    #[test]
    fn bad_values_are_refused() {
        assert_eq!(parse_shard("2/3"), Ok(Shard { index: 2, count: 3 }));
        for bad in [
            "0/3",
            "4/3",
            "1/0",
            "3",
            "a/b",
            "-1/2",
            "1/2/3",
            "",
            "1/2000000",
        ] {
            assert!(parse_shard(bad).is_err(), "{bad}");
        }
    }
}
