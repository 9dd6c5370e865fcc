//! The replay pages: one self-contained HTML file (no network, no external script) that plays
//! a game on a canvas with play/pause, step, a slider over the piece index; or two records of
//! one game side by side, stepped together. Each side is drawn by one script both pages share
//! (`side.js`): the board with an outline where the next piece locks, the running score and
//! lines, the next piece; a guideline game's hold, previews, combo, back-to-back and attack;
//! TETR.IO's solo time, inputs and finesse faults; a family's own figures (an NES game's level
//! and speed), each in its own labelled field.
//!
//! A page carries the engine's results, not the rules: every board after every lock, packed
//! two cells to a character (nine kinds of cell), the locked cells of every piece, and the
//! numbers after every piece, all taken from one [`Replay`], so one page serves every game
//! family. The JavaScript only unpacks and draws, so what the page shows is what the replay
//! computed. It also writes each drawn board as `#`/`.` text into `<pre id="board-text">`
//! (the outline's cells in its `data-ghost`) and the numbers into `<output>` elements, so a
//! headless browser's DOM dump can be checked against the engine (`tests/show_browser.rs`).

use super::frames::{Block, Replay, Row};
use super::versus::VersusSide;
use crate::games::tencent::board::WIDTH;
use serde::Serialize;

const TEMPLATE: &str = include_str!("replay.html");
const COMPARE_TEMPLATE: &str = include_str!("compare.html");
/// The player both pages share (stepping, playing, the address, the buttons and keys).
const PLAYER: &str = include_str!("player.js");
/// Where a page takes [`PLAYER`].
const PLAYER_SLOT: &str = "__BEAMTRIS_PLAYER__";
/// The one drawing of a side (board and outline, figures, queue) both pages share, and its
/// style.
const SIDE: &str = include_str!("side.js");
const SIDE_SLOT: &str = "__BEAMTRIS_SIDE__";
const SIDE_STYLE: &str = include_str!("side.css");
const SIDE_STYLE_SLOT: &str = "__BEAMTRIS_SIDE_STYLE__";
/// Where the help line says what the board draws besides the cells (only what is drawn).
const LEGEND_SLOT: &str = "__BEAMTRIS_LEGEND__";
const DATA_SLOT: &str = "__BEAMTRIS_DATA__";
const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
/// The digits of a packed board: two cells of nine kinds (empty, seven pieces, a starting-board
/// cell) a character, so base 81: base 64's digits and 17 more that need no escape in JSON or
/// in a script element.
const BOARD_ALPHABET: &[u8; 81] =
    b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/!#$%&()*,-.:;=?@^";

/// What the page's script reads.
#[derive(Serialize)]
struct Data<'a> {
    /// The record's file name.
    name: &'a str,
    /// Pieces in the seed's sequence.
    total: usize,
    /// Rows the page draws: the visible rows, and buffer rows up to the highest one any
    /// board fills (a guideline stack rarely reaches them, so they are not drawn always).
    rows: usize,
    /// Rows of the field proper; the rows from here up are buffer rows.
    visible: usize,
    /// The letter of every locked piece.
    pieces: String,
    /// The board after 0, 1, ... n pieces: `rows * 10 / 2` characters each, cells top row
    /// first, two to a character (`first + 8 * second`), 0 empty, 1..=7 the shapes I L J T O
    /// S Z.
    boards: Vec<String>,
    /// The cells of every lock, 8 characters each: 4 cells of 2 base-64 digits holding
    /// `y * 10 + x`, y up from the bottom row.
    cells: String,
    /// Score (Tencent) or points (guideline) after 0, 1, ... n pieces.
    score: Vec<u64>,
    /// Lines after 0, 1, ... n pieces.
    lines: Vec<u64>,
    /// Score or points of every lock.
    gain: Vec<u32>,
    /// The piece to place and the previews after it, after 0, 1, ... n pieces (letters;
    /// empty at the end).
    next: Vec<String>,
    /// The guideline numbers; `null` for the Tencent game, which has none.
    chains: Option<ChainData>,
    /// What else a family shows, each figure with its label and its value after 0, 1, ... n
    /// pieces (a NES game: level and speed); left out when it shows nothing.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    figures: Vec<Figure>,
    /// Why the game ended, in words.
    end: &'static str,
    /// TETR.IO's solo figures; `null` for the other families.
    solo: Option<SoloData>,
    /// A versus round's clock and garbage meter; left out elsewhere.
    #[serde(skip_serializing_if = "Option::is_none")]
    versus: Option<VersusData>,
}

/// A player of a versus round in time: when each state began, and the garbage waiting.
#[derive(Serialize)]
struct VersusData {
    /// The frame of the start (0) and of each lock: `boards[n]` is the board from
    /// `frames[n]` on.
    frames: Vec<i64>,
    /// `[frame, rows]` each time the rows waiting changed, from `[0, 0]`.
    meter: Vec<[i64; 2]>,
}

