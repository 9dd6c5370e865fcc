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
    pub beam: usize,
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
            beam: r.beam,
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
                    "| beamtris, beam {} (`{}`) | {:.0} | **{}** | [{}]({}) |",
                    p.beam, p.weights, p.wall_seconds, p.score, p.file, p.file
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
         with `--also` (every score replayed from its record); the peers' points are their own \
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
