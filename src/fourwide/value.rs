//! Value iteration over (class, queue state), the queue part factored out.
//!
//! Values are one dense array indexed `queue * classes + class`. A sweep computes, for each
//! queue state `q`, the block of all its classes at once: for each draw (probability, current
//! piece, next queue state `q'`) it reads the block of `q'` (a few kilobytes, in cache) and
//! adds `prob * (1 + max over the class's options of V[q'][option])`, or nothing when the
//! piece has no clearing choice. Blocks are independent, so a sweep runs in parallel over
//! queue states with rayon and gives the same numbers whatever the thread count (Jacobi
//! updates, fixed summation order).
//!
//! The 7-bag is iterated Gauss-Seidel over its positions in the bag instead (see
//! [`phased_iteration`]): each phase's values depend only on the next phase's, so one sweep
//! in the right order carries the values a whole bag forward, for the cost of one sweep.

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
    if seq.generator == Generator::Bag {
        return phased_iteration(seq, red, tolerance, max_sweeps, progress);
    }
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

/// The 7-bag's queue states grouped by their position in the bag (the phase: pieces of the
/// current bag already drawn, 0..6). A draw always moves phase `k` to phase `k + 1 mod 7`,
/// so the values of one phase depend only on those of the next.
struct Phases {
    /// `order[start[k]..start[k + 1]]`: the queue states of phase `k`, ascending.
    order: Vec<u32>,
    start: [usize; 8],
    /// The draws of each state in phase order, their `next` the index of the next state
    /// within its own phase.
    draw_start: Vec<u32>,
    draws: Vec<Draw>,
}

impl Phases {
    fn new(seq: &Sequence) -> Phases {
        let phase = |q: usize| (7 - seq.states[q].bag.count_ones() as usize) % 7;
        let mut order: Vec<u32> = (0..seq.len() as u32).collect();
        order.sort_by_key(|&q| (phase(q as usize), q));
        let mut start = [0usize; 8];
        for &q in &order {
            start[phase(q as usize) + 1] += 1;
        }
        for k in 0..7 {
            start[k + 1] += start[k];
        }
        let mut within = vec![0u32; seq.len()];
        for k in 0..7 {
            for (i, &q) in order[start[k]..start[k + 1]].iter().enumerate() {
                within[q as usize] = i as u32;
            }
        }
        let mut draw_start = vec![0u32];
        let mut draws = Vec::with_capacity(seq.draws.len());
        for &q in &order {
            for d in seq.draws(q as usize) {
                debug_assert_eq!(phase(d.next as usize), (phase(q as usize) + 1) % 7);
                draws.push(Draw {
                    next: within[d.next as usize],
                    ..*d
                });
            }
            draw_start.push(draws.len() as u32);
        }
        Phases {
            order,
            start,
            draw_start,
            draws,
        }
    }

    /// Computes the values of phase `k` (`out`, in phase order) from those of phase `k + 1`
    /// (`src`); returns `max |out - old|` and `sum |out - old|` against the previous values
    /// `old` of phase `k` (the sum taken block by block in a fixed order, so the same
    /// whatever the thread count).
    fn sweep_phase(
        &self,
        red: &Reduced,
        k: usize,
        src: &[f64],
        old: &[f64],
        out: &mut [f64],
    ) -> (f64, f64) {
        let k_count = red.classes;
        let first = self.start[k];
        let blocks: Vec<(f64, f64)> = out
            .par_chunks_mut(k_count)
            .zip(old.par_chunks(k_count))
            .enumerate()
            .map(|(i, (out, old))| {
                let at = first + i;
                let draws =
                    &self.draws[self.draw_start[at] as usize..self.draw_start[at + 1] as usize];
                let one_current = draws.windows(2).all(|w| w[0].current == w[1].current);
                if one_current && !draws.is_empty() {
                    sweep_state_one_current(red, src, draws, out);
                } else {
                    sweep_state(red, src, draws, out);
                }
                out.iter()
                    .zip(old)
                    .fold((0.0f64, 0.0f64), |(m, t), (a, b)| {
                        let d = (a - b).abs();
                        (m.max(d), t + d)
                    })
            })
            .collect();
        blocks
            .iter()
            .fold((0.0, 0.0), |(m, t), &(bm, bt)| (f64::max(m, bm), t + bt))
    }
}

