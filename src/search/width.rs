//! How many states the beam keeps at each step: a fixed width (the search is deterministic),
//! or as wide as lets the search finish by a deadline (`solve --time`).
//!
//! A machine's speed is not a constant (a shared or virtual machine's drifts by a fifth from
//! hour to hour), so a fixed width meets a time limit only with a margin. Under a deadline the
//! width follows the time the steps take: after each step it is set so that the steps left,
//! at the time a state has cost lately, end at the deadline. The records such a search writes
//! depend on the machine's speed; they replay like any other.

use std::time::{Duration, Instant};

/// The beam's width at each step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Width {
    /// The same width at every step.
    Fixed(usize),
    /// As wide as finishes the search by `deadline`, at most `max`.
    Until { deadline: Instant, max: usize },
}

impl From<usize> for Width {
    fn from(width: usize) -> Width {
        Width::Fixed(width)
    }
}

impl Width {
    /// When the search must end, if it must.
    pub fn deadline(self) -> Option<Instant> {
        match self {
            Width::Fixed(_) => None,
            Width::Until { deadline, .. } => Some(deadline),
        }
    }
}

/// The widths a search used: the fewest and most states kept at a step, and their mean.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize)]
pub struct WidthStats {
    pub min: usize,
    pub max: usize,
    pub mean: f64,
}

/// The width of each step, and the record of those used.
#[derive(Clone, Debug)]
pub(crate) struct Schedule {
    width: Width,
    /// The width of the next step.
    now: usize,
    /// Seconds a step costs per state kept, a running mean (NaN before the first step).
    per_state: f64,
    last: Instant,
    steps: usize,
    sum: f64,
    min: usize,
    max: usize,
}

impl Schedule {
    /// The width a deadline's search starts at: narrow, so that the first steps measure the
    /// machine without spending much of the time.
    const START: usize = 100;
    /// The most the width grows or shrinks from one step to the next: the cut a step's rank
    /// bound guesses from the last one stays close ([`super::beam`]), and one slow step (a
    /// page fault, another process) does not halve the beam.
    const GROW: f64 = 1.05;
    const SHRINK: f64 = 0.8;
    /// The running mean's weight of a new step.
    const RATE: f64 = 0.05;

    pub(crate) fn new(width: Width) -> Schedule {
        let now = match width {
            Width::Fixed(w) => w,
            Width::Until { max, .. } => Self::START.min(max),
        };
        Schedule {
            width,
            now,
            per_state: f64::NAN,
            last: Instant::now(),
            steps: 0,
            sum: 0.0,
            min: usize::MAX,
            max: 0,
        }
    }

    /// The width of the step about to run.
    pub(crate) fn width(&self) -> usize {
        self.now
    }

    /// A step kept `kept` states, and `left` steps remain: sets the next step's width.
    pub(crate) fn step_done(&mut self, kept: usize, left: usize) {
        self.steps += 1;
        self.sum += self.now as f64;
        self.min = self.min.min(self.now);
        self.max = self.max.max(self.now);
        let Width::Until { deadline, max } = self.width else {
            return;
        };
        let now = Instant::now();
        let took = now.duration_since(self.last).as_secs_f64();
        self.last = now;
        // A step whose children were fewer than the width kept fewer states; it still cost
        // about what its states did.
        let cost = took / kept.max(1) as f64;
        self.per_state = if self.per_state.is_nan() {
            cost
        } else {
            self.per_state + Self::RATE * (cost - self.per_state)
        };
        let remaining = deadline.saturating_duration_since(now);
        self.now = next_width(self.now, max, remaining, left, self.per_state);
    }

    /// The widths used so far.
    pub(crate) fn stats(&self) -> WidthStats {
        if self.steps == 0 {
            return WidthStats::default();
        }
        WidthStats {
            min: self.min,
            max: self.max,
            mean: self.sum / self.steps as f64,
        }
    }
}

/// The width that spends `remaining` over `left` steps at `per_state` seconds a state, within
/// [`Schedule::SHRINK`] and [`Schedule::GROW`] times `now`, and between 1 and `max`.
fn next_width(now: usize, max: usize, remaining: Duration, left: usize, per_state: f64) -> usize {
    if left == 0 {
        return now;
    }
    let wanted = remaining.as_secs_f64() / (left as f64 * per_state.max(1e-12));
    let low = (now as f64 * Schedule::SHRINK).floor();
    let high = (now as f64 * Schedule::GROW).ceil();
    (wanted.clamp(low, high) as usize).clamp(1, max.max(1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fixed_width_never_moves() {
        let mut s = Schedule::new(Width::Fixed(300));
        for left in (0..5).rev() {
            assert_eq!(s.width(), 300);
            s.step_done(300, left);
        }
        assert_eq!(
            s.stats(),
            WidthStats {
                min: 300,
                max: 300,
                mean: 300.0
            }
        );
    }

    #[test]
    fn the_width_spends_the_time_left_within_its_step_limits() {
        let second = Duration::from_secs(1);
        // 10 steps left, 1 s, 1 ms a state: 100 states a step.
        assert_eq!(next_width(100, 10_000, second, 10, 1e-3), 100);
        // Time for 1 000 a step: grows by at most 5 %, rounded up.
        assert_eq!(next_width(100, 10_000, 10 * second, 10, 1e-3), 105);
        // Never past the widest allowed.
        assert_eq!(next_width(100, 102, 10 * second, 10, 1e-3), 102);
        // Time for 10: shrinks by at most a fifth.
        assert_eq!(next_width(100, 10_000, second / 10, 10, 1e-3), 80);
        // Past the deadline it keeps shrinking, down to one state.
        assert_eq!(next_width(1, 10_000, Duration::ZERO, 10, 1e-3), 1);
        assert_eq!(next_width(50, 10_000, Duration::ZERO, 10, 1e-3), 40);
    }

    #[test]
    fn under_a_deadline_the_search_starts_narrow_and_records_its_widths() {
        let deadline = Instant::now() + Duration::from_secs(3600);
        let mut s = Schedule::new(Width::Until {
            deadline,
            max: 1_000,
        });
        assert_eq!(s.width(), Schedule::START);
        s.step_done(100, 10);
        // An hour for ten steps of a few microseconds: it grows as fast as it may.
        assert_eq!(s.width(), 105);
        s.step_done(105, 9);
        assert_eq!(s.width(), 111);
        let stats = s.stats();
        assert_eq!((stats.min, stats.max), (100, 105));
        assert!((stats.mean - 102.5).abs() < 1e-9);
        let narrow = Schedule::new(Width::Until { deadline, max: 7 });
        assert_eq!(narrow.width(), 7);
    }
}
