//! The flags that make a NES game of the built-in one (or of `--seed`): TetrisGYM's seed, the
//! starting level, the player's speed and the line target. Part of [`super::game::GameArgs`].

use crate::error::{Error, Result};
use crate::game_def::{GameDef, Generator};
use crate::games::nes::game::{NesOptions, MAX_LEVEL, MAX_LINES};
use crate::games::nes::movegen::Speed;
use crate::games::registry::RuleSet;

/// The built-in NES game (the same as `seeds/nes-gym.json`): TetrisGYM seed 123456 from
/// level 18 at 30 Hz to 230 lines.
pub fn builtin_nes() -> GameDef {
    GameDef::parse(include_str!("../../seeds/nes-gym.json")).expect("the bundled seed file parses")
}

/// NES games' flags.
#[derive(clap::Args, Debug, Clone, Default, PartialEq)]
pub struct NesArgs {
    /// NES games: TetrisGYM's pieces for seed HEX (6 hexadecimal digits, as GYM's menu takes
    /// it), on the game of --seed or the built-in NES game (`seeds/nes-gym.json`: level 18,
    /// 30 Hz, 230 lines).
    #[arg(long, value_name = "HEX")]
    pub gym_seed: Option<String>,
    /// NES games: the starting level, 0 to 29 (default 18).
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    pub level: Option<i64>,
    /// NES games: the player taps left or right 30 or 15 times a second (default 30).
    #[arg(
        long,
        value_name = "HZ",
        conflicts_with = "das",
        allow_hyphen_values = true
    )]
    pub tap_hz: Option<i64>,
    /// NES games: the player holds left or right instead (the cartridge's DAS: a shift, then
    /// one after 16 frames and every 6 after that).
    #[arg(long)]
    pub das: bool,
    /// NES games: the game ends at this many lines (default 230: from level 18, the
    /// transition to level 29).
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    pub lines: Option<i64>,
}

impl NesArgs {
    /// The first NES flag given.
    pub fn given(&self) -> Option<&'static str> {
        super::first_given(&[
            (self.gym_seed.is_some(), "--gym-seed"),
            (self.level.is_some(), "--level"),
            (self.tap_hz.is_some(), "--tap-hz"),
            (self.das, "--das"),
            (self.lines.is_some(), "--lines"),
        ])
    }

    /// `seed` (the game of --seed, or the built-in NES game) changed by the flags, checked.
    /// The family check ([`super::game::GameArgs::load`]) has made sure it is a NES game.
    pub fn apply(&self, mut seed: GameDef) -> Result<GameDef> {
        debug_assert_eq!(seed.rules, RuleSet::Nes);
        let mut o: NesOptions = seed.nes.unwrap_or_default();
        if let Some(text) = &self.gym_seed {
            crate::games::nes::gym::parse_gym_seed(text).map_err(|_| {
                Error(format!(
                    "--gym-seed {}: a TetrisGYM seed is 6 hexadecimal digits, like 1A2B3C",
                    crate::error::printable(text)
                ))
            })?;
            let hex = text.trim().to_ascii_uppercase();
            seed.name = format!("nes-gym-{hex}");
            seed.generator = Generator::Gym { seed: hex };
        }
        if let Some(level) = self.level {
            if !(0..=i64::from(MAX_LEVEL)).contains(&level) {
                return Err(Error(format!(
                    "--level {level}: give a level from 0 to {MAX_LEVEL}"
                )));
            }
            o.level = level as u8;
            seed.name = format!("{}-level{level}", seed.name);
        }
        if let Some(hz) = self.tap_hz {
            o.speed = match hz {
                30 => Speed::Tap30,
                15 => Speed::Tap15,
                _ => {
                    return Err(Error(format!(
                        "--tap-hz {hz}: give 30 or 15 (or --das to hold)"
                    )))
                }
            };
        }
        if self.das {
            o.speed = Speed::Das;
        }
        if let Some(lines) = self.lines {
            if !(1..=i64::from(MAX_LINES)).contains(&lines) {
                return Err(Error(format!(
                    "--lines {lines}: give a line target from 1 to {MAX_LINES}"
                )));
            }
            o.lines = lines as u32;
        }
        seed.nes = Some(o);
        seed.settle().map_err(|e| Error(e.0))?;
        Ok(seed)
    }

    /// The flags that give this game again.
    pub fn flags(&self) -> Vec<String> {
        let mut words = Vec::new();
        if let Some(s) = &self.gym_seed {
            words.extend(["--gym-seed".to_string(), s.clone()]);
        }
        for (flag, v) in [
            ("--level", self.level),
            ("--tap-hz", self.tap_hz),
            ("--lines", self.lines),
        ] {
            if let Some(v) = v {
                words.extend([flag.to_string(), v.to_string()]);
            }
        }
        if self.das {
            words.push("--das".into());
        }
        words
    }
}
