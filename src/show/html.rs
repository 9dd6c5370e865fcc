//! The replay page: one self-contained HTML file (no network, no external script) that plays
//! a game on a canvas with play/pause, step, a slider over the piece index, the running score
//! and lines, and the next piece.
//!
//! The page carries the engine's results, not the rules: every board after every lock, packed
//! two cells to a base-64 character (3 bits of colour each), the locked cells of every piece,
//! and the score and lines after every piece. The JavaScript only unpacks and draws, so what
//! the page shows is what the replay computed. It also writes the current board as `#`/`.`
//! text into `<pre id="board-text">` and the numbers into `<output>` elements, so a headless
//! browser's DOM dump can be checked against the engine (`tests/show_browser.rs`).

use super::game::{Colours, Game};
use super::text;
use crate::board::{HEIGHT, WIDTH};
use serde::Serialize;

const TEMPLATE: &str = include_str!("replay.html");
const DATA_SLOT: &str = "__BEAMTRIS_DATA__";
const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
/// Rows above the board a locked cell may occupy (a top-out lock reaches up to y = -2).
const ABOVE: i32 = 4;

/// What the page's script reads.
#[derive(Serialize)]
struct Data<'a> {
    /// The record's file name.
    name: &'a str,
    /// Pieces in the seed's sequence.
    total: usize,
    /// The letter of every locked piece.
    pieces: String,
    /// The board after 0, 1, ... n pieces: 100 characters each, cells top row first, two to
    /// a character (`first + 8 * second`), 0 empty, 1..=7 the shapes I L J T O S Z.
    boards: Vec<String>,
    /// The cells of every lock, 8 characters each: 4 cells of 2 base-64 digits holding
    /// `(y + 4) * 10 + x`.
    cells: String,
    /// Score after 0, 1, ... n pieces.
    score: Vec<u64>,
    /// Lines after 0, 1, ... n pieces.
    lines: Vec<u64>,
    /// Points of every lock.
    gain: Vec<u32>,
    /// Why the game ended, in words.
    end: &'static str,
}

fn pack_board(colours: &Colours) -> String {
    let cells: Vec<u8> = colours.iter().flatten().copied().collect();
    debug_assert_eq!(cells.len(), WIDTH * HEIGHT);
    cells
        .chunks(2)
        .map(|pair| ALPHABET[(pair[0] + 8 * pair[1]) as usize] as char)
        .collect()
}

fn pack_cells(cells: &[(i8, i8); 4]) -> String {
    let mut s = String::with_capacity(8);
    for &(x, y) in cells {
        let v = ((y as i32 + ABOVE) * WIDTH as i32 + x as i32).clamp(0, 4095) as usize;
        s.push(ALPHABET[v % 64] as char);
        s.push(ALPHABET[v / 64] as char);
    }
    s
}

/// The page for `game`; `name` titles it.
pub fn page(game: &Game, name: &str) -> String {
    let n = game.placed();
    let snaps = (0..=n).map(|k| game.snapshot(k));
    let data = Data {
        name,
        total: game.pieces.len(),
        pieces: game.frames.iter().map(|f| f.piece.shape.letter()).collect(),
        boards: snaps.clone().map(|s| pack_board(s.colours)).collect(),
        cells: game.frames.iter().map(|f| pack_cells(&f.cells)).collect(),
        score: snaps.clone().map(|s| s.score).collect(),
        lines: snaps.map(|s| s.lines).collect(),
        gain: game.frames.iter().map(|f| f.gain).collect(),
        end: text::end_reason(game),
    };
    let json = serde_json::to_string(&data).expect("plain data serialises");
    // Inside <script>, "</script" would end the element early and "<!--" followed by
    // "<script" would switch the parser into a state where the real end tag no longer ends it.
    // No "<" at all can do neither: "\u003c" is the same JSON string (and "<" only occurs in
    // strings, such as the record's file name). ">" and "&" go too, for the same peace of mind.
    let safe = json
        .replace('<', "\\u003c")
        .replace('>', "\\u003e")
        .replace('&', "\\u0026");
    TEMPLATE.replacen(DATA_SLOT, &safe, 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::Record;
    use crate::seed::Seed;

    #[test]
    fn page_embeds_the_boards_and_no_outside_resources() {
        let record = Record::parse("N,D18,N,C1,L3,D19").unwrap();
        let game = Game::replay(&record, Seed::tencent_geek_4().pieces()).unwrap();
        let html = page(&game, "x</script>.txt");
        assert!(!html.contains(DATA_SLOT));
        assert!(!html.contains("x</script>"));
        for name in ["a<!--<script>b.txt", "c</SCRIPT >d", "e&lt;f"] {
            let html = page(&game, name);
            let start = html.find("const DATA = ").unwrap() + 13;
            let data = &html[start..start + html[start..].find(";\n").unwrap()];
            assert!(!data.contains('<'), "{name}: {data}");
            // the JSON still says the name
            let value: serde_json::Value = serde_json::from_str(data).unwrap();
            assert_eq!(value["name"], name);
        }
        assert!(!html.contains("src=\"http"));
        assert!(!html.contains("href=\"http"));
        let snap = game.snapshot(2);
        assert!(html.contains(&pack_board(snap.colours)));
        assert_eq!(pack_board(snap.colours).len(), WIDTH * HEIGHT / 2);
        // Z0 after D18: cells (4,18) (4,17) (5,18) (3,17) -> 224 214 225 213.
        assert_eq!(pack_cells(&game.frames[0].cells), "gDWDhDVD");
    }
}
