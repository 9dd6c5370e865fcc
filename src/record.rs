//! The op record both game families replay: `N,C1,L2,D17,N,...`.
//!
//! One grammar, two letter sets. Under the Tencent game parsing checks what its
//! `validateRecord` checks (first token `N`, letters L/R/D/C with a positive count, 1..=100
//! ops between two `N`s); under the guideline rules (docs/guideline.md) the
//! letters are L/R/D/C/A (F under SRS+) with counts 1..=99 and `H1` directly after `N`.
//! Errors say which token broke which rule. Formatting merges runs of the same op
//! (`L1,L1` -> `L2`), as a recorded play does.

use std::fmt;

/// A unit op: one step left, right, down, a clockwise rotation; under the guideline rules
/// also a counter-clockwise or 180° rotation, and hold.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Op {
    Left,
    Right,
    Down,
    /// Clockwise (`C`).
    Rotate,
    /// Counter-clockwise (`A`, guideline only).
    Ccw,
    /// 180° (`F`, guideline with SRS+ only).
    Flip,
    /// Hold (`H1`, guideline only, directly after `N`).
    Hold,
}

impl Op {
    /// The record letter.
    pub const fn letter(self) -> char {
        match self {
            Op::Left => 'L',
            Op::Right => 'R',
            Op::Down => 'D',
            Op::Rotate => 'C',
            Op::Ccw => 'A',
            Op::Flip => 'F',
            Op::Hold => 'H',
        }
    }

    /// The op written `c`, in any game.
    pub const fn from_letter(c: char) -> Option<Op> {
        Some(match c {
            'L' => Op::Left,
            'R' => Op::Right,
            'D' => Op::Down,
            'C' => Op::Rotate,
            'A' => Op::Ccw,
            'F' => Op::Flip,
            'H' => Op::Hold,
            _ => return None,
        })
    }
}

/// What a game's records may hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Grammar {
    /// The op letters allowed, `N` aside.
    pub ops: &'static [Op],
    /// The largest count of one token (`None`: any that fits 32 bits).
    pub max_count: Option<u32>,
    /// The Tencent game's 1..=100 ops between two `N`s.
    pub ops_per_piece: bool,
    /// Why a known letter outside `ops` is refused.
    pub refused_because: &'static str,
}

impl Grammar {
    /// The Tencent game's records.
    pub const TENCENT: Grammar = Grammar {
        ops: &[Op::Left, Op::Right, Op::Down, Op::Rotate],
        max_count: None,
        ops_per_piece: true,
        refused_because: "not an op of the Tencent game (N, L, R, D, C)",
    };
    /// Guideline records under SRS: no 180° turns.
    pub const GUIDELINE_SRS: Grammar = Grammar {
        ops: &[Op::Left, Op::Right, Op::Down, Op::Rotate, Op::Ccw, Op::Hold],
        max_count: Some(99),
        ops_per_piece: false,
        refused_because: "F (180°) needs rotation srs_plus; this game uses srs",
    };
    /// Guideline records under SRS+.
    pub const GUIDELINE_SRS_PLUS: Grammar = Grammar {
        ops: &[
            Op::Left,
            Op::Right,
            Op::Down,
            Op::Rotate,
            Op::Ccw,
            Op::Flip,
            Op::Hold,
        ],
        max_count: Some(99),
        ops_per_piece: false,
        refused_because: "",
    };

    fn letters(&self) -> String {
        let mut s = String::from("N");
        for op in self.ops {
            s.push_str(", ");
            s.push(op.letter());
        }
        s
    }
}

/// One record token: `N` (spawn the next piece) or an op with its repeat count.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Token {
    New,
    Op(Op, u32),
}

/// A parsed record: the tokens in order, first one `N`.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Record {
    pub tokens: Vec<Token>,
}

/// Why a record was refused, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordError {
    /// The record has no tokens.
    Empty,
    /// Token `index` (1-based, as the game counts) is not `N` or an op letter of the game
    /// with a count.
    BadToken {
        index: usize,
        text: String,
        reason: String,
    },
    /// The first token is not `N`.
    FirstNotNew { text: String },
    /// Piece `piece` (1-based) has `ops` unit ops; the game allows 1..=100 (the last piece may
    /// have none).
    OpsPerPiece {
        piece: usize,
        index: usize,
        ops: u64,
        /// The record's last piece, which may have 0 ops.
        last: bool,
    },
}

