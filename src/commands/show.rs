//! `beamtris show RECORD`: look at a replay. By default the board after the last (or the
//! K-th) piece as text; `--animate` plays it in the terminal, `--fumen` prints fumen pages,
//! `--html FILE` writes a self-contained replay page; with `--compare RECORD2` the page plays
//! two records of the same game side by side.

use crate::error::{Error, Result};
use crate::family::Family;
use crate::game_def::GameDef;
use crate::io;
use crate::show::frames::Replay;
use crate::show::{animate, fumen_pages, html};
use std::path::{Path, PathBuf};

/// Show a replay: the board as text, a terminal animation, a fumen string or an HTML page.
///
/// Piece counts are 0-based: `--at K` is the board after K pieces (0 = empty), and a range
/// `--from K --to L` covers the pieces K to L-1, i.e. the boards after K to after L pieces.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The record file: comma-separated tokens `N,C1,L2,D17,...`.
    pub record: PathBuf,
    #[command(flatten)]
    pub game: super::game::GameArgs,
    /// Show the board after K pieces (default: after the last one).
    #[arg(long, value_name = "K", conflicts_with_all = ["animate", "fumen", "html"])]
    pub at: Option<usize>,
    /// Play the game in the terminal (q, Esc or Ctrl-C quits; space pauses; arrows step), for
    /// either family: guideline games also show hold, the previews, combo, back-to-back and
    /// attack. Without a terminal, prints every frame one after another.
    #[arg(long, conflicts_with_all = ["fumen", "html"])]
    pub animate: bool,
    /// Animation speed in pieces per second.
    #[arg(long, value_name = "PIECES_PER_SECOND", default_value_t = 10.0)]
    pub speed: f64,
    /// Print a fumen string (`v115@...`): one page per piece, drawn where it locks (Tencent
    /// and guideline games; a guideline page shows rows 0 to 22).
    #[arg(long, conflicts_with = "html")]
    pub fumen: bool,
    /// Leave out the fumen page comments (piece, score, lines): about 3 characters a page
    /// instead of about 75.
    #[arg(long, requires = "fumen")]
    pub no_comments: bool,
    /// First piece of --fumen or --animate (default 0).
    #[arg(long, value_name = "K")]
    pub from: Option<usize>,
    /// End of the --fumen or --animate range, exclusive (default: every piece).
    #[arg(long, value_name = "L")]
    pub to: Option<usize>,
    /// Write a self-contained HTML replay page to FILE (open it with `#piece=K` to start at
    /// piece K), for either family: guideline pages also show hold, the previews, combo,
    /// back-to-back, attack and points.
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
    /// With --html: a second record of the same game (a player's, say; its game is the file
    /// beside it, else RECORD's), played side by side with RECORD on one page, piece by piece,
    /// each with its running figures. Records of two different games are refused.
    #[arg(long, value_name = "RECORD2", requires = "html")]
    pub compare: Option<PathBuf>,
    /// For a versus replay (`.ttrm`, as `beamtris versus` writes it): the game (round) to
    /// draw, from 1 (default 1). Its two players are drawn side by side, in step as they
    /// played: as text at the end (or in the frame the game's K-th piece locked, both players'
    /// pieces counted, with --at K), each with the garbage rows waiting then; or as a page
    /// with --html, frame by frame, each with its garbage meter.
    #[arg(long, value_name = "N")]
    pub round: Option<usize>,
}

