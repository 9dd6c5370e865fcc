//! A codec for fumen (テト譜) strings, version 115: the page lists that fumen viewers and most
//! Tetris tools read and write (`v115@vhAAgH` is one empty page).
//!
//! Written from the format's public description rather than pulled in as a crate: the one Rust
//! crate on crates.io (`fumen` 0.1.2, 2020) is unmaintained and has almost no documentation,
//! and the format is small. The npm package `tetris-fumen` is the reference implementation; the
//! integration test `tests/show_fumen.rs` decodes this encoder's output with it.
//!
//! The format, as this module implements it:
//! * Text is a sequence of base-64 digits (`A-Z a-z 0-9 + /`), a number written over n digits
//!   least significant first. `?` may appear anywhere as a line-break hint and is ignored.
//! * The field is 23 rows of 10 (row 0 at the bottom) plus one garbage row below; a cell holds
//!   0 (empty), a piece kind 1..=7 (I L O Z T J S) or 8 (gray).
//! * Each page starts with its field as a difference to the field the previous page left
//!   (after its lock and line clears): the 240 cells, top row first, as runs of equal
//!   `new - old + 8`, each run `diff * 240 + (len - 1)` in 2 digits. A field with no change is
//!   one run (`vh`) followed by a 1-digit count of the next pages that repeat it without any
//!   field data.
//! * Then the action in 3 digits: `((((!lock*2 + comment)*2 + colour)*2 + mirror)*2 + rise)`,
//!   times 240 plus the operation's position, times 4 plus its rotation, times 8 plus its kind.
//! * A page whose comment differs from the previous one sets the comment flag and carries it,
//!   JavaScript-`escape`d: the length in 2 digits, then 4 characters to 5 digits, each
//!   character an index into the 95 printable ASCII characters, base 96.
//! * A locked operation is written into the field and full rows are cleared before the next
//!   page's difference is applied.

use std::fmt;

/// Columns of the fumen field.
pub const WIDTH: usize = 10;
/// Visible rows of the v115 field (the 20 rows of a board plus 3 above).
pub const FIELD_TOP: usize = 23;
/// Field rows plus the garbage row.
const ROWS: usize = FIELD_TOP + 1;
/// Cells the field difference covers.
const BLOCKS: usize = ROWS * WIDTH;
const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
/// Comment characters: printable ASCII from the space; a character's value is its index.
const COMMENT_BASE: u32 = 96;
const MAX_COMMENT: usize = 4095;

/// What a fumen cell or operation holds, numbered as the format numbers them.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Kind {
    Empty = 0,
    I = 1,
    L = 2,
    O = 3,
    Z = 4,
    T = 5,
    J = 6,
    S = 7,
    Gray = 8,
}

impl Kind {
    const ALL: [Kind; 9] = [
        Kind::Empty,
        Kind::I,
        Kind::L,
        Kind::O,
        Kind::Z,
        Kind::T,
        Kind::J,
        Kind::S,
        Kind::Gray,
    ];

    /// The kind with format number `n`.
    pub fn from_code(n: u32) -> Option<Kind> {
        Kind::ALL.get(n as usize).copied()
    }

    /// The letter fumen tools print (`_` empty, `X` gray).
    pub const fn letter(self) -> char {
        match self {
            Kind::Empty => '_',
            Kind::I => 'I',
            Kind::L => 'L',
            Kind::O => 'O',
            Kind::Z => 'Z',
            Kind::T => 'T',
            Kind::J => 'J',
            Kind::S => 'S',
            Kind::Gray => 'X',
        }
    }

    /// The kind of a tetromino letter.
    pub fn from_letter(c: char) -> Option<Kind> {
        Kind::ALL[1..8].iter().copied().find(|k| k.letter() == c)
    }

