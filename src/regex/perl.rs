//! `grep -P`: Perl syntax mapped onto the `regex` crate's, which shares
//! most of it. The few Perl escapes it lacks and that have an exact
//! equivalent are rewritten (`\h`, `\H`, `\e`, `\Z` on a line, `\Q...\E`);
//! what has none (look-around, back-references, `\K`, possessive and atomic
//! groups) is left for the crate to refuse with its own reason.

/// Rewrites the Perl escapes the crate lacks into ones it has.
pub fn translate(pattern: &str) -> String {
    let mut out = String::with_capacity(pattern.len());
    let mut chars = pattern.chars().peekable();
    let mut in_class = false;
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                let Some(next) = chars.next() else {
                    out.push('\\');
                    break;
                };
                match next {
                    'h' if in_class => out.push_str(r" \t"),
                    'h' => out.push_str(r"[ \t]"),
                    'H' if !in_class => out.push_str(r"[^ \t]"),
                    'e' => out.push_str(r"\x1B"),
                    'Z' if !in_class => out.push_str(r"\z"),
                    'Q' => {
                        let mut literal = String::new();
                        while let Some(q) = chars.next() {
                            if q == '\\' && chars.peek() == Some(&'E') {
                                chars.next();
                                break;
                            }
                            literal.push(q);
                        }
                        out.push_str(&regex::escape(&literal));
                    }
                    other => {
                        out.push('\\');
                        out.push(other);
                    }
                }
            }
            '[' if !in_class => {
                in_class = true;
                out.push('[');
                if chars.peek() == Some(&'^') {
                    chars.next();
                    out.push('^');
                }
                if chars.peek() == Some(&']') {
                    chars.next();
                    out.push_str(r"\]");
                }
            }
            '[' if chars.peek() == Some(&':') => {
                // A POSIX class inside a bracket: copy through its `:]`.
                out.push('[');
                for inner in chars.by_ref() {
                    out.push(inner);
                    if inner == ']' {
                        break;
                    }
                }
            }
            ']' if in_class => {
                in_class = false;
                out.push(']');
            }
            other => out.push(other),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::translate;

    #[test]
    fn maps_missing_escapes() {
        assert_eq!(translate(r"a\hb"), r"a[ \t]b");
        assert_eq!(translate(r"[\h,]"), r"[ \t,]");
        assert_eq!(translate(r"\Qa.b\E+"), r"a\.b+");
        assert_eq!(translate(r"x\Z"), r"x\z");
        assert_eq!(translate(r"[]a]"), r"[\]a]");
        assert_eq!(translate(r"[[:alpha:]\d]"), r"[[:alpha:]\d]");
    }
}
