//! The game a command plays, as every command that takes one reads it: a seed file, or the
//! built-in games changed by `--tetrio-seed`, `--queue`, `--board` and `--hold`. Checked
//! whole before any search, each error naming the flag and the place.

use crate::error::{Error, Result};
use crate::games::family::RuleSet;
use crate::io;
use crate::seed::{BoardText, Generator, Seed, Start};
use std::path::{Path, PathBuf};

/// The built-in TETR.IO game (the same as `seeds/tetrio-versus.json`): TETR.IO's rules as
/// played today (SRS+, attack with TETR.IO's combo multiplier and back-to-back chain bonus,
/// 1 000 pieces), the rules of `--tetrio-seed`, `--queue` and `--board` without `--seed`, so
/// a TETR.IO player's seed is solved for the attack TETR.IO counts.
pub fn builtin_tetrio() -> Seed {
    Seed::parse(include_str!("../../seeds/tetrio-versus.json"))
        .expect("the bundled seed file parses")
}

/// Which game to play.
#[derive(clap::Args, Debug, Clone, Default, PartialEq)]
pub struct GameArgs {
    /// The game definition, a seed file (default: the built-in Tencent Geek 4 game; with
    /// --queue, --board or --tetrio-seed, TETR.IO's rules as played today: SRS+, attack as
    /// TETR.IO counts it, 1 000 pieces; `seeds/tetrio-versus.json`).
    #[arg(long)]
    pub seed: Option<PathBuf>,
    /// The pieces from TETR.IO's generator with seed N (its seeded 7-bag, as a custom room
    /// or a replay with that seed deals them), on the rules of --seed or of the built-in
    /// TETR.IO game.
    #[arg(long, value_name = "N", conflicts_with = "queue")]
    pub tetrio_seed: Option<i64>,
    /// The pieces, in order: letters IJLOSTZ (either case; spaces ignored). The game ends
    /// with the queue: on a guideline game the last letter is only the piece a hold into the
    /// empty slot may draw on the last lock (so N letters make N - 1 locks), and the previews
    /// shrink near the end; on the Tencent game every letter is a piece (the last never
    /// scores).
    #[arg(long, value_name = "LETTERS")]
    pub queue: Option<String>,
    /// The starting board: a fumen (`v115@...`, its first page's field; its pieces, comments
    /// and further pages are ignored), or a file holding a fumen or rows of text, top row
    /// first (`X` filled, `.` empty, 10 a row). No full row; at most the board's height.
    #[arg(long, value_name = "FUMEN|FILE")]
    pub board: Option<String>,
    /// The piece in the hold slot at the start (guideline games).
    #[arg(long, value_name = "PIECE")]
    pub hold: Option<String>,
    #[command(flatten)]
    pub nes: super::nes_args::NesArgs,
}

impl GameArgs {
    /// Whether any flag changes the game beyond `--seed`.
    pub fn changes_game(&self) -> bool {
        self.tetrio_seed.is_some()
            || self.queue.is_some()
            || self.board.is_some()
            || self.hold.is_some()
            || self.nes.given().is_some()
    }

    /// The game, checked.
    pub fn load(&self) -> Result<Seed> {
        if !self.changes_game() {
            return io::load_seed(self.seed.as_deref());
        }
        if self.nes.given().is_some() {
            let base = match &self.seed {
                Some(path) => io::load_seed(Some(path))?,
                None => super::nes_args::builtin_nes(),
            };
            return self.nes.apply(base, self.tetrio_flag());
        }
        let mut seed = match &self.seed {
            Some(path) => io::load_seed(Some(path))?,
            None => builtin_tetrio(),
        };
        if seed.rules == RuleSet::Nes {
            return self.nes.apply(seed, self.tetrio_flag());
        }
        if seed.rules == RuleSet::Standard {
            let flag = self.tetrio_flag().unwrap_or("--queue");
            return Err(Error(format!(
                "{flag}: the game {} plays the standard rules, which draw their pieces from a \
                 uniform generator on an empty board; --tetrio-seed, --queue, --board and \
                 --hold change Tencent and guideline games",
                seed.name
            )));
        }
        if let Some(n) = self.tetrio_seed {
            if !(1..1 << 31).contains(&n) {
                return Err(Error(format!(
                    "--tetrio-seed {n}: a TETR.IO seed is an integer from 1 to 2147483647"
                )));
            }
            // A game file of TETR.IO's options deals with its own `no_szo`, and its engine
            // with the seed in its options.
            let no_szo = matches!(seed.generator, Generator::Tetrio { no_szo: true, .. });
            seed.generator = Generator::Tetrio {
                seed: n as u64,
                no_szo,
            };
            if let Some(t) = seed.tetrio.as_mut() {
                t.options["seed"] = serde_json::json!(n);
            }
            seed.name = format!("tetrio-{n}");
        }
        // The queue, board and hold are checked by `settle` below, whose messages name the
        // flags.
        if let Some(queue) = &self.queue {
            seed.generator = Generator::Queue {
                pieces: queue.clone(),
            };
            seed.pieces = 0;
            seed.name = format!("queue-{}", tag(&queue.to_ascii_uppercase()));
        }
        if self.board.is_some() || self.hold.is_some() {
            let mut start = seed.start.clone().unwrap_or(Start {
                board: None,
                hold: None,
                combo: None,
                b2b: None,
            });
            if let Some(board) = &self.board {
                let text = board_text(board)?;
                seed.name = format!("{}-board-{}", seed.name, tag(&text));
                start.board = Some(BoardText::Text(text));
            }
            if let Some(hold) = &self.hold {
                seed.name = format!("{}-hold-{}", seed.name, hold.trim().to_ascii_uppercase());
                start.hold = Some(hold.trim().to_ascii_uppercase());
                if seed.pieces_from_queue {
                    // the hold piece is one more piece of the queue's game: count it again
                    seed.pieces = 0;
                }
            }
            seed.start = Some(start);
        }
        seed.settle().map_err(|e| {
            let text =
                e.0.replacen("generator.pieces:", "--queue:", 1)
                    .replacen(
                        "start.board:",
                        &format!(
                            "--board {}:",
                            self.board.as_deref().map_or(String::new(), board_label)
                        ),
                        1,
                    )
                    .replacen("start.hold:", "--hold:", 1);
            Error(text)
        })?;
        if seed.rules != RuleSet::Standard {
            crate::limits::check_pieces(&seed.name, seed.pieces)?;
        }
        Ok(seed)
    }

