//! Finding the `]` that closes a subscript before the subscript is parsed.
//!
//! Bash reads a subscript (`a[ ... ]=v` in command position, `${a[ ... ]}`)
//! as a matched pair first and parses its text afterwards, so what ends it
//! is decided by a quote-aware scan, not by the grammar: quotes, backquotes
//! and `$( )`, `${ }`, `$[ ]` nest, a backslash passes the next byte, and
//! inside double quotes a backquote runs to its own closing backquote. The
//! scan here follows bash's `parse_matched_pair` in those rules.

/// How far [`bracket_close`] looks for the `]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum BracketScope {
    /// To the end of the line.
    Line,
    /// Across newlines.
    AcrossLines,
    /// To the end of the line and not past the `}` that closes a `${`.
    InBraces,
    /// Within one word: not past an unquoted blank, newline or `;` `&` `|`
    /// `<` `>` (a word after `declare`, where bash reads no subscript).
    Word,
}

/// The offset of the `]` matching the `[` at `open` in `bytes` (read no
/// further than `end`), or `None` when it is not closed within `scope`.
pub(super) fn bracket_close(bytes: &[u8], open: usize, end: usize, scope: BracketScope) -> Option<usize> {
    bracket_scan(bytes, open, end, scope).ok()
}

/// What a subscript that does not close was waiting for at the end of the
/// input: `]`, or the quote or `)` / `}` of an inner run still open (bash
/// reports that one). `None` when the subscript closes or stops at its scope.
pub(super) fn unclosed_in_bracket(bytes: &[u8], open: usize, end: usize) -> Option<u8> {
    match bracket_scan(bytes, open, end, BracketScope::AcrossLines) {
        Err(sought) if sought != 0 => Some(sought),
        _ => None,
    }
}

/// [`bracket_close`], failing with the byte sought when the input ended
/// (0 when the scope stopped the scan).
fn bracket_scan(bytes: &[u8], open: usize, end: usize, scope: BracketScope) -> Result<usize, u8> {
    let bytes = bytes.get(..end).ok_or(0)?;
    let mut depth = 0usize;
    let mut braces = 0usize;
    let mut after_dollar = false;
    let mut after_angle = false;
    let mut index = open;
    loop {
        let Some(&byte) = bytes.get(index) else { return Err(b']') };
        match byte {
            b'{' if scope == BracketScope::InBraces && !after_dollar => braces += 1,
            b'}' if scope == BracketScope::InBraces => braces = braces.checked_sub(1).ok_or(0)?,
            b'[' if !after_dollar => depth += 1,
            b']' => {
                depth = depth.checked_sub(1).ok_or(0)?;
                if depth == 0 {
                    return Ok(index);
                }
            }
            b'\\' => index += 1,
            b'\'' if after_dollar => index = quoted_close(bytes, index + 1, b'\'', true)?,
            b'\'' | b'"' | b'`' => index = quoted_close(bytes, index + 1, byte, false)?,
            b'(' | b'{' | b'[' if after_dollar || (byte == b'(' && after_angle) => index = nested_close(bytes, index + 1, byte)?,
            b'\n' if scope != BracketScope::AcrossLines => return Err(0),
            b' ' | b'\t' | b';' | b'&' | b'|' | b'<' | b'>' if scope == BracketScope::Word => return Err(0),
            _ => {}
        }
        after_dollar = byte == b'$' && !after_dollar;
        after_angle = matches!(byte, b'<' | b'>');
        index += 1;
    }
}

/// The offset of the `quote` closing a quoted run that starts at `index`.
/// Single quotes take every byte literally (unless `escapes`, for `$'...'`);
/// in double quotes and backquotes a backslash passes the next byte, and in
/// double quotes a backquote and `$( )`, `${ }`, `$[ ]` nest.
fn quoted_close(bytes: &[u8], mut index: usize, quote: u8, escapes: bool) -> Result<usize, u8> {
    let mut after_dollar = false;
    loop {
        let Some(&byte) = bytes.get(index) else { return Err(quote) };
        if byte == quote {
            return Ok(index);
        }
        if quote != b'\'' || escapes {
            match byte {
                b'\\' => index += 1,
                b'`' if quote == b'"' => index = quoted_close(bytes, index + 1, b'`', false)?,
                b'(' | b'{' | b'[' if quote == b'"' && after_dollar => index = nested_close(bytes, index + 1, byte)?,
                _ => {}
            }
        }
        after_dollar = byte == b'$' && !after_dollar;
        index += 1;
    }
}

