//! `[[ expression ]]`: unary and binary tests, `=~` with its own quoting
//! rules, `==`/`!=` patterns (extglob always on for their right side, as in
//! bash), `!`, `&&`, `||` and parentheses.
//!
//! The expression is read token by token with one token of lookahead, the
//! way bash's own small recursive parser reads it, because bash's error
//! messages (and which inputs are errors at all) follow from that order:
//! `[[ a ) ]]` reads `a` as a whole test and then fails at the `)`, and an
//! operand missing before `]]` is an error with no message.

use super::ast::{CompoundCommand, CondExpr, Word, WordPart};
use super::error::{ConditionalError, ParseErrorKind};
use super::lines::LineIndex;
use super::parser::{Fail, PResult, Parser};
use super::seq::Seq;
use super::word::WordContext;

/// Unary test operators.
const UNARY: [&str; 26] = [
    "-a", "-b", "-c", "-d", "-e", "-f", "-g", "-h", "-k", "-p", "-r", "-s", "-t", "-u", "-w", "-x", "-O", "-G", "-L", "-S", "-N", "-z",
    "-n", "-o", "-v", "-R",
];

/// Binary test operators spelled as words.
const BINARY: [&str; 13] = ["==", "=", "!=", "=~", "-eq", "-ne", "-lt", "-le", "-gt", "-ge", "-nt", "-ot", "-ef"];

/// One token of a conditional expression.
enum CondToken {
    /// `]]`.
    End,
    /// A shell operator: `&&`, `||`, `(`, `)`, `<`, `>`, `;`, `|`...
    Op(&'static str),
    /// A newline.
    Newline,
    /// The end of the input.
    Eof,
    /// A word.
    Word(Word),
    /// A redirection's number (`2` in `2>x`) or `{name}` (in `{fd}>x`): bash
    /// knows these by their token codes only and prints the code.
    Numbered(u32),
}

impl CondToken {
    /// The token as bash names it in messages; `None` for a word, which
    /// bash 5.2 does not name.
    fn name(&self) -> Option<&str> {
        match self {
            CondToken::End => Some("]]"),
            CondToken::Op(op) => Some(op),
            CondToken::Newline => Some("newline"),
            CondToken::Eof => Some("EOF"),
            CondToken::Word(_) | CondToken::Numbered(_) => None,
        }
    }
}

/// The token after a complete test, and where it starts.
struct Lookahead {
    token: CondToken,
    pos: usize,
}

impl Parser<'_> {
    /// Reads the rest of `[[ ... ]]`, `[[` already read.
    pub(super) fn cond_command(&mut self) -> PResult<CompoundCommand> {
        let saved = self.extglob;
        let saved_cond = std::mem::replace(&mut self.cond_extglob, saved);
        let start = self.pos;
        let saved_start = std::mem::replace(&mut self.cond_start, start);
        self.cond_final_newline_read = false;
        let result = self.cond_body(start);
        self.extglob = saved;
        self.cond_extglob = saved_cond;
        let result = result.map_err(|fail| self.cond_recovery(fail));
        self.cond_start = saved_start;
        result
    }

    /// After a `[[ ]]` error bash's parser discards tokens up to the end of
    /// the line, still reading them: a quote, `${` or `$(` left open there
    /// is reported too (and a wrong token inside `$( )` ends the shell).
    fn cond_recovery(&mut self, mut fail: Fail) -> Fail {
        let ParseErrorKind::Conditional(error) = &mut fail.kind else { return fail };
        if error.at_end {
            return fail;
        }
        // Where a command may start, `name[` reads to its `]` there too.
        let mut command_position = false;
        loop {
            self.skip_space();
            match self.cur() {
                None | Some(b'\n') => break,
                Some(_) => {}
            }
            let process_substitution = self.looking_at("<(") || self.looking_at(">(");
            if let Some(op) = self.peek_op().filter(|_| !process_substitution) {
                self.pos += op.len();
                command_position = matches!(op, ";" | "&" | "&&" | "||" | "|" | "|&" | "(");
                continue;
            }
            let before = self.pos;
            let word = if command_position { self.subscripted_word() } else { Ok(None) };
            let word = match word {
                Ok(None) => self.read_word(WordContext::Normal),
                other => other,
            };
            command_position = false;
            match word {
                Ok(Some(_)) => {}
                Ok(None) => self.pos = before + self.cur_char().map_or(1, char::len_utf8),
                Err(inner) => {
                    let inner = self.to_error(inner);
                    // Such a token runs to the end of the input.
                    error.at_end = true;
                    error.messages.push((inner.line, inner.to_string()));
                    if let Some(line) = &inner.source_line {
                        error.messages.push((inner.line, format!("`{line}'")));
                    }
                    break;
                }
            }
        }
        fail
    }

