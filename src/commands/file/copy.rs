//! The copy engine behind `cp`, `mv` across mounts and `install`: copies
//! one node (recursively for directories), reporting each failure in GNU
//! `cp`'s words and carrying on, so a failed copy leaves what GNU leaves.

use super::backup::{make_backup, Backup};
use super::prompt::ask;
use crate::commands::format::quote;
use crate::fs::path::normalize;
use crate::fs::{FsError, Metadata, OpenOptions};
use crate::io::READ_CHUNK;
use crate::utility::Invocation;

/// When source symlinks are followed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dereference {
    /// Always (`-L`; the default without `-r`).
    Always,
    /// Never (`-P`, `-d`; the default with `-r`).
    Never,
    /// Only for command-line operands (`-H`).
    CommandLine,
}

/// Instead of copying contents, make links (`-l`, `-s`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LinkInstead {
    /// `-l`: hard links.
    Hard,
    /// `-s`: symbolic links.
    Symbolic,
}

/// The choices of one copy run.
#[derive(Debug, Clone)]
pub struct CopyOptions {
    /// `-r`/`-R`: copy directories.
    pub recursive: bool,
    /// Symlink following.
    pub dereference: Dereference,
    /// `-p`/`-a`: keep mode bits.
    pub preserve_mode: bool,
    /// `-p`/`-a`: keep owner and group.
    pub preserve_owner: bool,
    /// `-p`/`-a`: keep access and modification times.
    pub preserve_times: bool,
    /// `-n`: never overwrite.
    pub no_clobber: bool,
    /// `-i`: ask before overwriting.
    pub interactive: bool,
    /// `-u`: skip unless the source is newer.
    pub update: bool,
    /// `-v`: report each copy.
    pub verbose: bool,
    /// `-f`: remove a destination that cannot be opened, and retry.
    pub force: bool,
    /// `-l`/`-s`.
    pub link: Option<LinkInstead>,
    /// `-b`/`--backup`/`-S`: back up a destination before replacing it.
    pub backup: Option<Backup>,
    /// The shell's umask for created nodes.
    pub umask: u32,
}

impl CopyOptions {
    /// Defaults of a plain `cp`.
    pub fn new(umask: u32) -> CopyOptions {
        CopyOptions {
            recursive: false,
            dereference: Dereference::Always,
            preserve_mode: false,
            preserve_owner: false,
            preserve_times: false,
            no_clobber: false,
            interactive: false,
            update: false,
            verbose: false,
            force: false,
            link: None,
            backup: None,
            umask,
        }
    }
}

/// `dir/name` keeping the spelling of `dir` (without a doubled slash).
pub fn join_name(dir: &str, name: &str) -> String {
    if dir.ends_with('/') {
        format!("{dir}{name}")
    } else {
        format!("{dir}/{name}")
    }
}

/// True when `inner` lies strictly below `outer` (both absolute).
pub fn is_inside(outer: &str, inner: &str) -> bool {
    let outer = normalize("/", outer);
    let inner = normalize("/", inner);
    outer == "/" && inner != "/" || inner.starts_with(&format!("{outer}/"))
}

/// What copying one node left to do.
enum Step {
    /// The node is done (true on success).
    Done(bool),
    /// A directory was made (or merged into): its entries are to be copied,
    /// then [`finish_directory`] applied.
    Directory { children: Vec<String>, finish: Finish },
}

/// Attributes to give a copied directory once its contents are in place.
struct Finish {
    dest_path: String,
    metadata: Metadata,
    created: bool,
}

/// Work left on the explicit stack (deep trees never grow the call stack).
enum Task {
    Copy { source: String, dest: String, top: bool },
    Finish(Finish),
}

/// Copies `source` to `dest` (names as typed; resolved against the working
/// directory), recursively for directories when allowed. `top` marks a
/// command-line operand. False on any failure; later nodes are still copied.
pub async fn copy_node(ctx: &Invocation<'_>, options: &CopyOptions, source: &str, dest: &str, top: bool) -> bool {
    let mut tasks = vec![Task::Copy { source: source.to_string(), dest: dest.to_string(), top }];
    let mut ok = true;
    while let Some(task) = tasks.pop() {
        match task {
            Task::Finish(finish) => finish_directory(ctx, options, &finish).await,
            Task::Copy { source, dest, top } => match copy_one(ctx, options, &source, &dest, top).await {
                Step::Done(success) => ok &= success,
                Step::Directory { children, finish } => {
                    tasks.push(Task::Finish(finish));
                    for name in children.iter().rev() {
                        tasks.push(Task::Copy { source: join_name(&source, name), dest: join_name(&dest, name), top: false });
                    }
                }
            },
        }
    }
    ok
}

