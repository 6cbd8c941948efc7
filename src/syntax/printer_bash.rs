//! Functions as `declare -f`, `type` and `command -V` show them: bash's own
//! layout (four-space indents, `;` after each command of a block, `do` on a
//! line of its own after `for`, `elif` as a nested `if`), not the source text.

use super::ast::{
    AndOr, Argument, AssignValue, Assignment, CaseTerminator, Command, CompoundCommand, FunctionDef, HereDoc, List, Pipeline, Redirect,
    RedirectOp, RedirectTarget, Seq, SimpleCommand, Span, Word, WordPart,
};
use super::printer::{
    and_or_symbol, heredoc_delimiter, heredoc_text, pipe_before, pipeline_prefix, print_word, redirect_fd_text, redirect_symbol,
    write_heredocs, Printer,
};
use super::printer_expr::cond_text;
use super::subst::arith_close_in;

/// Prints a function definition as bash lists it; `source` is the text its
/// spans point into.
pub fn function_definition(function: &FunctionDef, source: &str) -> String {
    let mut layout = Layout { out: String::new(), source, heredocs: Vec::new(), after_heredoc: false };
    layout.function(function, 0, false);
    layout.out
}

/// The text being built.
struct Layout<'a> {
    out: String,
    source: &'a str,
    /// Here-document bodies waiting for the end of the line.
    heredocs: Vec<String>,
    /// A here-document body was just written: the next separator is a bare newline.
    after_heredoc: bool,
}

/// How a list is laid out.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Shape {
    /// One command per line, every one followed by `;` (before `fi`, `done`, `else`).
    Block,
    /// One command per line, the last without `;` (`{ }`, a function, a `case` clause).
    Open,
    /// On the current line, separated by `; ` (conditions).
    Inline,
}

