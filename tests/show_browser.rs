//! The HTML replay page opened in headless Chromium: at `#piece=K` the page must draw the
//! engine's board after K pieces (it writes the board as text into `<pre id="board-text">`,
//! which `--dump-dom` reads) with the engine's score and lines. The test also saves a
//! screenshot under target/ (to `results/show/replay-page.png` with BEAMTRIS_UPDATE_RESULTS=1).
//!
//! A guideline game too (the committed TETR.IO record): its page must draw the engine's board
//! (and the buffer rows it shows) with the engine's points, attack, combo, back-to-back, hold
//! and queue.
//!
//! Needs Chromium (`scripts/ci-browser-deps.sh` installs Debian's; `BEAMTRIS_CHROMIUM` names
//! another binary); without it each test says it skipped and passes, except under `CI=true`,
//! where it fails.

mod common;

use beamtris::game_def::GameDef;
use beamtris::io;
use beamtris::show::game::TencentReplay;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// chys87's public record of the Tencent game (tests/data/tencent/records).
fn sample_record() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/tencent/records/chys87-1395326.txt")
}

fn chromium() -> Option<String> {
    let candidates = std::env::var("BEAMTRIS_CHROMIUM")
        .into_iter()
        .chain(["chromium", "chromium-browser", "google-chrome"].map(String::from));
    for c in candidates {
        let ok = Command::new(&c)
            .arg("--version")
            .stderr(Stdio::null())
            .output()
            .is_ok_and(|o| o.status.success());
        if ok {
            return Some(c);
        }
    }
    None
}

/// Runs headless Chromium on `url` with `extra` flags; returns stdout. Kills it after 90 s.
fn run_chromium(browser: &str, url: &str, extra: &[String], tag: &str) -> String {
    let profile = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("chromium-profile-{}-{tag}", std::process::id()));
    let mut child = Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            "--hide-scrollbars",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(extra)
        .arg(url)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("chromium starts");
    let stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || std::io::read_to_string(stdout).unwrap_or_default());
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            assert!(status.success(), "chromium {extra:?} exited with {status}");
            break;
        }
        if start.elapsed() > Duration::from_secs(90) {
            let _ = child.kill();
            panic!("chromium {extra:?} did not finish in 90 s");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let _ = std::fs::remove_dir_all(&profile);
    reader.join().unwrap()
}

/// The text between `open` and the next `</`.
fn element<'a>(dom: &'a str, open: &str) -> &'a str {
    let start = dom
        .find(open)
        .unwrap_or_else(|| panic!("{open} not in the DOM"))
        + open.len();
    let inner = &dom[start..];
    let inner = &inner[inner.find('>').unwrap() + 1..];
    &inner[..inner.find("</").unwrap()]
}

#[test]
fn without_chromium_a_test_skips_and_under_ci_it_fails() {
    common::assert_skips_but_fails_on_ci(
        "compare_page_plays_a_solved_game_beside_the_players_in_step",
        "no chromium",
    );
}