    fn cond_body(&mut self, start: usize) -> PResult<CompoundCommand> {
        let (expr, next) = self.cond_or()?;
        match next.token {
            CondToken::End => Ok(CompoundCommand::Cond(expr)),
            CondToken::Eof => Err(self.cond_fail_at(self.line_at(start), "unexpected EOF while looking for `]]'".to_string(), true, true)),
            token => {
                let message = match token.name() {
                    Some(name) => format!("syntax error in conditional expression: unexpected token `{name}'"),
                    None => "syntax error in conditional expression".to_string(),
                };
                Err(self.cond_fail(self.line_at(start), message))
            }
        }
    }

    /// `a || b`: returns the expression and the token after it.
    fn cond_or(&mut self) -> PResult<(CondExpr, Lookahead)> {
        let (left, next) = self.cond_and()?;
        if !matches!(next.token, CondToken::Op("||")) {
            return Ok((left, next));
        }
        self.enter()?;
        let (right, next) = self.cond_or()?;
        self.leave();
        Ok((CondExpr::Or(Box::new(left), Box::new(right)), next))
    }

    /// `a && b`.
    fn cond_and(&mut self) -> PResult<(CondExpr, Lookahead)> {
        let (left, next) = self.cond_term()?;
        if !matches!(next.token, CondToken::Op("&&")) {
            return Ok((left, next));
        }
        self.enter()?;
        let (right, next) = self.cond_and()?;
        self.leave();
        Ok((CondExpr::And(Box::new(left), Box::new(right)), next))
    }

    /// One test: `( expr )`, `! term`, `-op word`, `word op word` or a
    /// lone `word`.
    fn cond_term(&mut self) -> PResult<(CondExpr, Lookahead)> {
        let Lookahead { token, pos } = self.cond_token_after_newlines().map_err(|fail| self.cond_lexing_failure(fail, None))?;
        match token {
            // An operand missing before `]]`: bash's parser stops with no message.
            CondToken::End => Err(self.cond_fail_silently(pos)),
            CondToken::Op("(") => self.cond_group(pos),
            CondToken::Word(word) if word_text(&word) == Some("!") => {
                self.enter()?;
                let (inner, next) = self.cond_term()?;
                self.leave();
                Ok((CondExpr::Not(Box::new(inner)), next))
            }
            CondToken::Word(word) => match word_text(&word).filter(|text| UNARY.contains(text)) {
                Some(op) => {
                    let op = op.to_string();
                    self.cond_unary(op)
                }
                None => self.cond_binary(word),
            },
            CondToken::Numbered(code) => Err(self.token_fail(&token, pos, format!("unexpected token {code} in conditional command"))),
            token => {
                let name = token.name().unwrap_or_default();
                Err(self.token_fail(&token, pos, format!("unexpected token `{name}' in conditional command")))
            }
        }
    }

    /// `( expr )`, the `(` read at `open`.
    fn cond_group(&mut self, open: usize) -> PResult<(CondExpr, Lookahead)> {
        self.enter()?;
        let inner = self.cond_or();
        self.leave();
        let (inner, next) = match inner {
            Ok(result) => result,
            Err(Fail { kind: ParseErrorKind::Conditional(mut error), pos }) => {
                error.messages.push((self.line_at(open), "expected `)'".to_string()));
                return Err(Fail { kind: ParseErrorKind::Conditional(error), pos });
            }
            Err(fail) => return Err(fail),
        };
        let Lookahead { token, pos } = next;
        match token {
            CondToken::Op(")") => {
                let next = self.cond_lookahead()?;
                Ok((CondExpr::Group(Box::new(inner)), next))
            }
            token => {
                let message = match token.name() {
                    Some(name) => format!("unexpected token `{name}', expected `)'"),
                    None => "expected `)'".to_string(),
                };
                Err(self.cond_fail_at(self.line_at(open), message, self.ends_input(&token, pos), matches!(token, CondToken::Eof)))
            }
        }
    }

    /// `-op word`, the operator read.
    fn cond_unary(&mut self, op: String) -> PResult<(CondExpr, Lookahead)> {
        let Lookahead { token, pos } = self.cond_operand(WordContext::Pattern, "unexpected argument to conditional unary operator")?;
        let CondToken::Word(operand) = token else {
            let message = match token.name() {
                Some(name) => format!("unexpected argument `{name}' to conditional unary operator"),
                None => "unexpected argument to conditional unary operator".to_string(),
            };
            return Err(self.token_fail(&token, pos, message));
        };
        let next = self.cond_lookahead()?;
        Ok((CondExpr::Unary(op, operand), next))
    }

