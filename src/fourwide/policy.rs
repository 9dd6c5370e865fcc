//! A solved configuration: values mapped back to every state, the best choice for a given
//! field, hold and queue, and a compact file format to save and load it.
//!
//! The file holds only what a solve computes (the values); the structure (fields, queue
//! states, classes) is rebuilt from the configuration on load, which is deterministic and
//! takes milliseconds, and the loader checks that the sizes agree.

use super::field::{Field, Piece};
use super::minimize::{minimize, Pairs, Reduced};
use super::sequence::{Sequence, FULL_BAG};
use super::transitions::Transitions;
use super::Config;
use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// Everything about a configuration except its values.
#[derive(Clone, Debug)]
pub struct Structure {
    pub config: Config,
    pub transitions: Transitions,
    pub sequence: Sequence,
    pub reduced: Reduced,
}

impl Structure {
    /// Fields, queue states and the minimised classes of `config`.
    pub fn build(config: &Config) -> Result<Structure> {
        let transitions = Transitions::build(config.seed()?, config.placements);
        let sequence = Sequence::new(config.generator, config.preview)?;
        let reduced = minimize(Pairs {
            transitions: &transitions,
            hold: config.hold,
        });
        Ok(Structure {
            config: *config,
            transitions,
            sequence,
            reduced,
        })
    }

    /// Hold pieces per field: 7 with hold, 1 without.
    pub fn holds(&self) -> usize {
        if self.config.hold {
            7
        } else {
            1
        }
    }

    /// States before minimisation: fields × holds × queue states.
    pub fn states(&self) -> usize {
        self.transitions.len() * self.holds() * self.sequence.len()
    }

    /// States after minimisation: classes × queue states.
    pub fn minimized_states(&self) -> usize {
        self.reduced.classes * self.sequence.len()
    }
}

/// One choice for the current piece.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Choice {
    /// The field the placement leaves.
    pub field: String,
    /// Whether the held piece is placed (and the current one held).
    pub hold: bool,
    /// The piece placed.
    pub piece: char,
    /// The expected combo from here with this choice: 1 + the value of the next state.
    pub expected: f64,
}

/// A solved configuration.
#[derive(Clone, Debug)]
pub struct Policy {
    pub structure: Structure,
    /// `values[q * classes + class]`.
    pub values: Vec<f64>,
    /// Value-iteration sweeps.
    pub iterations: usize,
    /// The last Bellman residual.
    pub residual: f64,
    /// Wall time of the solve.
    pub seconds: f64,
    /// Extrapolation steps the value iteration took (0 for a loaded policy).
    pub extrapolations: usize,
}

/// The header of a saved policy (one JSON line after the magic line).
#[derive(Serialize, Deserialize)]
struct Header {
    config: Config,
    classes: usize,
    queue_states: usize,
    iterations: usize,
    residual: f64,
    seconds: f64,
}

const MAGIC: &str = "beamtris-fourwide-policy 1";

impl Policy {
    /// Wraps solved values with their structure.
    pub fn new(
        structure: Structure,
        values: Vec<f64>,
        iterations: usize,
        residual: f64,
        seconds: f64,
    ) -> Policy {
        Policy {
            structure,
            values,
            iterations,
            residual,
            seconds,
            extrapolations: 0,
        }
    }

    /// The configuration solved.
    pub fn config(&self) -> &Config {
        &self.structure.config
    }

    /// The value of state (field index, hold index, queue state index).
    pub fn value(&self, field: usize, hold: usize, queue: usize) -> f64 {
        let s = &self.structure;
        let class = s.reduced.class_of[field * s.holds() + hold] as usize;
        self.values[queue * s.reduced.classes + class]
    }

    /// Each field's value averaged over the hold piece (uniform) and the stationary queue
    /// distribution, in field index order.
    pub fn field_values(&self) -> Vec<(Field, f64)> {
        let s = &self.structure;
        let holds = s.holds();
        s.transitions
            .fields
            .iter()
            .enumerate()
            .map(|(f, &field)| {
                let v: f64 = s
                    .sequence
                    .stationary
                    .iter()
                    .enumerate()
                    .map(|(q, &pi)| {
                        pi * (0..holds).map(|h| self.value(f, h, q)).sum::<f64>() / holds as f64
                    })
                    .sum();
                (field, v)
            })
            .collect()
    }

