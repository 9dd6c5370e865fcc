//! A record played frame by frame on the engine ([`GameplayState::step`], the one the movies
//! are judged with) from the game's start: an A-type game at the starting level on an empty
//! board, the first piece waiting its 96 frames of entry delay, each piece's buttons from its
//! first frame in play, no button between pieces. TetrisGYM deals the pieces: after each
//! spawn the next piece is the seed's (GYM's picker depends on the seed alone, not on
//! frames), in place of the cartridge's own pick.
//!
//! The score is counted as TetrisGYM's classic scoring counts it, without the cartridge's cap
//! at 999 999: each clear's points at the level after it (`score.rs`), and soft-drop points
//! as `holdDownPoints - 1`. The cartridge's capped score is given beside it.

use super::buttons::Buttons;
use super::game::NesGame;
use super::gameplay::{GameplayState, Gravity, PlayState};
use super::linecap::LinecapWhen;
use super::movegen::{FIRST_ENTRY_DELAY, POINTS};
use super::orientation::{spawn_of, Orientation};
use super::placement::Carry;
use super::playfield::Playfield;
use super::record::{speed_problem, NesRecord};
use crate::piece::Shape;
use serde::Serialize;

/// Frames a piece may take to lock and the next to spawn once its inputs end: a piece falls
/// at least a row every 48 frames.
const MAX_WAIT: u64 = 5_000;

/// One lock, as the replay saw it.
#[derive(Clone, Debug)]
pub struct LockEvent {
    /// The piece (from 0).
    pub piece: usize,
    pub shape: Shape,
    /// `currentPiece` when it stopped.
    pub orientation: Orientation,
    pub x: i8,
    pub y: i8,
    /// The game's frame (from 1) on which it stopped falling.
    pub frame: u64,
    /// Lines it cleared.
    pub cleared: u8,
    /// Lines, level and score after it.
    pub lines: u32,
    pub level: u8,
    /// The gravity the next piece falls under (Killscreen x2 switched on or not).
    pub gravity: Gravity,
    pub gain: u32,
    pub score: u64,
    /// The playfield after the clears.
    pub playfield: Playfield,
}

/// The record's outcome.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct Outcome {
    /// TetrisGYM's classic score, uncapped.
    pub score: u64,
    /// The cartridge's score, capped at 999 999.
    pub rom_score: u32,
    pub lines: u32,
    pub level: u8,
    pub pieces: usize,
    /// Frames played from the first piece's spawn to the last piece's lock.
    pub frames: u64,
    /// `lines_reached` (the game's line target), `record_end` or `topped_out`.
    pub end_reason: &'static str,
    /// Every piece of the record was played without a top-out.
    pub valid: bool,
}

/// Plays `record` on `game`, calling `on_lock` after each lock's lines are counted. An error
/// (one line, naming the piece) says where the record does not fit the game: a speed other
/// than the game's, a piece other than the one dealt, presses faster than the speed, inputs
/// past the lock, pieces past the line target.
pub fn replay(
    game: &NesGame,
    record: &NesRecord,
    mut on_lock: impl FnMut(&LockEvent),
) -> Result<Outcome, String> {
    if record.speed != game.options.speed {
        return Err(format!(
            "speed {}: the game is played at {}",
            record.speed.name(),
            game.options.speed.name()
        ));
    }
    let pieces = &game.pieces;
    let mut g = GameplayState::at_spawn(
        game.options.level,
        Playfield::default(),
        pieces[0],
        pieces[1],
        Carry::default(),
    );
    g.autorepeat_y = -(FIRST_ENTRY_DELAY as i8);
    g.killscreen_x2 = game.options.killscreen_x2.map(LinecapWhen::Level);
    let mut frame = 0u64;
    let mut score = 0u64;
    let mut out = Outcome {
        score: 0,
        rom_score: 0,
        lines: 0,
        level: g.level,
        pieces: 0,
        frames: 0,
        end_reason: "record_end",
        valid: true,
    };
    for (k, p) in record.pieces.iter().enumerate() {
        let at = |what: String| format!("piece {}: {what}", k + 1);
        if out.end_reason == "lines_reached" {
            return Err(at(format!(
                "the game ended at {} lines with piece {k}",
                game.options.lines
            )));
        }
        if k + 1 >= pieces.len() {
            return Err(at(format!("the game has {} pieces", pieces.len() - 1)));
        }
        if p.shape != pieces[k] {
            return Err(at(format!(
                "the record places {}, the game deals {}",
                p.shape.letter(),
                pieces[k].letter()
            )));
        }
        if let Some(problem) = speed_problem(game.options.speed, &p.inputs) {
            return Err(at(problem));
        }
        if p.inputs
            .iter()
            .any(|b| b.has(Buttons::UP.with(Buttons::DOWN)))
        {
            return Err(at("up and down together".into()));
        }
        let mut stop = None;
        for (i, &b) in p.inputs.iter().enumerate() {
            g.step(b);
            frame += 1;
            if g.over() {
                break;
            }
            if g.play_state != PlayState::Move {
                if i + 1 < p.inputs.len() {
                    return Err(at(format!(
                        "it locks on frame {} of its {} inputs",
                        i + 1,
                        p.inputs.len()
                    )));
                }
                stop = Some((g.current, g.x, g.y, frame));
            }
        }
        let mut gain = 0u32;
        let mut waited = 0;
        while !(g.over() || stop.is_some() && g.play_state == PlayState::Move) {
            let (cleared, soft) = (g.completed_lines, g.hold_down_points);
            let before = g.play_state;
            g.step(Buttons::NONE);
            frame += 1;
            waited += 1;
            if g.play_state == PlayState::GoalCheck && before != PlayState::GoalCheck {
                gain = POINTS[usize::from(cleared.min(4))] * (u32::from(g.level) + 1)
                    + u32::from(soft.saturating_sub(1));
            }
            if stop.is_none() && g.play_state != PlayState::Move {
                stop = Some((g.current, g.x, g.y, frame));
            }
            if waited > MAX_WAIT {
                return Err(at(format!("it does not lock within {MAX_WAIT} frames")));
            }
        }
        if g.over() {
            out.end_reason = "topped_out";
            out.valid = false;
            break;
        }
        let (orientation, x, y, stopped) = stop.expect("the loop ends on a lock");
        if let Some(&after) = pieces.get(k + 2) {
            g.next = spawn_of(after);
        }
        score += u64::from(gain);
        let lines = g.lines.value();
        on_lock(&LockEvent {
            piece: k,
            shape: p.shape,
            orientation,
            x,
            y,
            frame: stopped,
            cleared: (lines - out.lines) as u8,
            lines,
            level: g.level,
            gravity: Gravity {
                level: g.level,
                double: g.double_gravity,
            },
            gain,
            score,
            playfield: g.playfield.clone(),
        });
        out.lines = lines;
        out.level = g.level;
        out.pieces = k + 1;
        out.frames = stopped;
        if lines >= game.options.lines {
            out.end_reason = "lines_reached";
        }
    }
    out.score = score;
    out.rom_score = g.score.value();
    Ok(out)
}
