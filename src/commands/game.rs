//! The game a command plays, as every command that takes one reads it: a seed file, or the
//! built-in games changed by `--tetrio-seed`, `--queue`, `--board` and `--hold`. Checked
//! whole before any search, each error naming the flag and the place.

use crate::error::{Error, Result};
use crate::game_def::{BoardText, GameDef, Generator, Start};
use crate::games::registry::RuleSet;
use crate::io;
use std::path::{Path, PathBuf};

/// The built-in TETR.IO game (the same as `seeds/tetrio-versus.json`): TETR.IO's rules as
/// played today (SRS+, attack with TETR.IO's combo multiplier and back-to-back chain bonus,
/// 1 000 pieces), the rules of `--tetrio-seed`, `--queue` and `--board` without `--seed`, so
/// a TETR.IO player's seed is solved for the attack TETR.IO counts.
pub fn builtin_tetrio() -> GameDef {
    GameDef::parse(include_str!("../../seeds/tetrio-versus.json"))
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
    /// TETR.IO games timed with levels (BLITZ): the pace in pieces a second, which fixes
    /// the pieces placed (the pace times the game's time) and when each locks, so the gravity
    /// each piece meets. `solve` searches at it; `verify`, `show` and `export` play the record
    /// at it (default: the pace of the solve beside the record, else the game file's own, an
    /// import's pieces over its time, else 2). On other TETR.IO games `export` times its keys
    /// by it.
    #[arg(long, value_name = "P", allow_negative_numbers = true)]
    pub pps: Option<f64>,
    #[command(flatten)]
    pub nes: super::nes_args::NesArgs,
}

impl GameArgs {
    /// Whether any flag changes the game beyond `--seed` (the pace aside: a solve's results
    /// file holds the paced game either way).
    pub fn changes_game(&self) -> bool {
        self.tetrio_seed.is_some()
            || self.queue.is_some()
            || self.board.is_some()
            || self.hold.is_some()
            || self.nes.given().is_some()
    }

