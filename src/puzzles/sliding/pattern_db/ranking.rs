//! The placements of a group's tiles on the board's squares, numbered densely: the index of
//! a database's table.

/// The number of ordered placements of `k` distinct items on `n` squares: n! / (n - k)!.
pub fn placements(n: usize, k: usize) -> usize {
    (n - k + 1..=n).product()
}

/// The rank of `squares` (distinct, each below `n` and 64) among the ordered placements of
/// that many items on `n` squares, in 0..placements(n, squares.len()).
#[inline]
pub fn rank(squares: &[u8], n: usize) -> usize {
    let mut used = 0u64;
    let mut r = 0;
    for (i, &p) in squares.iter().enumerate() {
        let smaller_free = u32::from(p) - (used & ((1u64 << p) - 1)).count_ones();
        r = r * (n - i) + smaller_free as usize;
        used |= 1u64 << p;
    }
    r
}

/// The placement of rank `r` (see [`rank`]) of `squares.len()` items on `n` squares, written
/// into `squares`.
pub fn unrank(mut r: usize, n: usize, squares: &mut [u8]) {
    let k = squares.len();
    for i in (0..k).rev() {
        squares[i] = (r % (n - i)) as u8;
        r /= n - i;
    }
    let mut used = 0u64;
    for s in squares.iter_mut() {
        let mut free = !used & ((1u64 << n) - 1);
        for _ in 0..*s {
            free &= free - 1;
        }
        *s = free.trailing_zeros() as u8;
        used |= 1u64 << *s;
    }
}
