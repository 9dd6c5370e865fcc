//! Every family through every command (OpenSpiel runs the same tests on every game): the
//! registry (`beamtris families --json`) says what each family supports; each family's
//! built-in game goes through each command it supports at a small size, and each command it
//! does not support is refused in one line with exit code 2.

mod common;

use common::{run, scratch};
use std::path::Path;
use std::process::Output;

/// A family as the registry prints it.
struct Family {
    name: String,
    builtin: String,
    supports: Vec<String>,
    options: Vec<String>,
    search_flags: Vec<String>,
}

fn families() -> Vec<Family> {
    let out = run(&["families", "--json"]);
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    v.as_array()
        .unwrap()
        .iter()
        .map(|f| Family {
            name: f["name"].as_str().unwrap().into(),
            builtin: f["builtin"].as_str().unwrap().into(),
            supports: f["supports"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| c.as_str().unwrap().into())
                .collect(),
            options: f["options"]
                .as_array()
                .unwrap()
                .iter()
                .map(|o| o["flag"].as_str().unwrap().into())
                .collect(),
            search_flags: f["search_flags"]
                .as_array()
                .unwrap()
                .iter()
                .map(|o| o.as_str().unwrap().into())
                .collect(),
        })
        .collect()
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// The game flags that make a family's built-in game small enough for a test (and long
/// enough for `bench`, which takes boards from the record's middle and its tallest).
fn small(family: &str) -> Vec<&'static str> {
    match family {
        "nes" => vec!["--lines", "4"],
        _ => vec!["--pieces", "120"],
    }
}

/// The command line of `capability` on `family`'s built-in game; `record` is the record a
/// solve wrote (absent for a family without solve).
fn command(f: &Family, capability: &str, dir: &Path) -> Vec<String> {
    let record = dir.join("solve.txt");
    let seed = f.builtin.clone();
    let mut args: Vec<String> = match capability {
        "solve" => vec![
            "solve",
            "--seed",
            &seed,
            "--beam",
            "20",
            "--out",
            s(&dir.join("solve.json")),
        ]
        .into_iter()
        .map(String::from)
        .chain(small(&f.name).into_iter().map(String::from))
        .collect(),
        "verify" => vec!["verify".into(), s(&record).into()],
        "show" => vec!["show".into(), s(&record).into()],
        "fumen" => vec!["show".into(), s(&record).into(), "--fumen".into()],
        "html" => vec![
            "show".into(),
            s(&record).into(),
            "--html".into(),
            s(&dir.join("page.html")).into(),
        ],
        "export" => vec![
            "export".into(),
            s(&record).into(),
            "--out".into(),
            s(&dir.join("replay.ttr")).into(),
        ],
        "play" => {
            let mut a = vec!["play".to_string(), "--seed".into(), seed.clone()];
            a.extend(
                match f.name.as_str() {
                    "standard" => vec!["--games", "1", "--max-lines", "20"],
                    "tencent" => vec![],
                    _ => vec!["--max-pieces", "8", "--beam", "20"],
                }
                .into_iter()
                .map(String::from),
            );
            a.extend(["--out".into(), s(&dir.join("play.json")).into()]);
            a
        }
        "tune" => [
            "tune",
            "--seed",
            &seed,
            "--beam",
            "5",
            "--pieces",
            "12",
            "--population",
            "2",
            "--generations",
            "1",
            "--out",
            s(&dir.join("tune")),
        ]
        .into_iter()
        .map(String::from)
        .collect(),
        "polish" => [
            "polish",
            s(&record),
            "--beam",
            "10",
            "--segment",
            "10",
            "--out",
            s(&dir.join("polish.json")),
        ]
        .into_iter()
        .map(String::from)
        .collect(),
        "bench" => [
            "bench",
            "--record",
            s(&record),
            "--suite",
            "engine",
            "--scale",
            "1",
            "--out",
            s(&dir.join("bench.json")),
        ]
        .into_iter()
        .map(String::from)
        .collect(),
        "versus" => [
            "versus",
            "--seed",
            &seed,
            "--a",
            "builtin",
            "--b",
            "builtin",
            "--games",
            "1",
            "--beam",
            "5",
            "--samples",
            "0",
            "--max-seconds",
            "5",
            "--out",
            s(&dir.join("versus")),
        ]
        .into_iter()
        .map(String::from)
        .collect(),
        other => panic!("the registry names a capability this test does not know: {other}"),
    };
    if !["solve", "play", "tune", "versus"].contains(&capability) {
        // The record's game is beside it (the solve's results file); a family without
        // solve is given its game.
        if !f.supports.iter().any(|c| c == "solve") {
            args.extend(["--seed".into(), seed]);
        }
    }
    args
}

