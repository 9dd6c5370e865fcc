//! Game definitions as data (`seeds/*.json`): the rule set, the piece generator with its seed
//! and parameters (or an explicit queue), the game's length and where it starts (a board, the
//! hold piece, combo and back-to-back), and a family's own part (TETR.IO's options and lock
//! times, a NES game's level, speed and line target). Another seed or length is a JSON edit.
//! [`GameDef`] is the whole game file (the files live in `seeds/` and `--seed` names one, for
//! history); a generator's own number is its `seed` field. [`GameDef::family`] is the game's
//! entry in the registry.

use crate::games::guideline::{self, ComboTable, Objective};
use crate::games::registry::{FamilyInfo, RuleSet};
use crate::games::srs::RotationSystem;
use crate::games::Piece;
use crate::piece::Shape;
use serde::{Deserialize, Serialize};
use std::path::Path;

pub use crate::limits::MAX_PIECES;

/// A game definition.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameDef {
    /// A short name for results files.
    pub name: String,
    /// The rule set: `tencent`, `standard`, `guideline` or `nes`.
    pub rules: RuleSet,
    /// Pieces in the game (locks, on a guideline game); the last one never scores under
    /// `tencent`. With a `queue` generator it may be left out: it is then what the queue
    /// allows (see [`Generator::Queue`]).
    #[serde(default)]
    pub pieces: usize,
    /// How the pieces are drawn.
    pub generator: Generator,
    /// How each piece's spawn rotation state is chosen.
    #[serde(default)]
    pub initial_state: InitialState,
    /// Guideline games: `srs` or `srs_plus` (default, TETR.IO's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rotation: Option<RotationSystem>,
    /// Guideline games: what the optimizer maximises, `points` or `attack` (default).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub objective: Option<Objective>,
    /// Guideline games: `guideline` (default) or `tetrio`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub combo_table: Option<ComboTable>,
    /// Where the game starts (default: an empty board, empty hold).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start: Option<Start>,
    /// Guideline games on TETR.IO's own engine and rules (`docs/tetrio.md`): the options of
    /// a TETR.IO game and, for an imported round, its lock times and garbage.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tetrio: Option<crate::games::tetrio::game::TetrioGame>,
    /// NES games (`rules: "nes"`): the starting level, the player's speed and the line
    /// target (`docs/nes.md`); the pieces then follow from the line target.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nes: Option<crate::games::nes::game::NesOptions>,
    /// `pieces` was left out and is what the queue allows: a hold piece added on the command
    /// line (`--hold`) then adds a lock, as it does for `--queue` and a file's `start.hold`.
    #[serde(skip)]
    pub pieces_from_queue: bool,
}

/// A starting position: the board, and on a guideline game the hold piece, the combo and
/// back-to-back.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Start {
    /// The first page of a fumen (`v115@...`), or rows of text top row first (`X` filled,
    /// `.` empty; a list of strings, or one string with a row a line).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub board: Option<BoardText>,
    /// The piece in the hold slot (guideline games).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hold: Option<String>,
    /// The combo counter: clears in a row so far, less one (guideline games; default -1, none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub combo: Option<i32>,
    /// Whether the last clear was a back-to-back kind (guideline games; default false).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub b2b: Option<bool>,
}

/// A board as the user wrote it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum BoardText {
    /// A fumen, or rows a line.
    Text(String),
    /// Rows, top first.
    Rows(Vec<String>),
}

/// A starting board, checked: filled cells by row from the bottom (bit `x` of `rows[y]`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StartBoard {
    pub rows: Vec<u16>,
}

/// A piece generator.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Generator {
    /// A linear congruential generator `x = (a x + c) mod m`, advanced before each piece (the
    /// seed itself is never used); the shape is picked by `x mod sum(weights)` against the
    /// cumulative weights, in the listed order.
    Lcg {
        a: u64,
        c: u64,
        m: u64,
        seed: u64,
        weights: Vec<(Shape, u64)>,
    },
    /// Seven shapes drawn uniformly and independently from a PCG-32 stream (`rand_pcg::Pcg32`
    /// seeded by `seed_from_u64`).
    Uniform { seed: u64 },
    /// TETR.IO's seeded 7-bag, bit for bit (SPEC §4): a Park-Miller generator shuffling
    /// `ZLOSIJT` with six draws a bag; `no_szo` rotates S, Z and O off the front of the first
    /// bag (40 LINES, BLITZ).
    Tetrio {
        seed: u64,
        #[serde(default)]
        no_szo: bool,
    },
    /// A plain 7-bag: each bag a Fisher-Yates shuffle of the seven shapes from a PCG-32 stream
    /// (`rand_pcg::Pcg32` seeded by `seed_from_u64`).
    Bag7 { seed: u64 },
    /// An explicit queue: the letters IJLOSTZ (either case; spaces ignored), dealt in order.
    /// The game ends with the queue: a `tencent` or `standard` game has one piece a letter; a
    /// guideline game one lock fewer than the letters, as the last letter is the piece a hold
    /// into the empty slot may draw on the last lock (the game always shows the next piece).
    Queue { pieces: String },
    /// TetrisGYM's seeded pieces (NES games): a seed of 6 hexadecimal digits, as GYM's menu
    /// takes it.
    Gym { seed: String },
}