    /// The cells of the kind in spawn orientation around its rotation centre, y up.
    fn spawn_blocks(self) -> Option<[(i32, i32); 4]> {
        Some(match self {
            Kind::I => [(0, 0), (-1, 0), (1, 0), (2, 0)],
            Kind::T => [(0, 0), (-1, 0), (1, 0), (0, 1)],
            Kind::O => [(0, 0), (1, 0), (0, 1), (1, 1)],
            Kind::L => [(0, 0), (-1, 0), (1, 0), (1, 1)],
            Kind::J => [(0, 0), (-1, 0), (1, 0), (-1, 1)],
            Kind::S => [(0, 0), (-1, 0), (0, 1), (1, 1)],
            Kind::Z => [(0, 0), (1, 0), (0, 1), (-1, 1)],
            Kind::Empty | Kind::Gray => return None,
        })
    }
}

/// The four orientations, named as fumen names them (SRS).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Rotation {
    Spawn,
    Right,
    Reverse,
    Left,
}

impl Rotation {
    pub const ALL: [Rotation; 4] = [
        Rotation::Spawn,
        Rotation::Right,
        Rotation::Reverse,
        Rotation::Left,
    ];

    /// The format's number for the rotation (it counts from Reverse).
    const fn code(self) -> u32 {
        match self {
            Rotation::Reverse => 0,
            Rotation::Right => 1,
            Rotation::Spawn => 2,
            Rotation::Left => 3,
        }
    }

    fn from_code(n: u32) -> Rotation {
        [
            Rotation::Reverse,
            Rotation::Right,
            Rotation::Spawn,
            Rotation::Left,
        ][(n & 3) as usize]
    }

    /// Turns a spawn-orientation offset (y up).
    const fn turn(self, (x, y): (i32, i32)) -> (i32, i32) {
        match self {
            Rotation::Spawn => (x, y),
            Rotation::Right => (y, -x),
            Rotation::Reverse => (-x, -y),
            Rotation::Left => (-y, x),
        }
    }
}

/// A piece on a page: its kind, rotation and rotation centre `(x, y)`, y up from the bottom
/// row (the coordinates fumen editors and `tetris-fumen` show).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct Operation {
    pub kind: Kind,
    pub rotation: Rotation,
    pub x: i32,
    pub y: i32,
}

impl Operation {
    /// The four cells `(x, y)`, y up; `None` for a kind that is not a tetromino.
    pub fn cells(&self) -> Option<[(i32, i32); 4]> {
        let blocks = self.kind.spawn_blocks()?;
        Some(blocks.map(|b| {
            let (dx, dy) = self.rotation.turn(b);
            (self.x + dx, self.y + dy)
        }))
    }

    /// The operation of `kind` that fills exactly `cells` (y up), trying the rotations in
    /// `Rotation::ALL` order, so I, S, Z and O always come out in one canonical orientation.
    pub fn covering(kind: Kind, cells: &[(i32, i32); 4]) -> Option<Operation> {
        let mut want = *cells;
        want.sort();
        for rotation in Rotation::ALL {
            let at_origin = Operation {
                kind,
                rotation,
                x: 0,
                y: 0,
            };
            let mut got = at_origin.cells()?;
            got.sort();
            let (dx, dy) = (want[0].0 - got[0].0, want[0].1 - got[0].1);
            if got
                .iter()
                .zip(&want)
                .all(|(g, w)| (g.0 + dx, g.1 + dy) == *w)
            {
                return Some(Operation {
                    x: dx,
                    y: dy,
                    ..at_origin
                });
            }
        }
        None
    }

    /// How far the rotation centre sits from the cell the format stores for this kind and
    /// rotation: the format keeps the original fumen's reference cell, which differs from the
    /// SRS centre for O, I, S and Z in some orientations.
    const fn wire_shift(kind: Kind, rotation: Rotation) -> (i32, i32) {
        match (kind, rotation) {
            (Kind::O, Rotation::Left) => (1, -1),
            (Kind::O, Rotation::Reverse) => (1, 0),
            (Kind::O, Rotation::Spawn) => (0, -1),
            (Kind::I, Rotation::Reverse) => (1, 0),
            (Kind::I, Rotation::Left) => (0, -1),
            (Kind::S, Rotation::Spawn) => (0, -1),
            (Kind::S, Rotation::Right) => (-1, 0),
            (Kind::Z, Rotation::Spawn) => (0, -1),
            (Kind::Z, Rotation::Left) => (1, 0),
            _ => (0, 0),
        }
    }
}