/// Copies one node; a directory's contents are left to the caller.
async fn copy_one(ctx: &Invocation<'_>, options: &CopyOptions, source: &str, dest: &str, top: bool) -> Step {
    let source_path = ctx.resolve(source);
    let dest_path = ctx.resolve(dest);
    let follow = match options.dereference {
        Dereference::Always => true,
        Dereference::Never => false,
        Dereference::CommandLine => top,
    };
    let stat = if follow { ctx.fs.metadata(&source_path).await } else { ctx.fs.symlink_metadata(&source_path).await };
    let metadata = match stat {
        Ok(metadata) => metadata,
        Err(error) => {
            ctx.report(&format!("cannot stat {}: {error}", quote(source))).await;
            return Step::Done(false);
        }
    };
    let existing = match ctx.fs.metadata(&dest_path).await {
        Ok(existing) => Some(existing),
        Err(FsError::NotFound) => ctx.fs.symlink_metadata(&dest_path).await.ok(),
        Err(FsError::NotADirectory) if dest.ends_with('/') => {
            ctx.report(&format!("cannot stat {}: {}", quote(dest), FsError::NotADirectory)).await;
            return Step::Done(false);
        }
        Err(_) => None,
    };
    if let Some(existing) = &existing {
        if existing.ino == metadata.ino && existing.dev == metadata.dev && options.link.is_none() {
            ctx.report(&format!("{} and {} are the same file", quote(source), quote(dest))).await;
            return Step::Done(false);
        }
    }
    if metadata.is_dir() {
        return start_directory(ctx, options, source, dest, metadata, existing.as_ref()).await;
    }
    if let Some(existing) = &existing {
        if existing.is_dir() {
            ctx.report(&format!("cannot overwrite directory {} with non-directory", quote(dest))).await;
            return Step::Done(false);
        }
        let skip = options.no_clobber
            || (options.update && existing.mtime >= metadata.mtime)
            || (options.interactive && !ask(ctx, &format!("overwrite {}? ", quote(dest))).await);
        if skip {
            return Step::Done(true);
        }
    }
    let mut backed_up = None;
    if let (Some(backup), Some(_)) = (&options.backup, &existing) {
        match make_backup(ctx, backup, dest).await {
            Ok(name) => backed_up = Some(name),
            Err(()) => return Step::Done(false),
        }
    }
    let replace = existing.is_some() && backed_up.is_none();
    let result = if metadata.is_symlink() {
        copy_symlink(ctx, &source_path, &dest_path, replace).await
    } else {
        match options.link {
            Some(LinkInstead::Hard) => link_file(ctx, &source_path, &dest_path, replace, false).await,
            Some(LinkInstead::Symbolic) => {
                if !source.starts_with('/') && dest.contains('/') {
                    ctx.report(&format!("{dest}: can make relative symbolic links only in current directory")).await;
                    return Step::Done(false);
                }
                link_file(ctx, source, &dest_path, replace, true).await
            }
            None => copy_contents(ctx, options, source, &source_path, dest, &dest_path, &metadata).await,
        }
    };
    if !result {
        return Step::Done(false);
    }
    preserve(ctx, options, &dest_path, &metadata).await;
    if options.verbose {
        let _ = ctx.write_out(format!("{} -> {}{}\n", quote(source), quote(dest), backup_note(backed_up.as_deref())).as_bytes()).await;
    }
    Step::Done(true)
}

/// The ` (backup: 'NAME')` note of a verbose line, when a backup was made.
pub fn backup_note(backup: Option<&str>) -> String {
    backup.map(|name| format!(" (backup: {})", quote(name))).unwrap_or_default()
}