fn one_line_refusal(out: &Output, what: &str) {
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{what}: {err}");
    assert_eq!(err.lines().count(), 1, "{what}: {err}");
    assert!(err.starts_with("beamtris: "), "{what}: {err}");
}

const CAPABILITIES: [&str; 11] = [
    "solve", "verify", "show", "fumen", "html", "export", "play", "tune", "polish", "bench",
    "versus",
];

#[test]
fn every_family_goes_through_every_command_it_supports_and_refuses_the_others() {
    let families = families();
    assert_eq!(
        families.iter().map(|f| f.name.as_str()).collect::<Vec<_>>(),
        ["tencent", "guideline", "tetrio", "nes", "standard"]
    );
    for f in &families {
        let dir = scratch("families", &f.name);
        if !f.supports.iter().any(|c| c == "solve") {
            // Commands that read a record get one of another family's, on this game.
            std::fs::write(dir.join("solve.txt"), "N,D17,N,D17\n").unwrap();
        }
        for capability in CAPABILITIES {
            let args = command(f, capability, &dir);
            let argv: Vec<&str> = args.iter().map(String::as_str).collect();
            let out = run(&argv);
            let what = format!("{} {}", f.name, argv.join(" "));
            if f.supports.iter().any(|c| c == capability) {
                assert!(
                    out.status.success(),
                    "{what}: {}",
                    String::from_utf8_lossy(&out.stderr)
                );
                match capability {
                    "verify" => {
                        let v: serde_json::Value = serde_json::from_slice(
                            out.stdout
                                .split(|&b| b == b'\n')
                                .find(|l| !l.is_empty())
                                .unwrap(),
                        )
                        .unwrap();
                        assert!(v.get("pieces").is_some(), "{what}: {v}");
                    }
                    "show" | "fumen" => assert!(!out.stdout.is_empty(), "{what}"),
                    "html" => assert!(dir.join("page.html").is_file(), "{what}"),
                    "export" => assert!(dir.join("replay.ttr").is_file(), "{what}"),
                    "bench" => assert!(dir.join("bench.json").is_file(), "{what}"),
                    "versus" => assert!(dir.join("versus/match.ttrm").is_file(), "{what}"),
                    _ => {}
                }
            } else {
                one_line_refusal(&out, &what);
            }
        }
        std::fs::remove_dir_all(&dir).ok();
    }
}

/// Every search flag a family's solve does not take is refused, naming the flag and the
/// family, and one it takes is accepted (`--moves drop` was once ignored on guideline games).
#[test]
fn each_family_refuses_the_search_flags_it_does_not_take() {
    let values: [&[&str]; 3] = [
        &["--moves", "drop"],
        &["--fourwide", "on"],
        &["--no-fourwide"],
    ];
    for f in families() {
        if !f.supports.iter().any(|c| c == "solve") {
            continue;
        }
        for flag in values {
            let dir = scratch("search-flags", &format!("{}{}", f.name, flag[0]));
            let out_file = dir.join("s.json");
            let mut args = vec!["solve", "--seed", &f.builtin];
            args.extend_from_slice(flag);
            args.extend(["--beam", "2", "--out", out_file.to_str().unwrap()]);
            args.extend(small(&f.name));
            let out = run(&args);
            let what = format!("{} {}", f.name, flag.join(" "));
            if f.search_flags.iter().any(|s| s == flag[0]) {
                assert!(
                    out.status.success(),
                    "{what}: {}",
                    String::from_utf8_lossy(&out.stderr)
                );
            } else {
                one_line_refusal(&out, &what);
                let err = String::from_utf8_lossy(&out.stderr);
                assert!(
                    err.contains(flag[0]) && err.contains("does not take"),
                    "{what}: {err}"
                );
            }
            std::fs::remove_dir_all(&dir).ok();
        }
    }
}

