//! Which of the beam's kept states to take as data, and how many states the beam kept
//! `horizon` pieces later descend from each: the part of drawing data that does not depend
//! on the game, so the Tencent and the guideline data ([`super::data`],
//! [`super::guideline`]) take the same boards and count the same lineage.

use crate::search::beam::Kept;

/// Takes states from an observed beam and remembers every step's parent indices.
#[derive(Clone, Debug)]
pub struct Lineage {
    every: usize,
    per_step: usize,
    /// The last step whose states may be taken (`None`: none may).
    last_step: Option<usize>,
    /// Every step's parent indices, in the order observed.
    parents: Vec<Vec<u32>>,
    /// (step, rank index) of the states taken, in the order taken.
    taken: Vec<(usize, usize)>,
}

impl Lineage {
    /// Takes `per_step` states after every `every`-th piece, up to step `last_step`.
    pub fn new(every: usize, per_step: usize, last_step: Option<usize>) -> Lineage {
        Lineage {
            every: every.max(1),
            per_step,
            last_step,
            parents: Vec::new(),
            taken: Vec::new(),
        }
    }

    /// Records step `k`'s kept states (in rank order) and returns the rank indices of those
    /// to take: `per_step` of them evenly spaced in rank order (the best, the worst and
    /// those between), or none.
    pub fn observe<S>(&mut self, k: usize, kept: &[Kept<S>]) -> Vec<usize> {
        debug_assert_eq!(self.parents.len(), k);
        self.parents.push(kept.iter().map(|c| c.parent).collect());
        if !(k + 1).is_multiple_of(self.every)
            || self.last_step.is_none_or(|last| k > last)
            || kept.is_empty()
        {
            return Vec::new();
        }
        let n = self.per_step.min(kept.len());
        let picks: Vec<usize> = (0..n)
            .map(|j| {
                if n == 1 {
                    0
                } else {
                    j * (kept.len() - 1) / (n - 1)
                }
            })
            .collect();
        self.taken.extend(picks.iter().map(|&i| (k, i)));
        picks
    }

    /// For each state taken, in the order taken, how many of the states the beam kept
    /// `horizon` pieces later descend from it (0 when its line was dropped; states too near
    /// the end count what the last step kept).
    pub fn descendants(&self, horizon: usize) -> Vec<u32> {
        descendants(&self.parents, &self.taken, horizon)
    }
}

/// [`Lineage::descendants`] over `parents` (each step's parent indices) for the states
/// `taken` (step, rank index), grouped by step.
fn descendants(parents: &[Vec<u32>], taken: &[(usize, usize)], horizon: usize) -> Vec<u32> {
    let mut out = vec![0u32; taken.len()];
    let mut i = 0;
    while i < taken.len() {
        let k = taken[i].0;
        let last = (k + horizon).min(parents.len() - 1);
        // counts[j]: descendants at `last` of state j of step t, from t = last down to k.
        let mut counts = vec![1u32; parents[last].len()];
        for t in (k + 1..=last).rev() {
            let mut up = vec![0u32; parents[t - 1].len()];
            for (j, &c) in counts.iter().enumerate() {
                up[parents[t][j] as usize] += c;
            }
            counts = up;
        }
        while i < taken.len() && taken[i].0 == k {
            out[i] = counts[taken[i].1];
            i += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kept(parents: &[u32]) -> Vec<Kept<()>> {
        parents
            .iter()
            .map(|&parent| Kept {
                state: (),
                score: 0,
                parent,
            })
            .collect()
    }

    #[test]
    fn descendants_count_the_states_kept_later() {
        // step 0 keeps 3 states; step 1 keeps 4 (parents 0, 0, 2, 0); step 2 keeps 3
        // (parents 1, 3, 2).
        let parents = vec![vec![0, 0, 0], vec![0, 0, 2, 0], vec![1, 3, 2]];
        let taken: Vec<(usize, usize)> = (0..3).map(|i| (0, i)).collect();
        // state 0 of step 0 has children 0, 1, 3 at step 1, and those have 1 and 3 kept at
        // step 2 (via 1 and 3): 2; state 2's child (2) has one kept child: 1.
        assert_eq!(descendants(&parents, &taken, 2), vec![2, 0, 1]);
        assert_eq!(descendants(&parents, &taken, 1), vec![3, 0, 1]);
        // a horizon past the last step counts what the last step kept
        assert_eq!(descendants(&parents, &taken, 9), vec![2, 0, 1]);
    }

    #[test]
    fn takes_evenly_spaced_states_every_few_steps() {
        // every 2nd piece, 3 states, up to step 3
        let mut l = Lineage::new(2, 3, Some(3));
        assert!(l.observe(0, &kept(&[0; 5])).is_empty());
        assert_eq!(l.observe(1, &kept(&[0, 1, 2, 3, 4])), vec![0, 2, 4]);
        assert!(l.observe(2, &kept(&[0, 0])).is_empty());
        // fewer kept than asked for: all of them
        assert_eq!(l.observe(3, &kept(&[0, 1])), vec![0, 1]);
        // past the last step: none
        assert!(l.observe(4, &kept(&[0, 1])).is_empty());
        assert!(l.observe(5, &kept(&[0, 1])).is_empty());
        // step 1's states 0, 2, 4 at step 3 (horizon 2): state 0's children at step 2 are
        // both kept ones (parents 0, 0), and both of step 3's descend from them
        assert_eq!(l.descendants(2), vec![2, 0, 0, 1, 1]);
        assert!(Lineage::new(1, 3, None).observe(0, &kept(&[0])).is_empty());
    }
}
