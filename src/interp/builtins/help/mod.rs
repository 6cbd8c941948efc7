//! The `help` builtin and the `--help` option bash gives its builtins
//! (`cd --help` prints cd's help and returns 2), over bash 5.2's topics.

mod topics;

use super::{words, Arg};
use crate::expand::pattern::{Pattern, PatternOptions};
use crate::host::LocalFuture;
use crate::interp::{Outcome, Shell};
use topics::Topic;

/// The version line the topic listing and `help -m` show.
const VERSION_LINE: &str = "GNU bash, version 5.2.15(1)-release (x86_64-pc-linux-gnu)";

/// Builtins that treat `--help` as an ordinary argument, as bash's do.
const NO_HELP_OPTION: &[&str] = &[":", "[", "echo", "false", "test", "true"];

/// True when the builtin `name` answers a first argument `--help` with its
/// help text (status 2) before its own parsing, as bash's builtins do.
pub fn answers_help_option(name: &str) -> bool {
    !NO_HELP_OPTION.contains(&name) && topics::find(name).is_some()
}

/// Prints the help of the builtin named by `args[0]` when `args[1]` is
/// `--help`; `None` when the builtin should run as usual.
pub async fn help_option(shell: &mut Shell, args: &[Arg]) -> Option<Outcome> {
    let name = args.first()?.as_text();
    if !matches!(args.get(1), Some(Arg::Word(word)) if word == "--help") || !answers_help_option(&name) {
        return None;
    }
    let topic = topics::find(&name)?;
    Some(shell.out(long_form(&topic).as_bytes()).await.map(|()| 2))
}

/// `help [-dms] [pattern ...]`.
pub fn help(shell: &mut Shell, args: Vec<Arg>) -> LocalFuture<'_, Outcome> {
    Box::pin(async move {
        let args = words(&args);
        let (mut describe, mut manpage, mut synopsis_only) = (false, false, false);
        let mut index = 1;
        while let Some(arg) = args.get(index) {
            if arg == "--" {
                index += 1;
                break;
            }
            if arg.len() < 2 || !arg.starts_with('-') {
                break;
            }
            if arg == "--help" {
                let topic = topics::find("help");
                let text = topic.map(|topic| long_form(&topic)).unwrap_or_default();
                shell.out(text.as_bytes()).await?;
                return Ok(2);
            }
            for letter in arg[1..].chars() {
                match letter {
                    'd' => describe = true,
                    'm' => manpage = true,
                    's' => synopsis_only = true,
                    _ => {
                        // bash names a long option by its second dash: `--: invalid option`.
                        shell.builtin_error("help", &format!("-{letter}: invalid option")).await;
                        shell.write_fd(2, b"help: usage: help [-dms] [pattern ...]\n").await?;
                        return Ok(2);
                    }
                }
            }
            index += 1;
        }
        let patterns = args.get(index..).unwrap_or(&[]);
        if patterns.is_empty() {
            let listing = listing(shell.var("COLUMNS").as_deref());
            shell.out(listing.as_bytes()).await?;
            return Ok(0);
        }
        let mut out = String::new();
        if patterns.first().is_some_and(|first| is_glob(first)) {
            let keyword = if patterns.len() > 1 { "keywords" } else { "keyword" };
            out.push_str(&format!("Shell commands matching {keyword} `{}'\n\n", patterns.join(", ")));
        }
        let mut found = 0;
        for pattern in patterns {
            let compiled = Pattern::new(pattern, PatternOptions { extglob: true, ..Default::default() });
            let exact: Vec<Topic> = topics::topics().filter(|t| t.name == pattern.as_str() || compiled.matches(t.name, false)).collect();
            let matched =
                if exact.is_empty() { topics::topics().filter(|t| t.name.starts_with(pattern.as_str())).collect() } else { exact };
            for topic in &matched {
                found += 1;
                if describe {
                    out.push_str(&format!("{} - {}\n", topic.name, topic.short()));
                } else if manpage {
                    out.push_str(&manual_page(topic));
                } else if synopsis_only {
                    out.push_str(&format!("{}: {}\n", topic.name, topic.synopsis));
                } else {
                    out.push_str(&long_form(topic));
                }
            }
        }
        if found == 0 {
            let last = patterns.last().map(String::as_str).unwrap_or("");
            shell
                .builtin_error("help", &format!("no help topics match `{last}'.  Try `help help' or `man -k {last}' or `info {last}'."))
                .await;
            return Ok(1);
        }
        shell.out(out.as_bytes()).await?;
        Ok(0)
    })
}