/// A fumen field: 23 rows and the garbage row, each cell a [`Kind`].
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Field {
    /// `rows[0]` is the garbage row; `rows[y + 1]` is field row y (0 = bottom).
    rows: [[Kind; WIDTH]; ROWS],
}

impl Default for Field {
    fn default() -> Field {
        Field {
            rows: [[Kind::Empty; WIDTH]; ROWS],
        }
    }
}

impl Field {
    /// The cell at column `x`, row `y` (0 = bottom, -1 = the garbage row).
    pub fn get(&self, x: usize, y: i32) -> Kind {
        self.rows[(y + 1) as usize][x]
    }

    /// Sets the cell at column `x`, row `y` (-1 ..= 22).
    pub fn set(&mut self, x: usize, y: i32, kind: Kind) {
        self.rows[(y + 1) as usize][x] = kind;
    }

    /// Cells in the order the field difference walks them: top row first, garbage row last.
    fn walk(&self) -> impl Iterator<Item = Kind> + '_ {
        self.rows.iter().rev().flat_map(|r| r.iter().copied())
    }

    /// Writes a tetromino's cells (cells outside the field are dropped).
    fn fill(&mut self, op: &Operation) {
        if let Some(cells) = op.cells() {
            for (x, y) in cells {
                if (0..WIDTH as i32).contains(&x) && (0..FIELD_TOP as i32).contains(&y) {
                    self.set(x as usize, y, op.kind);
                }
            }
        }
    }

    /// Removes the full field rows (never the garbage row) and lets the rows above fall.
    fn clear_lines(&mut self) {
        let kept: Vec<[Kind; WIDTH]> = self.rows[1..]
            .iter()
            .filter(|row| row.contains(&Kind::Empty))
            .copied()
            .collect();
        for (i, row) in self.rows[1..].iter_mut().enumerate() {
            *row = kept.get(i).copied().unwrap_or([Kind::Empty; WIDTH]);
        }
    }

    /// The field a page leaves to the next one.
    fn after(&self, page: &Page) -> Field {
        let mut next = self.clone();
        if page.lock {
            if let Some(op) = &page.operation {
                next.fill(op);
            }
            next.clear_lines();
        }
        next
    }
}

impl fmt::Debug for Field {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for row in self.rows.iter().rev() {
            let line: String = row.iter().map(|k| k.letter()).collect();
            writeln!(f, "{line}")?;
        }
        Ok(())
    }
}

/// One page: the field shown, the piece on it and the page's comment.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Page {
    pub field: Field,
    pub operation: Option<Operation>,
    /// The comment shown with the page (the format stores it only where it changes).
    pub comment: String,
    /// Lock the operation into the field (and clear lines) for the next page.
    pub lock: bool,
    /// Guideline colours; fumen editors set it on the first page.
    pub colour: bool,
}

/// Why a string is not a fumen this codec reads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DecodeError(pub String);

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "fumen: {}", self.0)
    }
}

impl std::error::Error for DecodeError {}

/// The digits of a fumen being written.
#[derive(Default)]
struct Writer {
    digits: Vec<u8>,
}

impl Writer {
    fn push(&mut self, mut value: u32, digits: usize) {
        for _ in 0..digits {
            self.digits.push((value % 64) as u8);
            value /= 64;
        }
        debug_assert_eq!(value, 0, "value too large for its digits");
    }

