//! File helpers shared by the commands: reading inputs with errors that name the file, checking
//! outputs before the work starts, and writing them through a temporary name so an interrupted
//! or failed run leaves neither a torn file nor a stray temporary one.

use crate::error::{Error, Result};
use crate::game_def::GameDef;
use crate::games::registry::RuleSet;
use crate::record::Record;
use std::path::{Path, PathBuf};

/// The byte-order mark some editors put at the start of a UTF-8 file.
const BOM: char = '\u{feff}';

/// The largest input file read: far past any record, game, weights file, replay or data
/// file beamtris writes, and a bound on what a wrong path (`/dev/zero`, a disk image) costs.
pub const MAX_INPUT_BYTES: u64 = 1 << 30;

/// Reads a text file; the error names it. A leading byte-order mark is dropped, so a file
/// saved by an editor that adds one reads the same as one without. A file past
/// [`MAX_INPUT_BYTES`] is refused after reading that much, not read to its end.
pub fn read_text(path: &Path) -> Result<String> {
    read_text_up_to(path, MAX_INPUT_BYTES)
}

/// [`read_text`] with a smaller bound, for inputs whose parse takes many times their size.
pub fn read_text_up_to(path: &Path, max_bytes: u64) -> Result<String> {
    use std::io::Read;
    if path.is_dir() {
        return Err(Error::at(path.display(), "is a directory, not a file"));
    }
    let file = std::fs::File::open(path).map_err(|e| Error::at(path.display(), e))?;
    let mut bytes = Vec::new();
    file.take(max_bytes + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| Error::at(path.display(), e))?;
    if bytes.len() as u64 > max_bytes {
        return Err(Error::at(
            path.display(),
            format!(
                "larger than {} MiB: not a file beamtris reads",
                max_bytes >> 20
            ),
        ));
    }
    let text = String::from_utf8(bytes).map_err(|e| {
        Error::at(
            path.display(),
            format!("line {}: not UTF-8 text", first_bad_line(&e)),
        )
    })?;
    Ok(match text.strip_prefix(BOM) {
        Some(rest) => rest.to_string(),
        None => text,
    })
}

/// The line (from 1) of the first byte that is not UTF-8, for the message that refuses it.
pub fn first_bad_line(e: &std::string::FromUtf8Error) -> usize {
    let good = &e.as_bytes()[..e.utf8_error().valid_up_to()];
    good.iter().filter(|&&b| b == b'\n').count() + 1
}

/// Reads and validates a record file; the error names the file and the token.
pub fn read_record(path: &Path) -> Result<Record> {
    let text = read_text(path)?;
    Record::parse(&text).map_err(|e| Error::at(path.display(), e))
}

/// The seed at `path`, or the built-in Tencent Geek 4 game. `path` may also be the results
/// file of a run (`solve`, `polish`, `play`): the game it played is then the one inside it.
pub fn load_seed(path: Option<&Path>) -> Result<GameDef> {
    match path {
        Some(p) => {
            let text = read_text(p)?;
            let value = serde_json::from_str::<serde_json::Value>(&text).ok();
            seed_of(&text, value.as_ref(), p)
        }
        None => Ok(GameDef::tencent_geek_4()),
    }
}

/// The game the file at `p` holds: `text`, parsed as `value` when it is JSON, is a game file
/// or a results file (whose game is the one inside it).
fn seed_of(text: &str, value: Option<&serde_json::Value>, p: &Path) -> Result<GameDef> {
    let seed = match value.and_then(game_of_results) {
        Some(game) => game.map_err(|e| Error::at(p.display(), e))?,
        None => GameDef::parse(text).map_err(|e| Error::at(p.display(), e))?,
    };
    // The commands hold a tencent or guideline game's piece list whole; `play` deals a
    // standard game's pieces as a stream, so its length costs no memory.
    if seed.rules != RuleSet::Standard {
        crate::limits::check_pieces(&p.display().to_string(), seed.pieces)?;
    }
    Ok(seed)
}

