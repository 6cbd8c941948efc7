//! The word expander: turns words into fields (for command arguments), into
//! one string (assignments, here-strings, `case` words), or into a pattern
//! (`case` patterns, `${x#pat}`, `[[ == ]]`).

use super::arith::{self, ArithEnv};
use super::brace::expand_braces;
use super::fields::{Field, FieldBuilder};
use super::glob::glob;
use super::param::{expand_param, expand_plain_param, Expansion, Value};
use super::pattern::{escape, unescape};
use super::{ElementKey, ExpandError, ExpandHost, VarShape};
use crate::host::LocalFuture;
use crate::syntax::ast::{ArithExpr, Parameter, Word, WordPart};

/// What the expansion is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// Command arguments: split and glob.
    Fields,
    /// One string: no splitting, no globbing.
    String,
    /// A pattern: unquoted text keeps its glob meaning.
    Pattern,
}

/// Arithmetic variable access through the expansion host.
pub struct HostArith<'h>(pub &'h mut dyn ExpandHost);

impl ArithEnv for HostArith<'_> {
    fn get_var(&mut self, name: &str, index: Option<&ElementKey>) -> Result<Option<String>, String> {
        let name = self.0.resolve_name(name);
        Ok(match index {
            None => self.0.scalar(&name),
            Some(key) => self.0.element(&name, key),
        })
    }

    fn set_var(&mut self, name: &str, index: Option<&ElementKey>, value: i64) -> Result<(), String> {
        let name = self.0.resolve_name(name);
        self.0.assign(&name, index.cloned(), value.to_string()).map_err(|e| e.to_string())
    }

    fn is_assoc(&mut self, name: &str) -> bool {
        let name = self.0.resolve_name(name);
        self.0.shape(&name) == VarShape::Assoc
    }

    fn nounset(&self) -> bool {
        self.0.options().nounset
    }

    fn is_set_array(&mut self, name: &str) -> bool {
        let name = self.0.resolve_name(name);
        self.0.array_has_value(&name)
    }
}

/// Expands command words into fields: brace expansion, the other
/// expansions, field splitting, pathname expansion, quote removal.
pub async fn expand_words(host: &mut dyn ExpandHost, words: &[Word]) -> Result<Vec<String>, ExpandError> {
    let mut out = Vec::new();
    let ifs = host.ifs();
    for word in words {
        // A word of plain text (a command name, an option) is itself.
        if let [WordPart::Literal(text)] = word.parts.as_slice() {
            if !text.is_empty() && !text.contains(['*', '?', '[', '(', '{']) {
                host.check_length(text.len())?;
                out.push(text.to_string());
                continue;
            }
        }
        if !super::brace::has_braces(word) {
            expand_field_parts(host, &word.parts, &ifs, &mut out).await?;
            continue;
        }
        for parts in expand_braces(word).map_err(ExpandError::Limit)? {
            expand_field_parts(host, &parts, &ifs, &mut out).await?;
        }
    }
    Ok(out)
}

/// Expands one brace-free word into fields, globbing each.
async fn expand_field_parts(host: &mut dyn ExpandHost, parts: &[WordPart], ifs: &str, out: &mut Vec<String>) -> Result<(), ExpandError> {
    let mut builder = FieldBuilder::new(ifs);
    expand_parts(host, parts, false, Mode::Fields, &mut builder).await?;
    for field in builder.finish() {
        host.check_length(field.text.len())?;
        push_globbed(host, field, out).await?;
    }
    Ok(())
}

async fn push_globbed(host: &mut dyn ExpandHost, field: Field, out: &mut Vec<String>) -> Result<(), ExpandError> {
    let options = host.options();
    if !field.globbable || options.noglob {
        out.push(field.text);
        return Ok(());
    }
    let pattern = field.pattern();
    if !super::pattern::has_glob_chars(&pattern, options.extglob) {
        out.push(field.text);
        return Ok(());
    }
    // A non-empty GLOBIGNORE turns on dotglob and removes the names its
    // patterns match, `.` and `..` always.
    let ignore = host.scalar("GLOBIGNORE").filter(|value| !value.is_empty());
    let mut glob_options = options;
    glob_options.dotglob |= ignore.is_some();
    let mut matches = glob(host, &pattern, glob_options).await;
    if let Some(ignore) = ignore {
        matches.retain(|path| !glob_ignored(&ignore, path, options));
    }
    if matches.is_empty() {
        if options.failglob {
            return Err(ExpandError::NoMatch(field.text));
        }
        if !options.nullglob {
            out.push(unescape_unmatched(&field));
        }
        return Ok(());
    }
    host.check_length(matches.iter().map(String::len).sum())?;
    out.extend(matches);
    Ok(())
}

