//! One loader for weights files, whatever command reads them.
//!
//! beamtris has two kinds of weights, for two kinds of search, and a file says by its content
//! which one it holds:
//!
//! * **beam weights** (`solve`, `tune`; what `tune` writes as `best.json`): a *rank*, lower is
//!   better, so a bad feature weighs positive; they have a `score_weight` (the points so far,
//!   subtracted from the rank) and may have `min_clear_cells`, `fade_pieces`, `i_ahead` and
//!   `open_column`. A file with `score_weight` is beam weights.
//! * **player weights** (`play`; Dellacherie, El-Tetris, BCTS): a *value*, higher is better,
//!   so a bad feature weighs negative; no `score_weight`. A file without it is player weights.
//!
//! Either kind works for either search: the loader turns one into the other by changing every
//! sign and renaming `rows_cleared` <-> `lines` (exactly how the `dellacherie` and `eltetris`
//! beam presets are made from the published player weights), and says what it did. A feature
//! only one side has (`max_height` for the beam, `hole_depth` for the players) cannot be
//! carried over and is refused when it is not 0.

use super::players::Weights as PlayerWeights;
use super::tencent::{self, Weights as BeamWeights};
use crate::error::{json_error, Error, Result};
use serde_json::{Map, Value};
use std::path::Path;

/// The score weight a player weights file gets in the beam: 1/38, as the `dellacherie` and
/// `eltetris` beam presets.
pub const PLAYER_SCORE_WEIGHT: f64 = 1.0 / 38.0;

/// What a weights file holds.
#[derive(Clone, Debug, PartialEq)]
pub enum WeightsFile {
    /// A rank for the beam (lower is better), with `score_weight`.
    Beam(BeamWeights),
    /// A value for a one-piece player (higher is better).
    Player(PlayerWeights),
}

/// Parses weights JSON of either kind, telling them apart by `score_weight`. Errors are one
/// line and name the key or the JSON place.
pub fn parse(text: &str) -> std::result::Result<WeightsFile, String> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let value: Value = serde_json::from_str(text).map_err(|e| json_error(&e))?;
    crate::io::refuse_duplicate_keys(text)?;
    let Value::Object(map) = value else {
        return Err("expected a JSON object of feature name -> weight".into());
    };
    if map.contains_key("score_weight") {
        for key in ["rows_cleared", "hole_depth"] {
            if map.contains_key(key) {
                return Err(format!(
                    "{key}: a player weights key, but the file has score_weight (beam weights); \
                     the beam calls it {}",
                    if key == "rows_cleared" {
                        "lines"
                    } else {
                        "nothing: it has no hole depth feature"
                    }
                ));
            }
        }
        return BeamWeights::parse(text).map(WeightsFile::Beam);
    }
    for key in ["lines", "max_height"]
        .into_iter()
        .chain(crate::eval::tencent::SHAPING_KEYS)
    {
        if map.contains_key(key) {
            return Err(format!(
                "{key}: a beam weights key, but the file has no score_weight; beam weights \
                 need one (player weights have neither)"
            ));
        }
    }
    parse_player(&map).map(WeightsFile::Player)
}

fn parse_player(map: &Map<String, Value>) -> std::result::Result<PlayerWeights, String> {
    let w: PlayerWeights = serde_json::from_value(Value::Object(map.clone())).map_err(|e| {
        // A misspelt `score_weight` lands here too: say why the file was read as player
        // weights, so that the players' keys serde lists do not look like the beam's.
        format!(
            "{} (a file without score_weight holds player weights; beam weights need \
             score_weight)",
            json_error(&e)
        )
    })?;
    for (k, v) in map {
        if let Some(problem) = super::weight_problem(v.as_f64().unwrap_or(f64::NAN)) {
            let k = crate::error::printable(k);
            return Err(format!("{k}: {problem}"));
        }
    }
    Ok(w)
}

/// Reads a weights file of either kind.
pub fn read(path: &Path) -> Result<WeightsFile> {
    let text = crate::io::read_text(path)?;
    parse(&text).map_err(|e| Error::at(path.display(), e))
}

