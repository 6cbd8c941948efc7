//! `tree`: list a directory tree with connector lines (`-a -d -L N -I PAT
//! -P PAT -f -F -s -p -i -l --noreport --dirsfirst --charset`), box-drawing
//! under a UTF-8 locale and ASCII under `C`/`POSIX` or `--charset=ascii`.

use super::glob::matches;
use crate::commands::format::mode_string;
use crate::commands::options::{parse_or_report, Long, Spec};
use crate::fs::path::join;
use crate::host::LocalFuture;
use crate::utility::{write_failure_status, Invocation};

const SPEC: Spec = Spec::new(
    "adL:I:P:fFspilCnrtDhuxJ",
    &[
        Long::flag("noreport", "noreport"),
        Long::flag("dirsfirst", "dirsfirst"),
        Long::required("charset", "charset"),
        Long::flag("gitignore", "gitignore"),
        Long::flag("prune", "prune"),
        Long::optional("sort", "sort"),
        Long::required("filelimit", "filelimit"),
    ],
);

struct Settings {
    all: bool,
    dirs_only: bool,
    max_level: Option<usize>,
    ignore: Vec<String>,
    pattern: Option<String>,
    full_path: bool,
    classify: bool,
    sizes: bool,
    perms: bool,
    no_indent: bool,
    follow: bool,
    dirs_first: bool,
    ascii: bool,
}

#[derive(Default)]
struct Counts {
    dirs: usize,
    files: usize,
}

/// True when any `|`-separated alternative of `patterns` matches `name`.
fn matches_any(patterns: &[String], name: &str) -> bool {
    patterns.iter().any(|p| p.split('|').any(|alternative| matches(alternative, name)))
}

/// Chooses ASCII connectors unless the locale is UTF-8.
fn locale_is_ascii(ctx: &Invocation<'_>) -> bool {
    let locale = ["LC_ALL", "LC_CTYPE", "LANG"].iter().find_map(|name| ctx.env_var(name).filter(|v| !v.is_empty()));
    match locale {
        Some(value) => !value.to_ascii_lowercase().replace('-', "").contains("utf8"),
        None => false,
    }
}

/// Runs `tree [OPTION]... [DIRECTORY]...`.
pub fn run<'a>(ctx: &'a mut Invocation<'_>) -> LocalFuture<'a, i32> {
    Box::pin(async move {
        let parsed = match parse_or_report(ctx, &SPEC, 2).await {
            Ok(parsed) => parsed,
            Err(status) => return status,
        };
        let mut settings = Settings {
            all: parsed.has("a"),
            dirs_only: parsed.has("d"),
            max_level: None,
            ignore: parsed.options.iter().filter(|(k, _)| *k == "I").filter_map(|(_, v)| v.clone()).collect(),
            pattern: parsed.value("P").map(str::to_string),
            full_path: parsed.has("f"),
            classify: parsed.has("F"),
            sizes: parsed.has("s"),
            perms: parsed.has("p"),
            no_indent: parsed.has("i"),
            follow: parsed.has("l"),
            dirs_first: parsed.has("dirsfirst"),
            ascii: locale_is_ascii(ctx),
        };
        if let Some(charset) = parsed.value("charset") {
            settings.ascii = !charset.to_ascii_lowercase().contains("utf");
        }
        if let Some(level) = parsed.value("L") {
            match level.parse::<usize>() {
                Ok(level) if level > 0 => settings.max_level = Some(level),
                _ => {
                    let _ = ctx.stderr.write(b"tree: Invalid level, must be greater than 0.\n").await;
                    return 2;
                }
            }
        }
        let roots: Vec<String> = if parsed.operands.is_empty() { vec![".".into()] } else { parsed.operands.clone() };
        let mut counts = Counts::default();
        let mut out = String::new();
        let mut status = 0;
        for root in &roots {
            let path = ctx.resolve(root);
            match ctx.fs.metadata(&path).await {
                Ok(metadata) if metadata.is_dir() => {
                    out.push_str(&decorate(&settings, root, &metadata, None));
                    out.push('\n');
                    counts.dirs += 1;
                    draw(ctx, &settings, root, &path, 1, "", &mut counts, &mut out).await;
                }
                Ok(_) => {
                    out.push_str(&format!("{root}  [error opening dir]\n"));
                    counts.files += 1;
                    status = 2;
                }
                Err(_) => {
                    out.push_str(&format!("{root}  [error opening dir]\n"));
                    status = 2;
                }
            }
        }
        if !parsed.has("noreport") {
            let plural = |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
            out.push('\n');
            if settings.dirs_only {
                out.push_str(&plural(counts.dirs, "directory", "directories"));
            } else {
                out.push_str(&format!("{}, {}", plural(counts.dirs, "directory", "directories"), plural(counts.files, "file", "files")));
            }
            out.push('\n');
        }
        match ctx.write_out(out.as_bytes()).await {
            Ok(()) => status,
            Err(error) => write_failure_status(error),
        }
    })
}

/// A name with the `-s`/`-p` prefix, `-F` suffix and link target.
fn decorate(settings: &Settings, name: &str, metadata: &crate::fs::Metadata, link: Option<&str>) -> String {
    let mut text = String::new();
    if settings.perms || settings.sizes {
        let mut fields = Vec::new();
        if settings.perms {
            fields.push(mode_string(metadata.file_type, metadata.mode));
        }
        if settings.sizes {
            fields.push(format!("{:>11}", metadata.size));
        }
        text.push_str(&format!("[{}]  ", fields.join(" ")));
    }
    text.push_str(name);
    if let Some(target) = link {
        text.push_str(" -> ");
        text.push_str(target);
    } else if settings.classify {
        text.push_str(super::ls::classify_suffix(metadata.file_type, metadata.mode));
    }
    text
}

