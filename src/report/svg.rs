//! A small SVG chart writer: stacked panels of lines and markers with axes, ticks, labels
//! and a legend. Enough for the project's few plots without a plotting crate; the picture
//! must be readable on its own, without the JSON beside it.

use std::fmt::Write;

/// Colours for series, picked in order (readable on white, distinct in greyscale too).
pub const PALETTE: [&str; 8] = [
    "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
];

/// How a series is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// A solid line with a marker at each point.
    Line,
    /// A dashed line with markers.
    Dashed,
    /// Markers only (reference points).
    Markers,
}

/// One named series of (x, y) points.
#[derive(Clone, Debug)]
pub struct Series {
    pub name: String,
    pub points: Vec<(f64, f64)>,
    pub color: String,
    pub style: Style,
}

/// A horizontal reference line across a panel.
#[derive(Clone, Debug)]
pub struct HLine {
    pub name: String,
    pub y: f64,
    pub color: String,
}

/// One plot: axes, its series and reference lines.
#[derive(Clone, Debug, Default)]
pub struct Panel {
    pub title: String,
    pub x_label: String,
    pub y_label: String,
    /// Logarithmic x axis (beam widths).
    pub x_log: bool,
    /// Logarithmic y axis (times that span decades).
    pub y_log: bool,
    /// Data values the x axis must cover besides the points (so stacked panels can share
    /// one x range).
    pub x_cover: Vec<f64>,
    pub series: Vec<Series>,
    pub hlines: Vec<HLine>,
}

const WIDTH: f64 = 960.0;
const PANEL_HEIGHT: f64 = 340.0;
const LEFT: f64 = 95.0;
const RIGHT: f64 = 300.0;
const TOP: f64 = 30.0;
const BOTTOM: f64 = 50.0;
const HEADER: f64 = 34.0;

/// The whole picture: a title and the panels stacked top to bottom.
pub fn figure(title: &str, panels: &[Panel]) -> String {
    let height = HEADER + PANEL_HEIGHT * panels.len() as f64;
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" viewBox="0 0 {WIDTH} {height}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(
        s,
        r#"<rect x="0" y="0" width="{WIDTH}" height="{height}" fill="white"/>"#
    );
    let _ = writeln!(
        s,
        r#"<text x="{}" y="22" text-anchor="middle" font-size="16" font-weight="bold">{}</text>"#,
        WIDTH / 2.0,
        escape(title)
    );
    for (i, p) in panels.iter().enumerate() {
        let _ = writeln!(
            s,
            r#"<g transform="translate(0,{})">"#,
            HEADER + PANEL_HEIGHT * i as f64
        );
        panel(&mut s, p);
        s.push_str("</g>\n");
    }
    s.push_str("</svg>\n");
    s
}

/// Maps data to pixels along one axis.
struct Axis {
    lo: f64,
    hi: f64,
    log: bool,
    px_lo: f64,
    px_hi: f64,
}

impl Axis {
    fn map(&self, v: f64) -> f64 {
        let (v, lo, hi) = if self.log {
            (v.max(1e-300).log10(), self.lo.log10(), self.hi.log10())
        } else {
            (v, self.lo, self.hi)
        };
        self.px_lo + (v - lo) / (hi - lo) * (self.px_hi - self.px_lo)
    }
}

