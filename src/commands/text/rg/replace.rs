//! `-r`/`--replace`: each match printed as the replacement, with `$N`,
//! `${N}`, `$name`, `${name}` for groups and `$$` for a dollar sign.

use super::matcher::{MatchError, Matcher};

/// The line with every non-empty match replaced.
pub fn replace_all(matcher: &Matcher, line: &[u8], replacement: &str) -> Result<Vec<u8>, MatchError> {
    let mut out = Vec::with_capacity(line.len());
    let mut copied = 0;
    for (start, end) in super::search::matches_in(matcher, line)? {
        out.extend_from_slice(line.get(copied..start).unwrap_or(&[]));
        out.extend_from_slice(&expand_at(matcher, line, start, replacement)?);
        copied = end;
    }
    out.extend_from_slice(line.get(copied..).unwrap_or(&[]));
    Ok(out)
}

/// The replacement for the match that starts at `start`.
pub fn expand_at(matcher: &Matcher, line: &[u8], start: usize, replacement: &str) -> Result<Vec<u8>, MatchError> {
    let groups = matcher.captures_at(line, start)?.unwrap_or_default();
    let group_text = |index: usize| -> &[u8] {
        match groups.get(index) {
            Some(Some((s, e))) => line.get(*s..*e).unwrap_or(&[]),
            _ => &[],
        }
    };
    let mut out = Vec::new();
    let mut rest = replacement;
    while let Some(dollar) = rest.find('$') {
        out.extend_from_slice(rest.as_bytes().get(..dollar).unwrap_or(&[]));
        let after = &rest[dollar + 1..];
        if let Some(tail) = after.strip_prefix('$') {
            out.push(b'$');
            rest = tail;
            continue;
        }
        let (name, tail) = if let Some(braced) = after.strip_prefix('{') {
            match braced.find('}') {
                Some(close) => (&braced[..close], &braced[close + 1..]),
                None => ("", after),
            }
        } else {
            let length = after.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(after.len());
            (&after[..length], &after[length..])
        };
        if name.is_empty() {
            out.push(b'$');
            rest = after;
            continue;
        }
        let index = name.parse::<usize>().ok().or_else(|| matcher.group_index(name));
        if let Some(index) = index {
            out.extend_from_slice(group_text(index));
        }
        rest = tail;
    }
    out.extend_from_slice(rest.as_bytes());
    Ok(out)
}
