//! beamtris: exact engines for fixed-seed Tetris games, a beam-search optimizer over them,
//! one-piece players and a 4-wide combo solver.

/// Micro-benchmarks behind `beamtris bench`.
pub mod bench;
/// The 10x20 board packed into four words.
pub mod board;
/// Subcommands: clap arguments and runners, wired by `main.rs`.
pub mod commands;
/// The one-line error a command ends with.
pub mod error;
/// Board features and the weight sets of the one-piece players.
pub mod eval;
/// The 4-wide combo solver: fields, sequence models, minimisation, value iteration, policy.
pub mod fourwide;
/// Reading inputs and writing outputs atomically.
pub mod io;
/// Sizes a user controls (beam, threads), checked against the machine.
pub mod limits;
/// Placements (drop or unit-move reach) and their op paths.
pub mod movegen;
/// Shapes and rotation states.
pub mod piece;
/// Progress bars for long runs.
pub mod progress;
/// Line protocols for online play (the classroom protocol).
pub mod protocol;
/// The op record: parse, validate, format.
pub mod record;
/// Replaying a record: score, pieces, end reason.
pub mod replay;
/// Summaries and SVG plots of sweeps, weight comparisons and tuning runs.
pub mod report;
/// Provenance recorded in every results file.
pub mod results;
/// Rule sets (tencent, ...).
pub mod rules;
/// Searches and players: the beam-search DP and its evaluator, the greedy one-piece players.
pub mod search;
/// Game definitions as data: generator, seed, length.
pub mod seed;
/// Views of a replay: text, animation, fumen, HTML page.
pub mod show;
/// SIGINT and SIGTERM: stop, keep the best so far, exit 130 / 143.
pub mod signal;
