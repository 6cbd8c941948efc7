//! Shell wildcard matching for archive member names (`tar --exclude`,
//! `--wildcards`, `unzip` member lists). `*` and `?` match `/` too, as
//! GNU tar's exclusion patterns do by default.

/// True when `pattern` (with `*`, `?`, `[...]` and `\` escapes) matches all of `text`.
pub fn wildcard_match(pattern: &str, text: &str) -> bool {
    let pattern: Vec<char> = pattern.chars().collect();
    let text: Vec<char> = text.chars().collect();
    match_from(&pattern, &text)
}

fn match_from(pattern: &[char], text: &[char]) -> bool {
    let (mut p, mut t) = (0, 0);
    let mut backtrack: Option<(usize, usize)> = None;
    while t < text.len() {
        let step = match pattern.get(p) {
            Some('*') => {
                backtrack = Some((p, t));
                p += 1;
                continue;
            }
            Some('?') => Some(p + 1),
            Some('[') => match_class(pattern, p, text.get(t).copied().unwrap_or('\0')),
            Some('\\') if pattern.get(p + 1).is_some() => (pattern.get(p + 1) == text.get(t)).then_some(p + 2),
            Some(c) => (Some(c) == text.get(t)).then_some(p + 1),
            None => None,
        };
        match step {
            Some(next) => {
                p = next;
                t += 1;
            }
            None => match backtrack {
                Some((star, from)) => {
                    p = star + 1;
                    t = from + 1;
                    backtrack = Some((star, from + 1));
                }
                None => return false,
            },
        }
    }
    pattern.get(p..).unwrap_or(&[]).iter().all(|&c| c == '*')
}

/// Matches a bracket expression at `pattern[start]`; the index after it on a match.
fn match_class(pattern: &[char], start: usize, c: char) -> Option<usize> {
    let mut index = start + 1;
    let negate = matches!(pattern.get(index), Some('!') | Some('^'));
    if negate {
        index += 1;
    }
    let mut matched = false;
    let mut first = true;
    loop {
        let current = *pattern.get(index)?;
        if current == ']' && !first {
            break;
        }
        first = false;
        if pattern.get(index + 1) == Some(&'-') && pattern.get(index + 2).is_some_and(|&end| end != ']') {
            let end = *pattern.get(index + 2)?;
            if current <= c && c <= end {
                matched = true;
            }
            index += 3;
        } else {
            if current == c {
                matched = true;
            }
            index += 1;
        }
    }
    (matched != negate).then_some(index + 1)
}

/// True when a GNU tar exclusion pattern excludes `name`: it matches the
/// whole name or any tail of it that starts after a `/`.
pub fn excluded(patterns: &[String], name: &str) -> bool {
    let name = name.trim_end_matches('/');
    patterns.iter().any(|pattern| {
        let pattern = pattern.trim_end_matches('/');
        let mut tail = name;
        loop {
            if wildcard_match(pattern, tail) {
                return true;
            }
            match tail.find('/') {
                Some(slash) => tail = tail.get(slash + 1..).unwrap_or(""),
                None => return false,
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wildcards() {
        assert!(wildcard_match("*.txt", "a.txt"));
        assert!(wildcard_match("*.txt", "d/a.txt"));
        assert!(!wildcard_match("*.txt", "a.txt.gz"));
        assert!(wildcard_match("a?c", "abc"));
        assert!(wildcard_match("[a-c]x", "bx"));
        assert!(!wildcard_match("[!a-c]x", "bx"));
        assert!(wildcard_match("\\*", "*"));
        assert!(wildcard_match("*", ""));
    }

    #[test]
    fn exclusion_matches_any_tail() {
        let patterns = vec!["sub".to_string(), "*.o".to_string()];
        assert!(excluded(&patterns, "d/sub/"));
        assert!(excluded(&patterns, "d/x/a.o"));
        assert!(!excluded(&patterns, "d/subway"));
        assert!(excluded(&["d/f*".to_string()], "d/f.txt"));
    }
}
