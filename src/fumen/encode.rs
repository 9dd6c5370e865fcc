//! Pages to a `v115@...` string.

use super::{
    Field, Operation, Page, ALPHABET, BLOCKS, COMMENT_BASE, FIELD_TOP, MAX_COMMENT, WIDTH,
};

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

#[cfg(test)]
mod tests {
    use super::super::*;
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
}
