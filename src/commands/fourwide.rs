//! `beamtris fourwide`: solve the 4-wide combo MDP and print each field's value, or
//! `beamtris fourwide query`: the best placement for one field, hold and queue.

use crate::error::{Error, Result};
use crate::fourwide::policy::Structure;
use crate::fourwide::{self, Config, Field, Generator, Piece, Placements, Policy};
use crate::results::{peak_memory_bytes, RunInfo};
use serde::Serialize;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};

/// Solve the 4-wide combo problem (docs/fourwide.md) and print each
/// field's expected combo, averaged over the hold piece and the long-run queue.
#[derive(clap::Args, Debug)]
#[command(args_conflicts_with_subcommands = true)]
pub struct Args {
    #[command(subcommand)]
    pub action: Option<Action>,
    #[command(flatten)]
    pub model: Model,
    /// Pieces visible after the current one.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u8).range(0..=7))]
    pub preview: u8,
    /// Hold on (always occupied; swap the current and held piece).
    #[arg(long)]
    pub hold: bool,
    /// Print one JSON object on stdout instead of a table.
    #[arg(long)]
    pub json: bool,
    /// Save the solved policy to this file (for `fourwide query --policy`).
    #[arg(long)]
    pub save: Option<PathBuf>,
    /// Add this run (sizes, seconds, peak memory, provenance) to a results file such as
    /// results/fourwide/fourwide.json, replacing an earlier run of the same configuration.
    #[arg(long)]
    pub record: Option<PathBuf>,
}

/// What else `fourwide` can do besides solving.
#[derive(clap::Subcommand, Debug)]
pub enum Action {
    /// The best placement for a field, hold piece and queue, with its expected combo.
    Query(QueryArgs),
    /// Play the solved policy on the real guideline board (well in columns 3..6, sides full,
    /// pieces from the real spawn moved by the engine's move generation) and compare the mean
    /// combo with the value the solver predicts: prints {"predicted", "mean", "ci95", "games"}.
    Simulate(SimulateArgs),
}

/// Options of `fourwide simulate`.
#[derive(clap::Args, Debug)]
pub struct SimulateArgs {
    /// How pieces are generated.
    #[arg(long, value_enum, default_value_t = GeneratorArg::Bag)]
    pub generator: GeneratorArg,
    /// Pieces visible after the current one.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u8).range(0..=5))]
    pub preview: u8,
    /// Hold on (the held piece uniform at the start, as the field value averages).
    #[arg(long)]
    pub hold: bool,
    /// The field the games start from, in SPEC notation (default `XXX_`; `best` for the field
    /// with the highest value).
    #[arg(long, default_value = "XXX_")]
    pub field: String,
    /// Games to play.
    #[arg(long, default_value_t = 1000)]
    pub games: usize,
    /// Seed of the games' random numbers: the same seed gives the same games.
    #[arg(long, default_value_t = 1)]
    pub rng_seed: u64,
    /// End a game after this many clears (counted as played to there).
    #[arg(long, default_value_t = 1_000_000)]
    pub max_clears: usize,
}

/// The model options shared by solving and querying (a query with `--policy` takes them
/// from the policy file and refuses them here).
#[derive(clap::Args, Debug, Clone)]
pub struct Model {
    /// Residual cells: 3 (seed XXX_) or 6 (seed XXX_/XXX_) [default: 3].
    #[arg(long, value_parser = clap::value_parser!(u8).range(3..=6))]
    pub residuals: Option<u8>,
    /// How pieces are generated [default: random].
    #[arg(long, value_enum)]
    pub generator: Option<GeneratorArg>,
    /// Placements allowed: every SRS-reachable position, or hard drops only [default: srs].
    #[arg(long, value_enum)]
    pub placements: Option<PlacementsArg>,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug)]
pub enum GeneratorArg {
    Random,
    Bag,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug)]
pub enum PlacementsArg {
    Srs,
    Harddrop,
}

