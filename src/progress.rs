//! Progress bars for long runs: drawn on stderr only when it is a terminal (indicatif hides
//! them otherwise), a few times a second.

/// A bar of `total` steps; `counts` is the template after the bar, e.g. `"{pos}/{len} pieces"`.
pub fn bar(total: u64, counts: &str) -> indicatif::ProgressBar {
    let bar = indicatif::ProgressBar::with_draw_target(
        Some(total),
        indicatif::ProgressDrawTarget::stderr_with_hz(4),
    );
    bar.set_style(
        indicatif::ProgressStyle::with_template(&format!(
            "{{elapsed_precise}} [{{bar:30}}] {counts}"
        ))
        .expect("valid template")
        .progress_chars("=> "),
    );
    bar
}
