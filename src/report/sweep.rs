//! The beam-width sweep report: score and wall time against beam width, per move mode, with
//! the published results drawn for reference.

use super::svg::{self, HLine, Panel, Series, Style};
use super::{moves_name, SolveRun};
use serde::Serialize;

/// A published result to compare against.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Published {
    pub who: &'static str,
    pub beam: Option<usize>,
    pub score: u64,
}

/// MaxDumbledore's and chys87's beam searches, and the competition record.
pub const PUBLISHED: [Published; 3] = [
    Published {
        who: "MaxDumbledore",
        beam: Some(1000),
        score: 1_378_178,
    },
    Published {
        who: "chys87",
        beam: Some(9041),
        score: 1_395_326,
    },
    Published {
        who: "competition record",
        beam: None,
        score: 1_413_876,
    },
];

/// The competition record (the horizontal line).
pub const RECORD: u64 = 1_413_876;

/// One row of the summary.
#[derive(Clone, Debug, Serialize)]
pub struct Row {
    pub file: String,
    pub moves: &'static str,
    pub beam: usize,
    pub weights: String,
    pub score: u64,
    /// Score as a share of the competition record, in percent.
    pub of_record_percent: f64,
    pub complete: bool,
    pub pieces: usize,
    pub wall_seconds: f64,
    pub peak_memory_mb: Option<f64>,
    pub threads: usize,
    pub commit: String,
    pub date: String,
}

/// The rows, sorted by move mode, then beam width, then file.
pub fn rows(runs: &[SolveRun]) -> Vec<Row> {
    let mut rows: Vec<Row> = runs
        .iter()
        .map(|r| Row {
            file: format!("{}.json", r.name),
            moves: moves_name(r.moves),
            beam: r.beam,
            weights: r.weights_name.clone(),
            score: r.score,
            of_record_percent: r.score as f64 / RECORD as f64 * 100.0,
            complete: r.complete,
            pieces: r.pieces,
            wall_seconds: r.wall_seconds,
            peak_memory_mb: r.peak_memory_bytes.map(|b| b as f64 / 1e6),
            threads: r.threads,
            commit: r.commit.clone(),
            date: r.date.clone(),
        })
        .collect();
    rows.sort_by(|a, b| (a.moves, a.beam, &a.file).cmp(&(b.moves, b.beam, &b.file)));
    rows
}

/// summary.json.
pub fn summary_json(rows: &[Row]) -> String {
    let v = serde_json::json!({
        "runs": rows,
        "published": PUBLISHED,
        "generated": crate::results::utc_now_iso(),
    });
    format!(
        "{}\n",
        serde_json::to_string_pretty(&v).expect("serialises")
    )
}

/// summary.md: the table a README can show.
pub fn summary_md(rows: &[Row]) -> String {
    let mut s = String::from(
        "| moves | beam | weights | score | % of record | wall (s) | peak memory (MB) | pieces | run |\n\
         |---|---:|---|---:|---:|---:|---:|---:|---|\n",
    );
    for r in rows {
        s += &format!(
            "| {} | {} | {} | {}{} | {:.2} | {:.1} | {} | {} | [{}]({}) |\n",
            r.moves,
            r.beam,
            r.weights,
            r.score,
            if r.complete { "" } else { " (stopped)" },
            r.of_record_percent,
            r.wall_seconds,
            r.peak_memory_mb
                .map_or("-".to_string(), |m| format!("{m:.0}")),
            r.pieces,
            r.file,
            r.file
        );
    }
    s += "\nPublished for reference: ";
    let refs: Vec<String> = PUBLISHED
        .iter()
        .map(|p| match p.beam {
            Some(b) => format!("{} {} (beam {b})", p.who, p.score),
            None => format!("{} {}", p.who, p.score),
        })
        .collect();
    s += &refs.join(", ");
    s += ".\n\n![score and wall time against beam width](score-vs-beam.svg)\n";
    s
}