/// Answer from a saved policy (`--policy`) or by solving the configuration the query
/// implies: the queue length sets the previews, `--hold` turns hold on.
#[derive(clap::Args, Debug)]
pub struct QueryArgs {
    /// A policy saved by `fourwide --save`; without it the configuration is solved first.
    #[arg(long)]
    pub policy: Option<PathBuf>,
    #[command(flatten)]
    pub model: Model,
    /// The field in SPEC notation, e.g. `XXX_` or `__XX/___X`.
    #[arg(long)]
    pub field: String,
    /// The held piece (hold on); leave out for no hold.
    #[arg(long)]
    pub hold: Option<char>,
    /// The current piece followed by the previews, e.g. `IOTSZ`.
    #[arg(long)]
    pub queue: String,
    /// Bag generator: the pieces still in the bag after the last visible one (default: none,
    /// a fresh bag comes next).
    #[arg(long, default_value = "")]
    pub bag: String,
    /// Print every choice as JSON.
    #[arg(long)]
    pub json: bool,
}

impl Model {
    fn config(&self, preview: usize, hold: bool) -> Result<Config> {
        let residuals = self.residuals.unwrap_or(3);
        if residuals != 3 && residuals != 6 {
            return Err(Error(format!(
                "--residuals {residuals}: only 3 and 6 are supported"
            )));
        }
        Ok(Config {
            residuals,
            generator: match self.generator.unwrap_or(GeneratorArg::Random) {
                GeneratorArg::Random => Generator::Random,
                GeneratorArg::Bag => Generator::Bag,
            },
            preview,
            hold,
            placements: match self.placements.unwrap_or(PlacementsArg::Srs) {
                PlacementsArg::Srs => Placements::Srs,
                PlacementsArg::Harddrop => Placements::HardDrop,
            },
        })
    }

    /// The flags given, by name (for refusing them next to `--policy`).
    fn given(&self) -> Vec<&'static str> {
        let mut out = Vec::new();
        if self.residuals.is_some() {
            out.push("--residuals");
        }
        if self.generator.is_some() {
            out.push("--generator");
        }
        if self.placements.is_some() {
            out.push("--placements");
        }
        out
    }
}

/// Previews a query solves for itself at most; longer queues need a saved policy.
pub const QUERY_MAX_PREVIEW: usize = 6;

/// Memory the system can still give, from /proc/meminfo (`None` where it is not there).
fn available_memory_bytes() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// Builds the structure of `config` and refuses, naming `what`, a solve that would not fit in
/// the memory available.
fn structure_that_fits(config: &Config, save: bool, what: &str) -> Result<Structure> {
    let structure = Structure::build(config)?;
    let need = fourwide::solve_bytes(&structure, save);
    if let Some(have) = available_memory_bytes() {
        if need > have {
            return Err(Error(format!(
                "{what}: the solve needs about {:.1} GB ({} states after minimisation) and {:.1} GB \
                 of memory is available",
                need as f64 / 1e9,
                structure.minimized_states(),
                have as f64 / 1e9
            )));
        }
    }
    Ok(structure)
}

pub fn run(args: &Args) -> Result<()> {
    match &args.action {
        Some(Action::Query(q)) => query(q),
        Some(Action::Simulate(a)) => simulate(a),
        None => solve(args),
    }
}

/// Solves with a spinner on stderr when it is a terminal.
fn solve_config(structure: Structure, started: std::time::Instant) -> Policy {
    let bar = std::io::stderr().is_terminal().then(|| {
        let bar = indicatif::ProgressBar::new_spinner();
        bar.set_message("building fields and queue states");
        bar.enable_steady_tick(std::time::Duration::from_millis(200));
        bar
    });
    let policy = fourwide::solve_structure(structure, started, &mut |sweep, residual| match &bar {
        Some(bar) => bar.set_message(format!("sweep {sweep}, Bellman residual {residual:.3e}")),
        // Without a terminal: a plain line now and then, for logs of long solves.
        None if sweep % 50 == 0 => {
            eprintln!("fourwide: sweep {sweep}, Bellman residual {residual:.3e}")
        }
        None => {}
    });
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    policy
}

#[derive(Serialize)]
struct FieldValue {
    field: String,
    value: f64,
}

#[derive(Serialize)]
struct Report {
    states: usize,
    minimized_states: usize,
    seconds: f64,
    fields: Vec<FieldValue>,
    classes: usize,
    queue_states: usize,
    iterations: usize,
    extrapolations: usize,
    residual: f64,
    cpu_seconds: Option<f64>,
    peak_memory_bytes: Option<u64>,
}

