//! A GNU `getopt_long`-style option parser shared by the utilities.
//!
//! It accepts bundled short options (`-la`), short options with attached or
//! separate arguments (`-n5`, `-n 5`), long options with `=` or separate
//! arguments (`--width=80`, `--width 80`), unique prefixes of long options
//! (`--recur`), `--` to end options, and permutation (options after operands)
//! unless the spec asks to stop at the first operand. Errors carry the exact
//! text glibc prints, followed by the `Try 'NAME --help'` hint.
//!
//! ```ignore
//! const SPEC: Spec = Spec::new("alw:", &[Long::flag("all", "a"), Long::required("width", "w")]);
//! let parsed = parse_or_report(ctx, &SPEC, 2).await?;
//! for (key, value) in &parsed.options { match *key { "a" => ..., "w" => ..., _ => {} } }
//! ```

use crate::utility::Invocation;

/// Whether an option takes an argument.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HasArg {
    /// A flag (`-a`, `--all`).
    No,
    /// An argument is required (`-w 80`, `--width=80`).
    Required,
    /// An argument may be attached (`--color[=WHEN]`); never taken from the next word.
    Optional,
}

/// A long option, and the key it reports under (the short letter it aliases,
/// or a name of its own for long-only options).
#[derive(Debug, Clone, Copy)]
pub struct Long {
    /// The name without dashes (`all`).
    pub name: &'static str,
    /// Whether it takes an argument.
    pub has_arg: HasArg,
    /// The key reported in [`Parsed::options`].
    pub key: &'static str,
}

impl Long {
    /// A long flag reported as `key`.
    pub const fn flag(name: &'static str, key: &'static str) -> Long {
        Long { name, has_arg: HasArg::No, key }
    }

    /// A long option with a required argument.
    pub const fn required(name: &'static str, key: &'static str) -> Long {
        Long { name, has_arg: HasArg::Required, key }
    }

    /// A long option with an optional attached argument.
    pub const fn optional(name: &'static str, key: &'static str) -> Long {
        Long { name, has_arg: HasArg::Optional, key }
    }
}

/// The options a utility accepts.
#[derive(Debug, Clone, Copy)]
pub struct Spec {
    /// Short options, getopt style: a letter, `:` after it for a required
    /// argument, `::` for an optional attached one (`"alw:"`).
    pub short: &'static str,
    /// Long options.
    pub long: &'static [Long],
    /// Stop at the first operand (getopt's leading `+`), for utilities that
    /// run a command (`env`, `timeout`) or take expressions (`find`).
    pub stop_at_operand: bool,
    /// Treat `-` followed by a digit as an operand, not an option cluster
    /// (for utilities that take negative numbers).
    pub digits_are_operands: bool,
}

impl Spec {
    /// A spec that permutes (options may follow operands).
    pub const fn new(short: &'static str, long: &'static [Long]) -> Spec {
        Spec { short, long, stop_at_operand: false, digits_are_operands: false }
    }

    /// The same spec, stopping at the first operand.
    pub const fn stopping(self) -> Spec {
        Spec { stop_at_operand: true, ..self }
    }

    /// How the short option `letter` takes an argument, or `None` if unknown.
    fn short_arg(&self, letter: char) -> Option<HasArg> {
        if letter == ':' {
            return None;
        }
        for (index, c) in self.short.char_indices() {
            if c == letter {
                let rest = &self.short[index + c.len_utf8()..];
                return Some(if rest.starts_with("::") {
                    HasArg::Optional
                } else if rest.starts_with(':') {
                    HasArg::Required
                } else {
                    HasArg::No
                });
            }
        }
        None
    }

    /// The long option `name` names, exactly or as a unique prefix.
    fn find_long(&self, name: &str) -> Result<&Long, OptionError> {
        if let Some(exact) = self.long.iter().find(|long| long.name == name) {
            return Ok(exact);
        }
        let matches: Vec<&Long> = self.long.iter().filter(|long| long.name.starts_with(name)).collect();
        match matches.as_slice() {
            [] => Err(OptionError::Unrecognized(format!("--{name}"))),
            [only] => Ok(only),
            [first, rest @ ..] => {
                // Prefixes of several spellings of one option are not ambiguous.
                if rest.iter().all(|long| long.key == first.key && long.has_arg == first.has_arg) {
                    return Ok(first);
                }
                let mut names: Vec<&str> = matches.iter().map(|long| long.name).collect();
                names.sort_unstable();
                names.dedup();
                Err(OptionError::Ambiguous(name.to_string(), names.iter().map(|n| n.to_string()).collect()))
            }
        }
    }
}

/// The options found, in command-line order, and the operands.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Parsed {
    /// `(key, argument)` for each option given: the short letter as a string
    /// (`"l"`) or a long option's key.
    pub options: Vec<(&'static str, Option<String>)>,
    /// The words that are not options, in order.
    pub operands: Vec<String>,
}

