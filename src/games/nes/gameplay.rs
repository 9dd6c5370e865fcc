//! One game in progress, frame by frame: the ROM's play states (move, lock, row check,
//! line-clear animation, score update, spawn), the pause, and the rendering wait that ties
//! lock and spawn to the rows drawn so far.

use super::buttons::Buttons;
use super::garbage;
use super::linecap::LinecapWhen;
use super::orientation::Orientation;
use super::playfield::Playfield;
use super::rng::{Picker, Rng};
use super::score::{level_after_line, Lines, Score};

/// Game type A (marathon) or B (25 lines, with garbage).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum GameType {
    A,
    B,
}

/// `playState` ($0048).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum PlayState {
    /// 1: the piece moves (shift, rotate, drop).
    Move,
    /// 2: waits for the rows to be drawn, then writes the piece into the playfield.
    Lock,
    /// 3: checks one of the four rows from the piece's top a frame, clearing full ones.
    CheckRows,
    /// 4: the line-clear animation, one step every fourth frame.
    ClearAnimation,
    /// 5: lines, level and score.
    UpdateLines,
    /// 6: B-type goal check.
    GoalCheck,
    /// 7: garbage from the other player (nothing in a one-player game).
    Garbage,
    /// 8: waits for the rows to be drawn, then spawns the next piece.
    Spawn,
}

/// Which part of the frame's chain of game-mode states runs next (`gameModeState`, $00A7).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Chain {
    /// The full chain: the player's play state, then the start button.
    Play,
    /// Only the start button check: a frame that held exactly right, left and down ended
    /// early (a ROM quirk), and the next frame resumes here instead of playing.
    StartButton,
    /// The frame after unpausing, which does nothing else.
    Resume,
}

/// What a frame did to the game's end.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Ending {
    Playing,
    /// The piece to lock did not fit (`playState` $0A, the curtain): the state stays.
    ToppedOut,
    /// B-type: the line count reached 0 (the ending runs; the state stays).
    Cleared,
}

/// The gameplay state, its fields the RAM they stand for (active-player copies at
/// $0040-$005F).
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct GameplayState {
    /// $0048 = $0A (top-out) or the B-type ending: once set, frames change nothing.
    pub ending: Ending,
    /// The pause loop; frames still step the register and the frame counter.
    pub paused: bool,
    /// $00A7 `gameModeState`.
    pub chain: Chain,
    /// $0048 `playState`.
    pub play_state: PlayState,
    /// $0057 `lineIndex`: which of the four rows `CheckRows` looks at next.
    pub line_index: u8,
    /// $0052 `rowY`: line-clear animation steps done (5 end it).
    pub row_y: u8,
    /// $00F7 `heldButtons` of the frame before (the newly pressed are judged against it).
    pub held: Buttons,
    /// $0017-$0018 `rng_seed`.
    pub rng: Rng,
    /// $0019-$001A `spawnID`, `spawnCount`.
    pub picker: Picker,
    /// $00B1 `frameCounter`, low two bits (the animation steps when they read 1).
    pub frame_counter: u8,
    /// $0049 `vramRow`: rows drawn since the playfield changed; $20 when all are.
    pub vram_row: u8,
    /// $0056 `completedLines`.
    pub completed_lines: u8,
    /// $0040 `tetriminoX`.
    pub x: i8,
    /// $0041 `tetriminoY`.
    pub y: i8,
    /// $004F `holdDownPoints`: rows soft-dropped in the current push.
    pub hold_down_points: u8,
    /// $0045 `fallTimer`.
    pub fall_timer: u8,
    /// $004E `autorepeatY`: negative during the entry delay of the first piece (-96), 0
    /// when no push is on, 1-2 counting a push.
    pub autorepeat_y: i8,
    /// $0046 `autorepeatX`: DAS, counts up from 0 on a press; a shift at 16, then back to
    /// 10 (6 frames a repeat); set to 16 when a shift is blocked.
    pub autorepeat_x: u8,
    /// $00C1 `gameType`.
    pub game_type: GameType,
    /// $0400-$04FF.
    pub playfield: Playfield,
    /// $0042 `currentPiece`.
    pub current: Orientation,
    /// $00BF `nextPiece`.
    pub next: Orientation,
    /// $0053-$0055.
    pub score: Score,
    /// $0044 `levelNumber`.
    pub level: u8,
    /// $0050-$0051.
    pub lines: Lines,
    /// TetrisGYM's linecap set to "Killscreen x2" (`linecapFlag`, `linecapHow` = 0 and
    /// `linecapWhen`): when the doubled gravity starts. `None` on the cartridge.
    pub killscreen_x2: Option<LinecapWhen>,
    /// GYM's `linecapState` = `LINECAP_KILLX2` ($0639): the switch has happened, pieces
    /// fall two rows a frame.
    pub double_gravity: bool,
}

