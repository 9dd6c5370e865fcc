//! Every movie of meta_nestris' `tests/movies/` played from power-on and every checkpoint
//! of its metadata compared; the agreement table is written to results/nes/checkpoints.md.
//! Ignored by default: the movies are not bundled (scripts/nes_checkpoints.sh CLONE exports
//! them from the mirror and runs this with `NES_MOVIES=DIR`).

mod common;

use beamtris::games::nes::checks::{self, Expect};
use beamtris::games::nes::movie;
use std::fmt::Write;
use std::path::Path;

/// One row of the table.
struct Row {
    movie: String,
    frame: u64,
    what: &'static str,
    want: String,
    got: String,
    agree: bool,
}

#[test]
#[ignore]
fn all_movies_agree() {
    let dir = std::env::var("NES_MOVIES").expect("NES_MOVIES=DIR (the movies folder)");
    let dir = Path::new(&dir);
    let meta = dir.join("metadata.yaml");
    let text = std::fs::read_to_string(&meta).unwrap();
    let entries = checks::parse(&meta.display().to_string(), &text).unwrap();
    let (mut capped, mut derived, mut skipped) = (Vec::new(), Vec::new(), 0);
    for e in &entries {
        let m = common::read_movie(&dir.join(&e.filename));
        let frames: Vec<u64> = e.checks.iter().map(|c| c.frame).collect();
        let shots = movie::play(&m, &frames).unwrap();
        for (c, s) in e.checks.iter().zip(&shots) {
            for x in &c.expect {
                // The uncapped entries are meta_nestris' own modifier: skipped as they are.
                // The real game's score at the same frame is the uncapped one capped at
                // 999 999 (each entry's first frame is below the cap), listed apart.
                let x = match (e.uncapped, x) {
                    (false, x) => x.clone(),
                    (true, Expect::Score(v)) => {
                        skipped += 1;
                        Expect::Score((*v).min(999_999))
                    }
                    (true, _) => {
                        skipped += 1;
                        continue;
                    }
                };
                let (what, want) = x.describe();
                let row = Row {
                    movie: e.filename.clone(),
                    frame: c.frame,
                    what,
                    want,
                    got: x.got(s),
                    agree: x.agrees(s),
                };
                if e.uncapped {
                    derived.push(row);
                } else {
                    capped.push(row);
                }
            }
        }
    }
    let agree = |rows: &[Row]| rows.iter().filter(|r| r.agree).count();
    let mut out = String::new();
    writeln!(
        out,
        "# NES Tetris: the engine against the real game's checkpoints\n"
    )
    .unwrap();
    writeln!(
        out,
        "Command: `scripts/nes_checkpoints.sh CLONE` (exports meta_nestris' `tests/movies/` \
         from a clone of github.com/negative-seven/meta_nestris, commit c6bf827, \
         and runs `NES_MOVIES=DIR cargo test --test nes_all_movies -- --ignored`).\n\
         Each movie is played from power-on; past its last input the console runs on with no \
         button down.\n"
    )
    .unwrap();
    writeln!(
        out,
        "**Capped checkpoints (the real game): {} of {} agree**, over {} movies. \
         The {} `uncapped_score` entries (meta_nestris' own score modifier) are skipped; the \
         real game's score at those frames (the uncapped score capped at 999 999) is listed \
         apart: {} of {} agree.\n",
        agree(&capped),
        capped.len(),
        entries.iter().filter(|e| !e.uncapped).count(),
        skipped,
        agree(&derived),
        derived.len()
    )
    .unwrap();
    let table = |out: &mut String, rows: &[Row]| {
        writeln!(
            out,
            "| movie | frame | field | real game | engine | agree |"
        )
        .unwrap();
        writeln!(out, "| --- | ---: | --- | --- | --- | --- |").unwrap();
        for r in rows {
            writeln!(
                out,
                "| {} | {} | {} | {} | {} | {} |",
                r.movie,
                r.frame,
                r.what,
                r.want,
                r.got,
                if r.agree { "yes" } else { "**no**" }
            )
            .unwrap();
        }
    };
    writeln!(out, "## Capped checkpoints\n").unwrap();
    table(&mut out, &capped);
    writeln!(
        out,
        "\n## Uncapped entries, read as the real game's capped score\n"
    )
    .unwrap();
    table(&mut out, &derived);
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("results/nes/checkpoints.md");
    std::fs::write(&path, out).unwrap();
    assert_eq!(agree(&capped), capped.len(), "see {}", path.display());
    assert_eq!(agree(&derived), derived.len(), "see {}", path.display());
}