/// Value iteration for the 7-bag, Gauss-Seidel over the bag's phases.
///
/// Phase `k`'s values depend only on phase `k + 1`'s, so a sweep updates phase 6 from the
/// previous iterate's phase 0, then phase 5 from the new phase 6, and so on down to phase 0:
/// one sweep costs what a Jacobi sweep costs and carries the values a whole bag (7 pieces)
/// forward, where a Jacobi sweep carries them one piece. The chain seen one sweep at a time
/// is no longer periodic, so the extrapolation is the random generator's (single sweeps,
/// ratios agreeing to 1e-4). The fixed point is the same.
///
/// The Bellman residual of the iterate after a sweep is zero on phases 0..5 (each was just
/// computed from the final values of the next phase) and on phase 6 is
/// `|T(V[0]) - V[6]| <= max |V[0] - V_prev[0]|`, at most the sweep's difference; the residual
/// returned is that exact phase-6 figure, computed once more at the end.
fn phased_iteration(
    seq: &Sequence,
    red: &Reduced,
    tolerance: f64,
    max_sweeps: usize,
    mut progress: impl FnMut(usize, f64),
) -> Solved {
    let k_count = red.classes;
    let phases = Phases::new(seq);
    let n = seq.len() * k_count;
    let mut values = vec![0.0; n];
    let mut next = vec![0.0; n];
    let range = |k: usize| phases.start[k] * k_count..phases.start[k + 1] * k_count;
    let mut iterations = 0;
    let mut last_difference = f64::INFINITY;
    let mut ratios: Vec<f64> = Vec::new();
    let mut since_jump = 0;
    let mut extrapolations = 0;
    // The ratio of the last extrapolation: the dominant contraction, once it has been seen
    // steady. Right after a jump the differences shrink faster for a few sweeps (the other
    // modes dying out), and a distance estimated from those ratios alone stops too early.
    let mut dominant = 0.0f64;
    while iterations < max_sweeps {
        let mut difference = 0.0f64;
        let mut total = 0.0f64;
        for k in (0..7).rev() {
            let (lo, hi) = next.split_at_mut(range(k).end);
            let out = &mut lo[range(k)];
            let src: &[f64] = if k == 6 {
                &values[range(0)]
            } else {
                &hi[..range(k + 1).len()]
            };
            let (d, sum) = phases.sweep_phase(red, k, src, &values[range(k)], out);
            difference = difference.max(d);
            total += sum;
        }
        std::mem::swap(&mut values, &mut next);
        iterations += 1;
        progress(iterations, difference);
        since_jump += 1;
        // Ratios of the summed differences: near float precision the largest difference
        // moves in whole ulps (its ratios read 1.0 or 0.99), the sum moves smoothly.
        let ratio = if last_difference.is_finite() && last_difference > 0.0 {
            total / last_difference
        } else {
            0.0
        };
        last_difference = total;
        ratios.push(ratio);
        // Near float precision the differences are rounding noise and their ratios hover
        // around 1, so once a steady ratio has been seen (at a jump) it is the estimate.
        let mu = if dominant > 0.0 {
            dominant
        } else {
            ratios.iter().rev().take(3).fold(0.0f64, |m, &r| m.max(r))
        };
        let distance = if mu < 1.0 {
            difference * mu / (1.0 - mu)
        } else {
            f64::INFINITY
        };
        // Values are only as exact as a sweep's rounding, amplified by 1 / (1 - mu) on the way
        // to the fixed point: with 6 residuals, hold and 6 previews (values near 10^5, mu
        // about 1 - 7 / 10^5) that is about 1e-6, far above 1e-9 and still 1e-11 of the value.
        let max = max_abs(&values);
        let rounding = if mu < 1.0 {
            4.0 * f64::EPSILON * max / (1.0 - mu)
        } else {
            0.0
        };
        let floor = (1e-12 * max).max(rounding);
        // `difference` bounds the Bellman residual (see above).
        if difference < tolerance && distance < tolerance.max(floor) {
            break;
        }
        let recent = &ratios[ratios.len().saturating_sub(3)..];
        let steady = since_jump >= 4
            && recent.len() == 3
            && recent
                .iter()
                .all(|&r| (r - ratio).abs() < 1e-4 && r > 0.3 && r < 0.9999);
        // A contraction closer to 1 than that (expected combos of 10^4 and more: 6 residuals
        // with hold and 6 previews) is trusted when the ratios agree to 1 % of 1 - ratio, so
        // the jump's factor ratio / (1 - ratio) is known to about 1 %.
        let slow = since_jump >= 4
            && recent.len() == 3
            && (0.9999..1.0).contains(&ratio)
            && recent
                .iter()
                .all(|&r| (r - ratio).abs() < 1e-2 * (1.0 - ratio));
        let steady = steady || slow;
        // Near float precision (values in the thousands, differences of a few dozen ulps)
        // the ratios scatter by a few 1e-4 around the dominant one already seen steady:
        // jump with that one when they agree with it to 2e-3.
        let near_dominant = since_jump >= 4
            && dominant > 0.0
            && recent.len() == 3
            && recent.iter().all(|&r| (r - dominant).abs() < 2e-3);
        if steady || near_dominant {
            let ratio = if steady { ratio } else { dominant };
            let factor = ratio / (1.0 - ratio);
            values
                .par_iter_mut()
                .zip(next.par_iter())
                .for_each(|(v, &old)| *v += (*v - old) * factor);
            since_jump = 0;
            extrapolations += 1;
            dominant = ratio;
        }
    }
    // The exact Bellman residual: phase 6 recomputed from the final phase 0 (and every
    // phase when the last sweep was followed by an extrapolation, which only a sweep cap
    // can leave).
    let check: Vec<usize> = if since_jump == 0 {
        (0..7).collect()
    } else {
        vec![6]
    };
    let mut residual = 0.0f64;
    for k in check {
        let src = &values[range((k + 1) % 7)];
        let out = &mut next[..range(k).len()];
        residual = residual.max(phases.sweep_phase(red, k, src, &values[range(k)], out).0);
    }
    // Back to the plain order `q * classes + k`.
    drop(next);
    let mut plain = vec![0.0; n];
    let mut at = 0;
    for &q in &phases.order {
        let q = q as usize;
        plain[q * k_count..(q + 1) * k_count].copy_from_slice(&values[at..at + k_count]);
        at += k_count;
    }
    Solved {
        values: plain,
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
