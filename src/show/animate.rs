//! Plays a replay in the terminal, one piece per tick, in colour.
//!
//! The terminal is put in raw mode on the alternate screen so single keys arrive at once
//! (q, Esc or Ctrl-C quits, space pauses, arrows step, + and - change the speed); a guard
//! restores it on every way out, a panic included. Without a terminal on stdout there is
//! nothing to animate, so every frame is printed one after another as text instead.

use super::game::{shape_of_colour, Game};
use super::text;
use crate::error::Result;
use crate::piece::Shape;
use crossterm::event::{self, Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use crossterm::style::{Color, Print, ResetColor, SetBackgroundColor};
use crossterm::{cursor, execute, queue, terminal};
use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

/// Plays the states after `from` to after `to` pieces at `speed` pieces per second.
pub fn run(game: &Game, from: usize, to: usize, speed: f64) -> Result<()> {
    let stdout = std::io::stdout();
    if !stdout.is_terminal() {
        let mut out = stdout.lock();
        for k in from..=to {
            writeln!(out, "{}", text::render(game, k))?;
        }
        return Ok(());
    }
    let _guard = Screen::enter()?;
    play(game, from, to, speed)
}

/// Raw mode, alternate screen and hidden cursor for as long as it lives.
struct Screen;

impl Screen {
    fn enter() -> Result<Screen> {
        terminal::enable_raw_mode()?;
        let screen = Screen;
        execute!(
            std::io::stdout(),
            terminal::EnterAlternateScreen,
            cursor::Hide
        )?;
        Ok(screen)
    }
}

impl Drop for Screen {
    fn drop(&mut self) {
        // Best effort: nothing more can be done about a terminal that refuses to be restored.
        let _ = execute!(
            std::io::stdout(),
            ResetColor,
            cursor::Show,
            terminal::LeaveAlternateScreen
        );
        let _ = terminal::disable_raw_mode();
    }
}

/// What a key asks for.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Action {
    Quit,
    Pause,
    Step(isize),
    Faster,
    Slower,
    None,
}

fn action(key: KeyEvent) -> Action {
    if key.kind == KeyEventKind::Release {
        return Action::None;
    }
    match key.code {
        KeyCode::Char('c') if key.modifiers.contains(KeyModifiers::CONTROL) => Action::Quit,
        KeyCode::Char('q') | KeyCode::Esc => Action::Quit,
        KeyCode::Char(' ') | KeyCode::Char('p') => Action::Pause,
        KeyCode::Right | KeyCode::Char('n') => Action::Step(1),
        KeyCode::Left | KeyCode::Char('b') => Action::Step(-1),
        KeyCode::Char('+') | KeyCode::Char('=') | KeyCode::Up => Action::Faster,
        KeyCode::Char('-') | KeyCode::Down => Action::Slower,
        _ => Action::None,
    }
}

fn play(game: &Game, from: usize, to: usize, mut speed: f64) -> Result<()> {
    let mut k = from;
    let mut paused = false;
    let mut next_tick = Instant::now();
    loop {
        draw(game, k, paused, speed)?;
        let tick = Duration::from_secs_f64(1.0 / speed);
        let wait = if paused || k >= to {
            Duration::from_millis(500)
        } else {
            next_tick.saturating_duration_since(Instant::now())
        };
        if event::poll(wait)? {
            if let Event::Key(key) = event::read()? {
                match action(key) {
                    Action::Quit => return Ok(()),
                    Action::Pause => paused = !paused,
                    Action::Step(d) => {
                        paused = true;
                        k = k.saturating_add_signed(d).clamp(from, to);
                    }
                    Action::Faster => speed = (speed * 2.0).min(1000.0),
                    Action::Slower => speed = (speed / 2.0).max(0.25),
                    Action::None => {}
                }
            }
            continue;
        }
        if !paused && k < to && Instant::now() >= next_tick {
            k += 1;
            next_tick = Instant::now() + tick;
        }
    }
}

/// The terminal colour of a shape (the guideline colours as near as 16 colours go).
fn colour(shape: Shape) -> Color {
    match shape {
        Shape::I => Color::Cyan,
        Shape::L => Color::DarkYellow,
        Shape::J => Color::Blue,
        Shape::T => Color::Magenta,
        Shape::O => Color::Yellow,
        Shape::S => Color::Green,
        Shape::Z => Color::Red,
    }
}

fn draw(game: &Game, k: usize, paused: bool, speed: f64) -> Result<()> {
    let snap = game.snapshot(k);
    let mut out = std::io::stdout().lock();
    queue!(
        out,
        cursor::MoveTo(0, 0),
        Print(text::header(game, &snap).trim_end()),
        terminal::Clear(terminal::ClearType::UntilNewLine),
        Print("\r\n"),
        Print(format!(
            "{speed} pieces/s{}   q quit, space pause, arrows step, +/- speed",
            if paused { "  [paused]" } else { "" }
        )),
        terminal::Clear(terminal::ClearType::UntilNewLine),
        Print("\r\n"),
    )?;
    for row in snap.colours.iter() {
        queue!(out, Print("|"))?;
        for &c in row {
            match shape_of_colour(c) {
                Some(shape) => queue!(
                    out,
                    SetBackgroundColor(colour(shape)),
                    Print("  "),
                    ResetColor
                )?,
                None => queue!(out, Print(" ."))?,
            }
        }
        queue!(out, Print("|\r\n"))?;
    }
    queue!(out, Print(format!("+{}+\r\n", "-".repeat(20))))?;
    out.flush()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_map_to_actions() {
        let key = |code, modifiers| KeyEvent::new(code, modifiers);
        assert_eq!(
            action(key(KeyCode::Char('c'), KeyModifiers::CONTROL)),
            Action::Quit
        );
        assert_eq!(
            action(key(KeyCode::Char('q'), KeyModifiers::NONE)),
            Action::Quit
        );
        assert_eq!(
            action(key(KeyCode::Char('c'), KeyModifiers::NONE)),
            Action::None
        );
        assert_eq!(
            action(key(KeyCode::Left, KeyModifiers::NONE)),
            Action::Step(-1)
        );
        assert_eq!(
            action(key(KeyCode::Char(' '), KeyModifiers::NONE)),
            Action::Pause
        );
    }
}
