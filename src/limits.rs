//! Sizes a user controls, checked against what the machine has before any work starts, so a
//! typo (`--beam 100000000`, `--threads 100000`) is a one-line error that states the limit
//! instead of an allocation abort, a panic or a hang.

use crate::error::{Error, Result};

/// Logical cores (1 when the OS does not say).
pub fn cores() -> usize {
    std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
}

/// Worker threads per core beyond which `--threads` is refused: more only adds switching, and
/// tens of thousands of threads make rayon's start-up hang.
pub const THREADS_PER_CORE: usize = 8;

/// `--threads n`, checked: at least 1, at most [`THREADS_PER_CORE`] x the cores.
pub fn check_threads(n: usize) -> Result<usize> {
    let max = cores() * THREADS_PER_CORE;
    if n == 0 {
        return Err(Error(
            "--threads 0: give at least 1 (leave the flag out to use every core)".into(),
        ));
    }
    if n > max {
        return Err(Error(format!(
            "--threads {n}: at most {max} ({THREADS_PER_CORE} per core on this machine's {} cores)",
            cores()
        )));
    }
    Ok(n)
}

/// The machine's memory in bytes (`MemTotal`), where the OS reports it.
pub fn total_memory_bytes() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb.saturating_mul(1024))
}

/// Bytes a beam search holds per kept board at its peak: the children of every kept board
/// (about 34 placements of 56 bytes), the kept entries, the de-duplication set and the
/// predecessor arena. Measured: beam 60 000 (reach) peaked at 379 MiB, 6.6 KiB a board.
pub const BEAM_BYTES_PER_BOARD: u64 = 6_800;

/// `--beam`, checked: at least 1, and small enough that the search fits in the machine's
/// memory by [`BEAM_BYTES_PER_BOARD`]. `flag` names the flag in the error.
pub fn check_beam(flag: &str, beam: usize) -> Result<()> {
    if beam == 0 {
        return Err(Error(format!("{flag} 0: give at least 1")));
    }
    let need = (beam as u64).saturating_mul(BEAM_BYTES_PER_BOARD);
    if let Some(have) = total_memory_bytes() {
        if need > have {
            return Err(Error(format!(
                "{flag} {beam}: needs about {} of memory ({} a board), this machine has {}; \
                 the widest beam that fits is about {}",
                human_bytes(need),
                human_bytes(BEAM_BYTES_PER_BOARD),
                human_bytes(have),
                have / BEAM_BYTES_PER_BOARD
            )));
        }
    }
    Ok(())
}

/// Bytes a game's piece list takes while a command holds it: the drawn pieces with their
/// random numbers (16 bytes) and the pieces alone (2 bytes), with room to spare.
pub const BYTES_PER_PIECE: u64 = 24;

/// A game of `pieces` pieces, checked: its piece list must fit in half the machine's memory
/// (the search needs the rest). `game` names the seed file in the error.
pub fn check_pieces(game: &str, pieces: usize) -> Result<()> {
    let need = (pieces as u64).saturating_mul(BYTES_PER_PIECE);
    if let Some(have) = total_memory_bytes() {
        if need > have / 2 {
            return Err(Error(format!(
                "{game}: pieces: {pieces} pieces need about {} to hold, more than half of this \
                 machine's {}; at most about {} pieces",
                human_bytes(need),
                human_bytes(have),
                have / 2 / BYTES_PER_PIECE
            )));
        }
    }
    Ok(())
}

/// `x` for a message: as written when it is short, in exponent form when it is huge or tiny
/// (a value of 1e300 in an input is not printed as three hundred digits).
pub fn short_number(x: f64) -> String {
    let plain = x.to_string();
    if plain.len() <= 12 {
        plain
    } else {
        format!("{x:e}")
    }
}