/// TETR.IO's Park-Miller "minimal standard" generator.
struct ParkMiller(i64);

impl ParkMiller {
    const M: i64 = 2_147_483_647;

    fn new(seed: u64) -> ParkMiller {
        let mut t = (seed % Self::M as u64) as i64;
        if t <= 0 {
            t += Self::M - 1;
        }
        ParkMiller(t)
    }

    fn next(&mut self) -> i64 {
        self.0 = 16807 * self.0 % Self::M;
        self.0
    }

    fn float(&mut self) -> f64 {
        (self.next() - 1) as f64 / (Self::M - 1) as f64
    }
}

/// The first `n` shapes of TETR.IO's generator for `seed`.
fn tetrio_shapes(seed: u64, no_szo: bool, n: usize) -> Vec<Shape> {
    use Shape::*;
    let mut rng = ParkMiller::new(seed);
    let mut out = Vec::with_capacity(n + 7);
    let mut first = true;
    while out.len() < n {
        let mut bag = [Z, L, O, S, I, J, T];
        for i in (1..7).rev() {
            let r = (rng.float() * (i + 1) as f64).floor() as usize;
            bag.swap(i, r);
        }
        if first && no_szo {
            let mut turns = 0;
            while matches!(bag[0], S | Z | O) && turns < 7 {
                bag.rotate_left(1);
                turns += 1;
            }
        }
        first = false;
        out.extend_from_slice(&bag);
    }
    out.truncate(n);
    out
}

/// The first `n` shapes of a plain PCG-seeded 7-bag.
fn bag7_shapes(seed: u64, n: usize) -> Vec<Shape> {
    use rand::seq::SliceRandom;
    use rand::SeedableRng;
    let mut rng = rand_pcg::Pcg32::seed_from_u64(seed);
    let mut out = Vec::with_capacity(n + 7);
    while out.len() < n {
        let mut bag = Shape::ALL;
        bag.shuffle(&mut rng);
        out.extend_from_slice(&bag);
    }
    out.truncate(n);
    out
}

/// How the spawn rotation state of piece `k` is chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum InitialState {
    /// `k mod 4` (the Tencent game's `brickCount % 4`).
    #[default]
    IndexMod4,
    /// Always state 0.
    Zero,
}

/// A piece with the generator's raw number that chose it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Drawn {
    pub piece: Piece,
    pub random: u64,
}

/// Why a seed file was refused.
#[derive(Debug)]
pub struct GameDefError(pub String);

impl std::fmt::Display for GameDefError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}
impl std::error::Error for GameDefError {}

impl GameDef {
    /// The built-in Tencent Geek 4 definition (the same as `seeds/tencent-geek-4.json`).
    pub fn tencent_geek_4() -> GameDef {
        serde_json::from_str(include_str!("../seeds/tencent-geek-4.json"))
            .expect("the bundled seed file parses")
    }