    fn finish(self) -> String {
        let text: Vec<u8> = self.digits.iter().map(|&d| ALPHABET[d as usize]).collect();
        // Fumen editors break the data with `?` after 42 characters and then every 47, so the
        // string with its `v115@` wraps at 47; readers drop the `?`s.
        let mut out = String::from("v115@");
        let (head, mut rest) = text.split_at(text.len().min(42));
        out.push_str(std::str::from_utf8(head).expect("alphabet is ASCII"));
        while !rest.is_empty() {
            let (chunk, tail) = rest.split_at(rest.len().min(47));
            out.push('?');
            out.push_str(std::str::from_utf8(chunk).expect("alphabet is ASCII"));
            rest = tail;
        }
        out
    }
}

/// Writes the difference from `prev` to `cur`; returns whether anything changed.
fn field_diff(prev: &Field, cur: &Field, out: &mut Vec<u32>) -> bool {
    let diffs: Vec<u32> = cur
        .walk()
        .zip(prev.walk())
        .map(|(c, p)| c as u32 + 8 - p as u32)
        .collect();
    let mut run_start = 0;
    for i in 1..=BLOCKS {
        if i == BLOCKS || diffs[i] != diffs[run_start] {
            out.push(diffs[run_start] * BLOCKS as u32 + (i - run_start - 1) as u32);
            run_start = i;
        }
    }
    !(out.len() == 1 && diffs[0] == 8)
}

/// Encodes `pages` as a `v115@...` string.
pub fn encode(pages: &[Page]) -> String {
    let mut w = Writer::default();
    let mut prev = Field::default();
    let mut last_comment = String::new();
    // Where the repeat count of the current run of unchanged fields sits, if one is open.
    let mut repeat_at: Option<usize> = None;
    for page in pages {
        let mut runs = Vec::new();
        let changed = field_diff(&prev, &page.field, &mut runs);
        match repeat_at {
            Some(at) if !changed && w.digits[at] < 63 => w.digits[at] += 1,
            _ => {
                for run in runs {
                    w.push(run, 2);
                }
                if changed {
                    repeat_at = None;
                } else {
                    w.push(0, 1);
                    repeat_at = Some(w.digits.len() - 1);
                }
            }
        }
        let comment = (page.comment != last_comment).then(|| escape(&page.comment));
        w.push(action_value(page, comment.is_some()), 3);
        if let Some(text) = comment {
            let bytes = &text.as_bytes()[..text.len().min(MAX_COMMENT)];
            w.push(bytes.len() as u32, 2);
            for chunk in bytes.chunks(4) {
                let value = chunk
                    .iter()
                    .rev()
                    .fold(0, |v, &b| v * COMMENT_BASE + (b as u32 - b' ' as u32));
                w.push(value, 5);
            }
            last_comment = page.comment.clone();
        }
        prev = page.field.after(page);
    }
    w.finish()
}

fn action_value(page: &Page, comment: bool) -> u32 {
    let flags = (!page.lock as u32) << 4 | (comment as u32) << 3 | (page.colour as u32) << 2;
    let (kind, rotation, position) = match &page.operation {
        Some(op) => {
            let (sx, sy) = Operation::wire_shift(op.kind, op.rotation);
            let (x, y) = (op.x - sx, op.y - sy);
            let position = (FIELD_TOP as i32 - 1 - y) * WIDTH as i32 + x;
            (op.kind as u32, op.rotation.code(), position as u32)
        }
        None => (0, 0, 0),
    };
    debug_assert!((position as usize) < BLOCKS, "operation outside the field");
    ((flags * BLOCKS as u32 + position) * 4 + rotation) * 8 + kind
}

/// JavaScript's `escape`, which the format applies to comments: ASCII letters, digits and
/// `@*_+-./` stay, other characters become `%XX` or `%uXXXX`.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for unit in text.encode_utf16() {
        match unit {
            u if u < 128 && (u as u8 as char).is_ascii_alphanumeric() => out.push(u as u8 as char),
            u if u < 128 && b"@*_+-./".contains(&(u as u8)) => out.push(u as u8 as char),
            u if u < 256 => out.push_str(&format!("%{u:02X}")),
            u => out.push_str(&format!("%u{u:04X}")),
        }
    }
    out
}

