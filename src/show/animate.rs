//! Plays a replay in the terminal, one piece per tick, in colour.
//!
//! The terminal is put in raw mode on the alternate screen so single keys arrive at once
//! (q, Esc or Ctrl-C quits, space pauses, arrows step, + and - change the speed); a guard
//! restores it on every way out, a panic included. Without a terminal on stdout there is
//! nothing to animate, so every frame is printed one after another as text instead.
//!
//! Both game families draw from one [`Replay`]: the header says what the family shows beside
//! the board (the next piece; or hold, the previews, combo, back-to-back and attack), and
//! buffer rows are drawn, with `:` walls, only while a cell is in them.

use super::frames::{Block, Frame, Replay, Row};
use crate::error::Result;
use crate::games::tencent::board::WIDTH;
use crate::piece::Shape;
use crossterm::event::{self, Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use crossterm::style::{Color, Print, ResetColor, SetBackgroundColor};
use crossterm::{cursor, execute, queue, terminal};
use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

/// Plays the states after `from` to after `to` pieces at `speed` pieces per second.
pub fn run(replay: &Replay, from: usize, to: usize, speed: f64) -> Result<()> {
    let stdout = std::io::stdout();
    if !stdout.is_terminal() {
        let mut out = stdout.lock();
        for k in from..=to {
            writeln!(out, "{}", frame_text(replay, k))?;
        }
        return Ok(());
    }
    // SIGINT, SIGTERM and SIGHUP end the animation like `q`: the screen guard then restores the
    // terminal (raw mode, alternate screen, cursor), which the default action would not.
    let stop = crate::signal::stop_on_signal();
    let _guard = Screen::enter()?;
    play(replay, from, to, speed, &stop)
}

/// The longest wait between two looks at the stop flag.
const STOP_CHECK: Duration = Duration::from_millis(100);

/// The header lines of frame `k`: how far the game is and its numbers. For the Tencent game
/// this is the text view's header, so the printed frames read like `show --at K`.
pub fn header(replay: &Replay, k: usize) -> String {
    let f = &replay.frames[k];
    let over = || format!("game over ({})", replay.end);
    let Some(c) = f.chains else {
        let next = f
            .next
            .first()
            .map_or_else(over, |s| format!("next {}", s.letter()));
        let note = f.note.as_ref().map_or(String::new(), |n| format!("  {n}"));
        return format!(
            "piece {k}/{}  score {}  lines {}{note}  {next}\n",
            replay.placed(),
            f.score,
            f.lines
        );
    };
    let next = if f.next.is_empty() {
        over()
    } else {
        let queue: String = f.next.iter().map(|s| s.letter()).collect();
        format!("next {queue}")
    };
    format!(
        "piece {k}/{}  points {}  attack {}  lines {}  combo {}  back-to-back {}\n\
         hold {}  {next}\n",
        replay.placed(),
        f.score,
        c.attack,
        f.lines,
        c.combo.max(0),
        if c.back_to_back { "on" } else { "off" },
        c.hold.map_or('-', |s| s.letter()),
    )
}

/// The rows of a frame to draw, top first: the visible rows, and the buffer rows up to the
/// highest filled one (each with whether it is a buffer row).
fn drawn_rows<'a>(replay: &Replay, f: &'a Frame) -> impl Iterator<Item = (&'a Row, bool)> {
    let top = f
        .rows
        .iter()
        .rposition(|row| row.iter().any(|c| c.is_some()))
        .map_or(0, |y| y + 1);
    let visible = replay.visible;
    f.rows[..top.max(visible)]
        .iter()
        .enumerate()
        .rev()
        .map(move |(y, row)| (row, y >= visible))
}

/// The walls of a row: `|` for the field, `:` for a buffer row.
fn wall(buffer: bool) -> char {
    if buffer {
        ':'
    } else {
        '|'
    }
}

/// Frame `k` as plain text: the header, then the board with letters for filled cells.
pub fn frame_text(replay: &Replay, k: usize) -> String {
    let mut s = header(replay, k);
    for (row, buffer) in drawn_rows(replay, &replay.frames[k]) {
        s.push(wall(buffer));
        s.extend(row.iter().map(|c| c.map_or('.', |b| b.letter())));
        s.push(wall(buffer));
        s.push('\n');
    }
    s.push('+');
    s.push_str(&"-".repeat(WIDTH));
    s.push_str("+\n");
    s
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

fn play(
    replay: &Replay,
    from: usize,
    to: usize,
    mut speed: f64,
    stop: &std::sync::atomic::AtomicBool,
) -> Result<()> {
    let mut k = from;
    let mut paused = false;
    let mut next_tick = Instant::now();
    loop {
        if stop.load(std::sync::atomic::Ordering::SeqCst) {
            return Ok(());
        }
        draw(replay, k, paused, speed)?;
        let tick = Duration::from_secs_f64(1.0 / speed);
        let wait = if paused || k >= to {
            STOP_CHECK
        } else {
            next_tick
                .saturating_duration_since(Instant::now())
                .min(STOP_CHECK)
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

/// The terminal colour of a block (the guideline colours as near as 16 colours go; the
/// starting board grey).
fn colour(block: Block) -> Color {
    let Block::Piece(shape) = block else {
        return Color::DarkGrey;
    };
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

fn draw(replay: &Replay, k: usize, paused: bool, speed: f64) -> Result<()> {
    let mut out = std::io::stdout().lock();
    queue!(out, cursor::MoveTo(0, 0))?;
    for line in header(replay, k).lines() {
        queue!(
            out,
            Print(line),
            terminal::Clear(terminal::ClearType::UntilNewLine),
            Print("\r\n")
        )?;
    }
    queue!(
        out,
        Print(format!(
            "{speed} pieces/s{}   q quit, space pause, arrows step, +/- speed",
            if paused { "  [paused]" } else { "" }
        )),
        terminal::Clear(terminal::ClearType::UntilNewLine),
        Print("\r\n"),
    )?;
    for (row, buffer) in drawn_rows(replay, &replay.frames[k]) {
        queue!(out, Print(wall(buffer)))?;
        for &c in row {
            match c {
                Some(block) => queue!(
                    out,
                    SetBackgroundColor(colour(block)),
                    Print("  "),
                    ResetColor
                )?,
                None => queue!(out, Print(" ."))?,
            }
        }
        queue!(out, Print(wall(buffer)), Print("\r\n"))?;
    }
    // The board shrinks when buffer rows empty; clear what the last frame left below it.
    queue!(
        out,
        Print(format!("+{}+\r\n", "-".repeat(2 * WIDTH))),
        terminal::Clear(terminal::ClearType::FromCursorDown)
    )?;
    out.flush()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game_def::GameDef;
    use crate::record::Record;
    use crate::show::game::TencentReplay;
    use crate::show::text;

    #[test]
    fn tencent_frames_read_like_the_text_view() {
        let record = Record::parse("N,D18,N,C1,L3,D19,N,R3,D18").unwrap();
        let game = TencentReplay::replay(&record, GameDef::tencent_geek_4().pieces()).unwrap();
        let replay = Replay::from_tencent(&game);
        for k in 0..=game.placed() {
            assert_eq!(frame_text(&replay, k), text::render(&game, k), "piece {k}");
        }
    }

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