impl WeightsFile {
    /// Weights for the beam search, and a line saying what was read (and converted).
    pub fn into_beam(self) -> std::result::Result<(BeamWeights, String), String> {
        match self {
            WeightsFile::Beam(w) => Ok((w, "beam weights (a rank, lower is better)".into())),
            WeightsFile::Player(p) => {
                if p.top_row_cells != 0.0 {
                    return Err(
                        "top_row_cells: the beam has no top-row feature; set it to 0 \
                                to use these player weights with the beam"
                            .into(),
                    );
                }
                if p.hole_depth != 0.0 {
                    return Err(
                        "hole_depth: the beam has no hole depth feature; set it to 0 to use \
                         these player weights with the beam"
                            .into(),
                    );
                }
                let pairs = [
                    ("cells", p.cells),
                    ("row_transitions", p.row_transitions),
                    ("column_transitions", p.column_transitions),
                    ("holes", p.holes),
                    ("wells", p.wells),
                    ("rows_with_holes", p.rows_with_holes),
                    ("landing_height", p.landing_height),
                    ("eroded_cells", p.eroded_cells),
                    ("lines", p.rows_cleared),
                ];
                let w = BeamWeights {
                    score_weight: PLAYER_SCORE_WEIGHT,
                    min_clear_cells: None,
                    fade_pieces: None,
                    value: None,
                    i_ahead: None,
                    open_column: None,
                    features: pairs
                        .iter()
                        .filter(|(_, v)| *v != 0.0)
                        .map(|&(k, v)| (k.to_string(), -v))
                        .collect(),
                };
                Ok((
                    w,
                    "player weights (a value, higher is better), converted for the beam: every \
                     sign turned, rows_cleared as lines, score_weight 1/38"
                        .into(),
                ))
            }
        }
    }

    /// Weights for a one-piece player, and a line saying what was read (and converted).
    pub fn into_player(self) -> std::result::Result<(PlayerWeights, String), String> {
        match self {
            WeightsFile::Player(p) => Ok((p, "player weights (a value, higher is better)".into())),
            WeightsFile::Beam(b) => {
                let get = |k: &str| -b.features.get(k).copied().unwrap_or(0.0);
                if get("max_height") != 0.0 {
                    return Err(
                        "max_height: the players have no max height feature; set it to 0 to use \
                         these beam weights with a player"
                            .into(),
                    );
                }
                let p = PlayerWeights {
                    landing_height: get("landing_height"),
                    eroded_cells: get("eroded_cells"),
                    rows_cleared: get("lines"),
                    row_transitions: get("row_transitions"),
                    column_transitions: get("column_transitions"),
                    holes: get("holes"),
                    wells: get("wells"),
                    hole_depth: 0.0,
                    rows_with_holes: get("rows_with_holes"),
                    cells: get("cells"),
                    top_row_cells: 0.0,
                };
                Ok((
                    p,
                    "beam weights (a rank, lower is better), converted for the player: every \
                     sign turned, lines as rows_cleared; score_weight, min_clear_cells, \
                     fade_pieces, i_ahead and open_column do not apply to a one-piece player"
                        .into(),
                ))
            }
        }
    }
}

/// The beam weights a `--weights` value names. Here, beside the file loader, so that the
/// evaluator does not depend on it.
impl BeamWeights {
    /// A preset name, or the path of a weights file. Errors name the file and JSON place.
    pub fn resolve(name_or_path: &str) -> Result<BeamWeights> {
        BeamWeights::resolve_noted(name_or_path).map(|(w, _)| w)
    }

    /// A preset name, or the path of a weights file of either kind (beam or player weights,
    /// see [`crate::eval::weights_file`]), and a line that says which kind was read.
    pub fn resolve_noted(name_or_path: &str) -> Result<(BeamWeights, String)> {
        if let Some(w) = BeamWeights::preset(name_or_path) {
            return Ok((w, format!("the {name_or_path} preset")));
        }
        let path = Path::new(name_or_path);
        if !path.exists() {
            if name_or_path == "tuned-b4000-i" {
                return Err(Error(
                    "--weights tuned-b4000-i: now the `edge` preset (give --weights edge)".into(),
                ));
            }
            if let Some(file) = BeamWeights::kept_file(name_or_path) {
                return Err(Error(format!(
                    "--weights {name_or_path}: no longer a preset; its weights are kept in \
                     {file} (give --weights {file})"
                )));
            }
            return Err(Error::at(
                name_or_path,
                format!(
                    "neither a preset ({}) nor a weights file",
                    tencent::PRESETS.join(", ")
                ),
            ));
        }
        for_beam(path)
    }
}

/// Reads a weights file of either kind for the beam (`solve`, `tune`).
pub fn for_beam(path: &Path) -> Result<(BeamWeights, String)> {
    read(path)?
        .into_beam()
        .map_err(|e| Error::at(path.display(), e))
}

/// Reads a weights file of either kind for a one-piece player (`play --weights`).
pub fn for_player(path: &Path) -> Result<(PlayerWeights, String)> {
    read(path)?
        .into_player()
        .map_err(|e| Error::at(path.display(), e))
}

