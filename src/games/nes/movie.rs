//! A movie played from power-on, frame by frame, and what the game shows at the frames
//! asked: the checkpoint a real console's RAM is compared with.

use super::buttons::Buttons;
use super::fm2::{Movie, MAX_FRAMES};
use super::gameplay::Ending;
use super::menus::Console;
use crate::error::{Error, Result};
use serde::Serialize;

/// The state after a frame (frame 1 is the state after the movie's first input).
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct Snapshot {
    pub frame: u64,
    /// Score, lines and level in a game; null in the menus.
    pub score: Option<u32>,
    pub lines: Option<u32>,
    pub level: Option<u8>,
    /// Whether the game has topped out; null in the menus.
    pub dead: Option<bool>,
    /// The menu screen (`copyright`, `title`, `game_type`, `level_select`), null in a game.
    pub menu: Option<&'static str>,
    /// Whether a game is on (the playfield is up).
    pub gameplay: bool,
}

/// What the console shows now, as the snapshot of `frame`.
pub fn snapshot(console: &Console, frame: u64) -> Snapshot {
    match console {
        Console::Menus(m) => Snapshot {
            frame,
            score: None,
            lines: None,
            level: None,
            dead: None,
            menu: Some(m.screen.name()),
            gameplay: false,
        },
        Console::Game(g) => Snapshot {
            frame,
            score: Some(g.score.value()),
            lines: Some(g.lines.value()),
            level: Some(g.level),
            dead: Some(g.ending == Ending::ToppedOut),
            menu: None,
            gameplay: true,
        },
    }
}

/// Plays `movie` from power-on and returns the snapshot of each frame in `at` (in the
/// order asked; a frame may repeat). Past the movie's last input the console runs on with no
/// button down. Frame 0 is power-on itself; frames beyond [`MAX_FRAMES`] are refused.
pub fn play(movie: &Movie, at: &[u64]) -> Result<Vec<Snapshot>> {
    if let Some(&f) = at.iter().find(|&&f| f > MAX_FRAMES as u64) {
        return Err(Error::at(
            "--at",
            format!("frame {f} is beyond {MAX_FRAMES}: refused"),
        ));
    }
    let mut order: Vec<usize> = (0..at.len()).collect();
    order.sort_by_key(|&i| at[i]);
    let mut out: Vec<Option<Snapshot>> = vec![None; at.len()];
    let mut console = Console::power_on();
    let mut frame = 0u64;
    for i in order {
        while frame < at[i] {
            let input = movie
                .inputs
                .get(frame as usize)
                .copied()
                .unwrap_or(Buttons::NONE);
            console.step(input);
            frame += 1;
        }
        out[i] = Some(snapshot(&console, frame));
    }
    Ok(out.into_iter().flatten().collect())
}
