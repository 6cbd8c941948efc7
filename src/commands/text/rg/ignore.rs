//! Gitignore-format rules (`.gitignore`, `.ignore`, `.rgignore`, and the
//! `-g` globs): each line a glob, `!` to re-include, a trailing `/` for
//! directories only, a `/` at the start or in the middle to anchor it to the
//! file's directory, `**` for any number of directories. All the globs of
//! one file become one set, so a path is tested in one pass.

use regex::bytes::RegexSet;

/// What a set of rules says about a path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// No rule matches.
    None,
    /// The last matching rule excludes it.
    Ignore,
    /// The last matching rule is a `!` rule: included.
    Whitelist,
}

/// One glob line.
struct Rule {
    negated: bool,
    directory_only: bool,
}

/// The rules of one ignore file (or the `-g` list), matched against paths
/// relative to the directory they apply to.
pub struct Rules {
    set: RegexSet,
    rules: Vec<Rule>,
}

impl Rules {
    /// Parses the lines of an ignore file; lines that cannot be compiled
    /// are skipped, as git does.
    pub fn parse(text: &[u8], ignore_case: bool) -> Option<Rules> {
        let lines = text.split(|&b| b == b'\n').map(|line| String::from_utf8_lossy(line.strip_suffix(b"\r").unwrap_or(line)).into_owned());
        Rules::from_globs(lines, ignore_case, false)
    }

    /// Compiles `-g` globs: a plain glob includes, `!glob` excludes (the
    /// reverse of an ignore file).
    pub fn overrides(globs: &[String], ignore_case: bool) -> Result<Option<Rules>, String> {
        for glob in globs {
            let body = glob.strip_prefix('!').unwrap_or(glob);
            if let Some(message) = glob_error(body) {
                return Err(format!("error parsing glob '{body}': {message}"));
            }
        }
        Ok(Rules::from_globs(globs.iter().cloned(), ignore_case, true))
    }

    fn from_globs(lines: impl Iterator<Item = String>, ignore_case: bool, inverted: bool) -> Option<Rules> {
        let mut patterns = Vec::new();
        let mut rules = Vec::new();
        for line in lines {
            let Some((pattern, mut rule)) = compile_line(&line, ignore_case) else { continue };
            if inverted {
                rule.negated = !rule.negated;
            }
            if regex::bytes::Regex::new(&pattern).is_ok() {
                patterns.push(pattern);
                rules.push(rule);
            }
        }
        if rules.is_empty() {
            return None;
        }
        let set = RegexSet::new(&patterns).ok()?;
        Some(Rules { set, rules })
    }

    /// The number of include (`!`-less for globs) rules, which make every
    /// unmatched file excluded.
    pub fn whitelist_count(&self) -> usize {
        self.rules.iter().filter(|rule| rule.negated).count()
    }

    /// What the last matching rule says about `path` (relative, `/`
    /// separated).
    pub fn matched(&self, path: &str, is_dir: bool) -> Verdict {
        let found = self.set.matches(path.as_bytes());
        for index in found.iter().collect::<Vec<_>>().into_iter().rev() {
            let Some(rule) = self.rules.get(index) else { continue };
            if rule.directory_only && !is_dir {
                continue;
            }
            return if rule.negated { Verdict::Whitelist } else { Verdict::Ignore };
        }
        Verdict::None
    }
}

/// The regex of one gitignore line and its flags; `None` for blank lines
/// and comments.
fn compile_line(line: &str, ignore_case: bool) -> Option<(String, Rule)> {
    let mut glob = trim_trailing_spaces(line);
    if glob.is_empty() || glob.starts_with('#') {
        return None;
    }
    let mut rule = Rule { negated: false, directory_only: false };
    if let Some(rest) = glob.strip_prefix('!') {
        rule.negated = true;
        glob = rest;
    } else if glob.starts_with("\\!") || glob.starts_with("\\#") {
        glob = &glob[1..];
    }
    if let Some(rest) = glob.strip_suffix('/') {
        rule.directory_only = true;
        glob = rest;
    }
    if glob.is_empty() {
        return None;
    }
    let anchored = glob.contains('/');
    let glob = glob.strip_prefix('/').unwrap_or(glob);
    let mut pattern = String::from(if ignore_case { "(?i-u)^" } else { "(?-u)^" });
    if !anchored && !glob.starts_with("**/") {
        pattern.push_str("(?:.*/)?");
    }
    translate(glob, &mut pattern);
    pattern.push('$');
    Some((pattern, rule))
}