/// The inverse of [`escape`]; malformed escapes are kept as they are.
pub fn unescape(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut units: Vec<u16> = Vec::with_capacity(text.len());
    let mut i = 0;
    let hex = |s: &[u8]| {
        std::str::from_utf8(s)
            .ok()
            .and_then(|s| u16::from_str_radix(s, 16).ok())
    };
    while i < bytes.len() {
        if bytes[i] == b'%' {
            if bytes.get(i + 1) == Some(&b'u') && i + 6 <= bytes.len() {
                if let Some(u) = hex(&bytes[i + 2..i + 6]) {
                    units.push(u);
                    i += 6;
                    continue;
                }
            } else if i + 3 <= bytes.len() {
                if let Some(u) = hex(&bytes[i + 1..i + 3]) {
                    units.push(u);
                    i += 3;
                    continue;
                }
            }
        }
        units.push(bytes[i] as u16);
        i += 1;
    }
    String::from_utf16_lossy(&units)
}

/// The digits of a fumen being read.
struct Reader {
    digits: Vec<u32>,
    at: usize,
}

impl Reader {
    fn poll(&mut self, n: usize) -> Result<u32, DecodeError> {
        if self.at + n > self.digits.len() {
            return Err(DecodeError(format!(
                "data ends early (wanted {n} digits at digit {})",
                self.at
            )));
        }
        let value = self.digits[self.at..self.at + n]
            .iter()
            .rev()
            .fold(0, |v, &d| v * 64 + d);
        self.at += n;
        Ok(value)
    }

    fn done(&self) -> bool {
        self.at >= self.digits.len()
    }
}

/// Decodes a `v115@...` string (or a viewer URL holding one) into its pages.
pub fn decode(text: &str) -> Result<Vec<Page>, DecodeError> {
    let start = ["v115@", "m115@", "d115@"]
        .iter()
        .filter_map(|tag| text.find(tag))
        .min()
        .ok_or_else(|| DecodeError("no v115@ data found (only version 115 is read)".into()))?;
    let data = &text[start + 5..];
    let data = data.split('&').next().unwrap_or_default();
    let mut digits = Vec::with_capacity(data.len());
    for (i, c) in data.chars().enumerate() {
        if c == '?' || c.is_whitespace() {
            continue;
        }
        let d = ALPHABET
            .iter()
            .position(|&a| a as char == c)
            .ok_or_else(|| DecodeError(format!("character {} ({c:?}) is not base 64", i + 1)))?;
        digits.push(d as u32);
    }
    let mut r = Reader { digits, at: 0 };
    let mut pages = Vec::new();
    let mut prev = Field::default();
    let mut repeat = 0u32;
    let mut comment = String::new();
    while !r.done() {
        let page_no = pages.len() + 1;
        let field = if repeat > 0 {
            repeat -= 1;
            prev.clone()
        } else {
            let (field, changed) = read_field(&mut r, &prev, page_no)?;
            if !changed {
                repeat = r.poll(1)?;
            }
            field
        };
        let action = r.poll(3)?;
        let kind = Kind::from_code(action % 8)
            .ok_or_else(|| DecodeError(format!("page {page_no}: piece code {}", action % 8)))?;
        let rotation = Rotation::from_code(action / 8 % 4);
        let position = (action / 32 % BLOCKS as u32) as i32;
        let flags = action / 32 / BLOCKS as u32;
        if flags & 0b11 != 0 {
            return Err(DecodeError(format!(
                "page {page_no}: rise and mirror flags are not supported"
            )));
        }
        let operation = match kind {
            Kind::Empty | Kind::Gray => None,
            kind => {
                let (sx, sy) = Operation::wire_shift(kind, rotation);
                Some(Operation {
                    kind,
                    rotation,
                    x: position % WIDTH as i32 + sx,
                    y: FIELD_TOP as i32 - 1 - position / WIDTH as i32 + sy,
                })
            }
        };
        if flags >> 3 & 1 == 1 {
            comment = read_comment(&mut r, page_no)?;
        }
        let page = Page {
            field,
            operation,
            comment: comment.clone(),
            lock: flags >> 4 & 1 == 0,
            colour: flags >> 2 & 1 == 1,
        };
        prev = page.field.after(&page);
        pages.push(page);
    }
    Ok(pages)
}

