//! `subsets(C, lo..hi)`: the sub-multisets of a collection as bit masks
//! over its elements, and a subset's elements read back from the frame.
//!
//! Listing `subsets(C)` writes `C`'s elements into the frame's area (their
//! number, then the elements, twins side by side: see `write_area`) and
//! pushes one mask per subset. Twins (equal values; pieces of one class
//! lying in one zone, equally revealed) are one element chosen up to as
//! many times as there are of them: a subset takes the first `j` of a
//! class, so each multiset is listed once. Subsets are ordered by size,
//! then by the positions of their elements in the area (the subset holding
//! the earliest element that tells two apart comes first). Everything is
//! counted before anything is listed, so a family past
//! `limits::MAX_SUBSETS` is an error at once, and the work of listing is
//! bounded by the sets listed: every branch of the search leads to one.
use super::{Exec, R};
use crate::diag::Span;
use crate::eval::{RunError, RunErrorKind};
use crate::ir::*;
use crate::limits::{MAX_SUBSETS, MAX_SUBSET_ELEMS};

/// The twin classes of up to 64 elements: each class's positions as a bit
/// mask, in the order of their first elements.
struct Classes {
    masks: [u64; MAX_SUBSET_ELEMS],
    len: usize,
}

impl Exec<'_> {
    /// Lists `subsets(of, lo..hi)` onto the scratch stack as masks.
    pub(super) fn subsets(
        &mut self,
        of: &Coll,
        lo: &Expr,
        hi: Option<&Expr>,
        area: u16,
        pieces: bool,
        span: Span,
    ) -> R<()> {
        let lo = self.eval(lo, span)?;
        let hi = match hi {
            Some(h) => Some(self.eval(h, span)?),
            None => None,
        };
        let mark = self.st.scratch.len();
        self.coll(of, span)?;
        let n = self.st.scratch.len() - mark;
        if n > MAX_SUBSET_ELEMS {
            self.st.scratch.truncate(mark);
            return Err(RunError::at(RunErrorKind::SubsetsOfTooMany { n }, span));
        }
        let hi_v = hi.unwrap_or(n as Val);
        if lo < 0 || hi_v < lo {
            self.st.scratch.truncate(mark);
            return Err(RunError::at(
                RunErrorKind::SubsetsBounds { lo, hi: hi_v },
                span,
            ));
        }
        let (lo, hi) = (lo.min(n as Val + 1) as usize, hi_v.min(n as Val) as usize);
        let at = self.base + area as usize;
        let classes = self.write_area(mark, at, pieces);
        self.st.scratch.truncate(mark);
        let total = count(&classes, lo, hi);
        if total > MAX_SUBSETS {
            return Err(RunError::at(
                RunErrorKind::TooManySubsets { elems: n },
                span,
            ));
        }
        // Every class left after class k, for the search to give up early
        // on a prefix that can no longer reach `lo` elements.
        let mut rest = [0usize; MAX_SUBSET_ELEMS + 1];
        for k in (0..classes.len).rev() {
            rest[k] = rest[k + 1] + classes.masks[k].count_ones() as usize;
        }
        if lo <= hi {
            push_masks(&classes, &rest, lo, hi, 0, 0, 0, &mut self.st.scratch);
        }
        self.st.scratch[mark..].sort_unstable_by(|&a, &b| order(a as u64, b as u64));
        Ok(())
    }

    /// Writes the elements listed at `scratch[mark..]` into the area at
    /// `locals[at]` grouped by twin class (classes in the order of their
    /// first elements, each in the collection's order), so that twins sit
    /// side by side in a subset's label; returns the classes as masks over
    /// the area's positions.
    fn write_area(&mut self, mark: usize, at: usize, pieces: bool) -> Classes {
        let n = self.st.scratch.len() - mark;
        let mut class = [0u8; MAX_SUBSET_ELEMS];
        let mut leader = [0usize; MAX_SUBSET_ELEMS];
        let mut size = [0usize; MAX_SUBSET_ELEMS];
        let mut len = 0;
        'elems: for (i, cls) in class.iter_mut().enumerate().take(n) {
            let x = self.st.scratch[mark + i];
            for k in 0..len {
                if self.twins(self.st.scratch[mark + leader[k]], x, pieces) {
                    *cls = k as u8;
                    size[k] += 1;
                    continue 'elems;
                }
            }
            *cls = len as u8;
            leader[len] = i;
            size[len] = 1;
            len += 1;
        }
        let mut c = Classes {
            masks: [0; MAX_SUBSET_ELEMS],
            len,
        };
        self.st.locals[at] = n as Val;
        let mut w = 0;
        for k in 0..len {
            c.masks[k] = (u64::MAX >> (64 - size[k])) << w;
            for (i, &cls) in class.iter().enumerate().take(n).skip(leader[k]) {
                if cls as usize == k {
                    self.st.locals[at + 1 + w] = self.st.scratch[mark + i];
                    w += 1;
                }
            }
        }
        c
    }

    /// Whether two elements are one to the seat choosing: equal, or twin
    /// pieces in one zone with the same visibility.
    fn twins(&self, a: Val, b: Val, pieces: bool) -> bool {
        if a == b {
            return true;
        }
        if !pieces || a < 0 || b < 0 {
            return false;
        }
        let (a, b) = (a as usize, b as usize);
        let (g, st) = (self.g, &*self.st);
        g.piece_class[a] == g.piece_class[b]
            && st.zones.zone_of[a] == st.zones.zone_of[b]
            && st.revealed[a] == st.revealed[b]
    }

    /// Pushes the elements of the subset `mask` of the area at `area`.
    pub(super) fn subset(&mut self, mask: &Expr, area: u16, span: Span) -> R<()> {
        let mut m = self.eval(mask, span)? as u64;
        let at = self.base + area as usize;
        let n = self.st.locals[at] as usize;
        while m != 0 {
            let i = m.trailing_zeros() as usize;
            m &= m - 1;
            if i < n {
                let v = self.st.locals[at + 1 + i];
                self.st.scratch.push(v);
            }
        }
        Ok(())
    }
}