fn panel(s: &mut String, p: &Panel) {
    let plot_w = WIDTH - LEFT - RIGHT;
    let plot_h = PANEL_HEIGHT - TOP - BOTTOM;
    let xs: Vec<f64> = p
        .series
        .iter()
        .flat_map(|se| se.points.iter().map(|q| q.0))
        .chain(p.x_cover.iter().copied())
        .filter(|v| v.is_finite() && (!p.x_log || *v > 0.0))
        .collect();
    let ys: Vec<f64> = p
        .series
        .iter()
        .flat_map(|se| se.points.iter().map(|q| q.1))
        .chain(p.hlines.iter().map(|h| h.y))
        .filter(|v| v.is_finite() && (!p.y_log || *v > 0.0))
        .collect();
    let (xlo, xhi) = if p.x_log {
        log_range(&xs)
    } else {
        linear_range(&xs, 0.0)
    };
    let (ylo, yhi) = if p.y_log {
        log_range(&ys)
    } else {
        linear_range(&ys, 0.06)
    };
    let xa = Axis {
        lo: xlo,
        hi: xhi,
        log: p.x_log,
        px_lo: LEFT,
        px_hi: LEFT + plot_w,
    };
    let ya = Axis {
        lo: ylo,
        hi: yhi,
        log: p.y_log,
        px_lo: TOP + plot_h,
        px_hi: TOP,
    };
    let _ = writeln!(
        s,
        r#"<text x="{}" y="{}" text-anchor="middle" font-size="14">{}</text>"#,
        LEFT + plot_w / 2.0,
        TOP - 10.0,
        escape(&p.title)
    );
    // grid and ticks
    let xticks = if p.x_log {
        log_ticks(xlo, xhi)
    } else {
        linear_ticks(xlo, xhi)
    };
    for (v, label) in &xticks {
        let x = xa.map(*v);
        let _ = writeln!(
            s,
            r##"<line x1="{x:.1}" y1="{TOP}" x2="{x:.1}" y2="{:.1}" stroke="#e4e4e4"/>"##,
            TOP + plot_h
        );
        let _ = writeln!(
            s,
            r#"<text x="{x:.1}" y="{:.1}" text-anchor="middle">{}</text>"#,
            TOP + plot_h + 16.0,
            escape(label)
        );
    }
    let yticks = if p.y_log {
        log_ticks(ylo, yhi)
    } else {
        linear_ticks(ylo, yhi)
    };
    for (v, label) in yticks {
        let y = ya.map(v);
        let _ = writeln!(
            s,
            r##"<line x1="{LEFT}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}" stroke="#e4e4e4"/>"##,
            LEFT + plot_w
        );
        let _ = writeln!(
            s,
            r#"<text x="{:.1}" y="{:.1}" text-anchor="end">{}</text>"#,
            LEFT - 6.0,
            y + 4.0,
            escape(&label)
        );
    }
    let _ = writeln!(
        s,
        r#"<rect x="{LEFT}" y="{TOP}" width="{plot_w}" height="{plot_h}" fill="none" stroke="black"/>"#
    );
    let _ = writeln!(
        s,
        r#"<text x="{:.1}" y="{:.1}" text-anchor="middle">{}</text>"#,
        LEFT + plot_w / 2.0,
        TOP + plot_h + 38.0,
        escape(&p.x_label)
    );
    let _ = writeln!(
        s,
        r#"<text x="16" y="{:.1}" text-anchor="middle" transform="rotate(-90 16 {:.1})">{}</text>"#,
        TOP + plot_h / 2.0,
        TOP + plot_h / 2.0,
        escape(&p.y_label)
    );
    // reference lines, then series, clipped to the plot
    for h in &p.hlines {
        let y = ya.map(h.y);
        let _ = writeln!(
            s,
            r#"<line x1="{LEFT}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}" stroke="{}" stroke-width="1.5" stroke-dasharray="2,3"/>"#,
            LEFT + plot_w,
            h.color
        );
    }
    for se in &p.series {
        let pts: Vec<(f64, f64)> = se
            .points
            .iter()
            .filter(|q| q.0.is_finite() && q.1.is_finite())
            .filter(|q| (!p.x_log || q.0 > 0.0) && (!p.y_log || q.1 > 0.0))
            .map(|q| (xa.map(q.0), ya.map(q.1)))
            .collect();
        if se.style != Style::Markers && pts.len() > 1 {
            let path: Vec<String> = pts.iter().map(|(x, y)| format!("{x:.1},{y:.1}")).collect();
            let dash = if se.style == Style::Dashed {
                r#" stroke-dasharray="6,4""#
            } else {
                ""
            };
            let _ = writeln!(
                s,
                r#"<polyline points="{}" fill="none" stroke="{}" stroke-width="1.8"{dash}/>"#,
                path.join(" "),
                se.color
            );
        }
        // Long series (a point per 1000 pieces is fine; thousands of points are not) get no
        // markers so the line stays visible.
        if pts.len() <= 60 {
            let r = if se.style == Style::Markers { 5.0 } else { 3.0 };
            for (x, y) in &pts {
                let _ = writeln!(
                    s,
                    r#"<circle cx="{x:.1}" cy="{y:.1}" r="{r}" fill="{}"/>"#,
                    se.color
                );
            }
        }
    }
    legend(s, p, LEFT + plot_w + 14.0, TOP + 6.0);
}

