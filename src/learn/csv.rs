//! The CSV that both families' data files are written in: a header line, then one row of
//! numbers a board. Reading a row names the line and column of whatever it cannot read.

/// A header line (no newline): the `lead` columns, then the features.
pub fn header(lead: &[&str], features: &[&str]) -> String {
    lead.iter()
        .chain(features)
        .copied()
        .collect::<Vec<_>>()
        .join(",")
}

/// A number as short as it reads back exactly.
pub fn number(x: f64) -> String {
    if x.fract() == 0.0 && x.abs() < 1e15 {
        format!("{}", x as i64)
    } else {
        format!("{x}")
    }
}

/// `values` as `,`-prefixed CSV fields.
pub fn push_numbers(out: &mut String, values: &[f64]) {
    for &v in values {
        out.push(',');
        out.push_str(&number(v));
    }
}

/// One data row, split into its columns.
pub struct Row<'a> {
    /// 1-based line number.
    line: usize,
    cols: Vec<&'a str>,
}

/// The largest magnitude a data file's number may have.
pub const LARGEST: f64 = 1e12;

impl Row<'_> {
    /// Column `c` (0-based) as a count.
    pub fn count(&self, c: usize) -> Result<u64, String> {
        self.cols[c].parse::<u64>().map_err(|_| {
            format!(
                "line {}, column {}: not a count: {:?}",
                self.line,
                c + 1,
                self.cols[c]
            )
        })
    }

    /// Column `c` as a count that fits 32 bits.
    pub fn count32(&self, c: usize) -> Result<u32, String> {
        u32::try_from(self.count(c)?)
            .map_err(|_| format!("line {}, column {}: too large", self.line, c + 1))
    }

    /// Column `c`, named `name` in errors, as a finite number within [`LARGEST`]: a board's
    /// features, scores and labels are far smaller, and a value past it (`1e300`) would
    /// overflow the fit's sums into a model of infinities.
    pub fn number(&self, c: usize, name: &str) -> Result<f64, String> {
        let x = self.cols[c]
            .parse::<f64>()
            .ok()
            .filter(|x| x.is_finite())
            .ok_or_else(|| {
                format!(
                    "line {}, column {} ({name}): not a number",
                    self.line,
                    c + 1
                )
            })?;
        if x.abs() > LARGEST {
            return Err(format!(
                "line {}, column {} ({name}): {x:e} is out of range (at most {LARGEST:e} either way)",
                self.line,
                c + 1
            ));
        }
        Ok(x)
    }

    /// The columns from `from` on, named `names`, as numbers.
    pub fn numbers<const N: usize>(
        &self,
        from: usize,
        names: &[&str; N],
    ) -> Result<[f64; N], String> {
        let mut out = [0.0; N];
        for (j, v) in out.iter_mut().enumerate() {
            *v = self.number(from + j, names[j])?;
        }
        Ok(out)
    }

    /// Whether the row is the line number `line` (for errors about more than one column).
    pub fn line(&self) -> usize {
        self.line
    }
}

/// The data rows of `text`, whose first line must be `header` (`expected` says in the error
/// what this build writes); blank lines are skipped, every row has the header's columns.
pub fn rows<'a>(text: &'a str, header: &str, expected: &str) -> Result<Vec<Row<'a>>, String> {
    let mut lines = text.lines();
    let first = lines.next().ok_or("empty file: expected the CSV header")?;
    if first.trim_end() != header {
        return Err(format!(
            "line 1: the header is not this build's ({expected})"
        ));
    }
    let width = header.split(',').count();
    let mut out = Vec::new();
    for (i, line) in lines.enumerate() {
        let line_no = i + 2;
        if line.trim().is_empty() {
            continue;
        }
        let cols: Vec<&str> = line.trim_end().split(',').collect();
        if cols.len() != width {
            return Err(format!(
                "line {line_no}: {} columns, expected {width}",
                cols.len()
            ));
        }
        out.push(Row {
            line: line_no,
            cols,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_number_out_of_range_names_its_line_and_column() {
        let rows = super::rows("a,b\n1,2.5\n3,1e300\n", "a,b", "a,b").unwrap();
        assert_eq!(rows[0].number(1, "b"), Ok(2.5));
        assert_eq!(
            rows[1].number(1, "b").unwrap_err(),
            "line 3, column 2 (b): 1e300 is out of range (at most 1e12 either way)"
        );
        assert!(rows[1].number(0, "a").is_ok());
    }
}
