//! `tar x` and `tar t`: reads an archive as it streams in (expanding gzip
//! when present), selects members by operand and exclusion, and extracts or
//! lists them as GNU tar does, restoring directory times after their contents.

use super::files::{create_dirs, open_read, parent_of, Sink, SinkError};
use super::gzip_format::is_gzip;
use super::gzip_stream::{read_prefix, Expander};
use super::pattern::{excluded, wildcard_match};
use super::tar_common::{strip_unsafe_prefix, TarOptions};
use super::tar_format::{Entry, Kind, TarError};
use super::tar_reader::{ReadError, Source, TarReader};
use super::tar_list::{local_offset, long_line};
use crate::fs::FsError;
use crate::io::READ_CHUNK;
use crate::utility::{write_failure_status, Invocation};

/// Whether members are extracted or listed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExtractMode {
    /// `tar x`.
    Extract,
    /// `tar t`.
    List,
}

async fn say(ctx: &Invocation<'_>, text: &str) {
    let _ = ctx.stderr.write(text.as_bytes()).await;
}

const FATAL: &str = "tar: Error is not recoverable: exiting now\n";

/// Opens the archive, expanding gzip as it is read. `Err(status)` after reporting.
async fn open_archive(ctx: &Invocation<'_>, options: &TarOptions) -> Result<TarReader, i32> {
    let from_stdin = options.file == "-";
    let input = if from_stdin {
        ctx.stdin.clone()
    } else {
        let path = ctx.resolve(&options.file);
        let result = match ctx.fs.metadata(&path).await {
            Ok(metadata) if metadata.is_dir() => Err(FsError::IsADirectory),
            _ => open_read(ctx, &path).await,
        };
        match result {
            Ok(input) => input,
            Err(FsError::IsADirectory) => {
                say(ctx, &format!("tar: {}: Cannot read: Is a directory\n{FATAL}", options.file)).await;
                return Err(2);
            }
            Err(error) => {
                say(ctx, &format!("tar: {}: Cannot open: {error}\n{FATAL}", options.file)).await;
                return Err(2);
            }
        }
    };
    let prefix = read_prefix(&input, 2).await.unwrap_or_default();
    if is_gzip(&prefix) {
        if from_stdin && !options.gzip {
            say(ctx, &format!("tar: Archive is compressed. Use -z option\n{FATAL}")).await;
            return Err(2);
        }
        return Ok(TarReader::new(Source::Gzip(Expander::new(input, &prefix)), Vec::new()));
    }
    if options.gzip {
        say(ctx, &format!("\ngzip: stdin: not in gzip format\ntar: Child returned status 1\n{FATAL}")).await;
        return Err(2);
    }
    Ok(TarReader::new(Source::Plain(input), prefix))
}

/// Why extracting one member stopped the whole run.
enum Stop {
    /// Standard output failed: exit with this status.
    Status(i32),
    /// The archive could not be read on.
    Archive(ReadError),
}

/// True when member `name` is selected by operand `operand`.
fn selects(operand: &str, name: &str, wildcards: bool) -> bool {
    let operand = operand.trim_end_matches('/');
    let name = name.trim_end_matches('/');
    if operand == name || name.strip_prefix(operand).is_some_and(|rest| rest.starts_with('/')) {
        return true;
    }
    wildcards
        && (wildcard_match(operand, name) || {
            let mut prefix = name;
            let mut found = false;
            while let Some(slash) = prefix.rfind('/') {
                prefix = prefix.get(..slash).unwrap_or("");
                if wildcard_match(operand, prefix) {
                    found = true;
                    break;
                }
            }
            found
        })
}

/// Drops `count` leading components; `None` when nothing is left.
fn strip_components(name: &str, count: usize) -> Option<String> {
    if count == 0 {
        return Some(name.to_string());
    }
    let parts: Vec<&str> = name.split('/').collect();
    let rest = parts.get(count..)?.join("/");
    (!rest.is_empty()).then_some(rest)
}

