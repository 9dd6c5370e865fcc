//! NES Tetris judged by the real game: the bundled movies (tests/data/nes, see its README)
//! played from power-on, every checkpoint of their metadata compared.

mod common;

use beamtris::games::nes::{checks, movie};
use std::path::Path;

const DIR: &str = "tests/data/nes";

#[test]
fn every_bundled_checkpoint_agrees() {
    let meta = Path::new(DIR).join("metadata.yaml");
    let text = std::fs::read_to_string(&meta).unwrap();
    let entries = checks::parse(&meta.display().to_string(), &text).unwrap();
    assert!(entries.len() >= 10);
    let mut failures = Vec::new();
    let mut count = 0;
    for e in entries.iter().filter(|e| !e.uncapped) {
        let m = common::read_movie(&Path::new(DIR).join(&e.filename));
        let frames: Vec<u64> = e.checks.iter().map(|c| c.frame).collect();
        let shots = movie::play(&m, &frames).unwrap();
        for (c, s) in e.checks.iter().zip(&shots) {
            for x in &c.expect {
                count += 1;
                if !x.agrees(s) {
                    let (what, want) = x.describe();
                    failures.push(format!(
                        "{} frame {}: {what} {want}, engine {}",
                        e.filename,
                        c.frame,
                        x.got(s)
                    ));
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{count} checks, failing:\n{}",
        failures.join("\n")
    );
    assert_eq!(count, 15);
}
