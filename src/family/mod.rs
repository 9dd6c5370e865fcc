//! The one game abstraction the commands are written over, and the flows written once over
//! it: `solve` ([`solve::solve`]); `verify`, `show` and `tune` call [`Family`]'s methods
//! directly.
//!
//! A family's rules live in its folder under `src/games/` (board, pieces, moves, replay,
//! scoring), its evaluator under `src/eval/`, and its beam state under `src/search/`. This
//! module joins them: [`Family`] is what a command may ask of any family, one `impl` a family
//! (`tencent.rs`, `guideline.rs`, `tetrio.rs`, `standard.rs`,
//! `nes.rs`), and [`open`] is the one registration,
//! where a seed file's `rules` picks the family. Commands call [`with_game!`] once and are
//! otherwise the same for every family. The beam's hot loop stays monomorphised: a family's
//! search is generic code ([`crate::search::beam::BeamGame`]) called from its impl here.

mod export;
mod guideline;
mod nes;
pub mod solve;
mod standard;
mod tencent;
mod tetrio;

pub use guideline::{weights_name as guideline_weights_name, GuidelineFamily};
pub use nes::NesFamily;
pub use standard::StandardFamily;
pub use tencent::TencentFamily;
pub use tetrio::TetrioFamily;

use crate::error::Result;
use crate::game_def::GameDef;
use crate::search::beam::StepReport;
use crate::search::tuning::TuneScorer as Tuning;
use crate::search::width::Width;
use crate::show::frames::Replay;
use serde::Serialize;
use std::path::Path;
use std::sync::atomic::AtomicBool;

/// What every command may ask of a game family: read and replay its records, draw them,
/// search it, tune its evaluator. Each family answers for itself, with its own record
/// grammar, statistics and results file.
pub trait Family: Sync {
    /// A record of this family, read and checked against the game.
    type Record;
    /// What `verify` prints: the replayed outcome and the family's statistics.
    type Verified: Serialize;
    /// The settings a solve has chosen (weights, width, out path...).
    type Plan: Sync;
    /// The best line a search found.
    type Found: Send;
    /// What `tune` scores candidates with.
    type Tuning: Tuning;

    /// The game definition it plays.
    fn seed(&self) -> &GameDef;

    /// Reads the record file `path` (`command` names the command for a family without
    /// records).
    fn read_record(&self, path: &Path, command: &str) -> Result<Self::Record>;

    /// Replays `record` to its verified outcome; with `trace`, each lock's line of JSON goes
    /// to it first. `place` names the record in errors.
    fn verify(
        &self,
        record: &Self::Record,
        place: &str,
        trace: Option<&mut dyn FnMut(String)>,
    ) -> Result<Self::Verified>;

    /// The board after `at` pieces (default: the last) as text.
    fn board_text(&self, record: &Self::Record, at: Option<usize>) -> Result<String>;

    /// Every frame of the replay, for the animation, the fumen pages and the HTML page.
    fn frames(&self, record: &Self::Record) -> Result<Replay>;

    /// Checks a solve's settings against the game and chooses what is left to choose.
    fn plan(&self, request: &solve::Request) -> Result<solve::Plan<Self::Plan>>;

    /// Searches the game as `plan` says, at `width`, until done or `stop`.
    fn search(
        &self,
        plan: &solve::Plan<Self::Plan>,
        width: Width,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(&StepReport),
    ) -> Self::Found;

    /// Writes the found line's record to `record_file`, replays it, and gives the results
    /// file and the summary lines; `None` when the search found no line at all.
    fn report(
        &self,
        plan: &solve::Plan<Self::Plan>,
        found: Self::Found,
        record_file: &Path,
        finish: &dyn Fn() -> solve::Finish,
    ) -> Result<Option<solve::Solved>>;

    /// The candidate scorer of `tune` on the first `pieces` pieces (online play seeing
    /// `previews` pieces where the family plays online).
    fn tuning(&self, pieces: usize, previews: Option<usize>) -> Result<Self::Tuning>;

    /// Hands `record` back to the game's own replay format (`export`), its keys at `pps`
    /// pieces a second where the game has no pace of its own; `record_place` and
    /// `game_place` name the inputs in errors. A family that has no such format refuses, in
    /// the registry's words.
    fn export(
        &self,
        _record: &Self::Record,
        _pps: Option<f64>,
        _record_place: &str,
        _game_place: &str,
    ) -> Result<crate::games::tetrio::export::Exported> {
        let seed = self.seed();
        Err(seed
            .family()
            .refuse(crate::games::registry::Capability::Export, &seed.name))
    }
}

/// A game of one of the families beamtris knows.
pub enum AnyFamily {
    Tencent(TencentFamily),
    Guideline(Box<GuidelineFamily>),
    /// A game file with TETR.IO's own options (an imported round, a solo mode).
    Tetrio(Box<TetrioFamily>),
    Standard(StandardFamily),
    /// A NES game of TetrisGYM's seeded pieces.
    Nes(Box<NesFamily>),
}

/// The one registration: the family a seed file's `rules` names.
pub fn open(seed: GameDef) -> Result<AnyFamily> {
    if let Some(game) = TetrioFamily::of(&seed) {
        return Ok(AnyFamily::Tetrio(Box::new(game)));
    }
    if let Some(game) = NesFamily::of(&seed) {
        return Ok(AnyFamily::Nes(Box::new(game?)));
    }
    if let Some(game) = GuidelineFamily::of(&seed) {
        return Ok(AnyFamily::Guideline(Box::new(game)));
    }
    Ok(match seed.rules {
        crate::games::registry::RuleSet::Standard => AnyFamily::Standard(StandardFamily { seed }),
        _ => AnyFamily::Tencent(TencentFamily::new(seed)),
    })
}

/// Runs `$body` with `$g` bound to the family's game, whichever it is: the one place a command
/// meets the families.
#[macro_export]
macro_rules! with_game {
    ($game:expr, $g:ident => $body:expr) => {
        match $game {
            $crate::family::AnyFamily::Tencent($g) => $body,
            $crate::family::AnyFamily::Guideline($g) => {
                let $g = &**$g;
                $body
            }
            $crate::family::AnyFamily::Tetrio($g) => {
                let $g = &**$g;
                $body
            }
            $crate::family::AnyFamily::Standard($g) => $body,
            $crate::family::AnyFamily::Nes($g) => {
                let $g = &**$g;
                $body
            }
        }
    };
}
