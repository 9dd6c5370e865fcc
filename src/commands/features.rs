//! `beamtris features --board FILE`: the evaluation features of a board, as JSON.

use crate::error::{Error, Result};
use crate::games::tencent::board::{Board, HEIGHT, WIDTH};
use crate::games::tencent::features::Features;
use crate::io;
use std::path::{Path, PathBuf};

/// Print the features of a board (row and column transitions, holes, wells, hole depth, rows
/// with holes, cells) as one JSON object.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The board: 20 lines of 10 characters, top row first, `#` filled and `.` empty.
    #[arg(long)]
    pub board: PathBuf,
}

/// Parses the strict board file format; errors say the line and column (1-based).
pub fn parse_board(text: &str) -> std::result::Result<Board, String> {
    let lines: Vec<&str> = text.lines().collect();
    // A final newline is fine; trailing blank lines are not counted as rows.
    let mut n = lines.len();
    while n > 0 && lines[n - 1].trim().is_empty() {
        n -= 1;
    }
    let mut rows = [0u16; HEIGHT];
    for (i, line) in lines[..n].iter().enumerate() {
        if i >= HEIGHT {
            return Err(format!(
                "line {}: a board has {HEIGHT} rows, this file has {n}",
                i + 1
            ));
        }
        let line = line.strip_suffix('\r').unwrap_or(line);
        let mut x = 0;
        for c in line.chars() {
            if x >= WIDTH {
                return Err(format!(
                    "line {}, column {}: a row has {WIDTH} cells, this one is longer",
                    i + 1,
                    x + 1
                ));
            }
            match c {
                '#' => rows[i] |= 1 << x,
                '.' => {}
                other => {
                    return Err(format!(
                        "line {}, column {}: unexpected character {other:?} (use # or .)",
                        i + 1,
                        x + 1
                    ))
                }
            }
            x += 1;
        }
        if x < WIDTH {
            return Err(format!(
                "line {}, column {}: a row has {WIDTH} cells, this one has {x}",
                i + 1,
                x + 1
            ));
        }
    }
    if n < HEIGHT {
        return Err(format!(
            "line {}: a board has {HEIGHT} rows, this file has {n}",
            n + 1
        ));
    }
    Ok(Board::from_rows(&rows))
}

/// Reads a board file; errors name the file, line and column.
pub fn read_board(path: &Path) -> Result<Board> {
    let text = io::read_text(path)?;
    parse_board(&text).map_err(|e| Error::at(path.display(), e))
}

pub fn run(args: &Args) -> Result<()> {
    let board = read_board(&args.board)?;
    let f = Features::of_board(&board);
    let json = serde_json::json!({
        "row_transitions": f.row_transitions,
        "column_transitions": f.column_transitions,
        "holes": f.holes,
        "wells": f.wells,
        "hole_depth": f.hole_depth,
        "rows_with_holes": f.rows_with_holes,
        "cells": f.cells,
        "column_heights": board.column_heights(),
        "full_rows": board.full_rows().count_ones(),
    });
    println!("{json}");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strict_format_and_positioned_errors() {
        let good = "..........\n".repeat(19) + "#.#.......\n";
        let b = parse_board(&good).unwrap();
        assert_eq!(b.cells(), 2);
        assert!(b.filled(0, 19) && b.filled(2, 19));
        let short = "..........\n".repeat(19);
        assert!(parse_board(&short).unwrap_err().starts_with("line 20:"));
        let bad = "..........\n".repeat(3) + "...x......\n" + &"..........\n".repeat(16);
        assert!(parse_board(&bad)
            .unwrap_err()
            .starts_with("line 4, column 4:"));
        let narrow = "..........\n".repeat(5) + ".........\n" + &"..........\n".repeat(14);
        assert!(parse_board(&narrow)
            .unwrap_err()
            .starts_with("line 6, column 10:"));
        let wide = "...........\n".to_string() + &"..........\n".repeat(19);
        assert!(parse_board(&wide)
            .unwrap_err()
            .starts_with("line 1, column 11:"));
        let long = "..........\n".repeat(21);
        assert!(parse_board(&long).unwrap_err().starts_with("line 21:"));
    }
}
