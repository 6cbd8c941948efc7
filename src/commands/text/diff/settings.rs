//! `diff`'s command line: the options it accepts, their checks with GNU's
//! messages, and the usage text.

use super::equivalence::{Equality, WhiteSpace};
use crate::commands::options::{parse, Long, Parsed, Spec};
use crate::expand::pattern::{Pattern, PatternOptions};

/// The short options (getopt style).
const SHORT: &str = "abBcC:dilNqrsuU:vwW:x:yZ";

const SPEC: Spec = Spec::new(
    SHORT,
    &[
        Long::flag("brief", "q"),
        Long::optional("color", "color"),
        Long::optional("context", "C"),
        Long::required("exclude", "x"),
        Long::flag("help", "help"),
        Long::required("horizon-lines", "horizon-lines"),
        Long::flag("ignore-all-space", "w"),
        Long::flag("ignore-blank-lines", "B"),
        Long::flag("ignore-case", "i"),
        Long::flag("ignore-space-change", "b"),
        Long::flag("ignore-trailing-space", "Z"),
        Long::required("label", "label"),
        Long::flag("left-column", "left-column"),
        Long::flag("minimal", "d"),
        Long::flag("new-file", "N"),
        Long::flag("no-dereference", "no-dereference"),
        Long::flag("normal", "normal"),
        Long::flag("recursive", "r"),
        Long::flag("report-identical-files", "s"),
        Long::flag("side-by-side", "y"),
        Long::flag("strip-trailing-cr", "strip-trailing-cr"),
        Long::flag("suppress-common-lines", "suppress-common-lines"),
        Long::flag("text", "a"),
        Long::optional("unified", "U"),
        Long::flag("version", "v"),
        Long::required("width", "W"),
    ],
);

/// The usage text of `diff --help`.
pub const USAGE: &str = "\
Usage: diff [OPTION]... FILES
Compare FILES line by line.

Mandatory arguments to long options are mandatory for short options too.
      --normal                  output a normal diff (the default)
  -q, --brief                   report only when files differ
  -s, --report-identical-files  report when two files are the same
  -c, -C NUM, --context[=NUM]   output NUM (default 3) lines of copied context
  -u, -U NUM, --unified[=NUM]   output NUM (default 3) lines of unified context
  -y, --side-by-side            output in two columns
  -W, --width=NUM               output at most NUM (default 130) print columns
      --left-column             output only the left column of common lines
      --suppress-common-lines   do not output common lines
      --label LABEL             use LABEL instead of file name and timestamp
                                  (can be repeated)

  -r, --recursive                 recursively compare any subdirectories found
      --no-dereference            don't follow symbolic links
  -N, --new-file                  treat absent files as empty
  -x, --exclude=PAT               exclude files that match PAT

  -i, --ignore-case               ignore case differences in file contents
  -Z, --ignore-trailing-space     ignore white space at line end
  -b, --ignore-space-change       ignore changes in the amount of white space
  -w, --ignore-all-space          ignore all white space
  -B, --ignore-blank-lines        ignore changes where lines are all blank

  -a, --text                      treat all files as text
      --strip-trailing-cr         strip trailing carriage return on input

  -d, --minimal            try hard to find a smaller set of changes
      --horizon-lines=NUM  keep NUM lines of the common prefix and suffix
      --color[=WHEN]       color output; WHEN is 'never', 'always', or 'auto';
                             plain --color means --color='auto'

      --help               display this help and exit
  -v, --version            output version information and exit

FILES are 'FILE1 FILE2' or 'DIR1 DIR2' or 'DIR FILE' or 'FILE DIR'.
If a FILE is '-', read standard input.
Exit status is 0 if inputs are the same, 1 if different, 2 if trouble.
";

/// The output format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    /// The default: `3c3`, `< old`, `> new`.
    Normal,
    /// `-c`: copied context.
    Context,
    /// `-u`: unified context.
    Unified,
    /// `-y`: two columns.
    SideBySide,
}

