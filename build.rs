//! Provenance compiled into the binary: the commit it was built from (with `-dirty` when the
//! tracked files differed from it), the rustc that built it and the target features it was
//! compiled for. Results files record these, so a figure names the code that made it, not
//! whatever repository the run happened to start in.

use std::path::Path;
use std::process::Command;

fn git(dir: &Path, args: &[&str]) -> Option<String> {
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .output()
        .ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

fn main() {
    let dir = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let dir = Path::new(&dir);
    let commit = git(dir, &["rev-parse", "HEAD"]).unwrap_or_else(|| "unknown".into());
    let dirty = git(dir, &["status", "--porcelain", "--untracked-files=no"])
        .map(|s| !s.is_empty())
        .unwrap_or(false);
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let rustc_version = Command::new(rustc)
        .arg("--version")
        .output()
        .ok()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_else(|| "unknown".into());
    let features = std::env::var("CARGO_CFG_TARGET_FEATURE").unwrap_or_default();
    println!("cargo:rustc-env=BEAMTRIS_COMMIT={commit}");
    println!("cargo:rustc-env=BEAMTRIS_DIRTY={dirty}");
    println!("cargo:rustc-env=BEAMTRIS_RUSTC={rustc_version}");
    println!("cargo:rustc-env=BEAMTRIS_TARGET_FEATURES={features}");
    // Rebuild the provenance when the commit or the tracked files change: HEAD and the index
    // (commits, checkouts, staging), the refs, and the sources.
    for (args, file) in [
        (["rev-parse", "--git-path", "HEAD"], ""),
        (["rev-parse", "--git-path", "index"], ""),
        (["rev-parse", "--git-common-dir", ""], "packed-refs"),
        (["rev-parse", "--git-common-dir", ""], "refs"),
    ] {
        let args: Vec<&str> = args.iter().copied().filter(|a| !a.is_empty()).collect();
        if let Some(p) = git(dir, &args) {
            let p = dir.join(p).join(file);
            if p.exists() {
                println!("cargo:rerun-if-changed={}", p.display());
            }
        }
    }
    for p in [
        "src",
        "Cargo.toml",
        "Cargo.lock",
        "build.rs",
        "seeds",
        "benches",
        "tests",
    ] {
        println!("cargo:rerun-if-changed={p}");
    }
}
