//! Reads the options a usage text lists (`  -w, --width=COLS   ...`), so
//! the text is the one statement of what a command accepts: the `--help`
//! scan learns from it which options take an argument, and the tests run
//! the command with every option it names.

use crate::commands::options::HasArg;

/// One option spelling a usage text lists.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Listed {
    /// The spelling with its dashes: `-w` or `--width`.
    pub spelling: String,
    /// Whether it takes an argument.
    pub has_arg: HasArg,
    /// The argument's placeholder as written (`COLS`, `<NUM>`), if any.
    pub placeholder: Option<String>,
}

impl Listed {
    /// True for a long option (`--width`).
    pub fn is_long(&self) -> bool {
        self.spelling.starts_with("--")
    }
}

/// The deepest indent an option line has: deeper lines continue a description.
const MAX_INDENT: usize = 8;

/// Every option spelling `text` lists, in order, without repeats.
pub fn listed_options(text: &str) -> Vec<Listed> {
    let mut found: Vec<Listed> = Vec::new();
    let mut previous = "";
    for line in text.lines() {
        let in_prose_list = is_prose_item(previous) && indent(previous) == indent(line);
        previous = line;
        if in_prose_list {
            continue;
        }
        for listed in line_options(line) {
            if !found.iter().any(|seen| seen.spelling == listed.spelling) {
                found.push(listed);
            }
        }
    }
    found
}

/// The indent of `line`.
fn indent(line: &str) -> usize {
    line.len() - line.trim_start_matches([' ', '\t']).len()
}

/// True for an indented item of a list that is not of options (`  N-M
/// from N'th to M'th field`): a `-M` after it is another such item.
fn is_prose_item(line: &str) -> bool {
    let body = line.trim_start_matches([' ', '\t']);
    indent(line) > 0 && !body.is_empty() && !body.starts_with('-') && !body.ends_with(':')
}

/// The options an option line starts with; none for other lines.
pub(super) fn line_options(line: &str) -> Vec<Listed> {
    let body = line.trim_start_matches([' ', '\t']);
    let indent = line.len() - body.len();
    if indent == 0 || indent > MAX_INDENT || !body.starts_with('-') || body.starts_with("--- ") {
        return Vec::new();
    }
    let column = option_column(body);
    let mut items: Vec<(String, Option<String>)> = Vec::new();
    for token in column.split([' ', '\t', ',']).filter(|t| !t.is_empty()) {
        if token.starts_with('-') && token.len() > 1 {
            items.push((token.to_string(), None));
        } else if let Some(last) = items.last_mut() {
            if last.1.is_none() {
                last.1 = Some(token.to_string());
            }
        }
    }
    // A short option without an argument of its own takes the one its long
    // partner requires (`-w, --width=COLS`).
    let partner_required = items
        .iter()
        .any(|(token, separate)| token.starts_with("--") && ((token.contains('=') && !token.contains("[=")) || separate.is_some()));
    items.into_iter().filter_map(|(token, separate)| spelling(&token, separate, partner_required)).collect()
}

/// The option column of an option line: up to a run of two spaces or a
/// tab, unless what follows is more of it (`-p NUM  --strip=NUM`,
/// `-q,  --quiet`, `-f progfile<TAB>--file=progfile`).
fn option_column(body: &str) -> &str {
    let mut end = 0;
    loop {
        let rest = body.get(end..).unwrap_or("");
        let gap = [rest.find("  "), rest.find('\t')].into_iter().flatten().min();
        let Some(gap) = gap else { return body };
        let column_end = end + gap;
        let after = body.get(column_end..).unwrap_or("").trim_start_matches([' ', '\t']);
        let continues = body.get(..column_end).is_some_and(|c| c.ends_with(','))
            || (after.starts_with("--") && after[2..].starts_with(|c: char| c.is_ascii_alphanumeric()));
        if !continues {
            return body.get(..column_end).unwrap_or(body);
        }
        end = body.len() - after.len();
    }
}

