//! Soft-drop points as the ROM adds them (docs/nes.md, "Soft-drop points"): movies of the
//! push-down differential, cut after the score update they show (tests/data/nes/pushdown,
//! see tests/data/README.md), played from power-on; the score on the frame before the
//! update and on the update's frame, as the ROM's `addHoldDownPoints` gives it (and
//! meta_nestris agrees on every frame of these games).

mod common;

use beamtris::games::nes::movie;
use std::path::Path;

const DIR: &str = "tests/data/nes/pushdown";

/// The score on each of `frames` (pairs of frame and score), played from power-on.
fn assert_scores(file: &str, want: &[(u64, u32)]) {
    let m = common::read_movie(&Path::new(DIR).join(file));
    let frames: Vec<u64> = want.iter().map(|w| w.0).collect();
    let shots = movie::play(&m, &frames).unwrap();
    let got: Vec<(u64, u32)> = shots
        .iter()
        .map(|s| (s.frame, s.score.expect("in a game")))
        .collect();
    assert_eq!(got, want, "{file}");
}

#[test]
fn past_99_without_the_nibble_fix_up_the_ones_digit_is_lost() {
    // 490 + 18 rows: $90 - 1 + 18 = $A1, the low nibble below 10, the high nibble past 9:
    // $A0 + $60 = $00 and the hundreds +1. Before the fix: 501.
    assert_scores("a_lv10_s13_786.fm2", &[(785, 490), (786, 500)]);
    // 1 496 + 15 rows: $95 + $0F = $A4, kept as $00: 1 500 (before the fix: 1 504).
    assert_scores("a_lv17_s22_2042.fm2", &[(967, 1496), (968, 1500)]);
}

#[test]
fn past_99_through_the_nibble_fix_up_the_ones_digit_is_lost() {
    // 492 + 12 rows: $91 + $0C = $9D, +6 = $A3, then $00: 500.
    assert_scores("a_lv10_s40_808.fm2", &[(807, 492), (808, 500)]);
}

#[test]
fn the_rows_less_one_are_added_in_binary_to_a_bcd_byte() {
    // 0 + 13 rows: $FF + 13 = $0C, +6 = $12: 12 points, as in decimal.
    // 12 + 19 rows: $11 + 19 = $24: 18 points counted as $12, so 24, not 30.
    // 24 + 17 rows and a single at level 10: $23 + 17 = $34, then 440: 474.
    assert_scores(
        "a_lv10_s13_786.fm2",
        &[
            (469, 0),
            (470, 12),
            (522, 12),
            (523, 24),
            (602, 24),
            (603, 474),
        ],
    );
}

#[test]
fn a_hundreds_digit_of_9_is_carried_by_the_line_clear_fix_up() {
    // 6 993 + 13 rows: $92 + $0D = $9F, +6 = $A5, then $00 and the middle byte $69 + 1 =
    // $6A in binary, which the line-clear addition's nibble fix-up makes $70: 7 000.
    assert_scores("a_lv17_s22_2042.fm2", &[(2041, 6993), (2042, 7000)]);
}

#[test]
fn b_type_soft_drops_score_alike() {
    // B-type, height 5: 0 + 10 rows: $FF + 10 = $09.
    assert_scores("b_lv00_h5_s47_511.fm2", &[(510, 0), (511, 9)]);
}
