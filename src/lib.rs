//! beamtris: exact engines for fixed-seed Tetris games, a beam-search optimizer over them,
//! one-piece players and a 4-wide combo solver.
//!
//! The data's way: a seed file ([`seed`]) gives a game of one family ([`games`]); the family's
//! move generation gives the placements of each piece; a search ([`search`]) ranks them with
//! an evaluator ([`eval`]) and keeps the best line as a record ([`record`]); the family's
//! replay scores the record; the views ([`show`], [`report`]) draw it.

/// The versus arena: two bots, a match on TETR.IO's versus rules, its summary and replay.
pub mod arena;
/// Micro-benchmarks behind `beamtris bench`.
pub mod bench;
/// Subcommands: clap arguments and runners, wired by `main.rs`.
pub mod commands;
/// The one-line error a command ends with.
pub mod error;
/// Weights and evaluators that rank a family's boards; the weights-file loader.
pub mod eval;
/// Where the families meet the searches and views: the `Family` trait every command is written
/// over, one impl a family, the solve flow and export.
pub mod family;
/// The 4-wide combo solver: fields, sequence models, minimisation, value iteration, policy.
pub mod fourwide;
/// The fumen codec (v115), for starting boards and the fumen view.
pub mod fumen;
/// Game definitions as data (`seeds/*.json`): rule set, generator, length, start, each
/// family's options (TETR.IO's, NES's).
pub mod game_def;
/// The game families (tencent, guideline, TETR.IO, NES, standard), one folder each with its
/// declaration, the registry `FAMILIES`, and what they share.
pub mod games;
/// Reading inputs and writing outputs atomically.
pub mod io;
/// A value learned from the search's own games: training data and the fit.
pub mod learn;
/// Sizes a user controls (beam, threads), checked against the machine.
pub mod limits;
/// Shapes and rotation states.
pub mod piece;
/// Progress bars for long runs.
pub mod progress;
/// Line protocols for online play (the classroom protocol).
pub mod protocols;
/// The op record: parse, validate, format.
pub mod record;
/// Summaries and SVG plots of sweeps, weight comparisons and tuning runs.
pub mod report;
/// Provenance recorded in every results file.
pub mod results;
/// Searches and players: the beam-search DP, online play, the greedy one-piece players, tuning.
pub mod search;
/// Views of a replay: text, animation, fumen, HTML page.
pub mod show;
/// SIGINT, SIGTERM and SIGHUP: stop, keep the best so far, exit 130 / 143 / 129.
pub mod signal;