/// Every feature name either kind accepts, for messages.
pub fn known_names() -> String {
    let mut names: Vec<&str> = tencent::FEATURES.to_vec();
    names.extend([
        "hole_depth",
        "rows_cleared",
        "score_weight",
        "min_clear_cells",
        "fade_pieces",
    ]);
    names.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn score_weight_tells_the_kinds_apart() {
        let beam = parse(r#"{"score_weight": 0.03, "holes": 7.9}"#).unwrap();
        assert!(matches!(beam, WeightsFile::Beam(_)));
        let player = parse(r#"{"holes": -4, "rows_cleared": 1}"#).unwrap();
        assert!(matches!(player, WeightsFile::Player(_)));
    }

    #[test]
    fn the_published_players_convert_to_the_beam_presets() {
        let (dell, note) = WeightsFile::Player(PlayerWeights::DELLACHERIE)
            .into_beam()
            .unwrap();
        assert_eq!(dell, BeamWeights::kept("dellacherie").unwrap());
        assert!(note.starts_with("player weights"), "{note}");
        let (elt, _) = WeightsFile::Player(PlayerWeights::EL_TETRIS)
            .into_beam()
            .unwrap();
        assert_eq!(elt, BeamWeights::kept("eltetris").unwrap());
        // and back
        let (back, note) = WeightsFile::Beam(elt).into_player().unwrap();
        assert_eq!(back, PlayerWeights::EL_TETRIS);
        assert!(note.starts_with("beam weights"), "{note}");
    }

    #[test]
    fn a_key_given_twice_or_a_weight_past_the_limit_is_refused() {
        for text in [
            r#"{"score_weight": 0.03, "cells": -1, "cells": 2}"#,
            r#"{"landing_height": -1, "holes": -2, "holes": -3}"#,
        ] {
            let e = parse(text).unwrap_err();
            assert!(
                e.contains("cells: the key is given twice")
                    || e.contains("holes: the key is given twice"),
                "{e}"
            );
            assert!(e.starts_with("line 1 column "), "{e}");
        }
        let model = |inside: &str| {
            format!(
                r#"{{"score_weight": 0.03, "cells": -1, "value": {{"format": "beamtris-value-model",
                "version": 1, "family": "tencent", {inside}}}}}"#
            )
        };
        assert!(parse(&model(r#""terms": {"cells": 1}"#)).is_ok());
        let e = parse(&model(r#""terms": {"cells": 1, "cells": 2}"#)).unwrap_err();
        assert!(e.contains("cells: the key is given twice"), "{e}");
        let e = parse(&model(r#""terms": {"cells": 1}, "extra": 5"#)).unwrap_err();
        assert!(e.contains("unknown field `extra`"), "{e}");
        let e = parse(&model(r#""terms": {"cells": 1e300}"#)).unwrap_err();
        assert!(e.starts_with("value.terms.cells: weight 1e300"), "{e}");
        // the default preset times 1e306: finite, and every rank infinite
        let e = parse(r#"{"score_weight": 1e306, "cells": -1}"#).unwrap_err();
        assert!(
            e.starts_with("score_weight: weight 1e306 is larger than 1e12"),
            "{e}"
        );
        let e = parse(r#"{"score_weight": 0.03, "holes": -2e12}"#).unwrap_err();
        assert!(
            e.starts_with("holes: weight -2e12 is larger than 1e12"),
            "{e}"
        );
        let e = parse(r#"{"landing_height": 1e13}"#).unwrap_err();
        assert!(e.starts_with("landing_height: weight 1e13"), "{e}");
        assert!(parse(r#"{"score_weight": 1e12, "cells": -1e12}"#).is_ok());
        let e = crate::eval::guideline::GuidelineWeights::parse(
            r#"{"score_weight": 1, "holes": 1, "holes": 2}"#,
        )
        .unwrap_err();
        assert!(e.contains("holes: the key is given twice"), "{e}");
        let e = crate::eval::guideline::GuidelineWeights::parse(
            r#"{"score_weight": 1, "holes": 1e200}"#,
        )
        .unwrap_err();
        assert!(e.starts_with("holes: weight 1e200"), "{e}");
    }

    #[test]
    fn keys_of_the_other_kind_are_refused_by_name() {
        let e = parse(r#"{"score_weight": 1, "rows_cleared": 1}"#).unwrap_err();
        assert!(e.starts_with("rows_cleared: a player weights key"), "{e}");
        for key in ["lines", "max_height"]
            .into_iter()
            .chain(crate::eval::tencent::SHAPING_KEYS)
        {
            let e = parse(&format!(r#"{{"{key}": 1}}"#)).unwrap_err();
            assert!(e.starts_with(&format!("{key}: a beam weights key")), "{e}");
        }
        let e = parse(r#"{"holez": 1}"#).unwrap_err();
        assert!(e.contains("holez"), "{e}");
        // A misspelt score_weight: the file is read as player weights, and the error says so.
        let e = parse(r#"{"score": 0.1, "cells": -1}"#).unwrap_err();
        assert!(e.contains("unknown field `score`"), "{e}");
        assert!(
            e.contains("a file without score_weight holds player weights"),
            "{e}"
        );
        let e = parse("[1]").unwrap_err();
        assert_eq!(e, "expected a JSON object of feature name -> weight");
        let e = WeightsFile::Player(PlayerWeights::BCTS)
            .into_beam()
            .unwrap_err();
        assert!(e.starts_with("hole_depth: "), "{e}");
    }
}