/// One of a family's own figures.
#[derive(Serialize, Debug, PartialEq)]
struct Figure {
    label: String,
    values: Vec<String>,
}

/// TETR.IO's time (milliseconds), key presses and finesse faults after 0, 1, ... n pieces.
#[derive(Serialize)]
struct SoloData {
    /// `null` where the record cannot tell (a record of placements has no keys).
    time: Option<Vec<f64>>,
    inputs: Option<Vec<u32>>,
    faults: Option<Vec<u32>>,
}

/// Hold, combo, back-to-back and attack after 0, 1, ... n pieces.
#[derive(Serialize)]
struct ChainData {
    /// One letter a frame, `-` for an empty hold.
    hold: String,
    /// The combo as a player counts it (0 before the second clear in a row).
    combo: Vec<i32>,
    back_to_back: Vec<bool>,
    /// Attack sent so far.
    attack: Vec<u64>,
    /// Attack of every lock.
    lock_attack: Vec<u32>,
}

/// A cell's colour code: 0 empty, 1 + the shape index, 8 a starting-board cell.
fn code(cell: Option<Block>) -> u8 {
    match cell {
        None => 0,
        Some(Block::Piece(s)) => s.index() as u8 + 1,
        Some(Block::Start) => 8,
    }
}

/// The top `rows` rows of a board, top row first, two cells to a character.
fn pack_board(board: &[Row], rows: usize) -> String {
    let cells: Vec<u8> = board[..rows]
        .iter()
        .rev()
        .flatten()
        .map(|&c| code(c))
        .collect();
    cells
        .chunks(2)
        .map(|pair| BOARD_ALPHABET[(pair[0] + 9 * pair[1]) as usize] as char)
        .collect()
}

/// A lock's cells as 2 base-64 digits each; a cell below the board (none should be) is
/// clamped rather than wrapped.
fn pack_cells(cells: &[(i8, i8); 4]) -> String {
    let mut s = String::with_capacity(8);
    for &(x, y) in cells {
        let v = (y as i32 * WIDTH as i32 + x as i32).clamp(0, 4095) as usize;
        s.push(ALPHABET[v % 64] as char);
        s.push(ALPHABET[v / 64] as char);
    }
    s
}

/// Rows to draw: the visible ones, and more up to the highest filled cell of any board.
fn drawn_rows(replay: &Replay) -> usize {
    let top = replay
        .frames
        .iter()
        .flat_map(|f| {
            f.rows
                .iter()
                .rposition(|row| row.iter().any(|c| c.is_some()))
        })
        .max()
        .map_or(0, |y| y + 1);
    top.clamp(replay.visible, replay.height)
}

fn chain_data(replay: &Replay) -> Option<ChainData> {
    let chains: Vec<_> = replay
        .frames
        .iter()
        .map(|f| f.chains)
        .collect::<Option<_>>()?;
    Some(ChainData {
        hold: chains
            .iter()
            .map(|c| c.hold.map_or('-', |s| s.letter()))
            .collect(),
        combo: chains.iter().map(|c| c.combo.max(0)).collect(),
        back_to_back: chains.iter().map(|c| c.back_to_back).collect(),
        attack: chains.iter().map(|c| c.attack).collect(),
        lock_attack: replay.locks.iter().map(|l| l.attack.unwrap_or(0)).collect(),
    })
}

/// A family's own figures, labelled as the first frame labels them; a frame that lacks one
/// shows nothing for it.
fn figures(replay: &Replay) -> Vec<Figure> {
    let Some(first) = replay.frames.first() else {
        return Vec::new();
    };
    first
        .figures()
        .iter()
        .map(|&(label, _)| Figure {
            label: label.to_string(),
            values: replay
                .frames
                .iter()
                .map(|f| {
                    f.figures()
                        .iter()
                        .find(|&&(l, _)| l == label)
                        .map_or(String::new(), |&(_, v)| v.to_string())
                })
                .collect(),
        })
        .collect()
}