#[allow(clippy::too_many_arguments)]
fn draw<'a>(
    ctx: &'a Invocation<'_>,
    settings: &'a Settings,
    shown: &'a str,
    path: &'a str,
    level: usize,
    indent: &'a str,
    counts: &'a mut Counts,
    out: &'a mut String,
) -> LocalFuture<'a, ()> {
    Box::pin(async move {
        if settings.max_level.is_some_and(|max| level > max) {
            return;
        }
        let Ok(listing) = ctx.fs.read_dir(path).await else { return };
        let mut entries = Vec::new();
        for item in listing {
            if item.name.starts_with('.') && !settings.all {
                continue;
            }
            if matches_any(&settings.ignore, &item.name) {
                continue;
            }
            let child_path = join(path, &item.name);
            let Ok(own) = ctx.fs.symlink_metadata(&child_path).await else { continue };
            let target_meta = if own.is_symlink() { ctx.fs.metadata(&child_path).await.ok() } else { None };
            let is_dir = own.is_dir() || (settings.follow && target_meta.as_ref().is_some_and(|m| m.is_dir()));
            let points_to_dir = target_meta.as_ref().is_some_and(|m| m.is_dir());
            if settings.dirs_only && !is_dir && !points_to_dir {
                continue;
            }
            if let Some(pattern) = &settings.pattern {
                if !is_dir && !points_to_dir && !matches_any(std::slice::from_ref(pattern), &item.name) {
                    continue;
                }
            }
            entries.push((item.name, child_path, own, is_dir, points_to_dir));
        }
        if settings.dirs_first {
            entries.sort_by_key(|entry| !(entry.3 || entry.4));
        }
        let count = entries.len();
        for (index, (name, child_path, own, is_dir, points_to_dir)) in entries.into_iter().enumerate() {
            let last = index + 1 == count;
            let (branch, continuation) = match (settings.ascii, last) {
                (true, false) => ("|-- ", "|   "),
                (true, true) => ("`-- ", "    "),
                (false, false) => ("\u{251c}\u{2500}\u{2500} ", "\u{2502}\u{a0}\u{a0} "),
                (false, true) => ("\u{2514}\u{2500}\u{2500} ", "    "),
            };
            let shown_name = if settings.full_path { super::copy::join_name(shown, &name) } else { name.clone() };
            let link = if own.is_symlink() { ctx.fs.read_link(&child_path).await.ok() } else { None };
            if !settings.no_indent {
                out.push_str(indent);
                out.push_str(branch);
            }
            out.push_str(&decorate(settings, &shown_name, &own, link.as_deref()));
            out.push('\n');
            if is_dir || points_to_dir {
                counts.dirs += 1;
            } else {
                counts.files += 1;
            }
            if is_dir && (!own.is_symlink() || settings.follow) {
                let child_shown = super::copy::join_name(shown, &name);
                let next_indent = format!("{indent}{continuation}");
                draw(ctx, settings, &child_shown, &child_path, level + 1, &next_indent, counts, out).await;
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use crate::commands::file::fixtures::{run, tree};

    fn sample() -> crate::fs::MemoryFs {
        tree(&["a/", "a/b/", "a/b/c/", "a/x", "a/b/y", ".h", "a/.hid", "a/l -> x"])
    }

    #[test]
    fn drawing() {
        let fs = sample();
        assert_eq!(
            run(&fs, &["tree", "--charset=ascii"]).stdout,
            ".\n`-- a\n    |-- b\n    |   |-- c\n    |   `-- y\n    |-- l -> x\n    `-- x\n\n4 directories, 3 files\n"
        );
        assert_eq!(
            run(&fs, &["tree", "--charset=ascii", "-a", "a"]).stdout,
            "a\n|-- .hid\n|-- b\n|   |-- c\n|   `-- y\n|-- l -> x\n`-- x\n\n3 directories, 4 files\n"
        );
        assert_eq!(
            run(&fs, &["tree", "--charset=ascii", "-L", "1", "a"]).stdout,
            "a\n|-- b\n|-- l -> x\n`-- x\n\n2 directories, 2 files\n"
        );
        assert_eq!(run(&fs, &["tree", "--charset=ascii", "-d"]).stdout, ".\n`-- a\n    `-- b\n        `-- c\n\n4 directories\n");
        assert_eq!(run(&fs, &["tree", "--charset=ascii", "-I", "b", "a"]).stdout, "a\n|-- l -> x\n`-- x\n\n1 directory, 2 files\n");
        assert_eq!(run(&fs, &["tree", "--charset=ascii", "--noreport", "-L", "1", "a"]).stdout, "a\n|-- b\n|-- l -> x\n`-- x\n");
        assert_eq!(run(&fs, &["tree", "--charset=ascii", "-f", "a/b"]).stdout, "a/b\n|-- a/b/c\n`-- a/b/y\n\n2 directories, 1 file\n");
        assert_eq!(run(&fs, &["tree", "--charset=ascii", "-F", "a/b"]).stdout, "a/b/\n|-- c/\n`-- y\n\n2 directories, 1 file\n");
        assert_eq!(run(&fs, &["tree", "--charset=ascii", "-P", "x*", "a"]).stdout, "a\n|-- b\n|   `-- c\n`-- x\n\n3 directories, 1 file\n");
        assert_eq!(
            run(&fs, &["tree", "a/b"]).stdout,
            "a/b\n\u{251c}\u{2500}\u{2500} c\n\u{2514}\u{2500}\u{2500} y\n\n2 directories, 1 file\n"
        );
        let out = run(&fs, &["tree", "nope"]);
        assert_eq!((out.stdout.as_str(), out.status), ("nope  [error opening dir]\n\n0 directories, 0 files\n", 2));
    }
}
