//! A `v115@...` string back to pages (the encoder's tests round-trip through it).

use super::{
    DecodeError, Field, Kind, Operation, Page, Rotation, ALPHABET, BLOCKS, COMMENT_BASE, FIELD_TOP,
    WIDTH,
};

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

/// The tags a version-115 fumen's data starts with (`m` and `d` are the mobile and diff
/// viewers' links to the same data).
const TAGS: [&str; 3] = ["v115@", "m115@", "d115@"];

/// Whether `text` holds version-115 fumen data (a fumen, or a viewer URL holding one).
pub fn holds_fumen(text: &str) -> bool {
    TAGS.iter().any(|tag| text.contains(tag))
}

/// The tags of the older version 110, which this codec does not read: told apart so that
/// such a string is refused as a fumen of the wrong version, not as something else.
const OLD_TAGS: [&str; 3] = ["v110@", "m110@", "d110@"];

/// Whether `text` holds version-110 fumen data.
pub fn holds_old_fumen(text: &str) -> bool {
    OLD_TAGS.iter().any(|tag| text.contains(tag))
}

/// Decodes a `v115@...` string (or a viewer URL holding one) into its pages.
pub fn decode(text: &str) -> Result<Vec<Page>, DecodeError> {
    decode_pages(text, usize::MAX)
}

/// The first page of a `v115@...` string: a starting board. The later pages are not decoded
/// (a board takes only the first page's field, and a fumen of millions of pages would
/// otherwise take seconds and gigabytes), so what they hold, a rise or mirror flag among it,
/// does not matter; the whole string must still be fumen characters.
pub fn first_page(text: &str) -> Result<Page, DecodeError> {
    let mut pages = decode_pages(text, 1)?;
    pages
        .pop()
        .ok_or_else(|| DecodeError("no page (an empty fumen)".into()))
}

/// The first `limit` pages.
fn decode_pages(text: &str, limit: usize) -> Result<Vec<Page>, DecodeError> {
    let start = TAGS
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
    while !r.done() && pages.len() < limit {
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
        // Rise and mirror change the field of the page after this one.
        if flags & 0b11 != 0 && page_no < limit {
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
    fn a_board_reads_the_first_page_alone() {
        // one page whose rise flag would only change a second page
        let page = first_page("v115@bhD8AeN8AeAYJ").unwrap();
        assert!(decode("v115@bhD8AeN8AeAYJ").is_err());
        let gray: Vec<(usize, i32)> = (0..10)
            .flat_map(|x| (0..3).map(move |y| (x, y)))
            .filter(|&(x, y)| page.field.get(x, y) == Kind::Gray)
            .collect();
        // the bottom row, grey but for column 4
        let want: Vec<(usize, i32)> = (0..10).filter(|&x| x != 4).map(|x| (x, 0)).collect();
        assert_eq!(gray, want);
        // a later page's flag or damage is not read; a bad character anywhere still is
        let two = crate::fumen::encode(&[page.clone(), page.clone()]);
        assert_eq!(first_page(&two).unwrap().field, page.field);
        assert!(first_page(&format!("{two}!")).is_err());
        assert_eq!(
            first_page("v115@").unwrap_err().to_string(),
            "fumen: no page (an empty fumen)"
        );
    }

    #[test]
    fn decode_errors_say_what_is_wrong() {
        assert!(decode("hello").unwrap_err().0.contains("v115@"));
        assert!(decode("v115@vh!").unwrap_err().0.contains("not base 64"));
        assert!(decode("v115@vhA").unwrap_err().0.contains("ends early"));
    }
}
