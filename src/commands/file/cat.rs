//! `cat`: concatenate files to standard output, with GNU's `-n -b -s -E -T
//! -v -A -e -t -u` line numbering and visible-character options.

use crate::commands::common::{inputs, open_input, Input};
use crate::commands::options::{parse_or_report, Long, Spec};
use crate::host::LocalFuture;
use crate::io::READ_CHUNK;
use crate::utility::{write_failure_status, Invocation};

const SPEC: Spec = Spec::new(
    "AbeEnstTuv",
    &[
        Long::flag("show-all", "A"),
        Long::flag("number-nonblank", "b"),
        Long::flag("show-ends", "E"),
        Long::flag("number", "n"),
        Long::flag("squeeze-blank", "s"),
        Long::flag("show-tabs", "T"),
        Long::flag("show-nonprinting", "v"),
    ],
);

/// The formatting `cat` applies, and its state across files.
#[derive(Default)]
struct Formatter {
    number: bool,
    number_nonblank: bool,
    squeeze: bool,
    ends: bool,
    tabs: bool,
    nonprinting: bool,
    line: u64,
    at_line_start: bool,
    blank_run: u32,
}

impl Formatter {
    fn is_plain(&self) -> bool {
        !(self.number || self.number_nonblank || self.squeeze || self.ends || self.tabs || self.nonprinting)
    }

    /// Formats one chunk, keeping line state for the next.
    fn format(&mut self, chunk: &[u8], out: &mut Vec<u8>) {
        for &byte in chunk {
            if self.at_line_start {
                if byte == b'\n' {
                    self.blank_run += 1;
                    if self.squeeze && self.blank_run > 1 {
                        continue;
                    }
                    if self.number && !self.number_nonblank {
                        self.line += 1;
                        out.extend_from_slice(format!("{:>6}\t", self.line).as_bytes());
                    }
                } else {
                    self.blank_run = 0;
                    if self.number || self.number_nonblank {
                        self.line += 1;
                        out.extend_from_slice(format!("{:>6}\t", self.line).as_bytes());
                    }
                    self.at_line_start = false;
                }
            }
            if byte == b'\n' {
                if self.ends {
                    out.push(b'$');
                }
                out.push(b'\n');
                self.at_line_start = true;
                continue;
            }
            self.push_visible(byte, out);
        }
    }

    fn push_visible(&self, byte: u8, out: &mut Vec<u8>) {
        if byte == b'\t' {
            if self.tabs {
                out.extend_from_slice(b"^I");
            } else {
                out.push(byte);
            }
            return;
        }
        if !self.nonprinting {
            out.push(byte);
            return;
        }
        let mut value = byte;
        if value >= 128 {
            out.extend_from_slice(b"M-");
            value -= 128;
        }
        match value {
            0..=31 => {
                out.push(b'^');
                out.push(value + 64);
            }
            127 => out.extend_from_slice(b"^?"),
            _ => out.push(value),
        }
    }
}

/// Runs `cat [OPTION]... [FILE]...`.
pub fn run<'a>(ctx: &'a mut Invocation<'_>) -> LocalFuture<'a, i32> {
    Box::pin(async move {
        let parsed = match parse_or_report(ctx, &SPEC, 1).await {
            Ok(parsed) => parsed,
            Err(status) => return status,
        };
        let mut formatter = Formatter { at_line_start: true, ..Default::default() };
        for (key, _) in &parsed.options {
            match *key {
                "A" => (formatter.nonprinting, formatter.ends, formatter.tabs) = (true, true, true),
                "b" => formatter.number_nonblank = true,
                "e" => (formatter.nonprinting, formatter.ends) = (true, true),
                "E" => formatter.ends = true,
                "n" => formatter.number = true,
                "s" => formatter.squeeze = true,
                "t" => (formatter.nonprinting, formatter.tabs) = (true, true),
                "T" => formatter.tabs = true,
                "v" => formatter.nonprinting = true,
                _ => {}
            }
        }
        let plain = formatter.is_plain();
        let mut status = 0;
        for input in inputs(&parsed.operands) {
            let stream = match open_input(ctx, &input).await {
                Ok(stream) => stream,
                Err(error) => {
                    let name = match &input {
                        Input::File(name) => name.as_str(),
                        Input::Stdin => "-",
                    };
                    ctx.report_fs(name, error).await;
                    status = 1;
                    continue;
                }
            };
            loop {
                let chunk = match stream.read(READ_CHUNK).await {
                    Ok(chunk) => chunk,
                    Err(error) => {
                        // A read that fails after the open (a host-backed
                        // file the host cannot supply): `cat: f: Input/output error`.
                        let name = match &input {
                            Input::File(name) => name.as_str(),
                            Input::Stdin => "-",
                        };
                        ctx.report(&format!("{name}: {error}")).await;
                        status = 1;
                        break;
                    }
                };
                if chunk.is_empty() {
                    break;
                }
                let written = if plain {
                    ctx.write_out(&chunk).await
                } else {
                    let mut out = Vec::with_capacity(chunk.len() + chunk.len() / 8);
                    formatter.format(&chunk, &mut out);
                    ctx.write_out(&out).await
                };
                if let Err(error) = written {
                    return write_failure_status(error);
                }
            }
        }
        status
    })
}

#[cfg(test)]
mod tests {
    use crate::commands::file::fixtures::{run, tree};
    use crate::commands::test_support::run_utility;

    #[test]
    fn numbering_and_squeezing() {
        let fs = tree(&["a=one\n\n\n\ntwo\n", "b=three"]);
        assert_eq!(run(&fs, &["cat", "-n", "a"]).stdout, "     1\tone\n     2\t\n     3\t\n     4\t\n     5\ttwo\n");
        assert_eq!(run(&fs, &["cat", "-b", "a"]).stdout, "     1\tone\n\n\n\n     2\ttwo\n");
        assert_eq!(run(&fs, &["cat", "-s", "a"]).stdout, "one\n\ntwo\n");
        assert_eq!(run(&fs, &["cat", "-sn", "a"]).stdout, "     1\tone\n     2\t\n     3\ttwo\n");
        assert_eq!(run(&fs, &["cat", "-n", "b", "a"]).stdout, "     1\tthreeone\n     2\t\n     3\t\n     4\t\n     5\ttwo\n");
    }

    #[test]
    fn visible_characters() {
        let fs = tree(&[]);
        let out = run_utility(&fs, &["cat", "-A"], b"a\tb\x01\x7f\xc3\xa9\n");
        assert_eq!(out.stdout, "a^Ib^A^?M-CM-)$\n");
        assert_eq!(run_utility(&fs, &["cat", "-e"], b"a\tb\n").stdout, "a\tb$\n");
        assert_eq!(run_utility(&fs, &["cat", "-t"], b"a\tb\n").stdout, "a^Ib\n");
        assert_eq!(run_utility(&fs, &["cat", "-E", "-"], b"x\n").stdout, "x$\n");
    }

    #[test]
    fn errors() {
        let fs = tree(&["d/"]);
        assert_eq!(run(&fs, &["cat", "d"]).stderr, "cat: d: Is a directory\n");
        let out = run(&fs, &["cat", "-Q"]);
        assert_eq!((out.stderr.as_str(), out.status), ("cat: invalid option -- 'Q'\nTry 'cat --help' for more information.\n", 1));
    }
}
