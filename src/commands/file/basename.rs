//! `basename` and `dirname`: the last component of a path, and the rest.

use crate::commands::format::quote_locale;
use crate::commands::options::{parse_or_report, report_usage, Long, Spec};
use crate::host::LocalFuture;
use crate::utility::{write_failure_status, Invocation};

const BASENAME: Spec = Spec::new("as:z", &[Long::flag("multiple", "a"), Long::required("suffix", "s"), Long::flag("zero", "z")]).stopping();
const DIRNAME: Spec = Spec::new("z", &[Long::flag("zero", "z")]);

/// The last component of `path` with trailing slashes removed (`/` stays `/`).
pub fn base_name(path: &str) -> &str {
    let trimmed = path.trim_end_matches('/');
    if trimmed.is_empty() {
        return if path.is_empty() { "" } else { "/" };
    }
    trimmed.rsplit('/').next().unwrap_or(trimmed)
}

/// Everything before the last component, as `dirname` prints it.
pub fn dir_name(path: &str) -> &str {
    let trimmed = path.trim_end_matches('/');
    if trimmed.is_empty() {
        return if path.starts_with('/') { "/" } else { "." };
    }
    match trimmed.rfind('/') {
        None => ".",
        Some(index) => {
            let parent = trimmed[..index].trim_end_matches('/');
            if parent.is_empty() {
                "/"
            } else {
                parent
            }
        }
    }
}

/// Runs `basename NAME [SUFFIX]` or `basename -a|-s SUFFIX NAME...`.
pub fn run_basename<'a>(ctx: &'a mut Invocation<'_>) -> LocalFuture<'a, i32> {
    Box::pin(async move {
        let parsed = match parse_or_report(ctx, &BASENAME, 1).await {
            Ok(parsed) => parsed,
            Err(status) => return status,
        };
        let suffix = parsed.value("s").map(str::to_string);
        let multiple = parsed.has("a") || suffix.is_some();
        let operands = &parsed.operands;
        if operands.is_empty() {
            report_usage(ctx, "missing operand").await;
            return 1;
        }
        let (names, suffix): (Vec<&String>, Option<String>) = if multiple {
            (operands.iter().collect(), suffix)
        } else {
            if let Some(extra) = operands.get(2) {
                report_usage(ctx, &format!("extra operand {}", quote_locale(ctx, extra))).await;
                return 1;
            }
            (operands.iter().take(1).collect(), operands.get(1).cloned())
        };
        let end = if parsed.has("z") { "\0" } else { "\n" };
        let mut out = String::new();
        for name in names {
            let mut base = base_name(name);
            if let Some(suffix) = &suffix {
                if base.len() > suffix.len() && base != "/" {
                    base = base.strip_suffix(suffix.as_str()).unwrap_or(base);
                }
            }
            out.push_str(base);
            out.push_str(end);
        }
        ctx.write_out(out.as_bytes()).await.map(|_| 0).unwrap_or_else(write_failure_status)
    })
}

/// Runs `dirname NAME...`.
pub fn run_dirname<'a>(ctx: &'a mut Invocation<'_>) -> LocalFuture<'a, i32> {
    Box::pin(async move {
        let parsed = match parse_or_report(ctx, &DIRNAME, 1).await {
            Ok(parsed) => parsed,
            Err(status) => return status,
        };
        if parsed.operands.is_empty() {
            report_usage(ctx, "missing operand").await;
            return 1;
        }
        let end = if parsed.has("z") { "\0" } else { "\n" };
        let out: String = parsed.operands.iter().map(|name| format!("{}{end}", dir_name(name))).collect();
        ctx.write_out(out.as_bytes()).await.map(|_| 0).unwrap_or_else(write_failure_status)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::commands::file::fixtures::{run, tree};

    #[test]
    fn names() {
        assert_eq!(base_name("/a/b/"), "b");
        assert_eq!(base_name("/"), "/");
        assert_eq!(base_name("//"), "/");
        for (input, expected) in
            [("a", "."), ("/a/b//", "/a"), ("/", "/"), ("//", "/"), ("a/", "."), ("./a", "."), ("../x", ".."), ("/a", "/")]
        {
            assert_eq!(dir_name(input), expected, "{input}");
        }
    }

    #[test]
    fn basename_forms() {
        let fs = tree(&[]);
        assert_eq!(run(&fs, &["basename", "a.txt", ".txt"]).stdout, "a\n");
        assert_eq!(run(&fs, &["basename", ".txt", ".txt"]).stdout, ".txt\n");
        assert_eq!(run(&fs, &["basename", "-s", ".c", "a.c", "b.c"]).stdout, "a\nb\n");
        assert_eq!(run(&fs, &["basename", "-a", "x/y", "z/w"]).stdout, "y\nw\n");
        let out = run(&fs, &["basename", "a", "b", "c"]);
        assert_eq!(out.stderr, "basename: extra operand 'c'\nTry 'basename --help' for more information.\n");
        assert_eq!(out.status, 1);
        assert_eq!(run(&fs, &["basename"]).stderr, "basename: missing operand\nTry 'basename --help' for more information.\n");
    }

    #[test]
    fn dirname_forms() {
        let fs = tree(&[]);
        assert_eq!(run(&fs, &["dirname", "a/b", "/x"]).stdout, "a\n/\n");
        assert_eq!(run(&fs, &["dirname", "-z", "a/b"]).stdout, "a\0");
        assert_eq!(run(&fs, &["dirname"]).status, 1);
    }
}