/// True when bash's `glob_pattern_p` would call `word` a pattern.
fn is_glob(word: &str) -> bool {
    word.contains(['*', '?']) || word.find('[').is_some_and(|open| word[open..].contains(']'))
}

/// `NAME: SYNOPSIS` and the long text.
fn long_form(topic: &Topic) -> String {
    format!("{}: {}\n{}", topic.name, topic.synopsis, topic.long)
}

/// `help -m`: the topic as a manual page.
fn manual_page(topic: &Topic) -> String {
    format!(
        "NAME\n    {} - {}\n\nSYNOPSIS\n    {}\n\nDESCRIPTION\n{}\nSEE ALSO\n    bash(1)\n\nIMPLEMENTATION\n    {VERSION_LINE}\n    Copyright (C) 2022 Free Software Foundation, Inc.\n    License GPLv3+: GNU GPL version 3 or later <http://gnu.org/licenses/gpl.html>\n\n",
        topic.name,
        topic.short(),
        topic.synopsis,
        topic.long
    )
}

/// `help` alone: the header and every synopsis in two columns, each half
/// of `COLUMNS` (80 when unset) wide, cut with `>` as bash cuts them.
fn listing(columns: Option<&str>) -> String {
    let mut width = columns.and_then(|c| c.trim().parse::<usize>().ok()).filter(|&c| c > 0).unwrap_or(80) / 2;
    width = width.min(128);
    if width <= 3 {
        width = 40;
    }
    let mut text = format!(
        "{VERSION_LINE}\nThese shell commands are defined internally.  Type `help' to see this list.\nType `help name' to find out more about the function `name'.\nUse `info bash' to find out more about the shell in general.\nUse `man -k' or `info' to find out more about commands not in this list.\n\nA star (*) next to a name means that the command is disabled.\n\n"
    );
    let synopses: Vec<&str> = topics::topics().map(|topic| topic.synopsis).collect();
    let height = synopses.len().div_ceil(2);
    for row in 0..height {
        let left = synopses.get(row).map(|s| blurb(s, width)).unwrap_or_default();
        // bash cuts the right column one character shorter.
        match synopses.get(row + height) {
            Some(right) => text.push_str(&format!("{left:<width$}{}\n", blurb(right, width - 1))),
            None => text.push_str(&format!("{left}\n")),
        }
    }
    text
}

/// One cell of the listing: a space, then the synopsis cut to `width - 2`
/// characters with `>` marking a cut.
fn blurb(synopsis: &str, width: usize) -> String {
    // bash copies `width - 2` bytes and then writes `>` over the last one,
    // so a synopsis one short of the room is cut too.
    let room = width.saturating_sub(2);
    let chars: Vec<char> = synopsis.chars().collect();
    if chars.len() + 1 >= room {
        let kept: String = chars.iter().take(room.saturating_sub(1)).collect();
        format!(" {kept}>")
    } else {
        format!(" {synopsis}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn listing_cuts_and_pads_as_bash() {
        let text = listing(None);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[8], " job_spec [&]                            history [-c] [-d offset] [n] or hist>");
        assert_eq!(lines.len(), 8 + 38);
        assert_eq!(blurb("abcdef", 6), " abc>");
    }

    #[test]
    fn glob_words() {
        assert!(is_glob("ec*") && is_glob("[[ ... ]]") && !is_glob("[") && !is_glob("cd"));
    }
}