fn read_field(r: &mut Reader, prev: &Field, page_no: usize) -> Result<(Field, bool), DecodeError> {
    let old: Vec<Kind> = prev.walk().collect();
    let mut cells = Vec::with_capacity(BLOCKS);
    let mut runs = 0;
    let mut single_blank_run = false;
    while cells.len() < BLOCKS {
        let v = r.poll(2)?;
        let (diff, len) = (v / BLOCKS as u32, v as usize % BLOCKS + 1);
        runs += 1;
        single_blank_run = runs == 1 && diff == 8 && len == BLOCKS;
        if cells.len() + len > BLOCKS || diff > 16 {
            return Err(DecodeError(format!("page {page_no}: bad field run {v}")));
        }
        for _ in 0..len {
            let i = cells.len();
            let value = old[i] as i32 + diff as i32 - 8;
            let kind = u32::try_from(value)
                .ok()
                .and_then(Kind::from_code)
                .ok_or_else(|| DecodeError(format!("page {page_no}: cell value {value}")))?;
            cells.push(kind);
        }
    }
    let mut field = Field::default();
    for (i, kind) in cells.into_iter().enumerate() {
        let y = FIELD_TOP as i32 - 1 - (i / WIDTH) as i32;
        field.set(i % WIDTH, y, kind);
    }
    Ok((field, !single_blank_run))
}

