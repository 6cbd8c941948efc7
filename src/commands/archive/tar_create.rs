//! `tar c`: walks the named files into an archive written as it grows
//! (gzip-compressed with `z`) to the archive file or standard output, a
//! chunk at a time: memory does not grow with the tree's size.

use super::pattern::excluded;
use super::tar_common::{strip_unsafe_prefix, TarOptions};
use super::files::{Sink, SinkError};
use super::gzip_stream::{member_header, Encoder, OUTPUT_CHUNK};
use super::tar_format::{ending, padding, write_header, Entry, Kind};
use super::tar_list::long_line;
use crate::fs::{FileType, Metadata, OpenOptions};
use crate::io::READ_CHUNK;
use crate::utility::{write_failure_status, Invocation};
use std::collections::HashMap;

/// The archive's bytes on their way out: through gzip when asked, written
/// whenever a chunk is ready.
struct ArchiveOut {
    buffer: Vec<u8>,
    encoder: Option<Encoder>,
    packed: Vec<u8>,
    sink: Sink,
    written: u64,
}

impl ArchiveOut {
    fn new(sink: Sink, gzip: bool) -> ArchiveOut {
        let (encoder, packed) = if gzip { (Some(Encoder::new(6)), member_header(6, None, 0)) } else { (None, Vec::new()) };
        ArchiveOut { buffer: Vec::new(), encoder, packed, sink, written: 0 }
    }

    fn push(&mut self, bytes: &[u8]) {
        self.written += bytes.len() as u64;
        self.buffer.extend_from_slice(bytes);
    }

    /// Writes what is buffered once a chunk is ready (everything with `all`).
    async fn flush(&mut self, ctx: &Invocation<'_>, all: bool) -> Result<(), SinkError> {
        if !all && self.buffer.len() < OUTPUT_CHUNK {
            return Ok(());
        }
        let Some(encoder) = &mut self.encoder else {
            let result = self.sink.put(ctx, &self.buffer).await;
            self.buffer.clear();
            return result;
        };
        encoder.write(&self.buffer, &mut self.packed);
        self.buffer.clear();
        if all || self.packed.len() >= OUTPUT_CHUNK {
            let result = self.sink.put(ctx, &self.packed).await;
            self.packed.clear();
            return result;
        }
        Ok(())
    }

    /// Ends the archive (and the gzip member) and writes the rest.
    async fn finish(&mut self, ctx: &Invocation<'_>) -> Result<(), SinkError> {
        let end = ending(self.written);
        self.push(&end);
        if let Some(encoder) = &mut self.encoder {
            encoder.write(&self.buffer, &mut self.packed);
            self.buffer.clear();
            encoder.finish(&mut self.packed);
        }
        self.flush(ctx, true).await
    }
}

/// State of one archive being written.
struct Writer<'o> {
    options: &'o TarOptions,
    base: String,
    archive: ArchiveOut,
    archive_id: Option<(u64, u64)>,
    links: HashMap<(u64, u64), String>,
    failed: bool,
    removed_prefixes: Vec<String>,
    verbose_to_stderr: bool,
    width: usize,
    added: Vec<(String, bool)>,
}

/// The user and group names of ids in the sandbox.
pub fn owner_name(id: u32) -> String {
    match id {
        0 => "root".into(),
        crate::fs::layout::SANDBOX_UID => crate::fs::layout::USER_NAME.into(),
        _ => String::new(),
    }
}

async fn say(ctx: &Invocation<'_>, text: &str) {
    let _ = ctx.stderr.write(text.as_bytes()).await;
}

