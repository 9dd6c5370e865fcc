//! Sequence models: what the player knows of the coming pieces, and how that knowledge
//! changes with each draw.
//!
//! A *queue state* is what is known before the next piece is revealed: the `p` visible
//! previews and, for the 7-bag, the pieces still left in the bag. Each step draws one piece;
//! the known sequence is then the queue followed by the new piece, its first piece is the
//! current one (the one to place) and the rest is the next queue state. The solver only needs
//! this table of draws, so the field and the sequence stay factored.

use super::field::Piece;
use crate::error::{Error, Result};
use ahash::AHashMap;
use serde::{Deserialize, Serialize};

/// How pieces are generated.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Generator {
    /// Each piece independently uniform over the seven.
    Random,
    /// Uniformly random permutations of the seven pieces, one after another.
    Bag,
}

impl Generator {
    /// The name used on the command line and in results files.
    pub const fn name(self) -> &'static str {
        match self {
            Generator::Random => "random",
            Generator::Bag => "bag",
        }
    }
}

/// All seven pieces as a bag mask (bit `i` is `Piece::from_index(i)`).
pub const FULL_BAG: u8 = 0x7F;

/// What is known before a draw: the previews, oldest first, base-7 coded (the oldest piece is
/// the most significant digit), and for the bag the mask of pieces still in it (never empty:
/// an emptied bag is a fresh full one). For `random` the mask is always `FULL_BAG`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct QueueState {
    pub queue: u32,
    pub bag: u8,
}

/// One outcome of a draw from a queue state.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Draw {
    /// Its probability.
    pub prob: f64,
    /// The piece to place now (index into `Piece::ALL`).
    pub current: u8,
    /// The queue state after this piece is placed.
    pub next: u32,
}

/// The queue states of one generator and preview count, their draws and their stationary
/// distribution.
#[derive(Clone, Debug)]
pub struct Sequence {
    pub generator: Generator,
    pub preview: usize,
    /// Every reachable queue state; a state's index is its position here.
    pub states: Vec<QueueState>,
    /// `draws[start[q]..start[q + 1]]` are the draws from state `q`.
    pub start: Vec<u32>,
    pub draws: Vec<Draw>,
    /// The long-run probability of each queue state.
    pub stationary: Vec<f64>,
    index: AHashMap<QueueState, u32>,
}

impl Sequence {
    /// The queue states of `generator` with `preview` previews (0..=7).
    pub fn new(generator: Generator, preview: usize) -> Result<Sequence> {
        if preview > 7 {
            return Err(Error(format!(
                "preview {preview}: at most 7 previews are supported"
            )));
        }
        let states = match generator {
            Generator::Random => (0..7u32.pow(preview as u32))
                .map(|queue| QueueState {
                    queue,
                    bag: FULL_BAG,
                })
                .collect(),
            Generator::Bag => bag_states(preview),
        };
        let index: AHashMap<QueueState, u32> = states
            .iter()
            .enumerate()
            .map(|(i, &s)| (s, i as u32))
            .collect();
        let mut start = vec![0u32];
        let mut draws = Vec::new();
        for &s in &states {
            for (prob, current, next) in step(generator, preview, s) {
                draws.push(Draw {
                    prob,
                    current,
                    next: index[&next],
                });
            }
            start.push(draws.len() as u32);
        }
        let stationary = stationary(generator, &states);
        Ok(Sequence {
            generator,
            preview,
            states,
            start,
            draws,
            stationary,
            index,
        })
    }

    /// Number of queue states.
    pub fn len(&self) -> usize {
        self.states.len()
    }

    /// Whether there are no queue states (never).
    pub fn is_empty(&self) -> bool {
        self.states.is_empty()
    }

    /// The draws from queue state `q`.
    pub fn draws(&self, q: usize) -> &[Draw] {
        &self.draws[self.start[q] as usize..self.start[q + 1] as usize]
    }

    /// The index of the queue state with previews `queue` and, for the bag, the pieces `bag`
    /// left in it.
    pub fn index(&self, queue: &[Piece], bag: u8) -> Option<usize> {
        let code = queue.iter().fold(0u32, |c, &p| c * 7 + p as u32);
        let bag = match self.generator {
            Generator::Random => FULL_BAG,
            Generator::Bag => bag,
        };
        if queue.len() != self.preview {
            return None;
        }
        self.index
            .get(&QueueState { queue: code, bag })
            .map(|&i| i as usize)
    }

    /// The pieces of a queue code, oldest first.
    pub fn pieces(&self, queue: u32) -> Vec<Piece> {
        let mut out = Vec::with_capacity(self.preview);
        let mut code = queue;
        for _ in 0..self.preview {
            out.push(Piece::from_index((code % 7) as usize));
            code /= 7;
        }
        out.reverse();
        out
    }
}