/// A token as an error quotes it: in quotes, and cut to its first 24 characters, so a file
/// of another kind (a NES record has no commas: all of it is token 1) is not quoted whole.
fn quoted(text: &str) -> String {
    const KEEP: usize = 24;
    if text.chars().count() <= KEEP {
        return format!("{text:?}");
    }
    let head: String = text.chars().take(KEEP).collect();
    format!("{head:?}... ({} characters)", text.chars().count())
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordError::Empty => write!(f, "the record is empty"),
            RecordError::BadToken {
                index,
                text,
                reason,
            } => write!(f, "token {index} ({}): {reason}", quoted(text)),
            RecordError::FirstNotNew { text } => {
                write!(f, "token 1 ({}): a record must start with N", quoted(text))
            }
            RecordError::OpsPerPiece {
                piece,
                ops,
                last: true,
                ..
            } => write!(
                f,
                "piece {piece} (the record's last): {ops} ops, the game allows 0 to 100"
            ),
            RecordError::OpsPerPiece {
                piece, index, ops, ..
            } => write!(
                f,
                "piece {piece} (ending before token {index}): {ops} ops, the game allows 1 to 100"
            ),
        }
    }
}

impl std::error::Error for RecordError {}

fn parse_token(index: usize, raw: &str, grammar: &Grammar) -> Result<Token, RecordError> {
    let text = raw.trim();
    let bad = |reason: String| RecordError::BadToken {
        index,
        text: text.to_string(),
        reason,
    };
    let mut chars = text.chars();
    let letter = chars.next().ok_or_else(|| bad("empty token".into()))?;
    let digits = chars.as_str();
    if letter == 'N' {
        return if digits.is_empty() {
            Ok(Token::New)
        } else {
            Err(bad("N takes no count".into()))
        };
    }
    let op = match Op::from_letter(letter) {
        Some(op) if grammar.ops.contains(&op) => op,
        Some(_) => return Err(bad(grammar.refused_because.into())),
        None => {
            return Err(bad(format!(
                "unknown op letter (expected {})",
                grammar.letters()
            )))
        }
    };
    if digits.is_empty() {
        return Err(bad(format!("missing count (write e.g. {letter}1)")));
    }
    if !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad("the count must be decimal digits".into()));
    }
    let count: u32 = digits.parse().map_err(|_| bad("count too large".into()))?;
    if count == 0 {
        return Err(bad("the count must be positive".into()));
    }
    if let Some(max) = grammar.max_count {
        if count > max {
            return Err(bad(format!("the count must be at most {max}")));
        }
    }
    if op == Op::Hold && count != 1 {
        return Err(bad("hold is written H1".into()));
    }
    Ok(Token::Op(op, count))
}

impl Record {
    /// Parses and validates a Tencent record. Surrounding white space (and a trailing
    /// newline) is ignored.
    pub fn parse(text: &str) -> Result<Record, RecordError> {
        Record::parse_with(text, &Grammar::TENCENT)
    }

    /// Parses and validates a record of the game whose grammar is `grammar`.
    pub fn parse_with(text: &str, grammar: &Grammar) -> Result<Record, RecordError> {
        // A byte-order mark (some editors write one) is not part of the first token.
        let text = text.strip_prefix('\u{feff}').unwrap_or(text).trim();
        if text.is_empty() {
            return Err(RecordError::Empty);
        }
        let mut tokens = Vec::new();
        for (i, raw) in text.split(',').enumerate() {
            let token = parse_token(i + 1, raw, grammar)?;
            if token == Token::Op(Op::Hold, 1) && tokens.last() != Some(&Token::New) {
                return Err(RecordError::BadToken {
                    index: i + 1,
                    text: raw.trim().to_string(),
                    reason: "hold (H1) is allowed only directly after N".into(),
                });
            }
            tokens.push(token);
        }
        if tokens[0] != Token::New {
            return Err(RecordError::FirstNotNew {
                text: text.split(',').next().unwrap_or("").trim().to_string(),
            });
        }
        let record = Record { tokens };
        if grammar.ops_per_piece {
            record.validate()?;
        }
        Ok(record)
    }

    /// Checks the ops per piece: 1..=100 between two `N`s; the last piece may have 0..=100.
    pub fn validate(&self) -> Result<(), RecordError> {
        let mut piece = 0usize;
        let mut ops: u64 = 0;
        for (i, token) in self.tokens.iter().enumerate() {
            match token {
                Token::New => {
                    if piece > 0 && !(1..=100).contains(&ops) {
                        return Err(RecordError::OpsPerPiece {
                            piece,
                            index: i + 1,
                            ops,
                            last: false,
                        });
                    }
                    piece += 1;
                    ops = 0;
                }
                Token::Op(_, n) => ops += *n as u64,
            }
        }
        if ops > 100 {
            return Err(RecordError::OpsPerPiece {
                piece,
                index: self.tokens.len() + 1,
                ops,
                last: true,
            });
        }
        Ok(())
    }