#[test]
fn replay_page_draws_the_engine_board_at_piece_k() {
    let record = sample_record();
    let Some(browser) = chromium() else {
        common::skip(
            "show_browser::replay_page_draws_the_engine_board_at_piece_k",
            "no chromium",
        );
        return;
    };
    let game = TencentReplay::replay(
        &io::read_record(&record).unwrap(),
        GameDef::tencent_geek_4().pieces(),
    )
    .unwrap();
    let page = Path::new(env!("CARGO_TARGET_TMPDIR")).join("replay-page.html");
    common::succeeds(
        common::bin()
            .args(["show", record.to_str().unwrap(), "--html"])
            .arg(&page),
    );
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(
        !html.contains("http://") && !html.contains("https://"),
        "no network"
    );
    assert!(
        !html.contains("<script src") && !html.contains("<link"),
        "self-contained"
    );
    let url = format!("file://{}", page.display());

    for k in [0, 1, 1234, game.placed()] {
        let dom = run_chromium(
            &browser,
            &format!("{url}#piece={k}"),
            &["--dump-dom".into()],
            &k.to_string(),
        );
        let snap = game.snapshot(k);
        assert_eq!(
            element(&dom, "id=\"board-text\""),
            snap.board.to_text(),
            "board at piece {k}"
        );
        assert_eq!(element(&dom, "id=\"score\""), snap.score.to_string());
        assert_eq!(element(&dom, "id=\"lines\""), snap.lines.to_string());
        assert_eq!(
            element(&dom, "id=\"piece\""),
            format!("{k} / {}", game.placed())
        );
        let next = element(&dom, "id=\"next-letter\"");
        match snap.next {
            Some(p) => assert_eq!(next, p.shape.letter().to_string(), "next at {k}"),
            None => assert!(next.starts_with("game over"), "{next}"),
        }
    }

    // The player: "&play" starts the timer (10 pieces a second); a few seconds of virtual
    // time later the page must show some later piece, drawn as the engine has it.
    let dom = run_chromium(
        &browser,
        &format!("{url}#piece=100&play"),
        &["--dump-dom".into(), "--virtual-time-budget=3000".into()],
        "play",
    );
    let shown = element(&dom, "id=\"piece\"");
    let k: usize = shown.split(' ').next().unwrap().parse().unwrap();
    assert!(k > 100, "the player did not advance: {shown}");
    eprintln!("show_browser: the player went from piece 100 to {k}");
    assert_eq!(
        element(&dom, "id=\"board-text\""),
        game.snapshot(k).board.to_text()
    );
    assert_eq!(
        element(&dom, "id=\"score\""),
        game.snapshot(k).score.to_string()
    );

    // The screenshot goes under target/ so a test run leaves the committed results alone;
    // BEAMTRIS_UPDATE_RESULTS=1 refreshes results/show/replay-page.png.
    let shot = if std::env::var_os("BEAMTRIS_UPDATE_RESULTS").is_some() {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("results/show/replay-page.png")
    } else {
        Path::new(env!("CARGO_TARGET_TMPDIR")).join("replay-page.png")
    };
    std::fs::create_dir_all(shot.parent().unwrap()).unwrap();
    run_chromium(
        &browser,
        &format!("{url}#piece=3000"),
        &[
            format!("--screenshot={}", shot.display()),
            "--window-size=560,760".into(),
        ],
        "shot",
    );
    let png = std::fs::read(&shot).unwrap();
    assert!(png.starts_with(b"\x89PNG"), "a PNG screenshot");
}

/// The engine's board after `k` guideline locks as the page writes it: `rows` rows of `#`/`.`,
/// top first.
fn guideline_board_text(board: &beamtris::games::guideline::Board, rows: usize) -> String {
    let mut s = String::new();
    for y in (0..rows).rev() {
        s.extend((0..10).map(|x| if board.filled(x, y) { '#' } else { '.' }));
        s.push('\n');
    }
    s
}

/// The rows a guideline page draws: the 20 visible ones, and the buffer rows up to the
/// highest cell any board fills.
fn drawn_rows(locks: &[beamtris::games::guideline::replay::LockEvent]) -> usize {
    let top = locks
        .iter()
        .flat_map(|e| (0..24).filter(move |&y| (0..10).any(|x| e.after.board.filled(x, y))))
        .max()
        .map_or(0, |y| y + 1);
    top.max(20)
}

/// Writes the page of a guideline `record` and checks, at each piece in `ks` (`None` = the
/// last), the DOM's board text and numbers against the engine's replay.
fn check_guideline_page(browser: &str, record: &Path, ks: &[Option<usize>], tag: &str) {
    let seed = common::repo(common::TETRIO_SEED);
    let (game, locks) = common::guideline_locks(&seed, record);
    let page = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("replay-page-{tag}.html"));
    common::succeeds(
        common::bin()
            .args([
                "show",
                record.to_str().unwrap(),
                "--seed",
                seed.to_str().unwrap(),
                "--html",
            ])
            .arg(&page),
    );
    let url = format!("file://{}", page.display());
    let rows = drawn_rows(&locks);
    for k in ks.iter().map(|k| k.unwrap_or(locks.len())) {
        let dom = run_chromium(
            browser,
            &format!("{url}#piece={k}"),
            &["--dump-dom".into()],
            &format!("{tag}-{k}"),
        );
        let after = common::state_after(&locks, k);
        assert_eq!(
            element(&dom, "id=\"board-text\""),
            guideline_board_text(&after.board, rows),
            "{tag}: board at piece {k}"
        );
        let (points, attack) = match k {
            0 => (0, 0),
            _ => (locks[k - 1].total_points, locks[k - 1].total_attack),
        };
        let lines: u64 = locks[..k].iter().map(|e| e.rows as u64).sum();
        assert_eq!(
            element(&dom, "id=\"piece\""),
            format!("{k} / {}", locks.len())
        );
        assert_eq!(
            element(&dom, "id=\"score\""),
            points.to_string(),
            "points at {k}"
        );
        assert_eq!(
            element(&dom, "id=\"attack\""),
            attack.to_string(),
            "attack at {k}"
        );
        assert_eq!(
            element(&dom, "id=\"lines\""),
            lines.to_string(),
            "lines at {k}"
        );
        assert_eq!(
            element(&dom, "id=\"combo\""),
            after.combo.max(0).to_string()
        );
        assert_eq!(
            element(&dom, "id=\"b2b\""),
            if after.b2b { "on" } else { "off" }
        );
        assert_eq!(
            element(&dom, "id=\"hold-letter\""),
            after.hold.map_or('-', |s| s.letter()).to_string(),
            "hold at {k}"
        );
        let next = element(&dom, "id=\"next-letter\"");
        if k < locks.len() {
            let queue: String = game.pieces[after.next_index(k)..]
                .iter()
                .take(6)
                .map(|s| s.letter())
                .collect();
            assert_eq!(next, &queue[..1], "next at {k}");
            assert_eq!(
                element(&dom, "id=\"previews-letters\""),
                &queue[1..],
                "previews at {k}"
            );
        } else {
            assert!(next.starts_with("game over"), "{next}");
        }
    }
}

