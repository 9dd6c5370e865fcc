//! `beamtris show RECORD --compare RECORD2 --html FILE`: the side-by-side page's refusals
//! (the page itself is checked in Chromium by tests/show_browser.rs): records of two games,
//! a record that does not fit its game, a record compared with itself, an output that would
//! replace a committed file or an input. Each is one line naming the place, exit code 2, and nothing written.

mod common;

use common::{fails_saying, fails_with, repo, run, scratch, succeeds};
use std::path::Path;

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn records_of_two_games_or_that_do_not_fit_are_refused_and_nothing_is_written() {
    let dir = scratch("compare", "refused");
    succeeds(common::bin().args([
        "import",
        s(&repo("tests/data/tetrio/40l.ttr")),
        "--out",
        s(&dir.join("player")),
    ]));
    let player = dir.join("player/r1-zbrachinara.txt");
    // A line of another seed, its results file beside it.
    let other = dir.join("other.json");
    succeeds(common::bin().args([
        "solve",
        "--tetrio-seed",
        "5",
        "--pieces",
        "10",
        "--beam",
        "10",
        "--out",
        s(&other),
    ]));
    let other = other.with_extension("txt");
    let page = dir.join("page.html");
    let (p, o, h) = (s(&player), s(&other), s(&page));
    fails_saying(
        &run(&["show", o, "--compare", p, "--html", h]),
        &[
            &format!("--compare {p}: a record of another game than {o}'s"),
            "its generator (its pieces) is",
            "compare two records of one game",
        ],
    );
    // Records that do not fit the game: more pieces than it has, a token that is no move.
    let long = dir.join("long.txt");
    std::fs::write(&long, vec!["N"; 103].join(",") + "\n").unwrap();
    fails_saying(
        &run(&["show", p, "--compare", s(&long), "--html", h]),
        &[&format!(
            "{}: token 103 (\"N\"): piece 103: the game has 102 pieces",
            s(&long)
        )],
    );
    let junk = dir.join("junk.txt");
    std::fs::write(&junk, "N,Q3\n").unwrap();
    fails_saying(
        &run(&["show", p, "--compare", s(&junk), "--html", h]),
        &[s(&junk), "Q3"],
    );
    // No page to write to, and a page that would replace an input.
    fails_saying(
        &run(&["show", p, "--compare", p]),
        &["required arguments were not provided: --html"],
    );
    fails_saying(
        &run(&["show", o, "--compare", p, "--html", p]),
        &[&format!("--html {p}: the same file as --compare {p}")],
    );
    assert!(!page.exists());
    // Two records of one game: the page is written.
    let copy = dir.join("copy.txt");
    std::fs::copy(&player, &copy).unwrap();
    succeeds(common::bin().args(["show", p, "--compare", s(&copy), "--html", h]));
    assert!(page.is_file());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_record_compared_with_itself_is_refused_in_one_line() {
    let dir = scratch("compare", "itself");
    succeeds(common::bin().args([
        "import",
        s(&repo("tests/data/tetrio/40l.ttr")),
        "--out",
        s(&dir.join("player")),
    ]));
    let player = dir.join("player/r1-zbrachinara.txt");
    let p = s(&player);
    let page = dir.join("page.html");
    // The same path, and the same file by another path.
    let other = dir.join("player/../player/r1-zbrachinara.txt");
    for b in [p, s(&other)] {
        fails_with(
            &run(&["show", p, "--compare", b, "--html", s(&page)]),
            &format!(
                "--compare {b}: the same file as the record {p}; compare it with another record of its game"
            ),
        );
    }
    assert!(!page.exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_page_that_would_replace_a_committed_file_is_refused() {
    let dir = scratch("compare", "committed");
    succeeds(common::bin().args([
        "import",
        s(&repo("tests/data/tetrio/40l.ttr")),
        "--out",
        s(&dir.join("player")),
    ]));
    let player = dir.join("player/r1-zbrachinara.txt");
    let copy = dir.join("copy.txt");
    std::fs::copy(&player, &copy).unwrap();
    let tracked = repo("tests/data/tetrio/40l.ttr");
    let before = std::fs::read(&tracked).unwrap();
    fails_saying(
        &run(&[
            "show",
            s(&player),
            "--compare",
            s(&copy),
            "--html",
            s(&tracked),
        ]),
        &[&format!(
            "--html {}: is tracked by git; show writes a new file",
            s(&tracked)
        )],
    );
    assert_eq!(std::fs::read(&tracked).unwrap(), before);
    let _ = std::fs::remove_dir_all(&dir);
}
