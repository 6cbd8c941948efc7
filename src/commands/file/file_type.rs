//! `file`: determine file types by content (`-b -i --mime-type -L -h -0`).

use super::magic::identify;
use crate::commands::options::{parse_or_report, Long, Spec};
use crate::fs::FileType;
use crate::host::LocalFuture;
use crate::utility::{write_failure_status, Invocation};

const SPEC: Spec = Spec::new(
    "biLhzkE",
    &[
        Long::flag("brief", "b"),
        Long::flag("mime", "i"),
        Long::flag("mime-type", "mime-type"),
        Long::flag("mime-encoding", "mime-encoding"),
        Long::flag("dereference", "L"),
        Long::flag("no-dereference", "h"),
    ],
);

/// How much of a file is read to recognize it.
const SAMPLE: usize = 8192;

/// Runs `file [OPTION]... FILE...`.
pub fn run<'a>(ctx: &'a mut Invocation<'_>) -> LocalFuture<'a, i32> {
    Box::pin(async move {
        let parsed = match parse_or_report(ctx, &SPEC, 1).await {
            Ok(parsed) => parsed,
            Err(status) => return status,
        };
        if parsed.operands.is_empty() {
            let _ = ctx.stderr.write(b"Usage: file [-bcCdEhikLlNnprsSvzZ0] [--apple] [--extension] [--mime-encoding]\n            [--mime-type] [-e <testname>] [-F <separator>]  [-f <namefile>]\n            [-m <magicfiles>] [-P <parameter=value>] [--exclude-quiet]\n            <file> ...\n       file -C [-m <magicfiles>]\n       file [--help]\n").await;
            return 1;
        }
        let follow = parsed.options.iter().rev().find(|(k, _)| *k == "L" || *k == "h").is_some_and(|(k, _)| *k == "L");
        let brief = parsed.has("b");
        let mime_type = parsed.has("mime-type");
        let mime = parsed.has("i");
        let encoding_only = parsed.has("mime-encoding");
        let width = parsed.operands.iter().map(|n| n.chars().count() + 1).max().unwrap_or(0);
        let mut out = String::new();
        for name in &parsed.operands {
            let path = ctx.resolve(name);
            let metadata = if follow { ctx.fs.metadata(&path).await } else { ctx.fs.symlink_metadata(&path).await };
            let (description, mime_text, charset) = match metadata {
                Err(error) => (format!("cannot open `{name}' ({error})"), "application/x-not-regular-file".to_string(), "binary"),
                Ok(m) => match m.file_type {
                    FileType::Directory => ("directory".to_string(), "inode/directory".to_string(), "binary"),
                    FileType::Symlink => {
                        let target = ctx.fs.read_link(&path).await.unwrap_or_default();
                        let text = if ctx.fs.metadata(&path).await.is_ok() {
                            format!("symbolic link to {target}")
                        } else {
                            format!("broken symbolic link to {target}")
                        };
                        (text, "inode/symlink".to_string(), "binary")
                    }
                    FileType::CharDevice => ("character special".to_string(), "inode/chardevice".to_string(), "binary"),
                    FileType::Fifo => ("fifo (named pipe)".to_string(), "inode/fifo".to_string(), "binary"),
                    FileType::File => {
                        let sample = match ctx.fs.open(&path, crate::fs::OpenOptions::read_only()).await {
                            Ok(handle) => handle.read_at(0, SAMPLE).await,
                            Err(error) => Err(error),
                        };
                        match sample {
                            Ok(bytes) => {
                                let found = identify(&bytes);
                                (found.description, found.mime.to_string(), found.charset)
                            }
                            Err(error) => (format!("cannot open `{name}' ({error})"), "application/x-not-regular-file".into(), "binary"),
                        }
                    }
                },
            };
            let body = if mime_type {
                mime_text
            } else if encoding_only {
                charset.to_string()
            } else if mime {
                format!("{mime_text}; charset={charset}")
            } else {
                description
            };
            if brief {
                out.push_str(&body);
            } else {
                let label = format!("{name}:");
                out.push_str(&format!("{label:<w$} {body}", w = width));
            }
            out.push('\n');
        }
        match ctx.write_out(out.as_bytes()).await {
            Ok(()) => 0,
            Err(error) => write_failure_status(error),
        }
    })
}

#[cfg(test)]
mod tests {
    use crate::commands::file::fixtures::{run, tree};

    #[test]
    fn describes() {
        let fs = tree(&["t=hello\n", "d/", "l -> t", "br -> nowhere", "empty", "u=h\u{e9}\n"]);
        assert_eq!(
            run(&fs, &["file", "t", "d", "l", "br", "empty"]).stdout,
            "t:     ASCII text\nd:     directory\nl:     symbolic link to t\nbr:    broken symbolic link to nowhere\nempty: empty\n"
        );
        assert_eq!(run(&fs, &["file", "-b", "t"]).stdout, "ASCII text\n");
        assert_eq!(run(&fs, &["file", "-L", "l"]).stdout, "l: ASCII text\n");
        assert_eq!(
            run(&fs, &["file", "-i", "t", "u", "empty", "d"]).stdout,
            "t:     text/plain; charset=us-ascii\nu:     text/plain; charset=utf-8\nempty: inode/x-empty; charset=binary\nd:     inode/directory; charset=binary\n"
        );
        assert_eq!(run(&fs, &["file", "--mime-type", "t"]).stdout, "t: text/plain\n");
        let out = run(&fs, &["file", "nope"]);
        assert_eq!((out.stdout.as_str(), out.status), ("nope: cannot open `nope' (No such file or directory)\n", 0));
    }
}