/// score-vs-beam.svg: score (top) and wall time (bottom, log scale) against beam width.
pub fn plot(rows: &[Row]) -> String {
    let mut modes: Vec<&str> = rows.iter().map(|r| r.moves).collect();
    modes.dedup();
    let mut score = Vec::new();
    let mut time = Vec::new();
    for (i, m) in modes.iter().enumerate() {
        let mine: Vec<&Row> = rows.iter().filter(|r| r.moves == *m).collect();
        score.push(Series {
            name: format!("beamtris, {m} moves"),
            points: mine
                .iter()
                .map(|r| (r.beam as f64, r.score as f64))
                .collect(),
            color: svg::PALETTE[i].into(),
            style: Style::Line,
        });
        time.push(Series {
            name: format!("{m} moves"),
            points: mine
                .iter()
                .map(|r| (r.beam as f64, r.wall_seconds))
                .collect(),
            color: svg::PALETTE[i].into(),
            style: Style::Line,
        });
    }
    for (i, p) in PUBLISHED.iter().enumerate() {
        if let Some(b) = p.beam {
            score.push(Series {
                name: format!(
                    "{} {} (beam {b})",
                    p.who,
                    svg::format_number(p.score as f64, 0)
                ),
                points: vec![(b as f64, p.score as f64)],
                color: svg::PALETTE[3 + i].into(),
                style: Style::Markers,
            });
        }
    }
    let threads: Vec<usize> = {
        let mut t: Vec<usize> = rows.iter().map(|r| r.threads).collect();
        t.sort();
        t.dedup();
        t
    };
    let threads = threads
        .iter()
        .map(|t| t.to_string())
        .collect::<Vec<_>>()
        .join("/");
    // both panels span the sweep's widths and the published ones
    let cover: Vec<f64> = rows
        .iter()
        .map(|r| r.beam as f64)
        .chain(PUBLISHED.iter().filter_map(|p| p.beam.map(|b| b as f64)))
        .collect();
    let panels = [
        Panel {
            title: "final score on the full sequence".into(),
            x_label: "beam width (log scale)".into(),
            y_label: "score".into(),
            x_log: true,
            y_log: false,
            x_cover: cover.clone(),
            series: score,
            hlines: vec![HLine {
                name: format!(
                    "competition record {}",
                    svg::format_number(RECORD as f64, 0)
                ),
                y: RECORD as f64,
                color: "black".into(),
            }],
        },
        Panel {
            title: format!("wall time ({threads} threads)"),
            x_label: "beam width (log scale)".into(),
            y_label: "seconds (log scale)".into(),
            x_log: true,
            y_log: true,
            x_cover: cover,
            series: time,
            hlines: Vec::new(),
        },
    ];
    svg::figure("beamtris: score and time against beam width", &panels)
}

#[cfg(test)]
mod tests {
    use super::super::{load_runs, testdata};
    use super::*;

    #[test]
    fn sweep_report_reads_runs_and_draws_them() {
        let d = testdata::dir("sweep");
        testdata::solve_json(&d, "drop-b300", "drop", 300, "default", &[100, 200]);
        testdata::solve_json(&d, "drop-b100", "drop", 100, "default", &[90, 150]);
        testdata::solve_json(&d, "reach-b100", "reach", 100, "default", &[95, 180]);
        std::fs::write(d.join("summary.json"), "{}").unwrap();
        let rows = rows(&load_runs(&d).unwrap());
        let order: Vec<(&str, usize)> = rows.iter().map(|r| (r.moves, r.beam)).collect();
        assert_eq!(order, [("drop", 100), ("drop", 300), ("reach", 100)]);
        assert_eq!(rows[1].score, 207);
        let md = summary_md(&rows);
        assert!(md.contains("| drop | 300 | default | 207 |"), "{md}");
        let svg = plot(&rows);
        svg::tests::assert_well_formed(&svg);
        for label in [
            "beamtris, drop moves",
            "beamtris, reach moves",
            "MaxDumbledore 1 378 178 (beam 1000)",
            "chys87 1 395 326 (beam 9041)",
            "competition record 1 413 876",
            "beam width (log scale)",
            "seconds (log scale)",
        ] {
            assert!(svg.contains(label), "missing {label}");
        }
        std::fs::write(d.join("junk.json"), "[1]").unwrap();
        let e = load_runs(&d).unwrap_err();
        assert!(e.0.contains("junk.json: not a solve results file"), "{e}");
        let _ = std::fs::remove_dir_all(&d);
    }
}
