//! `beamtris families`: the registry as a table, what each family supports and takes.

use crate::error::Result;
use crate::games::FAMILIES;

/// Print every game family: its rule set, built-in game, objectives, the commands and views
/// it supports, the game flags it takes, its weights presets (the default first), its default
/// beam, and the files it imports and exports.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Print the registry as JSON instead of a table.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: &Args) -> Result<()> {
    if args.json {
        let json = serde_json::to_string_pretty(&FAMILIES).expect("plain data serialises");
        println!("{json}");
    } else {
        print!("{}", crate::games::registry::table(&FAMILIES));
    }
    Ok(())
}
