//! `beamtris versus --a PLAYER --b PLAYER --out DIR`: a match between two bots on TETR.IO's
//! versus rules (docs/versus.md), kept as `DIR/summary.json` and `DIR/match.ttrm`.

use super::game::GameArgs;
use crate::arena::bots::{BuiltinBot, Clock, Player, ProcessBot};
use crate::arena::{self, summary, MatchSpec, LETTERS};
use crate::error::{Error, Result};
use crate::games::registry::Capability;
use std::path::PathBuf;
use std::sync::atomic::Ordering;
use std::time::Duration;

/// Play a match between two bots on TETR.IO's versus rules: the same pieces for both each
/// game, garbage sent, cancelled and delayed as TETR.IO does, each player at its pace. Writes
/// DIR/summary.json (each game and the win rate with its 95 % interval) and DIR/match.ttrm
/// (TETR.IO's versus replay: `beamtris import` reads it, TETR.IO plays it back), both
/// rewritten after each game, so a stop (Ctrl-C) keeps every finished game.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Player a: `builtin` (beamtris's online player, in-process, a fixed search a move: the
    /// same position always gets the same move; it sees the garbage meter, as a TETR.IO
    /// player does) or a command that speaks the Tetris Bot Protocol on its stdin and stdout,
    /// run with `sh -c` (`"beamtris tbp"`, a Cold Clear 2 binary; TBP has no message for the
    /// meter).
    #[arg(long, value_name = "PLAYER")]
    pub a: String,
    /// Player b, as --a.
    #[arg(long, value_name = "PLAYER")]
    pub b: String,
    /// The folder of summary.json and match.ttrm.
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// Games to play (game g, from 0, on the pieces of seed S + g; who starts alternates).
    #[arg(long, default_value_t = 10)]
    pub games: usize,
    /// End the match when a player has N wins (at most --games games).
    #[arg(long, value_name = "N")]
    pub first_to: Option<usize>,
    #[command(flatten)]
    pub game: GameArgs,
    /// Player a's pace in pieces a second (default: --pps, else 2).
    #[arg(long, value_name = "P")]
    pub pps_a: Option<f64>,
    /// Player b's pace in pieces a second (default: --pps, else 2).
    #[arg(long, value_name = "P")]
    pub pps_b: Option<f64>,
    /// Wall time a TBP bot is given to think about each move, in ms: the arena tells it the
    /// position, waits this long, then sends `suggest` (the game's clock stands still).
    #[arg(long, default_value_t = 200)]
    pub think_ms: u64,
    /// How the think time is measured: `wall` (the arena waits that long) or `cpu` (the arena
    /// waits until the bot's process has run that long, or has no thread that wants a core:
    /// on a busy machine each bot then thinks as if it had a core of its own; Linux). Needs a command that is the
    /// bot itself (`sh -c` execs it): a wrapper's children are not counted.
    #[arg(long, value_enum, default_value_t = Clock::Wall)]
    pub clock: Clock,
    /// Wall time a TBP bot's answer to `suggest` may take, in ms; later, the bot loses the
    /// game (`late`) and is started again.
    #[arg(long, default_value_t = 1000)]
    pub grace_ms: u64,
    /// A game with no winner after this many seconds of game time is a draw.
    #[arg(long, default_value_t = 600.0)]
    pub max_seconds: f64,
    /// The builtin player's beam (states kept per piece).
    #[arg(long, default_value_t = super::play::DEFAULT_BEAM)]
    pub beam: usize,
    #[command(flatten)]
    pub speculation: super::play::SpeculationArgs,
    /// Replace DIR/summary.json and DIR/match.ttrm when they exist.
    #[arg(long, conflicts_with = "resume")]
    pub force: bool,
    /// Go on with the match in DIR (stopped by Ctrl-C, say): its finished games are kept and
    /// play goes on from the next one, up to --games, as one run would have played it. The
    /// players, their versions and every setting must be the match's.
    #[arg(long)]
    pub resume: bool,
}

/// The longest pace: a piece a frame.
const MAX_PPS: f64 = 60.0;

fn pace(flag: &str, p: Option<f64>, shared: Option<f64>) -> Result<f64> {
    let (flag, p) = match (p, shared) {
        (Some(p), _) => (flag.to_string(), p),
        (None, Some(p)) => ("--pps".to_string(), p),
        (None, None) => return Ok(2.0),
    };
    if !(p > 0.0 && p <= MAX_PPS) {
        return Err(Error::at(
            format!("{flag} {}", crate::limits::short_number(p)),
            format!("give a pace above 0 and at most {MAX_PPS} pieces a second (a piece a frame)"),
        ));
    }
    Ok(p)
}

