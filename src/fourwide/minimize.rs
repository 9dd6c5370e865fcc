//! Minimisation by partition refinement on the (field, hold) level.
//!
//! The value of a state (field, hold, queue) depends on the field and the hold only through
//! the choices they offer: for each current piece, the set of (field, hold) pairs the player
//! can move to. Two pairs whose choices lead, piece by piece, to the same sets of classes have
//! the same value for every queue state, because the queue evolves the same way whichever
//! choice is made. So the coarsest partition stable under that rule (found by iterated
//! signature refinement, as Hopcroft's DFA minimisation) merges states without changing any
//! value, and the sequence part stays factored: a solve needs `classes x queue states` values.

use super::transitions::Transitions;
use ahash::AHashMap;

/// The (field, hold) pairs of a field graph; pair index `field * holds + hold`.
#[derive(Clone, Copy, Debug)]
pub struct Pairs<'a> {
    pub transitions: &'a Transitions,
    /// Whether hold is on (7 hold pieces) or off (one dummy hold).
    pub hold: bool,
}

impl Pairs<'_> {
    /// Hold pieces per field: 7 with hold, 1 without.
    pub fn holds(&self) -> usize {
        if self.hold {
            7
        } else {
            1
        }
    }

    /// Number of pairs.
    pub fn len(&self) -> usize {
        self.transitions.len() * self.holds()
    }

    /// Whether there are no pairs.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The pairs reachable from `pair` when the current piece is `current`: place it (hold
    /// unchanged), or, with hold, swap and place the held piece (the current one is held).
    pub fn options(&self, pair: usize, current: usize) -> Vec<usize> {
        let h = self.holds();
        let (f, held) = (pair / h, pair % h);
        let next = &self.transitions.next[f];
        let mut out: Vec<usize> = next[current]
            .iter()
            .map(|&g| g as usize * h + held)
            .collect();
        if self.hold {
            out.extend(next[held].iter().map(|&g| g as usize * h + current));
        }
        out
    }
}

/// The partition and the choice table of its classes.
#[derive(Clone, Debug)]
pub struct Reduced {
    /// The class of every pair.
    pub class_of: Vec<u32>,
    /// Number of classes.
    pub classes: usize,
    /// Refinement rounds until stable.
    pub rounds: usize,
    /// For piece `c`, `opts[c][start[c][k]..start[c][k + 1]]` are the classes class `k` can
    /// move to (sorted, distinct); empty when the piece has no clearing choice.
    pub start: [Vec<u32>; 7],
    pub opts: [Vec<u32>; 7],
}

impl Reduced {
    /// The classes class `k` can move to with current piece `c`.
    pub fn options(&self, c: usize, k: usize) -> &[u32] {
        &self.opts[c][self.start[c][k] as usize..self.start[c][k + 1] as usize]
    }
}

/// Refines the one-class partition of the pairs until every class is stable.
pub fn minimize(pairs: Pairs) -> Reduced {
    let n = pairs.len();
    let options: Vec<[Vec<usize>; 7]> = (0..n)
        .map(|i| std::array::from_fn(|c| pairs.options(i, c)))
        .collect();
    let mut class_of = vec![0u32; n];
    let mut classes = 1;
    let mut rounds = 0;
    loop {
        rounds += 1;
        let mut ids: AHashMap<(u32, [Vec<u32>; 7]), u32> = AHashMap::new();
        let mut next = vec![0u32; n];
        for i in 0..n {
            let signature: [Vec<u32>; 7] = std::array::from_fn(|c| {
                let mut s: Vec<u32> = options[i][c].iter().map(|&j| class_of[j]).collect();
                s.sort_unstable();
                s.dedup();
                s
            });
            let fresh = ids.len() as u32;
            next[i] = *ids.entry((class_of[i], signature)).or_insert(fresh);
        }
        class_of = next;
        if ids.len() == classes {
            break;
        }
        classes = ids.len();
    }
    // The choice table, read off each class's first member.
    let mut first = vec![usize::MAX; classes];
    for (i, &k) in class_of.iter().enumerate().rev() {
        first[k as usize] = i;
    }
    let mut start: [Vec<u32>; 7] = Default::default();
    let mut opts: [Vec<u32>; 7] = Default::default();
    for c in 0..7 {
        start[c].push(0);
        for &i in &first {
            let mut s: Vec<u32> = options[i][c].iter().map(|&j| class_of[j]).collect();
            s.sort_unstable();
            s.dedup();
            opts[c].extend(s);
            start[c].push(opts[c].len() as u32);
        }
    }
    Reduced {
        class_of,
        classes,
        rounds,
        start,
        opts,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fourwide::srs::Placements;
    use crate::fourwide::transitions::seed;

    #[test]
    fn classes_agree_on_their_choices() {
        let t = Transitions::build(seed(3).unwrap(), Placements::Srs);
        for hold in [false, true] {
            let pairs = Pairs {
                transitions: &t,
                hold,
            };
            let r = minimize(pairs);
            assert!(r.classes <= pairs.len());
            for i in 0..pairs.len() {
                for c in 0..7 {
                    let mut s: Vec<u32> =
                        pairs.options(i, c).iter().map(|&j| r.class_of[j]).collect();
                    s.sort_unstable();
                    s.dedup();
                    assert_eq!(s, r.options(c, r.class_of[i] as usize));
                }
            }
        }
    }
}