/// Whether GLOBIGNORE's colon-separated patterns remove `path`: a pattern
/// matches component by component (`*` never crosses a `/`).
fn glob_ignored(ignore: &str, path: &str, options: super::ExpandOptions) -> bool {
    let last = path.trim_end_matches('/').rsplit('/').next().unwrap_or(path);
    if last == "." || last == ".." {
        return true;
    }
    let pattern_options = super::pattern::PatternOptions { extglob: options.extglob, nocase: false };
    let components: Vec<&str> = path.split('/').collect();
    ignore.split(':').filter(|pattern| !pattern.is_empty()).any(|pattern| {
        let parts: Vec<&str> = pattern.split('/').collect();
        parts.len() == components.len()
            && parts
                .iter()
                .zip(&components)
                .all(|(part, component)| super::pattern::Pattern::new(part, pattern_options).matches(component, false))
    })
}

/// An unmatched pattern stays as written, minus quoting.
fn unescape_unmatched(field: &Field) -> String {
    field.text.clone()
}

/// Expands a word to one string, without splitting or globbing.
pub async fn expand_string(host: &mut dyn ExpandHost, word: &Word) -> Result<String, ExpandError> {
    let mut builder = FieldBuilder::plain_text();
    expand_parts(host, &word.parts, false, Mode::String, &mut builder).await?;
    Ok(builder.finish_joined(" "))
}

/// Expands an assignment's value (tildes were placed by the parser).
pub async fn expand_assignment_value(host: &mut dyn ExpandHost, word: &Word) -> Result<String, ExpandError> {
    let value = expand_string(host, word).await?;
    host.check_length(value.len())?;
    Ok(value)
}

/// Expands a word to a pattern: quoted characters escaped, unquoted ones active.
pub async fn expand_pattern(host: &mut dyn ExpandHost, word: &Word) -> Result<String, ExpandError> {
    let mut builder = FieldBuilder::new("");
    expand_parts(host, &word.parts, false, Mode::Pattern, &mut builder).await?;
    Ok(builder.finish().map(|field| field.pattern()).collect::<Vec<_>>().join(" "))
}

/// Expands the replacement of `${v/pattern/replacement}`: a quoted `&` or
/// backslash comes out backslash-escaped, so only an unquoted `&` stands for
/// the matched text (bash 5.2's `patsub_replacement`).
pub async fn expand_replacement(host: &mut dyn ExpandHost, word: &Word) -> Result<String, ExpandError> {
    let mut builder = FieldBuilder::new("");
    expand_parts(host, &word.parts, false, Mode::Pattern, &mut builder).await?;
    let escape = |text: &str| {
        let mut out = String::with_capacity(text.len());
        for c in text.chars() {
            if matches!(c, '\\' | '&') {
                out.push('\\');
            }
            out.push(c);
        }
        out
    };
    Ok(builder.finish().map(|field| field.pattern_with(escape)).collect::<Vec<_>>().join(" "))
}

/// Expands the right side of `[[ x =~ regex ]]`: quoted parts match literally.
pub async fn expand_regex(host: &mut dyn ExpandHost, word: &Word) -> Result<String, ExpandError> {
    let mut builder = FieldBuilder::new("");
    expand_parts(host, &word.parts, false, Mode::Pattern, &mut builder).await?;
    Ok(builder.finish().map(|field| field.regex_pattern()).collect::<Vec<_>>().join(" "))
}

/// Expands an unquoted here-document body.
pub async fn expand_heredoc(host: &mut dyn ExpandHost, word: &Word) -> Result<String, ExpandError> {
    let mut builder = FieldBuilder::plain_text();
    expand_parts(host, &word.parts, true, Mode::String, &mut builder).await?;
    Ok(builder.finish_joined(" "))
}

