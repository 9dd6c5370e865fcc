//! The board after some pieces as plain text: a header with the piece count, score and lines,
//! then the twenty rows with each cell lettered by the piece that filled it.
//!
//! Letters instead of `#` keep the picture readable without colour (and in a diff); the
//! animation adds colour on top of the same layout.

use super::game::{block_of_colour, Snapshot, TencentReplay};
use crate::games::tencent::board::{HEIGHT, WIDTH};

/// The header lines: how far the game is, the score and lines so far, the next piece.
pub fn header(game: &TencentReplay, snap: &Snapshot) -> String {
    let next = match snap.next {
        Some(p) => format!("next {}", p.shape.letter()),
        None => format!("game over ({})", end_reason(game)),
    };
    format!(
        "piece {}/{}  score {}  lines {}  {}\n",
        snap.placed,
        game.placed(),
        snap.score,
        snap.lines,
        next
    )
}

/// Why the replay ended, in words.
pub fn end_reason(game: &TencentReplay) -> &'static str {
    use crate::games::tencent::replay::EndReason::*;
    match game.outcome.end_reason {
        RecordEnd => "end of record",
        TopOut => "top-out",
        SpawnBlocked => "spawn blocked",
        PieceLimit => "last piece",
    }
}

/// The board in a frame of `|` and `-`: letters for filled cells, `.` for empty ones.
pub fn board(snap: &Snapshot) -> String {
    let mut s = String::with_capacity((HEIGHT + 1) * (WIDTH + 3));
    for row in snap.colours.iter() {
        s.push('|');
        for &c in row {
            s.push(block_of_colour(c).map_or('.', |b| b.letter()));
        }
        s.push_str("|\n");
    }
    s.push('+');
    s.push_str(&"-".repeat(WIDTH));
    s.push_str("+\n");
    s
}

/// Header and board of the state after `k` pieces.
pub fn render(game: &TencentReplay, k: usize) -> String {
    let snap = game.snapshot(k);
    header(game, &snap) + &board(&snap)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game_def::GameDef;
    use crate::record::Record;

    #[test]
    fn renders_header_and_lettered_board() {
        let record = Record::parse("N,D18").unwrap();
        let game = TencentReplay::replay(&record, GameDef::tencent_geek_4().pieces()).unwrap();
        let text = render(&game, 1);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines[0],
            "piece 1/1  score 0  lines 0  game over (end of record)"
        );
        assert_eq!(lines.len(), 1 + HEIGHT + 1);
        assert_eq!(lines[HEIGHT + 1], "+----------+");
        let filled: usize = lines[1..=HEIGHT]
            .iter()
            .map(|l| l.chars().filter(|&c| c == 'Z').count())
            .sum();
        assert_eq!(filled, 4);
        assert!(render(&game, 0).starts_with("piece 0/1  score 0  lines 0  next Z\n"));
    }
}
