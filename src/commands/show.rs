//! `beamtris show RECORD`: look at a replay. By default the board after the last (or the
//! K-th) piece as text; `--animate` plays it in the terminal, `--fumen` prints fumen pages,
//! `--html FILE` writes a self-contained replay page.

use crate::error::{Error, Result};
use crate::io;
use crate::show::{animate, fumen_pages, game::Game, html, text};
use std::path::PathBuf;

/// Show a replay: the board as text, a terminal animation, a fumen string or an HTML page.
///
/// Piece counts are 0-based: `--at K` is the board after K pieces (0 = empty), and a range
/// `--from K --to L` covers the pieces K to L-1, i.e. the boards after K to after L pieces.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The record file: comma-separated tokens `N,C1,L2,D17,...`.
    pub record: PathBuf,
    /// The game definition (default: the built-in Tencent Geek 4 game).
    #[arg(long)]
    pub seed: Option<PathBuf>,
    /// Show the board after K pieces (default: after the last one).
    #[arg(long, value_name = "K", conflicts_with_all = ["animate", "fumen", "html"])]
    pub at: Option<usize>,
    /// Play the game in the terminal (q, Esc or Ctrl-C quits; space pauses; arrows step).
    /// Without a terminal, prints every frame one after another.
    #[arg(long, conflicts_with_all = ["fumen", "html"])]
    pub animate: bool,
    /// Animation speed in pieces per second.
    #[arg(long, value_name = "PIECES_PER_SECOND", default_value_t = 10.0)]
    pub speed: f64,
    /// Print a fumen string (`v115@...`): one page per piece, drawn where it locks.
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
    /// piece K).
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
}

pub fn run(args: &Args) -> Result<()> {
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
    if let Some(path) = &args.html {
        io::check_outputs(&[("--html", path.as_path())])?;
    }
    let seed = io::load_seed(args.seed.as_deref())?;
    if let Some(game) = crate::rules::guideline::replay::Game::from_seed(&seed) {
        return show_guideline(args, &game);
    }
    let record = io::read_record(&args.record)?;
    let game = Game::replay(&record, seed.pieces())?;
    let ranged = args.from.is_some() || args.to.is_some();
    if ranged && !(args.fumen || args.animate) {
        return Err(Error(
            "--from and --to go with --fumen or --animate (use --at K for one board)".into(),
        ));
    }
    let from = args.from.unwrap_or(0);
    let to = args.to.unwrap_or(game.placed());
    if let Some(path) = &args.html {
        let name = args
            .record
            .file_name()
            .map_or_else(|| "record".into(), |n| n.to_string_lossy().into_owned());
        io::write_atomic(path, html::page(&game, &name).as_bytes())?;
        eprintln!(
            "wrote {} ({} pieces, score {})",
            path.display(),
            game.placed(),
            game.outcome.score
        );
        return Ok(());
    }
    if args.fumen {
        println!(
            "{}",
            fumen_pages::export(&game, from, to, !args.no_comments)?
        );
        return Ok(());
    }
    if args.animate {
        game.check_count("--to", to)?;
        if from > to {
            return Err(Error(format!("--from {from} is after --to {to}")));
        }
        return animate::run(&game, from, to, args.speed);
    }
    let k = args.at.unwrap_or(game.placed());
    game.check_count("--at", k)?;
    print!("{}", text::render(&game, k));
    Ok(())
}

/// Guideline games: the board as text (the other views are Tencent-only for now).
fn show_guideline(args: &Args, game: &crate::rules::guideline::replay::Game) -> Result<()> {
    use crate::show::guideline_text::{render, GuidelineGame};
    if args.animate || args.fumen || args.html.is_some() || args.from.is_some() || args.to.is_some()
    {
        return Err(Error(
            "--animate, --fumen, --html, --from and --to show Tencent games only for now; \
             guideline games have the text board (--at K)"
                .into(),
        ));
    }
    let text = io::read_text(&args.record)?;
    let record = game
        .parse_record(&text)
        .map_err(|e| Error::at(args.record.display(), e))?;
    let g = GuidelineGame::replay(&record, game)?;
    print!("{}", render(&g, game, args.at.unwrap_or(g.placed()))?);
    Ok(())
}
