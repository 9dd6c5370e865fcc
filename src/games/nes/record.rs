//! The record of a NES game: the player's speed, then each piece's buttons frame by frame
//! from its first frame in play (docs/formats.md, "NES records"):
//!
//! ```text
//! # comments and blank lines are skipped
//! speed 30hz
//! T A . R . R
//! I .
//! ```
//!
//! A piece's line is its letter, then one word a frame: the buttons down on that frame
//! (`L` left, `R` right, `D` down, `U` up, `A`, `B`, in any order and combination) or `.`
//! for none. After the last word no button is down until the next piece is in play.

use super::buttons::Buttons;
use super::movegen::Speed;
use crate::piece::Shape;

/// The most frames a piece's line may hold.
pub const MAX_FRAMES: usize = 10_000;

/// One piece's inputs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PieceInputs {
    pub shape: Shape,
    /// The buttons of each frame from the piece's first frame in play.
    pub inputs: Vec<Buttons>,
}

/// A record: the speed it was played at and each piece's inputs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NesRecord {
    pub speed: Speed,
    pub pieces: Vec<PieceInputs>,
}

const LETTERS: [(char, Buttons); 6] = [
    ('L', Buttons::LEFT),
    ('R', Buttons::RIGHT),
    ('D', Buttons::DOWN),
    ('U', Buttons::UP),
    ('A', Buttons::A),
    ('B', Buttons::B),
];

/// A frame's word.
fn word(b: Buttons) -> String {
    let w: String = LETTERS
        .iter()
        .filter(|(_, bit)| b.has(*bit) && bit.0 != 0)
        .map(|(c, _)| *c)
        .collect();
    if w.is_empty() {
        ".".into()
    } else {
        w
    }
}

fn parse_word(w: &str) -> Option<Buttons> {
    if w == "." {
        return Some(Buttons::NONE);
    }
    let mut b = Buttons::NONE;
    for c in w.chars() {
        let (_, bit) = LETTERS.iter().find(|(l, _)| *l == c)?;
        if b.has(*bit) {
            return None;
        }
        b = b.with(*bit);
    }
    Some(b)
}

impl NesRecord {
    /// The record as text.
    pub fn text(&self) -> String {
        let mut out = format!("speed {}\n", self.speed.name());
        for p in &self.pieces {
            out.push(p.shape.letter());
            for &b in &p.inputs {
                out.push(' ');
                out.push_str(&word(b));
            }
            out.push('\n');
        }
        out
    }

    /// Parses a record; an error names the line.
    pub fn parse(text: &str) -> Result<NesRecord, String> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let mut speed = None;
        let mut pieces = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let at = |what: String| format!("line {}: {what}", i + 1);
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let mut words = line.split_whitespace();
            let first = words.next().expect("a line with text has a word");
            if speed.is_none() {
                let name =
                    match (first, words.next(), words.next()) {
                        ("speed", Some(name), None) => name,
                        _ => return Err(at(
                            "a NES record starts with `speed 30hz`, `speed 15hz` or `speed das`"
                                .into(),
                        )),
                    };
                speed = Some(Speed::from_name(name).ok_or_else(|| {
                    at(format!(
                        "speed {}: give 30hz, 15hz or das",
                        crate::error::printable(name)
                    ))
                })?);
                continue;
            }
            let shape = match first.chars().collect::<Vec<_>>()[..] {
                [c] => Shape::from_letter(c),
                _ => None,
            }
            .ok_or_else(|| {
                at(format!(
                    "{}: a piece's line starts with its letter (IJLOSTZ)",
                    crate::error::printable(first)
                ))
            })?;
            let mut inputs = Vec::new();
            for (f, w) in words.enumerate() {
                let b = parse_word(w).ok_or_else(|| {
                    at(format!(
                        "frame {}: {}: a frame is `.` or the letters L R D U A B, each once",
                        f + 1,
                        crate::error::printable(w)
                    ))
                })?;
                inputs.push(b);
                if inputs.len() > MAX_FRAMES {
                    return Err(at(format!("more than {MAX_FRAMES} frames for one piece")));
                }
            }
            pieces.push(PieceInputs { shape, inputs });
        }
        let speed = speed.ok_or("the record is empty (a NES record starts with `speed 30hz`)")?;
        if pieces.is_empty() {
            return Err("the record places no piece".into());
        }
        Ok(NesRecord { speed, pieces })
    }
}

/// What is wrong with a piece's inputs for a player of `speed`: a tapping player presses
/// left or right at most once every 2 (30 Hz) or 4 (15 Hz) frames; a DAS player presses
/// once and holds.
pub fn speed_problem(speed: Speed, inputs: &[Buttons]) -> Option<String> {
    let sideways = Buttons::LEFT.with(Buttons::RIGHT).0;
    let mut held = Buttons::NONE;
    let mut presses = Vec::new();
    for (f, &b) in inputs.iter().enumerate() {
        if b.pressed_since(held).0 & sideways != 0 {
            presses.push(f + 1);
        }
        held = b;
    }
    match speed.tap_gap() {
        Some(gap) => presses.windows(2).find(|w| w[1] - w[0] < gap).map(|w| {
            format!(
                "left or right pressed on frames {} and {}, faster than {} allows",
                w[0],
                w[1],
                speed.name()
            )
        }),
        None => (presses.len() > 1).then(|| {
            format!(
                "left or right pressed again on frame {}: a DAS player presses once and holds",
                presses[1]
            )
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_round_trips() {
        let text = "speed 15hz\nT AR . R\nI\nO LB D\n";
        let r = NesRecord::parse(text).unwrap();
        assert_eq!(r.speed, Speed::Tap15);
        assert_eq!(r.pieces[0].inputs[0], Buttons::RIGHT.with(Buttons::A));
        assert_eq!(r.text(), "speed 15hz\nT RA . R\nI\nO LB D\n");
        assert_eq!(NesRecord::parse(&r.text()).unwrap(), r);
    }

    #[test]
    fn bad_lines_are_named() {
        assert_eq!(
            NesRecord::parse("speed 20hz\n").unwrap_err(),
            "line 1: speed 20hz: give 30hz, 15hz or das"
        );
        assert_eq!(
            NesRecord::parse("# x\nspeed das\nT A X\n").unwrap_err(),
            "line 3: frame 2: X: a frame is `.` or the letters L R D U A B, each once"
        );
        assert!(NesRecord::parse("T A\n")
            .unwrap_err()
            .starts_with("line 1: a NES record"));
    }

    #[test]
    fn taps_faster_than_the_speed_are_found() {
        let r = Buttons::RIGHT;
        let n = Buttons::NONE;
        assert_eq!(speed_problem(Speed::Tap30, &[r, n, r]), None);
        assert!(speed_problem(Speed::Tap15, &[r, n, r]).is_some());
        assert_eq!(speed_problem(Speed::Das, &[r; 20]), None);
        assert!(speed_problem(Speed::Das, &[r, n, r]).is_some());
    }
}
