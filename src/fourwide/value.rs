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
use super::sequence::{Draw, Generator, Sequence};
use rayon::prelude::*;

/// Lanes per class in the random-generator layout: 7 draws, padded to 8 for SIMD.
const LANES: usize = 8;

/// How the values are laid out during the iteration.
///
/// `Plain` is `q * classes + k`. `Lanes` (random generator, at least one preview) is
/// `((q / 7) * classes + k) * 8 + q % 7`: the 7 queue states a draw can lead to differ only in
/// the newest piece, so with this layout the 7 values a choice is compared on sit side by
/// side and the max over choices runs on all 7 draws at once (vectorised).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Layout {
    Plain,
    Lanes,
}

impl Layout {
    fn of(seq: &Sequence) -> Layout {
        if seq.generator == Generator::Random && seq.preview >= 1 {
            Layout::Lanes
        } else {
            Layout::Plain
        }
    }

    fn len(self, seq: &Sequence, classes: usize) -> usize {
        match self {
            Layout::Plain => seq.len() * classes,
            Layout::Lanes => seq.len() / 7 * classes * LANES,
        }
    }
}

/// The outcome of a value iteration.
#[derive(Clone, Debug)]
pub struct Solved {
    /// `values[q * classes + k]`.
    pub values: Vec<f64>,
    /// Sweeps done.
    pub iterations: usize,
    /// The Bellman residual `max |T V - V|` of the last sweep.
    pub residual: f64,
    /// Extrapolation steps taken.
    pub extrapolations: usize,
}

/// One Bellman sweep from `old` into `new` (plain layout); returns `max |new - old|`.
pub fn sweep(seq: &Sequence, red: &Reduced, old: &[f64], new: &mut [f64]) -> f64 {
    let k_count = red.classes;
    new.par_chunks_mut(k_count)
        .enumerate()
        .map(|(q, out)| {
            let draws = seq.draws(q);
            let one_current = draws.windows(2).all(|w| w[0].current == w[1].current);
            if one_current && !draws.is_empty() {
                sweep_state_one_current(red, old, draws, out);
            } else {
                sweep_state(red, old, draws, out);
            }
            let base = q * k_count;
            out.iter()
                .zip(&old[base..base + k_count])
                .fold(0.0f64, |m, (a, b)| m.max((a - b).abs()))
        })
        .reduce(|| 0.0, f64::max)
}

