//! Property test over every parser a user's file or stream reaches: the record, the game file
//! (seed), the weights file (either kind), the board file of `features` and the classroom
//! protocol. Any byte string, and any small mutation of a valid input, gives `Ok` or a
//! one-line error, never a panic. A seed that parses also deals its first pieces, so a
//! generator that divides by zero or overflows is caught here too (the checks of
//! `GameDef::check` are what keep it from panicking).

use beamtris::eval::tencent::Weights as BeamWeights;
use beamtris::eval::weights_file;
use beamtris::game_def::GameDef;
use beamtris::protocols::classroom;
use beamtris::record::{Grammar, Record};
use proptest::prelude::*;

/// Valid inputs of each parser, mutated by the strategies below.
const RECORDS: [&str; 3] = ["N,C1,L2,D17,N,D18", "N,H1,L3,D1,N,R2", "\u{feff}N,D19\n"];
const SEEDS: [&str; 2] = [
    include_str!("../seeds/tencent-geek-4.json"),
    include_str!("../seeds/bag7-1-tetrio-attack.json"),
];
const WEIGHTS: [&str; 4] = [
    r#"{"score_weight": 0.036, "cells": -1.2, "holes": 7.9, "min_clear_cells": [1, 2, 3, 4]}"#,
    r#"{"score_weight": 0.068, "cells": -2.4, "fade_pieces": 20, "i_ahead": {"window": 10, "cells": -0.4}}"#,
    r#"{"holes": -4, "rows_cleared": 3.4, "hole_depth": -1.6}"#,
    r#"{"score_weight": 1e308, "lines": -1e-308}"#,
];
const BOARDS: [&str; 1] = [
    "..........\n..........\n..........\n..........\n..........\n..........\n..........\n\
     ..........\n..........\n..........\n..........\n..........\n..........\n..........\n\
     ..........\n..........\n..........\n#.........\n##.#######\n####.#####\n",
];
const PROTOCOL: [&str; 3] = ["IO\nT\nS\nX\n", "io\r\nz\r\nE\r\n", "0O\nL\nJ\nX\n"];

/// Bytes: random, or one of `valid` with a stretch replaced by random bytes.
fn input(valid: &'static [&'static str]) -> impl Strategy<Value = Vec<u8>> {
    let random = proptest::collection::vec(any::<u8>(), 0..300);
    let mutated = (
        0..valid.len(),
        any::<prop::sample::Index>(),
        0usize..8,
        proptest::collection::vec(any::<u8>(), 0..12),
    )
        .prop_map(move |(which, at, cut, with)| {
            let mut bytes = valid[which].as_bytes().to_vec();
            let at = at.index(bytes.len() + 1);
            let end = (at + cut).min(bytes.len());
            bytes.splice(at..end, with);
            bytes
        });
    prop_oneof![random, mutated]
}

/// The error text of a parser: one line, not empty.
fn one_line(what: &str, err: impl std::fmt::Display) {
    let s = err.to_string();
    assert!(!s.is_empty(), "{what}: an empty error");
    assert!(!s.contains('\n'), "{what}: a multi-line error: {s:?}");
}

proptest! {
    // No failure file: a test run must not write into the source tree.
    #![proptest_config(ProptestConfig {
        cases: 4000,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn records(bytes in input(&RECORDS)) {
        let text = String::from_utf8_lossy(&bytes);
        for grammar in [&Grammar::TENCENT, &Grammar::GUIDELINE_SRS, &Grammar::GUIDELINE_SRS_PLUS] {
            match Record::parse_with(&text, grammar) {
                // A record that parses formats (runs merged) to one that formats the same.
                Ok(r) => {
                    let text = r.to_string();
                    let back = Record::parse_with(&text, grammar).map(|b| b.to_string());
                    prop_assert_eq!(back.ok(), Some(text));
                }
                Err(e) => one_line("record", e),
            }
        }
    }

    #[test]
    fn seeds(bytes in input(&SEEDS)) {
        let text = String::from_utf8_lossy(&bytes);
        match GameDef::parse(&text) {
            Ok(seed) => {
                let _ = seed.shapes(seed.pieces.min(64));
            }
            Err(e) => one_line("seed", e),
        }
    }

    #[test]
    fn weights(bytes in input(&WEIGHTS)) {
        let text = String::from_utf8_lossy(&bytes);
        match weights_file::parse(&text) {
            Ok(w) => {
                if let Err(e) = w.clone().into_beam() { one_line("weights for the beam", e) }
                if let Err(e) = w.into_player() { one_line("weights for a player", e) }
            }
            Err(e) => one_line("weights", e),
        }
        if let Err(e) = BeamWeights::parse(&text) {
            one_line("beam weights", e);
        }
    }

    #[test]
    fn boards(bytes in input(&BOARDS)) {
        if let Err(e) = beamtris::commands::features::parse_board(&String::from_utf8_lossy(&bytes)) {
            one_line("board", e);
        }
    }

    #[test]
    fn protocol_streams(bytes in input(&PROTOCOL)) {
        let mut out = Vec::new();
        if let Err(e) = classroom::run_protocol(&bytes[..], &mut out) {
            one_line("protocol", e);
        }
    }
}

/// The seeds the issue found panicking or aborting are refused with an error naming the field.
#[test]
fn the_seeds_that_used_to_panic_are_refused() {
    let base = SEEDS[0];
    let cases = [
        (
            base.replace(
                r#"[["I", 2], ["L", 3], ["J", 3], ["T", 4], ["O", 5], ["S", 6], ["Z", 6]]"#,
                r#"[["I", 18446744073709551615], ["L", 1]]"#,
            ),
            "generator.weights: the weights add up past 2^64 - 1",
        ),
        (
            base.replace(r#""pieces": 10000"#, r#""pieces": 1000000000000"#),
            "pieces: 1000000000000 is more than the 1000000000 a game may have",
        ),
        (
            base.replace(r#""seed": 12358"#, r#""seed": 18446744073709551615"#),
            "generator: a*seed + c overflows 64 bits (give a seed below m)",
        ),
    ];
    for (text, want) in cases {
        assert_ne!(text, base, "the case edits the seed");
        assert_eq!(GameDef::parse(&text).unwrap_err().to_string(), want);
    }
}

/// A key written with a JSON escape (`\n`) decodes to a newline; the error quoting it stays
/// on one line in every JSON parser (the case CI's random bytes once found in a seed).
#[test]
fn a_key_with_an_escaped_newline_is_quoted_on_one_line() {
    let bad_key = r#""na\nme""#;
    let seed = SEEDS[0].replacen(r#""name""#, bad_key, 1);
    one_line("seed", GameDef::parse(&seed).unwrap_err());
    for text in [
        format!(r#"{{"score_weight": 1, {bad_key}: 2}}"#),
        format!(r#"{{"holes": -4, {bad_key}: 2}}"#),
    ] {
        one_line("weights", weights_file::parse(&text).unwrap_err());
        one_line("beam weights", BeamWeights::parse(&text).unwrap_err());
        one_line(
            "guideline weights",
            beamtris::eval::guideline::GuidelineWeights::parse(&text).unwrap_err(),
        );
    }
}