/// Runs `tar x` or `tar t`; returns the exit status.
pub async fn extract_or_list(ctx: &Invocation<'_>, options: &TarOptions, mode: ExtractMode) -> i32 {
    let mut reader = match open_archive(ctx, options).await {
        Ok(reader) => reader,
        Err(status) => return status,
    };
    let base = match &options.directory {
        Some(dir) => {
            let path = ctx.resolve(dir);
            if !ctx.fs.metadata(&path).await.is_ok_and(|m| m.is_dir()) {
                let error = ctx.fs.metadata(&path).await.err().unwrap_or(FsError::NotADirectory);
                say(ctx, &format!("tar: {dir}: Cannot open: {error}\n{FATAL}")).await;
                return 2;
            }
            path
        }
        None => ctx.cwd.clone(),
    };
    let mut failed = false;
    let mut matched = vec![false; options.operands.len()];
    let mut extractor = Extractor { base, width: 19, directories: Vec::new(), removed_prefixes: Vec::new(), failed: false };
    let error = loop {
        let entry = match reader.next_entry().await {
            Ok(Some(entry)) => entry,
            Ok(None) => break None,
            Err(error) => break Some(error),
        };
        if excluded(&options.excludes, &entry.name) {
            continue;
        }
        if !options.operands.is_empty() {
            let mut any = false;
            for (operand, seen) in options.operands.iter().zip(matched.iter_mut()) {
                if selects(operand, &entry.name, options.wildcards) {
                    *seen = true;
                    any = true;
                }
            }
            if !any {
                continue;
            }
        }
        let Some(name) = strip_components(&entry.name, options.strip) else {
            continue;
        };
        let result = match mode {
            ExtractMode::List => {
                let line = if options.verbose > 0 {
                    long_line(&entry, &mut extractor.width, local_offset(ctx), false)
                } else {
                    format!("{}\n", entry.name)
                };
                ctx.write_out(line.as_bytes()).await.map_err(|error| Stop::Status(write_failure_status(error)))
            }
            ExtractMode::Extract => extractor.extract(ctx, options, &entry, &name, &mut reader).await,
        };
        match result {
            Ok(()) => {}
            Err(Stop::Status(status)) => return status,
            Err(Stop::Archive(error)) => break Some(error),
        }
    };
    if mode == ExtractMode::Extract {
        extractor.restore_directories(ctx, options).await;
    }
    failed |= extractor.failed;
    if reader.was_cut() {
        say(ctx, "\ngzip: stdin: unexpected end of file\n").await;
        if error.is_none() {
            say(ctx, &format!("tar: Child returned status 1\n{FATAL}")).await;
            return 2;
        }
    }
    match error {
        Some(ReadError::Tar(TarError::NotTar)) => {
            say(ctx, "tar: This does not look like a tar archive\n").await;
            failed = true;
        }
        Some(ReadError::Tar(TarError::UnexpectedEof)) => {
            say(ctx, &format!("tar: Unexpected EOF in archive\n{FATAL}")).await;
            return 2;
        }
        Some(ReadError::Tar(TarError::BadHeader)) => {
            say(ctx, "tar: Skipping to next header\n").await;
            failed = true;
        }
        Some(ReadError::Gzip(error)) => {
            say(ctx, &format!("\ngzip: stdin: {error}\ntar: Child returned status 1\n{FATAL}")).await;
            return 2;
        }
        None => {}
    }
    let patterns_unmatched =
        options.operands.iter().zip(&matched).any(|(op, seen)| !seen && !options.wildcards && op.contains(['*', '?', '[']));
    if patterns_unmatched {
        say(ctx, "tar: Pattern matching characters used in file names\ntar: Use --wildcards to enable pattern matching, or --no-wildcards to suppress this warning\n").await;
    }
    for (operand, seen) in options.operands.iter().zip(&matched) {
        if !seen {
            say(ctx, &format!("tar: {operand}: Not found in archive\n")).await;
            failed = true;
        }
    }
    if failed {
        say(ctx, "tar: Exiting with failure status due to previous errors\n").await;
        return 2;
    }
    0
}

/// Copies the current member's data from `reader` to `sink`; after a
/// write error the rest is skipped. `Err` when the archive failed.
async fn copy_body(ctx: &Invocation<'_>, reader: &mut TarReader, sink: &mut Sink) -> Result<Result<(), SinkError>, ReadError> {
    let mut outcome = Ok(());
    loop {
        let chunk = reader.read_body(READ_CHUNK).await?;
        if chunk.is_empty() {
            return Ok(outcome);
        }
        if outcome.is_ok() {
            outcome = sink.put(ctx, &chunk).await;
        }
    }
}

/// State of one extraction.
struct Extractor {
    base: String,
    width: usize,
    directories: Vec<(String, u32, i64)>,
    removed_prefixes: Vec<String>,
    failed: bool,
}

impl Extractor {
    async fn fail(&mut self, ctx: &Invocation<'_>, text: String) {
        say(ctx, &text).await;
        self.failed = true;
    }