/// The block of one queue state whose draws may differ in the current piece (no previews).
fn sweep_state(red: &Reduced, old: &[f64], draws: &[Draw], out: &mut [f64]) {
    let k_count = red.classes;
    out.fill(0.0);
    for d in draws {
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
}

/// The block of one queue state whose draws all share the current piece (the oldest
/// preview): each class's choices are decoded once and compared across all draws.
fn sweep_state_one_current(red: &Reduced, old: &[f64], draws: &[Draw], out: &mut [f64]) {
    let k_count = red.classes;
    let c = draws[0].current as usize;
    let (start, opts) = (&red.start[c], &red.opts[c]);
    let mut srcs: [&[f64]; 7] = [&[]; 7];
    let mut probs = [0.0; 7];
    for (i, d) in draws.iter().enumerate() {
        let next = d.next as usize * k_count;
        srcs[i] = &old[next..next + k_count];
        probs[i] = d.prob;
    }
    let srcs = &srcs[..draws.len()];
    for (k, o) in out.iter_mut().enumerate() {
        let choices = &opts[start[k] as usize..start[k + 1] as usize];
        *o = match choices.split_first() {
            None => 0.0,
            Some((&first, rest)) => {
                let mut total = 0.0;
                for (src, &prob) in srcs.iter().zip(&probs) {
                    let best = rest
                        .iter()
                        .fold(src[first as usize], |m, &j| m.max(src[j as usize]));
                    total += prob * (1.0 + best);
                }
                total
            }
        };
    }
}

/// One Bellman sweep in the `Lanes` layout (random generator, `preview >= 1`).
///
/// A block of `classes * 8` values holds the queue states `7 g .. 7 g + 6` (lanes 0..6; lane
/// 7 is padding, always 0). State `q = 7 g + lane` has current piece `q1` (the oldest preview)
/// and, after draw `x`, next state `(q mod 7^(p-1)) * 7 + x`, i.e. lane `x` of block
/// `q mod 7^(p-1)`.
fn sweep_lanes(seq: &Sequence, red: &Reduced, old: &[f64], new: &mut [f64]) -> f64 {
    let k_count = red.classes;
    let block = k_count * LANES;
    let p = seq.preview as u32;
    let tails = 7usize.pow(p - 1);
    new.par_chunks_mut(block)
        .enumerate()
        .map(|(g, out)| {
            let mut residual = 0.0f64;
            for lane in 0..7 {
                let q = g * 7 + lane;
                let current = q / tails;
                let tail = q % tails;
                let src = &old[tail * block..(tail + 1) * block];
                let (start, opts) = (&red.start[current], &red.opts[current]);
                for k in 0..k_count {
                    let choices = &opts[start[k] as usize..start[k + 1] as usize];
                    let value = match choices.split_first() {
                        None => 0.0,
                        Some((&first, rest)) => {
                            let at = |j: u32| -> [f64; LANES] {
                                let j = j as usize * LANES;
                                src[j..j + LANES].try_into().expect("8 lanes")
                            };
                            let mut best = at(first);
                            for &j in rest {
                                let v = at(j);
                                for x in 0..LANES {
                                    best[x] = if v[x] > best[x] { v[x] } else { best[x] };
                                }
                            }
                            1.0 + best[..7].iter().sum::<f64>() / 7.0
                        }
                    };
                    let at = k * LANES + lane;
                    residual = residual.max((value - old[g * block + at]).abs());
                    out[at] = value;
                }
            }
            residual
        })
        .reduce(|| 0.0, f64::max)
}

/// Values in the `Lanes` layout reordered to the plain `q * classes + k`.
fn unlane(values: &[f64], seq: &Sequence, classes: usize) -> Vec<f64> {
    let block = classes * LANES;
    let mut plain = vec![0.0; seq.len() * classes];
    plain
        .par_chunks_mut(classes)
        .enumerate()
        .for_each(|(q, out)| {
            let base = (q / 7) * block + q % 7;
            for (k, o) in out.iter_mut().enumerate() {
                *o = values[base + k * LANES];
            }
        });
    plain
}

/// Iterates from `V = 0` until the Bellman residual `max |T V - V|` and the estimated
/// distance to the fixed point are both below `tolerance` (the distance test floored at
/// 1e-12 of the largest value) (or `max_sweeps` is reached),
/// calling `progress(sweep, residual)` after each sweep.
///
/// Why the acceleration: the combo goes on for many pieces, so plain value iteration
/// contracts by a factor `λ` close to 1 per sweep (`1 - λ` is about one over the expected
/// combo). Once the differences shrink geometrically (three consecutive ratios agree to
/// 1e-4, 1e-3 for the bag; looser agreement jumps too early and slows convergence), the
/// rest of the series is summed in one step, `V += (V - V_prev) μ / (1 - μ)` (Lyusternik
/// extrapolation), and plain sweeps go on from there. The 7-bag is periodic (its position in
/// the bag cycles with period 7), so its differences are taken over 7 sweeps, where the
/// dominant modes share one real ratio; the random generator uses single sweeps. The stopping
/// test is still the true Bellman residual of the iterate, so the extrapolation changes the
/// number of sweeps, not the fixed point. The distance estimate is `d μ / (1 - μ)` with `d`
/// the last (1- or 7-sweep) difference.
pub fn value_iteration(
    seq: &Sequence,
    red: &Reduced,
    tolerance: f64,
    max_sweeps: usize,
    mut progress: impl FnMut(usize, f64),
) -> Solved {
    let layout = Layout::of(seq);
    let period = match seq.generator {
        Generator::Random => 1,
        Generator::Bag => 7,
    };
    let n = layout.len(seq, red.classes);
    let mut values = vec![0.0; n];
    let mut scratch = vec![0.0; n];
    // The values at the start of the current period (bag only; for random it is `scratch`).
    let mut anchor: Vec<f64> = if period > 1 { vec![0.0; n] } else { Vec::new() };
    let mut residual = f64::INFINITY;
    let mut iterations = 0;
    let mut last_difference = f64::INFINITY;
    let mut ratios: Vec<f64> = Vec::new();
    let mut since_jump = 0;
    let mut extrapolations = 0;
    while iterations < max_sweeps {
        residual = match layout {
            Layout::Plain => sweep(seq, red, &values, &mut scratch),
            Layout::Lanes => sweep_lanes(seq, red, &values, &mut scratch),
        };
        std::mem::swap(&mut values, &mut scratch);
        iterations += 1;
        progress(iterations, residual);
        if iterations % period != 0 {
            continue;
        }
        since_jump += 1;
        let base: &[f64] = if period > 1 { &anchor } else { &scratch };
        let difference = if period > 1 {
            max_difference(&values, base)
        } else {
            residual
        };
        let ratio = if last_difference.is_finite() && last_difference > 0.0 {
            difference / last_difference
        } else {
            0.0
        };
        last_difference = difference;
        ratios.push(ratio);
        let mu = ratios.iter().rev().take(3).fold(0.0f64, |m, &r| m.max(r));
        let distance = if mu < 1.0 {
            difference * mu / (1.0 - mu)
        } else {
            f64::INFINITY
        };
        // Near float precision the differences are rounding noise; for values in the
        // thousands (the bag with hold) 1e-9 is a few ulps, so the distance test is floored
        // at 1e-12 of the largest value.
        let floor = 1e-12 * max_abs(&values);
        if residual < tolerance && distance < tolerance.max(floor) {
            break;
        }
        let recent = &ratios[ratios.len().saturating_sub(3)..];
        // Measured: 1e-4 suits single sweeps (random); the bag's 7-sweep ratios are noisier
        // and 1e-4 delays its jumps (p = 6 with hold then stalls), so it uses 1e-3.
        let agreement = if period > 1 { 1e-3 } else { 1e-4 };
        let steady = since_jump >= 4
            && recent.len() == 3
            && recent
                .iter()
                .all(|&r| (r - ratio).abs() < agreement && r > 0.3 && r < 0.9999);
        if steady {
            let factor = ratio / (1.0 - ratio);
            values
                .par_iter_mut()
                .zip(base.par_iter())
                .for_each(|(v, &old)| *v += (*v - old) * factor);
            since_jump = 0;
            extrapolations += 1;
        }
        if period > 1 {
            anchor.copy_from_slice(&values);
        }
    }
    if layout == Layout::Lanes {
        drop(scratch);
        drop(anchor);
        values = unlane(&values, seq, red.classes);
    }
    Solved {
        values,
        iterations,
        residual,
        extrapolations,
    }
}

/// `max |a - b|`.
fn max_difference(a: &[f64], b: &[f64]) -> f64 {
    a.par_iter()
        .zip(b.par_iter())
        .map(|(x, y)| (x - y).abs())
        .reduce(|| 0.0, f64::max)
}

/// `max |a|`.
fn max_abs(a: &[f64]) -> f64 {
    a.par_iter().map(|x| x.abs()).reduce(|| 0.0, f64::max)
}
