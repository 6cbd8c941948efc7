//! `zip`: create or update a zip archive, as Info-ZIP's `zip` 3.0 does
//! (`-r` recursion, `-q`, `-j` junk paths, `-y` store symlinks, `-0`..`-9`,
//! `-d` delete members, `-x` exclusion patterns; `-` reads standard input).

use super::files::write_whole;
use super::pattern::wildcard_match;
use super::tar_list::local_offset;
use super::zip_format::{read_archive, write_archive, Method, ZipEntry};
use crate::fs::FileType;
use crate::host::LocalFuture;
use crate::utility::{write_failure_status, Invocation};

/// The parsed command line.
#[derive(Default)]
struct ZipOptions {
    recurse: bool,
    quiet: bool,
    junk_paths: bool,
    symlinks: bool,
    delete: bool,
    level: u32,
    excludes: Vec<String>,
    archive: Option<String>,
    files: Vec<String>,
}

fn parse_args(args: &[String]) -> Result<ZipOptions, String> {
    let mut options = ZipOptions { level: 6, ..Default::default() };
    let mut words = args.iter().peekable();
    let mut only_operands = false;
    while let Some(word) = words.next() {
        if only_operands || word == "-" || !word.starts_with('-') {
            if options.archive.is_none() {
                options.archive = Some(word.clone());
            } else {
                options.files.push(word.clone());
            }
            continue;
        }
        match word.as_str() {
            "--" => only_operands = true,
            "--recurse-paths" => options.recurse = true,
            "--quiet" => options.quiet = true,
            "--junk-paths" => options.junk_paths = true,
            "--symlinks" => options.symlinks = true,
            "--delete" => options.delete = true,
            "--exclude" | "-x" => {
                while let Some(pattern) = words.next_if(|w| !w.starts_with('-')) {
                    options.excludes.push(pattern.clone());
                }
            }
            long if long.starts_with("--") => return Err(format!("invalid option: {long}")),
            cluster => {
                for letter in cluster.chars().skip(1) {
                    match letter {
                        'r' | 'R' => options.recurse = true,
                        'q' => options.quiet = true,
                        'j' => options.junk_paths = true,
                        'y' => options.symlinks = true,
                        'd' => options.delete = true,
                        'x' => {
                            while let Some(pattern) = words.next_if(|w| !w.starts_with('-')) {
                                options.excludes.push(pattern.clone());
                            }
                        }
                        digit @ '0'..='9' => options.level = digit.to_digit(10).unwrap_or(6),
                        'v' | 'T' | 'X' | 'D' => {}
                        other => return Err(format!("Invalid command arguments (no such option: {other})")),
                    }
                }
            }
        }
    }
    Ok(options)
}

/// Writes a message as Info-ZIP does: to standard output, or to standard
/// error when the archive itself goes to standard output.
async fn say(ctx: &Invocation<'_>, archive_on_stdout: bool, text: &str) {
    let stream = if archive_on_stdout { &ctx.stderr } else { &ctx.stdout };
    let _ = stream.write(text.as_bytes()).await;
}