fn read_comment(r: &mut Reader, page_no: usize) -> Result<String, DecodeError> {
    let len = r.poll(2)? as usize;
    let mut raw = String::with_capacity(len + 3);
    for _ in 0..len.div_ceil(4) {
        let mut v = r.poll(5)?;
        for _ in 0..4 {
            let c = v % COMMENT_BASE;
            if c >= 95 {
                return Err(DecodeError(format!(
                    "page {page_no}: comment character {c}"
                )));
            }
            raw.push((b' ' + c as u8) as char);
            v /= COMMENT_BASE;
        }
    }
    raw.truncate(len);
    Ok(unescape(&raw))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_empty_page_is_the_well_known_empty_fumen() {
        // Field: one run of 240 unchanged cells, 8*240+239 = 2159 = "vh", repeat count 0 = "A".
        // Action: colour flag only, (4*240*4)*8 = 30720 = "AgH".
        let page = Page {
            lock: true,
            colour: true,
            ..Page::default()
        };
        assert_eq!(encode(&[page]), "v115@vhAAgH");
    }

    #[test]
    fn one_cell_field_follows_the_run_length_description() {
        // 220 unchanged cells (rows 22..1): 8*240+219 = 2139 = "bh"; the I cell at (0, 0):
        // 9*240+0 = 2160 = "wh"; 19 unchanged cells: 8*240+18 = 1938 = "Se"; no piece "AgH".
        let mut field = Field::default();
        field.set(0, 0, Kind::I);
        let page = Page {
            field,
            lock: true,
            colour: true,
            ..Page::default()
        };
        assert_eq!(encode(std::slice::from_ref(&page)), "v115@bhwhSeAgH");
        assert_eq!(decode("v115@bhwhSeAgH").unwrap(), vec![page]);
    }

    #[test]
    fn a_t_piece_action_follows_the_description() {
        // T (5), spawn (code 2) at (4, 0): position (22-0)*10+4 = 224;
        // ((4*240+224)*4+2)*8+5 = 37909 = "VQJ".
        let page = Page {
            operation: Some(Operation {
                kind: Kind::T,
                rotation: Rotation::Spawn,
                x: 4,
                y: 0,
            }),
            lock: true,
            colour: true,
            ..Page::default()
        };
        assert_eq!(encode(std::slice::from_ref(&page)), "v115@vhAVQJ");
        let back = decode("v115@vhAVQJ").unwrap();
        assert_eq!(back, vec![page]);
        assert_eq!(
            back[0].operation.unwrap().cells().unwrap(),
            [(4, 0), (3, 0), (5, 0), (4, 1)]
        );
    }

    #[test]
    fn comments_use_the_escape_and_base_96_packing() {
        // "a b" escapes to "a%20b" (5 chars): length "FA"; "a%20" -> 65+5*96+18*96^2+16*96^3
        assert_eq!(escape("a b"), "a%20b");
        assert_eq!(unescape("a%20b%u00E9"), "a bé");
        let page = Page {
            comment: "a b".into(),
            lock: true,
            ..Page::default()
        };
        let s = encode(std::slice::from_ref(&page));
        let v: u32 = 65 + 5 * 96 + 18 * 96 * 96 + 16 * 96 * 96 * 96;
        let digits: String = (0..5)
            .map(|i| ALPHABET[(v / 64u32.pow(i) % 64) as usize] as char)
            .collect();
        assert!(s.starts_with("v115@vhA"), "{s}");
        // action: comment flag 8 -> (8*240*4)*8 = 61440 = "AAP"
        assert_eq!(&s[8..11], "AAP");
        assert_eq!(&s[11..13], "FA");
        assert_eq!(&s[13..18], digits);
        assert_eq!(decode(&s).unwrap(), vec![page]);
    }

    #[test]
    fn pages_round_trip_with_locks_clears_repeats_and_breaks() {
        let mut pages = Vec::new();
        let mut field = Field::default();
        for x in 0..9 {
            field.set(x, 0, Kind::Gray);
        }
        // An I standing in the last column clears the bottom row on lock.
        let i_up = Operation::covering(Kind::I, &[(9, 0), (9, 1), (9, 2), (9, 3)]).unwrap();
        pages.push(Page {
            field: field.clone(),
            operation: Some(i_up),
            comment: "first".into(),
            lock: true,
            colour: true,
        });
        let mut after = Field::default();
        for y in 0..3 {
            after.set(9, y, Kind::I);
        }
        // 70 pages with no change need two repeat counters (63 is the most one holds).
        for k in 0..70 {
            pages.push(Page {
                field: after.clone(),
                operation: None,
                comment: if k % 2 == 0 {
                    "same".into()
                } else {
                    "odd".into()
                },
                lock: true,
                colour: false,
            });
        }
        let s = encode(&pages);
        assert!(s.contains('?'), "long fumens carry line-break marks");
        assert_eq!(s.find('?'), Some(5 + 42));
        assert_eq!(decode(&s).unwrap(), pages);
    }

    #[test]
    fn covering_finds_every_orientation_of_every_kind() {
        for kind in [
            Kind::I,
            Kind::L,
            Kind::O,
            Kind::Z,
            Kind::T,
            Kind::J,
            Kind::S,
        ] {
            for rotation in Rotation::ALL {
                let op = Operation {
                    kind,
                    rotation,
                    x: 4,
                    y: 10,
                };
                let cells = op.cells().unwrap();
                let found = Operation::covering(kind, &cells).unwrap();
                let mut a = found.cells().unwrap();
                let mut b = cells;
                a.sort();
                b.sort();
                assert_eq!(a, b, "{kind:?} {rotation:?}");
            }
        }
    }

    #[test]
    fn decode_errors_say_what_is_wrong() {
        assert!(decode("hello").unwrap_err().0.contains("v115@"));
        assert!(decode("v115@vh!").unwrap_err().0.contains("not base 64"));
        assert!(decode("v115@vhA").unwrap_err().0.contains("ends early"));
    }
}
