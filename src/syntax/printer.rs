//! The printer: a syntax tree back to bash source that parses to the same
//! tree (spans aside). It writes one canonical spelling (`; ` between
//! commands, arithmetic fully parenthesized), not the original text.

use super::ast::{
    AndOr, AndOrOp, Argument, ArithExpr, ArrayElement, AssignValue, Assignment, CaseTerminator, Command, CompoundCommand, HereDoc, List,
    Pipeline, Redirect, RedirectFd, RedirectOp, RedirectTarget, SimpleCommand, TimeFormat, Word, WordPart,
};
use super::printer_expr::{arith_text, cond_text};
use super::subst::arith_close_in;

/// Prints a list as source text.
pub fn print(list: &List) -> String {
    let mut printer = Printer::default();
    printer.list(list, false);
    printer.flush_heredocs();
    printer.out
}

/// Prints a single word as source text.
pub fn print_word(word: &Word) -> String {
    let mut printer = Printer::default();
    printer.word(word);
    printer.out
}

/// ` && ` or ` || `.
pub(super) fn and_or_symbol(op: AndOrOp) -> &'static str {
    match op {
        AndOrOp::And => " && ",
        AndOrOp::Or => " || ",
    }
}

/// `time `, `time -p ` and `! ` as they stand before a pipeline.
pub(super) fn pipeline_prefix(pipeline: &Pipeline) -> &'static str {
    match (pipeline.timed, pipeline.negated) {
        (Some(TimeFormat::Default), true) => "time ! ",
        (Some(TimeFormat::Default), false) => "time ",
        (Some(TimeFormat::Posix), true) => "time -p ! ",
        (Some(TimeFormat::Posix), false) => "time -p ",
        (None, true) => "! ",
        (None, false) => "",
    }
}

/// What stands before command `index` of a pipeline: nothing, ` | ` or ` |& `.
pub(super) fn pipe_before(pipeline: &Pipeline, index: usize) -> &'static str {
    match index.checked_sub(1).map(|previous| pipeline.pipe_stderr.get(previous).copied().unwrap_or(false)) {
        None => "",
        Some(true) => " |& ",
        Some(false) => " | ",
    }
}

/// The fd before a redirection operator: `2`, `{name}`.
pub(super) fn redirect_fd_text(fd: &RedirectFd) -> String {
    match fd {
        RedirectFd::Number(fd) => fd.to_string(),
        RedirectFd::Variable(name) => format!("{{{name}}}"),
    }
}

/// A redirection operator as written.
pub(super) fn redirect_symbol(op: RedirectOp) -> &'static str {
    match op {
        RedirectOp::Input => "<",
        RedirectOp::Output => ">",
        RedirectOp::Append => ">>",
        RedirectOp::Clobber => ">|",
        RedirectOp::ReadWrite => "<>",
        RedirectOp::DupInput => "<&",
        RedirectOp::DupOutput => ">&",
        RedirectOp::OutputBoth => "&>",
        RedirectOp::AppendBoth => "&>>",
        RedirectOp::HereString => "<<<",
        RedirectOp::HereDoc => "<<",
        RedirectOp::HereDocStrip => "<<-",
    }
}

/// Writes a newline and the `pending` here-document bodies to `out`, if
/// any; true when there were some.
pub(super) fn write_heredocs(out: &mut String, pending: &mut Vec<String>) -> bool {
    if pending.is_empty() {
        return false;
    }
    out.push('\n');
    for body in std::mem::take(pending) {
        out.push_str(&body);
    }
    true
}

/// A here-document's delimiter as written after `<<`: quoted when its body is literal.
pub(super) fn heredoc_delimiter(heredoc: &HereDoc) -> String {
    if heredoc.quoted {
        format!("'{}'", heredoc.delimiter)
    } else {
        heredoc.delimiter.clone()
    }
}

/// A here-document's body followed by its delimiter line.
pub(super) fn heredoc_text(heredoc: &HereDoc) -> String {
    let mut body = Printer::default();
    for part in &heredoc.body.parts {
        body.heredoc_part(part, heredoc.quoted);
    }
    let mut text = body.out;
    if !text.is_empty() && !text.ends_with('\n') {
        text.push('\n');
    }
    text.push_str(&heredoc.delimiter);
    text.push('\n');
    text
}

