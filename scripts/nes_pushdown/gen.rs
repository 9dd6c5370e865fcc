//! Writes FM2 movies of NES Tetris games full of soft drops, for the push-down points
//! differential (scripts/nes_pushdown_diff.sh builds and runs it; it is not part of the
//! crate).
//!
//! Each movie starts from power-on, goes through the menus to an A-type or B-type game at a
//! start level (B-type: a height), then places piece after piece with a small greedy player
//! that looks ahead on beamtris' own engine: for each rotation and column it plays the
//! inputs (turn and taps on alternate frames, a wait, then down held until the lock) on a
//! copy of the game and keeps the board that rates best. The wait before the push is drawn
//! at random (the placement kept), so every push length comes up at every score the game
//! reaches; some pushes are broken by a one-frame release (which drops the points so far).
//!
//! usage: gen OUTDIR GAMES MAX_FRAMES SEED

use beamtris::games::nes::gameplay::PlayState;
use beamtris::games::nes::{Buttons, Console, GameplayState};
use std::fmt::Write as _;

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

const NONE: Buttons = Buttons::NONE;

/// Power-on to the game: start on the copyright screen and the title, right for B-type,
/// start; on the level screen right (1) and down (5) to the level, for B-type A then the
/// height, and start (with A held for 10 more, A-type only).
fn menus(b_type: bool, level: u8, height: u8) -> Vec<Buttons> {
    let mut m = vec![NONE; 280];
    let tap = |m: &mut Vec<Buttons>, b: Buttons, idle: usize| {
        m.push(b);
        m.extend(std::iter::repeat(NONE).take(idle + 1));
    };
    tap(&mut m, Buttons::START, 40);
    tap(&mut m, Buttons::START, 40);
    if b_type {
        tap(&mut m, Buttons::RIGHT, 10);
    }
    tap(&mut m, Buttons::START, 40);
    let base = level % 10;
    for _ in 0..base / 5 {
        tap(&mut m, Buttons::DOWN, 4);
    }
    for _ in 0..base % 5 {
        tap(&mut m, Buttons::RIGHT, 4);
    }
    if b_type {
        tap(&mut m, Buttons::A, 4);
        for _ in 0..height % 3 {
            tap(&mut m, Buttons::RIGHT, 4);
        }
        for _ in 0..height / 3 {
            tap(&mut m, Buttons::DOWN, 4);
        }
    }
    if level >= 10 && !b_type {
        m.push(Buttons::A);
        m.push(Buttons::A);
        m.push(Buttons::A.with(Buttons::START));
        m.push(Buttons::A);
    } else {
        m.push(Buttons::START);
        m.push(NONE);
    }
    m
}

/// One piece's plan: turns (0, 1, 2 clockwise, 3 = one counter-clockwise), shift (columns,
/// negative left), frames waited before the push, and a frame on which the push is let go
/// for one frame (0: none).
#[derive(Clone, Copy, Debug)]
struct Plan {
    turns: u8,
    shift: i8,
    wait: usize,
    release_at: usize,
}

/// The inputs of frame `f` (from 0, the first frame in play) of a plan.
fn input(p: Plan, f: usize) -> Buttons {
    let mut b = NONE;
    let taps = p.shift.unsigned_abs() as usize;
    if f % 2 == 0 && f / 2 < taps {
        b = if p.shift < 0 {
            Buttons::LEFT
        } else {
            Buttons::RIGHT
        };
    }
    match (p.turns, f) {
        (1 | 2, 0) | (2, 2) => b = b.with(Buttons::A),
        (3, 0) => b = b.with(Buttons::B),
        _ => {}
    }
    let start = (2 * taps).max(4) + p.wait;
    if f >= start && !(p.release_at > 0 && f == start + p.release_at) {
        b = b.with(Buttons::DOWN);
    }
    b
}

/// Plays a plan from a piece's first frame in play to the next piece's (or the end):
/// the inputs, the state after, and whether it locked at all.
fn run(g: &GameplayState, p: Plan) -> Option<(Vec<Buttons>, GameplayState)> {
    let mut g = g.clone();
    let mut inputs = Vec::new();
    let mut f = 0;
    while g.play_state == PlayState::Move && !g.over() {
        let b = input(p, f);
        g.step(b);
        inputs.push(b);
        f += 1;
        if f > 2000 {
            return None;
        }
    }
    while g.play_state != PlayState::Move && !g.over() {
        g.step(NONE);
        inputs.push(NONE);
        if inputs.len() > 4000 {
            return None;
        }
    }
    Some((inputs, g))
}