pub fn run(args: &Args) -> Result<()> {
    let is_match = args
        .record
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("ttrm"));
    if is_match {
        return show_match(args);
    }
    if args.round.is_some() {
        return Err(Error::at("--round", "only for a versus replay (.ttrm)"));
    }
    if args.animate {
        // The range the animation's own +/- keys keep to; outside it a frame's duration
        // (1/speed seconds) is not a time the clock can hold or show.
        if !(0.25..=1000.0).contains(&args.speed) {
            return Err(Error(format!(
                "--speed {:?}: give between 0.25 and 1000 pieces per second",
                args.speed
            )));
        }
    }
    // With --html, a signal stops before the page is written or lets its write finish.
    let stop = args.html.as_ref().map(|_| super::stop_on_ctrl_c());
    if let Some(path) = &args.html {
        let mut inputs = args.game.input_files();
        inputs.push(("the record", args.record.as_path()));
        if let Some(other) = &args.compare {
            refuse_same_record(&args.record, other)?;
            inputs.push(("--compare", other.as_path()));
        }
        io::check_outputs(&[("--html", path.as_path())], &inputs)?;
        io::refuse_committed(&format!("--html {}", path.display()), path, "show")?;
    }
    let ranged = args.from.is_some() || args.to.is_some();
    if ranged && !(args.fumen || args.animate) {
        return Err(Error(
            "--from and --to go with --fumen or --animate (use --at K for one board)".into(),
        ));
    }
    let seed = args.game.load_for_record("show", &args.record)?;
    if let (Some(other), Some(path)) = (&args.compare, &args.html) {
        return compare(args, seed, other, path, stop);
    }
    let game = crate::family::open(seed)?;
    let replay = crate::with_game!(&game, g => {
        let record = g
            .read_record(&args.record, "show")
            .map_err(|e| args.game.explain(&args.record, e))?;
        if args.html.is_none() && !args.fumen && !args.animate {
            print!("{}", g.board_text(&record, args.at)?);
            return Ok(());
        }
        g.frames(&record)?
    });
    let from = args.from.unwrap_or(0);
    let to = args.to.unwrap_or(replay.placed());
    if let Some(path) = &args.html {
        let name = args
            .record
            .file_name()
            .map_or_else(|| "record".into(), |n| n.to_string_lossy().into_owned());
        let page = html::page(&replay, &name);
        if stop.is_some_and(|s| s.load(std::sync::atomic::Ordering::SeqCst)) {
            return Ok(());
        }
        io::write_atomic(path, page.as_bytes())?;
        let last = replay.frames.last().expect("a replay has its first frame");
        // A TETR.IO solo game counts score, as its page does.
        let what = if last.chains.is_some() && replay.solo.is_none() {
            "points"
        } else {
            "score"
        };
        eprintln!(
            "wrote {} ({}, {what} {})",
            path.display(),
            crate::limits::plural(replay.placed() as u64, "piece", "pieces"),
            last.score
        );
        return Ok(());
    }
    if args.fumen {
        println!(
            "{}",
            fumen_pages::export(&replay, from, to, !args.no_comments)?
        );
        return Ok(());
    }
    replay.check_count("--to", to)?;
    if from > to {
        return Err(Error(format!("--from {from} is after --to {to}")));
    }
    animate::run(&replay, from, to, args.speed)
}

/// Refuses `--compare` of a record with itself: the same path, or the same file by another
/// path (a link, `..`).
fn refuse_same_record(record: &Path, other: &Path) -> Result<()> {
    let same = record == other
        || matches!(
            (record.canonicalize(), other.canonicalize()),
            (Ok(a), Ok(b)) if a == b
        );
    if same {
        return Err(Error::at(
            format!("--compare {}", other.display()),
            format!(
                "the same file as the record {}; compare it with another record of its game",
                record.display()
            ),
        ));
    }
    Ok(())
}

/// The views' replay of `record` on `seed`.
fn replay_of(seed: GameDef, record: &Path) -> Result<Replay> {
    let game = crate::family::open(seed)?;
    crate::with_game!(&game, g => {
        let record = g.read_record(record, "show")?;
        g.frames(&record)
    })
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map_or_else(|| "record".into(), |n| n.to_string_lossy().into_owned())
}

