//! The score-against-time curve: beamtris's budget runs (and any other solve results put in
//! the folder) against wall time on this machine, beside the peers' points measured on a
//! machine like it (the peers' own solvers, rebuilt here) and the competition record.

use super::svg::{self, HLine, Panel, Series, Style};
use super::SolveRun;
use serde::Serialize;

/// A peer's measured point: score after `seconds` of wall time.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct PeerPoint {
    pub who: &'static str,
    pub seconds: f64,
    pub score: u64,
}

/// chys87's and MaxDumbledore's solvers, rebuilt and timed on a 2-core machine like this one
/// (chys87's 872 s point is its published GA-tuned run).
pub const PEERS: [PeerPoint; 4] = [
    PeerPoint {
        who: "chys87",
        seconds: 60.0,
        score: 1_338_900,
    },
    PeerPoint {
        who: "chys87",
        seconds: 216.0,
        score: 1_351_558,
    },
    PeerPoint {
        who: "chys87",
        seconds: 872.0,
        score: 1_395_326,
    },
    PeerPoint {
        who: "MaxDumbledore",
        seconds: 89.0,
        score: 1_304_058,
    },
];

/// One beamtris point.
#[derive(Clone, Debug, Serialize)]
pub struct Point {
    pub file: String,
    /// How the width was set: `beam 3000`, or a time budget and the mean width.
    pub width: String,
    pub weights: String,
    pub score: u64,
    pub wall_seconds: f64,
}

/// The folder's complete whole-game runs, fastest first.
pub fn points(runs: &[SolveRun]) -> Vec<Point> {
    let mut out: Vec<Point> = runs
        .iter()
        .filter(|r| r.complete && r.piece_limit().is_none())
        .map(|r| Point {
            file: format!("{}.json", r.name),
            width: r.width_words(),
            weights: r.weights_name.clone(),
            score: r.score,
            wall_seconds: r.wall_seconds,
        })
        .collect();
    out.sort_by(|a, b| a.wall_seconds.total_cmp(&b.wall_seconds));
    out
}

/// summary.md: both sets of points in one table, by time.
pub fn summary_md(points: &[Point]) -> String {
    let mut rows: Vec<(f64, String)> = points
        .iter()
        .map(|p| {
            (
                p.wall_seconds,
                format!(
                    "| beamtris, {} (`{}`) | {:.0} | **{}** | [{}]({}) |",
                    p.width, p.weights, p.wall_seconds, p.score, p.file, p.file
                ),
            )
        })
        .collect();
    rows.extend(PEERS.iter().map(|q| {
        (
            q.seconds,
            format!(
                "| {} | {:.0} | {} | peer, measured |",
                q.who, q.seconds, q.score
            ),
        )
    }));
    rows.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut md = String::from(
        "# Score against wall time on the Tencent game\n\n\
         Rebuilt by `beamtris report curve` from the solve results in its folder and any given \
         with `--also` (each score is the one its run verified by replaying its record; `beamtris \
         verify` replays it again); the peers' points are their own \
         solvers' measurements on a 2-core machine like this one.\n\n\
         | solver | wall s | score | source |\n|---|---:|---:|---|\n",
    );
    for (_, r) in rows {
        md.push_str(&r);
        md.push('\n');
    }
    md.push_str(&format!(
        "\nCompetition record (Konano, hand-played opening and 32 processes): {}.\n\n\
         ![score against wall time](score-vs-time.svg)\n",
        super::sweep::RECORD
    ));
    md
}

/// score-vs-time.svg: log time axis.
pub fn plot(points: &[Point]) -> String {
    let mut series = vec![Series {
        name: "beamtris (reach, tuned)".into(),
        points: points
            .iter()
            .map(|p| (p.wall_seconds, p.score as f64))
            .collect(),
        color: svg::PALETTE[0].to_string(),
        style: Style::Line,
    }];
    for (i, who) in ["chys87", "MaxDumbledore"].into_iter().enumerate() {
        series.push(Series {
            name: who.into(),
            points: PEERS
                .iter()
                .filter(|q| q.who == who)
                .map(|q| (q.seconds, q.score as f64))
                .collect(),
            color: svg::PALETTE[i + 1].to_string(),
            style: Style::Markers,
        });
    }
    let panel = Panel {
        title: "tencent game: score against wall time, 2 cores".into(),
        x_label: "wall seconds (log)".into(),
        y_label: "score".into(),
        x_log: true,
        y_log: false,
        x_cover: Vec::new(),
        series,
        hlines: vec![HLine {
            name: "competition record".into(),
            y: super::sweep::RECORD as f64,
            color: "#555555".into(),
        }],
    };
    svg::figure("beamtris against the published solvers", &[panel])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A timed run's row names its budget and mean width, not the widest it was allowed.
    #[test]
    fn a_timed_run_is_named_by_its_budget_and_mean_width() {
        let run = |extra: serde_json::Value| {
            let mut json = serde_json::json!({
                "score": 1_421_546, "complete": true, "beam": 1_000_000, "moves": "reach",
                "weights_name": "tuned-b6000-i", "pieces": 9999, "target_pieces": 9999,
                "game_pieces": 10000, "wall_seconds": 56.9,
            });
            json.as_object_mut()
                .unwrap()
                .extend(extra.as_object().unwrap().clone());
            let mut r: SolveRun = serde_json::from_value(json).unwrap();
            r.name = "run".into();
            r
        };
        let timed = run(serde_json::json!({
            "time_budget_seconds": 58.0,
            "beam_widths": {"min": 100, "max": 8328, "mean": 5833.8},
        }));
        let fixed = run(serde_json::json!({}));
        let rows = summary_md(&points(&[timed, fixed]));
        assert!(
            rows.contains("| beamtris, `--time 58`, beam 5834 on average (`tuned-b6000-i`) | 57 |"),
            "{rows}"
        );
        assert!(
            rows.contains("| beamtris, beam 1000000 (`tuned-b6000-i`) | 57 |"),
            "{rows}"
        );
    }
}
