//! The error a command ends with: one line that says what went wrong and where.

use std::fmt;

/// A failure the CLI reports on one line before exiting with code 2.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error(pub String);

impl Error {
    /// An error about `place` (a file, a token, a JSON path).
    pub fn at(place: impl fmt::Display, what: impl fmt::Display) -> Error {
        Error(format!("{place}: {what}"))
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Error {}

impl From<std::io::Error> for Error {
    fn from(e: std::io::Error) -> Error {
        Error(e.to_string())
    }
}

/// A `Result` whose error is one line for the user.
pub type Result<T> = std::result::Result<T, Error>;

/// A JSON parse error as `line L column C: what`, the place said once (serde_json's own
/// message ends with ` at line L column C`, which a `line L column C:` prefix would repeat).
pub fn json_error(e: &serde_json::Error) -> String {
    let what = json_what(e);
    if e.line() == 0 {
        what
    } else {
        format!("line {} column {}: {what}", e.line(), e.column())
    }
}

/// What a JSON parse error says, without serde_json's ` at line L column C` (for a caller
/// that says the place its own way), on one line.
pub fn json_what(e: &serde_json::Error) -> String {
    let text = e.to_string();
    let suffix = format!(" at line {} column {}", e.line(), e.column());
    printable(text.strip_suffix(&suffix).unwrap_or(&text))
}

/// `text` with its control characters escaped (`\n`, `\u{1b}`), so that a key or a string
/// quoted from a user's file (JSON escapes decode to newlines) cannot break the one line.
pub fn printable(text: &str) -> String {
    text.chars()
        .map(|c| {
            if c.is_control() {
                c.escape_default().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}

/// The message as the CLI prints it: on one line ([`printable`]), and at most
/// [`LONGEST_MESSAGE`] characters, its middle left out, so that a huge token quoted from the
/// user's input (a 100 000-letter record move, a long `--board` value) cannot flood the
/// terminal; the start says what and where, the end why.
pub fn for_terminal(message: &str) -> String {
    let line = printable(message);
    let count = line.chars().count();
    if count <= LONGEST_MESSAGE {
        return line;
    }
    let keep = (LONGEST_MESSAGE - 30) / 2;
    let head: String = line.chars().take(keep).collect();
    let tail: String = line.chars().skip(count - keep).collect();
    format!("{head} [... {} characters ...] {tail}", count - 2 * keep)
}

/// A number from the user as a message quotes it: as written for ordinary sizes, in
/// exponent form past 1e15 (`1e308`, not 309 digits).
pub fn quote_number(x: f64) -> String {
    if x.is_finite() && x.abs() >= 1e15 {
        format!("{x:e}")
    } else {
        format!("{x}")
    }
}

/// The longest error line printed whole.
pub const LONGEST_MESSAGE: usize = 400;

#[cfg(test)]
mod tests {
    #[test]
    fn a_long_message_keeps_its_start_and_end() {
        let long = format!("r.txt line 3: move {:?}: not a move", "L".repeat(100_000));
        let short = super::for_terminal(&long);
        assert!(
            short.chars().count() <= super::LONGEST_MESSAGE + 20,
            "{}",
            short.len()
        );
        assert!(short.starts_with("r.txt line 3: move \"LLL"), "{short}");
        assert!(short.ends_with("LLL\": not a move"), "{short}");
        assert_eq!(super::for_terminal("short"), "short");
        assert_eq!(super::quote_number(1e308), "1e308");
        assert_eq!(super::quote_number(-1.0), "-1");
        assert_eq!(super::quote_number(58.5), "58.5");
    }

    #[test]
    fn a_json_error_names_its_place_once() {
        let e = serde_json::from_str::<Vec<u8>>("[1,\n 2,]").unwrap_err();
        let s = super::json_error(&e);
        assert_eq!(s.matches("line 2").count(), 1, "{s}");
        assert!(s.starts_with("line 2 column "), "{s}");
    }

    #[test]
    fn a_json_error_quoting_a_decoded_newline_stays_on_one_line() {
        #[derive(Debug, serde::Deserialize)]
        #[serde(deny_unknown_fields)]
        #[allow(dead_code)]
        struct Named {
            name: String,
        }
        let e = serde_json::from_str::<Named>("{\"na\\nme\": 1}").unwrap_err();
        let s = super::json_error(&e);
        assert!(!s.contains('\n'), "{s:?}");
        assert!(s.contains("na\\nme"), "{s:?}");
    }
}