/// How many subsets with `lo` to `hi` elements the classes make, counted
/// by size class after class; anything past `MAX_SUBSETS` reads as one more.
fn count(c: &Classes, lo: usize, hi: usize) -> u64 {
    let cap = MAX_SUBSETS + 1;
    let mut ways = [0u64; MAX_SUBSET_ELEMS + 1];
    ways[0] = 1;
    let mut top = 0;
    for k in 0..c.len {
        let m = c.masks[k].count_ones() as usize;
        top += m;
        for s in (0..=top).rev() {
            let mut w = 0u64;
            for j in 1..=m.min(s) {
                w = (w + ways[s - j]).min(cap);
            }
            ways[s] = (ways[s] + w).min(cap);
        }
    }
    if lo > hi {
        return 0;
    }
    ways[lo..=hi].iter().fold(0, |a, &w| (a + w).min(cap))
}

/// Pushes every subset that takes, from class `k` on, so many of each
/// class's first elements that the size ends within `lo..=hi`.
#[allow(clippy::too_many_arguments)]
fn push_masks(
    c: &Classes,
    rest: &[usize],
    lo: usize,
    hi: usize,
    k: usize,
    size: usize,
    mask: u64,
    out: &mut Vec<Val>,
) {
    if k == c.len {
        out.push(mask as Val);
        return;
    }
    let mut take = 0u64;
    let mut left = c.masks[k];
    let mut j = 0;
    loop {
        if size + j + rest[k + 1] >= lo {
            push_masks(c, rest, lo, hi, k + 1, size + j, mask | take, out);
        }
        if left == 0 || size + j == hi {
            break;
        }
        take |= left & left.wrapping_neg();
        left &= left - 1;
        j += 1;
    }
}

/// Smaller subsets first; among subsets of one size, the one holding the
/// lowest position where they differ.
fn order(a: u64, b: u64) -> std::cmp::Ordering {
    a.count_ones().cmp(&b.count_ones()).then_with(|| {
        let d = a ^ b;
        if d == 0 {
            std::cmp::Ordering::Equal
        } else if a & d & d.wrapping_neg() != 0 {
            std::cmp::Ordering::Less
        } else {
            std::cmp::Ordering::Greater
        }
    })
}