/// Text being built, with the here-document bodies that must follow the next newline.
#[derive(Default)]
pub(super) struct Printer {
    /// The source text so far.
    pub out: String,
    /// Bodies (already terminated by their delimiter line) waiting for a newline.
    heredocs: Vec<String>,
}

impl Printer {
    /// Writes a list; with `terminate`, the last command gets a terminator too.
    fn list(&mut self, list: &List, terminate: bool) {
        let count = list.items.len();
        for (index, item) in list.items.iter().enumerate() {
            self.and_or(&item.and_or);
            let last = index + 1 == count;
            if item.background {
                self.out.push_str(" &");
            } else if (!last || terminate) && self.heredocs.is_empty() {
                self.out.push(';');
            }
            if !self.heredocs.is_empty() {
                self.flush_heredocs();
            } else if !last || terminate {
                self.out.push(' ');
            }
        }
    }

    /// Writes a newline and the pending here-document bodies.
    fn flush_heredocs(&mut self) {
        write_heredocs(&mut self.out, &mut self.heredocs);
    }

    fn and_or(&mut self, and_or: &AndOr) {
        self.pipeline(&and_or.first);
        for (op, pipeline) in &and_or.rest {
            self.out.push_str(and_or_symbol(*op));
            self.pipeline(pipeline);
        }
    }

    fn pipeline(&mut self, pipeline: &Pipeline) {
        self.out.push_str(pipeline_prefix(pipeline));
        for (index, command) in pipeline.commands.iter().enumerate() {
            self.out.push_str(pipe_before(pipeline, index));
            self.command(command);
        }
        if self.out.ends_with(' ') && (pipeline.timed.is_some() || pipeline.negated) && pipeline.commands.iter().all(is_empty_command) {
            self.out.pop();
        }
    }

    fn command(&mut self, command: &Command) {
        match command {
            Command::Simple(simple) => self.simple(simple),
            Command::Compound(compound, redirects, _) => {
                self.compound(compound);
                self.redirects(redirects);
            }
            Command::FunctionDef(function) => {
                if function.keyword {
                    self.out.push_str("function ");
                    self.out.push_str(&function.name);
                    self.out.push(' ');
                } else {
                    self.out.push_str(&function.name);
                    // `*()` would open an extglob group when extglob is on.
                    if function.name.ends_with(['*', '?', '+', '@', '!']) {
                        self.out.push(' ');
                    }
                    self.out.push_str("() ");
                }
                self.compound(&function.body);
                self.redirects(&function.redirects);
            }
        }
    }

    fn simple(&mut self, simple: &SimpleCommand) {
        self.simple_with(simple, false);
    }

    /// Writes a simple command (for the bash-layout printer).
    pub(super) fn print_simple(&mut self, simple: &SimpleCommand) {
        self.simple(simple);
    }

    /// Writes a compound command on one line (for the bash-layout printer).
    pub(super) fn print_compound(&mut self, compound: &CompoundCommand) {
        self.compound(compound);
    }

    /// Writes a simple command, its redirections first when `redirects_first`
    /// or when its first word would read as a reserved word.
    fn simple_with(&mut self, simple: &SimpleCommand, redirects_first: bool) {
        let mut first = true;
        let mut separate = |printer: &mut Printer| {
            if !first {
                printer.out.push(' ');
            }
            first = false;
        };
        let reserved_first = redirects_first
            || simple.assignments.is_empty() && matches!(simple.words.first(), Some(Argument::Word(word)) if starts_reserved(word));
        if reserved_first {
            for redirect in &simple.redirects {
                separate(self);
                self.redirect(redirect);
            }
        }
        for assignment in &simple.assignments {
            separate(self);
            self.assignment(assignment);
        }
        for argument in &simple.words {
            separate(self);
            match argument {
                Argument::Word(word) => self.word(word),
                Argument::Assignment(assignment) => self.assignment(assignment),
            }
        }
        if !reserved_first {
            for redirect in &simple.redirects {
                separate(self);
                self.redirect(redirect);
            }
        }
    }

    fn redirects(&mut self, redirects: &[Redirect]) {
        for redirect in redirects {
            self.out.push(' ');
            self.redirect(redirect);
        }
    }

    fn redirect(&mut self, redirect: &Redirect) {
        if let Some(fd) = &redirect.fd {
            self.out.push_str(&redirect_fd_text(fd));
        }
        self.out.push_str(redirect_symbol(redirect.op));
        match &redirect.target {
            RedirectTarget::Word(word) => {
                if matches!(word.parts.first(), Some(WordPart::ProcessSub { .. })) {
                    self.out.push(' ');
                }
                self.word(word)
            }
            RedirectTarget::HereDoc(heredoc) => {
                self.out.push_str(&heredoc_delimiter(heredoc));
                self.heredocs.push(heredoc_text(heredoc));
            }
        }
    }