#[test]
fn guideline_page_draws_the_engine_board_and_numbers_at_piece_k() {
    let Some(browser) = chromium() else {
        common::skip(
            "show_browser::guideline_page_draws_the_engine_board_and_numbers_at_piece_k",
            "no chromium",
        );
        return;
    };
    let seed = common::repo(common::TETRIO_SEED);
    let record = common::repo(common::TETRIO_RECORD);
    let (game, locks) = common::guideline_locks(&seed, &record);
    // K: the start, a lock with hold, combo and back-to-back all set, a later one, the end.
    let rich = (1..locks.len())
        .find(|&k| {
            let a = locks[k - 1].after;
            a.hold.is_some() && a.combo > 0 && a.b2b && locks[k - 1].total_attack > 0
        })
        .expect("some lock has hold, combo and back-to-back");
    check_guideline_page(
        &browser,
        &record,
        &[Some(0), Some(rich), Some(777), None],
        "guideline",
    );

    // A stack of the highest placements: the page draws buffer rows too.
    let high = common::record_by(&game, 300, |p| (-common::top(p), p.x, p.state));
    let path = Path::new(env!("CARGO_TARGET_TMPDIR")).join("show-browser-guideline-high.txt");
    std::fs::write(&path, high.to_string()).unwrap();
    assert!(drawn_rows(&common::guideline_locks(&seed, &path).1) > 20);
    check_guideline_page(&browser, &path, &[Some(5), None], "guideline-high");
}

/// The engine's board after `k` pieces of `record` as `show --at` prints it, as the pages
/// write it (`#` filled), its bottom 20 rows.
fn shown_board(record: &Path, k: usize) -> Vec<String> {
    let out = common::succeeds(common::bin().args([
        "show",
        record.to_str().unwrap(),
        "--at",
        &k.to_string(),
    ]));
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let rows: Vec<String> = text
        .lines()
        .filter(|l| l.starts_with('|') && !l.contains("---"))
        .map(|l| {
            l[1..11]
                .chars()
                .map(|c| if c == '.' { '.' } else { '#' })
                .collect()
        })
        .collect();
    rows[rows.len() - 20..].to_vec()
}

/// The bottom 20 rows of a page's board text.
fn bottom_rows(text: &str) -> Vec<String> {
    let rows: Vec<String> = text.lines().map(String::from).collect();
    rows[rows.len() - 20..].to_vec()
}

/// The JSON a replay page embeds for its script.
fn page_data(html: &str) -> serde_json::Value {
    let start = html.find("const DATA = ").expect("the page has its data") + 13;
    // The value, up to whatever follows it.
    let mut values = serde_json::Deserializer::from_str(&html[start..]).into_iter();
    values.next().unwrap().unwrap()
}

/// The value of attribute `name` of the element that `open` starts.
fn attribute<'a>(dom: &'a str, open: &str, name: &str) -> &'a str {
    let start = dom
        .find(open)
        .unwrap_or_else(|| panic!("{open} not in the DOM"));
    let tag = &dom[start..start + dom[start..].find('>').unwrap()];
    let at = tag
        .find(&format!("{name}=\""))
        .unwrap_or_else(|| panic!("{name} not in {tag}"))
        + name.len()
        + 2;
    &tag[at..at + tag[at..].find('"').unwrap()]
}

