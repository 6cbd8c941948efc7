//! gawk's `switch` statement: constant `case` labels (numbers, strings,
//! regexes), `default`, fallthrough, and gawk's checks for duplicates.

use super::{PResult, ParseError, Parser, Style};
use crate::commands::text::awk::ast::*;
use crate::commands::text::awk::format::number_to_string;
use crate::commands::text::awk::lexer::Tok;

impl<'a> Parser<'a> {
    /// `switch (e) { case v: stmts... default: stmts... }`.
    pub(super) fn switch_statement(&mut self) -> PResult<Stmt> {
        self.advance()?;
        self.expect_op("(")?;
        let subject = self.expr()?;
        self.expect_op(")")?;
        self.skip_newlines()?;
        self.expect_op("{")?;
        self.skip_newlines()?;
        let mut switch = Switch { subject, cases: Vec::new(), default: None, body: Vec::new() };
        let mut seen: Vec<(Vec<u8>, usize)> = Vec::new();
        self.in_switch += 1;
        let result = self.switch_labels(&mut switch, &mut seen);
        self.in_switch -= 1;
        result?;
        Ok(Stmt::Switch(Box::new(switch)))
    }

    fn switch_labels(&mut self, switch: &mut Switch, seen: &mut Vec<(Vec<u8>, usize)>) -> PResult<()> {
        let mut default_at = 0;
        loop {
            let at = self.tok.start;
            match self.tok.tok {
                Tok::Op("}") => {
                    self.advance()?;
                    return Ok(());
                }
                Tok::Key("case") => {
                    self.advance()?;
                    let value = self.case_value()?;
                    if let Some(text) = case_text(&value) {
                        // gawk names the line of the first of the two.
                        if let Some((_, first)) = seen.iter().find(|(seen, _)| *seen == text) {
                            let shown = String::from_utf8_lossy(&text).into_owned();
                            return Err(ParseError::new(format!("duplicate case values in switch body: {shown}"), *first, Style::Error));
                        }
                        seen.push((text, at));
                    }
                    self.expect_op(":")?;
                    switch.cases.push((value, switch.body.len()));
                }
                Tok::Key("default") => {
                    self.advance()?;
                    if switch.default.is_some() {
                        return Err(ParseError::new("duplicate `default' detected in switch body".into(), default_at, Style::Error));
                    }
                    default_at = at;
                    self.expect_op(":")?;
                    switch.default = Some(switch.body.len());
                }
                _ => return self.error(),
            }
            self.skip_terminators()?;
            while !self.is_op("}") && !self.is_key("case") && !self.is_key("default") {
                if self.tok.tok == Tok::Eof {
                    return self.error();
                }
                let start = self.tok.start;
                let stmt = self.statement()?;
                switch.body.push((start, stmt));
                self.skip_terminators()?;
            }
        }
    }

    /// A `case` constant: a number (with a sign), a string or a regex.
    fn case_value(&mut self) -> PResult<CaseValue> {
        let token = self.tok.clone();
        let value = match token.tok {
            Tok::Num(n) => CaseValue::Num(n),
            Tok::Str(s) => CaseValue::Str(s.into()),
            Tok::Regex(text) => CaseValue::Regex(self.regex_index(text, token.start)),
            Tok::TypedRegex(text) => {
                let index = self.regex_index(text, token.start);
                self.program.typed_regexes.push(index);
                CaseValue::Regex(index)
            }
            Tok::Op(sign @ ("-" | "+")) => {
                self.advance()?;
                let Tok::Num(n) = self.tok.tok else {
                    return self.error();
                };
                CaseValue::Num(if sign == "-" { -n } else { n })
            }
            _ => return self.error(),
        };
        self.advance()?;
        Ok(value)
    }
}

/// The text gawk compares to find duplicate cases (regexes are never
/// duplicates).
fn case_text(value: &CaseValue) -> Option<Vec<u8>> {
    match value {
        CaseValue::Num(n) => Some(number_to_string(*n, b"%.6g")),
        CaseValue::Str(s) => Some(s.to_vec()),
        CaseValue::Regex(_) => None,
    }
}