    fn heredoc_part(&mut self, part: &WordPart, quoted: bool) {
        match part {
            WordPart::Literal(text) | WordPart::SingleQuoted(text) => self.out.push_str(text),
            WordPart::Escaped(c) if !quoted => {
                self.out.push('\\');
                self.out.push(*c);
            }
            other => self.part(other, false),
        }
    }

    fn assignment(&mut self, assignment: &Assignment) {
        self.out.push_str(&assignment.name);
        if let Some(index) = &assignment.index {
            self.out.push('[');
            self.word(index);
            self.out.push(']');
        }
        self.out.push_str(if assignment.append { "+=" } else { "=" });
        match &assignment.value {
            AssignValue::Scalar(word) => self.word(word),
            AssignValue::Array(elements) => {
                self.out.push('(');
                for (index, element) in elements.iter().enumerate() {
                    if index > 0 {
                        self.out.push(' ');
                    }
                    self.element(element);
                }
                self.out.push(')');
            }
        }
    }

    fn element(&mut self, element: &ArrayElement) {
        if let Some(index) = &element.index {
            self.out.push('[');
            self.word(index);
            self.out.push_str(if element.append { "]+=" } else { "]=" });
        }
        self.word(&element.value);
    }

    fn compound(&mut self, compound: &CompoundCommand) {
        match compound {
            CompoundCommand::BraceGroup(list) => {
                self.out.push_str("{ ");
                self.list(list, true);
                self.out.push('}');
            }
            CompoundCommand::Subshell(list) => {
                self.out.push_str("( ");
                self.list(list, false);
                self.flush_heredocs();
                self.out.push_str(" )");
            }
            CompoundCommand::If { branches, else_body } => {
                for (index, (condition, body)) in branches.iter().enumerate() {
                    self.out.push_str(if index == 0 { "if " } else { "elif " });
                    self.list(condition, true);
                    self.out.push_str("then ");
                    self.list(body, true);
                }
                if let Some(body) = else_body {
                    self.out.push_str("else ");
                    self.list(body, true);
                }
                self.out.push_str("fi");
            }
            CompoundCommand::For { name, words, body } | CompoundCommand::Select { name, words, body } => {
                let keyword = if matches!(compound, CompoundCommand::For { .. }) { "for " } else { "select " };
                self.out.push_str(keyword);
                self.out.push_str(name);
                if let Some(words) = words {
                    self.out.push_str(" in");
                    for word in words {
                        self.out.push(' ');
                        self.word(word);
                    }
                }
                self.out.push_str("; do ");
                self.list(body, true);
                self.out.push_str("done");
            }
            CompoundCommand::ArithFor { init, condition, step, body } => {
                self.out.push_str("for ((");
                for (index, expr) in [init, condition, step].into_iter().enumerate() {
                    if index > 0 {
                        self.out.push(';');
                    }
                    match expr.as_ref().map(unsourced) {
                        Some(ArithExpr::Invalid(text)) => self.out.push_str(text),
                        Some(expr) => {
                            if index > 0 {
                                self.out.push(' ');
                            }
                            self.out.push_str(&arith_text(expr));
                        }
                        None => {}
                    }
                }
                self.out.push_str(")); do ");
                self.list(body, true);
                self.out.push_str("done");
            }
            CompoundCommand::While { condition, body } | CompoundCommand::Until { condition, body } => {
                let keyword = if matches!(compound, CompoundCommand::While { .. }) { "while " } else { "until " };
                self.out.push_str(keyword);
                self.list(condition, true);
                self.out.push_str("do ");
                self.list(body, true);
                self.out.push_str("done");
            }
            CompoundCommand::Case { word, clauses } => {
                self.out.push_str("case ");
                self.word(word);
                self.out.push_str(" in");
                for clause in clauses {
                    self.out.push_str(" (");
                    for (index, pattern) in clause.patterns.iter().enumerate() {
                        if index > 0 {
                            self.out.push_str(" | ");
                        }
                        self.word(pattern);
                    }
                    self.out.push(')');
                    if !clause.body.items.is_empty() {
                        self.out.push(' ');
                    }
                    self.list(&clause.body, false);
                    self.flush_heredocs();
                    if ends_in_bare_pipeline(&clause.body) {
                        // `time ;;` is a syntax error; `time; ;;` is not.
                        self.out.push(';');
                    }
                    self.out.push_str(match clause.terminator {
                        CaseTerminator::Break => " ;;",
                        CaseTerminator::FallThrough => " ;&",
                        CaseTerminator::Continue => " ;;&",
                    });
                }
                self.out.push_str(" esac");
            }
            CompoundCommand::Arith(expr) if matches!(unsourced(expr), ArithExpr::Invalid(_)) => {
                let text = match unsourced(expr) {
                    ArithExpr::Invalid(text) => text.as_str(),
                    _ => "",
                };
                self.out.push_str("((");
                self.out.push_str(text);
                self.out.push_str("))");
            }
            CompoundCommand::Arith(expr) => {
                self.out.push_str("(( ");
                self.out.push_str(&arith_text(expr));
                self.out.push_str(" ))");
            }
            CompoundCommand::Cond(expr) => {
                self.out.push_str("[[ ");
                self.out.push_str(&cond_text(expr));
                self.out.push_str(" ]]");
            }
            CompoundCommand::Coproc { name, body } => {
                self.out.push_str("coproc ");
                if name != "COPROC" {
                    self.out.push_str(name);
                    self.out.push(' ');
                }
                match body.as_ref() {
                    Command::Simple(simple) if name == "COPROC" && self.reads_as_named(simple) => self.simple_with(simple, true),
                    _ => self.command(body),
                }
            }
        }
    }