/// Runs `tar c`; returns the exit status.
pub async fn create(ctx: &Invocation<'_>, options: &TarOptions) -> i32 {
    if options.operands.is_empty() {
        say(ctx, "tar: Cowardly refusing to create an empty archive\nTry 'tar --help' or 'tar --usage' for more information.\n").await;
        return 2;
    }
    let to_stdout = options.file == "-";
    let archive_path = ctx.resolve(&options.file);
    let mut archive_id = None;
    let mut sink = Sink::Stdout;
    if !to_stdout {
        let mode = 0o666 & !ctx.shell.umask();
        match ctx.fs.open(&archive_path, OpenOptions::write_truncate(mode)).await {
            Ok(handle) => {
                archive_id = handle.metadata().await.ok().map(|m| (m.dev, m.ino));
                sink = Sink::File(handle, 0);
            }
            Err(error) => {
                say(ctx, &format!("tar: {}: Cannot open: {error}\ntar: Error is not recoverable: exiting now\n", options.file)).await;
                return 2;
            }
        }
    }
    let base = match &options.directory {
        Some(dir) => ctx.resolve(dir),
        None => ctx.cwd.clone(),
    };
    if let Some(dir) = &options.directory {
        if !ctx.fs.metadata(&base).await.is_ok_and(|m| m.is_dir()) {
            let error = ctx.fs.metadata(&base).await.err().unwrap_or(crate::fs::FsError::NotADirectory);
            say(ctx, &format!("tar: {dir}: Cannot open: {error}\ntar: Error is not recoverable: exiting now\n")).await;
            return 2;
        }
    }
    let compress = options.gzip || (options.auto_compress && (options.file.ends_with(".tgz") || options.file.ends_with(".tar.gz")));
    let mut writer = Writer {
        options,
        base,
        archive: ArchiveOut::new(sink, compress),
        archive_id,
        links: HashMap::new(),
        failed: false,
        removed_prefixes: Vec::new(),
        verbose_to_stderr: to_stdout,
        width: 19,
        added: Vec::new(),
    };
    for operand in &options.operands {
        let trimmed = if operand.len() > 1 { operand.trim_end_matches('/') } else { operand.as_str() };
        let name = if options.absolute {
            trimmed.to_string()
        } else {
            let (prefix, rest) = strip_unsafe_prefix(trimmed);
            if !prefix.is_empty() && !writer.removed_prefixes.contains(&prefix) {
                say(ctx, &format!("tar: Removing leading `{prefix}' from member names\n")).await;
                writer.removed_prefixes.push(prefix);
            }
            if rest.is_empty() {
                ".".to_string()
            } else {
                rest.to_string()
            }
        };
        let path = crate::fs::path::join(&writer.base, trimmed);
        if let Err(code) = add_path(ctx, &mut writer, &path, &name, operand).await {
            return code;
        }
    }
    let finished = writer.archive.finish(ctx).await;
    if let Err(status) = write_status(ctx, options, finished).await {
        return status;
    }
    if options.remove_files && !writer.failed {
        for (path, is_dir) in writer.added.iter().rev() {
            let _ = if *is_dir { ctx.fs.remove_dir(path).await } else { ctx.fs.remove_file(path).await };
        }
    }
    if writer.failed {
        say(ctx, "tar: Exiting with failure status due to previous errors\n").await;
        return 2;
    }
    0
}

/// The status to stop with after a failed archive write (reported), if any.
async fn write_status(ctx: &Invocation<'_>, options: &TarOptions, result: Result<(), SinkError>) -> Result<(), i32> {
    match result {
        Ok(()) => Ok(()),
        Err(SinkError::Stdout(error)) => Err(write_failure_status(error)),
        Err(SinkError::File(error)) => {
            say(ctx, &format!("tar: {}: Cannot write: {error}\ntar: Error is not recoverable: exiting now\n", options.file)).await;
            Err(2)
        }
    }
}

/// Appends a file's contents (`size` bytes, as its header says) and the
/// padding after them, a chunk at a time. A file that shrank is padded with
/// zeros, as GNU tar does.
async fn add_contents(ctx: &Invocation<'_>, writer: &mut Writer<'_>, handle: &dyn crate::fs::FileHandle, size: u64, shown: &str) -> Result<(), i32> {
    let mut offset = 0u64;
    while offset < size {
        let want = usize::try_from(size - offset).unwrap_or(READ_CHUNK).min(READ_CHUNK);
        let chunk = handle.read_at(offset, want).await.unwrap_or_default();
        if chunk.is_empty() {
            say(ctx, &format!("tar: {shown}: File shrank by {} bytes; padding with zeros\n", size - offset)).await;
            writer.failed = true;
            break;
        }
        offset += chunk.len() as u64;
        writer.archive.push(&chunk);
        let flushed = writer.archive.flush(ctx, false).await;
        write_status(ctx, writer.options, flushed).await?;
    }
    let zeros = vec![0u8; usize::try_from(size - offset).unwrap_or(0).min(READ_CHUNK)];
    while offset < size {
        let take = usize::try_from(size - offset).unwrap_or(zeros.len()).min(zeros.len());
        writer.archive.push(zeros.get(..take).unwrap_or(&[]));
        offset += take as u64;
        let flushed = writer.archive.flush(ctx, false).await;
        write_status(ctx, writer.options, flushed).await?;
    }
    writer.archive.push(&vec![0u8; padding(size)]);
    Ok(())
}

