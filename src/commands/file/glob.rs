//! Shell wildcard matching of one name (`fnmatch` without `FNM_PATHNAME`):
//! `*`, `?`, bracket expressions with ranges, negation and `[:classes:]`,
//! and backslash escapes. Used by `find -name`/`-path`, `ls -I` and `tree -I`.

/// True when `name` matches `pattern`.
pub fn matches(pattern: &str, name: &str) -> bool {
    let pattern: Vec<char> = pattern.chars().collect();
    let name: Vec<char> = name.chars().collect();
    match_from(&pattern, &name, false)
}

/// True when `name` matches `pattern` ignoring ASCII case (`-iname`).
pub fn matches_ignore_case(pattern: &str, name: &str) -> bool {
    let pattern: Vec<char> = pattern.chars().collect();
    let name: Vec<char> = name.chars().collect();
    match_from(&pattern, &name, true)
}

fn same(a: char, b: char, fold: bool) -> bool {
    a == b || (fold && a.eq_ignore_ascii_case(&b))
}

/// Iterative matcher with single-star backtracking (linear in practice).
fn match_from(pattern: &[char], name: &[char], fold: bool) -> bool {
    let (mut p, mut n) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while n < name.len() {
        let current = name.get(n).copied().unwrap_or('\0');
        let step = match pattern.get(p) {
            Some('*') => {
                star = Some((p, n));
                p += 1;
                continue;
            }
            Some('?') => Some(p + 1),
            Some('[') => match bracket(pattern, p, current, fold) {
                Some((true, next)) => Some(next),
                Some((false, _)) => None,
                None => same('[', current, fold).then_some(p + 1),
            },
            Some('\\') if p + 1 < pattern.len() => pattern.get(p + 1).is_some_and(|&c| same(c, current, fold)).then_some(p + 2),
            Some(&c) => same(c, current, fold).then_some(p + 1),
            None => None,
        };
        match step {
            Some(next) => {
                p = next;
                n += 1;
            }
            None => match star {
                Some((star_p, star_n)) => {
                    p = star_p + 1;
                    n = star_n + 1;
                    star = Some((star_p, star_n + 1));
                }
                None => return false,
            },
        }
    }
    pattern.get(p..).is_some_and(|rest| rest.iter().all(|&c| c == '*'))
}

/// Matches `c` against the bracket expression at `start`; `None` when the
/// bracket is not closed (then `[` is literal). Returns (matched, next index).
fn bracket(pattern: &[char], start: usize, c: char, fold: bool) -> Option<(bool, usize)> {
    let mut i = start + 1;
    let negate = matches!(pattern.get(i), Some('!') | Some('^'));
    if negate {
        i += 1;
    }
    let mut matched = false;
    let mut first = true;
    loop {
        let &current = pattern.get(i)?;
        if current == ']' && !first {
            return Some((matched != negate, i + 1));
        }
        first = false;
        if current == '[' && pattern.get(i + 1) == Some(&':') {
            let rest: String = pattern.get(i + 2..)?.iter().collect();
            if let Some(end) = rest.find(":]") {
                let class = &rest[..end];
                matched |= class_matches(class, c);
                i += 2 + class.chars().count() + 2;
                continue;
            }
        }
        let low = if current == '\\' {
            i += 1;
            *pattern.get(i)?
        } else {
            current
        };
        if pattern.get(i + 1) == Some(&'-') && pattern.get(i + 2).is_some_and(|&h| h != ']') {
            let high = *pattern.get(i + 2)?;
            let lower = c.to_ascii_lowercase();
            let upper = c.to_ascii_uppercase();
            matched |= (low..=high).contains(&c) || (fold && ((low..=high).contains(&lower) || (low..=high).contains(&upper)));
            i += 3;
        } else {
            matched |= same(low, c, fold);
            i += 1;
        }
    }
}

fn class_matches(class: &str, c: char) -> bool {
    match class {
        "alpha" => c.is_ascii_alphabetic(),
        "digit" => c.is_ascii_digit(),
        "alnum" => c.is_ascii_alphanumeric(),
        "upper" => c.is_ascii_uppercase(),
        "lower" => c.is_ascii_lowercase(),
        "space" => c.is_ascii_whitespace(),
        "punct" => c.is_ascii_punctuation(),
        "xdigit" => c.is_ascii_hexdigit(),
        "blank" => c == ' ' || c == '\t',
        "cntrl" => c.is_ascii_control(),
        "print" => !c.is_control(),
        "graph" => !c.is_control() && c != ' ',
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wildcards() {
        assert!(matches("*.txt", "a.txt"));
        assert!(!matches("*.txt", "a.txt.bak"));
        assert!(matches("a?c", "abc"));
        assert!(matches("[abc]*", "beta"));
        assert!(!matches("[!abc]*", "beta"));
        assert!(matches("[a-c]x", "bx"));
        assert!(matches("[[:digit:]]*", "9lives"));
        assert!(matches("\\*", "*"));
        assert!(!matches("\\*", "a"));
        assert!(matches("*", ".hidden"));
        assert!(matches("*a*b*c", "xxaxxbxxc"));
        assert!(matches("[", "["));
        assert!(matches_ignore_case("*.TXT", "a.txt"));
        assert!(matches("./*/x", "./d/e/x"));
    }
}
