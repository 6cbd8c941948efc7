//! The inputs of a grep run: standard input, named files, and with `-r` /
//! `-R` the files under named directories (in name order), filtered by
//! `--include`, `--exclude` and `--exclude-dir`.

use super::search::{search_stream, Failure, Outcome};
use super::{display_name, report_file, Config};
use crate::commands::common::{inputs, open_input, Input};
use crate::commands::file::glob;
use crate::fs::FsError;
use crate::regex::RegexError;
use crate::utility::Invocation;

/// What the run has seen so far.
struct Tally {
    matched: bool,
    error: bool,
}

/// Searches every operand (standard input or `.` for none) and returns
/// grep's exit status.
pub async fn search_all(ctx: &Invocation<'_>, config: &Config, operands: &[String]) -> i32 {
    let mut tally = Tally { matched: false, error: false };
    let implicit_dot = operands.is_empty() && config.recursive.is_some();
    let list = if implicit_dot { vec![Input::File(".".to_string())] } else { inputs(operands) };
    for input in &list {
        let result = match input {
            Input::Stdin => search_input(ctx, config, input, &config.label, config.with_filename, &mut tally).await,
            Input::File(name) => search_operand(ctx, config, name, implicit_dot, &mut tally).await,
        };
        if let Err(status) = result {
            return status;
        }
    }
    if tally.error && !(config.quiet && tally.matched) {
        2
    } else if tally.matched {
        0
    } else {
        1
    }
}

fn excluded(config: &Config, name: &str) -> bool {
    let base = name.rsplit('/').find(|part| !part.is_empty()).unwrap_or(name);
    let included = config.include.is_empty() || config.include.iter().any(|pattern| glob::matches(pattern, base));
    !included || config.exclude.iter().any(|pattern| glob::matches(pattern, base))
}

/// One named operand: a file, or a directory to skip, refuse or walk.
async fn search_operand(ctx: &Invocation<'_>, config: &Config, name: &str, implicit_dot: bool, tally: &mut Tally) -> Result<(), i32> {
    let is_dir = ctx.special_stream(name).is_none() && ctx.fs.metadata(&ctx.resolve(name)).await.is_ok_and(|meta| meta.is_dir());
    if !is_dir {
        if excluded(config, name) && ctx.special_stream(name).is_none() {
            return Ok(());
        }
        return search_input(ctx, config, &Input::File(name.to_string()), name, config.with_filename, tally).await;
    }
    if config.recursive.is_none() {
        if !config.skip_directories {
            report_file(ctx, config, name, &FsError::IsADirectory.to_string()).await;
            tally.error = true;
            if config.count {
                // grep still counts the lines it could read: none.
                let line = if config.with_filename { format!("{name}:0\n") } else { "0\n".to_string() };
                if let Err(error) = ctx.write_out(line.as_bytes()).await {
                    return Err(super::write_status(ctx, error).await);
                }
            }
        }
        return Ok(());
    }
    if config.exclude_dir.iter().any(|pattern| glob::matches(pattern, name.trim_end_matches('/'))) && !implicit_dot {
        return Ok(());
    }
    let mut pending = vec![(name.to_string(), if implicit_dot { String::new() } else { name.to_string() })];
    while let Some((path, shown)) = pending.pop() {
        let mut entries = match ctx.fs.read_dir(&ctx.resolve(&path)).await {
            Ok(entries) => entries,
            Err(error) => {
                report_file(ctx, config, &shown, &error.to_string()).await;
                tally.error = true;
                continue;
            }
        };
        entries.sort_by(|a, b| a.name.cmp(&b.name));
        let mut subdirectories = Vec::new();
        for entry in entries {
            let child_path = format!("{}/{}", path.trim_end_matches('/'), entry.name);
            let child_shown = if shown.is_empty() { entry.name.clone() } else { format!("{}/{}", shown.trim_end_matches('/'), entry.name) };
            let meta = if entry.file_type == crate::fs::FileType::Symlink {
                if config.recursive != Some(true) {
                    continue;
                }
                match ctx.fs.metadata(&ctx.resolve(&child_path)).await {
                    Ok(meta) => meta,
                    Err(error) => {
                        report_file(ctx, config, &child_shown, &error.to_string()).await;
                        tally.error = true;
                        continue;
                    }
                }
            } else {
                match ctx.fs.symlink_metadata(&ctx.resolve(&child_path)).await {
                    Ok(meta) => meta,
                    Err(_) => continue,
                }
            };
            if meta.is_dir() {
                if !config.exclude_dir.iter().any(|pattern| glob::matches(pattern, &entry.name)) {
                    subdirectories.push((child_path, child_shown));
                }
                continue;
            }
            if !meta.is_file() || excluded(config, &entry.name) {
                continue;
            }
            let with_filename = config.with_filename || config.names_in_directories;
            search_input(ctx, config, &Input::File(child_path.clone()), &child_shown, with_filename, tally).await?;
        }
        pending.extend(subdirectories.into_iter().rev());
    }
    Ok(())
}

/// Opens and searches one input, reporting failures; `Err(status)` stops the run.
async fn search_input(
    ctx: &Invocation<'_>,
    config: &Config,
    input: &Input,
    shown: &str,
    with_filename: bool,
    tally: &mut Tally,
) -> Result<(), i32> {
    let stream = match open_input(ctx, input).await {
        Ok(stream) => stream,
        Err(error) => {
            report_file(ctx, config, &display_name(config, input), &error.to_string()).await;
            tally.error = true;
            return Ok(());
        }
    };
    match search_stream(ctx, config, stream, shown, with_filename).await {
        Ok(Outcome::Done(found)) => tally.matched |= found,
        Ok(Outcome::QuitMatched) => return Err(0),
        Err(Failure::Read) => {
            report_file(ctx, config, shown, "read error").await;
            tally.error = true;
        }
        Err(Failure::Stop(status)) => return Err(status),
        Err(Failure::Regex(error)) => {
            let message = match error {
                // GNU grep names the input whose search hit PCRE's limits.
                RegexError::BacktrackLimit | RegexError::StackLimit => format!("{shown}: {error}"),
                other => other.to_string(),
            };
            ctx.report(&message).await;
            return Err(2);
        }
    }
    Ok(())
}
