//! Lists, and-or lists, pipelines and simple commands (with assignments,
//! redirections and function definitions written `name() body`).

use super::ast::{
    AndOr, AndOrOp, Argument, ArrayElement, AssignValue, Assignment, Command, FunctionDef, List, ListItem, Pipeline, Seq, SimpleCommand,
    TimeFormat, Word, WordPart,
};
use super::error::ParseErrorKind;
use super::lexer::{is_meta, is_name_byte, is_name_start};
use super::parser::{Fail, PResult, Parser};
use super::word::{PartsBuilder, WordContext};

/// Builtins whose `name=value` arguments are assignments.
const DECLARATION_BUILTINS: [&str; 6] = ["declare", "typeset", "local", "export", "readonly", "alias"];

/// Reserved words that end a compound list.
const LIST_ENDS: [&str; 8] = ["then", "elif", "else", "fi", "do", "done", "esac", "}"];

impl Parser<'_> {
    /// Reads one top-level line (and-or lists up to a newline or the end)
    /// onto `items`; false at the end of input.
    pub(super) fn top_line_into(&mut self, items: &mut Vec<ListItem>) -> PResult<bool> {
        self.skip_linebreaks()?;
        if self.cur().is_none() {
            return Ok(false);
        }
        loop {
            let start = self.pos;
            let and_or = self.and_or()?;
            self.skip_space();
            let background = match self.peek_op() {
                Some(";") => {
                    self.eat_op(";")?;
                    false
                }
                Some("&") => {
                    self.eat_op("&")?;
                    true
                }
                _ => {
                    push_one(items, ListItem { and_or, background: false, span: self.span(start, self.pos) });
                    return self.end_top_line();
                }
            };
            push_one(items, ListItem { and_or, background, span: self.span(start, self.pos) });
            self.skip_space();
            if matches!(self.cur(), None | Some(b'\n')) {
                return self.end_top_line();
            }
        }
    }

    /// Finishes a top-level line at its newline (reading here-documents)
    /// or at the end of input.
    fn end_top_line(&mut self) -> PResult<bool> {
        match self.cur() {
            Some(b'\n') => {
                self.newline()?;
            }
            None => {
                if !self.pending.is_empty() {
                    self.read_heredoc_bodies()?;
                }
            }
            Some(_) => return self.unexpected(),
        }
        Ok(true)
    }

    /// Parses the whole remaining input (a backquoted or extracted script).
    pub(super) fn parse_to_end(&mut self) -> PResult<List> {
        let mut list = List::default();
        while self.top_line_into(&mut list.items)? {}
        self.fill_heredocs(&mut list.items);
        Ok(list)
    }

    /// True at a token that ends a compound list.
    fn at_list_end(&self) -> bool {
        match self.cur() {
            None | Some(b')') => true,
            Some(b';') => matches!(self.peek_op(), Some(";;" | ";&" | ";;&")),
            Some(_) => self.reserved_word_here().is_some_and(|word| LIST_ENDS.contains(&word)),
        }
    }

    /// A list inside a compound command: and-or lists separated by `;`,
    /// `&` or newlines, up to a closing reserved word or `)`.
    pub(super) fn compound_list(&mut self) -> PResult<List> {
        let mut list = List::default();
        loop {
            self.skip_linebreaks()?;
            if self.at_list_end() {
                return Ok(list);
            }
            let start = self.pos;
            let and_or = self.and_or()?;
            self.skip_space();
            let mut background = false;
            let terminated = match self.peek_op() {
                Some(";") => self.eat_op(";")?,
                Some("&") => {
                    background = true;
                    self.eat_op("&")?
                }
                _ => self.cur() == Some(b'\n'),
            };
            list.items.push(ListItem { and_or, background, span: self.span(start, self.pos) });
            if !terminated {
                return Ok(list);
            }
        }
    }

    /// A compound list that must not be empty: bash rejects `if then`.
    pub(super) fn nonempty_list(&mut self) -> PResult<List> {
        let list = self.compound_list()?;
        if list.items.is_empty() {
            return self.unexpected();
        }
        Ok(list)
    }

    /// `p1 && p2 || p3`.
    #[inline]
    fn and_or(&mut self) -> PResult<AndOr> {
        let first = self.pipeline()?;
        let mut rest = Vec::new();
        loop {
            self.skip_space();
            if !matches!(self.cur(), Some(b'&' | b'|')) {
                return Ok(AndOr { first, rest });
            }
            let op = if self.eat_op("&&")? {
                AndOrOp::And
            } else if self.eat_op("||")? {
                AndOrOp::Or
            } else {
                return Ok(AndOr { first, rest });
            };
            self.skip_linebreaks()?;
            push_one(&mut rest, (op, self.pipeline()?));
        }
    }

    /// `[time [-p]] [!] cmd | cmd |& cmd`.
    fn pipeline(&mut self) -> PResult<Pipeline> {
        self.skip_space();
        let start = self.pos;
        let mut negated = false;
        let mut timed = None;
        while matches!(self.cur(), Some(b'!' | b't')) {
            if self.at_negation() {
                self.eat_reserved("!")?;
                negated = !negated;
            } else if self.eat_reserved("time")? {
                self.skip_space();
                timed = Some(TimeFormat::Default);
                if self.at_reserved("-p") {
                    self.pos += 2;
                    timed = Some(TimeFormat::Posix);
                }
            } else {
                break;
            }
            self.skip_space();
        }
        let mut pipe_stderr = Vec::new();
        if (timed.is_some() || negated) && self.at_pipeline_end() {
            let commands = Seq::One(Command::Simple(SimpleCommand {
                assignments: Vec::new(),
                words: Vec::new(),
                redirects: Vec::new(),
                span: self.span(self.pos, self.pos),
            }));
            return Ok(Pipeline { negated, timed, commands, pipe_stderr, span: self.span(start, self.pos) });
        }
        let mut commands = Seq::One(self.command()?);
        loop {
            self.skip_space();
            if self.cur() != Some(b'|') {
                break;
            }
            let stderr = if self.eat_op("|")? {
                false
            } else if self.eat_op("|&")? {
                true
            } else {
                break;
            };
            if stderr || !pipe_stderr.is_empty() {
                // Filled only once a `|&` appears: most pipelines have none.
                pipe_stderr.resize(commands.len() - 1, false);
                pipe_stderr.push(stderr);
            }
            self.skip_linebreaks()?;
            commands.push(self.command()?);
        }
        Ok(Pipeline { negated, timed, commands, pipe_stderr, span: self.span(start, self.pos) })
    }

    /// True at the reserved word `!`: with extglob on, `!(` starts a
    /// pattern word instead, as bash reads it.
    fn at_negation(&self) -> bool {
        self.at_reserved("!") && !(self.extglob && self.peek_at(1) == Some(b'('))
    }

    /// True where a bare `time` or `!` may end: only a newline, `;`, a
    /// comment or the end (bash's grammar takes no `&`, `&&`, `||` or `)`
    /// after one, and reports that token).
    fn at_pipeline_end(&self) -> bool {
        matches!(self.cur(), None | Some(b'\n' | b'#')) || self.peek_op() == Some(";")
    }

    /// One command of a pipeline.
    pub(super) fn command(&mut self) -> PResult<Command> {
        self.skip_space();
        self.step()?;
        let start = self.pos;
        let reserved = self.reserved_word_here();
        match reserved {
            Some("then" | "elif" | "else" | "fi" | "do" | "done" | "esac" | "}" | "]]" | "in") => return self.unexpected(),
            Some("!") if self.at_negation() => return self.unexpected(),
            Some("function") => return self.function_keyword(start),
            Some("coproc") => return self.coproc(start),
            _ => {}
        }
        if !self.aliases.is_empty() && self.plain_word().is_some() && self.expand_alias()? {
            return self.command();
        }
        // A compound command starts with a reserved word or `(`.
        if reserved.is_none() && self.cur() != Some(b'(') {
            return self.simple_command(start);
        }
        if let Some(compound) = self.compound_command()? {
            let redirects = self.trailing_redirects()?;
            return Ok(Command::Compound(Box::new(compound), redirects, self.span(start, self.pos)));
        }
        self.simple_command(start)
    }

    /// Redirections after a compound command or function body.
    pub(super) fn trailing_redirects(&mut self) -> PResult<Vec<super::ast::Redirect>> {
        let mut redirects = Vec::new();
        loop {
            self.skip_space();
            if !self.at_redirect() {
                return Ok(redirects);
            }
            push_one(&mut redirects, self.redirect()?);
        }
    }

    /// `VAR=x cmd arg >file`, or `name() body`.
    fn simple_command(&mut self, start: usize) -> PResult<Command> {
        let mark = self.word_stack.len();
        let result = self.simple_command_from(start, mark);
        self.word_stack.truncate(mark);
        result
    }

    /// [`Parser::simple_command`], its words collected on the word stack above `mark`.
    fn simple_command_from(&mut self, start: usize, mark: usize) -> PResult<Command> {
        let mut assignments = Vec::new();
        let mut redirects = Vec::new();
        let mut declaration = false;
        let mut let_command = false;
        loop {
            self.skip_space();
            self.step()?;
            let Some(byte) = self.cur() else { break };
            let no_words = self.word_stack.len() == mark;
            if self.at_redirect() {
                push_one(&mut redirects, self.redirect()?);
                continue;
            }
            let process_substitution = matches!(byte, b'<' | b'>') && self.peek_at(1) == Some(b'(');
            if is_meta(byte) && !process_substitution {
                break;
            }
            if let_command {
                if let Some(word) = self.let_compound_word()? {
                    self.word_stack.push(Argument::Word(word));
                    continue;
                }
            }
            if (no_words || declaration) && self.at_name_before_assignment_byte() {
                if let Some(assignment) = self.assignment(no_words)? {
                    if no_words {
                        push_one(&mut assignments, assignment);
                    } else {
                        self.word_stack.push(Argument::Assignment(Box::new(assignment)));
                    }
                    continue;
                }
                if no_words {
                    if let Some(word) = self.subscripted_word()? {
                        self.word_stack.push(Argument::Word(word));
                        continue;
                    }
                }
            }
            // The plain-word shortcut here, so the word is built where it is used.
            let word_start = self.pos;
            let word = match self.plain_literal_word(WordContext::Normal) {
                Some(text) => self.plain_word_read(word_start, text)?,
                None => match self.read_word_part_by_part(word_start, WordContext::Normal)? {
                    Some(word) => word,
                    None => break,
                },
            };
            if no_words {
                declaration = matches!(word.parts.as_slice(), [WordPart::Literal(text)]
                    if DECLARATION_BUILTINS.iter().any(|builtin| builtin.as_bytes() == text.as_bytes()));
                let_command = matches!(word.parts.as_slice(), [WordPart::Literal(text)] if text.as_bytes() == b"let");
                if assignments.is_empty() && redirects.is_empty() && self.at_function_parens() {
                    return self.function_parens(start, word);
                }
            }
            self.word_stack.push(Argument::Word(word));
        }
        let words = self.word_stack.split_off(mark);
        if words.is_empty() && assignments.is_empty() && redirects.is_empty() {
            return self.unexpected();
        }
        if self.cur() == Some(b'(') {
            // `name (` reads on as a function definition, unless a redirection
            // or assignment came first.
            if words.len() == 1 && redirects.is_empty() && assignments.is_empty() {
                self.pos += 1;
                self.skip_blanks();
                return self.unexpected_word();
            }
            // Past the command's start `((` is no arithmetic command: bash names the `(`.
            return self.fail(ParseErrorKind::UnexpectedToken("(".to_string()));
        }
        Ok(Command::Simple(SimpleCommand { assignments, words, redirects, span: self.span(start, self.pos) }))
    }

    /// True when a name stands at the read position followed by `=`, `+`
    /// or `[`: only there can an assignment or a subscripted word start.
    #[inline]
    fn at_name_before_assignment_byte(&self) -> bool {
        if !self.cur().is_some_and(is_name_start) {
            return false;
        }
        let (end, _) = self.name_extent();
        matches!(self.text.as_bytes().get(end).filter(|_| end < self.end), Some(b'=' | b'+' | b'['))
    }

    /// True at `( )` after a function name.
    fn at_function_parens(&self) -> bool {
        let rest = self.rest();
        let mut index = 0;
        while let Some(b' ' | b'\t') = rest.get(index) {
            index += 1;
        }
        if rest.get(index) != Some(&b'(') {
            return false;
        }
        index += 1;
        while let Some(b' ' | b'\t') = rest.get(index) {
            index += 1;
        }
        rest.get(index) == Some(&b')')
    }

    /// The rest of `name() body`, the parentheses next.
    fn function_parens(&mut self, start: usize, name: Word) -> PResult<Command> {
        let name = self.function_name(&name);
        self.skip_blanks();
        self.pos += 1;
        self.skip_blanks();
        self.pos += 1;
        self.token()?;
        self.function_body(start, name, false)
    }

    /// `function name [()] body`.
    fn function_keyword(&mut self, start: usize) -> PResult<Command> {
        self.pos += "function".len();
        self.token()?;
        self.skip_blanks();
        // Any word is a name here, as written; the interpreter refuses the
        // ones that are not identifiers when the definition runs, as bash does.
        let Some(word) = self.read_word(WordContext::Pattern)? else {
            return self.unexpected_word();
        };
        let name = self.function_name(&word);
        if self.at_function_parens() {
            self.skip_blanks();
            self.pos += 1;
            self.skip_blanks();
            self.pos += 1;
        }
        self.function_body(start, name, true)
    }

    /// A function's name as written. A name with quotes or expansions
    /// keeps its source text: the interpreter refuses it, as bash refuses
    /// `f'o'() { ...; }` and `function a$x { ...; }` when they run.
    fn function_name(&self, name: &Word) -> String {
        let raw = (name.span.start as usize).checked_sub(self.base).zip((name.span.end as usize).checked_sub(self.base));
        match raw.and_then(|(from, to)| self.text.get(from..to)) {
            Some(text) if name.parts.iter().any(|part| !matches!(part, WordPart::Literal(_))) => text.to_string(),
            _ => name.parts.iter().filter_map(|part| if let WordPart::Literal(text) = part { Some(text.as_str()) } else { None }).collect(),
        }
    }

    /// The body and redirections of a function definition.
    fn function_body(&mut self, start: usize, name: String, keyword: bool) -> PResult<Command> {
        self.skip_linebreaks()?;
        let Some(body) = self.compound_command()? else {
            return self.unexpected();
        };
        let redirects = self.trailing_redirects()?;
        Ok(Command::FunctionDef(FunctionDef { name, body: Box::new(body), redirects, keyword, span: self.span(start, self.pos) }))
    }

    /// `coproc [NAME] command`.
    fn coproc(&mut self, start: usize) -> PResult<Command> {
        self.pos += "coproc".len();
        self.token()?;
        self.skip_blanks();
        if self.cur().is_none() {
            return self.unexpected_word();
        }
        let mut name = "COPROC".to_string();
        if let Some(word) = self.plain_word() {
            let compound_next = starts_compound(self.rest().get(word.len()..).unwrap_or_default());
            let is_keyword = super::lexer::RESERVED.contains(&word);
            if compound_next && !is_keyword && super::lexer::is_name(word) {
                name = word.to_string();
                self.pos += word.len();
                self.skip_blanks();
            }
        }
        let body = self.command()?;
        if name != "COPROC" && matches!(body, Command::Simple(_)) {
            return self.unexpected();
        }
        let span = self.span(start, self.pos);
        Ok(Command::Compound(Box::new(super::ast::CompoundCommand::Coproc { name, body: Box::new(body) }), Vec::new(), span))
    }

    /// Reads `name=value`, `name+=value`, `name[i]=value` or `name=(...)`
    /// when one starts here. In command position a subscript reads up to
    /// its `]` across blanks, newlines and `;`, as bash reads it there;
    /// after a declaration builtin it ends with the word, at a blank.
    pub(super) fn assignment(&mut self, command_position: bool) -> PResult<Option<Assignment>> {
        let start = self.pos;
        // Most words in command position are no assignment: look before allocating the name.
        if !self.at_name_before_assignment_byte() {
            return Ok(None);
        }
        let name = self.name_across_continuations().into_string();
        let mut index = None;
        if self.cur() == Some(b'[') {
            let close = if command_position {
                self.matching_bracket_across_lines(self.pos)
            } else {
                // After a declaration builtin the word, subscript and all, ends at a blank.
                self.matching_bracket_in_word(self.pos)
            };
            let Some(close) = close else {
                self.pos = start;
                return Ok(None);
            };
            let saved_end = self.end;
            self.pos += 1;
            self.end = close;
            let word = self.subscript_word();
            self.end = saved_end;
            index = Some(word?);
            self.pos = close + 1;
        }
        let append = self.cur() == Some(b'+');
        if append {
            self.pos += 1;
        }
        if self.cur() != Some(b'=') {
            self.pos = start;
            return Ok(None);
        }
        self.pos += 1;
        self.token()?;
        let value = if self.cur() == Some(b'(') {
            AssignValue::Array(self.array_literal()?)
        } else {
            let value_start = self.pos;
            let outer = std::mem::replace(&mut self.in_assignment_value, true);
            let parts = self.read_parts(WordContext::AssignValue);
            self.in_assignment_value = outer;
            let parts = parts?;
            AssignValue::Scalar(Word { parts, span: self.span(value_start, self.pos) })
        };
        Ok(Some(Assignment { name, index, append, value, span: self.span(start, self.pos) }))
    }

    /// After `let`, `x=( y + 2 )` is one word, as bash reads it: the
    /// parenthesized words joined by single spaces (`x=(y + 2)`), expanded
    /// like any other argument and then read as arithmetic.
    fn let_compound_word(&mut self) -> PResult<Option<Word>> {
        let start = self.pos;
        let Some(assignment) = self.assignment(false)? else { return Ok(None) };
        let AssignValue::Array(elements) = assignment.value else {
            self.pos = start;
            return Ok(None);
        };
        let mut parts = vec![WordPart::Literal(assignment.name.as_str().into())];
        if let Some(index) = assignment.index {
            parts.push(WordPart::Literal("[".into()));
            parts.extend(index.parts.iter().cloned());
            parts.push(WordPart::Literal("]".into()));
        }
        parts.push(WordPart::Literal(if assignment.append { "+=(" } else { "=(" }.into()));
        for (position, element) in elements.into_iter().enumerate() {
            if position > 0 {
                parts.push(WordPart::Literal(" ".into()));
            }
            if let Some(index) = element.index {
                parts.push(WordPart::Literal("[".into()));
                parts.extend(index.parts.iter().cloned());
                parts.push(WordPart::Literal(if element.append { "]+=" } else { "]=" }.into()));
            }
            parts.extend(element.value.parts.iter().cloned());
        }
        parts.push(WordPart::Literal(")".into()));
        if self.cur().is_some_and(|byte| !is_meta(byte)) {
            parts.extend(self.read_parts(WordContext::Normal)?.iter().cloned());
        }
        Ok(Some(Word { parts: parts.into(), span: self.span(start, self.pos) }))
    }

    /// In command position, a word that starts `name[` (and is no
    /// assignment) reads up to the subscript's `]` across blanks, newlines
    /// and `;`, then on as a word: bash reads `a[1 2]` as one word there,
    /// and reports an unclosed `a[1` as an unexpected end of file.
    pub(super) fn subscripted_word(&mut self) -> PResult<Option<Word>> {
        let rest = self.rest();
        if !rest.first().is_some_and(|b| is_name_start(*b)) {
            return Ok(None);
        }
        let name_length = rest.iter().position(|b| !is_name_byte(*b)).unwrap_or(rest.len());
        if rest.get(name_length) != Some(&b'[') {
            return Ok(None);
        }
        self.bracketed_word(self.pos + name_length).map(Some)
    }

    /// A word from the read position whose `[` at `open` reads up to its
    /// `]` across blanks, newlines and `;`, then on as a word (an array
    /// element `[z w]` that is no `[key]=value` reads so too).
    fn bracketed_word(&mut self, open: usize) -> PResult<Word> {
        let start = self.pos;
        let Some(close) = self.matching_bracket_across_lines(open) else {
            return self.unclosed_bracket(open, start);
        };
        let mut out = PartsBuilder::default();
        out.text(self.slice(start, open + 1));
        let saved_end = self.end;
        self.pos = open + 1;
        self.end = close;
        let inside = self.subscript_word();
        self.end = saved_end;
        out.extend(inside?.parts);
        out.text("]");
        self.pos = close + 1;
        let after = self.read_parts(WordContext::Normal)?;
        out.extend(after);
        self.token()?;
        let parts = self.brace_expand(out.finish())?;
        Ok(Word { parts, span: self.span(start, self.pos) })
    }

    /// Reads `(a b [k]=v)`, noting a failure inside it.
    fn array_literal(&mut self) -> PResult<Vec<ArrayElement>> {
        let open = self.pos;
        let result = self.array_elements();
        if let Err(fail) = &result {
            if !matches!(fail.kind, ParseErrorKind::LimitExceeded(_)) {
                self.failed_in_array = true;
            }
            // An element left open (not the list's own `)`): bash then also
            // reports the end of the file.
            if matches!(fail.kind, ParseErrorKind::UnterminatedQuote(_)) && fail.pos != open {
                self.array_element_unclosed = true;
            }
        }
        result
    }

    /// The elements of `(a b [k]=v)`.
    fn array_elements(&mut self) -> PResult<Vec<ArrayElement>> {
        let open = self.pos;
        self.pos += 1;
        let mut elements = Vec::new();
        loop {
            self.skip_linebreaks()?;
            match self.cur() {
                None => return Err(Fail { kind: ParseErrorKind::UnterminatedQuote(')'), pos: open }),
                Some(b')') => {
                    self.pos += 1;
                    return Ok(elements);
                }
                Some(_) => {}
            }
            self.refuse_fd_number()?;
            let (index, append) = self.element_key()?;
            if index.is_none() && self.cur() == Some(b'[') {
                let word = self.bracketed_word(self.pos)?;
                elements.push(ArrayElement { index, append, value: word });
                continue;
            }
            let value = match self.read_word(if index.is_some() { WordContext::AssignValue } else { WordContext::Normal })? {
                Some(word) => word,
                None if index.is_some() => Word { parts: Seq::new(), span: self.span(self.pos, self.pos) },
                None => return self.unexpected(),
            };
            elements.push(ArrayElement { index, append, value });
        }
    }

    /// The error for a subscript opened at `open` that never closes, blamed
    /// on `blame`: bash names what it was still looking for, `]` or an inner
    /// quote or `)` (an unclosed `$(` is blamed on the end, as elsewhere).
    fn unclosed_bracket<T>(&self, open: usize, blame: usize) -> PResult<T> {
        let sought = super::bracket::unclosed_in_bracket(self.text.as_bytes(), open, self.end).unwrap_or(b']');
        let kind = ParseErrorKind::UnterminatedQuote(char::from(sought));
        Err(if sought == b')' { Fail::at_end(kind) } else { Fail { kind, pos: blame } })
    }

    /// Reads `[key]=` or `[key]+=` before an array element, if there.
    fn element_key(&mut self) -> PResult<(Option<Word>, bool)> {
        if self.cur() != Some(b'[') {
            return Ok((None, false));
        }
        let start = self.pos;
        let Some(close) = self.matching_bracket_across_lines(start) else {
            return self.unclosed_bracket(start, start);
        };
        let after = self.text.as_bytes().get(close + 1..self.end).unwrap_or(&[]);
        let append = after.starts_with(b"+=");
        if !append && !after.starts_with(b"=") {
            return Ok((None, false));
        }
        let saved_end = self.end;
        self.pos = start + 1;
        self.end = close;
        let word = self.subscript_word();
        self.end = saved_end;
        let word = word?;
        self.pos = close + if append { 3 } else { 2 };
        Ok((Some(word), append))
    }
}

/// Pushes `item`, making room for exactly one when `items` has none: most
/// commands have at most one redirection or assignment, and these are large.
fn push_one<T>(items: &mut Vec<T>, item: T) {
    if items.capacity() == 0 {
        items.reserve_exact(1);
    }
    items.push(item);
}

/// True when `after`, the text after `coproc NAME`, starts a compound
/// command (after blanks): then bash reads NAME as the coprocess's name.
pub(super) fn starts_compound(after: &[u8]) -> bool {
    let after = after.iter().position(|b| !matches!(b, b' ' | b'\t')).and_then(|at| after.get(at..)).unwrap_or_default();
    if after.first() == Some(&b'(') {
        return true;
    }
    // A reserved word only as a whole word: `{fd}>&-` is no `{`.
    ["{", "while", "until", "if", "for", "case", "[[", "select"]
        .iter()
        .any(|word| after.strip_prefix(word.as_bytes()).is_some_and(|rest| rest.first().is_none_or(|byte| is_meta(*byte))))
}