/// What the page's script reads of `replay`, titled `name`.
fn data<'a>(replay: &'a Replay, name: &'a str) -> Data<'a> {
    let rows = drawn_rows(replay);
    Data {
        name,
        total: replay.total,
        rows,
        visible: replay.visible,
        pieces: replay.locks.iter().map(|l| l.piece.letter()).collect(),
        boards: replay
            .frames
            .iter()
            .map(|f| pack_board(&f.rows, rows))
            .collect(),
        cells: replay.locks.iter().map(|l| pack_cells(&l.cells)).collect(),
        score: replay.frames.iter().map(|f| f.score).collect(),
        lines: replay.frames.iter().map(|f| f.lines).collect(),
        gain: replay.locks.iter().map(|l| l.gain).collect(),
        next: replay
            .frames
            .iter()
            .map(|f| f.next.iter().map(|s| s.letter()).collect())
            .collect(),
        chains: chain_data(replay),
        figures: figures(replay),
        end: replay.end,
        solo: replay.solo.as_ref().map(|s| SoloData {
            time: s
                .time_known
                .then(|| s.figures.iter().map(|f| f.time_ms).collect()),
            inputs: s
                .keys_known
                .then(|| s.figures.iter().map(|f| f.inputs).collect()),
            faults: s
                .keys_known
                .then(|| s.figures.iter().map(|f| f.faults).collect()),
        }),
        versus: None,
    }
}

/// The page for `replay`; `name` titles it.
pub fn page(replay: &Replay, name: &str) -> String {
    let data = data(replay, name);
    embed(TEMPLATE, &legend(&[&data]), &data)
}

/// What the side-by-side page's script reads.
#[derive(Serialize)]
struct CompareData<'a> {
    /// The game both records play, in words (its name and objective).
    game: &'a str,
    sides: [Data<'a>; 2],
}

/// The side-by-side page: two records of the game `game` (in words), `a` and `b` titled by
/// their names, stepped together piece by piece, each with its running figures.
pub fn compare_page(game: &str, a: (&Replay, &str), b: (&Replay, &str)) -> String {
    let data = CompareData {
        game,
        sides: [data(a.0, a.1), data(b.0, b.1)],
    };
    let legend = legend(&[&data.sides[0], &data.sides[1]]);
    embed(COMPARE_TEMPLATE, &legend, &data)
}

/// The side-by-side page of a versus round (`game` in words): both players stepped together
/// frame by frame as they played (each step the next frame in which a piece locked or the
/// garbage waiting changed), each board beside its garbage meter.
pub fn versus_page(game: &str, a: &VersusSide, b: &VersusSide) -> String {
    let data = CompareData {
        game,
        sides: [versus_data(a), versus_data(b)],
    };
    let legend = legend(&[&data.sides[0], &data.sides[1]])
        + "; the red bar left of a board is its garbage meter, the rows waiting to come in";
    embed(COMPARE_TEMPLATE, &legend, &data)
}

/// What the page's script reads of a versus side: its replay, with its clock and meter.
fn versus_data(v: &VersusSide) -> Data<'_> {
    let mut d = data(&v.replay, &v.name);
    d.versus = Some(VersusData {
        frames: v.lock_frames.clone(),
        meter: v.meter.iter().map(|&(f, n)| [f, n]).collect(),
    });
    d
}

/// The end of the help line: what the boards of `sides` draw besides their cells, and
/// nothing about what none of them draws.
fn legend(sides: &[&Data]) -> String {
    let mut s = String::new();
    if sides.iter().any(|d| !d.pieces.is_empty()) {
        s += "; the outline shows where the next piece locks";
    }
    if sides.iter().any(|d| d.rows > d.visible) {
        s += "; rows above the dashed line are buffer rows";
    }
    s
}

