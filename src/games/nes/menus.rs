//! Power-on and the menus: the copyright screen, the title, the game type and the level
//! select, up to the frame the game starts. What matters to a game is the register's count
//! of steps (every frame of the main loop steps it, and the menus step it more), the frame
//! counter's low bits, the buttons held, and the choices made.

use super::buttons::Buttons;
use super::gameplay::{GameType, GameplayState, Start};
use super::rng::{Rng, POWER_ON_SEED};

/// The screen the menus show (`gameMode`, $00C0).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Screen {
    Copyright,
    Title,
    GameType,
    LevelSelect,
}

impl Screen {
    /// The name the checkpoint output uses.
    pub fn name(self) -> &'static str {
        match self {
            Screen::Copyright => "copyright",
            Screen::Title => "title",
            Screen::GameType => "game_type",
            Screen::LevelSelect => "level_select",
        }
    }
}

/// Register steps during boot before the first frame counted here (RAM clear and PPU
/// warm-up run the main loop's step this often before the copyright screen waits).
const BOOT_STEPS: u32 = 262;
/// Frames after power-on in which the menus take no input and step nothing (the copyright
/// screen's unskippable part and the screen loads before it).
const BOOT_FRAMES: u16 = 267;
/// Frames the copyright screen waits once it can be skipped (`sleepCounter` $FF).
const COPYRIGHT_WAIT: u8 = 0xFF;

/// A change of screen: the frames the ROM spends loading the new screen outside the main
/// loop (input held but not read), the register steps it makes meanwhile, and the frame
/// counter's advance. Measured against the movies, as the ROM's loops hide them.
struct Transition {
    busy: u16,
    steps: u32,
    counter: u8,
}

const TO_TITLE: Transition = Transition {
    busy: 4,
    steps: 4,
    counter: 0,
};
const TO_GAME_TYPE: Transition = Transition {
    busy: 3,
    steps: 3,
    counter: 3,
};
const BACK_TO_TITLE: Transition = Transition {
    busy: 5,
    steps: 5,
    counter: 1,
};
const TO_LEVEL_SELECT: Transition = Transition {
    busy: 4,
    steps: 3,
    counter: 3,
};
const BACK_TO_GAME_TYPE: Transition = Transition {
    busy: 3,
    steps: 3,
    counter: 3,
};
/// To the game: A-type loads the playfield in 3 frames, B-type also draws its 12 garbage
/// rows, one a frame.
const TO_GAME_A: Transition = Transition {
    busy: 3,
    steps: 2,
    counter: 3,
};
const TO_GAME_B: Transition = Transition {
    busy: 15,
    steps: 2,
    counter: 3,
};

/// The menus' state, each field the RAM it stands for.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct MenuState {
    /// Frames left in which the ROM is outside the main loop (a screen loading).
    pub busy: u16,
    /// $00C0 `gameMode`.
    pub screen: Screen,
    /// $00C3 `sleepCounter` on the copyright screen.
    pub copyright_wait: u8,
    /// $00F7 `heldButtons` of the frame before.
    pub held: Buttons,
    /// $0017-$0018 `rng_seed`.
    pub rng: Rng,
    /// $00B1 `frameCounter`, low two bits.
    pub frame_counter: u8,
    /// $00BE `selectingLevelOrHeight`: on B-type's screen, A moves the cursor to height.
    pub selecting_height: bool,
    /// $00C1 `gameType`.
    pub game_type: GameType,
    /// $0067 `player1_startLevel` as chosen (10 more if A was held with start).
    pub level: u8,
    /// $0087 `player1_startHeight`.
    pub height: u8,
    /// Start was pressed on the level select: the game begins on the next counted frame.
    pub starting: bool,
}

/// What one menu frame leads to.
pub enum Next {
    Stay,
    Game(Box<GameplayState>),
}

impl MenuState {
    /// The state at power-on.
    pub fn power_on() -> MenuState {
        let mut rng = Rng(POWER_ON_SEED);
        rng.steps(BOOT_STEPS);
        MenuState {
            busy: BOOT_FRAMES,
            screen: Screen::Copyright,
            copyright_wait: COPYRIGHT_WAIT,
            held: Buttons::NONE,
            rng,
            frame_counter: 2,
            selecting_height: false,
            game_type: GameType::A,
            level: 0,
            height: 0,
            starting: false,
        }
    }