    /// True when `coproc` and `simple` as printed would read its first word
    /// as the coprocess's name (a `{` word after it); printing the
    /// redirections first avoids that.
    fn reads_as_named(&self, simple: &SimpleCommand) -> bool {
        let mut printed = Printer::default();
        printed.simple(simple);
        let text = printed.out.as_bytes();
        let name_length = text.iter().position(|b| matches!(b, b' ' | b'\t')).unwrap_or(text.len());
        !simple.redirects.is_empty()
            && simple.assignments.is_empty()
            && text.get(..name_length).and_then(|name| std::str::from_utf8(name).ok()).is_some_and(super::lexer::is_name)
            && super::command::starts_compound(text.get(name_length..).unwrap_or_default())
    }

    /// Writes a word.
    pub(super) fn word(&mut self, word: &Word) {
        for part in &word.parts {
            self.part(part, false);
        }
    }

    /// Writes one part; `in_dquote` when inside double quotes.
    /// `` `inner` ``, escaping what the backquote reader unescapes.
    fn backquoted(&mut self, inner: &str, in_dquote: bool) {
        self.out.push('`');
        for c in inner.chars() {
            if c == '\\' || c == '`' || (in_dquote && c == '"') {
                self.out.push('\\');
            }
            self.out.push(c);
        }
        self.out.push('`');
    }