/// Higher is better: lines, then a low, flat board without holes (Yiyuan Lee's weights).
fn rate(before: &GameplayState, g: &GameplayState) -> f64 {
    if g.over() {
        return f64::NEG_INFINITY;
    }
    let mut heights = [0i32; 10];
    let mut holes = 0;
    for (x, h) in heights.iter_mut().enumerate() {
        let mut seen = false;
        for y in 0..20 {
            let cell = g.playfield.get(x, y);
            if cell && !seen {
                seen = true;
                *h = 20 - y as i32;
            } else if !cell && seen {
                holes += 1;
            }
        }
    }
    let total: i32 = heights.iter().sum();
    let bump: i32 = heights.windows(2).map(|w| (w[0] - w[1]).abs()).sum();
    let lines = (g.lines.value() as i32 - before.lines.value() as i32).abs();
    -0.51 * f64::from(total) + 0.76 * f64::from(lines)
        - 0.36 * f64::from(holes)
        - 0.18 * f64::from(bump)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let out = &args[1];
    let games: usize = args[2].parse().unwrap();
    let max_frames: usize = args[3].parse().unwrap();
    let mut rng = Rng(args[4].parse::<u64>().unwrap() * 0x9E37_79B9_7F4A_7C15 + 1);
    std::fs::create_dir_all(out).unwrap();
    for n in 0..games {
        // Every fourth game B-type (a random level 0-9 and height); the A-type games take
        // the start levels 0-19 in turn.
        let (b_type, level, height) = if n % 4 == 3 {
            (true, rng.below(10) as u8, rng.below(6) as u8)
        } else {
            (false, ((n - n / 4) % 20) as u8, 0)
        };
        let mut inputs = menus(b_type, level, height);
        let mut console = Console::power_on();
        for &b in &inputs {
            console.step(b);
        }
        // Idle to the first frame of the first piece in play.
        while !matches!(console, Console::Game(_)) {
            console.step(NONE);
            inputs.push(NONE);
        }
        let Console::Game(mut g) = console else {
            unreachable!()
        };
        let mut pieces = 0;
        while !g.over() && inputs.len() < max_frames {
            let mut best: Option<(f64, Plan, Vec<Buttons>, GameplayState)> = None;
            for turns in 0..4 {
                for shift in -5..=4 {
                    let p = Plan {
                        turns,
                        shift,
                        wait: 0,
                        release_at: 0,
                    };
                    if let Some((i, after)) = run(&g, p) {
                        let r = rate(&g, &after);
                        if best.as_ref().map_or(true, |b| r > b.0) {
                            best = Some((r, p, i, after));
                        }
                    }
                }
            }
            let Some((_, plan, mut chosen, mut after)) = best else {
                break;
            };
            // A random wait (and sometimes a broken push) that keeps the same board.
            for _ in 0..4 {
                let wait = match rng.below(4) {
                    0 => 0,
                    1 => rng.below(8) as usize,
                    _ => rng.below(40) as usize,
                } * (1 + usize::from(g.level < 10) * 4);
                let release_at = if rng.below(6) == 0 {
                    2 + rng.below(12) as usize
                } else {
                    0
                };
                let p = Plan {
                    wait,
                    release_at,
                    ..plan
                };
                if let Some((i, a)) = run(&g, p) {
                    if a.playfield == after.playfield && !a.over() {
                        chosen = i;
                        after = a;
                        break;
                    }
                }
            }
            inputs.extend(chosen);
            g = Box::new(after);
            pieces += 1;
        }
        eprintln!("{}", g.playfield.rows_text());
        inputs.extend(std::iter::repeat(NONE).take(30));
        let name = if b_type {
            format!("b_lv{level:02}_h{height}_s{n}.fm2")
        } else {
            format!("a_lv{level:02}_s{n}.fm2")
        };
        let mut text = String::from(
            "version 3\nemuVersion 20400\nrerecordCount 0\npalFlag 0\nromFilename Tetris (USA)\n\
             romChecksum base64:Ww5XFVjIx5aTe5avRpVhxg==\nguid 00000000-0000-0000-0000-000000000000\n\
             fourscore 0\nmicrophone 0\nport0 1\nport1 1\nport2 0\nFDS 0\nNewPPU 0\n\
             RAMInitOption 0\nRAMInitSeed 0\ncomment author scripts/nes_pushdown/gen.rs\n",
        );
        for b in &inputs {
            let f: String = (0..8)
                .map(|i| {
                    if b.0 & (1 << i) != 0 {
                        "RLDUTSBA".as_bytes()[i] as char
                    } else {
                        '.'
                    }
                })
                .collect();
            writeln!(text, "|0|{f}|........||").unwrap();
        }
        std::fs::write(format!("{out}/{name}"), text).unwrap();
        println!(
            "{name} {} frames, {pieces} pieces, score {}, lines {}, level {}",
            inputs.len(),
            g.score.value(),
            g.lines.value(),
            g.level
        );
    }
}