    /// Number of `N` tokens: pieces the record spawns.
    pub fn pieces(&self) -> usize {
        self.tokens.iter().filter(|t| **t == Token::New).count()
    }

    /// Builds a record from each piece's unit ops, merging runs.
    pub fn from_paths<'a>(paths: impl IntoIterator<Item = &'a [Op]>) -> Record {
        let mut tokens = Vec::new();
        for path in paths {
            tokens.push(Token::New);
            push_merged(&mut tokens, path);
        }
        Record { tokens }
    }

    /// Each piece's unit ops as their letters (`LLDC`, `H` first for a hold): the paths
    /// TETR.IO's engine plays.
    pub fn path_letters(&self) -> Vec<String> {
        self.paths()
            .iter()
            .map(|p| p.iter().map(|op| op.letter()).collect())
            .collect()
    }

    /// The unit ops of each piece, in order (runs expanded).
    pub fn paths(&self) -> Vec<Vec<Op>> {
        let mut out: Vec<Vec<Op>> = Vec::new();
        for token in &self.tokens {
            match token {
                Token::New => out.push(Vec::new()),
                Token::Op(op, n) => {
                    if let Some(last) = out.last_mut() {
                        last.extend(std::iter::repeat_n(*op, *n as usize));
                    }
                }
            }
        }
        out
    }
}

/// Appends `ops` to `tokens`, merging runs of the same op.
fn push_merged(tokens: &mut Vec<Token>, ops: &[Op]) {
    let mut i = 0;
    while i < ops.len() {
        let op = ops[i];
        let mut n = 0;
        while i < ops.len() && ops[i] == op {
            n += 1;
            i += 1;
        }
        tokens.push(Token::Op(op, n));
    }
}

impl fmt::Display for Record {
    /// The record text; adjacent tokens of the same op are merged.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut first = true;
        let mut i = 0;
        while i < self.tokens.len() {
            let token = self.tokens[i];
            if !first {
                f.write_str(",")?;
            }
            first = false;
            match token {
                Token::New => {
                    f.write_str("N")?;
                    i += 1;
                }
                Token::Op(op, mut n) => {
                    i += 1;
                    while let Some(Token::Op(next, m)) = self.tokens.get(i) {
                        if *next != op {
                            break;
                        }
                        n += m;
                        i += 1;
                    }
                    write!(f, "{}{}", op.letter(), n)?;
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_merges_runs() {
        let r = Record::parse("N,C1,C1,L2,D17,N,R3,D18\n").unwrap();
        assert_eq!(r.pieces(), 2);
        assert_eq!(r.to_string(), "N,C2,L2,D17,N,R3,D18");
        assert_eq!(Record::parse(&r.to_string()).unwrap().paths(), r.paths());
        let ops = [Op::Left, Op::Left, Op::Down, Op::Left];
        let built = Record::from_paths([&ops[..], &[Op::Down][..]]);
        assert_eq!(built.to_string(), "N,L2,D1,L1,N,D1");
    }

    #[test]
    fn errors_name_the_token_and_the_rule() {
        let e = |s: &str| Record::parse(s).unwrap_err().to_string();
        assert_eq!(e(""), "the record is empty");
        assert!(e("L1,N,D3").contains("token 1"));
        assert!(e("N,X3,D5").starts_with("token 2 (\"X3\"): unknown op letter"));
        assert!(e("N,D0").starts_with("token 2 (\"D0\"): the count must be positive"));
        assert!(e("N,D").contains("missing count"));
        assert!(e("N,D1,,N").starts_with("token 3"));
        assert!(e("N3,D1").contains("N takes no count"));
        assert!(e("N,D-1").contains("decimal digits"));
        // ops per piece: 1 to 100 between two Ns, 0 to 100 for the record's last piece
        assert_eq!(
            e("N,N,D1"),
            "piece 1 (ending before token 2): 0 ops, the game allows 1 to 100"
        );
        assert_eq!(
            e("N,D1,N,L50,L51"),
            "piece 2 (the record's last): 101 ops, the game allows 0 to 100"
        );
        assert!(e("N,D99999999999").contains("too large"));
        assert!(e("N,D19,N,N,D18").starts_with("piece 2 "));
        assert!(e("N,L50,R51").starts_with("piece 1 "), "{}", e("N,L50,R51"));
        // the last piece may have no ops; 100 ops are allowed
        assert!(Record::parse("N,D19,N").is_ok());
        assert!(Record::parse("N,L50,R50").is_ok());
    }
}