    pub(super) fn part(&mut self, part: &WordPart, in_dquote: bool) {
        match part {
            WordPart::Literal(text) => self.out.push_str(text),
            WordPart::Escaped(c) => {
                self.out.push('\\');
                self.out.push(*c);
            }
            WordPart::SingleQuoted(text) => {
                self.out.push('\'');
                self.out.push_str(text);
                self.out.push('\'');
            }
            WordPart::DoubleQuoted(parts) => {
                self.out.push('"');
                for inner in parts {
                    self.part(inner, true);
                }
                self.out.push('"');
            }
            WordPart::AnsiCQuoted(bytes) => {
                self.out.push_str("$'");
                for &byte in bytes {
                    match byte {
                        b'\'' => self.out.push_str("\\'"),
                        b'\\' => self.out.push_str("\\\\"),
                        b'\n' => self.out.push_str("\\n"),
                        b'\t' => self.out.push_str("\\t"),
                        b'\r' => self.out.push_str("\\r"),
                        b' '..=b'~' => self.out.push(byte as char),
                        _ => self.out.push_str(&format!("\\{byte:03o}")),
                    }
                }
                self.out.push('\'');
            }
            WordPart::LocaleQuoted(parts) => {
                self.out.push_str("$\"");
                for inner in parts {
                    self.part(inner, true);
                }
                self.out.push('"');
            }
            WordPart::Param(param) => self.param(param, in_dquote),
            WordPart::CommandSub { body, backtick: false } => {
                self.out.push_str("$(");
                self.nested(body);
                self.out.push(')');
            }
            WordPart::CommandSub { body, backtick: true } => self.backquoted(&print(body), in_dquote),
            WordPart::UnparsedBackquote(text) => self.backquoted(text, in_dquote),
            WordPart::Arith(expr) => self.arith_part(expr),
            WordPart::ProcessSub { input, body } => {
                self.out.push_str(if *input { "<(" } else { ">(" });
                self.nested(body);
                self.out.push(')');
            }
            WordPart::Tilde(user) => {
                self.out.push('~');
                self.out.push_str(user);
            }
            WordPart::BraceList(words) => {
                self.out.push('{');
                for (index, word) in words.iter().enumerate() {
                    if index > 0 {
                        self.out.push(',');
                    }
                    self.word(word);
                }
                self.out.push('}');
            }
            WordPart::BraceRange(range) => {
                self.out.push('{');
                self.out.push_str(&range.start);
                self.out.push_str("..");
                self.out.push_str(&range.end);
                if let Some(step) = &range.step {
                    self.out.push_str("..");
                    self.out.push_str(step);
                }
                self.out.push('}');
            }
            WordPart::ExtGlob { op, patterns } => {
                self.out.push(*op);
                self.out.push('(');
                for (index, pattern) in patterns.iter().enumerate() {
                    if index > 0 {
                        self.out.push('|');
                    }
                    self.word(pattern);
                }
                self.out.push(')');
            }
            WordPart::BadSubstitution(text) | WordPart::UnclosedSubstitution { text, .. } => self.out.push_str(text),
        }
    }

    /// Writes the list inside `$( )` or `<( )`, with its own here-documents.
    /// `$(( expr ))`, or the text of an expression bash rejects at run time;
    /// `$[ ]` when a parenthesis in the text would close `$((` early.
    fn arith_part(&mut self, expr: &ArithExpr) {
        match unsourced(expr) {
            ArithExpr::Invalid(text) if balanced(text) => {
                self.out.push_str("$((");
                self.out.push_str(text);
                self.out.push_str("))");
            }
            ArithExpr::Invalid(text) => {
                self.out.push_str("$[");
                self.out.push_str(text);
                self.out.push(']');
            }
            _ => {
                let text = format!(" {} ", arith_text(expr));
                let (open, close) = if balanced(&text) { ("$((", "))") } else { ("$[", "]") };
                self.out.push_str(open);
                self.out.push_str(&text);
                self.out.push_str(close);
            }
        }
    }

    fn nested(&mut self, body: &List) {
        let outer = std::mem::take(&mut self.heredocs);
        let mut inner = Printer::default();
        inner.list(body, false);
        inner.flush_heredocs();
        if inner.out.starts_with('(') {
            self.out.push(' ');
        }
        self.out.push_str(&inner.out);
        self.heredocs = outer;
    }
}

/// True when `$((text))` reads back with its `))` right after `text`: the
/// parser's own scan, which skips quoted parentheses, decides.
fn balanced(text: &str) -> bool {
    let closed = format!("{text}))");
    arith_close_in(closed.as_bytes(), 0) == Some(text.len())
}

/// True when the last pipeline of `list` is a bare `time` or `!` run in
/// the foreground, which bash ends only at a newline, `;` or `&`.
fn ends_in_bare_pipeline(list: &List) -> bool {
    let Some(item) = list.items.last() else { return false };
    let last = item.and_or.rest.last().map_or(&item.and_or.first, |(_, pipeline)| pipeline);
    !item.background && matches!(last.commands.as_slice(), [command] if is_empty_command(command))
}

/// True for the placeholder command of a bare `time`.
fn is_empty_command(command: &Command) -> bool {
    matches!(command, Command::Simple(simple) if simple.words.is_empty() && simple.assignments.is_empty() && simple.redirects.is_empty())
}

/// True when a word printed first in a command would read as a reserved word.
fn starts_reserved(word: &Word) -> bool {
    match word.parts.first() {
        Some(WordPart::Literal(text)) => {
            word.parts.len() == 1 && super::lexer::RESERVED.contains(&text.as_str()) || text.starts_with("((") || text.starts_with('(')
        }
        _ => false,
    }
}

/// The tree of an expression kept with its source text.
fn unsourced(expr: &ArithExpr) -> &ArithExpr {
    match expr {
        ArithExpr::Source(_, inner) => inner,
        other => other,
    }
}