/// The offset of the bracket closing the `$(`, `${` or `$[` whose `open`
/// byte was just read (`index` is after it), with quotes and inner groups
/// skipped.
fn nested_close(bytes: &[u8], mut index: usize, open: u8) -> Result<usize, u8> {
    let close = match open {
        b'(' => b')',
        b'{' => b'}',
        _ => b']',
    };
    let mut depth = 1usize;
    let mut after_dollar = false;
    loop {
        let Some(&byte) = bytes.get(index) else { return Err(close) };
        if byte == close {
            depth -= 1;
            if depth == 0 {
                return Ok(index);
            }
        } else if byte == open {
            depth += 1;
        }
        match byte {
            b'\\' => index += 1,
            b'\'' if after_dollar => index = quoted_close(bytes, index + 1, b'\'', true)?,
            b'\'' | b'"' | b'`' => index = quoted_close(bytes, index + 1, byte, false)?,
            b'(' | b'{' | b'[' if after_dollar && byte != open => index = nested_close(bytes, index + 1, byte)?,
            _ => {}
        }
        after_dollar = byte == b'$' && !after_dollar;
        index += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::{bracket_close, BracketScope};

    fn close(text: &str, scope: BracketScope) -> Option<usize> {
        bracket_close(text.as_bytes(), 0, text.len(), scope)
    }

    #[test]
    fn quotes_and_substitutions_hide_brackets() {
        assert_eq!(close("[1]", BracketScope::Line), Some(2));
        assert_eq!(close("[a[1]]", BracketScope::Line), Some(5));
        assert_eq!(close(r#"[ "x\"]" ]"#, BracketScope::Line), Some(9));
        assert_eq!(close("[ `echo ]` ]", BracketScope::Line), Some(11));
        assert_eq!(close(r#"[ "`*" [ "`*" ]]"#, BracketScope::Line), Some(14));
        assert_eq!(close(r#"[ "$(echo "]")" ]"#, BracketScope::Line), Some(16));
        assert_eq!(close("[ $(x ]) ]", BracketScope::Line), Some(9));
        assert_eq!(close(r"[ $'\'' ]", BracketScope::Line), Some(8));
        assert_eq!(close("[ '\\' ]", BracketScope::Line), Some(6));
        assert_eq!(close("[ <(x ]) ]", BracketScope::Line), Some(9));
        assert_eq!(close("[ (x ]) ]", BracketScope::Line), Some(5));
    }

    #[test]
    fn scopes_stop_at_newlines_and_braces() {
        assert_eq!(close("[1\n]", BracketScope::Line), None);
        assert_eq!(close("[1\n]", BracketScope::AcrossLines), Some(3));
        assert_eq!(close("[ \"\n\" ]", BracketScope::Line), Some(6));
        assert_eq!(close("[1}]", BracketScope::InBraces), None);
        assert_eq!(close("[{1}]", BracketScope::InBraces), Some(4));
        assert_eq!(close("[1", BracketScope::AcrossLines), None);
        assert_eq!(close("[ \"x ]", BracketScope::AcrossLines), None);
        assert_eq!(close("[1 2]", BracketScope::Word), None);
        assert_eq!(close("[1;2]", BracketScope::Word), None);
        assert_eq!(close("[\"1 2\"]", BracketScope::Word), Some(6));
        assert_eq!(close("[$(echo 1 2)]", BracketScope::Word), Some(12));
    }

    #[test]
    fn an_unclosed_inner_run_is_what_the_subscript_waits_for() {
        let unclosed = |text: &str| super::unclosed_in_bracket(text.as_bytes(), 0, text.len());
        assert_eq!(unclosed("[1\"  #]=3 b"), Some(b'"'));
        assert_eq!(unclosed("[ $(x ]=1"), Some(b')'));
        assert_eq!(unclosed("[ 1 "), Some(b']'));
        assert_eq!(unclosed("[ 1 ]"), None);
    }
}
