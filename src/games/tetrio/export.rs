//! A record handed back to TETR.IO: the keys that play each piece from TETR.IO's spawn to
//! the record's placement under the game's handling (DAS, ARR, SDF) at a pace, written as a
//! solo replay (`.ttr`). Each piece's keys are checked on the engine frame by frame as they
//! are found, and the whole file is read back by the import's own parser and simulation:
//! the placements and statistics must be the record's. See `docs/tetrio.md`.

pub mod file;
pub mod plan;

use super::engine::{Engine, Lock};
use super::game::TetrioGame;
use super::options::Options;
use super::replay::MAX_FRAMES;
use super::stats::{self, TetrioStats};
use crate::error::{Error, Result};
use plan::VARIANTS;
pub use plan::{Goal, Press, Timing};

/// The pace when neither the command nor the game gives one.
pub const DEFAULT_PPS: f64 = 2.0;

/// A record exported.
pub struct Exported {
    /// The `.ttr` file's text.
    pub text: String,
    pub stats: TetrioStats,
    pub pieces: usize,
    /// Key presses (keydowns).
    pub presses: usize,
    /// The frames the replay lasts.
    pub frames: i64,
    /// The pace asked for, and the fastest the handling allows on this record (none for a
    /// survival game, played at its own lock times).
    pub pps: f64,
    pub max_pps: Option<f64>,
    /// Pieces whose keys follow the record's path (tucks, spins); the others rotate, shift
    /// and hard drop.
    pub from_path: usize,
}

/// The pace of an imported game (its pieces over the time to its last lock), else
/// [`DEFAULT_PPS`].
pub fn default_pps(game: &TetrioGame) -> f64 {
    match game.locks.last() {
        Some(last) if last.frame > 0 => game.locks.len() as f64 * 60.0 / last.frame as f64,
        _ => DEFAULT_PPS,
    }
}

/// What must agree between two locks: the piece, the cells it fills, its spin and what it
/// cleared (an S turned twice fills the cells of an S not turned: finesse's keys may lock
/// either; a spin is compared by its kind).
fn same(a: &Lock, b: &Lock) -> bool {
    let cells = |l: &Lock| super::finesse::cells(l.piece, l.rotation, l.x, l.y);
    (a.piece, cells(a), a.spin, a.lines, a.allclear, a.held)
        == (b.piece, cells(b), b.spin, b.lines, b.allclear, b.held)
}

fn describe(l: &Lock) -> String {
    format!(
        "{} rotation {} at column {} row {}",
        super::pieces::LETTERS[l.piece as usize],
        l.rotation,
        l.x,
        l.y
    )
}

/// Plays the record's paths op by op (as `TetrioGame::replay` does) and refuses the first op
/// that does nothing on TETR.IO's engine (a move into the wall or the stack, a hold refused)
/// and a game lost before the record's last piece: the record was made for another game.
fn check_fit(game: &TetrioGame, o: &Options, paths: &[String], place: &str) -> Result<()> {
    let mut e = Engine::new(o.clone());
    for (k, path) in paths.iter().enumerate() {
        if let Some(t) = game.locks.get(k) {
            e.raise_survival_rows(t.frame, t.hard);
        }
        let spawn_drop = !game.tetrio_spawn;
        if spawn_drop && !e.apply('D') {
            return Err(Error::at(place, format!("piece {}: the spawn is blocked on TETR.IO's engine (the game is lost here): the record does not fit this game", k + 1)));
        }
        for (i, op) in path.chars().enumerate() {
            if !e.apply(op) {
                return Err(Error::at(place, format!("piece {}: move {} ({op}) is blocked on TETR.IO's engine: the record does not fit this game", k + 1, i + 1)));
            }
            if op == 'H' && spawn_drop {
                e.apply('D');
            }
        }
        e.drop_and_lock(true);
        if e.topped_out && k + 1 < paths.len() {
            return Err(Error::at(place, format!("piece {}: the game is lost after it, before the record's {} pieces: the record does not fit this game", k + 1, paths.len())));
        }
    }
    Ok(())
}