fn player(spec: &str, flag: &str, args: &Args) -> Result<Player> {
    if spec.trim().is_empty() {
        return Err(Error::at(flag, "give `builtin` or a bot's command"));
    }
    if spec == "builtin" {
        let tbp_args = super::tbp::Args {
            beam: args.beam,
            // A fixed search: the clock never cuts it.
            think_ms: 3_600_000,
            previews: crate::arena::duel::PREVIEWS,
            weights: None,
            rotation: super::tbp::RotationArg::SrsPlus,
            combo_table: super::tbp::ComboArg::TetrioChaining,
            top_out: super::tbp::TopOutArg::Tetrio,
            speculation: super::play::SpeculationArgs {
                samples: args.speculation.samples,
                lookahead: args.speculation.lookahead,
            },
            threads: 1,
            no_ponder: true,
        };
        let config = super::tbp::config(&tbp_args)?;
        return Ok(Player::Builtin(Box::new(BuiltinBot::new(config))));
    }
    Ok(Player::Process(ProcessBot::new(
        spec,
        Duration::from_millis(args.think_ms),
        Duration::from_millis(args.grace_ms),
        args.clock,
    )))
}

/// A name for the replay: the side's letter and the bot's name, in letters, digits and `-`.
fn username(side: usize, name: &str) -> String {
    let mut u = format!("{}-", LETTERS[side]);
    for c in name.to_lowercase().chars() {
        u.push(if c.is_ascii_alphanumeric() { c } else { '-' });
    }
    u.trim_end_matches('-').to_string()
}