fn push_text(builder: &mut FieldBuilder<'_>, text: &str, quoted: bool, mode: Mode) {
    if quoted {
        builder.push_quoted(text);
        return;
    }
    match mode {
        Mode::Fields => builder.push_split(text),
        Mode::String => builder.push_literal(text, false),
        Mode::Pattern => builder.push_literal(text, true),
    }
}

fn ifs_first(host: &dyn ExpandHost) -> String {
    match host.scalar("IFS") {
        Some(ifs) => ifs.chars().next().map(String::from).unwrap_or_default(),
        None => " ".to_string(),
    }
}

fn push_value(host: &dyn ExpandHost, builder: &mut FieldBuilder<'_>, value: Value, quoted: bool, mode: Mode) {
    match value {
        Value::Unset => {
            if quoted {
                builder.mark_present();
            }
        }
        Value::One(text) => push_text(builder, &text, quoted, mode),
        Value::Many(values, star) => {
            // Joined by the first IFS character, then (unquoted) split: an
            // empty element between non-whitespace delimiters stays a field.
            let split_joined = !quoted && mode == Mode::Fields && !builder.ifs_is_empty();
            if (star && (quoted || mode != Mode::Fields)) || split_joined {
                let joined = values.join(&ifs_first(host));
                push_text(builder, &joined, quoted, mode);
                return;
            }
            for (index, value) in values.iter().enumerate() {
                if index > 0 {
                    if quoted || mode != Mode::Fields {
                        builder.break_field_present();
                    } else {
                        builder.break_field();
                    }
                }
                push_text(builder, value, quoted, mode);
            }
        }
    }
}

async fn expand_parts(
    host: &mut dyn ExpandHost,
    parts: &[WordPart],
    quoted: bool,
    mode: Mode,
    builder: &mut FieldBuilder<'_>,
) -> Result<(), ExpandError> {
    expand_parts_in(host, parts, quoted, false, mode, builder).await
}

/// Expands parts; `split_literals` is set inside the word of an unquoted
/// `${x:-word}`, whose literal text is itself an expansion result and so
/// is split on IFS. The leading parts that need no suspension (literals,
/// quotes, plain parameters, arithmetic without `$`) are expanded in
/// place; the rest goes through [`expand_parts_suspending`].
async fn expand_parts_in(
    host: &mut dyn ExpandHost,
    parts: &[WordPart],
    quoted: bool,
    split_literals: bool,
    mode: Mode,
    builder: &mut FieldBuilder<'_>,
) -> Result<(), ExpandError> {
    let mut done = 0;
    for part in parts {
        if !expand_part_now(host, part, quoted, split_literals, mode, builder)? {
            break;
        }
        done += 1;
    }
    if done < parts.len() {
        expand_parts_suspending(host, &parts[done..], quoted, split_literals, mode, builder).await?;
    }
    Ok(())
}

/// True when expanding `part` never suspends (see [`expand_part_now`]).
fn is_immediate(host: &dyn ExpandHost, part: &WordPart) -> bool {
    match part {
        WordPart::Literal(_) | WordPart::Escaped(_) | WordPart::SingleQuoted(_) | WordPart::AnsiCQuoted(_) => true,
        WordPart::DoubleQuoted(inner) | WordPart::LocaleQuoted(inner) => inner.iter().all(|part| is_immediate(host, part)),
        WordPart::Param(pe) => {
            let plain = pe.op.is_none() && pe.index.is_none() && !pe.length && !pe.indirect;
            // A nameref to an array element (`declare -n r='a[$i]'`) evaluates a subscript.
            plain && !matches!(&pe.param, Parameter::Named(name) if host.resolve_name(name).contains('['))
        }
        WordPart::Arith(expr) => !contains_expansion(expr),
        WordPart::Tilde(_) | WordPart::BraceRange(_) | WordPart::BadSubstitution(_) | WordPart::UnclosedSubstitution { .. } => true,
        _ => false,
    }
}