    /// Reads and checks a seed file; errors name the file and the JSON place.
    pub fn load(path: &Path) -> Result<GameDef, GameDefError> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| GameDefError(format!("{}: {e}", path.display())))?;
        GameDef::parse(&text).map_err(|e| GameDefError(format!("{}: {}", path.display(), e.0)))
    }

    /// Parses and checks seed JSON.
    pub fn parse(text: &str) -> Result<GameDef, GameDefError> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let mut seed: GameDef = serde_json::from_str(text).map_err(|e| {
            // serde's words for a list ("invalid length 0, expected struct GameDef with 10
            // elements") say nothing to a user; read again only when the parse failed.
            match serde_json::from_str::<serde_json::Value>(text) {
                Ok(value) if !value.is_object() => GameDefError(
                    "a game file is a JSON object ({\"name\": ..., \"rules\": ..., \
                     \"pieces\": ..., \"generator\": ...}); this is not one"
                        .into(),
                ),
                _ => GameDefError(crate::error::json_error(&e)),
            }
        })?;
        seed.settle()?;
        Ok(seed)
    }

    /// Checks a seed built or changed in code (the command line's `--queue`, `--board`, ...)
    /// as a seed file is checked, and fills in what the queue implies.
    pub fn settle(&mut self) -> Result<(), GameDefError> {
        if self.rules == RuleSet::Nes {
            let options = self.nes.unwrap_or_default();
            options.check().map_err(GameDefError)?;
            self.nes = Some(options);
            self.pieces = options.pieces();
        }
        if let Generator::Queue { pieces } = &mut self.generator {
            let shapes =
                queue_shapes(pieces).map_err(|e| GameDefError(format!("generator.pieces: {e}")))?;
            *pieces = shapes.iter().map(|s| s.letter()).collect();
            // A guideline game's piece list is one longer than its locks; a starting hold
            // piece is one of its pieces.
            let held = self.start.as_ref().is_some_and(|s| s.hold.is_some()) as usize;
            let allowed = if self.rules == RuleSet::Guideline {
                shapes.len() + held - 1
            } else {
                shapes.len()
            };
            if self.rules == RuleSet::Tencent && allowed < 2 {
                return Err(GameDefError(
                    "generator.pieces: a Tencent game needs at least 2 pieces (its last piece \
                     is never placed, so one letter leaves nothing to search)"
                        .into(),
                ));
            }
            if self.pieces == 0 {
                if allowed == 0 {
                    return Err(GameDefError(
                        "generator.pieces: a guideline game needs at least 2 pieces (one lock \
                         and the piece after it, or the hold piece)"
                            .into(),
                    ));
                }
                self.pieces = allowed;
                self.pieces_from_queue = true;
            } else if self.pieces > allowed {
                return Err(GameDefError(format!(
                    "pieces: {} is more than the queue of {} allows ({allowed}{})",
                    self.pieces,
                    crate::limits::plural(shapes.len() as u64, "letter", "letters"),
                    if self.rules == RuleSet::Guideline {
                        "; a guideline game of N locks needs N + 1 pieces, the hold piece among them"
                    } else {
                        ""
                    }
                )));
            }
        }
        self.check()?;
        if let Some(start) = &self.start {
            self.check_start(start)?;
        }
        self.check_name()
    }

    /// A NES game deals TetrisGYM's pieces from an empty board, and only a NES game does.
    fn check_nes(&self) -> Result<(), GameDefError> {
        let gym = match &self.generator {
            Generator::Gym { seed } => Some(seed),
            _ => None,
        };
        if self.rules != RuleSet::Nes {
            if self.nes.is_some() {
                return Err(GameDefError(format!(
                    "nes: only NES games have it (this game's rules are {})",
                    self.rules
                )));
            }
            if gym.is_some() {
                return Err(GameDefError(format!(
                    "generator.kind: gym deals NES games (this game's rules are {})",
                    self.rules
                )));
            }
            return Ok(());
        }
        let Some(seed) = gym else {
            return Err(GameDefError(
                "generator: a NES game deals TetrisGYM's pieces: {\"kind\": \"gym\", \"seed\": \"1A2B3C\"}"
                    .into(),
            ));
        };
        crate::games::nes::gym::parse_gym_seed(seed)
            .map_err(|e| GameDefError(format!("generator.{e}")))?;
        if self.start.is_some() {
            return Err(GameDefError(
                "start: a NES game starts on an empty board".into(),
            ));
        }
        Ok(())
    }

    /// Checked last: the command line builds the name from `--queue`, `--board` and
    /// `--hold`, whose own checks say better what is wrong with them.
    fn check_name(&self) -> Result<(), GameDefError> {
        // The name becomes part of output file names (`runs/solve-NAME-...json`): a `/`, a
        // `..` or a newline there would put a run's files outside `runs/` or split its
        // messages.
        let name_ok = |c: char| c.is_ascii_alphanumeric() || "-_.".contains(c);
        if self.name.is_empty()
            || self.name.len() > 150
            || self.name.starts_with('.')
            || !self.name.chars().all(name_ok)
        {
            return Err(GameDefError(format!(
                "name: {:?} is not a usable name; give 1 to 150 letters, digits, '-', '_' or \
                 '.', not starting with '.' (it names the run's output files)",
                self.name
            )));
        }
        Ok(())
    }

    /// Rows of the board this game's rules play on.
    fn board_rows(&self) -> usize {
        if self.rules == RuleSet::Guideline {
            guideline::board::HEIGHT
        } else {
            crate::games::tencent::board::HEIGHT
        }
    }

    fn check_start(&self, start: &Start) -> Result<(), GameDefError> {
        if self.rules == RuleSet::Standard {
            return Err(GameDefError(
                "start: a standard game starts on an empty board (its players play one piece at \
                 a time from the literature's setting)"
                    .into(),
            ));
        }
        if self.rules == RuleSet::Tencent {
            for (field, set) in [
                ("hold", start.hold.is_some()),
                ("combo", start.combo.is_some()),
                ("b2b", start.b2b.is_some()),
            ] {
                if set {
                    return Err(GameDefError(format!(
                        "start.{field}: only guideline games have it (the tencent game has no \
                         hold, combo or back-to-back)"
                    )));
                }
            }
        }
        if let Some(hold) = &start.hold {
            hold_shape(hold).map_err(|e| GameDefError(format!("start.hold: {e}")))?;
        }
        if let Some(combo) = start.combo {
            if !(-1..=1000).contains(&combo) {
                return Err(GameDefError(format!(
                    "start.combo: {combo} (give -1 for none, or the clears in a row less one)"
                )));
            }
        }
        if let Some(board) = &start.board {
            let rows = self.board_rows();
            let parsed =
                parse_board(board, rows).map_err(|e| GameDefError(format!("start.board: {e}")))?;
            // A Tencent lock that leaves a cell in the top row ends the game unscored, so on
            // such a board no lock could ever score.
            if self.rules == RuleSet::Tencent && parsed.rows.len() == rows {
                return Err(GameDefError(format!(
                    "start.board: a cell in row {rows} from the bottom, the top row; a Tencent \
                     game ends at the first lock that leaves a cell there"
                )));
            }
        }
        Ok(())
    }

    /// The starting board's filled cells (empty when the game starts on an empty board).
    pub fn start_board(&self) -> StartBoard {
        match self.start.as_ref().and_then(|s| s.board.as_ref()) {
            Some(b) => parse_board(b, self.board_rows()).expect("checked when the seed was read"),
            None => StartBoard::default(),
        }
    }

    /// The Tencent (or standard) board the game starts on (row 0 at the top).
    pub fn tencent_start(&self) -> crate::games::tencent::board::Board {
        use crate::games::tencent::board::{Board, HEIGHT};
        let mut board = Board::EMPTY;
        for (y, &row) in self.start_board().rows.iter().enumerate() {
            board.set_row(HEIGHT - 1 - y, row);
        }
        board
    }

    /// The guideline state the game starts in: board, hold, combo, back-to-back.
    pub fn guideline_start(&self) -> guideline::State {
        let mut state = guideline::State::START;
        for (y, row) in self.start_board().rows.iter().enumerate() {
            for x in 0..guideline::board::WIDTH {
                if row >> x & 1 == 1 {
                    state.board.fill(x, y);
                }
            }
        }
        if let Some(start) = &self.start {
            state.hold = start
                .hold
                .as_deref()
                .map(|h| hold_shape(h).expect("checked when the seed was read"));
            state.combo = start.combo.unwrap_or(state.combo);
            state.b2b = start.b2b.unwrap_or(state.b2b);
        }
        state
    }

    fn check(&self) -> Result<(), GameDefError> {
        self.check_nes()?;
        if self.rules != RuleSet::Guideline {
            for (field, set) in [
                ("rotation", self.rotation.is_some()),
                ("objective", self.objective.is_some()),
                ("combo_table", self.combo_table.is_some()),
                ("tetrio", self.tetrio.is_some()),
            ] {
                if set {
                    return Err(GameDefError(format!(
                        "{field}: only guideline games have it (this game's rules are {})",
                        self.rules
                    )));
                }
            }
        }
        if let Some(t) = &self.tetrio {
            let o = crate::games::tetrio::options::Options::parse(&t.options, "tetrio")
                .map_err(|e| GameDefError(e.0))?;
            t.check()
                .map_err(|why| GameDefError(format!("tetrio.{why}")))?;
            match self.generator {
                Generator::Tetrio { seed, no_szo } if seed as i64 == o.seed && no_szo == o.no_szo => {}
                _ => {
                    return Err(GameDefError(format!(
                        "tetrio: a TETR.IO game needs the generator {{\"kind\": \"tetrio\", \"seed\": {}, \"no_szo\": {}}} of its options",
                        o.seed, o.no_szo
                    )))
                }
            }
            if self.start.is_some() {
                return Err(GameDefError("start: a TETR.IO game starts empty".into()));
            }
        }
        if let Generator::Tetrio { seed, .. } = self.generator {
            if !crate::games::tetrio::is_seed(seed) {
                return Err(GameDefError(format!(
                    "generator.seed: {seed} is not a TETR.IO seed ({})",
                    crate::games::tetrio::SEED_RULE
                )));
            }
        }
        if self.pieces == 0 {
            return Err(GameDefError("pieces: must be at least 1".into()));
        }
        if self.rules == RuleSet::Tencent && self.pieces < 2 {
            return Err(GameDefError(
                "pieces: a Tencent game needs at least 2 (its last piece is never placed)".into(),
            ));
        }
        if self.pieces > MAX_PIECES {
            return Err(GameDefError(format!(
                "pieces: {} is more than the {MAX_PIECES} a game may have",
                self.pieces
            )));
        }
        if let Generator::Lcg {
            m,
            weights,
            a,
            c,
            seed,
        } = &self.generator
        {
            if *m == 0 {
                return Err(GameDefError("generator.m: must be positive".into()));
            }
            if a.checked_mul(*m).and_then(|v| v.checked_add(*c)).is_none() {
                return Err(GameDefError("generator: a*m + c overflows 64 bits".into()));
            }
            if a.checked_mul(*seed)
                .and_then(|v| v.checked_add(*c))
                .is_none()
            {
                return Err(GameDefError(
                    "generator: a*seed + c overflows 64 bits (give a seed below m)".into(),
                ));
            }
            if weights
                .iter()
                .try_fold(0u64, |a, w| a.checked_add(w.1))
                .is_none()
            {
                return Err(GameDefError(
                    "generator.weights: the weights add up past 2^64 - 1".into(),
                ));
            }
            if weights.is_empty() || weights.iter().all(|w| w.1 == 0) {
                return Err(GameDefError(
                    "generator.weights: need a positive weight".into(),
                ));
            }
        }
        Ok(())
    }
    /// The TETR.IO game its records replay on: the game file's own (`tetrio`), or today's
    /// rules played alone on a TETR.IO generator's seed; `None` for a game of another
    /// generator. A start (board, hold) is the caller's to refuse: TETR.IO's games start
    /// empty.
    pub fn tetrio_game(&self) -> Option<crate::games::tetrio::game::TetrioGame> {
        use crate::games::tetrio::game::TetrioGame;
        match (&self.tetrio, &self.generator) {
            (Some(t), _) => Some(t.clone()),
            (None, Generator::Tetrio { seed, no_szo }) => {
                let mut t = TetrioGame::solo(*seed);
                t.options["no_szo"] = serde_json::Value::Bool(*no_szo);
                Some(t)
            }
            _ => None,
        }
    }

    /// The family this game belongs to, from the registry: a guideline game with TETR.IO's
    /// own options (`tetrio`) is TETR.IO's, any other by its rule set.
    pub fn family(&self) -> &'static FamilyInfo {
        let name = match self.rules {
            RuleSet::Guideline if self.tetrio.is_some() => "tetrio",
            rules => rules.name(),
        };
        crate::games::family_named(name).expect("every rule set has a family")
    }

    /// Whether an online player may count on 7-bags: the generators that deal them, and a
    /// given queue (a real game's, most likely 7-bags; the bag is only used while the pieces
    /// fit one).
    pub fn deals_seven_bags(&self) -> bool {
        matches!(
            self.generator,
            Generator::Tetrio { .. } | Generator::Bag7 { .. } | Generator::Queue { .. }
        )
    }

    /// The pieces a search can place: all of them, but a Tencent game's last one, which
    /// never scores.
    pub fn placeable_pieces(&self) -> usize {
        match self.rules {
            RuleSet::Tencent => self.pieces.saturating_sub(1),
            _ => self.pieces,
        }
    }

    /// The guideline settings of a `guideline` game (`None` for the other rule sets), with the
    /// defaults filled in: SRS+, attack, the guideline combo table.
    pub fn guideline_rules(&self) -> Option<guideline::Rules> {
        (self.rules == RuleSet::Guideline).then(|| guideline::Rules {
            rotation: self.rotation.unwrap_or(RotationSystem::SrsPlus),
            objective: self.objective.unwrap_or(Objective::Attack),
            combo_table: self.combo_table.unwrap_or(ComboTable::Guideline),
            top: guideline::TopOut::Guideline,
        })
    }

    /// The game this seed defines, when it is a guideline game. A starting hold piece comes
    /// first in the game's piece list, as if it had been drawn and held: the engine finds the
    /// piece in play from the locks made and whether the slot is full.
    pub fn guideline_game(&self) -> Option<guideline::replay::GuidelineGame> {
        let rules = self.guideline_rules()?;
        let start = self.guideline_start();
        let mut pieces: Vec<Shape> = start.hold.into_iter().collect();
        pieces.extend(self.shapes(self.pieces + 1 - pieces.len()));
        Some(guideline::replay::GuidelineGame {
            rules,
            length: self.pieces,
            pieces,
            start,
        })
    }

    /// The first `n` shapes the generator deals (it is a stream: a guideline game of N locks
    /// may draw N + 1 pieces when it holds).
    pub fn shapes(&self, n: usize) -> Vec<Shape> {
        match &self.generator {
            Generator::Tetrio { seed, no_szo } => tetrio_shapes(*seed, *no_szo, n),
            Generator::Gym { seed } => crate::games::nes::gym::gym_pieces(
                crate::games::nes::gym::parse_gym_seed(seed)
                    .expect("checked when the seed was read"),
            )
            .take(n)
            .collect(),
            Generator::Bag7 { seed } => bag7_shapes(*seed, n),
            Generator::Queue { pieces } => queue_shapes(pieces)
                .expect("checked when the seed was read")
                .into_iter()
                .take(n)
                .collect(),
            _ => self.draw_n(n).into_iter().map(|d| d.piece.shape).collect(),
        }
    }

    /// What makes `other` another game than this one, in words (`None`: the same game). A
    /// game is its rules, its pieces (the generator) and its start, and a TETR.IO game its
    /// options as the engine reads them; not its name, its length, a TETR.IO player's
    /// handling or an import's lock times and keys.
    pub fn differs_from(&self, other: &GameDef) -> Option<String> {
        let text = |x: serde_json::Result<serde_json::Value>| x.unwrap_or_default().to_string();
        let fields = |s: &GameDef| -> Vec<(&'static str, String)> {
            let options = s.tetrio.as_ref().map(|t| {
                t.parsed_options("the game").map(|mut o| {
                    o.handling = crate::games::tetrio::options::Handling {
                        arr: 0.,
                        das: 0.,
                        dcd: 0.,
                        sdf: 0.,
                        safelock: false,
                        cancel: false,
                        may20g: false,
                        irs_hold: false,
                        ihs_hold: false,
                    };
                    format!("{o:?}")
                })
            });
            vec![
                ("rules", s.rules.to_string()),
                (
                    "generator (its pieces)",
                    text(serde_json::to_value(&s.generator)),
                ),
                ("initial_state", text(serde_json::to_value(s.initial_state))),
                (
                    "rotation",
                    text(serde_json::to_value(
                        s.rotation
                            .unwrap_or(crate::games::srs::RotationSystem::SrsPlus),
                    )),
                ),
                ("objective", text(serde_json::to_value(s.objective))),
                ("combo_table", text(serde_json::to_value(s.combo_table))),
                ("start", text(serde_json::to_value(&s.start))),
                ("TETR.IO options", format!("{options:?}")),
            ]
        };
        let (a, b) = (fields(self), fields(other));
        let (name, this, that) = a
            .into_iter()
            .zip(b)
            .find(|(x, y)| x != y)
            .map(|((name, x), (_, y))| (name, x, y))?;
        Some(if this.len() + that.len() < 100 {
            format!("its {name} is {that}, not {this}")
        } else {
            format!("its {name} differ")
        })
    }

    /// The whole piece sequence.
    pub fn pieces(&self) -> Vec<Piece> {
        self.draw().into_iter().map(|d| d.piece).collect()
    }

    /// The whole sequence with each piece's raw random number.
    pub fn draw(&self) -> Vec<Drawn> {
        self.draw_n(self.pieces)
    }

    /// The first `n` pieces with each piece's raw random number (for the bag generators, the
    /// shape's index).
    fn draw_n(&self, n: usize) -> Vec<Drawn> {
        let state_of = |k: usize| match self.initial_state {
            InitialState::IndexMod4 => (k % 4) as u8,
            InitialState::Zero => 0,
        };
        match &self.generator {
            Generator::Lcg {
                a,
                c,
                m,
                seed,
                weights,
            } => {
                let total: u64 = weights.iter().map(|w| w.1).sum();
                let mut x = *seed;
                (0..n)
                    .map(|k| {
                        x = (x * a + c) % m;
                        let mut w = x % total;
                        let mut shape = weights[weights.len() - 1].0;
                        for &(s, weight) in weights {
                            if w < weight {
                                shape = s;
                                break;
                            }
                            w -= weight;
                        }
                        Drawn {
                            piece: Piece {
                                shape,
                                state: state_of(k),
                            },
                            random: x,
                        }
                    })
                    .collect()
            }
            Generator::Uniform { seed } => {
                use rand::{Rng, SeedableRng};
                let mut rng = rand_pcg::Pcg32::seed_from_u64(*seed);
                (0..n)
                    .map(|k| {
                        let r: u32 = rng.gen_range(0..7);
                        Drawn {
                            piece: Piece {
                                shape: Shape::from_index(r as usize),
                                state: state_of(k),
                            },
                            random: r as u64,
                        }
                    })
                    .collect()
            }
            Generator::Tetrio { .. }
            | Generator::Bag7 { .. }
            | Generator::Queue { .. }
            | Generator::Gym { .. } => self
                .shapes(n)
                .into_iter()
                .enumerate()
                .map(|(k, shape)| Drawn {
                    piece: Piece {
                        shape,
                        state: state_of(k),
                    },
                    random: shape.index() as u64,
                })
                .collect(),
        }
    }
}

