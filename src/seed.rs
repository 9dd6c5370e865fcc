//! Game definitions as data (`seeds/*.json`): the rule set, the piece generator with its seed
//! and parameters, and the game's length. Another seed or length is a JSON edit.

use crate::games::guideline::{self, ComboTable, Objective};
use crate::games::srs::RotationSystem;
use crate::games::Piece;
use crate::piece::Shape;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The most pieces a game may have: the piece list is held in memory (the 100 million of
/// `seeds/standard.json` take 200 MB), so a typo of a few zeros is refused, not allocated.
pub const MAX_PIECES: usize = 1_000_000_000;

/// A game definition.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Seed {
    /// A short name for results files.
    pub name: String,
    /// The rule set: `tencent`, `standard` or `guideline`.
    pub rules: String,
    /// Pieces in the game; the last one never scores under `tencent`.
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
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let seed: Seed =
            serde_json::from_str(text).map_err(|e| SeedError(crate::error::json_error(&e)))?;
        seed.check()?;
        Ok(seed)
    }

    fn check(&self) -> Result<(), SeedError> {
        if !["tencent", "standard", "guideline"].contains(&self.rules.as_str()) {
            return Err(SeedError(format!(
                "rules: unknown rule set {:?} (known: tencent, standard, guideline)",
                self.rules
            )));
        }
        if self.rules != "guideline" {
            for (field, set) in [
                ("rotation", self.rotation.is_some()),
                ("objective", self.objective.is_some()),
                ("combo_table", self.combo_table.is_some()),
            ] {
                if set {
                    return Err(SeedError(format!(
                        "{field}: only guideline games have it (this game's rules are {})",
                        self.rules
                    )));
                }
            }
        }
        if let Generator::Tetrio { seed: 0, .. } = self.generator {
            return Err(SeedError(
                "generator.seed: a tetrio seed is an integer of at least 1".into(),
            ));
        }
        if self.pieces == 0 {
            return Err(SeedError("pieces: must be at least 1".into()));
        }
        if self.pieces > MAX_PIECES {
            return Err(SeedError(format!(
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
                return Err(SeedError("generator.m: must be positive".into()));
            }
            if a.checked_mul(*m).and_then(|v| v.checked_add(*c)).is_none() {
                return Err(SeedError("generator: a*m + c overflows 64 bits".into()));
            }
            if a.checked_mul(*seed)
                .and_then(|v| v.checked_add(*c))
                .is_none()
            {
                return Err(SeedError(
                    "generator: a*seed + c overflows 64 bits (give a seed below m)".into(),
                ));
            }
            if weights
                .iter()
                .try_fold(0u64, |a, w| a.checked_add(w.1))
                .is_none()
            {
                return Err(SeedError(
                    "generator.weights: the weights add up past 2^64 - 1".into(),
                ));
            }
            if weights.is_empty() || weights.iter().all(|w| w.1 == 0) {
                return Err(SeedError(
                    "generator.weights: need a positive weight".into(),
                ));
            }
        }
        Ok(())
    }

    /// The guideline settings of a `guideline` game (`None` for the other rule sets), with the
    /// defaults filled in: SRS+, attack, the guideline combo table.
    pub fn guideline_rules(&self) -> Option<guideline::Rules> {
        (self.rules == "guideline").then(|| guideline::Rules {
            rotation: self.rotation.unwrap_or(RotationSystem::SrsPlus),
            objective: self.objective.unwrap_or(Objective::Attack),
            combo_table: self.combo_table.unwrap_or(ComboTable::Guideline),
        })
    }

    /// The game this seed defines, when it is a guideline game.
    pub fn guideline_game(&self) -> Option<guideline::replay::Game> {
        let rules = self.guideline_rules()?;
        Some(guideline::replay::Game {
            rules,
            length: self.pieces,
            pieces: self.shapes(self.pieces + 1),
        })
    }

    /// The first `n` shapes the generator deals (it is a stream: a guideline game of N locks
    /// may draw N + 1 pieces when it holds).
    pub fn shapes(&self, n: usize) -> Vec<Shape> {
        match &self.generator {
            Generator::Tetrio { seed, no_szo } => tetrio_shapes(*seed, *no_szo, n),
            Generator::Bag7 { seed } => bag7_shapes(*seed, n),
            _ => self.draw_n(n).into_iter().map(|d| d.piece.shape).collect(),
        }
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
            Generator::Tetrio { .. } | Generator::Bag7 { .. } => self
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
    fn guideline_fields_are_checked() {
        let game = |extra: &str| {
            Seed::parse(&format!(
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
        let zero = Seed::parse(
            r#"{"name": "g", "rules": "guideline", "pieces": 10,
                "generator": {"kind": "tetrio", "seed": 0}}"#,
        );
        assert!(zero.unwrap_err().0.contains("at least 1"));
        let tencent_with_rotation = Seed::parse(
            r#"{"name": "g", "rules": "tencent", "pieces": 10, "rotation": "srs",
                "generator": {"kind": "uniform", "seed": 0}}"#,
        );
        assert!(tencent_with_rotation
            .unwrap_err()
            .0
            .contains("only guideline"));
    }
}
