//! The weight comparison report: for each beam width and move mode, every weight set's final
//! score and time, its score after every 1000 pieces, and a plot of score against piece
//! index (with each set's lead over the reference, where the absolute curves overlap).

use super::svg::{self, HLine, Panel, Series, Style};
use super::{moves_name, SolveRun};
use serde::Serialize;

/// One weight set's run.
#[derive(Clone, Debug, Serialize)]
pub struct Row {
    pub weights: String,
    pub file: String,
    pub score: u64,
    /// Score minus the reference's score.
    pub vs_reference: i64,
    pub complete: bool,
    pub pieces: usize,
    pub wall_seconds: f64,
    pub score_every_1000: Vec<u64>,
    pub commit: String,
}

/// The runs at one beam width and move mode.
#[derive(Clone, Debug, Serialize)]
pub struct Group {
    pub beam: usize,
    pub moves: &'static str,
    pub reference: String,
    pub rows: Vec<Row>,
}

impl Group {
    /// The plot's file name.
    pub fn svg_name(&self) -> String {
        format!("score-vs-piece-b{}-{}.svg", self.beam, self.moves)
    }
}

/// Groups runs by (move mode, beam); within a group the reference (the run whose weights
/// are `reference`, else the first by file name) comes first, then the others by file name.
pub fn groups(runs: &[SolveRun], reference: &str) -> Vec<Group> {
    let mut keys: Vec<(&'static str, usize)> =
        runs.iter().map(|r| (moves_name(r.moves), r.beam)).collect();
    keys.sort();
    keys.dedup();
    keys.into_iter()
        .map(|(moves, beam)| {
            let mut mine: Vec<&SolveRun> = runs
                .iter()
                .filter(|r| r.beam == beam && moves_name(r.moves) == moves)
                .collect();
            // the reference first, the others in file-name order
            mine.sort_by_key(|r| r.weights_name != reference);
            let refrun = mine
                .iter()
                .find(|r| r.weights_name == reference)
                .unwrap_or(&mine[0]);
            Group {
                beam,
                moves,
                reference: refrun.weights_name.clone(),
                rows: mine
                    .iter()
                    .map(|r| Row {
                        weights: r.weights_name.clone(),
                        file: format!("{}.json", r.name),
                        score: r.score,
                        vs_reference: r.score as i64 - refrun.score as i64,
                        complete: r.complete,
                        pieces: r.pieces,
                        wall_seconds: r.wall_seconds,
                        score_every_1000: r.score_every_1000.clone(),
                        commit: r.commit.clone(),
                    })
                    .collect(),
            }
        })
        .collect()
}

/// summary.json.
pub fn summary_json(groups: &[Group]) -> String {
    let v = serde_json::json!({
        "groups": groups,
        "generated": crate::results::utc_now_iso(),
    });
    format!(
        "{}\n",
        serde_json::to_string_pretty(&v).expect("serialises")
    )
}

/// summary.md: per group, the final scores, then the score after every 1000 pieces.
pub fn summary_md(groups: &[Group]) -> String {
    let mut s = String::new();
    for g in groups {
        s += &format!(
            "### beam {}, {} moves\n\n| weights | score | vs {} | wall (s) | pieces | run |\n\
             |---|---:|---:|---:|---:|---|\n",
            g.beam, g.moves, g.reference
        );
        for r in &g.rows {
            s += &format!(
                "| {} | {}{} | {:+} | {:.1} | {} | [{}]({}) |\n",
                r.weights,
                r.score,
                if r.complete { "" } else { " (stopped)" },
                r.vs_reference,
                r.wall_seconds,
                r.pieces,
                r.file,
                r.file
            );
        }
        s += "\nScore after every 1000 pieces:\n\n| pieces |";
        for r in &g.rows {
            s += &format!(" {} |", r.weights);
        }
        s += "\n|---:|";
        s += &"---:|".repeat(g.rows.len());
        s += "\n";
        let n = g
            .rows
            .iter()
            .map(|r| r.score_every_1000.len())
            .max()
            .unwrap_or(0);
        for k in 0..n {
            s += &format!("| {} |", (k + 1) * 1000);
            for r in &g.rows {
                match r.score_every_1000.get(k) {
                    Some(v) => s += &format!(" {v} |"),
                    None => s += " - |",
                }
            }
            s += "\n";
        }
        s += &format!(
            "\n![score against piece index, beam {}]({})\n\n",
            g.beam,
            g.svg_name()
        );
    }
    s
}

/// A run's score curve: 0 at piece 0, each checkpoint, and the final score.
fn curve(r: &Row) -> Vec<(f64, f64)> {
    let mut pts = vec![(0.0, 0.0)];
    for (k, v) in r.score_every_1000.iter().enumerate() {
        pts.push((((k + 1) * 1000) as f64, *v as f64));
    }
    if pts.last().is_some_and(|p| p.0 < r.pieces as f64) {
        pts.push((r.pieces as f64, r.score as f64));
    }
    pts
}

/// The plot of one group: score against piece index (top) and the lead over the reference
/// at the same piece index (bottom).
pub fn plot(g: &Group) -> String {
    let reference = g
        .rows
        .iter()
        .find(|r| r.weights == g.reference)
        .map(curve)
        .unwrap_or_default();
    let mut abs = Vec::new();
    let mut lead = Vec::new();
    let cover: Vec<f64> = g.rows.iter().map(|r| r.pieces as f64).collect();
    for (i, r) in g.rows.iter().enumerate() {
        let c = curve(r);
        let color = svg::PALETTE[i % svg::PALETTE.len()].to_string();
        let name = format!("{} ({})", r.weights, svg::format_number(r.score as f64, 0));
        lead.push(Series {
            name: name.clone(),
            points: c
                .iter()
                .filter_map(|&(x, y)| reference.iter().find(|q| q.0 == x).map(|q| (x, y - q.1)))
                .collect(),
            color: color.clone(),
            style: Style::Line,
        });
        abs.push(Series {
            name,
            points: c,
            color,
            style: Style::Line,
        });
    }
    let panels = [
        Panel {
            title: format!(
                "score against piece index, beam {}, {} moves",
                g.beam, g.moves
            ),
            x_label: "pieces placed".into(),
            y_label: "score".into(),
            series: abs,
            ..Panel::default()
        },
        Panel {
            title: format!("lead over {} at the same piece", g.reference),
            x_label: "pieces placed".into(),
            y_label: "score difference".into(),
            x_cover: cover,
            series: lead,
            hlines: vec![HLine {
                name: "no difference".into(),
                y: 0.0,
                color: "#555555".into(),
            }],
            ..Panel::default()
        },
    ];
    svg::figure("beamtris: evaluator weights compared", &panels)
}

#[cfg(test)]
mod tests {
    use super::super::{load_runs, testdata};
    use super::*;

    #[test]
    fn compare_report_groups_and_tabulates() {
        let d = testdata::dir("compare");
        testdata::solve_json(&d, "b10-drop-default", "drop", 10, "default", &[100, 200]);
        testdata::solve_json(&d, "b10-drop-tuned", "drop", 10, "tuned.json", &[120, 260]);
        testdata::solve_json(&d, "b20-drop-default", "drop", 20, "default", &[110]);
        let gs = groups(&load_runs(&d).unwrap(), "default");
        assert_eq!(gs.len(), 2);
        assert_eq!(gs[0].beam, 10);
        assert_eq!(gs[0].rows[1].vs_reference, 60);
        let md = summary_md(&gs);
        assert!(md.contains("| tuned.json | 267 | +60 |"), "{md}");
        assert!(md.contains("| 2000 | 200 | 260 |"), "{md}");
        let svg = plot(&gs[0]);
        svg::tests::assert_well_formed(&svg);
        for label in ["tuned.json (267)", "lead over default", "pieces placed"] {
            assert!(svg.contains(label), "missing {label}");
        }
        assert_eq!(gs[0].svg_name(), "score-vs-piece-b10-drop.svg");
        let _ = std::fs::remove_dir_all(&d);
    }
}