/// Checks and creates a directory's copy, returning the entries to copy into it.
async fn start_directory(
    ctx: &Invocation<'_>,
    options: &CopyOptions,
    source: &str,
    dest: &str,
    metadata: Metadata,
    existing: Option<&Metadata>,
) -> Step {
    if !options.recursive {
        ctx.report(&format!("-r not specified; omitting directory {}", quote(source))).await;
        return Step::Done(false);
    }
    let source_path = ctx.resolve(source);
    let dest_path = ctx.resolve(dest);
    if let Some(existing) = existing {
        if !existing.is_dir() {
            ctx.report(&format!("cannot overwrite non-directory {} with directory {}", quote(dest), quote(source))).await;
            return Step::Done(false);
        }
    }
    if is_inside(&source_path, &dest_path) || (existing.is_none() && normalize("/", &source_path) == normalize("/", &dest_path)) {
        ctx.report(&format!("cannot copy a directory, {}, into itself, {}", quote(source), quote(dest))).await;
        return Step::Done(false);
    }
    let entries = match ctx.fs.read_dir(&source_path).await {
        Ok(entries) => entries,
        Err(error) => {
            ctx.report(&format!("cannot access {}: {error}", quote(source))).await;
            return Step::Done(false);
        }
    };
    let created = existing.is_none();
    if created {
        let mode = metadata.mode & !options.umask;
        if let Err(error) = ctx.fs.create_dir(&dest_path, mode | 0o700).await {
            ctx.report(&format!("cannot create directory {}: {error}", quote(dest))).await;
            return Step::Done(false);
        }
        if options.verbose {
            let _ = ctx.write_out(format!("{} -> {}\n", quote(source), quote(dest)).as_bytes()).await;
        }
    }
    let children = entries.into_iter().map(|entry| entry.name).collect();
    Step::Directory { children, finish: Finish { dest_path, metadata, created } }
}

/// Gives a copied directory its final mode and preserved attributes.
async fn finish_directory(ctx: &Invocation<'_>, options: &CopyOptions, finish: &Finish) {
    if finish.created {
        let _ = ctx.fs.set_mode(&finish.dest_path, finish.metadata.mode & !options.umask).await;
    }
    preserve(ctx, options, &finish.dest_path, &finish.metadata).await;
}

/// Recreates a symlink with the same target text.
async fn copy_symlink(ctx: &Invocation<'_>, source_path: &str, dest_path: &str, replace: bool) -> bool {
    let target = match ctx.fs.read_link(source_path).await {
        Ok(target) => target,
        Err(error) => {
            ctx.report(&format!("cannot read symbolic link {}: {error}", quote(source_path))).await;
            return false;
        }
    };
    if replace {
        let _ = ctx.fs.remove_file(dest_path).await;
    }
    match ctx.fs.symlink(&target, dest_path).await {
        Ok(()) => true,
        Err(error) => {
            ctx.report(&format!("cannot create symbolic link {}: {error}", quote(dest_path))).await;
            false
        }
    }
}

/// Makes `dest` a hard or symbolic link to `source`.
async fn link_file(ctx: &Invocation<'_>, source: &str, dest_path: &str, replace: bool, symbolic: bool) -> bool {
    if replace {
        let _ = ctx.fs.remove_file(dest_path).await;
    }
    let result = if symbolic { ctx.fs.symlink(source, dest_path).await } else { ctx.fs.hard_link(source, dest_path).await };
    match result {
        Ok(()) => true,
        Err(error) => {
            let kind = if symbolic { "symbolic link" } else { "hard link" };
            ctx.report(&format!("cannot create {kind} {}: {error}", quote(dest_path))).await;
            false
        }
    }
}