/// The first piece's entry delay: `autorepeatY` starts at -96 ($A0), so gravity waits 96
/// frames unless down is pressed.
const FIRST_ENTRY_DELAY: i8 = -96;

/// `framesPerDropTable`, levels 0-28; 29 and above drop every frame.
const FRAMES_PER_DROP: [u8; 29] = [
    48, 43, 38, 33, 28, 23, 18, 13, 8, 6, 5, 5, 5, 4, 4, 4, 3, 3, 3, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
];

/// Frames per row of gravity at `level`.
pub fn frames_per_drop(level: u8) -> u8 {
    FRAMES_PER_DROP
        .get(usize::from(level))
        .copied()
        .unwrap_or(1)
}

/// How a piece falls: the level's frames per row, or, with TetrisGYM's Killscreen x2
/// switched on, two rows every frame (the drop routine run three times, `moving.rs`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Gravity {
    pub level: u8,
    pub double: bool,
}

impl Gravity {
    /// The cartridge's gravity at `level`.
    pub fn single(level: u8) -> Gravity {
        Gravity {
            level,
            double: false,
        }
    }

    /// The gravity in words: `3 frames a row`, `1 row a frame`, `2 rows a frame`.
    pub fn describe(self) -> String {
        match (self.double, frames_per_drop(self.level)) {
            (true, _) => "2 rows a frame".into(),
            (false, 1) => "1 row a frame".into(),
            (false, n) => format!("{n} frames a row"),
        }
    }

    /// Rows a piece falls in its first frames (an upper bound on how soon it reaches a row):
    /// 2 a frame when doubled, else one every `framesPerDrop`.
    pub fn rows_per_frame(self) -> f64 {
        if self.double {
            2.0
        } else {
            1.0 / f64::from(frames_per_drop(self.level))
        }
    }
}

/// What the menus hand to a new game.
#[derive(Clone, Copy, Debug)]
pub struct Start {
    pub rng: Rng,
    pub frame_counter: u8,
    pub held: Buttons,
    pub game_type: GameType,
    pub level: u8,
    /// B-type garbage height 0-5.
    pub height: u8,
}

impl GameplayState {
    /// The state the menus start: the first two pieces dealt (the register stepped once
    /// between them), B-type garbage drawn, the first piece at its entry delay.
    pub fn start(s: Start) -> GameplayState {
        let mut g = GameplayState {
            ending: Ending::Playing,
            paused: false,
            chain: Chain::Play,
            play_state: PlayState::Move,
            line_index: 0,
            row_y: 0,
            held: s.held,
            rng: s.rng,
            picker: Picker::default(),
            frame_counter: s.frame_counter,
            vram_row: 0,
            completed_lines: 0,
            x: 5,
            y: 0,
            hold_down_points: 0,
            fall_timer: 0,
            autorepeat_y: FIRST_ENTRY_DELAY,
            autorepeat_x: 0,
            game_type: s.game_type,
            playfield: Playfield::default(),
            current: 0,
            next: 0,
            score: Score::default(),
            level: s.level,
            lines: match s.game_type {
                GameType::A => Lines::default(),
                GameType::B => Lines([0x25, 0]),
            },
            killscreen_x2: None,
            double_gravity: false,
        };
        g.current = g.picker.pick(&mut g.rng);
        g.rng.step();
        g.next = g.picker.pick(&mut g.rng);
        if s.game_type == GameType::B {
            garbage::fill(&mut g.playfield, &mut g.rng, s.height);
        }
        g
    }

    /// Whether the game has ended (top-out or B-type goal).
    pub fn over(&self) -> bool {
        self.ending != Ending::Playing
    }

    /// One frame: the NMI's part (frame counter, rows drawn, the animation step), then the
    /// main loop's (register step, pause, the chain of game-mode states).
    pub fn step(&mut self, input: Buttons) {
        if self.over() {
            return;
        }
        self.frame_counter = (self.frame_counter + 1) & 3;
        self.rng.step();
        let pressed = input.pressed_since(self.held);
        if self.paused {
            if pressed == Buttons::START {
                self.vram_row = 0;
                self.chain = Chain::Resume;
                self.paused = false;
            }
        } else if self.play_state == PlayState::ClearAnimation {
            if self.frame_counter == 1 {
                self.row_y += 1;
                if self.row_y >= 5 {
                    self.play_state = PlayState::UpdateLines;
                }
            }
        } else {
            self.draw_rows();
        }
        if !self.paused {
            self.run_chain(input, pressed);
        }
        self.held = input;
    }