    /// The first of the flags that change Tencent and guideline games.
    fn tetrio_flag(&self) -> Option<&'static str> {
        super::first_given(&[
            (self.tetrio_seed.is_some(), "--tetrio-seed"),
            (self.queue.is_some(), "--queue"),
            (self.board.is_some(), "--board"),
            (self.hold.is_some(), "--hold"),
        ])
    }

    /// The game of a command that reads the record at `record` (`verify`, `show`): the
    /// flags' game, or when no flag names one, the game or results file beside the record
    /// (`RECORD` with `.json`), else the built-in game. A standard game has no records: its
    /// one-piece players play it (`play`), and the command that asked is named.
    pub fn load_with_records(&self, command: &str, record: &Path) -> Result<Seed> {
        let seed = if self.seed.is_none() && !self.changes_game() {
            io::seed_beside(record)?
        } else {
            self.load()?
        };
        if seed.rules == RuleSet::Standard {
            return Err(Error(format!(
                "{command} reads records of Tencent and guideline games; the game {} plays the \
                 standard rules, which have no records (`play` plays them)",
                seed.name
            )));
        }
        Ok(seed)
    }

    /// The flags that give this game again (for the command lines `tune --ask` writes).
    pub fn flags(&self) -> Vec<String> {
        let mut words = Vec::new();
        if let Some(seed) = &self.seed {
            words.extend(["--seed".to_string(), seed.display().to_string()]);
        }
        if let Some(n) = self.tetrio_seed {
            words.extend(["--tetrio-seed".to_string(), n.to_string()]);
        }
        for (flag, value) in [
            ("--queue", &self.queue),
            ("--board", &self.board),
            ("--hold", &self.hold),
        ] {
            if let Some(v) = value {
                words.extend([flag.to_string(), v.clone()]);
            }
        }
        words.extend(self.nes.flags());
        words
    }

    /// The input files the game was read from, for the checks that an output does not
    /// overwrite one.
    pub fn input_files(&self) -> Vec<(&'static str, &Path)> {
        let mut inputs = Vec::new();
        if let Some(seed) = &self.seed {
            inputs.push(("--seed", seed.as_path()));
        }
        if let Some(board) = &self.board {
            let path = Path::new(board);
            if !crate::fumen::holds_fumen(board) && path.is_file() {
                inputs.push(("--board", path));
            }
        }
        inputs
    }

    /// [`GameArgs::input_files`] and, when `file` names an existing file, that one too under
    /// `flag` (a weights name may be a preset's, which is no file).
    pub fn input_files_with<'a>(
        &'a self,
        flag: &'static str,
        file: Option<&'a Path>,
    ) -> Vec<(&'static str, &'a Path)> {
        let mut inputs = self.input_files();
        inputs.extend(file.filter(|f| f.is_file()).map(|f| (flag, f)));
        inputs
    }
}

/// How an error names the board: the file, or the fumen's first characters.
fn board_label(board: &str) -> String {
    if crate::fumen::holds_fumen(board) || crate::fumen::holds_old_fumen(board) {
        let short: String = board.chars().take(16).collect();
        if short.len() < board.len() {
            format!("{short}...")
        } else {
            short
        }
    } else {
        board.to_string()
    }
}

/// The board as text: the fumen given, or the file's content.
fn board_text(board: &str) -> Result<String> {
    if crate::fumen::holds_fumen(board) {
        return Ok(board.to_string());
    }
    let path = Path::new(board);
    if path.is_file() {
        let text = io::read_text(path)?;
        if text.trim().is_empty() {
            return Err(Error::at(path.display(), "--board: the file is empty"));
        }
        return Ok(text);
    }
    if crate::fumen::holds_old_fumen(board) {
        return Err(Error(format!(
            "--board {}: a fumen of version 110; beamtris reads version 115 (v115@...), \
             which any current fumen editor writes",
            board_label(board)
        )));
    }
    Err(Error(format!(
        "--board {board:?}: neither a fumen (v115@...) nor a file"
    )))
}

/// A short stable tag for a name: FNV-1a of the text, 8 hex digits.
fn tag(text: &str) -> String {
    format!("{:08x}", crate::io::fnv1a(text.as_bytes()) as u32)
}