fn legend(s: &mut String, p: &Panel, x: f64, mut y: f64) {
    for se in &p.series {
        match se.style {
            Style::Markers => {
                let _ = writeln!(
                    s,
                    r#"<circle cx="{:.1}" cy="{:.1}" r="5" fill="{}"/>"#,
                    x + 11.0,
                    y + 6.0,
                    se.color
                );
            }
            Style::Line | Style::Dashed => {
                let dash = if se.style == Style::Dashed {
                    r#" stroke-dasharray="6,4""#
                } else {
                    ""
                };
                let _ = writeln!(
                    s,
                    r#"<line x1="{x:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="{}" stroke-width="2"{dash}/>"#,
                    y + 6.0,
                    x + 22.0,
                    y + 6.0,
                    se.color
                );
            }
        }
        let _ = writeln!(
            s,
            r#"<text x="{:.1}" y="{:.1}">{}</text>"#,
            x + 28.0,
            y + 10.0,
            escape(&se.name)
        );
        y += 18.0;
    }
    for h in &p.hlines {
        let _ = writeln!(
            s,
            r#"<line x1="{x:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="{}" stroke-width="1.5" stroke-dasharray="2,3"/>"#,
            y + 6.0,
            x + 22.0,
            y + 6.0,
            h.color
        );
        let _ = writeln!(
            s,
            r#"<text x="{:.1}" y="{:.1}">{}</text>"#,
            x + 28.0,
            y + 10.0,
            escape(&h.name)
        );
        y += 18.0;
    }
}

/// Escapes text for SVG content and attributes.
pub fn escape(t: &str) -> String {
    t.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

fn linear_range(v: &[f64], pad: f64) -> (f64, f64) {
    let lo = v.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if !lo.is_finite() {
        return (0.0, 1.0);
    }
    if hi - lo < 1e-9 * hi.abs().max(1.0) {
        let d = (hi.abs() * 0.05).max(1.0);
        return (lo - d, hi + d);
    }
    let d = (hi - lo) * pad;
    (lo - d, hi + d)
}

fn log_range(v: &[f64]) -> (f64, f64) {
    let lo = v.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if !lo.is_finite() {
        return (1.0, 10.0);
    }
    let (l, h) = (lo.log10(), hi.log10());
    let pad = ((h - l) * 0.08).max(0.15);
    (10f64.powf(l - pad), 10f64.powf(h + pad))
}

/// Three to seven round ticks (1, 2 or 5 x 10^k apart) inside `[lo, hi]`.
fn linear_ticks(lo: f64, hi: f64) -> Vec<(f64, String)> {
    let raw = (hi - lo) / 6.0;
    let mag = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * mag)
        .find(|s| *s >= raw)
        .unwrap_or(10.0 * mag);
    let decimals = if step >= 1.0 {
        0
    } else {
        (-step.log10().floor()) as usize
    };
    let mut out = Vec::new();
    let mut k = (lo / step).ceil();
    while k * step <= hi + step * 1e-9 {
        let v = k * step;
        out.push((v, format_number(v, decimals)));
        k += 1.0;
    }
    out
}

/// Ticks at 1 and 3 x 10^k (the sweep's widths), plus 2 and 5 when the range is narrow.
fn log_ticks(lo: f64, hi: f64) -> Vec<(f64, String)> {
    let narrow = hi / lo < 30.0;
    let mults: &[f64] = if narrow {
        &[1.0, 2.0, 3.0, 5.0]
    } else {
        &[1.0, 3.0]
    };
    let mut out = Vec::new();
    let mut dec = 10f64.powf(lo.log10().floor());
    while dec <= hi {
        for m in mults {
            let v = m * dec;
            if v >= lo && v <= hi {
                let decimals = if v >= 1.0 {
                    0
                } else {
                    (-v.log10().floor()) as usize
                };
                out.push((v, format_number(v, decimals)));
            }
        }
        dec *= 10.0;
    }
    out
}

