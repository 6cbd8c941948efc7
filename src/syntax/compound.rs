//! Compound commands: `{ }`, `( )`, `(( ))`, `[[ ]]`, if, for, `for (( ))`,
//! select, while, until and case.

use super::ast::{ArithExpr, CaseClause, CaseTerminator, CompoundCommand, List, Word};
use super::error::ParseErrorKind;
use super::parser::{Fail, PResult, Parser};
use super::word::WordContext;

impl Parser<'_> {
    /// Reads a compound command if one starts here.
    pub(super) fn compound_command(&mut self) -> PResult<Option<CompoundCommand>> {
        if self.looking_at("((") {
            self.enter()?;
            let result = self.arith_command();
            self.leave();
            return result.map(Some);
        }
        if self.cur() == Some(b'(') {
            self.enter()?;
            let result = self.subshell();
            self.leave();
            return result.map(Some);
        }
        let word = match self.cur() {
            Some(b'{') => "{",
            Some(b'i') => "if",
            Some(b'f') => "for",
            Some(b's') => "select",
            Some(b'w') => "while",
            Some(b'u') => "until",
            Some(b'c') => "case",
            Some(b'[') => "[[",
            _ => return Ok(None),
        };
        if !self.at_reserved(word) {
            return Ok(None);
        }
        self.pos += word.len();
        self.token()?;
        self.enter()?;
        let result = match word {
            "{" => self.brace_group(),
            "if" => self.if_command(),
            "for" => self.for_command(false),
            "select" => self.for_command(true),
            "while" => self.while_command(false),
            "until" => self.while_command(true),
            "case" => self.case_command(),
            _ => self.cond_command(),
        };
        self.leave();
        result.map(Some)
    }

    fn brace_group(&mut self) -> PResult<CompoundCommand> {
        let body = self.nonempty_list()?;
        self.expect_reserved("}")?;
        Ok(CompoundCommand::BraceGroup(body))
    }

    fn subshell(&mut self) -> PResult<CompoundCommand> {
        self.pos += 1;
        self.token()?;
        let body = self.nonempty_list()?;
        if self.cur() != Some(b')') {
            return self.unexpected();
        }
        self.pos += 1;
        self.token()?;
        Ok(CompoundCommand::Subshell(body))
    }

    /// `(( expr ))`, or nested subshells when the parentheses do not close as arithmetic.
    fn arith_command(&mut self) -> PResult<CompoundCommand> {
        let start = self.pos;
        match self.arith_close(start + 2) {
            Some(close) => {
                let expr = self.arith_source(start + 2, close)?;
                self.pos = close + 2;
                self.token()?;
                Ok(CompoundCommand::Arith(expr))
            }
            None => match self.paren_scan_eof(start + 2) {
                Some(quote) => Err(Fail { kind: ParseErrorKind::UnterminatedQuote(quote), pos: start }),
                None => self.subshell(),
            },
        }
    }

    fn if_command(&mut self) -> PResult<CompoundCommand> {
        let mut branches = Vec::new();
        let mut else_body = None;
        loop {
            let condition = self.nonempty_list()?;
            self.expect_reserved("then")?;
            let body = self.nonempty_list()?;
            branches.push((condition, body));
            if self.eat_reserved("elif")? {
                continue;
            }
            if self.eat_reserved("else")? {
                else_body = Some(self.nonempty_list()?);
            }
            self.expect_reserved("fi")?;
            return Ok(CompoundCommand::If { branches, else_body });
        }
    }

    fn while_command(&mut self, until: bool) -> PResult<CompoundCommand> {
        let condition = self.nonempty_list()?;
        let body = self.do_group()?;
        Ok(if until { CompoundCommand::Until { condition, body } } else { CompoundCommand::While { condition, body } })
    }

    /// `do list done`, or `{ list }` as bash also accepts after `for`.
    fn do_group(&mut self) -> PResult<List> {
        self.skip_linebreaks()?;
        if self.eat_reserved("{")? {
            let body = self.nonempty_list()?;
            self.expect_reserved("}")?;
            return Ok(body);
        }
        self.expect_reserved("do")?;
        let body = self.nonempty_list()?;
        self.expect_reserved("done")?;
        Ok(body)
    }

    /// `for name [in words]; do ...; done` (and `select`), or `for (( ))`.
    fn for_command(&mut self, select: bool) -> PResult<CompoundCommand> {
        self.skip_space();
        if !select && self.looking_at("((") {
            return self.arith_for();
        }
        // Any word is a name here, kept as written; the interpreter refuses
        // one that is not an identifier when the loop runs, as bash does.
        self.refuse_fd_number()?;
        let name = match self.plain_word().map(str::to_string) {
            Some(name) => {
                self.pos += name.len();
                self.token()?;
                name
            }
            None => {
                let start = self.pos;
                if self.read_word(WordContext::Normal)?.is_none() {
                    return self.unexpected_word();
                }
                self.slice(start, self.pos).to_string()
            }
        };
        self.skip_space();
        let mut words = None;
        if self.eat_op(";")? {
            self.skip_linebreaks()?;
        } else {
            self.skip_linebreaks()?;
            if self.eat_reserved("in")? {
                let mut list = Vec::new();
                loop {
                    self.skip_space();
                    match self.read_word(WordContext::Normal)? {
                        Some(word) => list.push(word),
                        None => break,
                    }
                }
                if !self.eat_op(";")? && !self.newline()? {
                    return self.unexpected();
                }
                words = Some(list);
            }
        }
        if self.cur() == Some(b'(') {
            // After the name `((` is no arithmetic command: bash names the `(`.
            return self.fail(ParseErrorKind::UnexpectedToken("(".to_string()));
        }
        let body = self.do_group()?;
        Ok(if select { CompoundCommand::Select { name, words, body } } else { CompoundCommand::For { name, words, body } })
    }

    /// `for (( init; cond; step )); do ...; done`.
    fn arith_for(&mut self) -> PResult<CompoundCommand> {
        let start = self.pos;
        let Some(close) = self.arith_close(start + 2) else {
            if let Some(quote) = self.paren_scan_eof(start + 2) {
                return Err(Fail { kind: ParseErrorKind::UnterminatedQuote(quote), pos: start });
            }
            return self.unexpected();
        };
        let inner_start = start + 2;
        let inner = self.slice(inner_start, close).to_string();
        let mut pieces = Vec::new();
        let mut depth = 0i32;
        let mut piece_start = 0;
        for (index, byte) in inner.bytes().enumerate() {
            match byte {
                b'(' => depth += 1,
                b')' => depth -= 1,
                b';' if depth == 0 => {
                    pieces.push((piece_start, index));
                    piece_start = index + 1;
                }
                _ => {}
            }
        }
        pieces.push((piece_start, inner.len()));
        if pieces.len() != 3 {
            self.pos = close + 2;
            self.token()?;
            self.skip_space();
            if !self.eat_op(";")? {
                self.skip_linebreaks()?;
            }
            self.do_group()?;
            let message = if pieces.len() < 3 { "syntax error: arithmetic expression required" } else { "syntax error: `;' unexpected" };
            return Err(Fail {
                kind: ParseErrorKind::Detailed { message: message.to_string(), detail: format!("syntax error: `(({inner}))'") },
                pos: start,
            });
        }
        let mut exprs: Vec<Option<ArithExpr>> = Vec::new();
        for (from, to) in pieces {
            let text = inner.get(from..to).unwrap_or("");
            if text.trim().is_empty() {
                exprs.push(None);
            } else {
                exprs.push(Some(self.arith_source(inner_start + from, inner_start + to)?));
            }
        }
        self.pos = close + 2;
        self.token()?;
        self.skip_space();
        if !self.eat_op(";")? {
            self.skip_linebreaks()?;
        }
        let body = self.do_group()?;
        let mut exprs = exprs.into_iter();
        let (init, condition, step) = (exprs.next().flatten(), exprs.next().flatten(), exprs.next().flatten());
        Ok(CompoundCommand::ArithFor { init, condition, step, body })
    }

    /// `case word in pattern) list ;; ... esac`.
    fn case_command(&mut self) -> PResult<CompoundCommand> {
        self.skip_space();
        let Some(word) = self.read_word(WordContext::Pattern)? else {
            return self.unexpected_word();
        };
        self.skip_linebreaks()?;
        self.expect_reserved("in")?;
        let mut clauses = Vec::new();
        loop {
            self.skip_linebreaks()?;
            if self.eat_reserved("esac")? {
                break;
            }
            if self.cur().is_none() {
                return self.unexpected();
            }
            let patterns = self.case_patterns()?;
            let body = self.compound_list()?;
            self.skip_space();
            let terminator = if self.eat_op(";;&")? {
                CaseTerminator::Continue
            } else if self.eat_op(";;")? {
                CaseTerminator::Break
            } else if self.eat_op(";&")? {
                CaseTerminator::FallThrough
            } else if self.at_reserved("esac") {
                clauses.push(CaseClause { patterns, body, terminator: CaseTerminator::Break });
                continue;
            } else {
                return self.unexpected();
            };
            clauses.push(CaseClause { patterns, body, terminator });
        }
        Ok(CompoundCommand::Case { word, clauses })
    }

    /// `[(] pattern | pattern )`.
    fn case_patterns(&mut self) -> PResult<Vec<Word>> {
        if self.cur() == Some(b'(') {
            self.pos += 1;
            self.token()?;
        }
        let mut patterns = Vec::new();
        loop {
            self.skip_space();
            let Some(pattern) = self.read_word(WordContext::Pattern)? else {
                return self.unexpected_word();
            };
            patterns.push(pattern);
            self.skip_space();
            if self.eat_op("|")? {
                continue;
            }
            if self.eat_op(")")? {
                return Ok(patterns);
            }
            return self.unexpected_word();
        }
    }
}
