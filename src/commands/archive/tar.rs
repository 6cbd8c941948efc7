//! `tar`: create (`c`), extract (`x`) and list (`t`) archives in GNU tar's
//! format, optionally gzip-compressed (`z`, detected by itself on reading),
//! with GNU tar's option forms (`tar czf`, `-czf`, `--create --file=`),
//! messages and statuses (2 for failures, 64 for a bad option).

use super::tar_common::TarOptions;
use super::tar_create::create;
use super::tar_extract::{extract_or_list, ExtractMode};
use crate::commands::options::{parse, Long, Spec};
use crate::host::LocalFuture;
use crate::utility::Invocation;

const LONGS: &[Long] = &[
    Long::flag("create", "c"),
    Long::flag("extract", "x"),
    Long::flag("get", "x"),
    Long::flag("list", "t"),
    Long::flag("gzip", "z"),
    Long::flag("gunzip", "z"),
    Long::flag("ungzip", "z"),
    Long::flag("bzip2", "j"),
    Long::flag("xz", "J"),
    Long::flag("verbose", "v"),
    Long::required("file", "f"),
    Long::required("directory", "C"),
    Long::flag("keep-old-files", "k"),
    Long::flag("overwrite", "overwrite"),
    Long::flag("to-stdout", "O"),
    Long::flag("preserve-permissions", "p"),
    Long::flag("same-permissions", "p"),
    Long::flag("absolute-names", "P"),
    Long::flag("touch", "m"),
    Long::flag("dereference", "h"),
    Long::flag("auto-compress", "a"),
    Long::required("exclude", "exclude"),
    Long::required("exclude-from", "X"),
    Long::required("files-from", "T"),
    Long::required("strip-components", "strip-components"),
    Long::flag("wildcards", "wildcards"),
    Long::flag("no-wildcards", "no-wildcards"),
    Long::flag("no-same-owner", "no-same-owner"),
    Long::flag("same-owner", "same-owner"),
    Long::flag("numeric-owner", "numeric-owner"),
    Long::flag("no-recursion", "no-recursion"),
    Long::flag("recursion", "recursion"),
    Long::flag("remove-files", "remove-files"),
    Long::required("sort", "sort"),
    Long::required("owner", "owner"),
    Long::required("group", "group"),
    Long::required("blocking-factor", "b"),
];
const SPEC: Spec = Spec::new("cxtzjJvf:C:kOpPmhab:T:X:", LONGS);
/// Old-style letters that take the next word as their argument.
const ARG_LETTERS: &str = "fCbTX";

/// Rewrites GNU tar's old-style first word (`czf a.tgz d`) into options.
pub fn expand_old_style(args: &[String]) -> Result<Vec<String>, char> {
    let Some(first) = args.first() else {
        return Ok(Vec::new());
    };
    if first.starts_with('-') {
        return Ok(args.to_vec());
    }
    let mut out = Vec::new();
    let mut rest = args.iter().skip(1);
    let mut values = Vec::new();
    for letter in first.chars() {
        out.push(format!("-{letter}"));
        if ARG_LETTERS.contains(letter) {
            values.push((out.len() - 1, rest.next().cloned().ok_or(letter)?));
        }
    }
    for (index, value) in values.into_iter().rev() {
        out.insert(index + 1, value);
    }
    out.extend(rest.cloned());
    Ok(out)
}

/// Writes `tar: message` and GNU tar's usage hint.
async fn usage_error(ctx: &Invocation<'_>, message: &str) {
    let text = format!("tar: {message}\nTry 'tar --help' or 'tar --usage' for more information.\n");
    let _ = ctx.stderr.write(text.as_bytes()).await;
}

/// Runs `tar`.
pub fn run<'a>(ctx: &'a mut Invocation<'_>) -> LocalFuture<'a, i32> {
    Box::pin(async move {
        let args = match expand_old_style(ctx.args.get(1..).unwrap_or(&[])) {
            Ok(args) => args,
            Err(letter) => {
                usage_error(ctx, &format!("Old option '{letter}' requires an argument.")).await;
                return 2;
            }
        };
        let parsed = match parse(&SPEC, &args) {
            Ok(parsed) => parsed,
            Err(error) => {
                usage_error(ctx, &error.message()).await;
                return 64;
            }
        };
        let mut options = TarOptions { file: "-".into(), operands: parsed.operands.clone(), ..Default::default() };
        let mut mode: Option<char> = None;
        let mut modes = 0;
        let mut files_from = Vec::new();
        let mut compressor = None;
        for (key, value) in &parsed.options {
            let value = value.clone().unwrap_or_default();
            match *key {
                "c" | "x" | "t" => {
                    let letter = key.chars().next().unwrap_or('t');
                    if mode != Some(letter) {
                        modes += 1;
                    }
                    mode = Some(letter);
                }
                "z" => options.gzip = true,
                "j" => compressor = Some("bzip2"),
                "J" => compressor = Some("xz"),
                "v" => options.verbose += 1,
                "f" => options.file = value,
                "C" => options.directory = Some(value),
                "k" => options.keep_old = true,
                "overwrite" => options.keep_old = false,
                "O" => options.to_stdout = true,
                "p" => options.preserve = true,
                "P" => options.absolute = true,
                "m" => options.touch = true,
                "h" => options.dereference = true,
                "a" => options.auto_compress = true,
                "exclude" => options.excludes.push(value),
                "X" => files_from.push((true, value)),
                "T" => files_from.push((false, value)),
                "strip-components" => match value.parse() {
                    Ok(count) => options.strip = count,
                    Err(_) => {
                        usage_error(ctx, &format!("Invalid number of elements: '{value}'")).await;
                        return 2;
                    }
                },
                "wildcards" => options.wildcards = true,
                "no-wildcards" => options.wildcards = false,
                "no-recursion" => options.no_recursion = true,
                "recursion" => options.no_recursion = false,
                "remove-files" => options.remove_files = true,
                _ => {}
            }
        }
        if modes > 1 {
            usage_error(ctx, "You may not specify more than one '-Acdtrux', '--delete' or  '--test-label' option").await;
            return 2;
        }
        let Some(mode) = mode else {
            usage_error(ctx, "You must specify one of the '-Acdtrux', '--delete' or '--test-label' options").await;
            return 2;
        };
        if let Some(program) = compressor {
            let text = format!(
                "tar (child): {program}: Cannot exec: No such file or directory\ntar (child): Error is not recoverable: exiting now\ntar: Child returned status 2\ntar: Error is not recoverable: exiting now\n"
            );
            let _ = ctx.stderr.write(text.as_bytes()).await;
            return 2;
        }
        for (exclude, name) in files_from {
            let data = match crate::commands::hash::source::read_operand(ctx, &name).await {
                Ok(data) => data,
                Err(error) => {
                    let _ = ctx
                        .stderr
                        .write(format!("tar: {name}: Cannot open: {error}\ntar: Error is not recoverable: exiting now\n").as_bytes())
                        .await;
                    return 2;
                }
            };
            let names = String::from_utf8_lossy(&data).lines().filter(|l| !l.is_empty()).map(str::to_string).collect::<Vec<_>>();
            if exclude {
                options.excludes.extend(names);
            } else {
                options.operands.extend(names);
            }
        }
        match mode {
            'c' => create(ctx, &options).await,
            'x' => extract_or_list(ctx, &options, ExtractMode::Extract).await,
            _ => extract_or_list(ctx, &options, ExtractMode::List).await,
        }
    })
}