    /// `left op right`, or `left` alone (a test of its length, as `-n`)
    /// when `]]`, `&&`, `||` or `)` follows it.
    fn cond_binary(&mut self, left: Word) -> PResult<(CondExpr, Lookahead)> {
        let Lookahead { token, pos } = self.cond_operand(WordContext::Pattern, "conditional binary operator expected")?;
        let op = match token {
            CondToken::Word(word) => match word_text(&word).filter(|text| BINARY.contains(text)) {
                Some(op) => op.to_string(),
                None => return Err(self.cond_fail(self.line_at(pos), "conditional binary operator expected".to_string())),
            },
            CondToken::Op(op @ ("<" | ">")) => op.to_string(),
            CondToken::End | CondToken::Op("&&" | "||" | ")") => return Ok((CondExpr::Word(left), Lookahead { token, pos })),
            CondToken::Numbered(_) => return Err(self.cond_fail(self.line_at(pos), "conditional binary operator expected".to_string())),
            token => {
                let name = token.name().unwrap_or_default();
                let message = format!("unexpected token `{name}', conditional binary operator expected");
                return Err(self.token_fail(&token, pos, message));
            }
        };
        let context = if op == "=~" { WordContext::Regex } else { WordContext::Pattern };
        // The right side of `==`, `=` and `!=` is a pattern with extglob on,
        // whatever the shell's setting (the other operands follow it).
        let pattern = matches!(op.as_str(), "==" | "=" | "!=");
        let extglob = self.extglob || pattern;
        let saved = std::mem::replace(&mut self.extglob, extglob);
        let right = self.cond_operand(context, "unexpected argument to conditional binary operator");
        self.extglob = saved;
        let Lookahead { token, pos } = right?;
        let CondToken::Word(right) = token else {
            let message = match token.name() {
                Some(name) => format!("unexpected argument `{name}' to conditional binary operator"),
                None => "unexpected argument to conditional binary operator".to_string(),
            };
            return Err(self.token_fail(&token, pos, message));
        };
        let next = self.cond_lookahead()?;
        let expr = if op == "=~" { CondExpr::Regex(left, right) } else { CondExpr::Binary(op, left, right) };
        Ok((expr, next))
    }

    /// The token after a complete test (newlines skipped). A token that
    /// does not end (an unclosed quote) runs to the end of the input, and
    /// bash then also reports the `]]` it never found.
    fn cond_lookahead(&mut self) -> PResult<Lookahead> {
        self.cond_token_after_newlines().map_err(|fail| {
            let line = self.line_at(self.cond_start);
            self.cond_lexing_failure(fail, Some((line, "unexpected EOF while looking for `]]'")))
        })
    }

    /// An operand or operator after the first word of a test; a token that
    /// does not end is followed by bash's `missing` message for the place.
    fn cond_operand(&mut self, context: WordContext, missing: &'static str) -> PResult<Lookahead> {
        self.cond_token(context, false).map_err(|fail| {
            let line = self.eof_line(&LineIndex::new(&self.text));
            self.cond_lexing_failure(fail, Some((line, missing)))
        })
    }

    /// An unclosed quote (or `$(`, `${`) met while reading a token of the
    /// expression, as a conditional error: its message, then `then`'s.
    fn cond_lexing_failure(&self, fail: Fail, then: Option<(usize, &str)>) -> Fail {
        if !matches!(fail.kind, ParseErrorKind::UnterminatedQuote(_)) {
            return fail;
        }
        let pos = fail.pos;
        let inner = self.to_error(fail);
        let mut messages = vec![(inner.line, inner.to_string())];
        messages.extend(then.map(|(line, text)| (line, text.to_string())));
        let error = ConditionalError { messages, at_end: true, needs_more_input: true };
        Fail { kind: ParseErrorKind::Conditional(error), pos }
    }

    /// The next token that is not a newline.
    fn cond_token_after_newlines(&mut self) -> PResult<Lookahead> {
        loop {
            let next = self.cond_token(WordContext::Pattern, true)?;
            if !matches!(next.token, CondToken::Newline) {
                return Ok(next);
            }
        }
    }