/// The shapes of a queue: the letters IJLOSTZ in either case, spaces ignored. An error names
/// the first bad letter and its place (1-based, spaces not counted).
pub fn queue_shapes(text: &str) -> Result<Vec<Shape>, String> {
    let mut shapes = Vec::with_capacity(text.len());
    for c in text.chars().filter(|c| !c.is_whitespace()) {
        match Shape::from_letter(c.to_ascii_uppercase()) {
            Some(s) => shapes.push(s),
            None => {
                return Err(format!(
                    "letter {} ({c:?}) is not one of IJLOSTZ",
                    shapes.len() + 1
                ))
            }
        }
    }
    if shapes.is_empty() {
        return Err("the queue is empty (give the pieces as letters IJLOSTZ)".into());
    }
    Ok(shapes)
}

/// The hold piece: one letter of IJLOSTZ, either case.
pub fn hold_shape(text: &str) -> Result<Shape, String> {
    let mut chars = text.trim().chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) => Shape::from_letter(c.to_ascii_uppercase())
            .ok_or_else(|| format!("{text:?} is not one of IJLOSTZ")),
        _ => Err(format!("{text:?}: give one letter of IJLOSTZ")),
    }
}

/// A board from a fumen's first page or from rows of text, on a board of `height` rows:
/// every row 10 cells, none full, none above the board.
pub fn parse_board(board: &BoardText, height: usize) -> Result<StartBoard, String> {
    let rows = match board {
        BoardText::Text(t) if t.trim().is_empty() => {
            return Err("empty (give a fumen v115@... or rows of X and .)".into())
        }
        BoardText::Text(t) if crate::fumen::holds_fumen(t) => {
            if t.lines().filter(|l| !l.trim().is_empty()).count() > 1 {
                return Err(
                    "holds a fumen and other lines; give either a fumen or rows of X and .".into(),
                );
            }
            fumen_rows(t)?
        }
        BoardText::Text(t) => {
            // Blank lines before and after the rows are layout; between them they would
            // close the board up by a row, so they are refused.
            let lines: Vec<&str> = t.lines().collect();
            let first = lines.iter().position(|l| !l.trim().is_empty());
            let last = lines.iter().rposition(|l| !l.trim().is_empty());
            match (first, last) {
                (Some(a), Some(b)) => text_rows(&lines[a..=b])?,
                _ => text_rows(&[])?,
            }
        }
        BoardText::Rows(rows) => text_rows(&rows.iter().map(|r| r.as_str()).collect::<Vec<_>>())?,
    };
    const FULL: u16 = (1 << 10) - 1;
    if let Some(y) = rows.iter().position(|&r| r == FULL) {
        return Err(format!(
            "row {} from the bottom is full (a starting board has no full row)",
            y + 1
        ));
    }
    if let Some(top) = rows.iter().rposition(|&r| r != 0) {
        if top >= height {
            return Err(format!(
                "a cell in row {} from the bottom, above the board's {height} rows",
                top + 1
            ));
        }
    }
    let mut rows = rows;
    while rows.last() == Some(&0) {
        rows.pop();
    }
    Ok(StartBoard { rows })
}

