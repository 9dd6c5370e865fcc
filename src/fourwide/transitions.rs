//! The field graph: every field reachable from the seed, and for each (field, piece) the
//! fields its clearing placements leave. Everything after this works on field indices.

use super::field::{Field, Piece};
use super::srs::{placements, Placements};
use ahash::AHashMap;

/// The seed field of a residual count: `XXX_` for 3, `XXX_/XXX_` for 6.
pub fn seed(residuals: u8) -> Option<Field> {
    match residuals {
        3 => Some(Field(0x7)),
        6 => Some(Field(0x77)),
        _ => None,
    }
}

/// Fields (sorted by their bits, so indices are stable) and their successors.
#[derive(Clone, Debug)]
pub struct Transitions {
    /// Every reachable field; a field's index is its position here.
    pub fields: Vec<Field>,
    /// `next[f][piece]`: the sorted indices of the fields `piece` can leave on field `f`.
    pub next: Vec<[Vec<u32>; 7]>,
}

impl Transitions {
    /// Explores the fields reachable from `seed` with `rule` placements of any piece.
    pub fn build(seed: Field, rule: Placements) -> Transitions {
        let mut found: AHashMap<Field, [Vec<Field>; 7]> = AHashMap::new();
        let mut stack = vec![seed];
        while let Some(field) = stack.pop() {
            if found.contains_key(&field) {
                continue;
            }
            let succ: [Vec<Field>; 7] =
                std::array::from_fn(|p| placements(field, Piece::from_index(p), rule));
            for list in &succ {
                stack.extend(list.iter().filter(|g| !found.contains_key(g)));
            }
            found.insert(field, succ);
        }
        let mut fields: Vec<Field> = found.keys().copied().collect();
        fields.sort_unstable();
        let index: AHashMap<Field, u32> = fields
            .iter()
            .enumerate()
            .map(|(i, &f)| (f, i as u32))
            .collect();
        let next = fields
            .iter()
            .map(|f| {
                let succ = &found[f];
                std::array::from_fn(|p| {
                    let mut v: Vec<u32> = succ[p].iter().map(|g| index[g]).collect();
                    v.sort_unstable();
                    v
                })
            })
            .collect();
        Transitions { fields, next }
    }

    /// The index of `field`, if it is reachable.
    pub fn index(&self, field: Field) -> Option<usize> {
        self.fields.binary_search(&field).ok()
    }

    /// Number of fields.
    pub fn len(&self) -> usize {
        self.fields.len()
    }

    /// Whether there are no fields (never, for a valid seed).
    pub fn is_empty(&self) -> bool {
        self.fields.is_empty()
    }

    /// Number of distinct (field, piece, next field) triples.
    pub fn count(&self) -> usize {
        self.next.iter().flatten().map(Vec::len).sum()
    }

    /// The core: what is left after repeatedly deleting every field whose successors,
    /// ignoring itself, are all deleted. A field outside it can sustain a combo only by
    /// leading into it (or by repeating itself).
    pub fn core(&self) -> Vec<bool> {
        let mut alive = vec![true; self.len()];
        loop {
            let mut changed = false;
            for f in 0..self.len() {
                let lives = alive[f]
                    && self.next[f]
                        .iter()
                        .flatten()
                        .any(|&g| g as usize != f && alive[g as usize]);
                if alive[f] && !lives {
                    alive[f] = false;
                    changed = true;
                }
            }
            if !changed {
                return alive;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counts(residuals: u8, rule: Placements) -> (usize, usize, usize) {
        let t = Transitions::build(seed(residuals).unwrap(), rule);
        let core = t.core().iter().filter(|&&a| a).count();
        (t.len(), core, t.count())
    }

    #[test]
    fn spec_table_srs() {
        assert_eq!(counts(3, Placements::Srs), (40, 28, 190));
        assert_eq!(counts(6, Placements::Srs), (507, 356, 2634));
    }

    #[test]
    fn spec_table_hard_drop() {
        assert_eq!(counts(3, Placements::HardDrop), (40, 24, 178));
        assert_eq!(counts(6, Placements::HardDrop), (507, 336, 2582));
    }
}
