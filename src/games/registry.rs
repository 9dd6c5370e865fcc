//! What a game family declares about itself, as plain data: its name, the rule set its game
//! files name, the commands and views it supports, the game options it takes with their
//! defaults, its weights presets and its default beam. Each family writes its declaration in
//! its own folder (`FAMILY` in `games/<family>/mod.rs`); [`super::FAMILIES`] lists them once.
//! The commands, `--help`, `beamtris families` and the docs' tables read that one list, so a
//! flag means the same in every command and a family refuses, by name, what it does not take
//! (the model: OpenSpiel's `GameType` and its registration).

use serde::{Deserialize, Serialize};

/// The rule set a game file names (`"rules"`): which engine replays its records.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "&'static str")]
pub enum RuleSet {
    /// The Tencent Geek Challenge game.
    Tencent,
    /// The one-piece game of the literature.
    Standard,
    /// The modern games: SRS, hold, spins (TETR.IO's games when the file has a `tetrio` part).
    Guideline,
    /// NES Tetris.
    Nes,
}

impl RuleSet {
    /// Every rule set, in the order messages list them.
    pub const ALL: [RuleSet; 4] = [
        RuleSet::Tencent,
        RuleSet::Standard,
        RuleSet::Guideline,
        RuleSet::Nes,
    ];

    /// The name a game file writes.
    pub const fn name(self) -> &'static str {
        match self {
            RuleSet::Tencent => "tencent",
            RuleSet::Standard => "standard",
            RuleSet::Guideline => "guideline",
            RuleSet::Nes => "nes",
        }
    }
}

impl std::fmt::Display for RuleSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl TryFrom<String> for RuleSet {
    type Error = String;
    fn try_from(name: String) -> Result<RuleSet, String> {
        RuleSet::ALL
            .into_iter()
            .find(|r| r.name() == name)
            .ok_or_else(|| {
                format!(
                    "rules: unknown rule set {:?} (known: tencent, standard, guideline, nes)",
                    crate::error::printable(&name)
                )
            })
    }
}

impl From<RuleSet> for &'static str {
    fn from(r: RuleSet) -> &'static str {
        r.name()
    }
}

/// A command or view a family may support.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Capability {
    /// `solve`: the beam search to a record.
    Solve,
    /// `verify`: a record replayed to its score.
    Verify,
    /// `show`: the board as text and the terminal animation.
    Show,
    /// `show --fumen`.
    Fumen,
    /// `show --html`.
    Html,
    /// `export`: a record handed back to the game's own replay format.
    Export,
    /// `play`: one-piece or online players.
    Play,
    /// `tune`: the cross-entropy method over in-process searches.
    Tune,
    /// `polish`: re-searching a record's segments.
    Polish,
    /// `bench`: the engine's hot paths timed on a record.
    Bench,
    /// `versus`: two bots play a match on the family's versus rules.
    Versus,
}

impl Capability {
    /// Every capability, in the order the table lists them.
    pub const ALL: [Capability; 11] = [
        Capability::Solve,
        Capability::Verify,
        Capability::Show,
        Capability::Fumen,
        Capability::Html,
        Capability::Export,
        Capability::Play,
        Capability::Tune,
        Capability::Polish,
        Capability::Bench,
        Capability::Versus,
    ];

    /// How the command line writes it.
    pub const fn name(self) -> &'static str {
        match self {
            Capability::Solve => "solve",
            Capability::Verify => "verify",
            Capability::Show => "show",
            Capability::Fumen => "show --fumen",
            Capability::Html => "show --html",
            Capability::Export => "export",
            Capability::Play => "play",
            Capability::Tune => "tune",
            Capability::Polish => "polish",
            Capability::Bench => "bench",
            Capability::Versus => "versus",
        }
    }
}

/// A flag that changes the game, beyond `--seed` (which names a game file of any family).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct GameOption {
    /// The flag, `--queue`.
    pub flag: &'static str,
    /// Its value when not given, in words (`""`: the game file's own).
    pub default: &'static str,
}

/// One family's declaration.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct FamilyInfo {
    /// The family's name (`beamtris families`, messages).
    pub name: &'static str,
    /// What it is, in a few words.
    pub title: &'static str,
    /// The rule set its game files name.
    pub rules: RuleSet,
    /// Its built-in game: the game file `--seed` defaults to when a flag of this family alone
    /// gives the game.
    pub builtin: &'static str,
    /// What its searches maximise.
    pub objectives: &'static [&'static str],
    /// The commands and views it supports.
    pub supports: &'static [Capability],
    /// The flags that change its game (each family refuses the others').
    pub options: &'static [GameOption],
    /// The flags of its searches beyond those every family's take (`--beam`, `--time`,
    /// `--weights`, `--pieces`, `--threads`, `--out`): `--moves` on the Tencent game,
    /// `--fourwide` on guideline games. `solve` and `tune` refuse the others' by name.
    pub search_flags: &'static [&'static str],
    /// The weights presets of `--weights`, the default first.
    pub weights: &'static [&'static str],
    /// `--beam` when not given.
    pub default_beam: usize,
    /// The files `import` reads into games of this family.
    pub imports: &'static [&'static str],
    /// The files `export` writes.
    pub exports: &'static [&'static str],
}