/// Runs frames `from..=to` of `presses` (sorted) on `e`.
pub fn run(e: &mut Engine, presses: &[Press], from: i64, to: i64) {
    let start = presses.partition_point(|p| p.tenth < from * 10);
    let mut i = start;
    let mut batch = Vec::new();
    for f in from..=to {
        batch.clear();
        while i < presses.len() && presses[i].tenth < (f + 1) * 10 {
            let p = presses[i];
            batch.push(p.event());
            i += 1;
        }
        e.tick(&batch);
    }
}

/// Keys for every piece: for each, the first variant whose keys lock it where the record
/// does (`wait(k, spawn)` frames of gravity before the drop, or none if that fails).
struct Keys {
    presses: Vec<Press>,
    /// Each piece's hard drop frame.
    drops: Vec<i64>,
    /// Pieces played by their record's path (tucks, spins), not rotate, shift and drop.
    from_path: usize,
}

/// The passes over the key variants of a piece.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Pass {
    Wait,
    Plain,
    Late,
}

struct Planner<'a> {
    o: &'a Options,
    timing: Timing,
    targets: &'a [Lock],
    moves: Vec<(bool, Vec<char>)>,
}

impl Planner<'_> {
    fn goal(&self, k: usize) -> Goal {
        let t = &self.targets[k];
        Goal {
            piece: t.piece,
            rotation: t.rotation,
            x: t.x,
            dx: t.x - super::finesse::spawn_x(t.piece, self.o.width),
            spin: t.spin != super::attack::SpinKind::None,
            width: self.o.width,
            stops: self.timing.stops(),
        }
    }

    /// The keys, or the piece (from 0) no variant places.
    fn keys(&self, wait: &dyn Fn(usize, i64, i64) -> i64) -> std::result::Result<Keys, usize> {
        let mut keys = Keys {
            presses: Vec::new(),
            drops: Vec::new(),
            from_path: 0,
        };
        let fresh = |presses: &[Press], upto: i64| {
            let mut e = Engine::new(self.o.clone());
            run(&mut e, presses, 0, upto);
            e
        };
        let mut spawn = 0;
        let mut e = fresh(&[], 0);
        let mut clean = true;
        for k in 0..self.targets.len() {
            let (hold, ops) = &self.moves[k];
            let piece = PieceKeys {
                timing: &self.timing,
                goal: self.goal(k),
                hold: *hold,
                ops,
                allow180: self.o.allow180,
                spawn,
            };
            let lost_early = |e: &Engine| e.topped_out && k + 1 < self.targets.len();
            let found = piece.find(
                &|spawn, length| wait(k, spawn, length),
                &mut |trial, drop| {
                    if !clean {
                        e = fresh(&keys.presses, spawn);
                    }
                    run(&mut e, trial, spawn + 1, drop);
                    clean = e.locks.len() == k + 1
                        && same(&e.locks[k], &self.targets[k])
                        && !lost_early(&e);
                    clean
                },
            );
            let Some((trial, drop, from_path)) = found else {
                return Err(k);
            };
            keys.from_path += usize::from(from_path);
            keys.presses.extend(trial);
            keys.drops.push(drop);
            spawn = drop;
        }
        Ok(keys)
    }
}

/// One piece to key: where it goes, its path's moves, and the frame it spawned in.
pub struct PieceKeys<'a> {
    pub timing: &'a Timing,
    pub goal: Goal,
    /// Whether it comes through the hold, and its path's unit moves ([`plan::moves`]).
    pub hold: bool,
    pub ops: &'a [char],
    pub allow180: bool,
    pub spawn: i64,
}

