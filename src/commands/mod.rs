//! One module per subcommand: its clap arguments and the function that runs it. `main.rs`
//! only dispatches here; the game logic stays in the library modules.

pub mod fourwide;
pub mod verify;
