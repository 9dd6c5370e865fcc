//! The 4-wide solver against a naive solve of the same model that shares none of its
//! machinery beyond one piece's placements: explicit states (field, hold, queue, bag) in a
//! hash map, the Bellman equation written as in the SPEC, no minimisation, no factoring of the
//! queue, and the bag's stationary distribution found by propagating the draws from a fresh
//! bag instead of by counting.

use beamtris::fourwide::srs::placements;
use beamtris::fourwide::{solve, Config, Field, Generator, Piece, Placements};
use std::collections::{HashMap, HashSet};

#[derive(Clone, PartialEq, Eq, Hash, Debug)]
struct State {
    field: Field,
    hold: Option<Piece>,
    queue: Vec<Piece>,
    /// Pieces left in the bag (bag generator), never empty; 0x7F for random.
    bag: u8,
}

struct Naive {
    config: Config,
    states: Vec<State>,
    index: HashMap<State, usize>,
    values: Vec<f64>,
}

fn seed(residuals: u8) -> Field {
    Field::parse(if residuals == 3 { "XXX_" } else { "XXX_/XXX_" }).unwrap()
}

fn fields(config: &Config) -> Vec<Field> {
    let mut seen = HashSet::new();
    let mut stack = vec![seed(config.residuals)];
    while let Some(f) = stack.pop() {
        if seen.insert(f) {
            for p in Piece::ALL {
                stack.extend(placements(f, p, config.placements));
            }
        }
    }
    let mut v: Vec<Field> = seen.into_iter().collect();
    v.sort();
    v
}

/// (probability, piece) of the next draw, and the bag after it.
fn draws(config: &Config, bag: u8) -> Vec<(f64, Piece, u8)> {
    match config.generator {
        Generator::Random => Piece::ALL.iter().map(|&p| (1.0 / 7.0, p, 0x7F)).collect(),
        Generator::Bag => {
            let left: Vec<Piece> = Piece::ALL
                .into_iter()
                .filter(|&p| bag >> p as u8 & 1 == 1)
                .collect();
            let n = left.len() as f64;
            left.into_iter()
                .map(|p| {
                    let after = bag & !(1 << p as u8);
                    (1.0 / n, p, if after == 0 { 0x7F } else { after })
                })
                .collect()
        }
    }
}

/// The long-run distribution of (queue, bag): the exact distribution after t draws from a
/// fresh bag, averaged over t = p .. p + 6 (one full bag period).
fn queue_distribution(config: &Config) -> HashMap<(Vec<Piece>, u8), f64> {
    let mut dist: HashMap<(Vec<Piece>, u8), f64> = HashMap::new();
    dist.insert((vec![], 0x7F), 1.0);
    let step = |dist: &HashMap<(Vec<Piece>, u8), f64>, keep: usize| {
        let mut out = HashMap::new();
        for ((queue, bag), &pr) in dist {
            for (p, piece, after) in draws(config, *bag) {
                let mut q = queue.clone();
                q.push(piece);
                if q.len() > keep {
                    q.remove(0);
                }
                *out.entry((q, after)).or_insert(0.0) += pr * p;
            }
        }
        out
    };
    for _ in 0..config.preview {
        dist = step(&dist, config.preview);
    }
    let mut total: HashMap<(Vec<Piece>, u8), f64> = HashMap::new();
    for _ in 0..7 {
        for (k, v) in &dist {
            *total.entry(k.clone()).or_insert(0.0) += v / 7.0;
        }
        dist = step(&dist, config.preview);
    }
    total
}

