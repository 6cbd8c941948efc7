//! `unzip`: list, test or extract a zip archive, as Info-ZIP's `unzip` 6.0
//! does (`-l`, `-v`, `-t`, `-p`, `-o`, `-n`, `-q`, `-j`, `-d DIR`,
//! member patterns and `-x` exclusions).

use super::files::{create_dirs, parent_of, write_whole};
use super::gzip_format::{decompressed_limit, GzipError};
use super::pattern::wildcard_match;
use super::tar_list::local_offset;
use super::zip_format::{percent_saved, read_archive, Method, ZipEntry, ZipError};
use crate::calendar::civil;
use crate::host::LocalFuture;
use crate::utility::{write_failure_status, Invocation};

#[derive(Default)]
struct UnzipOptions {
    list: bool,
    verbose_list: bool,
    test: bool,
    pipe: bool,
    overwrite: Option<bool>,
    quiet: u32,
    junk_paths: bool,
    names_only: bool,
    directory: Option<String>,
    archive: Option<String>,
    members: Vec<String>,
    excludes: Vec<String>,
}

fn parse_args(args: &[String]) -> Result<UnzipOptions, char> {
    let mut options = UnzipOptions::default();
    let mut words = args.iter().peekable();
    while let Some(word) = words.next() {
        if word.len() < 2 || !word.starts_with('-') {
            if options.archive.is_none() {
                options.archive = Some(word.clone());
            } else {
                options.members.push(word.clone());
            }
            continue;
        }
        let letters: Vec<char> = word.chars().skip(1).collect();
        for (index, letter) in letters.iter().enumerate() {
            match letter {
                'l' => options.list = true,
                'v' => options.verbose_list = true,
                't' => options.test = true,
                'p' | 'c' => options.pipe = true,
                'o' => options.overwrite = Some(true),
                'n' => options.overwrite = Some(false),
                'q' => options.quiet += 1,
                'j' => options.junk_paths = true,
                'Z' => options.names_only = true,
                '1' if options.names_only => {}
                'a' | 'b' | 'X' | 'K' | 'D' | 'u' | 'f' | 'C' | 'L' => {}
                'd' => {
                    let rest: String = letters.get(index + 1..).unwrap_or(&[]).iter().collect();
                    options.directory = if rest.is_empty() { words.next().cloned() } else { Some(rest) };
                    break;
                }
                'x' => {
                    while let Some(pattern) = words.next_if(|w| !w.starts_with('-')) {
                        options.excludes.push(pattern.clone());
                    }
                }
                other => return Err(*other),
            }
        }
    }
    Ok(options)
}

fn date_time(mtime: i64, offset: i64) -> String {
    let when = civil::from_timestamp(mtime, 0, offset);
    format!("{:04}-{:02}-{:02} {:02}:{:02}", when.year, when.month, when.day, when.hour, when.minute)
}

fn files_word(count: usize) -> &'static str {
    if count == 1 {
        "file"
    } else {
        "files"
    }
}

async fn say(ctx: &Invocation<'_>, text: &str) {
    let _ = ctx.stderr.write(text.as_bytes()).await;
}