#[test]
fn compare_page_plays_a_solved_game_beside_the_players_in_step() {
    let Some(browser) = chromium() else {
        common::skip(
            "show_browser::compare_page_plays_a_solved_game_beside_the_players_in_step",
            "no chromium",
        );
        return;
    };
    // The bundled 40 LINES replay imported (the player's record), its game solved
    // (beamtris's record), the two side by side.
    let dir =
        Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("compare-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    common::succeeds(
        common::bin()
            .args([
                "import",
                common::repo("tests/data/tetrio/40l.ttr").to_str().unwrap(),
                "--out",
            ])
            .arg(dir.join("player")),
    );
    let player = dir.join("player/r1-zbrachinara.txt");
    let solved = dir.join("solved.json");
    common::succeeds(
        common::bin()
            .args(["solve", "--seed"])
            .arg(player.with_extension("json"))
            .args(["--beam", "300", "--out"])
            .arg(&solved),
    );
    let solved = solved.with_extension("txt");
    let page = dir.join("compare.html");
    common::succeeds(
        common::bin()
            .arg("show")
            .arg(&solved)
            .arg("--compare")
            .arg(&player)
            .arg("--html")
            .arg(&page),
    );
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(
        !html.contains("http://") && !html.contains("https://") && !html.contains("<script src")
    );
    let verify = |record: &Path| -> serde_json::Value {
        let out = common::succeeds(common::bin().arg("verify").arg(record));
        serde_json::from_slice(&out.stdout).unwrap()
    };
    let (va, vb) = (verify(&solved), verify(&player));
    let (na, nb) = (
        va["pieces"].as_u64().unwrap() as usize,
        vb["pieces"].as_u64().unwrap() as usize,
    );
    assert_eq!(nb, 102);
    let url = format!("file://{}", page.display());
    let dom_at = |hash: &str, extra: &[String], tag: &str| {
        run_chromium(&browser, &format!("{url}#{hash}"), extra, tag)
    };
    // Both boards drawn as the engine has them, at the start and some way in; each side
    // with its hold, next piece and previews as the page's data has them (the engine's: see
    // tests/show_cli.rs), and the outline of the piece that locks next.
    let data = page_data(&html);
    let mut shown = std::collections::HashMap::new();
    for k in [0, 1, 30] {
        let dom = dom_at(
            &format!("piece={k}"),
            &["--dump-dom".into()],
            &format!("c{k}"),
        );
        for (i, (p, record, n)) in [("a", &solved, na), ("b", &player, nb)]
            .into_iter()
            .enumerate()
        {
            let text = element(&dom, &format!("id=\"{p}-board-text\""));
            assert_eq!(
                bottom_rows(text),
                shown_board(record, k),
                "{p} at piece {k}"
            );
            assert_eq!(
                element(&dom, &format!("id=\"{p}-piece\"")),
                format!("{k} / {n}")
            );
            let side = &data["sides"][i];
            let queue = side["next"][k].as_str().unwrap();
            assert_eq!(queue.len(), 6, "{p}: the next piece and five previews");
            let shown_of = |id: &str| element(&dom, &format!("id=\"{p}-{id}\"")).to_string();
            assert_eq!(shown_of("next-letter"), &queue[..1], "{p} next at {k}");
            assert_eq!(
                shown_of("previews-letters"),
                &queue[1..],
                "{p} previews at {k}"
            );
            let hold = &side["chains"]["hold"].as_str().unwrap()[k..k + 1];
            assert_eq!(shown_of("hold-letter"), hold, "{p} hold at {k}");
            let ghost = attribute(&dom, &format!("id=\"{p}-board-text\""), "data-ghost");
            shown.insert((p, k), (text.to_string(), ghost.to_string()));
        }
    }
    // The outline at piece 0 is where the first piece locks: the empty cells that piece 1's
    // board fills.
    for p in ["a", "b"] {
        let (before, ghost) = &shown[&(p, 0)];
        let mut rows: Vec<Vec<u8>> = before.lines().map(|l| l.as_bytes().to_vec()).collect();
        let cells: Vec<&str> = ghost.split(' ').collect();
        assert_eq!(cells.len(), 4, "{p}: {ghost:?}");
        for cell in cells {
            let (x, y) = cell.split_once(',').unwrap();
            let (x, y): (usize, usize) = (x.parse().unwrap(), y.parse().unwrap());
            assert_eq!(rows[y][x], b'.', "{p}: the outline on a filled cell");
            rows[y][x] = b'#';
        }
        let after: Vec<String> = rows
            .into_iter()
            .map(|r| String::from_utf8(r).unwrap())
            .collect();
        let want: Vec<&str> = shown[&(p, 1)].0.lines().collect();
        assert_eq!(after, want, "{p}: the outline is the first lock");
    }
    // Playing advances both, in step.
    let dom = dom_at(
        "piece=10&play",
        &["--dump-dom".into(), "--virtual-time-budget=3000".into()],
        "cplay",
    );
    let k_of = |p: &str| -> usize {
        attribute(&dom, &format!("id=\"{p}-piece\""), "data-k")
            .parse()
            .unwrap()
    };
    let (ka, kb) = (k_of("a"), k_of("b"));
    assert!(ka > 10 && ka == kb.min(na), "a at {ka}, b at {kb}");
    eprintln!("show_browser: the side-by-side page went from piece 10 to {ka}");
    // At the end, each side's figures are `verify`'s.
    let dom = dom_at(
        &format!("piece={}", na.max(nb)),
        &["--dump-dom".into()],
        "cend",
    );
    for (p, v, n) in [("a", &va, na), ("b", &vb, nb)] {
        let s = &v["tetrio_stats"];
        let shown = |id: &str| element(&dom, &format!("id=\"{p}-{id}\"")).to_string();
        assert_eq!(shown("piece"), format!("{n} / {n}"));
        assert_eq!(shown("lines"), s["lines"].to_string(), "{p} lines");
        assert_eq!(shown("score"), s["score"].to_string(), "{p} score");
        // A record of placements has no keys: verify leaves them out, the page shows a dash.
        let or_dash = |v: &serde_json::Value| match v {
            serde_json::Value::Null => "\u{2013}".to_string(),
            v => v.to_string(),
        };
        assert_eq!(shown("inputs"), or_dash(&s["inputs"]), "{p} inputs");
        assert_eq!(
            shown("faults"),
            or_dash(&s["finesse"]["faults"]),
            "{p} faults"
        );
        match s["finalTime"].as_f64() {
            Some(want) => {
                let ms: f64 = attribute(&dom, &format!("id=\"{p}-time\""), "data-ms")
                    .parse()
                    .unwrap();
                assert_eq!(ms, want, "{p} time");
            }
            None => assert_eq!(shown("time"), "\u{2013}", "{p} time"),
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn single_pages_show_each_family_s_own_figures_in_labelled_fields() {
    let Some(browser) = chromium() else {
        common::skip(
            "show_browser::single_pages_show_each_family_s_own_figures_in_labelled_fields",
            "no chromium",
        );
        return;
    };
    let dir =
        Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("figures-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    // A TETR.IO 40 LINES record: TETR.IO's time, inputs and finesse faults, as `verify` has
    // them, beside hold and the previews.
    common::succeeds(
        common::bin()
            .args([
                "import",
                common::repo("tests/data/tetrio/40l.ttr").to_str().unwrap(),
                "--out",
            ])
            .arg(dir.join("player")),
    );
    let player = dir.join("player/r1-zbrachinara.txt");
    let page = dir.join("40l.html");
    common::succeeds(
        common::bin()
            .arg("show")
            .arg(&player)
            .arg("--html")
            .arg(&page),
    );
    let out = common::succeeds(common::bin().arg("verify").arg(&player));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let s = &v["tetrio_stats"];
    let n = v["pieces"].as_u64().unwrap();
    let url = format!("file://{}", page.display());
    let dom = run_chromium(
        &browser,
        &format!("{url}#piece={n}"),
        &["--dump-dom".into()],
        "solo",
    );
    for (id, label) in [
        ("time", "time"),
        ("inputs", "inputs"),
        ("faults", "finesse faults"),
    ] {
        assert!(
            dom.contains(&format!("<tr id=\"row-{id}\"><th>{label}</th>")),
            "{id} has its own labelled field"
        );
    }
    assert_eq!(element(&dom, "id=\"inputs\""), s["inputs"].to_string());
    assert_eq!(
        element(&dom, "id=\"faults\""),
        s["finesse"]["faults"].to_string()
    );
    let ms: f64 = attribute(&dom, "id=\"time\"", "data-ms").parse().unwrap();
    assert_eq!(ms, s["finalTime"].as_f64().unwrap());
    assert_eq!(element(&dom, "id=\"lines\""), s["lines"].to_string());
    assert!(dom.contains("id=\"hold-letter\"") && dom.contains("id=\"previews-letters\""));

    // An NES game: level, gravity and speed each a labelled field, the lines only a number.
    let record = dir.join("z.txt");
    std::fs::write(&record, "speed 30hz\nZ\n").unwrap();
    let page = dir.join("nes.html");
    common::succeeds(
        common::bin()
            .arg("show")
            .arg(&record)
            .args(["--gym-seed", "123456", "--html"])
            .arg(&page),
    );
    let dom = run_chromium(
        &browser,
        &format!("file://{}#piece=1", page.display()),
        &["--dump-dom".into()],
        "nes",
    );
    assert_eq!(element(&dom, "id=\"lines\""), "0");
    for (label, value) in [
        ("level", "18"),
        ("gravity", "3 frames a row"),
        ("speed", "30hz"),
    ] {
        assert!(
            dom.contains(&format!("<tr id=\"row-fig-{label}\"><th>{label}</th>")),
            "{label} has its own labelled field"
        );
        assert_eq!(element(&dom, &format!("id=\"fig-{label}\"")), value);
    }
    // Nothing explains a line the page does not draw.
    assert!(!dom.contains("dashed"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A versus round's page steps both players in time, as they played: at each step the page
/// names a frame, each board is the one the engine had in that frame, and each garbage meter
/// holds the rows the engine had waiting after it. Player b plays faster, so the two lock at
/// different frames, and garbage crosses between locks.
#[test]
fn versus_page_draws_both_players_in_step_with_their_garbage_meters() {
    let Some(browser) = chromium() else {
        common::skip(
            "show_browser::versus_page_draws_both_players_in_step_with_their_garbage_meters",
            "no chromium",
        );
        return;
    };
    let dir = common::scratch("show-browser", "versus");
    let out = dir.join("match");
    common::succeeds(common::bin().args([
        "versus",
        "--a",
        "builtin",
        "--b",
        "builtin",
        "--games",
        "1",
        "--tetrio-seed",
        "77",
        "--beam",
        "6",
        "--samples",
        "0",
        "--max-seconds",
        "40",
        "--pps-b",
        "3",
        "--out",
        out.to_str().unwrap(),
    ]));
    let ttrm = out.join("match.ttrm");
    let page = dir.join("round.html");
    common::succeeds(
        common::bin()
            .arg("show")
            .arg(&ttrm)
            .arg("--html")
            .arg(&page),
    );
    let text = std::fs::read_to_string(&ttrm).unwrap();
    let rounds = beamtris::games::tetrio::replay::parse("match.ttrm", &text).unwrap();
    let url = format!("file://{}", page.display());
    let mut seen_waiting = false;
    for k in [0, 1, 2, 7, 30, 61, 90, 1_000_000] {
        let dom = run_chromium(
            &browser,
            &format!("{url}#piece={k}"),
            &["--dump-dom".into()],
            &format!("versus{k}"),
        );
        let frame: i64 = attribute(&dom, "id=\"clock\"", "data-frame")
            .parse()
            .unwrap();
        for (p, round) in ["a", "b"].into_iter().zip(&rounds) {
            let (mut board, mut waiting) = (Vec::new(), 0);
            beamtris::games::tetrio::simulate_frames(round, |f, e| {
                if f == frame {
                    let snap = e.snapshot(5);
                    board = (0..20)
                        .rev()
                        .map(|y| {
                            (0..10)
                                .map(|x| if snap.rows[y][x] == 0 { '.' } else { '#' })
                                .collect::<String>()
                        })
                        .collect::<Vec<_>>();
                    waiting = e.incoming();
                }
            });
            assert_eq!(
                bottom_rows(element(&dom, &format!("id=\"{p}-board-text\""))),
                board,
                "{p} at step {k}, frame {frame}"
            );
            let shown: i64 = element(&dom, &format!("id=\"{p}-incoming\""))
                .parse()
                .unwrap();
            assert_eq!(shown, waiting, "{p}'s meter at step {k}, frame {frame}");
            assert_eq!(
                attribute(&dom, &format!("id=\"{p}-meter\""), "data-rows"),
                waiting.to_string()
            );
            seen_waiting |= waiting > 0;
        }
    }
    assert!(seen_waiting, "some step has garbage waiting");
    std::fs::remove_dir_all(&dir).ok();
}