/// The game a results file holds, when `text` is one (`None` for any other text): its `game`
/// object, or the built-in game it names. A results file of another game that does not hold
/// it is an error, rather than a silent replay on the built-in game.
fn game_of_results(value: &serde_json::Value) -> Option<std::result::Result<GameDef, String>> {
    let object = value.as_object()?;
    if object.contains_key("rules") || !object.contains_key("score") {
        return None;
    }
    if let Some(game) = object.get("game").filter(|g| g.is_object()) {
        return Some(GameDef::parse(&game.to_string()).map_err(|e| format!("game: {}", e.0)));
    }
    let name = object
        .get("game")
        .or_else(|| object.get("seed"))
        .and_then(|n| n.as_str())?;
    let builtin = GameDef::tencent_geek_4();
    Some(if name == builtin.name {
        Ok(builtin)
    } else {
        Err(format!(
            "a results file of the game {name:?}, which it does not hold: give that game's \
             file as --seed"
        ))
    })
}

/// The game of the record at `record` when no flag names one: the game file or results file
/// beside it (the same name with `.json`, as `solve`, `polish`, `play` and `import` write
/// them), else the built-in game.
pub fn seed_beside(record: &Path) -> Result<GameDef> {
    Ok(match game_beside(record)? {
        Some((seed, _)) => seed,
        None => GameDef::tencent_geek_4(),
    })
}

/// The game file or results file beside the record at `record` (the same name with `.json`)
/// and its path, when there is one: `None` when no such file is there or it is JSON of
/// another kind.
pub fn game_beside(record: &Path) -> Result<Option<(GameDef, PathBuf)>> {
    let beside = record.with_extension("json");
    if beside == record || !beside.is_file() {
        return Ok(None);
    }
    let text = read_text(&beside)?;
    let Ok(value) = serde_json::from_str::<serde_json::Value>(&text) else {
        return Ok(None);
    };
    let is_game_file = value.get("rules").is_some() && value.get("generator").is_some();
    if is_game_file || game_of_results(&value).is_some() {
        return Ok(Some((seed_of(&text, Some(&value), &beside)?, beside)));
    }
    Ok(None)
}

/// The temporary name `path` is written under before the rename: hidden, beside it (the same
/// file system, so the rename is atomic), and owned by this process.
fn temp_name(path: &Path) -> Result<PathBuf> {
    let name = path
        .file_name()
        .ok_or_else(|| Error::at(path.display(), "not a file name"))?;
    Ok(path.with_file_name(format!(
        ".{}.tmp{}",
        name.to_string_lossy(),
        std::process::id()
    )))
}

/// Creates `path`'s folder if it is missing.
fn create_parent(path: &Path) -> Result<()> {
    match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => create_dir(dir),
        _ => Ok(()),
    }
}

/// Creates the folder `dir` and those above it. When a file stands where one of them should
/// be (`dir` itself included), the error names that file: "File exists" says little.
pub fn create_dir(dir: &Path) -> Result<()> {
    std::fs::create_dir_all(dir).map_err(|e| {
        // Without a trailing `/`, which makes a file look like no file at all.
        let plain: PathBuf = dir.components().collect();
        match plain.ancestors().find(|a| a.is_file()) {
            Some(file) => Error::at(file.display(), "is a file, not a folder"),
            None => Error::at(dir.display(), e),
        }
    })
}

/// Where `path` points: the file itself resolved (links, `..`) when it exists, else its
/// folder resolved and the name. Two paths with the same key are one file: a link to a record
/// is the record.
fn identity(path: &Path) -> PathBuf {
    if let Ok(resolved) = path.canonicalize() {
        return resolved;
    }
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let dir = dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf());
    match path.file_name() {
        Some(n) => dir.join(n),
        None => dir,
    }
}

/// The file an output at `path` is written to: `path` itself when nothing is there or a
/// regular file is, the file a link points to (the link stays a link, its file is replaced:
/// the rename happens beside the file). Refused: a folder, a link to nothing, and anything
/// that is not a regular file (a FIFO, a device such as `/dev/null`, a socket): writing a
/// temporary file and renaming it over such a path would replace the device or pipe with a
/// plain file instead of writing to it.
fn output_target(path: &Path) -> Result<PathBuf> {
    let meta = match std::fs::symlink_metadata(path) {
        Ok(meta) => meta,
        // Nothing there (or a file in the way of its folder, which `create_parent` names).
        Err(_) => return Ok(path.to_path_buf()),
    };
    let (target, meta) = if meta.file_type().is_symlink() {
        let target = path
            .canonicalize()
            .map_err(|_| Error::at(path.display(), "is a link to nothing; give a file name"))?;
        let meta = std::fs::metadata(&target).map_err(|e| Error::at(path.display(), e))?;
        (target, meta)
    } else {
        (path.to_path_buf(), meta)
    };
    if meta.is_dir() {
        return Err(Error::at(
            path.display(),
            "is a directory; give a file name",
        ));
    }
    if !meta.is_file() {
        return Err(Error::at(
            path.display(),
            "is not a regular file (a device, FIFO or socket); give a file name",
        ));
    }
    Ok(target)
}

