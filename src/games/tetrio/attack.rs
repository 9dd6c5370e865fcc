//! TETR.IO's attack for one lock (its "damage calculation"): the base lines of a clear, the
//! back-to-back bonus (flat, or growing with the chain under `b2bchaining`), the combo
//! bonus (TETR.IO's `multiplier` table or the guideline tables). The result is a fraction;
//! the engine multiplies it by the garbage multiplier and rounds it down.

/// A lock's spin kind as TETR.IO scores it.
#[derive(Clone, Copy, PartialEq, Eq, Debug, PartialOrd, Ord, Hash)]
pub enum SpinKind {
    None,
    Mini,
    Normal,
}

/// TETR.IO's `combotable` option.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ComboRule {
    None,
    Multiplier,
    ClassicGuideline,
    ModernGuideline,
}

impl ComboRule {
    /// The option's value as a replay spells it.
    pub fn parse(name: &str) -> Option<ComboRule> {
        Some(match name {
            "none" => ComboRule::None,
            "multiplier" => ComboRule::Multiplier,
            "classic guideline" => ComboRule::ClassicGuideline,
            "modern guideline" => ComboRule::ModernGuideline,
            _ => return None,
        })
    }
}

const CLASSIC: [f64; 11] = [0., 1., 1., 2., 2., 3., 3., 4., 4., 4., 5.];
const MODERN: [f64; 13] = [0., 1., 1., 2., 2., 2., 3., 3., 3., 3., 3., 3., 4.];

/// The base lines of a clear of `lines` rows with `spin` (no spin, mini, full).
pub fn base_lines(lines: u32, spin: SpinKind) -> f64 {
    match (lines, spin) {
        (0, _) => 0.,
        (1, SpinKind::None) => 0.,
        (1, SpinKind::Mini) => 0.,
        (1, SpinKind::Normal) => 2.,
        (2, SpinKind::None) => 1.,
        (2, SpinKind::Mini) => 1.,
        (2, SpinKind::Normal) => 4.,
        (3, SpinKind::None) => 2.,
        (3, SpinKind::Mini) => 2.,
        (3, SpinKind::Normal) => 6.,
        (4, SpinKind::None) => 4.,
        (4, _) => 10.,
        (5, SpinKind::None) => 5.,
        (5, _) => 12.,
        (n, SpinKind::None) => 5. + (n - 5) as f64,
        (n, _) => 12. + 2. * (n - 5) as f64,
    }
}

/// The attack of a lock before the multiplier: `b2b` is the back-to-back counter after the
/// lock (0 for none; 1 is the first back-to-back clear), `combo` the combo counter after it
/// (0 for the first clear of a run).
pub fn attack(
    lines: u32,
    spin: SpinKind,
    b2b: u32,
    combo: u32,
    chaining: bool,
    table: ComboRule,
) -> f64 {
    let mut g = base_lines(lines, spin);
    if lines > 0 && b2b > 0 {
        if chaining {
            let l = (b2b as f64 * 0.8).ln_1p();
            let extra = if b2b == 1 { 0. } else { (1. + l % 1.) / 3. };
            g += (1. + l).floor() + extra;
        } else {
            g += 1.;
        }
    }
    if combo > 0 {
        match table {
            ComboRule::Multiplier => {
                g *= 1. + 0.25 * combo as f64;
                if combo > 1 {
                    g = (combo as f64 * 1.25).ln_1p().max(g);
                }
            }
            ComboRule::None => {}
            ComboRule::ClassicGuideline => {
                g += CLASSIC[(combo as usize - 1).min(CLASSIC.len() - 1)]
            }
            ComboRule::ModernGuideline => g += MODERN[(combo as usize - 1).min(MODERN.len() - 1)],
        }
    }
    g
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_attacks() {
        let m = ComboRule::Multiplier;
        assert_eq!(attack(4, SpinKind::None, 0, 0, true, m), 4.);
        assert_eq!(attack(2, SpinKind::Normal, 1, 0, true, m), 5.);
        // A chain of 4: 1 + floor(ln(4.2)) + (1 + frac(ln 4.2)) / 3.
        assert_eq!(attack(2, SpinKind::Normal, 4, 0, true, m).floor(), 6.);
        assert_eq!(attack(1, SpinKind::None, 0, 3, true, m).floor(), 1.);
        assert_eq!(attack(2, SpinKind::None, 0, 4, true, m), 2.);
    }
}
