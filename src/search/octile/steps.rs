//! Costs on the octile grid kept as whole straight and diagonal steps ([`Steps`]), and the
//! octile distance as steps.

use super::Cost;

/// A cost on the grid as its straight and diagonal steps: `straight + sqrt(2) * diagonal`.
///
/// Costs are added as whole steps, and made a number in one way ([`Steps::cost`]), so that
/// equal costs are equal numbers whatever the order of the steps (√2 being irrational, two
/// costs are equal only when their steps are): ties among equal `f` on the open list are true
/// ties, broken towards the larger `g` as the policy says, where sums of floating-point steps
/// would differ in their last bits and order the ties by rounding. Distinct costs of paths
/// on a grid of at most [`MAX_OCTILE_SIDE`] squares a side differ by far more than the
/// rounding, so they order as the exact costs do.
///
/// The two counts share one word (straight in the low 32 bits, diagonal in the high), so
/// that adding costs is one addition and a cost is stored and loaded whole.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Steps(u64);

impl Steps {
    #[inline]
    pub(super) fn straight(n: u32) -> Self {
        Self(u64::from(n))
    }

    #[inline]
    pub(super) fn diagonal(n: u32) -> Self {
        Self(u64::from(n) << 32)
    }

    /// The sum of two costs (each count stays below 2^32: paths on a grid of at most
    /// [`MAX_OCTILE_SIDE`] squares a side are shorter, so no count carries into the other).
    #[inline]
    pub(super) fn plus(self, other: Steps) -> Steps {
        Steps(self.0 + other.0)
    }

    /// The cost as a number.
    #[inline]
    pub(super) fn cost(self) -> Cost {
        Cost::from(self.0 as u32) + Cost::from((self.0 >> 32) as u32) * std::f64::consts::SQRT_2
    }
}

/// The octile distance between two squares, as steps: the diagonal ones, then straight.
#[inline]
pub(super) fn octile(a: (usize, usize), b: (usize, usize)) -> Steps {
    let (dr, dc) = (a.0.abs_diff(b.0) as u32, a.1.abs_diff(b.1) as u32);
    Steps::straight(dr.max(dc) - dr.min(dc)).plus(Steps::diagonal(dr.min(dc)))
}
