//! What every results file records beside its figures: the exact command, the commit, the
//! machine and the time, so a figure can be traced and rerun.

use serde::Serialize;
use std::path::Path;
use std::time::{SystemTime, UNIX_EPOCH};

/// Provenance of a run.
#[derive(Clone, Debug, Serialize)]
pub struct RunInfo {
    /// The full command line.
    pub command: String,
    /// The commit the binary was built from, with `-dirty` when its tracked files had
    /// changes (from `build.rs`, not from the folder the run started in).
    pub commit: String,
    /// The compiler that built the binary (`rustc --version`).
    pub rustc: String,
    /// The target features the binary was compiled for (`avx2`, `bmi2`, ...): the hot paths
    /// use `popcnt` and friends only where these allow.
    pub target_features: String,
    /// CPU model and logical cores.
    pub machine: String,
    /// UTC time the run started, ISO 8601.
    pub date: String,
}

impl RunInfo {
    /// The current process's command line, the binary's build, the machine and the time.
    pub fn now() -> RunInfo {
        RunInfo {
            command: std::env::args().collect::<Vec<_>>().join(" "),
            commit: build_commit(),
            rustc: env!("BEAMTRIS_RUSTC").to_string(),
            target_features: env!("BEAMTRIS_TARGET_FEATURES").to_string(),
            machine: machine(),
            date: utc_now_iso(),
        }
    }
}

/// The commit compiled in by `build.rs`, `-dirty` when the tree had changes to tracked files.
pub fn build_commit() -> String {
    let commit = env!("BEAMTRIS_COMMIT");
    if env!("BEAMTRIS_DIRTY") == "true" {
        format!("{commit}-dirty")
    } else {
        commit.to_string()
    }
}

fn machine() -> String {
    let model = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split(':').nth(1))
                .map(|m| m.trim().to_string())
        })
        .unwrap_or_else(|| std::env::consts::ARCH.to_string());
    let cores = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1);
    format!("{model}, {cores} cores")
}

/// The current UTC time as `YYYY-MM-DDTHH:MM:SSZ`.
pub fn utc_now_iso() -> String {
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    iso_from_unix(secs)
}

/// Formats Unix seconds as an ISO 8601 UTC time (proleptic Gregorian calendar).
pub fn iso_from_unix(secs: u64) -> String {
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    // Howard Hinnant's days-to-civil algorithm.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem / 60 % 60,
        rem % 60
    )
}

/// Peak resident memory of this process in bytes (`VmHWM`), where the OS reports it.
pub fn peak_memory_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// CPU seconds (user + system) this process has used, from `/proc/self/stat` (clock ticks
/// of 1/100 s, the Linux default). Beside the wall time it shows how much a shared machine
/// slowed a run.
pub fn process_cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the command name, which is in parentheses and may hold spaces.
    let rest = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let utime: f64 = fields.get(11)?.parse().ok()?;
    let stime: f64 = fields.get(12)?.parse().ok()?;
    Some((utime + stime) / 100.0)
}

/// The one-minute load average when the run started: other work sharing the cores.
pub fn load_average() -> Option<f64> {
    std::fs::read_to_string("/proc/loadavg")
        .ok()?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

/// Nanoseconds this thread has run on a CPU (`CLOCK_THREAD_CPUTIME_ID`), so a figure does
/// not count the time other processes held the core; `None` where the clock is missing.
///
/// Not `/proc/thread-self/schedstat`: on this VM's kernel it advances in 4 ms ticks, which
/// quantised the short samples of earlier figures.
pub fn thread_cpu_ns() -> Option<u64> {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `t` is a valid timespec for the call to write into.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    (rc == 0).then(|| t.tv_sec as u64 * 1_000_000_000 + t.tv_nsec as u64)
}

#[cfg(test)]
mod tests {
    #[test]
    fn provenance_comes_from_the_build() {
        let run = super::RunInfo::now();
        assert!(run.rustc.starts_with("rustc "), "{}", run.rustc);
        let hex = run.commit.trim_end_matches("-dirty");
        assert!(
            hex == "unknown" || (hex.len() == 40 && hex.chars().all(|c| c.is_ascii_hexdigit())),
            "{}",
            run.commit
        );
    }

    #[test]
    fn formats_known_instants() {
        assert_eq!(super::iso_from_unix(0), "1970-01-01T00:00:00Z");
        assert_eq!(super::iso_from_unix(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(super::iso_from_unix(1_795_300_557), "2026-11-21T22:35:57Z");
    }
}

/// The fields every solve results file ends with, whatever the family.
#[derive(Serialize)]
pub struct RunCost {
    pub wall_seconds: f64,
    /// CPU seconds of the whole process (all threads).
    pub cpu_seconds: Option<f64>,
    /// One-minute load average at the start: other work on the machine.
    pub load_average_at_start: Option<f64>,
    pub peak_memory_bytes: Option<u64>,
    pub threads: usize,
    pub record_file: String,
    #[serde(flatten)]
    pub run: RunInfo,
}

impl RunCost {
    /// The figures at the end of a run: its CPU time and peak memory so far.
    pub fn measured(
        wall_seconds: f64,
        load_average_at_start: Option<f64>,
        threads: usize,
        record_file: &Path,
        run: RunInfo,
    ) -> RunCost {
        RunCost {
            wall_seconds,
            cpu_seconds: process_cpu_seconds(),
            load_average_at_start,
            peak_memory_bytes: peak_memory_bytes(),
            threads,
            record_file: record_file.display().to_string(),
            run,
        }
    }
}