/// Runs `zip`.
pub fn run<'a>(ctx: &'a mut Invocation<'_>) -> LocalFuture<'a, i32> {
    Box::pin(async move {
        let options = match parse_args(ctx.args.get(1..).unwrap_or(&[])) {
            Ok(options) => options,
            Err(message) => {
                say(ctx, false, &format!("\nzip error: {message}\n")).await;
                return 16;
            }
        };
        let Some(mut archive) = options.archive.clone() else {
            say(ctx, false, "\nzip error: Invalid command arguments (nothing to select from)\n").await;
            return 16;
        };
        if !archive.rsplit('/').next().unwrap_or("").contains('.') && archive != "-" {
            archive.push_str(".zip");
        }
        let on_stdout = archive == "-";
        let offset = local_offset(ctx);
        let path = ctx.resolve(&archive);
        let mut entries = match ctx.fs.read_file(&path).await {
            Ok(data) => match read_archive(&data, offset) {
                Ok(entries) => entries,
                Err(_) => {
                    say(ctx, on_stdout, &format!("\tzip warning: missing end signature--probably not a zip file (did you\n\tzip warning: remember to use binary mode when you transferred it?)\n\tzip warning: (if you are trying to read a damaged archive try -F)\n\nzip error: Zip file structure invalid ({archive})\n")).await;
                    return 3;
                }
            },
            Err(_) => Vec::new(),
        };
        let mut log = String::new();
        if options.delete {
            let before = entries.len();
            entries.retain(|entry| {
                let hit = options.files.iter().any(|pattern| wildcard_match(pattern, &entry.name));
                if hit {
                    log.push_str(&format!("deleting: {}\n", entry.name));
                }
                !hit
            });
            if entries.len() == before {
                say(ctx, on_stdout, &format!("\nzip error: Nothing to do! ({archive})\n")).await;
                return 12;
            }
        } else {
            let mut added = Vec::new();
            for file in &options.files {
                if file == "-" {
                    let data = ctx.stdin.read_to_end().await.unwrap_or_default();
                    let now = (ctx.host.now_millis() / 1000.0).floor() as i64;
                    added.push(ZipEntry::new("-".into(), &data, options.level, now, 0o100600));
                    continue;
                }
                if !collect(ctx, &options, &ctx.resolve(file), file, &mut added).await && !options.quiet {
                    say(ctx, on_stdout, &format!("\tzip warning: name not matched: {file}\n")).await;
                }
            }
            if added.is_empty() {
                say(ctx, on_stdout, &format!("\nzip error: Nothing to do! ({archive})\n")).await;
                return 12;
            }
            for entry in added {
                let verb = match entries.iter().position(|e| e.name == entry.name) {
                    Some(index) => {
                        entries.remove(index);
                        "updating"
                    }
                    None => "  adding",
                };
                let how = if entry.method == Method::Deflated { "deflated" } else { "stored" };
                log.push_str(&format!("{verb}: {} ({how} {}%)\n", entry.name, entry.ratio()));
                entries.push(entry);
            }
        }
        if !options.quiet {
            if let Err(error) = ctx.write_out(log.as_bytes()).await {
                return write_failure_status(error);
            }
        }
        if let Err(error) = write_whole(ctx, &path, &write_archive(&entries, offset), 0o644).await {
            say(ctx, on_stdout, &format!("\nzip error: Could not create output file ({archive}): {error}\n")).await;
            return 15;
        }
        0
    })
}

/// Adds `path` (named `name` on the command line) and, with `-r`, what is
/// below it. False when it does not exist.
async fn collect(ctx: &Invocation<'_>, options: &ZipOptions, path: &str, name: &str, out: &mut Vec<ZipEntry>) -> bool {
    let metadata = if options.symlinks { ctx.fs.symlink_metadata(path).await } else { ctx.fs.metadata(path).await };
    let Ok(metadata) = metadata else {
        return false;
    };
    let trimmed = name.trim_start_matches("./").trim_start_matches('/');
    let member = if options.junk_paths { trimmed.rsplit('/').next().unwrap_or(trimmed).to_string() } else { trimmed.to_string() };
    if options.excludes.iter().any(|pattern| wildcard_match(pattern, &member)) {
        return true;
    }
    let mtime = (metadata.mtime / 1000.0).floor() as i64;
    match metadata.file_type {
        FileType::Directory => {
            if !options.junk_paths {
                let dir_name = format!("{}/", member.trim_end_matches('/'));
                if dir_name != "/" && dir_name != "./" {
                    out.push(ZipEntry::new(dir_name, b"", 0, mtime, 0o40000 | metadata.mode));
                }
            }
            if options.recurse {
                for child in ctx.fs.read_dir(path).await.unwrap_or_default() {
                    let child_name = format!("{}/{}", name.trim_end_matches('/'), child.name);
                    let child_path = crate::fs::path::join(path, &child.name);
                    Box::pin(collect(ctx, options, &child_path, &child_name, out)).await;
                }
            }
        }
        FileType::Symlink => {
            let target = ctx.fs.read_link(path).await.unwrap_or_default();
            out.push(ZipEntry::new(member, target.as_bytes(), 0, mtime, 0o120000 | 0o777));
        }
        _ => {
            let data = ctx.fs.read_file(path).await.unwrap_or_default();
            out.push(ZipEntry::new(member, &data, options.level, mtime, 0o100000 | metadata.mode));
        }
    }
    true
}
