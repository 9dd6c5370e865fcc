//! The survival garbage of TETR.IO's custom games (`survivalmode`), in its timer form: a
//! garbage row rises from the bottom every `survival_timer_itv` frames, from frame 0 on, under
//! the piece in play as well as between pieces.
//!
//! The hole is drawn from the generator that deals the pieces (one stream for both, so a row
//! moves every later bag along it): the first row takes one draw, `floor(10 f)`; every later
//! row draws once to decide whether the hole moves (`f < survival_messiness / 100`), and if
//! it does, draws `floor(10 f)` again until the column differs from the last one. Checked
//! against the one public survival replay (messiness 100): every row of its 21 and every
//! bag of its 40 pieces agree (docs/tetrio.md, "Survival garbage").

use super::garbage::ParkMiller;
use crate::error::{Error, Result};

/// A game's survival garbage.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Survival {
    /// Frames between rows (`survival_timer_itv`, at least 1).
    pub interval: i64,
    /// The chance, from 0 to 1, that a row's hole moves (`survival_messiness` / 100).
    pub messiness: f64,
}

impl Survival {
    /// The survival garbage of a replay's options (`num(key, default)` reads a number):
    /// `None` for `survivalmode: none`; refused, naming the option, for the layer form and a
    /// cap, which no public replay shows.
    pub fn of(
        mode: &str,
        place: &str,
        num: impl Fn(&str, f64) -> Result<f64>,
    ) -> Result<Option<Survival>> {
        match mode {
            "none" => return Ok(None),
            "timer" => {}
            "layer" => {
                return Err(Error::at(
                    place,
                    "options.survivalmode `layer` is not supported (none and timer are)",
                ))
            }
            other => {
                return Err(Error::at(
                    place,
                    format!(
                        "options.survivalmode `{}` is not one of none, timer, layer",
                        crate::error::printable(other)
                    ),
                ))
            }
        }
        let interval = num("survival_timer_itv", 1.)?;
        if interval.fract() != 0. || !(1. ..=1e9).contains(&interval) {
            return Err(Error::at(
                place,
                format!(
                    "options.survival_timer_itv {interval} is not a whole number of frames from 1"
                ),
            ));
        }
        let messiness = num("survival_messiness", 0.)?;
        if !(0. ..=100.).contains(&messiness) {
            return Err(Error::at(
                place,
                format!("options.survival_messiness {messiness} is not from 0 to 100"),
            ));
        }
        let cap = num("survival_cap", 0.)?;
        if cap != 0. {
            return Err(Error::at(
                place,
                format!("options.survival_cap {cap} is not supported (0, no cap, is)"),
            ));
        }
        Ok(Some(Survival {
            interval: interval as i64,
            messiness: messiness / 100.,
        }))
    }

    /// Whether a row rises at the start of `frame`.
    pub fn due(&self, frame: i64) -> bool {
        frame >= 0 && frame % self.interval == 0
    }

    /// The hole of the next row, after `last` (the previous row's), drawn from `rng`.
    pub fn column(&self, rng: &mut ParkMiller, last: Option<usize>, width: usize) -> usize {
        let Some(last) = last else {
            return (rng.float() * width as f64) as usize;
        };
        if rng.float() >= self.messiness || width < 2 {
            return last;
        }
        loop {
            let column = (rng.float() * width as f64) as usize;
            if column != last {
                return column;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn timer(messiness: f64) -> Survival {
        Survival {
            interval: 120,
            messiness,
        }
    }

    #[test]
    fn the_public_replays_first_holes_come_from_the_piece_stream() {
        // The seed of zbrachinara/tetrio-tools samples/garbage.ttr: the first bag takes six
        // draws, the first row the seventh (column 1), the second bag the next six, then the
        // rows at frames 120 and 240 (columns 9 and 2), as its snapshots show.
        let s = timer(1.);
        let mut rng = ParkMiller::new(1153697224);
        rng.bag();
        let first = s.column(&mut rng, None, 10);
        rng.bag();
        let second = s.column(&mut rng, Some(first), 10);
        let third = s.column(&mut rng, Some(second), 10);
        assert_eq!((first, second, third), (1, 9, 2));
    }

    #[test]
    fn a_hole_that_must_move_never_repeats_and_one_that_may_not_stays() {
        let mut rng = ParkMiller::new(7);
        let mut last = None;
        for _ in 0..500 {
            let c = timer(1.).column(&mut rng, last, 10);
            assert!(c < 10 && Some(c) != last);
            last = Some(c);
        }
        let mut rng = ParkMiller::new(7);
        let c = timer(0.).column(&mut rng, Some(4), 10);
        assert_eq!(c, 4);
    }

    #[test]
    fn rows_rise_on_multiples_of_the_interval_from_frame_0() {
        let s = timer(1.);
        assert!(s.due(0) && s.due(120) && s.due(2400));
        assert!(!s.due(1) && !s.due(119) && !s.due(-120));
    }

    #[test]
    fn unknown_forms_and_caps_are_refused_by_name() {
        let num = |k: &str, d: f64| Ok(if k == "survival_cap" { 3. } else { d });
        let e = Survival::of("timer", "g.ttr", num).unwrap_err().to_string();
        assert!(e.contains("survival_cap 3"), "{e}");
        let e = Survival::of("layer", "g.ttr", |_, d| Ok(d))
            .unwrap_err()
            .to_string();
        assert!(e.contains("`layer` is not supported"), "{e}");
        let e = Survival::of("lava", "g.ttr", |_, d| Ok(d))
            .unwrap_err()
            .to_string();
        assert!(e.contains("`lava`"), "{e}");
        assert_eq!(Survival::of("none", "g.ttr", |_, d| Ok(d)).unwrap(), None);
    }
}