fn solve(args: &Args) -> Result<()> {
    let started = std::time::Instant::now();
    let config = args.model.config(args.preview as usize, args.hold)?;
    let outputs: Vec<(&str, &Path)> = [("--save", &args.save), ("--record", &args.record)]
        .into_iter()
        .filter_map(|(flag, path)| Some((flag, path.as_deref()?)))
        .collect();
    crate::io::check_outputs(&outputs, &[])?;
    if let Some(path) = &args.record {
        // The rows it holds are read now, so a file that is not a runs file costs no solve.
        recorded_runs(path)?;
    }
    let structure = structure_that_fits(&config, args.save.is_some(), "--preview")?;
    let policy = solve_config(structure, started);
    let s = &policy.structure;
    let values = policy.field_values();
    let report = Report {
        states: s.states(),
        minimized_states: s.minimized_states(),
        seconds: policy.seconds,
        fields: values
            .iter()
            .map(|(f, v)| FieldValue {
                field: f.to_string(),
                value: *v,
            })
            .collect(),
        classes: s.reduced.classes,
        queue_states: s.sequence.len(),
        iterations: policy.iterations,
        extrapolations: policy.extrapolations,
        residual: policy.residual,
        cpu_seconds: crate::results::process_cpu_seconds(),
        peak_memory_bytes: peak_memory_bytes(),
    };
    if let Some(path) = &args.save {
        policy.save(path)?;
    }
    if let Some(path) = &args.record {
        record(path, &config, &report, &values)?;
    }
    if args.json {
        println!(
            "{}",
            serde_json::to_string(&report).expect("plain data serialises")
        );
    } else {
        print_table(&config, &report, &values);
    }
    Ok(())
}

fn print_table(config: &Config, report: &Report, values: &[(Field, f64)]) {
    println!(
        "{} residuals, {} generator, {} previews, hold {}, {} placements",
        config.residuals,
        config.generator.name(),
        config.preview,
        if config.hold { "on" } else { "off" },
        config.placements.name()
    );
    println!(
        "states {} -> {} after minimisation ({} classes x {} queue states); {} sweeps, \
         residual {:.1e}, {:.2} s",
        report.states,
        report.minimized_states,
        report.classes,
        report.queue_states,
        report.iterations,
        report.residual,
        report.seconds
    );
    let mut sorted: Vec<&(Field, f64)> = values.iter().collect();
    sorted.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    let width = sorted
        .iter()
        .map(|(f, _)| f.to_string().len())
        .max()
        .unwrap_or(4)
        .max(5);
    println!("{:<width$}  value", "field");
    for (f, v) in sorted {
        println!("{:<width$}  {v:.6}", f.to_string());
    }
    let mean = values.iter().map(|v| v.1).sum::<f64>() / values.len().max(1) as f64;
    println!("{:<width$}  {mean:.6}", "mean");
}

/// One row of results/fourwide/fourwide.json.
#[derive(Serialize)]
struct Row<'a> {
    residuals: u8,
    generator: &'static str,
    preview: usize,
    hold: bool,
    placements: &'static str,
    fields: usize,
    states: usize,
    minimized_states: usize,
    classes: usize,
    queue_states: usize,
    iterations: usize,
    extrapolations: usize,
    residual: f64,
    seconds: f64,
    cpu_seconds: Option<f64>,
    peak_memory_bytes: Option<u64>,
    seed_field_value: f64,
    best_field_value: f64,
    mean_field_value: f64,
    load_average: Option<String>,
    run: &'a RunInfo,
}

/// The rows of the runs file at `path` (none when there is no file yet).
fn recorded_runs(path: &Path) -> Result<Vec<serde_json::Value>> {
    if !path.exists() {
        return Ok(Vec::new());
    }
    let text = crate::io::read_text(path)?;
    let doc: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| Error::at(path.display(), e))?;
    doc.get("runs")
        .and_then(|r| r.as_array())
        .cloned()
        .ok_or_else(|| Error::at(path.display(), "no \"runs\" array"))
}