/// Runs `unzip`.
pub fn run<'a>(ctx: &'a mut Invocation<'_>) -> LocalFuture<'a, i32> {
    Box::pin(async move {
        let options = match parse_args(ctx.args.get(1..).unwrap_or(&[])) {
            Ok(options) => options,
            Err(letter) => {
                say(ctx, &format!("unzip:  invalid option -- '{letter}'\n")).await;
                return 10;
            }
        };
        let Some(archive) = options.archive.clone() else {
            say(ctx, "UnZip 6.00 of 20 April 2009, by Debian. Original by Info-ZIP.\n\nUsage: unzip [-Z] [-opts[modifiers]] file[.zip] [list] [-x xlist] [-d exdir]\n").await;
            return 0;
        };
        let mut data = None;
        for candidate in [archive.clone(), format!("{archive}.zip"), format!("{archive}.ZIP")] {
            if let Ok(bytes) = ctx.fs.read_file(&ctx.resolve(&candidate)).await {
                data = Some((candidate, bytes));
                break;
            }
        }
        let Some((archive, data)) = data else {
            say(ctx, &format!("unzip:  cannot find or open {archive}, {archive}.zip or {archive}.ZIP.\n")).await;
            return 9;
        };
        let offset = local_offset(ctx);
        let entries = match read_archive(&data, offset) {
            Ok(entries) => entries,
            Err(_) => {
                if options.quiet == 0 {
                    let _ = ctx.write_out(format!("Archive:  {archive}\n").as_bytes()).await;
                } else {
                    say(ctx, &format!("[{archive}]\n")).await;
                }
                say(ctx, &format!("  End-of-central-directory signature not found.  Either this file is not\n  a zipfile, or it constitutes one disk of a multi-part archive.  In the\n  latter case the central directory and zipfile comment will be found on\n  the last disk(s) of this archive.\nunzip:  cannot find zipfile directory in one of {archive} or\n        {archive}.zip, and cannot find {archive}.ZIP, period.\n")).await;
                return 9;
            }
        };
        let mut matched = vec![false; options.members.len()];
        let selected: Vec<&ZipEntry> = entries
            .iter()
            .filter(|entry| {
                if options.excludes.iter().any(|p| wildcard_match(p, &entry.name)) {
                    return false;
                }
                if options.members.is_empty() {
                    return true;
                }
                let mut any = false;
                for (pattern, seen) in options.members.iter().zip(matched.iter_mut()) {
                    if wildcard_match(pattern, &entry.name) {
                        *seen = true;
                        any = true;
                    }
                }
                any
            })
            .collect();
        let mut out = String::new();
        let mut status = 0;
        if options.names_only {
            for entry in &selected {
                out.push_str(&format!("{}\n", entry.name));
            }
        } else if options.verbose_list {
            list_verbose(&mut out, &archive, &selected, offset, options.quiet);
        } else if options.list {
            list_plain(&mut out, &archive, &selected, offset, options.quiet);
        } else if options.test {
            status = test(&mut out, &archive, &selected, options.quiet, decompressed_limit(ctx.fs.as_ref()));
        } else if options.pipe {
            let limit = decompressed_limit(ctx.fs.as_ref());
            for entry in &selected {
                match entry.data(limit) {
                    Ok(bytes) => {
                        if let Err(error) = ctx.write_out(&bytes).await {
                            return write_failure_status(error);
                        }
                    }
                    Err(ZipError::TooLarge(limit)) => {
                        say(ctx, &too_large(&entry.name, limit)).await;
                        status = 2;
                    }
                    Err(_) => status = 2,
                }
            }
        } else {
            match extract(ctx, &options, &archive, &selected).await {
                Ok(code) => status = code,
                Err(code) => return code,
            }
        }
        if let Err(error) = ctx.write_out(out.as_bytes()).await {
            return write_failure_status(error);
        }
        let mut missing = options.members.iter().zip(&matched).filter(|(_, seen)| !**seen).peekable();
        if missing.peek().is_some() {
            for (pattern, _) in missing {
                say(ctx, &format!("caution: filename not matched:  {pattern}\n")).await;
            }
            return 11;
        }
        status
    })
}

fn list_plain(out: &mut String, archive: &str, entries: &[&ZipEntry], offset: i64, quiet: u32) {
    if quiet < 2 {
        out.push_str(&format!("Archive:  {archive}\n  Length      Date    Time    Name\n---------  ---------- -----   ----\n"));
    }
    let mut total = 0;
    for entry in entries {
        total += entry.size;
        out.push_str(&format!("{:>9}  {}   {}\n", entry.size, date_time(entry.mtime, offset), entry.name));
    }
    if quiet < 2 {
        out.push_str(&format!(
            "---------                     -------\n{total:>9}                     {} {}\n",
            entries.len(),
            files_word(entries.len())
        ));
    }
}

