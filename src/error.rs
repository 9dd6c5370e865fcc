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