/// `show RECORD --compare RECORD2 --html FILE`: both records' replays on one page, after
/// checking that RECORD2's game (beside it, else RECORD's) is RECORD's.
fn compare(
    args: &Args,
    seed: GameDef,
    other: &Path,
    out: &Path,
    stop: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
) -> Result<()> {
    let other_seed = if other.with_extension("json").is_file() {
        io::seed_beside(other)?
    } else {
        seed.clone()
    };
    if let Some(why) = seed.differs_from(&other_seed) {
        return Err(Error::at(
            format!("--compare {}", other.display()),
            format!(
                "a record of another game than {}'s ({why}): compare two records of one game",
                args.record.display()
            ),
        ));
    }
    let objective = serde_json::to_value(seed.objective)
        .ok()
        .and_then(|v| v.as_str().map(String::from))
        .unwrap_or_else(|| seed.rules.to_string());
    let game = format!("the game {} (objective: {objective})", seed.name);
    let (a, b) = (
        replay_of(seed, &args.record)?,
        replay_of(other_seed, other)?,
    );
    let (a_name, b_name) = (file_name(&args.record), file_name(other));
    let page = html::compare_page(&game, (&a, &a_name), (&b, &b_name));
    if stop.is_some_and(|s| s.load(std::sync::atomic::Ordering::SeqCst)) {
        return Ok(());
    }
    io::write_atomic(out, page.as_bytes())?;
    eprintln!(
        "wrote {} ({a_name}: {}, {b_name}: {}, side by side)",
        out.display(),
        crate::limits::plural(a.placed() as u64, "piece", "pieces"),
        crate::limits::plural(b.placed() as u64, "piece", "pieces")
    );
    Ok(())
}

/// `show MATCH.ttrm [--round N] [--at K | --html FILE]`: a round of a versus replay,
/// its two players side by side.
fn show_match(args: &Args) -> Result<()> {
    if let Some(flag) = super::first_given(&[
        (args.animate, "--animate"),
        (args.fumen, "--fumen"),
        (args.compare.is_some(), "--compare"),
        (
            args.game.seed.is_some() || args.game.changes_game(),
            "the game flags",
        ),
    ]) {
        return Err(Error::at(
            flag,
            "a versus replay is drawn as text or with --html (its games are in the file)",
        ));
    }
    let stop = args.html.as_ref().map(|_| super::stop_on_ctrl_c());
    if let Some(path) = &args.html {
        io::check_outputs(
            &[("--html", path.as_path())],
            &[("the replay", args.record.as_path())],
        )?;
        io::refuse_committed(&format!("--html {}", path.display()), path, "show")?;
    }
    let file = args.record.display().to_string();
    let text = io::read_text(&args.record)?;
    let rounds = crate::games::tetrio::replay::parse(&file, &text)?;
    let game = args.round.unwrap_or(1);
    let [a, b] = crate::show::versus::round_pair(&rounds, game, &file)?;
    let Some(path) = &args.html else {
        let sides = [a, b];
        let frame = crate::show::versus::frame_of_lock(&sides, args.at);
        let render = |side: &crate::show::versus::VersusSide| {
            let k = side.locks_by(frame).min(side.replay.placed());
            format!(
                "{}\n{}",
                side.note(frame),
                crate::show::tetrio_frames::render(&side.replay, k)
            )
        };
        let [a, b] = &sides;
        let (left, right) = (render(a), render(b));
        let width = left
            .lines()
            .map(|l| l.chars().count())
            .max()
            .unwrap_or(0)
            .max(a.name.len());
        let (left, right): (Vec<&str>, Vec<&str>) =
            (left.lines().collect(), right.lines().collect());
        println!("{:width$}   {}", a.name, b.name);
        for i in 0..left.len().max(right.len()) {
            let l = left.get(i).copied().unwrap_or("");
            let r = right.get(i).copied().unwrap_or("");
            println!("{l:width$}   {r}");
        }
        return Ok(());
    };
    let title = format!("game {game} of {}", file_name(&args.record));
    let page = html::versus_page(&title, &a, &b);
    if stop.is_some_and(|s| s.load(std::sync::atomic::Ordering::SeqCst)) {
        return Ok(());
    }
    io::write_atomic(path, page.as_bytes())?;
    eprintln!(
        "wrote {} (game {game}: {} {}, {} {}, side by side in step)",
        path.display(),
        a.name,
        crate::limits::plural(a.replay.placed() as u64, "piece", "pieces"),
        b.name,
        crate::limits::plural(b.replay.placed() as u64, "piece", "pieces")
    );
    Ok(())
}