impl Layout<'_> {
    fn indent(&mut self, level: usize) {
        for _ in 0..level {
            self.out.push_str("    ");
        }
    }

    /// A function definition; a `nested` one gets the `function` keyword.
    fn function(&mut self, function: &FunctionDef, level: usize, nested: bool) {
        if nested {
            self.out.push_str("function ");
        }
        self.out.push_str(&function.name);
        self.out.push_str(" () \n");
        self.indent(level);
        match function.body.as_ref() {
            CompoundCommand::BraceGroup(list) => self.brace_group(list, level),
            other => {
                // bash wraps any other body in braces.
                self.out.push_str("{ \n");
                self.indent(level + 1);
                self.compound(other, Span::default(), level + 1);
                self.out.push('\n');
                self.indent(level);
                self.out.push('}');
            }
        }
        self.redirects(&function.redirects);
    }

    fn brace_group(&mut self, list: &List, level: usize) {
        self.out.push_str("{ \n");
        self.list(list, level + 1, Shape::Open);
        self.out.push('\n');
        self.indent(level);
        self.out.push('}');
    }

    /// Writes `list`; block shapes start each command on a new line at `level`.
    /// As in bash, a `;` is left out after a line that ends a here-document
    /// body, and after the command that follows one.
    fn list(&mut self, list: &List, level: usize, shape: Shape) {
        let count = list.items.len();
        for (index, item) in list.items.iter().enumerate() {
            let last = index + 1 == count;
            let continues_line = index > 0 && list.items.get(index - 1).is_some_and(|previous| previous.background);
            if shape != Shape::Inline && !continues_line {
                self.indent(level);
            }
            self.and_or(&item.and_or, level);
            if item.background {
                self.out.push_str(" &");
            }
            if last {
                self.flush_heredocs();
                if shape == Shape::Block {
                    if !self.out.ends_with('\n') && !self.out.ends_with('&') {
                        self.out.push(';');
                    }
                    self.out.push('\n');
                }
                continue;
            }
            if item.background {
                self.after_heredoc = false;
                self.flush_heredocs();
                self.out.push(' ');
                continue;
            }
            if !self.heredocs.is_empty() {
                self.flush_heredocs();
            } else if self.after_heredoc {
                self.after_heredoc = false;
            } else {
                self.out.push(';');
            }
            self.out.push(if shape == Shape::Inline { ' ' } else { '\n' });
        }
    }

    fn flush_heredocs(&mut self) {
        if write_heredocs(&mut self.out, &mut self.heredocs) {
            self.after_heredoc = true;
        }
    }

    fn and_or(&mut self, and_or: &AndOr, level: usize) {
        self.pipeline(&and_or.first, level);
        for (op, pipeline) in &and_or.rest {
            self.out.push_str(and_or_symbol(*op));
            self.pipeline(pipeline, level);
        }
    }

    fn pipeline(&mut self, pipeline: &Pipeline, level: usize) {
        self.out.push_str(pipeline_prefix(pipeline));
        for (index, command) in pipeline.commands.iter().enumerate() {
            self.out.push_str(pipe_before(pipeline, index));
            self.command(command, level);
        }
    }

    fn command(&mut self, command: &Command, level: usize) {
        match command {
            Command::Simple(simple) => {
                // Words and assignments as written, as bash keeps them.
                let mut texts: Vec<String> =
                    simple.assignments.iter().map(|a| self.written(a.span, || Self::printed_assignment(a))).collect();
                for argument in &simple.words {
                    texts.push(match argument {
                        Argument::Word(word) => self.word(word),
                        Argument::Assignment(assignment) => self.written(assignment.span, || Self::printed_assignment(assignment)),
                    });
                }
                self.out.push_str(&texts.join(" "));
                if !simple.redirects.is_empty() {
                    if !texts.is_empty() {
                        self.out.push(' ');
                    }
                    self.redirect_list(&simple.redirects);
                }
            }
            Command::Compound(compound, redirects, span) => {
                self.compound(compound, *span, level);
                self.redirects(redirects);
            }
            Command::FunctionDef(function) => self.function(function, level, true),
        }
    }

    fn compound(&mut self, compound: &CompoundCommand, span: Span, level: usize) {
        match compound {
            CompoundCommand::BraceGroup(list) => self.brace_group(list, level),
            CompoundCommand::Subshell(list) => {
                self.out.push_str("( ");
                let count = list.items.len();
                for (index, item) in list.items.iter().enumerate() {
                    if index > 0 {
                        self.indent(level);
                    }
                    self.and_or(&item.and_or, level);
                    if item.background {
                        self.out.push_str(" &");
                    }
                    self.flush_heredocs();
                    if index + 1 < count {
                        self.out.push_str(if item.background { "\n" } else { ";\n" });
                    }
                }
                self.out.push_str(" )");
            }
            CompoundCommand::If { branches, else_body } => self.if_branches(branches, else_body.as_ref(), level),
            CompoundCommand::For { name, words, body } | CompoundCommand::Select { name, words, body } => {
                self.out.push_str(if matches!(compound, CompoundCommand::For { .. }) { "for " } else { "select " });
                self.out.push_str(name);
                self.out.push_str(" in ");
                match words {
                    Some(words) => {
                        let texts: Vec<String> = words.iter().map(|word| self.word(word)).collect();
                        self.out.push_str(&texts.join(" "));
                    }
                    None => self.out.push_str("\"$@\""),
                }
                self.out.push_str(";\n");
                self.do_done(body, level);
            }
            CompoundCommand::ArithFor { body, .. } => {
                let header = self.arith_for_header(span);
                self.out.push_str("for ((");
                self.out.push_str(&header);
                self.out.push_str("))\n");
                self.do_done(body, level);
            }
            CompoundCommand::While { condition, body } | CompoundCommand::Until { condition, body } => {
                self.out.push_str(if matches!(compound, CompoundCommand::While { .. }) { "while " } else { "until " });
                self.list(condition, level, Shape::Inline);
                self.out.push_str("; do\n");
                self.list(body, level + 1, Shape::Block);
                self.indent(level);
                self.out.push_str("done");
            }
            CompoundCommand::Case { word, clauses } => {
                self.out.push_str("case ");
                let text = self.word(word);
                self.out.push_str(&text);
                self.out.push_str(" in \n");
                for clause in clauses {
                    self.indent(level + 1);
                    let patterns: Vec<String> = clause.patterns.iter().map(|pattern| self.word(pattern)).collect();
                    self.out.push_str(&patterns.join(" | "));
                    self.out.push_str(")\n");
                    if clause.body.items.is_empty() {
                        self.out.push('\n');
                    } else {
                        self.list(&clause.body, level + 2, Shape::Open);
                        self.out.push('\n');
                    }
                    self.indent(level + 1);
                    self.out.push_str(match clause.terminator {
                        CaseTerminator::Break => ";;",
                        CaseTerminator::FallThrough => ";&",
                        CaseTerminator::Continue => ";;&",
                    });
                    self.out.push('\n');
                }
                self.indent(level);
                self.out.push_str("esac");
            }
            CompoundCommand::Arith(_) => {
                let inner = self.arith_text(span);
                self.out.push_str("(( ");
                self.out.push_str(inner.trim());
                self.out.push_str(" ))");
            }
            CompoundCommand::Cond(expr) => {
                self.out.push_str("[[ ");
                self.out.push_str(&cond_text(expr));
                self.out.push_str(" ]]");
            }
            CompoundCommand::Coproc { .. } => {
                let mut printer = Printer::default();
                printer.print_compound(compound);
                self.out.push_str(&printer.out);
            }
        }
    }

    /// The source text at `span`, or `printed()` when the span does not
    /// point into the source.
    fn written(&self, span: Span, printed: impl FnOnce() -> String) -> String {
        match self.source.get(span.start as usize..span.end as usize) {
            Some(text) if span.start < span.end && !text.contains('\n') && !text.contains("$'") => text.to_string(),
            _ => printed(),
        }
    }

    fn word(&self, word: &Word) -> String {
        self.written(word.span, || printed_word(word))
    }

    fn printed_assignment(assignment: &Assignment) -> String {
        if let AssignValue::Scalar(value) = &assignment.value {
            if assignment.index.is_none() {
                return format!("{}{}{}", assignment.name, if assignment.append { "+=" } else { "=" }, printed_word(value));
            }
        }
        let mut printer = Printer::default();
        printer.print_simple(&SimpleCommand {
            assignments: vec![assignment.clone()],
            words: Vec::new(),
            redirects: Vec::new(),
            span: Span::default(),
        });
        printer.out
    }

    fn if_branches(&mut self, branches: &[(List, List)], else_body: Option<&List>, level: usize) {
        let Some(((condition, body), rest)) = branches.split_first() else { return };
        self.out.push_str("if ");
        self.list(condition, level, Shape::Inline);
        self.out.push_str("; then\n");
        self.list(body, level + 1, Shape::Block);
        if !rest.is_empty() {
            // `elif` comes out as an `if` inside `else`.
            self.indent(level);
            self.out.push_str("else\n");
            self.indent(level + 1);
            self.if_branches(rest, else_body, level + 1);
            self.out.push_str(";\n");
        } else if let Some(else_body) = else_body {
            self.indent(level);
            self.out.push_str("else\n");
            self.list(else_body, level + 1, Shape::Block);
        }
        self.indent(level);
        self.out.push_str("fi");
    }

    fn do_done(&mut self, body: &List, level: usize) {
        self.indent(level);
        self.out.push_str("do\n");
        self.list(body, level + 1, Shape::Block);
        self.indent(level);
        self.out.push_str("done");
    }

    /// The text between `((` and `))` of an arithmetic command.
    fn arith_text(&self, span: Span) -> String {
        let text = self.source.get(span.start as usize..span.end as usize).unwrap_or_default();
        let Some(inner) = text.strip_prefix("((") else { return String::new() };
        match arith_close_in(inner.as_bytes(), 0) {
            Some(close) => inner.get(..close).unwrap_or_default().to_string(),
            None => inner.trim_end_matches(')').to_string(),
        }
    }

    /// `init; cond; step` of `for ((...))`, each part trimmed.
    fn arith_for_header(&self, span: Span) -> String {
        let text = self.source.get(span.start as usize..span.end as usize).unwrap_or_default();
        let Some(open) = text.find("((") else { return "; ; ".to_string() };
        let inner = &text[open + 2..];
        let inner = match arith_close_in(inner.as_bytes(), 0) {
            Some(close) => inner.get(..close).unwrap_or_default(),
            None => inner,
        };
        inner.split(';').map(str::trim).collect::<Vec<_>>().join("; ")
    }

    fn redirects(&mut self, redirects: &[Redirect]) {
        if !redirects.is_empty() {
            self.out.push(' ');
            self.redirect_list(redirects);
        }
    }

    /// Redirections as bash prints them: `2> file`, `1>&2`, `<<< "x"`.
    fn redirect_list(&mut self, redirects: &[Redirect]) {
        for (index, redirect) in redirects.iter().enumerate() {
            if index > 0 {
                self.out.push(' ');
            }
            match &redirect.fd {
                Some(fd) => self.out.push_str(&redirect_fd_text(fd)),
                None if redirect.op == RedirectOp::DupOutput => self.out.push('1'),
                None if redirect.op == RedirectOp::DupInput => self.out.push('0'),
                None => {}
            }
            self.out.push_str(redirect_symbol(redirect.op));
            // bash puts a space before a file name, none before an fd or a delimiter.
            if !matches!(redirect.op, RedirectOp::DupInput | RedirectOp::DupOutput | RedirectOp::HereDoc | RedirectOp::HereDocStrip) {
                self.out.push(' ');
            }
            match &redirect.target {
                RedirectTarget::Word(word) => {
                    let text = self.word(word);
                    self.out.push_str(&text);
                }
                RedirectTarget::HereDoc(heredoc) => self.heredoc(heredoc),
            }
        }
    }

    fn heredoc(&mut self, heredoc: &HereDoc) {
        self.out.push_str(&heredoc_delimiter(heredoc));
        self.heredocs.push(heredoc_text(heredoc));
    }
}

/// A word printed from its parts, with `$'...'` strings in the
/// single-quoted form bash keeps after reading them.
fn printed_word(word: &Word) -> String {
    if !word.parts.iter().any(|part| matches!(part, WordPart::AnsiCQuoted(_))) {
        return print_word(word);
    }
    let mut out = String::new();
    for part in word.parts.iter() {
        match part {
            WordPart::AnsiCQuoted(bytes) => {
                out.push('\'');
                out.push_str(&String::from_utf8_lossy(bytes).replace('\'', "'\\''"));
                out.push('\'');
            }
            other => out.push_str(&print_word(&Word { parts: Seq::One(other.clone()), span: Span::default() })),
        }
    }
    out
}