/// Why `out` must not be replaced: an existing file tracked by git, or under `results/` or
/// `tests/` of its repository (or of the current folder outside one).
fn committed(out: &Path) -> Option<&'static str> {
    if !out.exists() {
        return None;
    }
    let dir = match out.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let git = |args: &[&std::ffi::OsStr]| {
        std::process::Command::new("git")
            .arg("-C")
            .arg(dir)
            .args(args)
            .output()
            .ok()
            .filter(|o| o.status.success())
    };
    let name = out.file_name()?;
    if git(&[
        "ls-files".as_ref(),
        "--error-unmatch".as_ref(),
        "--".as_ref(),
        name,
    ])
    .is_some()
    {
        return Some("is tracked by git");
    }
    let root = git(&["rev-parse".as_ref(), "--show-toplevel".as_ref()])
        .map(|o| PathBuf::from(String::from_utf8_lossy(&o.stdout).trim()))
        .or_else(|| std::env::current_dir().ok())?;
    let file = out.canonicalize().ok()?;
    let inside = file.strip_prefix(root.canonicalize().ok()?).ok()?;
    match inside.components().next()?.as_os_str().to_str()? {
        "results" => Some("is under results/ (committed evidence)"),
        "tests" => Some("is under tests/ (test data)"),
        _ => None,
    }
}

/// Refuses to replace a committed file (see [`committed`]): `place` names the flag and the
/// path, `command` the command that would write it.
pub fn refuse_committed(place: &str, out: &Path, command: &str) -> Result<()> {
    match committed(out) {
        Some(why) => Err(Error::at(
            place,
            format!("{why}; {command} writes a new file (give another name)"),
        )),
        None => Ok(()),
    }
}

/// Checks, before any work, that every output can be written and that writing it loses
/// nothing the run needs: each names a file (not an existing folder, not a path ending in
/// `/`), its folder exists or can be made, a file can be created there, no two outputs are
/// the same file, and no output is one of the run's `inputs` (`--out` naming the game file
/// would replace the game with the results). Both lists pair the flag (or role) that named
/// the file with the path, so the error says which one is wrong. Leaves no file behind;
/// folders it made stay.
pub fn check_outputs(outputs: &[(&str, &Path)], inputs: &[(&str, &Path)]) -> Result<()> {
    for (flag_o, o) in outputs {
        for (flag_i, i) in inputs {
            if identity(o) == identity(i) {
                return Err(Error(format!(
                    "{flag_o} {}: the same file as {flag_i} {}; the run would overwrite its input",
                    o.display(),
                    i.display()
                )));
            }
        }
    }
    for (i, (flag_a, a)) in outputs.iter().enumerate() {
        for (flag_b, b) in &outputs[..i] {
            if identity(a) == identity(b) {
                return Err(Error(format!(
                    "{flag_a} {}: the same file as {flag_b} {}; the two outputs would \
                     overwrite each other",
                    a.display(),
                    b.display()
                )));
            }
        }
    }
    for (flag, path) in outputs {
        let place = format!("{flag} {}", path.display());
        if path.is_dir() {
            return Err(Error::at(place, "is a directory; give a file name"));
        }
        if path.file_name().is_none() || path.as_os_str().to_string_lossy().ends_with('/') {
            return Err(Error::at(place, "does not end in a file name"));
        }
        let target = output_target(path).map_err(|e| Error(format!("{flag} {}", e.0)))?;
        create_parent(&target).map_err(|e| Error::at(flag, e))?;
        let tmp = temp_name(&target)?;
        std::fs::write(&tmp, b"").map_err(|e| Error::at(&place, format!("cannot write: {e}")))?;
        let _ = std::fs::remove_file(&tmp);
    }
    Ok(())
}

/// Writes `contents` to `path` atomically: a temporary file beside it, then a rename. On any
/// failure the temporary file is removed and `path` is left as it was.
pub fn write_atomic(path: &Path, contents: &[u8]) -> Result<()> {
    write_all_atomic(&[(path, contents)])
}