impl FamilyInfo {
    /// Whether the family supports `what`.
    pub fn supports(&self, what: Capability) -> bool {
        self.supports.contains(&what)
    }

    /// Whether the family takes the game flag `flag`.
    pub fn takes(&self, flag: &str) -> bool {
        self.options.iter().any(|o| o.flag == flag)
    }

    /// `Err` naming the first of `given` (a search flag and the text given) that the family's
    /// searches do not take, on the game `game`.
    pub fn check_search_flags(
        &self,
        given: &[(&'static str, String)],
        game: &str,
    ) -> Result<(), crate::error::Error> {
        match given
            .iter()
            .find(|(flag, _)| !self.search_flags.contains(flag))
        {
            None => Ok(()),
            Some((flag, text)) => Err(crate::error::Error(format!(
                "{text}: the game {game} is a {} game, whose search does not take {flag} (its \
                 search flags: {})",
                self.title,
                if self.search_flags.is_empty() {
                    "none beyond --beam, --time, --weights, --pieces".to_string()
                } else {
                    self.search_flags.join(", ")
                }
            ))),
        }
    }

    /// The default weights preset.
    pub fn default_weights(&self) -> &'static str {
        self.weights.first().copied().unwrap_or("")
    }

    /// The flags it takes, for messages: `--queue, --board`.
    pub fn flags(&self) -> String {
        if self.options.is_empty() {
            return "none beyond --seed".into();
        }
        self.options
            .iter()
            .map(|o| o.flag)
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The one-line refusal of a command or view it does not support.
    pub fn refuse(&self, what: Capability, game: &str) -> crate::error::Error {
        let supported: Vec<&str> = self.supports.iter().map(|c| c.name()).collect();
        crate::error::Error(format!(
            "{}: the game {game} is a {} game, which has no `{}` (it supports: {})",
            what.name(),
            self.title,
            what.name(),
            supported.join(", ")
        ))
    }
}

/// Every flag a family may take, in the order `--help` lists them.
pub const GAME_FLAGS: [&str; 11] = [
    "--tetrio-seed",
    "--queue",
    "--board",
    "--hold",
    "--pps",
    "--gym-seed",
    "--level",
    "--tap-hz",
    "--das",
    "--lines",
    "--killscreen-x2",
];

/// The registry as a table, for `beamtris families` and the docs: a family a row.
pub fn table(families: &[&FamilyInfo]) -> String {
    let mut out = String::from(
        "| family | rules | built-in game | objectives | supports | game flags | search flags | weights (default first) | default beam | import | export |\n\
         |---|---|---|---|---|---|---|---|---:|---|---|\n",
    );
    for f in families {
        let supports: Vec<&str> = f.supports.iter().map(|c| c.name()).collect();
        let dash = |v: &[&str]| {
            if v.is_empty() {
                "-".to_string()
            } else {
                v.join(", ")
            }
        };
        out.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |\n",
            f.name,
            f.rules,
            f.builtin,
            dash(f.objectives),
            supports.join(", "),
            if f.options.is_empty() {
                "-".to_string()
            } else {
                f.flags()
            },
            dash(f.search_flags),
            dash(f.weights),
            if f.supports(Capability::Solve) {
                f.default_beam.to_string()
            } else {
                "-".into()
            },
            dash(f.imports),
            dash(f.exports),
        ));
    }
    out
}

/// `--weights`'s help: each family's presets from the registry, the default first.
pub fn weights_help(families: &[&FamilyInfo]) -> String {
    let by_family: Vec<String> = families
        .iter()
        .filter(|f| f.supports(Capability::Solve))
        .map(|f| format!("{}: {}", f.name, f.weights.join(", ")))
        .collect();
    format!(
        "Evaluator weights: a preset or a JSON weights file (results/weights/ holds tuned ones). \
         Presets by family, the default first: {}. On guideline and TETR.IO games the default \
         follows the game's objective: `versus` on TETR.IO's rules as played today, `attack` or \
         `points` on a game file's, `blitz` on a BLITZ game. Tencent's `open-column` clears \
         through column 4, kept open so both J and L clear three rows; `edge` through a well at \
         the left edge",
        by_family.join("; ")
    )
}

/// `--beam`'s help: each family's default from the registry.
pub fn beam_help(families: &[&FamilyInfo]) -> String {
    let by_family: Vec<String> = families
        .iter()
        .filter(|f| f.supports(Capability::Solve))
        .map(|f| format!("{} {}", f.name, f.default_beam))
        .collect();
    format!(
        "Boards kept per piece (default by family: {}). The Tencent default reaches 1 430 000 on \
         the built-in game in under a minute on a 2-core machine",
        by_family.join(", ")
    )
}
