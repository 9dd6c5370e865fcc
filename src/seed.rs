//! Game definitions as data (`seeds/*.json`): the rule set, the piece generator with its seed
//! and parameters, and the game's length. Another seed or length is a JSON edit.

use crate::piece::Shape;
use crate::rules::Piece;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// A game definition.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Seed {
    /// A short name for results files.
    pub name: String,
    /// The rule set: `tencent` (or `standard`).
    pub rules: String,
    /// Pieces in the game; the last one never scores under `tencent`.
    pub pieces: usize,
    /// How the pieces are drawn.
    pub generator: Generator,
    /// How each piece's spawn rotation state is chosen.
    #[serde(default)]
    pub initial_state: InitialState,
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
pub struct SeedError(pub String);

impl std::fmt::Display for SeedError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}
impl std::error::Error for SeedError {}

impl Seed {
    /// The built-in Tencent Geek 4 definition (the same as `seeds/tencent-geek-4.json`).
    pub fn tencent_geek_4() -> Seed {
        serde_json::from_str(include_str!("../seeds/tencent-geek-4.json"))
            .expect("the bundled seed file parses")
    }

    /// Reads and checks a seed file; errors name the file and the JSON place.
    pub fn load(path: &Path) -> Result<Seed, SeedError> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| SeedError(format!("{}: {e}", path.display())))?;
        Seed::parse(&text).map_err(|e| SeedError(format!("{}: {}", path.display(), e.0)))
    }

    /// Parses and checks seed JSON.
    pub fn parse(text: &str) -> Result<Seed, SeedError> {
        let seed: Seed = serde_json::from_str(text)
            .map_err(|e| SeedError(format!("line {} column {}: {e}", e.line(), e.column())))?;
        seed.check()?;
        Ok(seed)
    }

    fn check(&self) -> Result<(), SeedError> {
        if self.rules != "tencent" && self.rules != "standard" {
            return Err(SeedError(format!(
                "rules: unknown rule set {:?} (known: tencent, standard)",
                self.rules
            )));
        }
        if self.pieces == 0 {
            return Err(SeedError("pieces: must be at least 1".into()));
        }
        if let Generator::Lcg {
            m, weights, a, c, ..
        } = &self.generator
        {
            if *m == 0 {
                return Err(SeedError("generator.m: must be positive".into()));
            }
            if a.checked_mul(*m).and_then(|v| v.checked_add(*c)).is_none() {
                return Err(SeedError("generator: a*m + c overflows 64 bits".into()));
            }
            if weights.is_empty() || weights.iter().all(|w| w.1 == 0) {
                return Err(SeedError(
                    "generator.weights: need a positive weight".into(),
                ));
            }
        }
        Ok(())
    }

    /// The whole piece sequence.
    pub fn pieces(&self) -> Vec<Piece> {
        self.draw().into_iter().map(|d| d.piece).collect()
    }

    /// The whole sequence with each piece's raw random number.
    pub fn draw(&self) -> Vec<Drawn> {
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
                (0..self.pieces)
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
                (0..self.pieces)
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
        }
    }
}
