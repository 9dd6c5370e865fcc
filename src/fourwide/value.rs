//! Value iteration over (class, queue state), the queue part factored out.
//!
//! Values are one dense array indexed `queue * classes + class`. A sweep computes, for each
//! queue state `q`, the block of all its classes at once: for each draw (probability, current
//! piece, next queue state `q'`) it reads the block of `q'` (a few kilobytes, in cache) and
//! adds `prob * (1 + max over the class's options of V[q'][option])`, or nothing when the
//! piece has no clearing choice. Blocks are independent, so a sweep runs in parallel over
//! queue states with rayon and gives the same numbers whatever the thread count (Jacobi
//! updates, fixed summation order).

use super::minimize::Reduced;
use super::sequence::Sequence;
use rayon::prelude::*;

/// The outcome of a value iteration.
#[derive(Clone, Debug)]
pub struct Solved {
    /// `values[q * classes + k]`.
    pub values: Vec<f64>,
    /// Sweeps done.
    pub iterations: usize,
    /// The Bellman residual `max |T V - V|` of the last sweep.
    pub residual: f64,
}

/// One Bellman sweep from `old` into `new`; returns `max |new - old|`.
pub fn sweep(seq: &Sequence, red: &Reduced, old: &[f64], new: &mut [f64]) -> f64 {
    let k_count = red.classes;
    new.par_chunks_mut(k_count)
        .enumerate()
        .map(|(q, out)| {
            out.fill(0.0);
            for d in seq.draws(q) {
                let next = d.next as usize * k_count;
                let src = &old[next..next + k_count];
                let c = d.current as usize;
                let (start, opts) = (&red.start[c], &red.opts[c]);
                for (k, o) in out.iter_mut().enumerate() {
                    let choices = &opts[start[k] as usize..start[k + 1] as usize];
                    if let Some((&first, rest)) = choices.split_first() {
                        let best = rest
                            .iter()
                            .fold(src[first as usize], |m, &j| m.max(src[j as usize]));
                        *o += d.prob * (1.0 + best);
                    }
                }
            }
            let base = q * k_count;
            out.iter()
                .zip(&old[base..base + k_count])
                .fold(0.0f64, |m, (a, b)| m.max((a - b).abs()))
        })
        .reduce(|| 0.0, f64::max)
}

/// Iterates from `V = 0` until the Bellman residual is below `tolerance` (or `max_sweeps`
/// is reached), calling `progress(sweep, residual)` after each sweep.
pub fn value_iteration(
    seq: &Sequence,
    red: &Reduced,
    tolerance: f64,
    max_sweeps: usize,
    mut progress: impl FnMut(usize, f64),
) -> Solved {
    let n = seq.len() * red.classes;
    let mut values = vec![0.0; n];
    let mut scratch = vec![0.0; n];
    let mut residual = f64::INFINITY;
    let mut iterations = 0;
    while residual >= tolerance && iterations < max_sweeps {
        residual = sweep(seq, red, &values, &mut scratch);
        std::mem::swap(&mut values, &mut scratch);
        iterations += 1;
        progress(iterations, residual);
    }
    Solved {
        values,
        iterations,
        residual,
    }
}