/// Drops trailing spaces that no backslash protects.
fn trim_trailing_spaces(line: &str) -> &str {
    let mut end = line.len();
    while end > 0 && line.as_bytes().get(end - 1) == Some(&b' ') {
        if end >= 2 && line.as_bytes().get(end - 2) == Some(&b'\\') {
            break;
        }
        end -= 1;
    }
    line.get(..end).unwrap_or(line)
}

/// Why a `-g` glob is refused, as ripgrep words it.
fn glob_error(glob: &str) -> Option<&'static str> {
    let mut chars = glob.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if chars.next().is_none() => return Some("dangling '\\'"),
            '[' => {
                let mut closed = false;
                let mut first = true;
                while let Some(inner) = chars.next() {
                    if inner == ']' && !first {
                        closed = true;
                        break;
                    }
                    first = false;
                    if inner == '\\' {
                        chars.next();
                    }
                }
                if !closed {
                    return Some("unclosed character class; missing ']'");
                }
            }
            _ => {}
        }
    }
    None
}

/// Appends the regex for a gitignore glob: `*` and `?` stop at `/`, `**`
/// crosses directories, bracket expressions pass through.
pub fn translate(glob: &str, out: &mut String) {
    let chars: Vec<char> = glob.chars().collect();
    let mut index = 0;
    while let Some(&c) = chars.get(index) {
        index += 1;
        match c {
            '*' if chars.get(index) == Some(&'*') => {
                let at_start = index == 1 || chars.get(index.wrapping_sub(2)) == Some(&'/');
                index += 1;
                match chars.get(index) {
                    Some('/') if at_start => {
                        index += 1;
                        out.push_str("(?:.*/)?");
                    }
                    None if at_start => out.push_str(".*"),
                    _ => out.push_str("[^/]*"),
                }
            }
            '*' => out.push_str("[^/]*"),
            '?' => out.push_str("[^/]"),
            '[' => index = bracket(&chars, index, out),
            '\\' => {
                if let Some(&next) = chars.get(index) {
                    index += 1;
                    push_literal(next, out);
                }
            }
            other => push_literal(other, out),
        }
    }
}

/// Appends a bracket expression starting after its `[`; returns the index
/// after its `]` (an unclosed one is a literal `[`).
fn bracket(chars: &[char], start: usize, out: &mut String) -> usize {
    let mut index = start;
    let mut class = String::from("[");
    if matches!(chars.get(index), Some('!' | '^')) {
        class.push('^');
        index += 1;
    }
    let mut first = true;
    while let Some(&c) = chars.get(index) {
        index += 1;
        match c {
            ']' if !first => {
                class.push(']');
                out.push_str(&class);
                return index;
            }
            '\\' => {
                if let Some(&next) = chars.get(index) {
                    index += 1;
                    class.push('\\');
                    class.push(next);
                }
            }
            '[' | '&' | '~' => {
                class.push('\\');
                class.push(c);
            }
            other => class.push(other),
        }
        first = false;
    }
    out.push_str(r"\[");
    start
}

fn push_literal(c: char, out: &mut String) {
    if c.is_ascii_punctuation() {
        out.push('\\');
    }
    out.push(c);
}

#[cfg(test)]
mod tests {
    use super::{Rules, Verdict};

    fn rules(text: &str) -> Rules {
        match Rules::parse(text.as_bytes(), false) {
            Some(rules) => rules,
            None => panic!("no rules in {text:?}"),
        }
    }

    #[test]
    fn unanchored_globs_match_any_level() {
        let r = rules("*.log\n");
        assert_eq!(r.matched("a.log", false), Verdict::Ignore);
        assert_eq!(r.matched("x/y/a.log", false), Verdict::Ignore);
        assert_eq!(r.matched("a.txt", false), Verdict::None);
    }

    #[test]
    fn anchored_directory_and_negation() {
        let r = rules("/build\nout/\n*.txt\n!keep.txt\ndoc/**/*.md\n");
        assert_eq!(r.matched("build", true), Verdict::Ignore);
        assert_eq!(r.matched("x/build", true), Verdict::None);
        assert_eq!(r.matched("out", false), Verdict::None);
        assert_eq!(r.matched("a/out", true), Verdict::Ignore);
        assert_eq!(r.matched("keep.txt", false), Verdict::Whitelist);
        assert_eq!(r.matched("doc/a/b/c.md", false), Verdict::Ignore);
        assert_eq!(r.matched("doc/c.md", false), Verdict::Ignore);
    }

    #[test]
    fn comments_escapes_and_brackets() {
        let r = rules("# c\n\\#x\nf[0-9]\n  \n");
        assert_eq!(r.matched("#x", false), Verdict::Ignore);
        assert_eq!(r.matched("f7", false), Verdict::Ignore);
        assert_eq!(r.matched("fa", false), Verdict::None);
    }
}