    /// Reads one token, skipping blanks and a comment before it. In a
    /// regular expression (after `=~`) an operator character other than
    /// `(` or `|` ends an empty word, as in bash. `term_start`: a test may
    /// start here, so `!(` is `!` and a group unless extglob is on.
    fn cond_token(&mut self, context: WordContext, term_start: bool) -> PResult<Lookahead> {
        self.step()?;
        self.skip_space();
        let pos = self.pos;
        let token = match self.cur() {
            // Bash reads a newline after the last line when the text has none.
            None if !self.text.ends_with('\n') && !self.cond_final_newline_read => {
                self.cond_final_newline_read = true;
                CondToken::Newline
            }
            None => CondToken::Eof,
            Some(b'\n') => {
                self.newline()?;
                CondToken::Newline
            }
            Some(_) if self.at_reserved("]]") => {
                self.pos += 2;
                self.token()?;
                CondToken::End
            }
            // With the shell's extglob off, `!(` is `!` and a group.
            Some(b'!') if term_start && !self.cond_extglob && self.looking_at("!(") => {
                self.pos += 1;
                self.token()?;
                CondToken::Word(Word { parts: Seq::from(vec![WordPart::Literal("!".into())]), span: self.span(pos, self.pos) })
            }
            Some(byte) => match (self.redirection_number(), self.peek_op()) {
                (Some((length, code)), _) => {
                    self.pos += length;
                    self.token()?;
                    CondToken::Numbered(code)
                }
                // `<(list)` and `>(list)` are words here too.
                (None, Some("<" | ">")) if self.peek_at(1) == Some(b'(') => match self.read_word(WordContext::Normal)? {
                    Some(word) => CondToken::Word(word),
                    None => return self.unexpected(),
                },
                (None, Some(_)) if context == WordContext::Regex && !matches!(byte, b'(' | b'|') => {
                    CondToken::Word(Word { parts: Seq::new(), span: self.span(pos, pos) })
                }
                (None, Some(op)) if context != WordContext::Regex => {
                    self.pos += op.len();
                    self.token()?;
                    CondToken::Op(op)
                }
                _ => match self.read_word(context)? {
                    Some(word) => CondToken::Word(word),
                    None => return self.unexpected(),
                },
            },
        };
        Ok(Lookahead { token, pos })
    }

    /// At `2>` or `{name}>` (or `<`): the length of the number or braced
    /// name, and the code bash's grammar gives that token (284 for a
    /// number, 283 for a braced name).
    fn redirection_number(&self) -> Option<(usize, u32)> {
        let length = self.fd_prefix_length()?;
        Some((length, if self.cur() == Some(b'{') { 283 } else { 284 }))
    }

    /// A conditional-expression error: `message` on line `line`, failing at
    /// a token that is not the end of the input.
    fn cond_fail(&self, line: usize, message: String) -> Fail {
        self.cond_fail_at(line, message, false, false)
    }

    /// A conditional-expression error (`at_end`: the token it failed at was
    /// the input's last; `at_eof`: that token was the end itself).
    fn cond_fail_at(&self, line: usize, message: String, at_end: bool, at_eof: bool) -> Fail {
        let error = ConditionalError { messages: vec![(line, message)], at_end, needs_more_input: at_eof };
        Fail { kind: ParseErrorKind::Conditional(error), pos: self.pos }
    }

    /// A conditional-expression error at `token`, read at `pos`: on the
    /// token's line (the end of the input is one past the last line).
    fn token_fail(&self, token: &CondToken, pos: usize, message: String) -> Fail {
        let at_eof = matches!(token, CondToken::Eof);
        let line = if at_eof { self.eof_line(&LineIndex::new(&self.text)) } else { self.line_at(pos) };
        self.cond_fail_at(line, message, self.ends_input(token, pos), at_eof)
    }

    /// True when `token` (read at `pos`) is the end of the input or the
    /// newline that ends it.
    fn ends_input(&self, token: &CondToken, pos: usize) -> bool {
        match token {
            CondToken::Eof => true,
            CondToken::Newline => self.text.get(pos..).is_none_or(|rest| rest.is_empty() || rest == "\n"),
            _ => false,
        }
    }

    /// The error for an operand missing before `]]`: no message.
    fn cond_fail_silently(&self, pos: usize) -> Fail {
        let error = ConditionalError { messages: Vec::new(), at_end: false, needs_more_input: false };
        Fail { kind: ParseErrorKind::Conditional(error), pos }
    }

    /// The 1-based line of byte offset `pos`.
    fn line_at(&self, pos: usize) -> usize {
        LineIndex::new(&self.text).line_of(pos)
    }
}

/// The text of a word made of one literal part (operators are such words).
fn word_text(word: &Word) -> Option<&str> {
    match word.parts.as_slice() {
        [WordPart::Literal(text)] => Some(text.as_str()),
        _ => None,
    }
}