/// Writes several files as one: each to a temporary file beside it first, then, once every
/// one is written, each renamed into place. A failure while writing (a full disk) removes the
/// temporary files and leaves every path as it was, so a run never leaves half its outputs
/// new and half old.
pub fn write_all_atomic(files: &[(&Path, &[u8])]) -> Result<()> {
    let mut written: Vec<(PathBuf, PathBuf)> = Vec::with_capacity(files.len());
    let result = (|| {
        for (path, contents) in files {
            let target = output_target(path)?;
            create_parent(&target)?;
            let tmp = temp_name(&target)?;
            written.push((tmp.clone(), target));
            std::fs::write(&tmp, contents).map_err(|e| Error::at(tmp.display(), e))?;
        }
        for (tmp, path) in &written {
            std::fs::rename(tmp, path).map_err(|e| Error::at(path.display(), e))?;
        }
        Ok(())
    })();
    if result.is_err() {
        for (tmp, _) in &written {
            let _ = std::fs::remove_file(tmp);
        }
    }
    result
}

/// FNV-1a, 64 bits: a short stable tag for a content (a weights file's, a queue's)
/// and the seed of a position's draws.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    })
}

/// Refuses JSON in which an object names a key twice. serde_json keeps the last silently, so
/// a weights file giving `"cells"` twice would weigh only the second without a word; the
/// error names the key and where its second mention ends.
pub fn refuse_duplicate_keys(text: &str) -> std::result::Result<(), String> {
    serde_json::from_str::<UniqueKeys>(text)
        .map(|_| ())
        .map_err(|e| crate::error::json_error(&e))
}

/// Any JSON value whose objects name each key once (see [`refuse_duplicate_keys`]).
struct UniqueKeys;

impl<'de> serde::Deserialize<'de> for UniqueKeys {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        d.deserialize_any(UniqueKeysVisitor)
    }
}

struct UniqueKeysVisitor;