/// Rows of text, top first: `X`, `#`, `G` or a piece letter filled, `.` or `_` empty.
fn text_rows(lines: &[&str]) -> Result<Vec<u16>, String> {
    let lines: Vec<&str> = lines.iter().map(|l| l.trim()).collect();
    if lines.is_empty() {
        return Err("no rows (give a fumen v115@... or rows of X and .)".into());
    }
    let mut rows = Vec::with_capacity(lines.len());
    for (i, line) in lines.iter().enumerate().rev() {
        let at = format!("row {} from the top", i + 1);
        let cells: Vec<char> = line.chars().collect();
        if cells.len() != 10 {
            return Err(format!(
                "{at} has {} cells (a row has 10): {line:?}",
                cells.len()
            ));
        }
        let mut row = 0u16;
        for (x, c) in cells.into_iter().enumerate() {
            match c.to_ascii_uppercase() {
                '.' | '_' => {}
                'X' | '#' | 'G' | 'I' | 'J' | 'L' | 'O' | 'S' | 'T' | 'Z' => row |= 1 << x,
                _ => {
                    return Err(format!(
                        "{at}, column {}: {c:?} is neither filled (X) nor empty (.)",
                        x + 1
                    ))
                }
            }
        }
        rows.push(row);
    }
    Ok(rows)
}