/// Copies a regular file's bytes chunk by chunk.
async fn copy_contents(
    ctx: &Invocation<'_>,
    options: &CopyOptions,
    source: &str,
    source_path: &str,
    dest: &str,
    dest_path: &str,
    metadata: &Metadata,
) -> bool {
    let reader = match ctx.fs.open(source_path, OpenOptions::read_only()).await {
        Ok(reader) => reader,
        Err(error) => {
            ctx.report(&format!("cannot open {} for reading: {error}", quote(source))).await;
            return false;
        }
    };
    let create = OpenOptions::write_truncate(metadata.mode & 0o777 & !options.umask);
    let writer = match ctx.fs.open(dest_path, create).await {
        Ok(writer) => Ok(writer),
        Err(FsError::PermissionDenied) if options.force => {
            let _ = ctx.fs.remove_file(dest_path).await;
            ctx.fs.open(dest_path, create).await
        }
        Err(error) => Err(error),
    };
    let writer = match writer {
        Ok(writer) => writer,
        Err(error) => {
            let error = if dest.ends_with('/') && error == FsError::IsADirectory { FsError::NotADirectory } else { error };
            ctx.report(&format!("cannot create regular file {}: {error}", quote(dest))).await;
            return false;
        }
    };
    let mut offset = 0u64;
    loop {
        let chunk = match reader.read_at(offset, READ_CHUNK).await {
            Ok(chunk) => chunk,
            Err(error) => {
                ctx.report(&format!("error reading {}: {error}", quote(source))).await;
                return false;
            }
        };
        if chunk.is_empty() {
            return true;
        }
        if let Err(error) = writer.write_at(offset, &chunk).await {
            ctx.report(&format!("error writing {}: {error}", quote(dest))).await;
            return false;
        }
        offset += chunk.len() as u64;
    }
}

/// Applies `-p` attributes to a copied node.
async fn preserve(ctx: &Invocation<'_>, options: &CopyOptions, dest_path: &str, metadata: &Metadata) {
    if metadata.is_symlink() {
        return;
    }
    if options.preserve_owner {
        let _ = ctx.fs.set_owner(dest_path, Some(metadata.uid), Some(metadata.gid)).await;
    }
    if options.preserve_mode {
        let _ = ctx.fs.set_mode(dest_path, metadata.mode).await;
    }
    if options.preserve_times {
        let _ = ctx.fs.set_times(dest_path, Some(metadata.atime), Some(metadata.mtime)).await;
    }
}

/// Where a source lands when the target is a directory: `target/basename`.
pub fn into_directory(target: &str, source: &str) -> String {
    let base = super::basename::base_name(source);
    join_name(target, base)
}

/// Resolves the operands of `cp`/`mv`/`ln`/`install` into (source, dest)
/// pairs, reporting usage errors as GNU does. `target_dir` is `-t DIR`,
/// `no_target_dir` is `-T`.
pub async fn plan(
    ctx: &Invocation<'_>,
    operands: &[String],
    target_dir: Option<&str>,
    no_target_dir: bool,
) -> Result<Vec<(String, String)>, i32> {
    use crate::commands::options::report_usage;
    if let Some(dir) = target_dir {
        if operands.is_empty() {
            report_usage(ctx, "missing file operand").await;
            return Err(1);
        }
        match ctx.fs.metadata(&ctx.resolve(dir)).await {
            Ok(m) if m.is_dir() => {}
            Ok(_) => {
                ctx.report(&format!("target {} is not a directory", quote(dir))).await;
                return Err(1);
            }
            Err(error) => {
                ctx.report(&format!("target directory {}: {error}", quote(dir))).await;
                return Err(1);
            }
        }
        return Ok(operands.iter().map(|s| (s.clone(), into_directory(dir, s))).collect());
    }
    match operands {
        [] => {
            report_usage(ctx, "missing file operand").await;
            Err(1)
        }
        [only] => {
            report_usage(ctx, &format!("missing destination file operand after {}", quote(only))).await;
            Err(1)
        }
        [sources @ .., target] => {
            if no_target_dir {
                if let Some(extra) = operands.get(2) {
                    report_usage(ctx, &format!("extra operand {}", quote(extra))).await;
                    return Err(1);
                }
                return Ok(vec![(sources.first().cloned().unwrap_or_default(), target.clone())]);
            }
            let is_dir = ctx.fs.metadata(&ctx.resolve(target)).await;
            match is_dir {
                Ok(m) if m.is_dir() => Ok(sources.iter().map(|s| (s.clone(), into_directory(target, s))).collect()),
                _ if sources.len() == 1 => Ok(vec![(sources.first().cloned().unwrap_or_default(), target.clone())]),
                Ok(_) => {
                    ctx.report(&format!("target {} is not a directory", quote(target))).await;
                    Err(1)
                }
                Err(error) => {
                    ctx.report(&format!("target {}: {error}", quote(target))).await;
                    Err(1)
                }
            }
        }
    }
}
