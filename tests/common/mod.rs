//! What the end-to-end tests share: the binary, a scratch folder, and the shape of a
//! one-line refusal.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The beamtris binary this test build made.
pub fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_beamtris"))
}

/// A fresh, empty folder for one test (`tag` keeps test files apart).
pub fn scratch(tag: &str, name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("beamtris-{tag}-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

pub fn json(path: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// Asserts exit code 2 and one stderr line that contains every piece of `want`.
pub fn fails_saying(out: &Output, want: &[&str]) {
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    for w in want {
        assert!(err.contains(w), "{w:?} not in {err}");
    }
}