/// Adds `path` as member `name` (and, for a directory, everything below).
/// `Err(status)` when standard output failed.
async fn add_path(ctx: &Invocation<'_>, writer: &mut Writer<'_>, path: &str, name: &str, shown: &str) -> Result<(), i32> {
    let member_name = name;
    if excluded(&writer.options.excludes, member_name) {
        return Ok(());
    }
    let metadata = if writer.options.dereference { ctx.fs.metadata(path).await } else { ctx.fs.symlink_metadata(path).await };
    let metadata = match metadata {
        Ok(metadata) => metadata,
        Err(error) => {
            say(ctx, &format!("tar: {shown}: Cannot stat: {error}\n")).await;
            writer.failed = true;
            return Ok(());
        }
    };
    if writer.archive_id == Some((metadata.dev, metadata.ino)) {
        say(ctx, &format!("tar: {shown}: file is the archive; not dumped\n")).await;
        return Ok(());
    }
    let mut entry = base_entry(member_name, &metadata);
    let mut contents = None;
    match metadata.file_type {
        FileType::Directory => {
            entry.kind = Kind::Directory;
            if !entry.name.ends_with('/') {
                entry.name.push('/');
            }
        }
        FileType::Symlink => match ctx.fs.read_link(path).await {
            Ok(target) => entry.kind = Kind::Symlink(target),
            Err(error) => {
                say(ctx, &format!("tar: {shown}: Cannot readlink: {error}\n")).await;
                writer.failed = true;
                return Ok(());
            }
        },
        FileType::CharDevice => entry.kind = Kind::CharDevice,
        FileType::Fifo => entry.kind = Kind::Fifo,
        FileType::File => {
            let key = (metadata.dev, metadata.ino);
            if let Some(first) = writer.links.get(&key).filter(|_| metadata.nlink > 1) {
                entry.kind = Kind::HardLink(first.clone());
            } else {
                match ctx.fs.open(path, OpenOptions::read_only()).await {
                    Ok(handle) => contents = Some(handle),
                    Err(error) => {
                        say(ctx, &format!("tar: {shown}: Cannot open: {error}\n")).await;
                        writer.failed = true;
                        return Ok(());
                    }
                }
                entry.size = metadata.size;
                if metadata.nlink > 1 {
                    writer.links.insert(key, member_name.to_string());
                }
            }
        }
    }
    let mut header = Vec::new();
    write_header(&mut header, &entry);
    writer.archive.push(&header);
    if let Some(handle) = contents {
        add_contents(ctx, writer, handle.as_ref(), entry.size, shown).await?;
    }
    let flushed = writer.archive.flush(ctx, false).await;
    write_status(ctx, writer.options, flushed).await?;
    writer.added.push((path.to_string(), metadata.is_dir()));
    if writer.options.verbose > 0 {
        let line = if writer.options.verbose > 1 {
            long_line(&entry, &mut writer.width, super::tar_list::local_offset(ctx), false)
        } else {
            format!("{}\n", entry.name)
        };
        if writer.verbose_to_stderr {
            say(ctx, &line).await;
        } else {
            ctx.write_out(line.as_bytes()).await.map_err(write_failure_status)?;
        }
    }
    if !metadata.is_dir() || writer.options.no_recursion {
        return Ok(());
    }
    let children = match ctx.fs.read_dir(path).await {
        Ok(children) => children,
        Err(error) => {
            say(ctx, &format!("tar: {shown}: Cannot open: {error}\n")).await;
            writer.failed = true;
            return Ok(());
        }
    };
    for child in children {
        let child_path = crate::fs::path::join(path, &child.name);
        let child_name = format!("{}/{}", member_name.trim_end_matches('/'), child.name);
        let child_shown = format!("{}/{}", shown.trim_end_matches('/'), child.name);
        Box::pin(add_path(ctx, writer, &child_path, &child_name, &child_shown)).await?;
    }
    Ok(())
}

fn base_entry(name: &str, metadata: &Metadata) -> Entry {
    Entry {
        name: name.to_string(),
        kind: Kind::File,
        mode: metadata.mode & 0o7777,
        uid: metadata.uid,
        gid: metadata.gid,
        uname: owner_name(metadata.uid),
        gname: owner_name(metadata.gid),
        mtime: (metadata.mtime / 1000.0).floor() as i64,
        size: 0,
    }
}