/// Everything the command line asked for.
pub struct Settings {
    /// The output format.
    pub style: Style,
    /// Lines of context (`-C`, `-U`).
    pub context: usize,
    /// Lines of the identical ends kept (`--horizon-lines`, at least the context).
    pub horizon: usize,
    /// `-q`.
    pub brief: bool,
    /// `-s`.
    pub report_identical: bool,
    /// `-r`.
    pub recursive: bool,
    /// `-N`.
    pub new_file: bool,
    /// `--no-dereference`.
    pub no_dereference: bool,
    /// When lines are equal.
    pub equality: Equality,
    /// `-B`.
    pub ignore_blank_lines: bool,
    /// `-a`.
    pub text: bool,
    /// `-d`.
    pub minimal: bool,
    /// `--strip-trailing-cr`.
    pub strip_trailing_cr: bool,
    /// `--label`, for the old and the new input.
    pub labels: [Option<String>; 2],
    /// `-x` patterns, matched against names within directories.
    pub excludes: Vec<Pattern>,
    /// `-W`.
    pub width: usize,
    /// `--left-column`.
    pub left_column: bool,
    /// `--suppress-common-lines`.
    pub suppress_common: bool,
    /// The option words as given, for the `diff OPTIONS a/x b/x` lines of
    /// directory comparisons.
    pub switches: String,
    /// The operands.
    pub operands: Vec<String>,
}

/// What parsing the command line decided.
pub enum Command {
    /// Compare the operands.
    Compare(Box<Settings>),
    /// Print this to standard output and exit 0 (`--help`, `--version`).
    Print(String),
    /// A bad command line: the message, and whether the `Try` hint follows.
    Usage(String, bool),
}

/// Parses `args` (without the command name).
pub fn parse_command(args: &[String]) -> Command {
    let parsed = match parse(&SPEC, args) {
        Ok(parsed) => parsed,
        Err(error) => return Command::Usage(error.message(), true),
    };
    match settings(&parsed, args) {
        Ok(settings) => settings,
        Err(command) => command,
    }
}

fn usage(message: String) -> Command {
    Command::Usage(message, true)
}

fn settings(parsed: &Parsed, args: &[String]) -> Result<Command, Command> {
    let mut style: Option<Style> = None;
    let mut set_style = |wanted: Style| match style {
        Some(current) if current != wanted => Err(usage("conflicting output style options".into())),
        _ => {
            style = Some(wanted);
            Ok(())
        }
    };
    let mut settings = Settings {
        style: Style::Normal,
        context: 0,
        horizon: 0,
        brief: false,
        report_identical: false,
        recursive: false,
        new_file: false,
        no_dereference: false,
        equality: Equality { ignore_case: false, white_space: WhiteSpace::Exact },
        ignore_blank_lines: false,
        text: false,
        minimal: false,
        strip_trailing_cr: false,
        labels: [None, None],
        excludes: Vec::new(),
        width: 130,
        left_column: false,
        suppress_common: false,
        switches: switch_words(args),
        operands: parsed.operands.clone(),
    };
    let mut context: Option<usize> = None;
    let mut label_count = 0;
    let white = |settings: &mut Settings, level: WhiteSpace| {
        settings.equality.white_space = settings.equality.white_space.max(level);
    };
    for (key, value) in &parsed.options {
        match *key {
            "help" => return Ok(Command::Print(USAGE.to_string())),
            "v" => return Ok(Command::Print("diff (GNU diffutils) 3.8\n".to_string())),
            "normal" => set_style(Style::Normal)?,
            "c" | "u" | "C" | "U" => {
                let count = match value {
                    None => 3,
                    Some(text) => text.parse::<usize>().map_err(|_| usage(format!("invalid context length '{text}'")))?,
                };
                set_style(if matches!(*key, "c" | "C") { Style::Context } else { Style::Unified })?;
                context = Some(context.map_or(count, |c| c.max(count)));
            }
            "y" => set_style(Style::SideBySide)?,
            "W" => {
                let text = value.as_deref().unwrap_or("");
                settings.width = match text.parse::<usize>() {
                    Ok(width) if width > 0 => width,
                    _ => return Err(usage(format!("invalid width '{text}'"))),
                };
            }
            "horizon-lines" => {
                let text = value.as_deref().unwrap_or("");
                settings.horizon = text.parse::<usize>().map_err(|_| usage(format!("invalid horizon length '{text}'")))?;
            }
            "color" => match value.as_deref() {
                None | Some("never") | Some("auto") => {}
                Some(other) => return Err(usage(format!("invalid color '{other}'"))),
            },
            "label" => {
                if label_count >= 2 {
                    return Err(Command::Usage("too many file label options".into(), false));
                }
                settings.labels[label_count] = value.clone();
                label_count += 1;
            }
            "x" => settings.excludes.push(Pattern::new(value.as_deref().unwrap_or(""), PatternOptions::default())),
            "q" => settings.brief = true,
            "s" => settings.report_identical = true,
            "r" => settings.recursive = true,
            "N" => settings.new_file = true,
            "no-dereference" => settings.no_dereference = true,
            "i" => settings.equality.ignore_case = true,
            "Z" => white(&mut settings, WhiteSpace::Trailing),
            "b" => white(&mut settings, WhiteSpace::Change),
            "w" => white(&mut settings, WhiteSpace::All),
            "B" => settings.ignore_blank_lines = true,
            "a" => settings.text = true,
            "d" => settings.minimal = true,
            "strip-trailing-cr" => settings.strip_trailing_cr = true,
            "left-column" => settings.left_column = true,
            "suppress-common-lines" => settings.suppress_common = true,
            _ => {}
        }
    }
    settings.style = style.unwrap_or(Style::Normal);
    settings.context = context.unwrap_or(0);
    if matches!(settings.style, Style::Context | Style::Unified) {
        settings.context = context.unwrap_or(3);
    }
    settings.horizon = settings.horizon.max(settings.context);
    match settings.operands.len() {
        0 => Err(usage("missing operand after 'diff'".into())),
        1 => Err(usage(format!("missing operand after '{}'", settings.operands[0]))),
        2 => Ok(Command::Compare(Box::new(settings))),
        _ => Err(usage(format!("extra operand '{}'", settings.operands[2]))),
    }
}