/// `1 378 178`, `-2 500`, `0.25`: thousands split by spaces.
pub fn format_number(v: f64, decimals: usize) -> String {
    let s = format!("{:.*}", decimals, v.abs());
    let (int, frac) = match s.split_once('.') {
        Some((i, f)) => (i.to_string(), format!(".{f}")),
        None => (s.clone(), String::new()),
    };
    let mut grouped = String::new();
    for (i, c) in int.chars().enumerate() {
        if i > 0 && (int.len() - i) % 3 == 0 {
            grouped.push(' ');
        }
        grouped.push(c);
    }
    let neg = v < 0.0 && s.chars().any(|c| c.is_ascii_digit() && c != '0');
    format!("{}{grouped}{frac}", if neg { "-" } else { "" })
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// Checks that every tag opens and closes in order (a small stand-in for an XML parser).
    pub(crate) fn assert_well_formed(svg: &str) {
        let mut stack: Vec<String> = Vec::new();
        let mut rest = svg;
        while let Some(i) = rest.find('<') {
            let j = rest[i..].find('>').expect("tag closes") + i;
            let tag = &rest[i + 1..j];
            assert!(!tag.contains('<'), "nested '<' in {tag}");
            if let Some(name) = tag.strip_prefix('/') {
                assert_eq!(stack.pop().as_deref(), Some(name.trim()), "closing {name}");
            } else if !tag.ends_with('/') {
                let name = tag.split_whitespace().next().unwrap_or("").to_string();
                stack.push(name);
            }
            // text between tags holds no raw '&' that is not an entity
            let text_end = rest[j..].find('<').map(|k| k + j).unwrap_or(rest.len());
            for (k, _) in rest[j + 1..text_end].match_indices('&') {
                let t = &rest[j + 1 + k..text_end];
                assert!(
                    ["&amp;", "&lt;", "&gt;", "&quot;"]
                        .iter()
                        .any(|e| t.starts_with(e)),
                    "raw & in {t}"
                );
            }
            rest = &rest[j + 1..];
        }
        assert!(stack.is_empty(), "unclosed {stack:?}");
        assert!(svg.starts_with("<svg"));
    }

    #[test]
    fn figure_is_well_formed_and_labelled() {
        let p = Panel {
            title: "Score <by> width".into(),
            x_label: "beam width (log scale)".into(),
            y_label: "score".into(),
            x_log: true,
            y_log: false,
            x_cover: Vec::new(),
            series: vec![
                Series {
                    name: "drop & co".into(),
                    points: vec![(100.0, 1.2e6), (300.0, 1.3e6), (1000.0, 1.36e6)],
                    color: PALETTE[0].into(),
                    style: Style::Line,
                },
                Series {
                    name: "MaxDumbledore".into(),
                    points: vec![(1000.0, 1_378_178.0)],
                    color: PALETTE[1].into(),
                    style: Style::Markers,
                },
            ],
            hlines: vec![HLine {
                name: "record 1 413 876".into(),
                y: 1_413_876.0,
                color: "black".into(),
            }],
        };
        let lin = Panel {
            title: "time".into(),
            x_label: "generation".into(),
            y_label: "seconds".into(),
            series: vec![Series {
                name: "t".into(),
                points: vec![(1.0, 0.5)],
                color: PALETTE[2].into(),
                style: Style::Dashed,
            }],
            ..Panel::default()
        };
        let svg = figure("Sweep", &[p, lin]);
        assert_well_formed(&svg);
        for label in [
            "Score &lt;by&gt; width",
            "beam width (log scale)",
            "drop &amp; co",
            "MaxDumbledore",
            "record 1 413 876",
            ">1 000<",
            ">300<",
            "seconds",
        ] {
            assert!(svg.contains(label), "missing {label}");
        }
    }

    #[test]
    fn numbers_and_ticks() {
        assert_eq!(format_number(1_378_178.0, 0), "1 378 178");
        assert_eq!(format_number(-2500.0, 0), "-2 500");
        assert_eq!(format_number(0.25, 2), "0.25");
        assert_eq!(format_number(-0.0, 0), "0");
        let t = linear_ticks(0.0, 10.0);
        assert_eq!(t.first().unwrap().1, "0");
        assert_eq!(t.last().unwrap().1, "10");
        let l: Vec<String> = log_ticks(80.0, 12000.0).into_iter().map(|t| t.1).collect();
        assert_eq!(l, ["100", "300", "1 000", "3 000", "10 000"]);
    }
}