/// The field of a fumen's first page (its piece, comment and further pages ignored), rows
/// from the bottom; the garbage row below the field is not part of the board.
fn fumen_rows(text: &str) -> Result<Vec<u16>, String> {
    let first = crate::fumen::first_page(text).map_err(|e| e.to_string())?;
    let mut rows = Vec::with_capacity(crate::fumen::FIELD_TOP);
    for y in 0..crate::fumen::FIELD_TOP as i32 {
        let mut row = 0u16;
        for x in 0..10 {
            if first.field.get(x, y) != crate::fumen::Kind::Empty {
                row |= 1 << x;
            }
        }
        rows.push(row);
    }
    Ok(rows)
}

#[cfg(test)]
mod guideline_tests {
    use super::*;

    fn letters(shapes: &[Shape]) -> String {
        shapes.iter().map(|s| s.letter()).collect()
    }

    #[test]
    fn tetrio_generator_matches_the_check_values() {
        assert_eq!(
            letters(&tetrio_shapes(1742887628, false, 21)),
            "ZLIOJTSITJLOZSSJTOLIZ"
        );
        assert_eq!(
            letters(&tetrio_shapes(1554295831, false, 21)),
            "LOJTZISOIZTSLJSIJZOTL"
        );
        // no_szo rotates only the first bag, drawing nothing extra
        let plain = tetrio_shapes(1742887628, false, 21);
        let rotated = tetrio_shapes(1742887628, true, 21);
        assert_eq!(letters(&rotated[..7]), "LIOJTSZ");
        assert_eq!(rotated[7..], plain[7..]);
    }