impl Parsed {
    /// True when the option `key` was given at least once.
    pub fn has(&self, key: &str) -> bool {
        self.options.iter().any(|(k, _)| *k == key)
    }

    /// The argument of the last `key` given.
    pub fn value(&self, key: &str) -> Option<&str> {
        self.options.iter().rev().find(|(k, _)| *k == key).and_then(|(_, v)| v.as_deref())
    }
}

/// A command line the spec does not accept.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OptionError {
    /// An unknown short option letter.
    Invalid(char),
    /// An unknown long option (as written, with dashes, without `=value`).
    Unrecognized(String),
    /// A short option missing its argument.
    MissingShort(char),
    /// A long option missing its argument.
    MissingLong(String),
    /// A long flag given `=value`.
    UnexpectedArgument(String),
    /// A prefix matching several long options, and their names.
    Ambiguous(String, Vec<String>),
}

impl OptionError {
    /// The message glibc prints after `NAME: `.
    pub fn message(&self) -> String {
        match self {
            OptionError::Invalid(letter) => format!("invalid option -- '{letter}'"),
            OptionError::Unrecognized(word) => format!("unrecognized option '{word}'"),
            OptionError::MissingShort(letter) => {
                format!("option requires an argument -- '{letter}'")
            }
            OptionError::MissingLong(name) => format!("option '--{name}' requires an argument"),
            OptionError::UnexpectedArgument(name) => {
                format!("option '--{name}' doesn't allow an argument")
            }
            OptionError::Ambiguous(name, names) => {
                let list: Vec<String> = names.iter().map(|n| format!("'--{n}'")).collect();
                format!("option '--{name}' is ambiguous; possibilities: {}", list.join(" "))
            }
        }
    }
}

/// Parses `args` (without the command name) against `spec`.
pub fn parse(spec: &Spec, args: &[String]) -> Result<Parsed, OptionError> {
    let mut parsed = Parsed::default();
    let mut index = 0;
    while let Some(word) = args.get(index) {
        index += 1;
        if word == "--" {
            parsed.operands.extend(args.iter().skip(index).cloned());
            break;
        }
        if let Some(body) = word.strip_prefix("--") {
            let (name, attached) = match body.split_once('=') {
                Some((name, value)) => (name, Some(value.to_string())),
                None => (body, None),
            };
            let long = spec.find_long(name)?;
            let value = match (long.has_arg, attached) {
                (HasArg::No, Some(_)) => return Err(OptionError::UnexpectedArgument(long.name.to_string())),
                (HasArg::No, None) => None,
                (HasArg::Optional, attached) => attached,
                (HasArg::Required, Some(value)) => Some(value),
                (HasArg::Required, None) => {
                    let next = args.get(index).cloned().ok_or_else(|| OptionError::MissingLong(long.name.to_string()))?;
                    index += 1;
                    Some(next)
                }
            };
            parsed.options.push((long.key, value));
            continue;
        }
        let is_cluster =
            word.len() > 1 && word.starts_with('-') && !(spec.digits_are_operands && word[1..].starts_with(|c: char| c.is_ascii_digit()));
        if !is_cluster {
            parsed.operands.push(word.clone());
            if spec.stop_at_operand {
                parsed.operands.extend(args.iter().skip(index).cloned());
                break;
            }
            continue;
        }
        let cluster = &word[1..];
        for (offset, letter) in cluster.char_indices() {
            let has_arg = spec.short_arg(letter).ok_or(OptionError::Invalid(letter))?;
            let key = short_key(spec, letter);
            let rest = &cluster[offset + letter.len_utf8()..];
            match has_arg {
                HasArg::No => parsed.options.push((key, None)),
                HasArg::Optional => {
                    parsed.options.push((key, (!rest.is_empty()).then(|| rest.to_string())));
                    break;
                }
                HasArg::Required => {
                    let value = if rest.is_empty() {
                        let next = args.get(index).cloned().ok_or(OptionError::MissingShort(letter))?;
                        index += 1;
                        next
                    } else {
                        rest.to_string()
                    };
                    parsed.options.push((key, Some(value)));
                    break;
                }
            }
        }
    }
    Ok(parsed)
}

/// The `'static` key of a short option: its letter sliced out of the spec.
fn short_key(spec: &Spec, letter: char) -> &'static str {
    let short: &'static str = spec.short;
    match short.char_indices().find(|(_, c)| *c == letter) {
        Some((index, c)) => short.get(index..index + c.len_utf8()).unwrap_or(""),
        None => "",
    }
}

/// Writes `NAME: message` and the `Try 'NAME --help'` hint to standard error.
pub async fn report_usage(ctx: &Invocation<'_>, message: &str) {
    let name = ctx.name().to_string();
    let text = format!("{name}: {message}\nTry '{name} --help' for more information.\n");
    let _ = ctx.stderr.write(text.as_bytes()).await;
}