impl PieceKeys<'_> {
    /// The first keys that place the piece: each variant in turn, waiting
    /// `wait(spawn, length)` frames of gravity before the drop (a pace), then not waiting,
    /// then (where the piece must not lock before its time: a survival row is due first)
    /// waiting before the first key for part of the wait. `accept(keys, drop)` runs them
    /// (from the frame after the spawn to the drop) and says whether the piece locked as it
    /// should. The keys, their drop frame and whether they follow the path.
    pub fn find(
        &self,
        wait: &dyn Fn(i64, i64) -> i64,
        accept: &mut dyn FnMut(&[Press], i64) -> bool,
    ) -> Option<(Vec<Press>, i64, bool)> {
        let (goal, spawn, ops) = (&self.goal, self.spawn, self.ops);
        // Variants whose wait is 0 are tried once.
        let mut plain = [false; VARIANTS.len()];
        for pass in [Pass::Wait, Pass::Plain, Pass::Late] {
            for (i, v) in VARIANTS.into_iter().enumerate() {
                // SDF 41 drops to the stack at once: no soft drop stops part way.
                if matches!(v.descent, plan::Descent::Exact(_)) && self.timing.sdf >= 41.0 {
                    continue;
                }
                let Some(minimal) = plan::actions(v, ops, goal, self.allow180, 0) else {
                    continue;
                };
                let mut trial = Vec::new();
                let length = plan::lay(&minimal, self.hold, spawn, self.timing, &mut trial) - spawn;
                let w = if pass == Pass::Plain {
                    0
                } else {
                    wait(spawn, length)
                };
                let starts: Vec<i64> = match pass {
                    Pass::Late if w > 0 => (1..=8).rev().map(|e| w * e / 8).collect(),
                    Pass::Late => Vec::new(),
                    _ if w == 0 && std::mem::replace(&mut plain[i], true) => Vec::new(),
                    _ => vec![0],
                };
                for start in starts {
                    if start > 0 || w > 0 {
                        let actions = plan::actions(v, ops, goal, self.allow180, w - start)
                            .unwrap_or_else(|| minimal.clone());
                        trial.clear();
                        plan::lay(&actions, self.hold, spawn + start, self.timing, &mut trial);
                    }
                    let drop = plan::drop_frame(&trial, spawn);
                    if accept(&trial, drop) {
                        return Some((trial, drop, v.from_path));
                    }
                }
            }
        }
        None
    }
}

/// What no replay file can carry: another player's garbage, gravity too weak to take a
/// piece from its spawn, no piece; and for a survival game, another pace than its own or
/// pieces past its lock times.
fn refuse_unexportable(
    game: &TetrioGame,
    o: &Options,
    paths: &[String],
    pps: Option<f64>,
    record: &str,
    game_place: &str,
) -> Result<()> {
    if !game.events.is_empty() {
        return Err(Error::at(game_place, "the game holds garbage from other players (a versus round): a solo replay (.ttr) cannot carry it"));
    }
    if o.g < 0.001 {
        return Err(Error::at(game_place, format!("gravity g {} is under 0.001: the keys wait for gravity to take each piece from its spawn", o.g)));
    }
    if paths.is_empty() {
        return Err(Error::at(
            record,
            "holds no piece: there is nothing to export",
        ));
    }
    if o.survival.is_some() {
        // Its rows rise by the clock: another pace would be another game.
        if let Some(p) = pps {
            let flag = format!("--pps {}", crate::limits::short_number(p));
            return Err(Error::at(flag, "the game raises survival garbage by the clock: its export keeps the game's own lock times (leave --pps out)"));
        }
        if paths.len() > game.locks.len() {
            return Err(Error::at(record, format!("{} pieces, but the game file holds the lock times of {}: a survival game's rows rise by the clock, so each piece needs its time", paths.len(), game.locks.len())));
        }
    }
    Ok(())
}

