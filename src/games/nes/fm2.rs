//! FCEUX's text movie format, FM2: a header of `key value` lines, then one line a frame,
//! `|commands|port0|port1|port2|`, port 0 the gamepad's `RLDUTSBA`. Only what a power-on
//! NES Tetris movie needs is read; anything else is refused with its line.

use super::buttons::Buttons;
use crate::error::{Error, Result};

/// The longest movie played: 10 million frames is 46 hours of NTSC play.
pub const MAX_FRAMES: usize = 10_000_000;

/// The largest file read (a frame line is some 20 bytes).
pub const MAX_BYTES: u64 = 512 << 20;

/// A movie's controller 1 inputs, frame 1 first.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Movie {
    pub inputs: Vec<Buttons>,
}

/// Parses FM2 text; `file` names it in errors (`file: line N: what`).
pub fn parse(file: &str, text: &str) -> Result<Movie> {
    parse_up_to(file, text, MAX_FRAMES)
}

/// [`parse`] refusing more than `max_frames` frames.
fn parse_up_to(file: &str, text: &str, max_frames: usize) -> Result<Movie> {
    let err = |line: usize, what: String| Error::at(file, format!("line {line}: {what}"));
    let mut inputs = Vec::new();
    let mut saw_version = false;
    for (i, raw) in text.lines().enumerate() {
        let n = i + 1;
        let line = raw.trim_end_matches('\r');
        if let Some(rest) = line.strip_prefix('|') {
            if !saw_version {
                return Err(err(
                    n,
                    "a frame before the `version 3` header: not an FM2 movie".into(),
                ));
            }
            if inputs.len() == max_frames {
                return Err(err(n, format!("more than {max_frames} frames: refused")));
            }
            inputs.push(frame(rest, inputs.len()).map_err(|w| err(n, w))?);
            continue;
        }
        if !inputs.is_empty() {
            if line.trim().is_empty() {
                continue;
            }
            return Err(err(
                n,
                "not a frame line (`|commands|RLDUTSBA|...|`) in the input log".into(),
            ));
        }
        if line.trim().is_empty() {
            continue;
        }
        let (key, value) = line.split_once(' ').unwrap_or((line, ""));
        if !saw_version {
            if key != "version" || value.trim() != "3" {
                return Err(err(
                    n,
                    "not an FM2 movie (it should start with `version 3`)".into(),
                ));
            }
            saw_version = true;
            continue;
        }
        if !key.chars().all(|c| c.is_ascii_alphanumeric()) {
            return Err(err(
                n,
                "not a `key value` header line of an FM2 movie".into(),
            ));
        }
        match (key, value.trim()) {
            ("binary", v) if v != "0" => {
                return Err(err(n, "a binary input log: only text FM2 is read".into()))
            }
            ("port0", v) if v != "1" => {
                return Err(err(
                    n,
                    format!("port0 {v}: controller 1 must be a gamepad (1)"),
                ))
            }
            ("palFlag", v) if v != "0" => {
                return Err(err(n, "a PAL movie: the engine is NTSC".into()))
            }
            _ => {}
        }
    }
    if !saw_version {
        return Err(Error::at(file, "line 1: empty, not an FM2 movie"));
    }
    Ok(Movie { inputs })
}

/// One frame line after its leading `|`: the commands (a reset or power cycle only on the
/// first frame, where it is the power-on the engine starts from) and port 0's buttons.
fn frame(rest: &str, index: usize) -> std::result::Result<Buttons, String> {
    let mut fields = rest.split('|');
    let commands = fields.next().unwrap_or("");
    let c: u32 = commands
        .parse()
        .map_err(|_| format!("commands `{commands}` is not a number"))?;
    if c & 3 != 0 && index > 0 {
        return Err(format!(
            "a reset at frame {}: the engine plays from power-on only",
            index + 1
        ));
    }
    if c & !3 != 0 {
        return Err(format!("commands {c}: only reset and power are known"));
    }
    let pad = fields.next().unwrap_or("");
    if fields.next().is_none() {
        return Err("a frame line ends with `|`".into());
    }
    Buttons::from_fm2(pad).ok_or_else(|| format!("port 0 `{pad}` is not 8 buttons (RLDUTSBA)"))
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEAD: &str = "version 3\nemuVersion 20400\nport0 1\nport1 1\n";

    #[test]
    fn reads_frames_in_order() {
        let m = parse(
            "m.fm2",
            &format!("{HEAD}|2|........|........||\n|0|....T...|||\n"),
        )
        .unwrap();
        assert_eq!(m.inputs, vec![Buttons::NONE, Buttons::START]);
    }

    #[test]
    fn refusals_name_file_and_line() {
        let e = parse("x.txt", "hello\n").unwrap_err();
        assert_eq!(
            e.0,
            "x.txt: line 1: not an FM2 movie (it should start with `version 3`)"
        );
        let e = parse("m.fm2", &format!("{HEAD}|0|........|||\nhello\n")).unwrap_err();
        assert!(e.0.starts_with("m.fm2: line 6: not a frame line"), "{e}");
        let e = parse("m.fm2", &format!("{HEAD}|0|........|||\n|1|........|||\n")).unwrap_err();
        assert!(e.0.starts_with("m.fm2: line 6: a reset at frame 2"), "{e}");
        let e = parse("m.fm2", &format!("{HEAD}|0|.......|||\n")).unwrap_err();
        assert!(e.0.starts_with("m.fm2: line 5: port 0"), "{e}");
        let two = format!("{HEAD}|0|........|||\n|0|........|||\n");
        assert_eq!(parse_up_to("m.fm2", &two, 2).unwrap().inputs.len(), 2);
        let e = parse_up_to("m.fm2", &two, 1).unwrap_err();
        assert_eq!(e.0, "m.fm2: line 6: more than 1 frames: refused");
        let e = parse("m.fm2", "").unwrap_err();
        assert_eq!(e.0, "m.fm2: line 1: empty, not an FM2 movie");
    }
}