/// The draws from queue state `s`: (probability, current piece, next state).
fn step(generator: Generator, preview: usize, s: QueueState) -> Vec<(f64, u8, QueueState)> {
    let pow = 7u32.pow(preview as u32);
    let pieces: Vec<u8> = (0..7u8).filter(|&x| s.bag >> x & 1 == 1).collect();
    let prob = 1.0 / pieces.len() as f64;
    pieces
        .into_iter()
        .map(|x| {
            let known = s.queue * 7 + x as u32;
            let bag = match generator {
                Generator::Random => FULL_BAG,
                Generator::Bag => match s.bag & !(1 << x) {
                    0 => FULL_BAG,
                    left => left,
                },
            };
            let next = QueueState {
                queue: known % pow,
                bag,
            };
            (prob, (known / pow) as u8, next)
        })
        .collect()
}

/// The bag's queue states: those reachable by drawing from a fresh bag until `preview` pieces
/// are known, then drawing on. Sorted, so indices are stable.
fn bag_states(preview: usize) -> Vec<QueueState> {
    let mut layer = vec![QueueState {
        queue: 0,
        bag: FULL_BAG,
    }];
    for _ in 0..preview {
        let mut next = Vec::new();
        for s in &layer {
            for x in (0..7u32).filter(|&x| s.bag >> x & 1 == 1) {
                let bag = match s.bag & !(1 << x) {
                    0 => FULL_BAG,
                    left => left,
                };
                next.push(QueueState {
                    queue: s.queue * 7 + x,
                    bag,
                });
            }
        }
        layer = next;
    }
    let mut seen: ahash::AHashSet<QueueState> = layer.iter().copied().collect();
    let mut stack = layer;
    while let Some(s) = stack.pop() {
        for (_, _, n) in step(Generator::Bag, preview, s) {
            if seen.insert(n) {
                stack.push(n);
            }
        }
    }
    let mut states: Vec<QueueState> = seen.into_iter().collect();
    states.sort_unstable();
    states
}

/// The stationary distribution. Random: uniform. Bag: the position in the bag (how many of
/// its pieces are drawn, 0..6) is uniform in the long run, and given the position every
/// consistent queue state is equally likely (bags are independent uniform permutations), so
/// each state of position `k` has probability `1 / (7 * n_k)`. A test checks it is stationary.
fn stationary(generator: Generator, states: &[QueueState]) -> Vec<f64> {
    match generator {
        Generator::Random => vec![1.0 / states.len() as f64; states.len()],
        Generator::Bag => {
            let phase = |s: &QueueState| (7 - s.bag.count_ones()) as usize % 7;
            let mut counts = [0usize; 7];
            for s in states {
                counts[phase(s)] += 1;
            }
            states
                .iter()
                .map(|s| 1.0 / (7.0 * counts[phase(s)] as f64))
                .collect()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_counts_and_shift() {
        let s = Sequence::new(Generator::Random, 2).unwrap();
        assert_eq!(s.len(), 49);
        // Queue [J, L] then S: place J, the queue becomes [L, S].
        let q = s.index(&[Piece::J, Piece::L], 0).unwrap();
        let d = s.draws(q)[Piece::S as usize];
        assert_eq!(d.current, Piece::J as u8);
        assert_eq!(
            s.pieces(s.states[d.next as usize].queue),
            [Piece::L, Piece::S]
        );
    }

    #[test]
    fn bag_counts() {
        // p = 0: every non-empty subset of the bag.
        assert_eq!(Sequence::new(Generator::Bag, 0).unwrap().len(), 127);
        // p = 6: sum over the position k of 7!/(7-k)! * 7!/(1+k)!.
        assert_eq!(Sequence::new(Generator::Bag, 6).unwrap().len(), 160_020);
    }

    #[test]
    fn stationary_distributions_are_stationary() {
        for generator in [Generator::Random, Generator::Bag] {
            for p in 0..4 {
                let s = Sequence::new(generator, p).unwrap();
                let mut next = vec![0.0; s.len()];
                for q in 0..s.len() {
                    for d in s.draws(q) {
                        next[d.next as usize] += s.stationary[q] * d.prob;
                    }
                }
                let total: f64 = s.stationary.iter().sum();
                assert!((total - 1.0).abs() < 1e-12);
                for (a, b) in next.iter().zip(&s.stationary) {
                    assert!((a - b).abs() < 1e-12, "{generator:?} p={p}");
                }
            }
        }
    }
}