impl<'de> serde::de::Visitor<'de> for UniqueKeysVisitor {
    type Value = UniqueKeys;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_bool<E>(self, _: bool) -> std::result::Result<UniqueKeys, E> {
        Ok(UniqueKeys)
    }
    fn visit_i64<E>(self, _: i64) -> std::result::Result<UniqueKeys, E> {
        Ok(UniqueKeys)
    }
    fn visit_u64<E>(self, _: u64) -> std::result::Result<UniqueKeys, E> {
        Ok(UniqueKeys)
    }
    fn visit_f64<E>(self, _: f64) -> std::result::Result<UniqueKeys, E> {
        Ok(UniqueKeys)
    }
    fn visit_str<E>(self, _: &str) -> std::result::Result<UniqueKeys, E> {
        Ok(UniqueKeys)
    }
    fn visit_unit<E>(self) -> std::result::Result<UniqueKeys, E> {
        Ok(UniqueKeys)
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(
        self,
        mut seq: A,
    ) -> std::result::Result<UniqueKeys, A::Error> {
        while seq.next_element::<UniqueKeys>()?.is_some() {}
        Ok(UniqueKeys)
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(
        self,
        mut map: A,
    ) -> std::result::Result<UniqueKeys, A::Error> {
        let mut seen = std::collections::HashSet::new();
        while let Some(key) = map.next_key::<String>()? {
            if seen.contains(&key) {
                return Err(serde::de::Error::custom(format!(
                    "{}: the key is given twice in one object",
                    crate::error::printable(&key)
                )));
            }
            map.next_value::<UniqueKeys>()?;
            seen.insert(key);
        }
        Ok(UniqueKeys)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("beamtris-io-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn entries(dir: &Path) -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }

    #[test]
    fn several_files_are_written_all_or_none() {
        let dir = scratch("all-or-none");
        std::fs::write(dir.join("a.json"), "old a").unwrap();
        std::fs::write(dir.join("blocker"), "a file, not a folder").unwrap();
        // The second file's folder cannot be made (a file is in the way): the first keeps
        // its old contents and no temporary file stays.
        let (a, blocked, b) = (
            dir.join("a.json"),
            dir.join("blocker").join("b.txt"),
            dir.join("b.txt"),
        );
        assert!(write_all_atomic(&[(&a, b"new a"), (&blocked, b"new b")]).is_err());
        assert_eq!(
            std::fs::read_to_string(dir.join("a.json")).unwrap(),
            "old a"
        );
        assert_eq!(entries(&dir), ["a.json", "blocker"]);
        write_all_atomic(&[(&a, b"new a"), (&b, b"new b")]).unwrap();
        assert_eq!(
            std::fs::read_to_string(dir.join("a.json")).unwrap(),
            "new a"
        );
        assert_eq!(entries(&dir), ["a.json", "b.txt", "blocker"]);
    }

    #[test]
    fn a_directory_as_output_is_refused_and_leaves_nothing() {
        let dir = scratch("dir");
        std::fs::create_dir(dir.join("out")).unwrap();
        let err = write_atomic(&dir.join("out"), b"x").unwrap_err();
        assert!(err.0.ends_with("is a directory; give a file name"), "{err}");
        let err = check_outputs(&[("--out", &dir.join("out"))], &[]).unwrap_err();
        assert!(err.0.starts_with("--out "), "{err}");
        assert!(err.0.ends_with("is a directory; give a file name"), "{err}");
        assert_eq!(entries(&dir), ["out"]);
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_as_output_is_refused_and_stays_a_fifo() {
        use std::os::unix::fs::FileTypeExt;
        let dir = scratch("fifo");
        let fifo = dir.join("out.json");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        if !made.map(|s| s.success()).unwrap_or(false) {
            eprintln!("no mkfifo here; skipped");
            return;
        }
        let err = check_outputs(&[("--out", &fifo)], &[]).unwrap_err();
        assert!(err.0.starts_with("--out "), "{err}");
        assert!(
            err.0
                .ends_with("is not a regular file (a device, FIFO or socket); give a file name"),
            "{err}"
        );
        assert!(write_atomic(&fifo, b"x").is_err());
        let kind = std::fs::symlink_metadata(&fifo).unwrap().file_type();
        assert!(kind.is_fifo(), "the FIFO was replaced: {kind:?}");
        assert_eq!(entries(&dir), ["out.json"]);
    }

    #[cfg(unix)]
    #[test]
    fn a_link_as_output_writes_its_file_and_stays_a_link() {
        let dir = scratch("link");
        std::fs::create_dir(dir.join("real")).unwrap();
        std::fs::write(dir.join("real").join("r.json"), "old").unwrap();
        let link = dir.join("r.json");
        std::os::unix::fs::symlink(dir.join("real").join("r.json"), &link).unwrap();
        check_outputs(&[("--out", &link)], &[]).unwrap();
        write_atomic(&link, b"new").unwrap();
        assert!(std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(std::fs::read_to_string(&link).unwrap(), "new");
        assert_eq!(entries(&dir.join("real")), ["r.json"]);
        let dangling = dir.join("nowhere.json");
        std::os::unix::fs::symlink(dir.join("missing").join("x.json"), &dangling).unwrap();
        let err = check_outputs(&[("--out", &dangling)], &[]).unwrap_err();
        assert!(
            err.0.ends_with("is a link to nothing; give a file name"),
            "{err}"
        );
    }

    #[test]
    fn two_outputs_naming_one_file_are_refused() {
        let dir = scratch("same");
        let a = dir.join("r.txt");
        let b = dir.join("sub/../r.txt");
        std::fs::create_dir(dir.join("sub")).unwrap();
        let err = check_outputs(&[("--out", &a), ("the record", &b)], &[]).unwrap_err();
        assert!(err.0.contains("the same file as --out"), "{err}");
        assert_eq!(entries(&dir), ["sub"]);
    }

    #[test]
    fn an_output_under_a_file_is_refused_before_anything_is_written() {
        let dir = scratch("under");
        std::fs::write(dir.join("f"), b"").unwrap();
        let err = check_outputs(&[("--out", &dir.join("f/r.json"))], &[]).unwrap_err();
        assert!(err.0.starts_with("--out: "), "{err}");
        assert!(err.0.ends_with("/f: is a file, not a folder"), "{err}");
        assert_eq!(entries(&dir), ["f"]);
    }

    #[test]
    fn a_bom_is_dropped_and_bad_utf8_names_the_line() {
        let dir = scratch("bom");
        let p = dir.join("a.txt");
        std::fs::write(&p, "\u{feff}N,D1\n").unwrap();
        assert_eq!(read_text(&p).unwrap(), "N,D1\n");
        std::fs::write(&p, b"ok\nok\n\xff\n").unwrap();
        let err = read_text(&p).unwrap_err();
        assert!(err.0.ends_with("line 3: not UTF-8 text"), "{err}");
    }
}