    /// The game flags given, each with its value as the user wrote it (`--queue IOT`), in
    /// the registry's order.
    pub fn given(&self) -> Vec<(&'static str, String)> {
        let mut given = Vec::new();
        let mut add = |flag: &'static str, value: Option<String>| {
            if let Some(v) = value {
                given.push((flag, v));
            }
        };
        add(
            "--tetrio-seed",
            self.tetrio_seed.map(|n| format!("--tetrio-seed {n}")),
        );
        add(
            "--queue",
            self.queue.as_ref().map(|q| format!("--queue {q}")),
        );
        add(
            "--board",
            self.board
                .as_ref()
                .map(|b| format!("--board {}", board_label(b))),
        );
        add("--hold", self.hold.as_ref().map(|h| format!("--hold {h}")));
        add(
            "--pps",
            self.pps
                .map(|p| format!("--pps {}", crate::limits::short_number(p))),
        );
        add(
            "--gym-seed",
            self.nes
                .gym_seed
                .as_ref()
                .map(|g| format!("--gym-seed {g}")),
        );
        add("--level", self.nes.level.map(|l| format!("--level {l}")));
        add("--tap-hz", self.nes.tap_hz.map(|h| format!("--tap-hz {h}")));
        add("--das", self.nes.das.then(|| "--das".to_string()));
        add("--lines", self.nes.lines.map(|l| format!("--lines {l}")));
        add(
            "--killscreen-x2",
            self.nes
                .killscreen_x2
                .map(|l| format!("--killscreen-x2 {l}")),
        );
        given
    }

    /// The game, checked: the game file, or the built-in game of the family the flags belong
    /// to, changed by the flags. A flag the game's family does not take is refused, naming
    /// the flag and the family; a flag that would change a built-in game no flag names
    /// (`--level 18` alone) is refused, naming the flags that do.
    pub fn load(&self) -> Result<GameDef> {
        let given = self.given();
        let seed = match &self.seed {
            Some(path) => io::load_seed(Some(path))?,
            None => match builtin_for(&given)? {
                Some(seed) => seed,
                None => io::load_seed(None)?,
            },
        };
        let family = seed.family();
        if let Some((flag, text)) = given.iter().find(|(flag, _)| !family.takes(flag)) {
            return Err(Error(format!(
                "{text}: the game {} is a {} game, which does not take {flag} (its flags: {})",
                seed.name,
                family.title,
                family.flags()
            )));
        }
        if seed.rules == RuleSet::Nes {
            return self.nes.apply(seed);
        }
        if !self.changes_game() {
            return Ok(seed);
        }
        self.apply_guideline_flags(seed)
    }

    /// The game of a command that reads the record at `record` (`verify`, `show`, `export`):
    /// the flags' game, or when no flag names one, the game or results file beside the
    /// record (`RECORD` with `.json`), else the built-in game. When the flags name the game
    /// the file beside was solved on, that file's game is the one played (a solve's results
    /// file holds it at the solve's pace), so the record verifies, shows and exports the same
    /// however its game is named; when they name another game, the first piece that differs
    /// is named. A standard game has no records: its one-piece players play it (`play`).
    pub fn load_for_record(&self, command: &str, record: &Path) -> Result<GameDef> {
        // The flags' game first: a mistake in them is named before the record is read.
        let named = self.seed.is_some() || self.changes_game();
        let given = if named {
            Some(self.paced(command, self.load()?)?)
        } else {
            None
        };
        if let Some(game) = &given {
            refuse_standard(command, game)?;
        }
        if !record.exists() {
            return Err(Error::at(
                record.display(),
                "no such file (the record to read)",
            ));
        }
        let beside = io::game_beside(record)?;
        let seed = match (given, beside) {
            (None, Some((game, _))) => self.paced(command, game)?,
            (None, None) => self.load()?,
            (Some(game), None) => game,
            (Some(game), Some((solved, path))) if solved.rules != game.rules => {
                return Err(Error::at(
                    record.display(),
                    format!(
                        "the record's game ({}) plays the {} rules, the game given the {} \
                         rules: the record is not of this game",
                        path.display(),
                        solved.rules,
                        game.rules
                    ),
                ))
            }
            (Some(game), Some((solved, path))) => match first_difference(&solved, &game) {
                // The game the record was solved on, at its solve's pace.
                None if self.pps.is_none() => solved,
                None => game,
                Some((k, dealt, given)) => {
                    return Err(Error::at(
                        record.display(),
                        format!(
                            "piece {}: the record's game ({}) deals {dealt}, the game given \
                             deals {given}: the record is not of this game",
                            k + 1,
                            path.display(),
                        ),
                    ))
                }
            },
        };
        refuse_standard(command, &seed)?;
        Ok(seed)
    }

    /// `game` at `--pps` when given: a BLITZ game at that pace; another TETR.IO game as it is
    /// for `export` (which times its keys by the pace), refused by the commands that replay.
    fn paced(&self, command: &str, game: GameDef) -> Result<GameDef> {
        let Some(pps) = self.pps else {
            return Ok(game);
        };
        match crate::family::TetrioFamily::paced_game(&game, pps)? {
            Some(paced) => Ok(paced),
            None if command == "export" => Ok(game),
            None => Err(Error(format!(
                "--pps {}: the game {} is not a timed TETR.IO game with levels (BLITZ): its \
                 replay does not depend on a pace (export takes --pps as its keys' pace)",
                crate::limits::short_number(pps),
                game.name
            ))),
        }
    }

    /// `e`, an error reading the record at `record`, with what the user can do when the game
    /// was the built-in one only because nothing named another.
    pub fn explain(&self, record: &Path, e: Error) -> Error {
        // Only a record the Tencent grammar refuses: a file that cannot be read is named as it is.
        if !self.defaulted_for(record) || !e.0.contains(": token ") {
            return e;
        }
        Error(format!(
            "{}; nothing beside it names its game ({} is not there), so it was read as a \
             record of the built-in Tencent game: give its game with --seed (or \
             --tetrio-seed, --gym-seed)",
            e.0,
            record.with_extension("json").display()
        ))
    }

    /// Whether the record's game came from no flag and no file: the built-in game, taken
    /// because nothing beside `record` names another (for a message that says so when the
    /// record does not read as the built-in game's).
    pub fn defaulted_for(&self, record: &Path) -> bool {
        self.seed.is_none()
            && !self.changes_game()
            && self.pps.is_none()
            && !record.with_extension("json").is_file()
    }

    /// The flags that change Tencent and guideline games, applied to `seed`.
    fn apply_guideline_flags(&self, mut seed: GameDef) -> Result<GameDef> {
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
        if let Some(p) = self.pps {
            words.extend(["--pps".to_string(), crate::limits::short_number(p)]);
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

/// A standard game has no records: its one-piece players play it (`play`).
fn refuse_standard(command: &str, seed: &GameDef) -> Result<()> {
    if seed.rules == RuleSet::Standard {
        return Err(Error(format!(
            "{command} reads records of Tencent, guideline, TETR.IO and NES games; the game \
             {} plays the standard rules, which have no records (`play` plays them)",
            seed.name
        )));
    }
    Ok(())
}

/// The built-in game the given flags belong to when no `--seed` is given: `--gym-seed` (which
/// names the pieces) gives the built-in NES game with that seed, the guideline flags (which
/// give the pieces or the board) the built-in TETR.IO game, TETR.IO's rules as played today
/// (`--help` says so); `--pps` alone, or no flag, gives none (the built-in Tencent game, which
/// the family check then holds the flags against). A NES flag without `--gym-seed` changes a
/// game no flag names, and is refused.
fn builtin_for(given: &[(&'static str, String)]) -> Result<Option<GameDef>> {
    let nes = &crate::games::nes::family::FAMILY;
    if let Some((_, text)) = given.iter().find(|(flag, _)| nes.takes(flag)) {
        if !given.iter().any(|(flag, _)| *flag == "--gym-seed") {
            return Err(Error(format!(
                "{text}: which NES game? give --gym-seed HEX (TetrisGYM's pieces for that seed) \
                 or --seed GAME ({} is TetrisGYM seed 123456, level 18, 30 Hz, 230 lines)",
                nes.builtin
            )));
        }
        return Ok(Some(super::nes_args::builtin_nes()));
    }
    if given.iter().all(|(flag, _)| *flag == "--pps") {
        return Ok(None);
    }
    Ok(Some(builtin_tetrio()))
}

/// The first piece (from 0) that two games deal differently, among the pieces both deal,
/// with the letter each deals there.
fn first_difference(a: &GameDef, b: &GameDef) -> Option<(usize, char, char)> {
    let n = a.pieces.min(b.pieces) + 1;
    let (x, y) = (a.shapes(n), b.shapes(n));
    let k = x.iter().zip(&y).position(|(p, q)| p != q)?;
    Some((k, x[k].letter(), y[k].letter()))
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