/// `n` bytes as `12.3 GiB` (or MiB, KiB, B).
pub fn human_bytes(n: u64) -> String {
    const UNITS: [&str; 5] = ["B", "KiB", "MiB", "GiB", "TiB"];
    let mut v = n as f64;
    let mut u = 0;
    while v >= 1024.0 && u + 1 < UNITS.len() {
        v /= 1024.0;
        u += 1;
    }
    if u == 0 {
        format!("{n} B")
    } else {
        format!("{v:.1} {}", UNITS[u])
    }
}

/// `n` followed by `one` or `many`: `1 piece`, `2 pieces`.
pub fn plural(n: impl Into<u128>, one: &str, many: &str) -> String {
    let n = n.into();
    format!("{n} {}", if n == 1 { one } else { many })
}

/// The most pieces a game may have: the piece list is held in memory (the 100 million of
/// `seeds/standard.json` take 200 MB), so a typo of a few zeros is refused, not allocated.
pub const MAX_PIECES: usize = 1_000_000_000;

/// The most games one `play` or `fourwide simulate` run plays: each is a line of a partial
/// file or a row of the results, so a typo of a few zeros would fill the disk, not measure
/// anything the first million games do not.
pub const MAX_GAMES: u64 = 1_000_000;

/// Refuses a `--games` of 0 or past [`MAX_GAMES`].
pub fn check_games(games: u64) -> crate::error::Result<()> {
    if games == 0 || games > MAX_GAMES {
        return Err(crate::error::Error(format!(
            "--games {games}: give 1 to {MAX_GAMES}"
        )));
    }
    Ok(())
}

/// `--previews N` of an online player: at least 1, and at most a game's most pieces (past
/// the game's end a player sees the whole game anyway; a number near 2^64 would overflow
/// the window's arithmetic).
pub fn check_previews(previews: usize, why_one: &str) -> Result<()> {
    if previews == 0 {
        return Err(Error(format!("--previews 0: {why_one}")));
    }
    if previews > MAX_PIECES {
        return Err(Error(format!(
            "--previews {previews}: give at most {} (a game's most pieces)",
            MAX_PIECES
        )));
    }
    Ok(())
}

/// A rayon pool of `threads` workers (default: every core), and the count it got. Zero and
/// counts far past the machine's cores are refused: rayon would spin up every one of them.
pub fn thread_pool(threads: Option<usize>) -> Result<(usize, rayon::ThreadPool)> {
    let threads = match threads {
        Some(n) => check_threads(n)?,
        None => cores(),
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| Error(format!("--threads {threads}: {e}")))?;
    Ok((threads, pool))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn threads_zero_and_absurd_are_refused_with_the_limit() {
        assert_eq!(
            check_threads(0).unwrap_err().0,
            "--threads 0: give at least 1 (leave the flag out to use every core)"
        );
        let max = cores() * THREADS_PER_CORE;
        assert_eq!(check_threads(max).unwrap(), max);
        let err = check_threads(max + 1).unwrap_err().0;
        assert!(
            err.starts_with(&format!("--threads {}: at most {max} ", max + 1)),
            "{err}"
        );
    }

    #[test]
    fn a_beam_past_the_memory_is_refused_with_the_widest_that_fits() {
        check_beam("--beam", 1).unwrap();
        assert_eq!(
            check_beam("--beam", 0).unwrap_err().0,
            "--beam 0: give at least 1"
        );
        if total_memory_bytes().is_some() {
            let err = check_beam("--beam", usize::MAX).unwrap_err().0;
            assert!(
                err.starts_with(&format!("--beam {}: needs about ", usize::MAX)),
                "{err}"
            );
            assert!(err.contains("the widest beam that fits is about "), "{err}");
        }
    }

    #[test]
    fn plurals_and_sizes_read_right() {
        assert_eq!(plural(1u32, "piece", "pieces"), "1 piece");
        assert_eq!(plural(0u32, "piece", "pieces"), "0 pieces");
        assert_eq!(human_bytes(512), "512 B");
        assert_eq!(short_number(-100.0), "-100");
        assert_eq!(short_number(0.25), "0.25");
        assert_eq!(short_number(1e300), "1e300");
        assert_eq!(human_bytes(3 << 30), "3.0 GiB");
    }
}