/// Expands `part` at once when that needs no suspension: `Ok(false)` when
/// it does (nothing was added then).
fn expand_part_now(
    host: &mut dyn ExpandHost,
    part: &WordPart,
    quoted: bool,
    split_literals: bool,
    mode: Mode,
    builder: &mut FieldBuilder<'_>,
) -> Result<bool, ExpandError> {
    if !is_immediate(host, part) {
        return Ok(false);
    }
    match part {
        WordPart::Literal(text) => {
            if quoted {
                builder.push_quoted(text);
            } else if split_literals && mode == Mode::Fields {
                builder.push_split(text);
            } else {
                builder.push_literal(text, mode != Mode::String);
            }
        }
        WordPart::Escaped(c) => builder.push_quoted(c.encode_utf8(&mut [0; 4])),
        WordPart::SingleQuoted(text) => builder.push_quoted(text),
        WordPart::AnsiCQuoted(bytes) => builder.push_quoted(&String::from_utf8_lossy(bytes)),
        WordPart::DoubleQuoted(inner) | WordPart::LocaleQuoted(inner) => {
            if inner.is_empty() {
                builder.mark_present();
            }
            for part in inner.iter() {
                if !expand_part_now(host, part, true, false, mode, builder)? {
                    return Err(ExpandError::BadSubstitution(String::from("internal: part needs suspension")));
                }
            }
        }
        WordPart::Param(pe) => match expand_plain_param(host, pe) {
            Some(value) => push_value(host, builder, value?, quoted, mode),
            None => return Ok(false),
        },
        WordPart::Arith(expr) => {
            let value = arith::eval(expr, &mut HostArith(host))?;
            push_text(builder, &value.to_string(), quoted, mode);
        }
        WordPart::Tilde(user) => match tilde(host, user) {
            Some(home) => builder.push_quoted(&home),
            None => builder.push_literal(&format!("~{user}"), false),
        },
        WordPart::BraceRange(range) => {
            let (start, end) = (&range.start, &range.end);
            let text = match &range.step {
                Some(step) => format!("{{{start}..{end}..{step}}}"),
                None => format!("{{{start}..{end}}}"),
            };
            builder.push_literal(&text, false);
        }
        WordPart::BadSubstitution(text) => return Err(ExpandError::BadSubstitution(text.clone())),
        WordPart::UnclosedSubstitution { closer, text } => {
            return Err(ExpandError::UnclosedSubstitution { closer: *closer, text: text.clone() })
        }
        _ => return Ok(false),
    }
    Ok(true)
}

/// Expands parts that may suspend (command substitutions, operators...).
fn expand_parts_suspending<'a>(
    host: &'a mut dyn ExpandHost,
    parts: &'a [WordPart],
    quoted: bool,
    split_literals: bool,
    mode: Mode,
    builder: &'a mut FieldBuilder<'_>,
) -> LocalFuture<'a, Result<(), ExpandError>> {
    Box::pin(async move {
        for part in parts {
            if expand_part_now(host, part, quoted, split_literals, mode, builder)? {
                continue;
            }
            match part {
                WordPart::DoubleQuoted(inner) | WordPart::LocaleQuoted(inner) => {
                    expand_parts_in(host, inner, true, false, mode, builder).await?;
                }
                WordPart::Param(pe) => match expand_param(host, pe, quoted).await? {
                    Expansion::Value(value) => push_value(host, builder, value, quoted, mode),
                    Expansion::Word(word) => {
                        if quoted && word.parts.is_empty() {
                            builder.mark_present();
                        }
                        expand_parts_in(host, &word.parts, quoted, !quoted, mode, builder).await?;
                    }
                },
                WordPart::CommandSub { body, .. } => {
                    let output = host.command_substitution(body).await?;
                    push_substitution_output(host, builder, output, quoted, mode).await;
                }
                WordPart::UnparsedBackquote(text) => {
                    let output = host.unparsed_substitution(text).await?;
                    push_substitution_output(host, builder, output, quoted, mode).await;
                }
                WordPart::Arith(expr) => {
                    let value = eval_arith(host, expr).await?;
                    push_text(builder, &value.to_string(), quoted, mode);
                }
                WordPart::ProcessSub { input, body } => {
                    let path = host.process_substitution(body, *input).await?;
                    builder.push_literal(&path, false);
                }
                WordPart::BraceList(words) => {
                    let mut texts = Vec::new();
                    for word in words {
                        texts.push(expand_string(host, word).await?);
                    }
                    builder.push_literal(&format!("{{{}}}", texts.join(",")), false);
                }
                WordPart::ExtGlob { op, patterns } => {
                    let mut pattern_texts = Vec::new();
                    let mut plain_texts = Vec::new();
                    for pattern in patterns {
                        pattern_texts.push(expand_pattern(host, pattern).await?);
                        plain_texts.push(expand_string(host, pattern).await?);
                    }
                    let text = format!("{op}({})", plain_texts.join("|"));
                    if quoted || mode == Mode::String {
                        builder.push_quoted(&text);
                    } else {
                        builder.push_pattern(&text, &format!("{op}({})", pattern_texts.join("|")));
                    }
                }
                // Expanded above by `expand_part_now`.
                _ => {}
            }
        }
        Ok(())
    })
}