    #[test]
    fn bags_hold_each_shape_once() {
        for shapes in [tetrio_shapes(12345, false, 700), bag7_shapes(7, 700)] {
            for bag in shapes.chunks(7) {
                let mut b = bag.to_vec();
                b.sort();
                assert_eq!(b, Shape::ALL.to_vec());
            }
        }
    }

    #[test]
    fn a_board_s_rows_are_taken_as_written() {
        let text = |t: &str| parse_board(&BoardText::Text(t.into()), 20);
        let rows = |r: &[&str]| {
            parse_board(
                &BoardText::Rows(r.iter().map(|s| s.to_string()).collect()),
                20,
            )
        };
        // Blank lines around the rows are layout.
        assert_eq!(
            text("\nX.........\nXX........\n\n").unwrap().rows,
            [0b11, 0b1]
        );
        // Between them they are refused, not closed up.
        let gap = text("X.........\n\nXX........").unwrap_err();
        assert!(gap.starts_with("row 2 from the top has 0 cells"), "{gap}");
        let empty = rows(&["X.........", ""]).unwrap_err();
        assert!(
            empty.starts_with("row 2 from the top has 0 cells"),
            "{empty}"
        );
        let mixed = text("X.........\nv115@HhB8CeH8AeH8AeG8JexCJvhAAAA").unwrap_err();
        assert!(
            mixed.starts_with("holds a fumen and other lines"),
            "{mixed}"
        );
    }