fn record(path: &Path, config: &Config, report: &Report, values: &[(Field, f64)]) -> Result<()> {
    let run = RunInfo::now();
    let seed = config.seed()?;
    let row = Row {
        residuals: config.residuals,
        generator: config.generator.name(),
        preview: config.preview,
        hold: config.hold,
        placements: config.placements.name(),
        fields: values.len(),
        states: report.states,
        minimized_states: report.minimized_states,
        classes: report.classes,
        queue_states: report.queue_states,
        iterations: report.iterations,
        extrapolations: report.extrapolations,
        residual: report.residual,
        seconds: report.seconds,
        cpu_seconds: report.cpu_seconds,
        peak_memory_bytes: report.peak_memory_bytes,
        seed_field_value: values.iter().find(|v| v.0 == seed).map_or(0.0, |v| v.1),
        best_field_value: values.iter().map(|v| v.1).fold(0.0, f64::max),
        mean_field_value: values.iter().map(|v| v.1).sum::<f64>() / values.len().max(1) as f64,
        load_average: std::fs::read_to_string("/proc/loadavg")
            .ok()
            .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" ")),
        run: &run,
    };
    let row = serde_json::to_value(&row).expect("plain data serialises");
    let mut runs = recorded_runs(path)?;
    let key = |r: &serde_json::Value| {
        ["residuals", "generator", "preview", "hold", "placements"].map(|k| r.get(k).cloned())
    };
    runs.retain(|r| key(r) != key(&row));
    runs.push(row);
    runs.sort_by_key(|r| {
        (
            r["residuals"].as_u64(),
            r["placements"].as_str().map(String::from),
            r["generator"].as_str().map(String::from),
            r["hold"].as_bool(),
            r["preview"].as_u64(),
        )
    });
    let doc = serde_json::json!({
        "description": "beamtris fourwide solves: sizes before and after minimisation, \
                        value-iteration sweeps to a Bellman residual below 1e-9, wall time \
                        and peak resident memory of the process",
        "runs": runs,
    });
    let text = serde_json::to_string_pretty(&doc).expect("plain data serialises");
    crate::io::write_atomic(path, format!("{text}\n").as_bytes())
}

/// The first piece that `pieces` holds twice, if one does.
fn repeated(pieces: &[Piece]) -> Option<Piece> {
    pieces
        .iter()
        .copied()
        .find(|p| pieces.iter().filter(|q| *q == p).count() > 1)
}

/// `--bag` against the policy's generator: none with the random generator (`random_why` says
/// why in the words of where the generator came from), and with the bag generator only a bag
/// that can follow the queue ([`check_bag_deals`]).
fn check_bag(
    generator: Generator,
    queue: &[Piece],
    bag: &[Piece],
    args: &QueryArgs,
    random_why: &str,
) -> Result<()> {
    match generator {
        Generator::Random if !bag.is_empty() => Err(Error(format!("--bag: {random_why}"))),
        Generator::Random => Ok(()),
        Generator::Bag => check_bag_deals(queue, bag, args),
    }
}

/// Refuses a queue and `--bag` that no 7-bag deal gives: the bag's pieces are what is left of
/// the bag the queue's last pieces came from (a full or empty `--bag`: the last piece ended a
/// bag), so those last `7 − |bag|` pieces and the bag are seven different pieces, and every 7
/// before them are one whole bag. The policy would otherwise answer for a queue that cannot
/// come (its values assume the bag's odds).
fn check_bag_deals(queue: &[Piece], bag: &[Piece], args: &QueryArgs) -> Result<()> {
    let (dealt, left) = match bag.len() {
        0 | 7 => (7, &[][..]),
        n => (7 - n, bag),
    };
    let letters = |ps: &[Piece]| ps.iter().map(|p| p.letter()).collect::<String>();
    let mut end = queue.len();
    let mut last_bag = true; // the bag the queue ends in, whose rest is `left`
    while end > 0 {
        let start = end.saturating_sub(if last_bag { dealt } else { 7 });
        let chunk = &queue[start..end];
        let mut in_bag = chunk.to_vec();
        if last_bag {
            in_bag.extend_from_slice(left);
        }
        if let Some(twice) = repeated(&in_bag) {
            let with_bag = if last_bag && !left.is_empty() {
                format!(" with the --bag {}", args.bag)
            } else {
                String::new()
            };
            return Err(Error(format!(
                "--queue {}: pieces {} to {} ({}){with_bag} would come from one 7-bag, which \
                 deals {} once",
                args.queue,
                start + 1,
                end,
                letters(chunk),
                twice.letter()
            )));
        }
        end = start;
        last_bag = false;
    }
    Ok(())
}

