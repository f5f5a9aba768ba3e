//! The fast core's search below a state when the dual lookups make the estimate
//! inconsistent: bidirectional pathmax with one level of lookahead.

use super::Core;

impl Core<'_, '_> {
    /// The search below a state with dual lookups (inconsistent): bidirectional pathmax with
    /// one level of lookahead (Felner, Zahavi, Holte et al., "Inconsistent heuristics in theory
    /// and practice", AIJ 2011). Every successor is looked up before any is searched, so one
    /// whose estimate less one move exceeds the state's cuts the state off before the subtrees
    /// of its siblings are searched; the successors searched then keep their estimate.
    pub(super) fn search_looking_ahead(
        &mut self,
        g: u32,
        previous: u8,
        count: usize,
        generated: u64,
    ) -> bool {
        let b = usize::from(self.blank);
        let blank = self.blank;
        let bound = self.bound;
        let mut estimates = [0u32; 4];
        for (i, estimate) in estimates.iter_mut().enumerate().take(count) {
            let q = self.shape.neighbours[b][i];
            if q == previous {
                continue;
            }
            let undo = self.slide(q);
            let h = self.h_successor(g + 1);
            self.unslide(undo);
            *estimate = h;
            self.cut = h;
            if self.pathmax_cuts(g, blank) {
                let skipped = self.successors_after(b, i, count, previous);
                self.stats.generated -= skipped;
                self.unreported.1 -= skipped;
                self.pending -= generated;
                return false;
            }
        }
        for (i, &h) in estimates.iter().enumerate().take(count) {
            let q = self.shape.neighbours[b][i];
            if q == previous {
                continue;
            }
            self.pending -= 1;
            if g + 1 + h > bound {
                self.next_bound = self.next_bound.min(g + 1 + self.shape.to_parity(h, q));
                continue;
            }
            let undo = self.slide(q);
            self.path.push(q);
            if h == 0 {
                return true;
            }
            self.cut = 0;
            if self.search_below(g + 1, blank) {
                return true;
            }
            self.path.pop();
            self.unslide(undo);
            if self.pathmax_cuts(g, blank) {
                self.pending -= self.successors_after(b, i, count, previous);
                return false;
            }
        }
        self.cut = 0;
        false
    }

    /// The estimate of a successor `g` moves from the start (the board as it stands): the
    /// plain and reflected sums, and the dual lookups where those let it through (stopping
    /// at the first above the bound).
    #[inline]
    fn h_successor(&mut self, g: u32) -> u32 {
        let h = self.h_views(self.bound.saturating_sub(g));
        if g + h > self.bound || h == 0 {
            return h;
        }
        h.max(self.h_dual(self.bound - g))
    }
}