    fn go(&mut self, screen: Screen, t: &Transition) {
        self.screen = screen;
        self.busy = t.busy;
        self.rng.steps(t.steps);
        self.frame_counter = (self.frame_counter + t.counter) & 3;
    }

    /// One frame of the menus.
    pub fn step(&mut self, input: Buttons) -> Next {
        if self.busy > 0 {
            self.busy -= 1;
            self.held = input;
            return Next::Stay;
        }
        self.frame_counter = (self.frame_counter + 1) & 3;
        self.rng.step();
        if self.starting {
            self.rng.step();
            return Next::Game(Box::new(GameplayState::start(Start {
                rng: self.rng,
                frame_counter: self.frame_counter,
                held: self.held,
                game_type: self.game_type,
                level: self.level,
                height: self.height,
            })));
        }
        let pressed = input.pressed_since(self.held);
        match self.screen {
            Screen::Copyright => self.copyright(pressed),
            Screen::Title => {
                if pressed == Buttons::START {
                    self.go(Screen::GameType, &TO_GAME_TYPE);
                }
            }
            Screen::GameType => self.game_type_menu(pressed),
            Screen::LevelSelect => self.level_menu(input, pressed),
        }
        self.held = input;
        Next::Stay
    }

    fn copyright(&mut self, pressed: Buttons) {
        if pressed != Buttons::START && self.copyright_wait != 0 {
            self.copyright_wait -= 1;
        } else {
            self.go(Screen::Title, &TO_TITLE);
        }
    }

    fn game_type_menu(&mut self, pressed: Buttons) {
        if pressed == Buttons::LEFT {
            self.game_type = GameType::A;
        } else if pressed == Buttons::RIGHT {
            self.game_type = GameType::B;
        } else if pressed == Buttons::START {
            self.selecting_height = false;
            self.level %= 10;
            self.go(Screen::LevelSelect, &TO_LEVEL_SELECT);
        } else if pressed == Buttons::B {
            self.go(Screen::Title, &BACK_TO_TITLE);
        }
    }

    /// The level (and B-type height) grid: right and left move by one, down and up by a
    /// row (5 levels, 3 heights), never off the grid.
    fn level_menu(&mut self, input: Buttons, pressed: Buttons) {
        let delta: i8 = match pressed {
            p if p == Buttons::RIGHT => 1,
            p if p == Buttons::LEFT => -1,
            p if p == Buttons::DOWN => 5,
            p if p == Buttons::UP => -5,
            _ => 0,
        };
        if self.selecting_height {
            let moved = self.height as i8 + delta.signum() * if delta.abs() == 5 { 3 } else { 1 };
            if (0..6).contains(&moved) {
                self.height = moved as u8;
            }
        } else {
            let moved = self.level as i8 + delta;
            if (0..10).contains(&moved) {
                self.level = moved as u8;
            }
        }
        if pressed == Buttons::A && self.game_type == GameType::B {
            self.selecting_height = !self.selecting_height;
        }
        if pressed == Buttons::START {
            if input == Buttons::START.with(Buttons::A) {
                self.level += 10;
            }
            let t = match self.game_type {
                GameType::A => &TO_GAME_A,
                GameType::B => &TO_GAME_B,
            };
            self.go(Screen::LevelSelect, t);
            self.starting = true;
        } else if pressed == Buttons::B {
            self.go(Screen::GameType, &BACK_TO_GAME_TYPE);
        } else {
            // The screen draws two garbage-height previews' worth of numbers each frame.
            for _ in 0..2 {
                self.rng.step_until(|v| v & 0x0F >= 10);
            }
        }
    }
}

/// The console from power-on: the menus, then a game.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum Console {
    Menus(MenuState),
    Game(Box<GameplayState>),
}

impl Console {
    pub fn power_on() -> Console {
        Console::Menus(MenuState::power_on())
    }

    /// One frame with `input` on controller 1.
    pub fn step(&mut self, input: Buttons) {
        match self {
            Console::Menus(m) => {
                if let Next::Game(g) = m.step(input) {
                    *self = Console::Game(g);
                }
            }
            Console::Game(g) => g.step(input),
        }
    }
}
