//! Progress of a beam search on stderr, for the commands that run one.

/// Progress of a beam search on stderr: a bar on a terminal; otherwise (a run logged to a
/// file) a line every half minute stands in for it. `solve` reports through it on every family.
/// Under a deadline (`solve --time`) it shows the beam's width and the time left instead of
/// an estimate from the pieces' pace, which a beam that widens as it goes would get wrong.
pub struct SearchProgress {
    bar: indicatif::ProgressBar,
    start: std::time::Instant,
    last_line: std::time::Instant,
    deadline: Option<std::time::Instant>,
}

impl SearchProgress {
    /// Progress over `total` pieces, timed from `start`.
    pub fn new(total: usize, start: std::time::Instant) -> SearchProgress {
        SearchProgress::with_deadline(total, start, None)
    }

    /// Progress over `total` pieces, timed from `start`, of a search that ends by `deadline`
    /// when there is one.
    pub fn with_deadline(
        total: usize,
        start: std::time::Instant,
        deadline: Option<std::time::Instant>,
    ) -> SearchProgress {
        let template = if deadline.is_some() {
            "{pos}/{len} pieces  {per_sec}  {msg}"
        } else {
            "{pos}/{len} pieces  {per_sec}  eta {eta}  best {msg}"
        };
        SearchProgress {
            bar: crate::progress::bar(total as u64, template),
            start,
            last_line: std::time::Instant::now(),
            deadline,
        }
    }

    /// Reports one finished step.
    pub fn step(&mut self, r: &super::beam::StepReport) {
        self.bar.set_position(r.placed as u64);
        let left = self.deadline.map(|d| {
            d.saturating_duration_since(std::time::Instant::now())
                .as_secs_f64()
        });
        // Under a deadline: the width and the time left, on the bar and on the logged line.
        let beam_and_left = |left: f64| format!("beam {}  {left:.0} s left", r.kept);
        if r.placed.is_multiple_of(16) || r.placed == r.total {
            self.bar.set_message(match left {
                None => r.best_score.to_string(),
                Some(left) => format!("best {}  {}", r.best_score, beam_and_left(left)),
            });
        }
        if self.bar.is_hidden() && self.last_line.elapsed().as_secs() >= 30 {
            self.last_line = std::time::Instant::now();
            let secs = self.start.elapsed().as_secs_f64();
            let tail = left.map_or_else(
                || {
                    let eta = secs / r.placed as f64 * (r.total - r.placed) as f64;
                    format!("eta {eta:.0} s")
                },
                beam_and_left,
            );
            eprintln!(
                "{secs:>7.0} s  piece {}/{}  best {}  {tail}",
                r.placed, r.total, r.best_score
            );
        }
    }

    /// Clears the bar.
    pub fn finish(self) {
        self.bar.finish_and_clear();
    }
}