/// Reports a bad argument of an enumerated option as GNU's `argmatch` does:
/// the value, the list of valid spellings (one group per meaning) and the
/// usage hint.
pub async fn report_invalid_argument(ctx: &Invocation<'_>, value: &str, option: &str, groups: &[&[&str]]) {
    let q = |text: &str| crate::commands::format::quote_locale(ctx, text);
    let mut text = format!("{}: invalid argument {} for {}\nValid arguments are:\n", ctx.name(), q(value), q(option));
    for group in groups {
        let spellings: Vec<String> = group.iter().map(|s| q(s)).collect();
        text.push_str(&format!("  - {}\n", spellings.join(", ")));
    }
    text.push_str(&format!("Try '{} --help' for more information.\n", ctx.name()));
    let _ = ctx.stderr.write(text.as_bytes()).await;
}

/// Parses the invocation's arguments; on a bad command line reports it as
/// glibc does and returns `Err(status)` (2 for `ls`, 1 for most tools).
pub async fn parse_or_report(ctx: &Invocation<'_>, spec: &Spec, status: i32) -> Result<Parsed, i32> {
    let args = ctx.args.get(1..).unwrap_or(&[]);
    match parse(spec, args) {
        Ok(parsed) => Ok(parsed),
        Err(error) => {
            report_usage(ctx, &error.message()).await;
            Err(status)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LONGS: &[Long] = &[
        Long::flag("all", "a"),
        Long::flag("almost-all", "A"),
        Long::required("width", "w"),
        Long::optional("color", "color"),
        Long::flag("classify", "F"),
        Long::flag("context", "Z"),
        Long::flag("recursive", "R"),
    ];
    const SPEC: Spec = Spec::new("aAlw:n::RFZ", LONGS);

    fn words(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    fn run(list: &[&str]) -> Result<Parsed, OptionError> {
        parse(&SPEC, &words(list))
    }

    #[test]
    fn bundles_and_arguments() {
        let parsed = run(&["-la", "x", "-w5", "-w", "7", "y"]).unwrap();
        assert_eq!(parsed.options, vec![("l", None), ("a", None), ("w", Some("5".into())), ("w", Some("7".into()))]);
        assert_eq!(parsed.operands, words(&["x", "y"]));
        assert_eq!(parsed.value("w"), Some("7"));
        let parsed = run(&["-aw", "3"]).unwrap();
        assert_eq!(parsed.value("w"), Some("3"));
        let parsed = run(&["-n", "x"]).unwrap();
        assert_eq!(parsed.options, vec![("n", None)]);
        assert_eq!(run(&["-n4"]).unwrap().value("n"), Some("4"));
    }

    #[test]
    fn long_options_prefixes_and_end() {
        let parsed = run(&["--all", "--width=9", "--width", "10", "--colo=never", "--recur"]).unwrap();
        assert!(parsed.has("a") && parsed.has("R"));
        assert_eq!(parsed.value("w"), Some("10"));
        assert_eq!(parsed.value("color"), Some("never"));
        let parsed = run(&["--", "-l", "--all"]).unwrap();
        assert!(parsed.options.is_empty());
        assert_eq!(parsed.operands, words(&["-l", "--all"]));
        assert_eq!(run(&["-"]).unwrap().operands, words(&["-"]));
    }

    #[test]
    fn errors_read_as_glibc() {
        assert_eq!(run(&["-Q"]).unwrap_err().message(), "invalid option -- 'Q'");
        assert_eq!(run(&["--foo"]).unwrap_err().message(), "unrecognized option '--foo'");
        assert_eq!(run(&["--foo=1"]).unwrap_err().message(), "unrecognized option '--foo'");
        assert_eq!(run(&["-w"]).unwrap_err().message(), "option requires an argument -- 'w'");
        assert_eq!(run(&["--width"]).unwrap_err().message(), "option '--width' requires an argument");
        assert_eq!(run(&["--all=3"]).unwrap_err().message(), "option '--all' doesn't allow an argument");
        assert_eq!(run(&["--c"]).unwrap_err().message(), "option '--c' is ambiguous; possibilities: '--classify' '--color' '--context'");
    }

    #[test]
    fn stopping_and_digits() {
        let spec = Spec::new("a", &[]).stopping();
        let parsed = parse(&spec, &words(&["-a", "cmd", "-a"])).unwrap();
        assert_eq!(parsed.operands, words(&["cmd", "-a"]));
        let spec = Spec { digits_are_operands: true, ..Spec::new("a", &[]) };
        assert_eq!(parse(&spec, &words(&["-5"])).unwrap().operands, words(&["-5"]));
    }
}