#[derive(Serialize)]
struct QueryReport<'a> {
    field: String,
    hold: Option<char>,
    queue: &'a str,
    best: Option<&'a fourwide::Choice>,
    choices: &'a [fourwide::Choice],
}

fn query(args: &QueryArgs) -> Result<()> {
    let field = Field::parse(&args.field)?;
    let queue = Piece::parse_list(&args.queue).map_err(|e| Error::at("--queue", e))?;
    let Some((&current, next)) = queue.split_first() else {
        return Err(Error("--queue: give at least the current piece".into()));
    };
    let hold = args
        .hold
        .map(Piece::from_letter)
        .transpose()
        .map_err(|e| Error::at("--hold", e))?;
    let bag = Piece::parse_list(&args.bag).map_err(|e| Error::at("--bag", e))?;
    if let Some(twice) = repeated(&bag) {
        return Err(Error(format!(
            "--bag {}: {} is there twice; what is left of a 7-bag holds each piece once",
            args.bag,
            twice.letter()
        )));
    }
    let policy = match &args.policy {
        Some(path) => {
            if let Some(flag) = args.model.given().first() {
                return Err(Error(format!(
                    "{flag}: not used with --policy (the policy file {} fixes the model)",
                    path.display()
                )));
            }
            let policy = Policy::load(path)?;
            check_bag(
                policy.config().generator,
                &queue,
                &bag,
                args,
                "the policy's generator is random, which has no bag",
            )?;
            policy
        }
        None => {
            if next.len() > QUERY_MAX_PREVIEW {
                return Err(Error(format!(
                    "--queue: {} pieces mean {} previews; a query solves at most {} previews \
                     itself (a bigger solve takes many GB): solve once with `fourwide --preview {} \
                     --save FILE` and query with --policy FILE",
                    queue.len(),
                    next.len(),
                    QUERY_MAX_PREVIEW,
                    next.len()
                )));
            }
            let started = std::time::Instant::now();
            let config = args.model.config(next.len(), hold.is_some())?;
            // before the solve, which may take long
            check_bag(
                config.generator,
                &queue,
                &bag,
                args,
                "only with --generator bag (the random generator has no bag)",
            )?;
            solve_config(structure_that_fits(&config, false, "--queue")?, started)
        }
    };
    let choices = policy.choices(field, hold, current, next, &bag)?;
    if args.json {
        let report = QueryReport {
            field: field.to_string(),
            hold: hold.map(|p| p.letter()),
            queue: &args.queue,
            best: choices.first(),
            choices: &choices,
        };
        println!(
            "{}",
            serde_json::to_string(&report).expect("plain data serialises")
        );
        return Ok(());
    }
    match choices.first() {
        None => println!("no clearing placement: the combo ends here (expected combo 0)"),
        Some(best) => {
            let how = if best.hold {
                format!("hold, place {}", best.piece)
            } else {
                format!("place {}", best.piece)
            };
            println!(
                "{how} -> {}   expected combo {:.6}",
                best.field, best.expected
            );
            for c in &choices[1..] {
                let how = if c.hold { "hold" } else { "    " };
                println!(
                    "  also: {how} {} -> {}   {:.6}",
                    c.piece, c.field, c.expected
                );
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn query_args(queue: &str) -> QueryArgs {
        QueryArgs {
            policy: None,
            model: Model {
                residuals: None,
                generator: None,
                placements: None,
            },
            field: "XXX_".into(),
            hold: None,
            queue: queue.into(),
            bag: String::new(),
            json: true,
        }
    }

    #[test]
    fn a_queue_and_bag_no_seven_bag_deals_are_refused() {
        let bag_query = |queue: &str, bag: &str| {
            let mut a = query_args(queue);
            a.model.generator = Some(GeneratorArg::Bag);
            a.bag = bag.into();
            query(&a)
        };
        // S is in the bag and among the last two pieces dealt from it
        let e = bag_query("SZ", "JLTIS").unwrap_err();
        assert_eq!(
            e.0,
            "--queue SZ: pieces 1 to 2 (SZ) with the --bag JLTIS would come from one 7-bag, \
             which deals S once"
        );
        // no bag given: a fresh one comes next, so the last seven are one whole bag
        let e = bag_query("OTSZJLO", "").unwrap_err();
        assert!(
            e.0.starts_with("--queue OTSZJLO: pieces 1 to 7 (OTSZJLO) would"),
            "{e}"
        );
        // the pieces before the bag's part: one whole bag each
        let e = bag_query("ZZZ", "JLTIOS").unwrap_err();
        assert_eq!(
            e.0,
            "--queue ZZZ: pieces 1 to 2 (ZZ) would come from one 7-bag, which deals Z once"
        );
        // deals that can come
        assert!(bag_query("SZ", "JLTIO").is_ok());
        assert!(bag_query("TOSZ", "").is_ok());
        assert!(bag_query("IOSZ", "JLT").is_ok());
        // O and T from the bag before, then the bag's first pieces
        assert!(bag_query("OOSZ", "JLTI").is_ok());
        assert!(bag_query("TTOSZ", "JLI").is_ok());
    }

    #[test]
    fn queries_that_would_start_a_huge_solve_or_ignore_a_flag_are_refused() {
        let e = query(&query_args("IOTSZJLI")).unwrap_err();
        assert!(e.0.starts_with("--queue: 8 pieces mean 7 previews"), "{e}");
        let mut a = query_args("IO");
        a.bag = "JL".into();
        let e = query(&a).unwrap_err();
        assert!(e.0.starts_with("--bag: only with --generator bag"), "{e}");
        let mut a = query_args("IO");
        a.policy = Some(PathBuf::from("/nonexistent/p.policy"));
        a.model.generator = Some(GeneratorArg::Bag);
        let e = query(&a).unwrap_err();
        assert!(
            e.0.starts_with("--generator: not used with --policy"),
            "{e}"
        );
    }

    #[test]
    fn a_save_path_that_is_a_directory_is_refused_before_the_solve() {
        let dir = std::env::temp_dir().join(format!("beamtris-fw-save-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let args = Args {
            action: None,
            model: Model {
                residuals: None,
                generator: None,
                placements: None,
            },
            preview: 0,
            hold: false,
            json: true,
            save: Some(dir.clone()),
            record: None,
        };
        let e = run(&args).unwrap_err();
        assert_eq!(
            e.0,
            format!("--save {}: is a directory; give a file name", dir.display())
        );
        assert_eq!(
            std::fs::read_dir(&dir).unwrap().count(),
            0,
            "no temp file left"
        );
        std::fs::remove_dir_all(&dir).ok();
    }
}

#[derive(Serialize)]
struct SimulateReport {
    #[serde(flatten)]
    measured: fourwide::simulate::Measured,
    field: String,
    generator: &'static str,
    preview: u8,
    hold: bool,
    rng_seed: u64,
    agrees: bool,
    seconds: f64,
}

fn simulate(a: &SimulateArgs) -> Result<()> {
    crate::limits::check_games(a.games as u64)?;
    let started = std::time::Instant::now();
    let model = Model {
        residuals: Some(3),
        generator: Some(a.generator),
        placements: Some(PlacementsArg::Srs),
    };
    let config = model.config(a.preview as usize, a.hold)?;
    let field = if a.field == "best" {
        None
    } else {
        Some(Field::parse(&a.field)?)
    };
    let structure = structure_that_fits(&config, false, "--preview")?;
    let policy = solve_config(structure, started);
    let field = match field {
        Some(f) => f,
        None => policy
            .field_values()
            .into_iter()
            .max_by(|x, y| x.1.total_cmp(&y.1))
            .map(|v| v.0)
            .expect("a solve has fields"),
    };
    let bar = crate::progress::bar(a.games as u64, "{pos}/{len} games  eta {eta}");
    let measured =
        fourwide::simulate::simulate(&policy, field, a.games, a.rng_seed, a.max_clears, |g| {
            bar.set_position(g as u64)
        })?;
    bar.finish_and_clear();
    let report = SimulateReport {
        agrees: (measured.mean - measured.predicted).abs() <= measured.ci95,
        field: field.to_string(),
        generator: config.generator.name(),
        preview: a.preview,
        hold: a.hold,
        rng_seed: a.rng_seed,
        seconds: started.elapsed().as_secs_f64(),
        measured,
    };
    println!(
        "{}",
        serde_json::to_string(&report).expect("plain data serialises")
    );
    Ok(())
}