/// `template` with the shared code in its slots, `legend` ending its help line and its data
/// slot holding `data` as JSON (last, so nothing in the data is taken for a slot).
fn embed(template: &str, legend: &str, data: &impl Serialize) -> String {
    let json = serde_json::to_string(data).expect("plain data serialises");
    // Inside <script>, "</script" would end the element early and "<!--" followed by
    // "<script" would switch the parser into a state where the real end tag no longer ends it.
    // No "<" at all can do neither: "\u003c" is the same JSON string (and "<" only occurs in
    // strings, such as the record's file name). ">" and "&" go too, for the same peace of mind.
    let safe = json
        .replace('<', "\\u003c")
        .replace('>', "\\u003e")
        .replace('&', "\\u0026");
    template
        .replacen(SIDE_STYLE_SLOT, SIDE_STYLE, 1)
        .replacen(SIDE_SLOT, SIDE, 1)
        .replacen(PLAYER_SLOT, PLAYER, 1)
        .replacen(LEGEND_SLOT, legend, 1)
        .replacen(DATA_SLOT, &safe, 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game_def::GameDef;
    use crate::record::Record;
    use crate::show::game::TencentReplay;

    fn small() -> Replay {
        let record = Record::parse("N,D18,N,C1,L3,D19").unwrap();
        let game = TencentReplay::replay(&record, GameDef::tencent_geek_4().pieces()).unwrap();
        Replay::from_tencent(&game)
    }

    #[test]
    fn page_embeds_the_boards_and_no_outside_resources() {
        let replay = small();
        let html = page(&replay, "x</script>.txt");
        assert!(!html.contains(DATA_SLOT));
        assert!(!html.contains("x</script>"));
        for name in ["a<!--<script>b.txt", "c</SCRIPT >d", "e&lt;f"] {
            let html = page(&replay, name);
            let start = html.find("const DATA = ").unwrap() + 13;
            let data = &html[start..start + html[start..].find(";\n").unwrap()];
            assert!(!data.contains('<'), "{name}: {data}");
            // the JSON still says the name
            let value: serde_json::Value = serde_json::from_str(data).unwrap();
            assert_eq!(value["name"], name);
            assert_eq!(value["chains"], serde_json::Value::Null);
            assert_eq!(value["rows"], 20);
        }
        assert!(!html.contains("src=\"http"));
        assert!(!html.contains("href=\"http"));
        let board = pack_board(&replay.frames[2].rows, 20);
        assert!(html.contains(&board));
        assert_eq!(board.len(), WIDTH * 20 / 2);
        // Z0 after D18: cells (4,1) (4,2) (5,1) (3,2) up from the bottom -> 14 24 15 23.
        assert_eq!(pack_cells(&replay.locks[0].cells), "OAYAPAXA");
    }

    /// The JSON a page's script reads.
    fn page_json(html: &str) -> serde_json::Value {
        let start = html.find("const DATA = ").unwrap() + 13;
        // The value, up to whatever follows it (`;` or the compare page's `, SIDES`).
        let mut values = serde_json::Deserializer::from_str(&html[start..]).into_iter();
        values.next().unwrap().unwrap()
    }

    #[test]
    fn a_family_s_own_figures_are_labelled_fields_apart_from_the_lines() {
        let mut replay = small();
        for (k, f) in replay.frames.iter_mut().enumerate() {
            f.note = Some(format!("level {}  speed 30hz", 18 + k));
        }
        let value = page_json(&page(&replay, "nes.txt"));
        assert_eq!(value["lines"], serde_json::json!([0, 0, 0]));
        assert_eq!(
            value["figures"],
            serde_json::json!([
                {"label": "level", "values": ["18", "19", "20"]},
                {"label": "speed", "values": ["30hz", "30hz", "30hz"]},
            ])
        );
        // A family with none has no figures at all.
        assert!(page_json(&page(&small(), "t.txt")).get("figures").is_none());
    }

    #[test]
    fn both_pages_draw_their_sides_with_the_one_side_script() {
        let replay = small();
        let single = page(&replay, "a.txt");
        let two = compare_page("a game", (&replay, "a.txt"), (&replay, "b.txt"));
        for html in [&single, &two] {
            assert!(html.contains(SIDE) && html.contains(SIDE_STYLE) && html.contains(PLAYER));
            for slot in [
                SIDE_SLOT,
                SIDE_STYLE_SLOT,
                PLAYER_SLOT,
                LEGEND_SLOT,
                DATA_SLOT,
            ] {
                assert!(!html.contains(slot), "{slot}");
            }
            // Each side's queue (hold and previews for a guideline game) and the outline of
            // the next lock are the side script's, so the side-by-side page has them too.
            assert_eq!(html.matches("function drawSide(").count(), 1);
        }
        for name in ["hold", "previews", "ghost"] {
            assert!(SIDE.contains(name), "{name}");
        }
        assert_eq!(page_json(&two)["sides"][1]["name"], "b.txt");
    }

    #[test]
    fn the_help_line_explains_only_what_is_drawn() {
        let mut replay = small();
        let html = page(&replay, "a.txt");
        assert!(html.contains("the outline shows where the next piece locks"));
        assert!(
            !html.contains("dashed"),
            "no buffer rows, no dashed line to explain"
        );
        let two = compare_page("a game", (&replay, "a.txt"), (&replay, "b.txt"));
        assert!(!two.contains("dashed"));
        replay.height = 24;
        for f in &mut replay.frames {
            f.rows.resize(24, [None; WIDTH]);
        }
        replay.frames[1].rows[21][0] = Some(Block::Piece(crate::piece::Shape::I));
        let html = page(&replay, "a.txt");
        assert!(html.contains("rows above the dashed line are buffer rows"));
        let two = compare_page("a game", (&small(), "a.txt"), (&replay, "b.txt"));
        assert!(two.contains("rows above the dashed line are buffer rows"));
    }

    #[test]
    fn drawn_rows_grow_into_the_buffer_only_when_a_cell_is_there() {
        let mut replay = small();
        replay.height = 24;
        for f in &mut replay.frames {
            f.rows.resize(24, [None; WIDTH]);
        }
        assert_eq!(drawn_rows(&replay), 20);
        replay.frames[1].rows[21][0] = Some(Block::Piece(crate::piece::Shape::I));
        assert_eq!(drawn_rows(&replay), 22);
    }
}
