//! The tree shapes the interpreter relies on, option-dependent parsing
//! (extglob, aliases, one line at a time), completeness and line numbers.

use std::collections::HashMap;
use wabash::syntax::ast::*;
use wabash::syntax::{completeness, line_number, parse, print, Completeness, ParseOptions, Parser};

fn first_simple(source: &str) -> SimpleCommand {
    let list = parse(source, &ParseOptions::default()).unwrap_or_else(|e| panic!("{source}: {e}"));
    match list.items.into_iter().next().map(|item| item.and_or.first.commands.into_iter().next()) {
        Some(Some(Command::Simple(simple))) => simple,
        other => panic!("not a simple command: {other:?}"),
    }
}

fn word_parts(source: &str, index: usize) -> Vec<WordPart> {
    match first_simple(source).words.into_iter().nth(index) {
        Some(Argument::Word(word)) => word.parts.into_vec(),
        other => panic!("no word {index} in {source}: {other:?}"),
    }
}

#[test]
fn double_quotes_keep_backslashes_that_escape_nothing() {
    let parts = word_parts(r#"echo "\$ \a""#, 1);
    assert_eq!(parts, vec![WordPart::DoubleQuoted(vec![WordPart::Escaped('$'), WordPart::Literal(" \\a".into())])]);
}

#[test]
fn positional_parameters_take_one_digit_unbraced() {
    let parts = word_parts("echo $10", 1);
    assert!(matches!(&parts[0], WordPart::Param(p) if p.param == Parameter::Positional(1) && !p.braced));
    assert_eq!(parts[1], WordPart::Literal("0".into()));
    let braced = word_parts("echo ${10}", 1);
    assert!(matches!(&braced[0], WordPart::Param(p) if p.param == Parameter::Positional(10)));
}

#[test]
fn braces_expand_only_when_bash_would() {
    assert_eq!(word_parts("echo {a}", 1), vec![WordPart::Literal("{a}".into())]);
    assert_eq!(word_parts("echo {}", 1), vec![WordPart::Literal("{}".into())]);
    assert!(matches!(&word_parts("echo {a,b}", 1)[0], WordPart::BraceList(words) if words.len() == 2));
    assert!(matches!(&word_parts("echo {1..5..2}", 1)[0], WordPart::BraceRange(range) if range.step.is_some()));
    assert_eq!(word_parts("echo \"{a,b}\"", 1).len(), 1);
}

#[test]
fn tildes_expand_after_equals_and_colons_in_assignments() {
    let simple = first_simple("PATH=~/bin:~x/y:$PATH");
    let AssignValue::Scalar(value) = &simple.assignments[0].value else { panic!() };
    assert_eq!(value.parts[0], WordPart::Tilde(String::new()));
    assert!(value.parts.contains(&WordPart::Tilde("x".to_string())));
    assert_eq!(word_parts("echo a~", 1), vec![WordPart::Literal("a~".into())]);
}

#[test]
fn declaration_builtins_take_assignments() {
    let simple = first_simple("declare -A m=([k]=v) plain x+=1");
    assert!(matches!(&simple.words[2], Argument::Assignment(a) if a.name == "m" && matches!(a.value, AssignValue::Array(_))));
    assert!(matches!(&simple.words[3], Argument::Word(_)));
    assert!(matches!(&simple.words[4], Argument::Assignment(a) if a.append));
    assert!(matches!(&first_simple("echo x=1").words[1], Argument::Word(_)));
}

#[test]
fn arithmetic_errors_wait_for_run_time() {
    let parts = word_parts("echo $((1 +))", 1);
    assert_eq!(parts, vec![WordPart::Arith(Box::new(ArithExpr::Invalid("1 +".to_string())))]);
}

#[test]
fn bad_substitutions_wait_for_run_time() {
    assert_eq!(word_parts("echo ${x!}", 1), vec![WordPart::BadSubstitution("${x!}".to_string())]);
}

#[test]
fn subscripts_are_words() {
    let parts = word_parts("echo ${a[$i+1]}", 1);
    assert!(matches!(&parts[0], WordPart::Param(p) if matches!(&p.index, Some(Subscript::Expr(w)) if w.parts.len() == 2)));
}

#[test]
fn heredoc_bodies_are_parsed_words() {
    let simple = first_simple("cat <<EOF\nhi $name \\$x\nEOF\n");
    let RedirectTarget::HereDoc(doc) = &simple.redirects[0].target else { panic!() };
    assert!(!doc.quoted);
    assert_eq!(doc.body.parts[0], WordPart::Literal("hi ".into()));
    assert!(matches!(&doc.body.parts[1], WordPart::Param(_)));
    assert_eq!(doc.body.parts[3], WordPart::Escaped('$'));
    let quoted = first_simple("cat <<'EOF'\n$x\nEOF");
    let RedirectTarget::HereDoc(doc) = &quoted.redirects[0].target else { panic!() };
    assert!(doc.quoted);
    assert_eq!(doc.body.parts.as_slice(), &[WordPart::Literal("$x\n".into())]);
}

#[test]
fn extglob_changes_how_the_next_line_parses() {
    let source = "shopt -s extglob\necho @(a|b)\n";
    let mut parser = Parser::new(source);
    let mut options = ParseOptions::default();
    assert!(parser.next_line(&options).unwrap().is_some());
    options.extglob = true;
    let line = parser.next_line(&options).unwrap().unwrap();
    assert!(print(&line).contains("@(a|b)"));
    assert!(parse("echo @(a|b)", &ParseOptions::default()).is_err());
    assert!(parse("[[ x == @(a|b) ]]", &ParseOptions::default()).is_ok());
    assert!(parse("case x in @(a|b)) ;; esac", &ParseOptions { extglob: true, ..ParseOptions::default() }).is_ok());
}

#[test]
fn aliases_expand_in_command_position() {
    let mut aliases = HashMap::new();
    aliases.insert("ll".to_string(), "ls -l".to_string());
    aliases.insert("ls".to_string(), "ls --color".to_string());
    aliases.insert("begin".to_string(), "if true; then".to_string());
    let options = ParseOptions { aliases, ..ParseOptions::default() };
    let list = parse("ll /tmp; echo ll", &options).unwrap();
    assert_eq!(print(&list), "ls --color -l /tmp; echo ll");
    assert!(parse("begin echo yes; fi", &options).is_ok());
}

#[test]
fn completeness_tells_when_more_input_is_needed() {
    assert_eq!(completeness("echo hi"), Completeness::Complete);
    assert_eq!(completeness("if true; then"), Completeness::Incomplete);
    assert_eq!(completeness("echo \"abc"), Completeness::Incomplete);
    assert_eq!(completeness("cat <<EOF\nbody"), Completeness::Incomplete);
    assert_eq!(completeness("echo $(ls"), Completeness::Incomplete);
    assert_eq!(completeness("fi"), Completeness::Complete);
    assert_eq!(completeness("echo a \\"), Completeness::Incomplete);
    assert_eq!(completeness("echo a \\\\"), Completeness::Complete);
    // In `[[ ]]` bash reads on after `&&`, `||` and a complete test, but a
    // newline where an operator or operand must stand is an error.
    assert_eq!(completeness("[[ a &&"), Completeness::Incomplete);
    assert_eq!(completeness("[[ ( a )"), Completeness::Incomplete);
    assert_eq!(completeness("[[ -n a"), Completeness::Incomplete);
    assert_eq!(completeness("[[ a"), Completeness::Complete);
    assert_eq!(completeness("[[ -n"), Completeness::Complete);
    assert_eq!(completeness("[[ ]]"), Completeness::Complete);
}

#[test]
fn spans_map_to_line_numbers() {
    let source = "echo one\nif true; then\n  echo three\nfi\n";
    let list = parse(source, &ParseOptions::default()).unwrap();
    let Command::Compound(compound, _, _) = &list.items[1].and_or.first.commands[0] else { panic!() };
    let CompoundCommand::If { branches, .. } = &**compound else { panic!() };
    let Command::Simple(inner) = &branches[0].1.items[0].and_or.first.commands[0] else { panic!() };
    assert_eq!(line_number(source, inner.span.start as usize), 3);
    assert_eq!(line_number(source, list.items[1].span.start as usize), 2);
}

#[test]
fn syntax_errors_render_as_bash_prints_them() {
    let error = parse("if true; then fi", &ParseOptions::default()).unwrap_err();
    assert_eq!(
        error.render("bash: -c"),
        "bash: -c: line 1: syntax error near unexpected token `fi'\nbash: -c: line 1: `if true; then fi'\n"
    );
}