/// Exports `paths` (a record's, `H` first for a hold) on `game` at `pps` pieces a second
/// (default: [`default_pps`]); `record` and `game_place` name the inputs in errors. The
/// file's user is `username`.
pub fn export(
    game: &TetrioGame,
    paths: &[String],
    pps: Option<f64>,
    record: &str,
    game_place: &str,
    username: &str,
) -> Result<Exported> {
    let o = game.parsed_options(game_place)?;
    refuse_unexportable(game, &o, paths, pps, record, game_place)?;
    check_fit(game, &o, paths, record)?;
    let reference = game.replay(paths, record)?;
    if reference.locks.len() != paths.len() {
        return Err(Error::at(record, format!("{} pieces lock on TETR.IO's engine, not the record's {}: the record does not fit this game", reference.locks.len(), paths.len())));
    }
    let planner = Planner {
        o: &o,
        timing: Timing::of(&o),
        targets: &reference.locks,
        moves: paths
            .iter()
            .map(|p| plan::moves(p, game.tetrio_spawn))
            .collect(),
    };
    let no_piece = |k: usize| {
        Error::at(record, format!("piece {} ({}): no keys found that place it there on TETR.IO's engine under the game's handling (DAS {}, ARR {}, SDF {})", k + 1, describe(&reference.locks[k]), o.handling.das, o.handling.arr, o.handling.sdf))
    };
    let n = paths.len();
    let (keys, pps, max_pps, flag) = match o.survival {
        // A survival game drops each piece where the game's lock was (a frame earlier when
        // gravity locked it: the row at a frame's start then came after it), so the same
        // rows rise before each lock.
        Some(_) => {
            let drop = |k: usize| game.locks[k].frame - i64::from(!game.locks[k].hard);
            let keys = planner
                .keys(&|k, spawn, length| (drop(k) - spawn - length).max(0))
                .map_err(no_piece)?;
            let last = *keys.drops.last().expect("a piece at least");
            let pace = n as f64 * 60.0 / last.max(1) as f64;
            (keys, pace, None, "the game's lock times".to_string())
        }
        None => {
            let (keys, pps, most, flag) = paced_keys(
                &planner,
                pps.unwrap_or_else(|| default_pps(game)),
                &no_piece,
            )?;
            (keys, pps, Some(most), flag)
        }
    };
    let from_path = keys.from_path;
    let mut presses = keys.presses;
    let mut last = *keys.drops.last().expect("a piece at least");
    // Holds after the last lock, as the game file says (TetrioGame::replay makes them too).
    if paths.len() == game.locks.len() && !reference.topped_out {
        for _ in 0..game.holds_after_last_lock {
            last += 1;
            presses.push(Press {
                tenth: last * 10,
                key: super::engine::Key::Hold,
                down: true,
            });
            presses.push(Press {
                tenth: last * 10 + 1,
                key: super::engine::Key::Hold,
                down: false,
            });
        }
    }
    let mut e = Engine::new(o.clone());
    run(&mut e, &presses, 0, last);
    let header = file::Header {
        options: &game.options,
        username,
        stats: &e.stats,
        topped_out: e.topped_out,
        last_frame: last,
        ts: file::now(),
        gametype: file::gametype(&o),
    };
    let text =
        serde_json::to_string(&file::ttr(&header, &presses)).expect("plain data serialises") + "\n";
    // The check: the file read back by the import's own parser and simulated.
    let back = check_back(&text, &reference, record, &flag)?;
    // `endcontext` states what that simulation of the file counts (its final time runs to the
    // `end` event), so an import of the file agrees with it field by field.
    let header = file::Header {
        stats: &back,
        ..header
    };
    let text =
        serde_json::to_string(&file::ttr(&header, &presses)).expect("plain data serialises") + "\n";
    Ok(Exported {
        text,
        stats: back,
        pieces: n,
        presses: presses.iter().filter(|p| p.down).count(),
        frames: last + 1,
        pps,
        max_pps,
        from_path,
    })
}

