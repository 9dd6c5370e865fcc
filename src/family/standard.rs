//! The standard game as a [`Family`]: the one-piece players' game (`play`), which draws its
//! pieces from a uniform generator as it goes. It has no records and no beam: the commands
//! that need them refuse it, each saying which command plays it.

use super::solve::{Finish, Plan, Request, Solved};
use super::Family;
use crate::error::{Error, Result};
use crate::game_def::GameDef;
use crate::search::beam::StepReport;
use crate::search::tuning::Tencent as Tuning;
use crate::search::width::Width;
use crate::show::frames::Replay;
use std::convert::Infallible;
use std::path::Path;
use std::sync::atomic::AtomicBool;

/// A game of the standard rules.
pub struct StandardFamily {
    pub seed: GameDef,
}

impl Family for StandardFamily {
    type Record = Infallible;
    type Verified = ();
    type Plan = Infallible;
    type Found = Infallible;
    type Tuning = Tuning;

    fn seed(&self) -> &GameDef {
        &self.seed
    }

    fn read_record(&self, _path: &Path, command: &str) -> Result<Infallible> {
        Err(Error(format!(
            "{command} reads records of Tencent and guideline games; the game {} plays the \
             standard rules, which have no records (`play` plays them)",
            self.seed.name
        )))
    }

    fn verify(
        &self,
        record: &Infallible,
        _place: &str,
        _trace: Option<&mut dyn FnMut(String)>,
    ) -> Result<()> {
        match *record {}
    }

    fn board_text(&self, record: &Infallible, _at: Option<usize>) -> Result<String> {
        match *record {}
    }

    fn frames(&self, record: &Infallible) -> Result<Replay> {
        match *record {}
    }

    fn plan(&self, _request: &Request) -> Result<Plan<Infallible>> {
        Err(Error(format!(
            "solve plays the tencent rule set; the seed's rules are {:?}",
            self.seed.rules
        )))
    }

    fn search(
        &self,
        plan: &Plan<Infallible>,
        _width: Width,
        _stop: &AtomicBool,
        _progress: &mut dyn FnMut(&StepReport),
    ) -> Infallible {
        match plan.family {}
    }

    fn report(
        &self,
        _plan: &Plan<Infallible>,
        found: Infallible,
        _record_file: &Path,
        _finish: &dyn Fn() -> Finish,
    ) -> Result<Option<Solved>> {
        match found {}
    }

    fn tuning(&self, _pieces: usize, _previews: Option<usize>) -> Result<Tuning> {
        Err(self
            .seed
            .family()
            .refuse(crate::games::registry::Capability::Tune, &self.seed.name))
    }
}