/// Every game flag a family does not take is refused, naming the flag and the family.
#[test]
fn each_family_refuses_the_game_flags_it_does_not_take() {
    let values = [
        ("--tetrio-seed", "42"),
        ("--queue", "IOTSZLJ"),
        ("--board", "v115@vhAAgH"),
        ("--hold", "T"),
        ("--pps", "2"),
        ("--gym-seed", "1A2B3C"),
        ("--level", "18"),
        ("--tap-hz", "15"),
        ("--das", ""),
        ("--lines", "10"),
        ("--killscreen-x2", "39"),
    ];
    for f in families() {
        for (flag, value) in values {
            if f.options.iter().any(|o| o == flag) {
                continue;
            }
            let mut args = vec!["solve", "--seed", &f.builtin, flag];
            if !value.is_empty() {
                args.push(value);
            }
            args.extend(["--beam", "1", "--out", "/nonexistent/never.json"]);
            let out = run(&args);
            one_line_refusal(&out, &format!("{} {flag}", f.name));
            let err = String::from_utf8_lossy(&out.stderr);
            assert!(
                err.contains(flag) && err.contains("does not take"),
                "{} {flag}: {err}",
                f.name
            );
        }
    }
}

/// A NES flag that would change a built-in game no flag names is refused, naming the flags
/// that do; a bare `--pps` picks no game.
#[test]
fn a_flag_does_not_pick_a_game_unsaid() {
    let dir = scratch("families", "builtin");
    let out = run(&["solve", "--level", "18", "--out", s(&dir.join("n.json"))]);
    one_line_refusal(&out, "--level alone");
    assert!(String::from_utf8_lossy(&out.stderr).contains(
        "--level 18: which NES game? give --gym-seed HEX (TetrisGYM's pieces for that seed) or --seed GAME"
    ));
    let out = run(&["solve", "--pps", "2", "--out", s(&dir.join("p.json"))]);
    one_line_refusal(&out, "--pps alone");
    assert!(String::from_utf8_lossy(&out.stderr)
        .contains("--pps 2: the game tencent-geek-4 is a Tencent Geek Challenge game, which does not take --pps"));
    assert!(!dir.join("n.json").exists() && !dir.join("p.json").exists());
    std::fs::remove_dir_all(&dir).ok();
}
/// The docs' table is the registry's, as `beamtris families` prints it, and the README's
/// families table lists the registry's families in its order.
#[test]
fn the_docs_and_readme_tables_are_the_registry() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let table = run(&["families"]);
    let table = String::from_utf8(table.stdout).unwrap();
    let docs = std::fs::read_to_string(root.join("docs/families.md")).unwrap();
    assert!(
        docs.contains(&table),
        "docs/families.md does not hold `beamtris families` as it prints today:\n{table}"
    );
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let start = readme
        .find("| family | game |")
        .expect("the README's families table");
    let names: Vec<String> = readme[start..]
        .lines()
        .skip(2)
        .take_while(|l| l.starts_with('|'))
        .map(|l| {
            l.split('|')
                .nth(1)
                .unwrap()
                .trim()
                .trim_matches('`')
                .to_string()
        })
        .collect();
    let registry: Vec<String> = families().into_iter().map(|f| f.name).collect();
    assert_eq!(names, registry, "the README's families table");
}