/// The words of `args` that are options or their arguments, joined with a
/// leading space each, as GNU diff repeats them in `diff -r a/x b/x`.
fn switch_words(args: &[String]) -> String {
    let mut words = String::new();
    let mut index = 0;
    while let Some(word) = args.get(index) {
        index += 1;
        if word == "--" {
            words.push_str(" --");
            break;
        }
        if !word.starts_with('-') || word == "-" {
            continue;
        }
        words.push(' ');
        words.push_str(&shell_quote(word));
        if takes_separate_argument(word) {
            if let Some(argument) = args.get(index) {
                words.push(' ');
                words.push_str(&shell_quote(argument));
                index += 1;
            }
        }
    }
    words
}

/// True when `text` needs no quoting for the shell.
fn is_shell_safe(text: &str) -> bool {
    !text.is_empty() && text.bytes().all(|b| b.is_ascii_alphanumeric() || b"%+,-./:@^_".contains(&b))
}

/// `text` as GNU diff repeats an option word: in single quotes when the
/// shell would need them.
fn shell_quote(text: &str) -> String {
    if is_shell_safe(text) {
        return text.to_string();
    }
    format!("'{}'", text.replace('\'', "'\\''"))
}

/// A file name as GNU diff shows it in `diff a/x b/x` lines: in double
/// quotes, C style, when the shell would need quoting.
pub fn name_quote(text: &str) -> String {
    if is_shell_safe(text) {
        return text.to_string();
    }
    let mut quoted = String::from("\"");
    for c in text.chars() {
        match c {
            '"' | '\\' => {
                quoted.push('\\');
                quoted.push(c);
            }
            '\n' => quoted.push_str("\\n"),
            '\t' => quoted.push_str("\\t"),
            _ => quoted.push(c),
        }
    }
    quoted.push('"');
    quoted
}

/// True when `word` is an option whose argument is the next word.
fn takes_separate_argument(word: &str) -> bool {
    if let Some(long) = word.strip_prefix("--") {
        if long.contains('=') {
            return false;
        }
        return ["exclude", "horizon-lines", "label", "width"].iter().any(|name| name.starts_with(long) && long.len() >= 2);
    }
    let cluster = word.get(1..).unwrap_or("");
    for (offset, letter) in cluster.char_indices() {
        if matches!(letter, 'C' | 'U' | 'W' | 'x') {
            return offset + 1 == cluster.len();
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn switches_repeat_the_options() {
        let args = words(&["-r", "a", "-U", "5", "--label=x", "-yW", "20", "-x", "*.o", "b"]);
        assert_eq!(switch_words(&args), " -r -U 5 '--label=x' -yW 20 -x '*.o'");
        assert_eq!(name_quote("a b/f"), "\"a b/f\"");
    }

    #[test]
    fn conflicts_and_counts() {
        assert!(
            matches!(parse_command(&words(&["-u", "-c", "a", "b"])), Command::Usage(m, true) if m == "conflicting output style options")
        );
        match parse_command(&words(&["-U", "1", "-u", "a", "b"])) {
            Command::Compare(settings) => assert_eq!((settings.style, settings.context), (Style::Unified, 3)),
            _ => panic!("expected a comparison"),
        }
    }
}