/// Reads one token of an option column (`--width=COLS`, `-x[ARG]`, `-n`).
fn spelling(token: &str, separate: Option<String>, partner_required: bool) -> Option<Listed> {
    if let Some(long) = token.strip_prefix("--") {
        if let Some((name, arg)) = long.split_once("[=") {
            let placeholder = arg.trim_end_matches(']').to_string();
            return valid_long(name).then(|| Listed {
                spelling: format!("--{name}"),
                has_arg: HasArg::Optional,
                placeholder: Some(placeholder),
            });
        }
        if let Some((name, arg)) = long.split_once('=') {
            return valid_long(name).then(|| Listed {
                spelling: format!("--{name}"),
                has_arg: HasArg::Required,
                placeholder: Some(arg.to_string()),
            });
        }
        let name = long.trim_end_matches(['.', ';', ':']);
        let has_arg = if separate.is_some() { HasArg::Required } else { HasArg::No };
        return valid_long(name).then(|| Listed { spelling: format!("--{name}"), has_arg, placeholder: separate });
    }
    let rest = token.strip_prefix('-')?;
    let mut chars = rest.chars();
    let letter = chars.next()?;
    let tail = chars.as_str();
    if !(letter.is_ascii_alphanumeric() || "?@".contains(letter)) {
        return None;
    }
    let spelling = format!("-{letter}");
    if let Some(arg) = tail.strip_prefix('[') {
        return Some(Listed { spelling, has_arg: HasArg::Optional, placeholder: Some(arg.trim_end_matches(']').to_string()) });
    }
    if !tail.is_empty() {
        // `-NUM`, `-COLUMN`: a number written as an option, not a letter.
        return None;
    }
    if separate.is_some() {
        return Some(Listed { spelling, has_arg: HasArg::Required, placeholder: separate });
    }
    let has_arg = if partner_required { HasArg::Required } else { HasArg::No };
    Some(Listed { spelling, has_arg, placeholder: None })
}

/// True for a long option name: letters, digits and inner dashes.
fn valid_long(name: &str) -> bool {
    !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-') && !name.starts_with('-')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn show(text: &str) -> Vec<(String, HasArg, Option<String>)> {
        listed_options(text).into_iter().map(|l| (l.spelling, l.has_arg, l.placeholder)).collect()
    }

    #[test]
    fn reads_gnu_option_columns() {
        let text = "Usage: ls [OPTION]... [FILE]...\n  -a, --all                  do not ignore\n      --color[=WHEN]         color\n  -w, --width=COLS           width\n                               -x here continues\n  -u, -U NUM, --unified[=NUM]  unified\n  -i[SUFFIX], --in-place[=SUFFIX]  edit\n  -NUM                       same as -n NUM\n";
        assert_eq!(
            show(text),
            vec![
                ("-a".into(), HasArg::No, None),
                ("--all".into(), HasArg::No, None),
                ("--color".into(), HasArg::Optional, Some("WHEN".into())),
                ("-w".into(), HasArg::Required, None),
                ("--width".into(), HasArg::Required, Some("COLS".into())),
                ("-u".into(), HasArg::No, None),
                ("-U".into(), HasArg::Required, Some("NUM".into())),
                ("--unified".into(), HasArg::Optional, Some("NUM".into())),
                ("-i".into(), HasArg::Optional, Some("SUFFIX".into())),
                ("--in-place".into(), HasArg::Optional, Some("SUFFIX".into())),
            ]
        );
    }

    #[test]
    fn skips_items_of_other_lists() {
        let text = "Usage: cut\n  -f, --fields=LIST  fields\n\n  N-M   from N'th to M'th field\n  -M    from first to M'th field\n";
        assert_eq!(show(text), vec![("-f".into(), HasArg::Required, None), ("--fields".into(), HasArg::Required, Some("LIST".into()))]);
    }

    #[test]
    fn reads_separate_placeholders() {
        let text = "Usage: rg\n    -A, --after-context <NUM>   lines after\n  -c cols   octets per line\n  -p NUM  --strip=NUM  strip\n  -q,  --quiet   quiet\n";
        assert_eq!(
            show(text),
            vec![
                ("-A".into(), HasArg::Required, None),
                ("--after-context".into(), HasArg::Required, Some("<NUM>".into())),
                ("-c".into(), HasArg::Required, Some("cols".into())),
                ("-p".into(), HasArg::Required, Some("NUM".into())),
                ("--strip".into(), HasArg::Required, Some("NUM".into())),
                ("-q".into(), HasArg::No, None),
                ("--quiet".into(), HasArg::No, None),
            ]
        );
    }
}