/// A command substitution's output as part of a word: NUL bytes dropped
/// (with bash's warning), trailing newlines removed.
async fn push_substitution_output(host: &mut dyn ExpandHost, builder: &mut FieldBuilder<'_>, output: Vec<u8>, quoted: bool, mode: Mode) {
    let mut text = String::from_utf8_lossy(&output).into_owned();
    if text.contains('\0') {
        host.warn("warning: command substitution: ignored null byte in input").await;
        text.retain(|c| c != '\0');
    }
    push_text(builder, text.trim_end_matches('\n'), quoted, mode);
}

fn tilde(host: &dyn ExpandHost, user: &str) -> Option<String> {
    match user {
        "" => host.scalar("HOME").or_else(|| host.home_dir("")),
        "+" => host.scalar("PWD"),
        "-" => host.scalar("OLDPWD"),
        name => host.home_dir(name),
    }
}

/// Evaluates an arithmetic expansion. Trees holding `$`-expansions are
/// expanded to text first and re-read, as bash reads arithmetic after expansion.
pub async fn eval_arith(host: &mut dyn ExpandHost, expr: &ArithExpr) -> Result<i64, ExpandError> {
    if contains_expansion(expr) {
        let text = arith_text(host, expr).await?;
        return Ok(arith::eval_text(&text, &mut HostArith(host))?);
    }
    Ok(arith::eval(expr, &mut HostArith(host))?)
}

fn contains_expansion(expr: &ArithExpr) -> bool {
    match expr {
        ArithExpr::Expansion(_) | ArithExpr::Invalid(_) => true,
        ArithExpr::Source(_, inner) => contains_expansion(inner),
        ArithExpr::Number(_) | ArithExpr::Variable(_) => false,
        ArithExpr::Element(_, index) => contains_expansion(index),
        ArithExpr::Unary(_, e) => contains_expansion(e),
        ArithExpr::IncDec { target, .. } => contains_expansion(target),
        ArithExpr::Binary(_, a, b) | ArithExpr::Assign(_, a, b) | ArithExpr::Comma(a, b) => contains_expansion(a) || contains_expansion(b),
        ArithExpr::Conditional(a, b, c) => contains_expansion(a) || contains_expansion(b) || contains_expansion(c),
    }
}

/// The expression's text with every `$`-expansion replaced by its value,
/// with parentheses where the tree's grouping needs them.
fn arith_text<'a>(host: &'a mut dyn ExpandHost, expr: &'a ArithExpr) -> LocalFuture<'a, Result<String, ExpandError>> {
    Box::pin(async move {
        use super::arith_print::{group, operand_strengths, unary_symbol};
        let [first, second, third] = operand_strengths(expr);
        Ok(match expr {
            ArithExpr::Expansion(word) => expand_string(host, word).await?,
            ArithExpr::Invalid(text) => expand_invalid_text(host, text).await?,
            ArithExpr::Source(text, inner) => match expand_source_text(host, &text.0, inner).await? {
                Some(expanded) => expanded,
                None => arith_text(host, inner).await?,
            },
            ArithExpr::Number(n) => n.clone(),
            ArithExpr::Variable(v) => v.clone(),
            ArithExpr::Element(name, index) => format!("{name}[{}]", arith_text(host, index).await?),
            ArithExpr::Unary(op, e) => format!("{}{}", unary_symbol(*op), group(arith_text(host, e).await?, e, first)),
            ArithExpr::IncDec { increment, prefix, target } => {
                let op = if *increment { "++" } else { "--" };
                let t = arith_text(host, target).await?;
                if *prefix {
                    format!("{op}{t}")
                } else {
                    format!("{t}{op}")
                }
            }
            ArithExpr::Binary(op, a, b) => {
                let (a_text, b_text) = (arith_text(host, a).await?, arith_text(host, b).await?);
                format!("{} {} {}", group(a_text, a, first), op.symbol(), group(b_text, b, second))
            }
            ArithExpr::Assign(op, a, b) => {
                let symbol = op.map(|o| format!("{}=", o.symbol())).unwrap_or_else(|| "=".to_string());
                format!("{} {symbol} {}", arith_text(host, a).await?, group(arith_text(host, b).await?, b, second))
            }
            ArithExpr::Conditional(a, b, c) => {
                let (a_text, b_text, c_text) = (arith_text(host, a).await?, arith_text(host, b).await?, arith_text(host, c).await?);
                format!("{} ? {} : {}", group(a_text, a, first), group(b_text, b, second), group(c_text, c, third))
            }
            ArithExpr::Comma(a, b) => {
                let (a_text, b_text) = (arith_text(host, a).await?, arith_text(host, b).await?);
                format!("{}, {}", group(a_text, a, first), group(b_text, b, second))
            }
        })
    })
}