impl Naive {
    fn solve(config: Config) -> Naive {
        let holds: Vec<Option<Piece>> = if config.hold {
            Piece::ALL.into_iter().map(Some).collect()
        } else {
            vec![None]
        };
        let queues = queue_distribution(&config);
        let mut states = Vec::new();
        for f in fields(&config) {
            for &h in &holds {
                for (queue, bag) in queues.keys() {
                    states.push(State {
                        field: f,
                        hold: h,
                        queue: queue.clone(),
                        bag: *bag,
                    });
                }
            }
        }
        let index: HashMap<State, usize> = states
            .iter()
            .cloned()
            .enumerate()
            .map(|(i, s)| (s, i))
            .collect();
        // One piece's placements, computed once per (field, piece).
        let mut moves: HashMap<(Field, Piece), Vec<Field>> = HashMap::new();
        for s in &states {
            for p in Piece::ALL {
                moves
                    .entry((s.field, p))
                    .or_insert_with(|| placements(s.field, p, config.placements));
            }
        }
        // The Bellman equation of every state, written out once: for each draw, its
        // probability and the states every choice leads to.
        let mut equations: Vec<Vec<(f64, Vec<usize>)>> = Vec::with_capacity(states.len());
        for s in &states {
            let mut eq = Vec::new();
            for (p, piece, bag) in draws(&config, s.bag) {
                let mut visible = s.queue.clone();
                visible.push(piece);
                let current = visible.remove(0);
                let mut choices = Vec::new();
                let mut consider = |placed: Piece, hold: Option<Piece>| {
                    for &g in &moves[&(s.field, placed)] {
                        let t = State {
                            field: g,
                            hold,
                            queue: visible.clone(),
                            bag,
                        };
                        choices.push(index[&t]);
                    }
                };
                consider(current, s.hold);
                if let Some(h) = s.hold {
                    consider(h, Some(current));
                }
                eq.push((p, choices));
            }
            equations.push(eq);
        }
        let mut values = vec![0.0; states.len()];
        loop {
            let mut residual: f64 = 0.0;
            let next: Vec<f64> = equations
                .iter()
                .map(|eq| {
                    eq.iter()
                        .map(|(p, choices)| {
                            let best = choices.iter().map(|&j| 1.0 + values[j]).reduce(f64::max);
                            p * best.unwrap_or(0.0)
                        })
                        .sum()
                })
                .collect();
            for (a, b) in next.iter().zip(&values) {
                residual = residual.max((a - b).abs());
            }
            values = next;
            if residual < 1e-12 {
                break;
            }
        }
        Naive {
            config,
            states,
            index,
            values,
        }
    }
}

fn compare(config: Config) {
    let naive = Naive::solve(config);
    let policy = solve(&config, &mut |_, _| {}).unwrap();
    let s = &policy.structure;
    assert_eq!(s.states(), naive.states.len(), "{config:?}");
    for (i, st) in naive.states.iter().enumerate() {
        let f = s.transitions.index(st.field).unwrap();
        let h = st.hold.map_or(0, |p| p as usize);
        let q = s.sequence.index(&st.queue, st.bag).unwrap();
        let got = policy.value(f, h, q);
        assert!(
            (got - naive.values[i]).abs() < 1e-8,
            "{config:?} {st:?}: {got} vs {}",
            naive.values[i]
        );
    }
    // Field values: averaged over hold and the long-run queue distribution.
    let dist = queue_distribution(&config);
    for (field, v) in policy.field_values() {
        let mut want = 0.0;
        let holds: Vec<Option<Piece>> = if config.hold {
            Piece::ALL.into_iter().map(Some).collect()
        } else {
            vec![None]
        };
        for h in &holds {
            for ((queue, bag), pr) in &dist {
                let st = State {
                    field,
                    hold: *h,
                    queue: queue.clone(),
                    bag: *bag,
                };
                want += pr * naive.values[naive.index[&st]] / holds.len() as f64;
            }
        }
        assert!((v - want).abs() < 1e-8, "{config:?} {field}: {v} vs {want}");
    }
    let _ = naive.config;
}

fn config(generator: Generator, preview: usize, hold: bool) -> Config {
    Config {
        residuals: 3,
        generator,
        preview,
        hold,
        placements: Placements::Srs,
    }
}

#[test]
fn fourwide_naive_agrees_random_hold_one_preview() {
    compare(config(Generator::Random, 1, true));
}

#[test]
fn fourwide_naive_agrees_random_no_hold_two_previews() {
    compare(config(Generator::Random, 2, false));
}

#[test]
fn fourwide_naive_agrees_bag_hold_one_preview() {
    compare(config(Generator::Bag, 1, true));
}

#[test]
fn fourwide_naive_agrees_bag_no_hold_two_previews_hard_drop() {
    let mut c = config(Generator::Bag, 2, false);
    c.placements = Placements::HardDrop;
    compare(c);
}

#[test]
fn fourwide_naive_agrees_six_residuals_random_no_hold() {
    let mut c = config(Generator::Random, 0, false);
    c.residuals = 6;
    compare(c);
}

#[test]
fn a_policy_file_with_a_damaged_value_is_refused() {
    let dir = std::env::temp_dir().join(format!("beamtris-policy-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("p1.policy");
    let policy = solve(&config(Generator::Random, 1, false), &mut |_, _| {}).unwrap();
    policy.save(&path).unwrap();
    assert!(beamtris::fourwide::Policy::load(&path).is_ok());
    let mut bytes = std::fs::read(&path).unwrap();
    let at = bytes.len() - 8 * 3;
    bytes[at..at + 8].copy_from_slice(&f64::NAN.to_le_bytes());
    std::fs::write(&path, &bytes).unwrap();
    let err = beamtris::fourwide::Policy::load(&path).unwrap_err().0;
    assert!(
        err.contains("is NaN, not an expected number of clears"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).ok();
}