    #[test]
    fn a_name_that_is_not_a_file_name_part_is_refused() {
        let named = |name: &str| {
            GameDef::parse(&format!(
                r#"{{"name": {}, "rules": "tencent", "pieces": 10,
                   "generator": {{"kind": "bag7", "seed": 5}}}}"#,
                serde_json::to_string(name).unwrap()
            ))
        };
        assert!(named("cc2-1-attack").is_ok());
        for not_an_object in ["[]", "\"x\"", "3"] {
            let err = GameDef::parse(not_an_object).unwrap_err().0;
            assert!(err.starts_with("a game file is a JSON object"), "{err}");
        }
        assert!(named("r1-user_name.v2").is_ok());
        for bad in [
            "/../../escaped",
            "../x",
            "a/b",
            "a\nb",
            "",
            ".hidden",
            &"x".repeat(151),
        ] {
            let err = named(bad).unwrap_err().0;
            assert!(err.starts_with("name: "), "{bad:?}: {err}");
            assert!(!err.contains('\n'), "{err:?}");
        }
    }

    #[test]
    fn guideline_fields_are_checked() {
        let game = |extra: &str| {
            GameDef::parse(&format!(
                r#"{{"name": "g", "rules": "guideline", "pieces": 10,
                   "generator": {{"kind": "tetrio", "seed": 1}}{extra}}}"#
            ))
        };
        let rules = game("").unwrap().guideline_rules().unwrap();
        assert_eq!(rules.rotation, RotationSystem::SrsPlus);
        assert_eq!(rules.objective, Objective::Attack);
        let g = game(r#", "rotation": "srs", "objective": "points", "combo_table": "tetrio""#)
            .unwrap()
            .guideline_rules()
            .unwrap();
        assert_eq!(
            (g.rotation, g.objective, g.combo_table),
            (RotationSystem::Srs, Objective::Points, ComboTable::Tetrio)
        );
        assert!(game(r#", "rotation": "ars""#)
            .unwrap_err()
            .0
            .contains("ars"));
        assert!(game(r#", "combo_table": "x""#).is_err());
        let zero = GameDef::parse(
            r#"{"name": "g", "rules": "guideline", "pieces": 10,
                "generator": {"kind": "tetrio", "seed": 0}}"#,
        );
        assert!(zero.unwrap_err().0.contains("0 is not a TETR.IO seed"));
        let too_large = GameDef::parse(
            r#"{"name": "g", "rules": "guideline", "pieces": 10,
                "generator": {"kind": "tetrio", "seed": 2147483648}}"#,
        );
        assert!(too_large
            .unwrap_err()
            .0
            .contains("2147483648 is not a TETR.IO seed (an integer from 1 to 2147483647)"));
        let tencent_with_rotation = GameDef::parse(
            r#"{"name": "g", "rules": "tencent", "pieces": 10, "rotation": "srs",
                "generator": {"kind": "uniform", "seed": 0}}"#,
        );
        assert!(tencent_with_rotation
            .unwrap_err()
            .0
            .contains("only guideline"));
    }
}