    /// Every choice for `current` on `field` holding `hold`, best first (ties keep the order
    /// place-current before swap, fields by index). `next` are the previews after the current
    /// piece (exactly `preview` of them); `bag` the pieces left in the bag after the last
    /// visible one (bag generator only; empty means a fresh bag). Empty when nothing clears.
    pub fn choices(
        &self,
        field: Field,
        hold: Option<Piece>,
        current: Piece,
        next: &[Piece],
        bag: &[Piece],
    ) -> Result<Vec<Choice>> {
        let s = &self.structure;
        let config = &s.config;
        let f = s
            .transitions
            .index(field)
            .ok_or_else(|| Error(format!("field {field} is not reachable from the seed")))?;
        let h = match (config.hold, hold) {
            (true, Some(p)) => p as usize,
            (false, None) => 0,
            (true, None) => return Err(Error("this policy has hold: give the held piece".into())),
            (false, Some(_)) => return Err(Error("this policy has no hold".into())),
        };
        if next.len() != config.preview {
            return Err(Error(format!(
                "the queue has {}; this policy sees the current piece and {} previews",
                crate::limits::plural(next.len() as u64 + 1, "piece", "pieces"),
                config.preview
            )));
        }
        let mask = match bag.iter().fold(0u8, |m, &p| m | 1 << p as u8) {
            0 => FULL_BAG,
            m => m,
        };
        let q = s.sequence.index(next, mask).ok_or_else(|| {
            Error(format!(
                "queue {} with bag {:?} cannot occur under the {} generator",
                next.iter().map(|p| p.letter()).collect::<String>(),
                bag.iter().map(|p| p.letter()).collect::<String>(),
                config.generator.name()
            ))
        })?;
        let holds = s.holds();
        let mut out = Vec::new();
        let mut push = |piece: Piece, held_after: usize, used_hold: bool| {
            for &g in &s.transitions.next[f][piece as usize] {
                let class = s.reduced.class_of[g as usize * holds + held_after] as usize;
                out.push(Choice {
                    field: s.transitions.fields[g as usize].to_string(),
                    hold: used_hold,
                    piece: piece.letter(),
                    expected: 1.0 + self.values[q * s.reduced.classes + class],
                });
            }
        };
        push(current, h, false);
        if let Some(held) = hold {
            push(held, current as usize, true);
        }
        out.sort_by(|a, b| b.expected.total_cmp(&a.expected));
        Ok(out)
    }

    /// Writes the policy: a magic line, a JSON header line, then the values as little-endian
    /// `f64`s.
    pub fn save(&self, path: &Path) -> Result<()> {
        let s = &self.structure;
        let header = Header {
            config: s.config,
            classes: s.reduced.classes,
            queue_states: s.sequence.len(),
            iterations: self.iterations,
            residual: self.residual,
            seconds: self.seconds,
        };
        let mut bytes = format!(
            "{MAGIC}\n{}\n",
            serde_json::to_string(&header).expect("plain data serialises")
        )
        .into_bytes();
        bytes.reserve(self.values.len() * 8);
        for v in &self.values {
            bytes.extend_from_slice(&v.to_le_bytes());
        }
        crate::io::write_atomic(path, &bytes)
    }

    /// Reads a policy written by [`Policy::save`]; the error names the file and what is wrong.
    pub fn load(path: &Path) -> Result<Policy> {
        let bytes = std::fs::read(path).map_err(|e| Error::at(path.display(), e))?;
        let bad = |what: &str| Error::at(path.display(), what);
        let mut lines = bytes.splitn(3, |&b| b == b'\n');
        if lines.next() != Some(MAGIC.as_bytes()) {
            return Err(bad("not a beamtris fourwide policy file"));
        }
        let header: Header = lines
            .next()
            .and_then(|l| serde_json::from_slice(l).ok())
            .ok_or_else(|| bad("the header line is not valid JSON"))?;
        let raw = lines.next().unwrap_or(&[]);
        let structure = Structure::build(&header.config)
            .map_err(|e| bad(&format!("the header's configuration: {}", e.0)))?;
        let n = structure.minimized_states();
        if header.classes != structure.reduced.classes
            || header.queue_states != structure.sequence.len()
            || raw.len() != n * 8
        {
            return Err(bad("its sizes do not match its configuration"));
        }
        let values: Vec<f64> = raw
            .chunks_exact(8)
            .map(|c| f64::from_le_bytes(c.try_into().expect("chunks of 8")))
            .collect();
        // A value is an expected number of clears to come: finite and not negative. A file
        // damaged past its header would otherwise play on NaN and say so only in its output.
        if let Some(i) = values.iter().position(|v| !(v.is_finite() && *v >= 0.0)) {
            return Err(bad(&format!(
                "value {i} is {}, not an expected number of clears (the file is damaged)",
                values[i]
            )));
        }
        Ok(Policy::new(
            structure,
            values,
            header.iterations,
            header.residual,
            header.seconds,
        ))
    }
}