    /// Extracts one member as `name`, its data read from `reader`.
    async fn extract(
        &mut self,
        ctx: &Invocation<'_>,
        options: &TarOptions,
        entry: &Entry,
        name: &str,
        reader: &mut TarReader,
    ) -> Result<(), Stop> {
        let name = if options.absolute {
            name.to_string()
        } else {
            let (prefix, rest) = strip_unsafe_prefix(name);
            if prefix.contains('/') && !prefix.contains("..") && !self.removed_prefixes.contains(&prefix) {
                say(ctx, &format!("tar: Removing leading `{prefix}' from member names\n")).await;
                self.removed_prefixes.push(prefix.clone());
            }
            if prefix.contains("..") || rest.split('/').any(|part| part == "..") {
                self.fail(ctx, format!("tar: {}: Member name contains '..'\n", entry.name)).await;
                return Ok(());
            }
            rest.to_string()
        };
        if name.is_empty() {
            return Ok(());
        }
        if options.verbose > 0 {
            let line =
                if options.verbose > 1 { long_line(entry, &mut self.width, local_offset(ctx), false) } else { format!("{}\n", entry.name) };
            ctx.write_out(line.as_bytes()).await.map_err(|error| Stop::Status(write_failure_status(error)))?;
        }
        if options.to_stdout {
            if entry.kind == Kind::File {
                let mut sink = Sink::Stdout;
                match copy_body(ctx, reader, &mut sink).await {
                    Ok(Ok(())) => {}
                    Ok(Err(SinkError::Stdout(error))) => return Err(Stop::Status(write_failure_status(error))),
                    Ok(Err(SinkError::File(_))) => {}
                    Err(error) => return Err(Stop::Archive(error)),
                }
            }
            return Ok(());
        }
        let path = crate::fs::path::join(&self.base, name.trim_end_matches('/'));
        let umask = ctx.shell.umask();
        let mode = if options.preserve { entry.mode } else { entry.mode & !umask };
        if let Err(error) = create_dirs(ctx.fs.as_ref(), parent_of(&path), umask).await {
            self.fail(ctx, format!("tar: {name}: Cannot open: {error}\n")).await;
            return Ok(());
        }
        let existing = ctx.fs.symlink_metadata(&path).await.ok();
        if entry.kind == Kind::Directory {
            match existing {
                Some(metadata) if metadata.is_dir() => {}
                Some(_) if options.keep_old => {
                    self.fail(ctx, format!("tar: {name}: Cannot mkdir: File exists\n")).await;
                    return Ok(());
                }
                other => {
                    if other.is_some() {
                        let _ = ctx.fs.remove_file(&path).await;
                    }
                    if let Err(error) = ctx.fs.create_dir(&path, 0o700).await {
                        self.fail(ctx, format!("tar: {name}: Cannot mkdir: {error}\n")).await;
                        return Ok(());
                    }
                }
            }
            self.directories.push((path, mode, entry.mtime));
            return Ok(());
        }
        if let Some(metadata) = existing {
            if options.keep_old {
                let what = match &entry.kind {
                    Kind::Symlink(target) => format!("Cannot create symlink to '{target}'"),
                    _ => "Cannot open".to_string(),
                };
                self.fail(ctx, format!("tar: {name}: {what}: File exists\n")).await;
                return Ok(());
            }
            let removed = if metadata.is_dir() { ctx.fs.remove_dir(&path).await } else { ctx.fs.remove_file(&path).await };
            if let Err(error) = removed {
                self.fail(ctx, format!("tar: {name}: Cannot unlink: {error}\n")).await;
                return Ok(());
            }
        }
        let result = match &entry.kind {
            Kind::File => match Sink::create(ctx, &path, mode).await {
                Ok(mut sink) => {
                    let written = copy_body(ctx, reader, &mut sink).await.map_err(Stop::Archive)?;
                    let _ = ctx.fs.set_mode(&path, mode).await;
                    if !options.touch {
                        let millis = entry.mtime as f64 * 1000.0;
                        let _ = ctx.fs.set_times(&path, Some(millis), Some(millis)).await;
                    }
                    match written {
                        Ok(()) => Ok(()),
                        Err(SinkError::File(error)) => Err(format!("tar: {name}: Cannot write: {error}\n")),
                        Err(SinkError::Stdout(error)) => Err(format!("tar: {name}: Cannot write: {error}\n")),
                    }
                }
                Err(error) => Err(format!("tar: {name}: Cannot open: {error}\n")),
            },
            Kind::Symlink(target) => {
                ctx.fs.symlink(target, &path).await.map_err(|error| format!("tar: {name}: Cannot create symlink to '{target}': {error}\n"))
            }
            Kind::HardLink(target) => {
                let (_, stripped) = strip_unsafe_prefix(target);
                let stripped = strip_components(stripped, options.strip).unwrap_or_default();
                let target_path = crate::fs::path::join(&self.base, &stripped);
                ctx.fs
                    .hard_link(&target_path, &path)
                    .await
                    .map_err(|error| format!("tar: {name}: Cannot hard link to '{target}': {error}\n"))
            }
            _ => Err(format!("tar: {name}: Cannot mknod: {}\n", FsError::NotPermitted)),
        };
        if let Err(text) = result {
            self.fail(ctx, text).await;
        }
        Ok(())
    }

    /// Sets directory modes and times once their contents are in place.
    async fn restore_directories(&mut self, ctx: &Invocation<'_>, options: &TarOptions) {
        for (path, mode, mtime) in self.directories.iter().rev() {
            let _ = ctx.fs.set_mode(path, *mode).await;
            if !options.touch {
                let millis = *mtime as f64 * 1000.0;
                let _ = ctx.fs.set_times(path, Some(millis), Some(millis)).await;
            }
        }
    }
}
