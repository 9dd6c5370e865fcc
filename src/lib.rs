//! beamtris: exact engines for fixed-seed Tetris games, a beam-search optimizer over them,
//! one-piece players and a 4-wide combo solver.

/// The 10x20 board packed into four words.
pub mod board;
/// Subcommands: clap arguments and runners, wired by `main.rs`.
pub mod commands;
/// The one-line error a command ends with.
pub mod error;
/// The 4-wide combo solver: fields, sequence models, minimisation, value iteration, policy.
pub mod fourwide;
/// Reading inputs and writing outputs atomically.
pub mod io;
/// Shapes and rotation states.
pub mod piece;
/// The op record: parse, validate, format.
pub mod record;
/// Replaying a record: score, pieces, end reason.
pub mod replay;
/// Provenance recorded in every results file.
pub mod results;
/// Rule sets (tencent, ...).
pub mod rules;
/// Game definitions as data: generator, seed, length.
pub mod seed;