fn list_verbose(out: &mut String, archive: &str, entries: &[&ZipEntry], offset: i64, quiet: u32) {
    if quiet < 2 {
        out.push_str(&format!("Archive:  {archive}\n Length   Method    Size  Cmpr    Date    Time   CRC-32   Name\n--------  ------  ------- ---- ---------- ----- --------  ----\n"));
    }
    let (mut size, mut stored) = (0, 0);
    for entry in entries {
        size += entry.size;
        stored += entry.raw.len() as u64;
        let method = match entry.method {
            Method::Stored => "Stored".to_string(),
            Method::Deflated => "Defl:N".to_string(),
            Method::Other(n) => format!("Unk:{n:03}"),
        };
        out.push_str(&format!(
            "{:>8}  {method:<6} {:>8} {:>3}% {} {:08x}  {}\n",
            entry.size,
            entry.raw.len(),
            entry.ratio(),
            date_time(entry.mtime, offset),
            entry.crc,
            entry.name
        ));
    }
    if quiet < 2 {
        out.push_str(&format!(
            "--------          -------  ---                            -------\n{size:>8}         {stored:>8} {:>3}%                            {} {}\n",
            percent_saved(size, stored),
            entries.len(),
            files_word(entries.len())
        ));
    }
}

/// The report of a member whose expanded data passes the sandbox's limit.
fn too_large(name: &str, limit: usize) -> String {
    format!("  error:  {name}: {}\n", GzipError::TooLarge(limit))
}

fn test(out: &mut String, archive: &str, entries: &[&ZipEntry], quiet: u32, limit: usize) -> i32 {
    if quiet == 0 {
        out.push_str(&format!("Archive:  {archive}\n"));
    }
    let mut bad = 0;
    for entry in entries {
        let verdict = match entry.data(limit) {
            Ok(_) => "OK",
            Err(ZipError::TooLarge(_)) => {
                bad += 1;
                "too large"
            }
            Err(_) => {
                bad += 1;
                "bad CRC"
            }
        };
        if quiet == 0 {
            out.push_str(&format!("    testing: {:<24} {verdict}\n", entry.name));
        }
    }
    if bad > 0 {
        out.push_str(&format!("At least one error was detected in {archive}.\n"));
        return 2;
    }
    if quiet < 2 {
        out.push_str(&format!("No errors detected in compressed data of {archive}.\n"));
    }
    0
}