    /// Four playfield rows copied to the screen (`copyPlayfieldRowToVRAM` four times):
    /// row 20 done means all are, which the ROM marks as $20.
    fn draw_rows(&mut self) {
        for _ in 0..4 {
            if self.vram_row <= 0x14 {
                self.vram_row += 1;
                if self.vram_row >= 0x14 {
                    self.vram_row = 0x20;
                }
            }
        }
    }

    /// `updatePlayfield`: the rows from two above the piece down need drawing again.
    pub(super) fn redraw_from_piece(&mut self) {
        let top = (self.y - 2).max(0) as u8;
        self.vram_row = self.vram_row.min(top);
    }

    fn drawn(&self) -> bool {
        self.vram_row >= 0x20
    }

    fn run_chain(&mut self, input: Buttons, pressed: Buttons) {
        if self.chain == Chain::Play {
            self.fall_timer = self.fall_timer.wrapping_add(1);
            self.run_play_state(input, pressed);
            self.chain = Chain::StartButton;
            if self.over() || input == Buttons::RIGHT.with(Buttons::LEFT).with(Buttons::DOWN) {
                return;
            }
        }
        if self.chain == Chain::StartButton && pressed.has(Buttons::START) {
            self.paused = true;
        }
        self.chain = Chain::Play;
    }

    fn run_play_state(&mut self, input: Buttons, pressed: Buttons) {
        match self.play_state {
            PlayState::Move => {
                self.shift(input, pressed);
                self.rotate(pressed);
                self.drop(input, pressed);
            }
            PlayState::Lock => self.lock(),
            PlayState::CheckRows => self.check_row(),
            PlayState::ClearAnimation => {}
            PlayState::UpdateLines => self.update_lines(),
            PlayState::GoalCheck => {
                if self.game_type == GameType::B && self.lines.value() == 0 {
                    self.ending = Ending::Cleared;
                } else {
                    self.play_state = PlayState::Garbage;
                }
            }
            PlayState::Garbage => self.play_state = PlayState::Spawn,
            PlayState::Spawn => self.spawn(),
        }
    }

    /// `playState_lockTetrimino`: a piece that does not fit where it stands tops out;
    /// otherwise it is written once the rows are drawn.
    fn lock(&mut self) {
        if !self.playfield.fits(self.current, self.x, self.y) {
            self.ending = Ending::ToppedOut;
            return;
        }
        if !self.drawn() {
            return;
        }
        self.playfield.lock(self.current, self.x, self.y);
        self.line_index = 0;
        self.redraw_from_piece();
        self.play_state = PlayState::CheckRows;
    }

    /// `playState_checkForCompletedRows`: one row a frame, from two above the piece.
    fn check_row(&mut self) {
        if !self.drawn() {
            return;
        }
        let row = (self.y - 2).max(0) as u8 + self.line_index;
        if self.playfield.row_full(row) {
            self.playfield.clear_row(row);
            self.completed_lines += 1;
        }
        self.line_index += 1;
        if self.line_index == 4 {
            self.vram_row = 0;
            self.row_y = 0;
            self.play_state = if self.completed_lines == 0 {
                PlayState::UpdateLines
            } else {
                PlayState::ClearAnimation
            };
        }
    }

    /// `playState_updateLinesAndStatistics`: lines (A-type counts up and levels up when
    /// the count's tens and hundreds, read as BCD, exceed the level; B-type counts down),
    /// then soft-drop and line points.
    fn update_lines(&mut self) {
        match self.game_type {
            GameType::A => {
                for _ in 0..self.completed_lines {
                    self.lines.increment();
                    self.level = level_after_line(self.level, self.lines);
                }
                // GYM's `checkLinecap`, after the lines of a clear and before its points
                if self.completed_lines > 0 && !self.double_gravity {
                    self.double_gravity = self
                        .killscreen_x2
                        .is_some_and(|when| when.reached(self.level, self.lines));
                }
            }
            GameType::B => {
                for _ in 0..self.completed_lines {
                    self.lines.decrement();
                }
            }
        }
        self.score.add_soft_drop(self.hold_down_points);
        self.hold_down_points = 0;
        self.score.add_lines(self.completed_lines, self.level);
        self.completed_lines = 0;
        self.play_state = PlayState::GoalCheck;
    }

    /// `playState_spawnNextTetrimino`: once the rows are drawn, the next piece at (5, 0)
    /// and a new one dealt.
    fn spawn(&mut self) {
        if !self.drawn() {
            return;
        }
        self.fall_timer = 0;
        self.y = 0;
        self.x = 5;
        self.play_state = PlayState::Move;
        self.current = self.next;
        self.next = self.picker.pick(&mut self.rng);
        self.autorepeat_y = 0;
    }
}
