//! One module per subcommand: its clap arguments and the function that runs it. `main.rs`
//! only dispatches here; the game logic stays in the library modules.

pub mod bench;
pub mod features;
pub mod fourwide;
pub mod play;
pub mod report;
pub mod show;
pub mod solve;
pub mod tune;
pub mod verify;