/// Extracts the selected members. `Err(status)` when standard output failed.
async fn extract(ctx: &Invocation<'_>, options: &UnzipOptions, archive: &str, entries: &[&ZipEntry]) -> Result<i32, i32> {
    let quiet = options.quiet > 0;
    let write = |text: String| async move {
        if !quiet {
            ctx.write_out(text.as_bytes()).await.map_err(write_failure_status)?;
        }
        Ok::<(), i32>(())
    };
    write(format!("Archive:  {archive}\n")).await?;
    let umask = ctx.shell.umask();
    let limit = decompressed_limit(ctx.fs.as_ref());
    let base = match &options.directory {
        Some(dir) => {
            let path = ctx.resolve(dir);
            if !ctx.fs.exists(&path).await {
                if let Err(error) = ctx.fs.create_dir(&path, 0o777 & !umask).await {
                    say(ctx, &format!("checkdir:  cannot create extraction directory: {dir}\n           {error}\n")).await;
                    return Ok(2);
                }
            }
            (path, format!("{}/", dir.trim_end_matches('/')))
        }
        None => (ctx.cwd.clone(), String::new()),
    };
    let mut overwrite = options.overwrite;
    let mut status = 0;
    let mut directories = Vec::new();
    let mut links = Vec::new();
    for entry in entries {
        let relative = if options.junk_paths { entry.name.rsplit('/').next().unwrap_or("").to_string() } else { entry.name.clone() };
        let relative = relative.trim_start_matches('/').to_string();
        if relative.is_empty() || relative.split('/').any(|part| part == "..") {
            if !relative.is_empty() {
                say(ctx, &format!("warning:  skipped \"../\" path component(s) in {}\n", entry.name)).await;
            }
            continue;
        }
        let shown = format!("{}{relative}", base.1);
        let path = crate::fs::path::join(&base.0, relative.trim_end_matches('/'));
        if entry.is_dir() {
            if let Err(error) = create_dirs(ctx.fs.as_ref(), &path, umask).await {
                say(ctx, &format!("checkdir error:  cannot create {shown}\n                 {error}\n")).await;
                status = 1;
                continue;
            }
            write(format!("   creating: {shown}\n")).await?;
            directories.push((path, entry.unix_mode, entry.mtime));
            continue;
        }
        if ctx.fs.symlink_metadata(&path).await.is_ok() {
            match overwrite {
                Some(true) => {}
                Some(false) => continue,
                None => {
                    let answer = ctx.stdin.read_until(b'\n', 256).await.unwrap_or_default();
                    let answer = String::from_utf8_lossy(&answer).trim().to_string();
                    let prompt = format!("replace {shown}? [y]es, [n]o, [A]ll, [N]one, [r]ename: ");
                    match answer.as_str() {
                        "y" | "yes" => write(prompt).await?,
                        "A" => {
                            write(prompt).await?;
                            overwrite = Some(true);
                        }
                        "n" | "no" => {
                            write(prompt).await?;
                            continue;
                        }
                        "N" => {
                            write(prompt).await?;
                            overwrite = Some(false);
                            continue;
                        }
                        _ => {
                            write(format!("{prompt} NULL\n(EOF or read error, treating as \"[N]one\" ...)\n")).await?;
                            overwrite = Some(false);
                            status = 1;
                            continue;
                        }
                    }
                }
            }
            let _ = ctx.fs.remove_file(&path).await;
        }
        let data = match entry.data(limit) {
            Ok(data) => data,
            Err(ZipError::TooLarge(limit)) => {
                say(ctx, &too_large(&shown, limit)).await;
                status = 2;
                continue;
            }
            Err(_) => {
                say(ctx, &format!("  error:  invalid compressed data to inflate {shown}\n")).await;
                status = 2;
                continue;
            }
        };
        if let Err(error) = create_dirs(ctx.fs.as_ref(), parent_of(&path), umask).await {
            say(ctx, &format!("checkdir error:  cannot create {shown}\n                 {error}\n")).await;
            status = 1;
            continue;
        }
        if entry.is_symlink() {
            let target = String::from_utf8_lossy(&data).into_owned();
            write(format!("    linking: {shown:<23} -> {target} \n")).await?;
            links.push(format!("  {shown:<22} -> {target}\n"));
            if let Err(error) = ctx.fs.symlink(&target, &path).await {
                say(ctx, &format!("error:  cannot create {shown}\n        {error}\n")).await;
                status = 1;
            }
            continue;
        }
        let verb = if entry.method == Method::Deflated { "  inflating" } else { " extracting" };
        write(format!("{verb}: {shown:<23} \n")).await?;
        let mode = entry.unix_mode.map_or(0o644, |m| m & 0o7777);
        if let Err(error) = write_whole(ctx, &path, &data, mode).await {
            say(ctx, &format!("error:  cannot create {shown}\n        {error}\n")).await;
            status = 1;
            continue;
        }
        let _ = ctx.fs.set_mode(&path, mode & !umask).await;
        let millis = entry.mtime as f64 * 1000.0;
        let _ = ctx.fs.set_times(&path, Some(millis), Some(millis)).await;
    }
    if !links.is_empty() {
        write(format!("finishing deferred symbolic links:\n{}", links.concat())).await?;
    }
    for (path, mode, mtime) in directories.iter().rev() {
        if let Some(mode) = mode {
            let _ = ctx.fs.set_mode(path, mode & 0o7777 & !umask).await;
        }
        let millis = *mtime as f64 * 1000.0;
        let _ = ctx.fs.set_times(path, Some(millis), Some(millis)).await;
    }
    Ok(status)
}