/// The source text of an expression with each `$`-expansion replaced by its
/// value, in order, keeping the text's own spacing; `None` when an
/// expansion's printed form is not found in the text as written.
async fn expand_source_text(host: &mut dyn ExpandHost, text: &str, expr: &ArithExpr) -> Result<Option<String>, ExpandError> {
    fn collect<'a>(expr: &'a ArithExpr, words: &mut Vec<&'a Word>) {
        match expr {
            ArithExpr::Expansion(word) => words.push(word),
            ArithExpr::Element(_, inner) | ArithExpr::Unary(_, inner) | ArithExpr::Source(_, inner) => collect(inner, words),
            ArithExpr::IncDec { target, .. } => collect(target, words),
            ArithExpr::Binary(_, a, b) | ArithExpr::Assign(_, a, b) | ArithExpr::Comma(a, b) => {
                collect(a, words);
                collect(b, words);
            }
            ArithExpr::Conditional(a, b, c) => {
                collect(a, words);
                collect(b, words);
                collect(c, words);
            }
            ArithExpr::Number(_) | ArithExpr::Variable(_) | ArithExpr::Invalid(_) => {}
        }
    }
    let mut words = Vec::new();
    collect(expr, &mut words);
    let mut located = Vec::with_capacity(words.len());
    let mut cursor = 0;
    for word in words {
        let printed = crate::syntax::printer::print_word(word);
        let Some(found) = text.get(cursor..).and_then(|rest| rest.find(&printed)) else {
            return Ok(None);
        };
        located.push((cursor + found, printed.len(), word));
        cursor += found + printed.len();
    }
    // Quotes and escapes outside the expansions are the tree's to read.
    let mut pieces = Vec::with_capacity(located.len() + 1);
    let mut cursor = 0;
    for (start, length, _) in &located {
        pieces.push(&text[cursor..*start]);
        cursor = start + length;
    }
    pieces.push(&text[cursor..]);
    if pieces.iter().any(|piece| piece.contains(['"', '\'', '\\', '`', '$'])) {
        return Ok(None);
    }
    let mut out = String::with_capacity(text.len());
    for (piece, (_, _, word)) in pieces.iter().zip(&located) {
        out.push_str(piece);
        out.push_str(&expand_string(host, word).await?);
    }
    out.push_str(pieces.last().copied().unwrap_or(""));
    Ok(Some(out))
}

/// Expands `$name` and `${name}` inside raw arithmetic text that did not
/// parse at parse time (`$((1 $op 2))`).
async fn expand_invalid_text(host: &mut dyn ExpandHost, text: &str) -> Result<String, ExpandError> {
    let mut out = String::new();
    let chars: Vec<char> = text.chars().collect();
    let mut index = 0;
    while index < chars.len() {
        if chars[index] == '$' {
            let braced = chars.get(index + 1) == Some(&'{');
            let start = index + if braced { 2 } else { 1 };
            let mut end = start;
            while end < chars.len() && (chars[end].is_ascii_alphanumeric() || chars[end] == '_') {
                end += 1;
            }
            if end > start {
                let name: String = chars[start..end].iter().collect();
                let resolved = host.resolve_name(&name);
                out.push_str(&host.scalar(&resolved).unwrap_or_default());
                index = if braced && chars.get(end) == Some(&'}') { end + 1 } else { end };
                continue;
            }
        }
        out.push(chars[index]);
        index += 1;
    }
    let _ = escape;
    let _ = unescape;
    Ok(out)
}