pub fn run(args: &Args) -> Result<()> {
    if let Some(flag) = super::first_given(&[
        (args.game.queue.is_some(), "--queue"),
        (args.game.board.is_some(), "--board"),
        (args.game.hold.is_some(), "--hold"),
    ]) {
        return Err(Error::at(
            flag,
            "a versus game deals TETR.IO's pieces from its seed on an empty board (give --tetrio-seed or --seed)",
        ));
    }
    // No game named: the family's versus game, TETR.IO's rules as played today.
    let seed = if args.game.seed.is_none() && !args.game.changes_game() {
        super::game::builtin_tetrio()
    } else {
        args.game.load()?
    };
    let family = seed.family();
    if !family.supports(Capability::Versus) {
        return Err(family.refuse(Capability::Versus, &seed.name));
    }
    let Some(tetrio) = seed.tetrio_game() else {
        return Err(Error(format!(
            "versus: the game {} does not deal TETR.IO's pieces (a game file with a \"tetrio\" generator, or --tetrio-seed)",
            seed.name
        )));
    };
    let first_seed = tetrio.options["seed"].as_u64().unwrap_or(1);
    if args.games == 0 {
        return Err(Error::at("--games 0", "give at least 1"));
    }
    if args.first_to == Some(0) {
        return Err(Error::at("--first-to 0", "give at least 1"));
    }
    if args.think_ms > 60_000 || args.grace_ms == 0 || args.grace_ms > 600_000 {
        return Err(Error(format!(
            "--think-ms {} --grace-ms {}: give a think time up to 60000 ms and a grace from 1 to 600000 ms",
            args.think_ms, args.grace_ms
        )));
    }
    if !(args.max_seconds > 0.0 && args.max_seconds <= 3600.0) {
        return Err(Error::at(
            format!(
                "--max-seconds {}",
                crate::limits::short_number(args.max_seconds)
            ),
            "give a game length above 0 and at most 3600 seconds",
        ));
    }
    let pps = [
        pace("--pps-a", args.pps_a, args.game.pps)?,
        pace("--pps-b", args.pps_b, args.game.pps)?,
    ];
    let mut players = [player(&args.a, "--a", args)?, player(&args.b, "--b", args)?];
    let summary_path = args.out.join("summary.json");
    let ttrm_path = args.out.join("match.ttrm");
    for path in [&summary_path, &ttrm_path] {
        if args.resume && !path.exists() {
            return Err(Error::at(
                path.display(),
                "--resume: no such file (no match to go on with; leave out --resume)",
            ));
        }
        if path.exists() && !args.force && !args.resume {
            return Err(Error::at(
                path.display(),
                "exists (--force replaces it, --resume goes on with its match)",
            ));
        }
    }
    // A bot that exits closes its end of the pipe: the arena's next write to it must fail
    // (the bot crashed, the match goes on), not end the arena by SIGPIPE, which `main`
    // restores for the commands that print to a pipe.
    // SAFETY: setting a signal's disposition to SIG_IGN has no handler to be unsafe.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_IGN);
    }
    let stop = super::stop_on_ctrl_c();
    crate::io::create_dir(&args.out)
        .map_err(|e| Error(format!("--out {}: {e}", args.out.display())))?;
    crate::io::check_outputs(&[("--out", &summary_path), ("--out", &ttrm_path)], &[])?;
    arena::launch_all(&mut players)?;
    let identities = [players[0].identity(), players[1].identity()];
    let usernames = [username(0, &identities[0].0), username(1, &identities[1].0)];
    let spec = MatchSpec {
        options: tetrio.options.clone(),
        first_seed,
        games: args.games,
        first_to: args.first_to,
        pps,
        max_frames: (args.max_seconds * 60.0).round() as i64,
        usernames: usernames.clone(),
    };
    let about = serde_json::json!({
        "a": {"player": args.a, "name": identities[0].0, "version": identities[0].1},
        "b": {"player": args.b, "name": identities[1].0, "version": identities[1].1},
        "game": seed.name,
        "first_seed": first_seed,
        "pps": {"a": pps[0], "b": pps[1]},
        "think_ms": args.think_ms,
        "clock": format!("{:?}", args.clock).to_lowercase(),
        "grace_ms": args.grace_ms,
        "max_seconds": args.max_seconds,
        "builtin": {"beam": args.beam, "samples": args.speculation.samples, "lookahead": args.speculation.lookahead},
        "options": tetrio.options,
    });
    let earlier = if args.resume {
        arena::Earlier::read(&summary_path, &ttrm_path, &about)?
    } else {
        arena::Earlier::default()
    };
    let bar = crate::progress::bar(args.games as u64, "{pos}/{len} games {msg}");
    bar.set_position(earlier.winners.len() as u64);
    let started = std::time::Instant::now();
    let games = arena::play_match(&spec, &earlier, &mut players, &stop, |games| {
        let last = games.last().expect("a game finished");
        let totals = summary::totals(&earlier.winners_with(games));
        let line = format!(
            "game {} seed {}: {} ({}); a {} b {} draws {}; pps a {:.2} b {:.2}",
            last.game,
            last.seed,
            match last.winner {
                Some(w) => format!("{} wins", LETTERS[w]),
                None => "draw".to_string(),
            },
            last.reason,
            totals["wins"]["a"],
            totals["wins"]["b"],
            totals["draws"],
            crate::games::tetrio::stats::rates(&last.players[0].stats).pps,
            crate::games::tetrio::stats::rates(&last.players[1].stats).pps,
        );
        if bar.is_hidden() {
            eprintln!("{line}");
        } else {
            bar.println(&line);
        }
        bar.set_message(format!(
            "a {} b {} draws {}",
            totals["wins"]["a"], totals["wins"]["b"], totals["draws"]
        ));
        bar.inc(1);
        let summary = summary::summary(about.clone(), &earlier, games);
        let summary_text =
            serde_json::to_string_pretty(&summary).expect("plain data serialises") + "\n";
        let ttrm_text = serde_json::to_string(&arena::ttrm::ttrm(&earlier, games, &usernames))
            .expect("plain data serialises")
            + "\n";
        crate::io::write_all_atomic(&[
            (summary_path.as_path(), summary_text.as_bytes()),
            (ttrm_path.as_path(), ttrm_text.as_bytes()),
        ])
    })?;
    bar.finish_and_clear();
    let all = earlier.winners_with(&games);
    let totals = summary::totals(&all);
    let played = if earlier.winners.is_empty() {
        format!("{} games", games.len())
    } else {
        format!(
            "{} games of {} (resumed after {})",
            games.len(),
            all.len(),
            earlier.winners.len()
        )
    };
    eprintln!(
        "{played} in {:.0} s: a {} b {} draws {}; a's win rate {:.3} (95 % interval {:.3} to {:.3}){}",
        started.elapsed().as_secs_f64(),
        totals["wins"]["a"],
        totals["wins"]["b"],
        totals["draws"],
        totals["win_rate_a"].as_f64().unwrap_or(0.0),
        totals["interval_95_a"][0].as_f64().unwrap_or(0.0),
        totals["interval_95_a"][1].as_f64().unwrap_or(1.0),
        if stop.load(Ordering::SeqCst) {
            "; stopped by a signal: the finished games are written"
        } else {
            ""
        }
    );
    Ok(())
}
