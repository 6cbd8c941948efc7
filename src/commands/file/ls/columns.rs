//! `ls -C` (down columns) and `ls -x` (across rows): as many columns as fit
//! the line width, each as wide as its longest name plus two, padded with
//! tabs at 8-column stops then spaces, as GNU `ls` pads.

/// The most columns that fit `line_width`, and each column's width
/// (the last without the two-space gap).
fn plan(widths: &[usize], line_width: usize, across: bool) -> (usize, Vec<usize>) {
    let count = widths.len();
    let max_columns = (line_width / 3).max(1).min(count.max(1));
    let mut best = (1, vec![widths.iter().copied().max().unwrap_or(0)]);
    for columns in 1..=max_columns {
        let rows = count.div_ceil(columns);
        let mut column_widths = vec![0usize; columns];
        for (index, &width) in widths.iter().enumerate() {
            let column = if across { index % columns } else { index / rows };
            let real = if column + 1 == columns { width } else { width + 2 };
            if let Some(slot) = column_widths.get_mut(column) {
                *slot = (*slot).max(real);
            }
        }
        if column_widths.iter().sum::<usize>() < line_width {
            best = (columns, column_widths);
        }
    }
    best
}

/// Appends padding from column `from` to column `to` as GNU's `indent`.
fn indent(out: &mut String, mut from: usize, to: usize) {
    while from < to {
        // A tab only where it stands for more than one space.
        if to / 8 > (from + 1) / 8 {
            out.push('\t');
            from += 8 - from % 8;
        } else {
            out.push(' ');
            from += 1;
        }
    }
}

/// Lays `names` out in columns within `line_width`.
pub fn render_columns(names: &[String], line_width: usize, across: bool, out: &mut String) {
    if names.is_empty() {
        return;
    }
    let widths: Vec<usize> = names.iter().map(|n| n.chars().count()).collect();
    let (columns, column_widths) = plan(&widths, line_width, across);
    let rows = names.len().div_ceil(columns);
    for row in 0..rows {
        let mut position = 0;
        for column in 0..columns {
            let index = if across { row * columns + column } else { row + column * rows };
            let Some(name) = names.get(index) else { break };
            out.push_str(name);
            let next = if across { index + 1 } else { index + rows };
            let next_in_row = column + 1 < columns && names.get(next).is_some() && (!across || next / columns == row);
            if !next_in_row {
                break;
            }
            let width = column_widths.get(column).copied().unwrap_or(0);
            indent(out, position + widths.get(index).copied().unwrap_or(0), position + width);
            position += width;
        }
        out.push('\n');
    }
}

#[cfg(test)]
mod tests {
    use super::render_columns;

    fn greek() -> Vec<String> {
        "alpha beta chi delta epsilon eta gamma iota kappa lambda mu nu omega omicron phi pi psi rho sigma tau theta upsilon xi zeta"
            .split(' ')
            .map(str::to_string)
            .collect()
    }

    #[test]
    fn matches_gnu_layouts() {
        let mut out = String::new();
        render_columns(&greek(), 80, false, &mut out);
        assert_eq!(
            out,
            "alpha  delta\tgamma  lambda  omega\tpi   sigma  upsilon\nbeta   epsilon\tiota   mu      omicron\tpsi  tau    xi\nchi    eta\tkappa  nu      phi\trho  theta  zeta\n"
        );
        let mut out = String::new();
        render_columns(&greek(), 80, true, &mut out);
        assert_eq!(
            out,
            "alpha  beta\tchi  delta  epsilon  eta  gamma  iota  kappa  lambda   mu  nu\nomega  omicron\tphi  pi     psi      rho  sigma  tau   theta  upsilon  xi  zeta\n"
        );
        let mut out = String::new();
        render_columns(&greek(), 40, false, &mut out);
        assert!(out.starts_with("alpha\t gamma\t omega\t  sigma\nbeta\t iota\t omicron  tau\n"));
    }
}