/// Keys at `pps` pieces a second: each piece drops at its time on the pace, or later when
/// the pieces after it need the time (their fastest keys). Also the pace, the fastest pace
/// the handling allows, and the flag errors name.
fn paced_keys(
    planner: &Planner,
    pps: f64,
    no_piece: &dyn Fn(usize) -> Error,
) -> Result<(Keys, f64, f64, String)> {
    let o = planner.o;
    // The fastest: every piece's keys without waiting.
    let fastest = planner.keys(&|_, _, _| 0).map_err(no_piece)?;
    let n = planner.targets.len();
    let fastest_end = *fastest.drops.last().expect("a piece at least");
    let max_pps = n as f64 * 60.0 / fastest_end.max(1) as f64;
    let flag = format!("--pps {}", crate::limits::short_number(pps));
    if !(pps > 0.0 && pps.is_finite()) {
        return Err(Error::at(flag, "give a number of pieces a second above 0"));
    }
    let end = (n as f64 * 60.0 / pps).round() as i64;
    if end < fastest_end {
        return Err(Error::at(flag, format!("past what the handling allows on this record (DAS {}, ARR {}, SDF {}): at most {max_pps:.2} pieces a second", o.handling.das, o.handling.arr, o.handling.sdf)));
    }
    if end > MAX_FRAMES {
        return Err(Error::at(
            flag,
            format!("the replay would last {end} frames, past the {MAX_FRAMES} a replay may last"),
        ));
    }
    let lengths: Vec<i64> = std::iter::once(0)
        .chain(fastest.drops.iter().copied())
        .collect::<Vec<_>>()
        .windows(2)
        .map(|w| w[1] - w[0])
        .collect();
    let mut after = vec![0; n + 1];
    for k in (0..n).rev() {
        after[k] = after[k + 1] + lengths[k];
    }
    let goal_drop =
        |k: usize| (((k + 1) as f64 * 60.0 / pps).round() as i64).min(end - after[k + 1]);
    let keys = planner
        .keys(&|k, spawn, length| (goal_drop(k) - spawn - length).max(0))
        .map_err(no_piece)?;
    Ok((keys, pps, max_pps, flag))
}

/// Reads the written replay as `import` does and simulates it: its placements and statistics
/// must be those of the record replayed on the game.
fn check_back(text: &str, reference: &Engine, record: &str, pps_flag: &str) -> Result<TetrioStats> {
    let bad = |why: String| {
        Error::at(
            record,
            format!(
                "the exported keys, read back, {why} (a fault of the export; please report it)"
            ),
        )
    };
    let rounds = super::replay::parse("the exported replay", text)
        .map_err(|e| bad(format!("are refused: {e}")))?;
    let e = super::simulate(&rounds[0]);
    if e.locks.len() != reference.locks.len() {
        return Err(bad(format!(
            "lock {} pieces, not {}",
            e.locks.len(),
            reference.locks.len()
        )));
    }
    if let Some(k) = (0..e.locks.len()).find(|&k| !same(&e.locks[k], &reference.locks[k])) {
        return Err(bad(format!(
            "place piece {} as {}, not {}",
            k + 1,
            describe(&e.locks[k]),
            describe(&reference.locks[k])
        )));
    }
    // The keys' own figures (presses, finesse, soft-drop points, the time) are the export's:
    // a record has no keys to compare them with.
    let of_keys = |name: &str| {
        matches!(name, "score" | "inputs" | "finalTime") || name.starts_with("finesse.")
    };
    let differ: Vec<String> = stats::fields(&e.stats)
        .into_iter()
        .zip(stats::fields(&reference.stats))
        .filter(|(a, b)| a.1 != b.1 && !of_keys(&a.0))
        .map(|(a, b)| format!("{} {} (record {})", a.0, a.1, b.1))
        .collect();
    if !differ.is_empty() {
        // Same placements, other statistics: the rules that change with time (the garbage
        // multiplier's growth) acted on the replay's clock, not on the record's.
        return Err(Error::at(
            pps_flag,
            format!(
                "the replay lasts {} frames and TETR.IO's rules change with time (the garbage \
                 multiplier after garbagemargin): read back, the same placements give other \
                 statistics: {}; a faster pace or fewer pieces keeps the record's",
                e.clock().0,
                differ.join(", ")
            ),
        ));
    }
    Ok(e.stats)
}
