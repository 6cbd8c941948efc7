//! `patch`: apply a diff to files, as GNU patch 2.7 does when no terminal
//! answers its questions: unified, context and normal diffs, several files
//! per patch, creation and deletion of files, offsets and fuzz with GNU's
//! messages, `.rej` and `.orig` files, reversed-patch detection, `-p -R -i
//! -o -N -b -f -t -s -d -F -E --dry-run`, exit status 0, 1 or 2.
//!
//! - [`parse`]: reading the patch.
//! - [`hunk`]: hunks, reversal and rejects.
//! - [`apply`]: finding where hunks go and applying them.
//! - [`names`]: which file a section patches.

mod apply;
mod hunk;
mod names;
mod parse;

use crate::commands::options::{parse as parse_options, Long, Spec};
use crate::host::LocalFuture;
use crate::utility::Invocation;
use apply::Applier;
use hunk::{Format, Hunk};
use names::{choose_target, says_nonexistent, Target};
use parse::FilePatch;

const SPEC: Spec = Spec::new(
    "bd:EfF:i:No:p:Rstvz:",
    &[
        Long::flag("backup", "b"),
        Long::flag("batch", "t"),
        Long::required("directory", "d"),
        Long::flag("dry-run", "dry-run"),
        Long::flag("force", "f"),
        Long::flag("forward", "N"),
        Long::required("fuzz", "F"),
        Long::flag("help", "help"),
        Long::required("input", "i"),
        Long::required("output", "o"),
        Long::flag("quiet", "s"),
        Long::flag("remove-empty-files", "E"),
        Long::flag("reverse", "R"),
        Long::flag("silent", "s"),
        Long::required("strip", "p"),
        Long::required("suffix", "z"),
        Long::flag("version", "v"),
    ],
);

const USAGE: &str = "\
Usage: patch [OPTION]... [ORIGFILE [PATCHFILE]]

Input options:

  -p NUM  --strip=NUM  Strip NUM leading components from file names.
  -F LINES  --fuzz LINES  Set the fuzz factor to LINES for inexact matching.

  -N  --forward  Ignore patches that appear to be reversed or already applied.
  -R  --reverse  Assume patches were created with old and new files swapped.

  -i PATCHFILE  --input=PATCHFILE  Read patch from PATCHFILE instead of stdin.

Output options:

  -o FILE  --output=FILE  Output patched files to FILE.
  -E  --remove-empty-files  Remove output files that are empty after patching.

Backup and version control options:

  -b  --backup  Back up the original contents of each file.
  -z SUFFIX  --suffix=SUFFIX  Append SUFFIX to backup file names.

Miscellaneous options:

  -t  --batch  Ask no questions; skip bad-Prereq patches; assume reversed.
  -f  --force  Like -t, but ignore bad-Prereq patches, and assume unreversed.
  -s  --quiet  --silent  Work silently unless an error occurs.
  --dry-run  Do not actually change any files; just print what would happen.

  -d DIR  --directory=DIR  Change the working directory to DIR first.

  -v  --version  Output version info.
  --help  Output this help.
";

/// The command line, checked.
struct Settings {
    strip: Option<usize>,
    reverse: bool,
    input: Option<String>,
    output: Option<String>,
    forward: bool,
    dry_run: bool,
    backup: bool,
    force: bool,
    batch: bool,
    silent: bool,
    remove_empty: bool,
    directory: Option<String>,
    max_fuzz: usize,
    suffix: String,
    target: Option<String>,
}

/// One run: the invocation, the settings, and standard output pending.
struct Run<'c, 'i> {
    ctx: &'c Invocation<'i>,
    settings: Settings,
    out: Vec<u8>,
    /// Where relative names are resolved (`-d`).
    base: String,
}

impl Run<'_, '_> {
    fn say(&mut self, text: &str) {
        self.out.extend_from_slice(text.as_bytes());
    }

    /// Says `text` unless `-s`.
    fn note(&mut self, text: &str) {
        if !self.settings.silent {
            self.say(text);
        }
    }

    fn path(&self, name: &str) -> String {
        crate::fs::path::join(&self.base, name)
    }

    async fn flush(&mut self) -> Result<(), i32> {
        if self.out.is_empty() {
            return Ok(());
        }
        let result = match self.ctx.write_out(&self.out).await {
            Ok(()) => Ok(()),
            Err(error) => Err(self.ctx.write_failed_with(error, |error| format!("write error: {error}"), 2).await),
        };
        self.out.clear();
        result
    }

    /// Prints `patch: **** message` after the pending output; status 2.
    async fn fatal(&mut self, message: &str) -> i32 {
        if let Err(status) = self.flush().await {
            return status;
        }
        self.ctx.report(&format!("**** {message}")).await;
        2
    }
}

/// The command line's verdict.
enum Command {
    Patch(Box<Settings>),
    Exit(String, bool, i32),
}

fn parse_command(args: &[String]) -> Command {
    let usage = |message: String| Command::Exit(format!("patch: {message}\npatch: Try 'patch --help' for more information.\n"), false, 2);
    let fatal = |message: String| Command::Exit(format!("patch: **** {message}\n"), false, 2);
    let parsed = match parse_options(&SPEC, args) {
        Ok(parsed) => parsed,
        Err(error) => return usage(error.message()),
    };
    let mut settings = Settings {
        strip: None,
        reverse: false,
        input: None,
        output: None,
        forward: false,
        dry_run: false,
        backup: false,
        force: false,
        batch: false,
        silent: false,
        remove_empty: false,
        directory: None,
        max_fuzz: 2,
        suffix: ".orig".to_string(),
        target: None,
    };
    for (key, value) in &parsed.options {
        let text = value.clone().unwrap_or_default();
        match *key {
            "help" => return Command::Exit(USAGE.to_string(), true, 0),
            "v" => return Command::Exit("GNU patch 2.7.6\n".to_string(), true, 0),
            "p" => match text.parse::<usize>() {
                Ok(count) => settings.strip = Some(count),
                Err(_) => return fatal(format!("strip count {text} is not a number")),
            },
            "F" => match text.parse::<usize>() {
                Ok(count) => settings.max_fuzz = count,
                Err(_) => return fatal(format!("fuzz factor {text} is not a number")),
            },
            "R" => settings.reverse = true,
            "i" => settings.input = Some(text),
            "o" => settings.output = Some(text),
            "N" => settings.forward = true,
            "dry-run" => settings.dry_run = true,
            "b" => settings.backup = true,
            "f" => settings.force = true,
            "t" => settings.batch = true,
            "s" => settings.silent = true,
            "E" => settings.remove_empty = true,
            "d" => settings.directory = Some(text),
            "z" => settings.suffix = text,
            _ => {}
        }
    }
    let mut operands = parsed.operands.into_iter();
    settings.target = operands.next();
    if let Some(patch_file) = operands.next() {
        settings.input = Some(patch_file);
    }
    if let Some(extra) = operands.next() {
        return usage(format!("{extra}: extra operand"));
    }
    Command::Patch(Box::new(settings))
}

/// Runs `patch`.
pub fn run<'a>(ctx: &'a mut Invocation<'_>) -> LocalFuture<'a, i32> {
    Box::pin(async move {
        let args = ctx.args.get(1..).unwrap_or(&[]).to_vec();
        let settings = match parse_command(&args) {
            Command::Patch(settings) => *settings,
            Command::Exit(text, to_stdout, status) => {
                let stream = if to_stdout { &ctx.stdout } else { &ctx.stderr };
                let _ = stream.write(text.as_bytes()).await;
                return status;
            }
        };
        let base = ctx.cwd.clone();
        let mut run = Run { ctx, settings, out: Vec::new(), base };
        let status = patch(&mut run).await;
        match run.flush().await {
            Ok(()) => status,
            Err(failure) => failure,
        }
    })
}

async fn patch(run: &mut Run<'_, '_>) -> i32 {
    let text = match run.settings.input.clone() {
        Some(name) if name != "-" => {
            let input = crate::commands::common::Input::File(name.clone());
            let opened = crate::commands::common::open_input(run.ctx, &input).await;
            let read = match opened {
                Ok(stream) => stream.read_to_end().await.map_err(|_| crate::fs::FsError::Io),
                Err(error) => Err(error),
            };
            match read {
                Ok(bytes) => bytes,
                Err(error) => return run.fatal(&format!("Can't open patch file {name} : {error}")).await,
            }
        }
        _ => match run.ctx.stdin.read_to_end().await {
            Ok(bytes) => bytes,
            Err(_) => return run.fatal("read error on standard input").await,
        },
    };
    if let Some(directory) = run.settings.directory.clone() {
        let path = run.ctx.resolve(&directory);
        match run.ctx.fs.metadata(&path).await {
            Ok(meta) if meta.is_dir() => run.base = path,
            Ok(_) => return run.fatal(&format!("Can't change to directory {directory} : Not a directory")).await,
            Err(error) => return run.fatal(&format!("Can't change to directory {directory} : {error}")).await,
        }
    }
    let files = parse::parse(&text);
    if files.is_empty() {
        if text.iter().all(u8::is_ascii_whitespace) {
            return 0;
        }
        return run.fatal("Only garbage was found in the patch input.").await;
    }
    let mut status = 0;
    for file in &files {
        match patch_file(run, file).await {
            Ok(result) => status = status.max(result),
            Err(failure) => return failure,
        }
        if let Err(failure) = run.flush().await {
            return failure;
        }
    }
    status
}

/// `s` unless `count` is one.
fn plural(count: usize) -> &'static str {
    if count == 1 {
        ""
    } else {
        "s"
    }
}

/// Patches the file one section names; `Err(status)` stops the run.
async fn patch_file(run: &mut Run<'_, '_>, file: &FilePatch) -> Result<i32, i32> {
    let reverse = run.settings.reverse;
    let mut hunks: Vec<Hunk> = if reverse { file.hunks.iter().map(Hunk::reversed).collect() } else { file.hunks.clone() };
    let total = file.hunks.len();
    let target = choose_target(run, file, reverse).await;
    let name = match target {
        Target::Found(name) | Target::Create(name) => name,
        Target::Missing => {
            let printed = if run.settings.silent { "" } else { "can't find file to patch at input line " };
            if !run.settings.silent {
                let hint = if run.settings.strip.is_some() { "used the wrong" } else { "should have used the" };
                run.say(&format!("{printed}{}\nPerhaps you {hint} -p or --strip option?\n", file.first_hunk_line));
            }
            run.say("The text leading up to this was:\n--------------------------\n");
            for line in &file.leading {
                run.say("|");
                run.out.extend_from_slice(line);
                if line.last() != Some(&b'\n') {
                    run.say("\n");
                }
            }
            run.say("--------------------------\n");
            if run.settings.force || run.settings.batch {
                run.say("No file to patch.  Skipping patch.\n");
            } else {
                run.say("File to patch: \nSkip this patch? [y] \n");
                run.note("Skipping patch.\n");
            }
            run.say(&format!("{total} out of {total} hunk{} ignored\n", plural(total)));
            if let Some(error) = &file.error {
                return Err(run.fatal(error).await);
            }
            return Ok(1);
        }
    };
    let path = run.path(&name);
    let existing = run.ctx.fs.read_file(&path).await.ok();
    let creating = says_nonexistent(file, reverse, 0);
    if creating && existing.as_ref().is_some_and(|bytes| !bytes.is_empty()) && !run.settings.force {
        run.say(&format!("The next patch would create the file {name},\nwhich already exists!"));
        if run.settings.forward {
            run.say("  Skipping patch.\n");
        } else if run.settings.batch {
            run.say("  Assuming -R.\n");
        } else {
            run.say("  Assume -R? [n] \nApply anyway? [n] \n");
            run.note("Skipping patch.\n");
        }
        run.say(&format!("{total} out of {total} hunk{} ignored\n", plural(total)));
        return Ok(1);
    }
    let output_name = run.settings.output.clone();
    let verb = if run.settings.dry_run { "checking" } else { "patching" };
    let shown = quote_name(output_name.as_deref().unwrap_or(&name));
    let mut header = format!("{verb} file {shown}");
    if output_name.is_some() {
        header.push_str(&format!(" (read from {})", quote_name(&name)));
    }
    header.push('\n');
    let error_first = file.format == Format::Context && file.hunks.is_empty() && file.error.is_some();
    if !error_first {
        run.note(&header);
    }
    let original = existing.clone().unwrap_or_default();
    let mut applier = Applier::new(&original);
    let mut rejects: Vec<(Hunk, isize)> = Vec::new();
    let mut skip_rest = false;
    let mut mismatch = false;
    let mut reversed_now = reverse;
    let mut apply_anyway = false;
    for number in 1..=hunks.len() {
        let Some(mut hunk) = hunks.get(number - 1).cloned() else { break };
        if !skip_rest {
            let mut found;
            let max_fuzz = run.settings.max_fuzz.min(hunk.prefix_context().max(hunk.suffix_context()));
            let mut fuzz = 0;
            loop {
                found = applier.locate(&hunk, fuzz);
                if number == 1 && found.is_none() && !(run.settings.force || apply_anyway) && reversed_now == reverse {
                    let swapped = hunk.reversed();
                    let where_reversed = applier.locate(&swapped, fuzz);
                    if where_reversed.is_some() {
                        let label = if reverse { "Unreversed" } else { "Reversed (or previously applied)" };
                        run.say(&format!("{label} patch detected!"));
                        if run.settings.forward {
                            run.say("  Skipping patch.\n");
                            skip_rest = true;
                        } else if run.settings.batch {
                            run.say(if reverse { "  Ignoring -R.\n" } else { "  Assuming -R.\n" });
                            reversed_now = !reversed_now;
                            hunks = hunks.iter().map(Hunk::reversed).collect();
                            hunk = swapped;
                            found = where_reversed;
                        } else {
                            run.say(if reverse { "  Ignore -R? [n] \n" } else { "  Assume -R? [n] \n" });
                            run.say("Apply anyway? [n] \n");
                            run.note("Skipping patch.\n");
                            skip_rest = true;
                        }
                        apply_anyway = true;
                    }
                }
                if skip_rest || found.is_some() || fuzz >= max_fuzz {
                    break;
                }
                fuzz += 1;
            }
            if let Some(at) = found {
                if fuzz > 0 || applier.in_offset != 0 {
                    mismatch = true;
                }
                let shown_at = at as isize + applier.out_offset;
                applier.apply(&hunk, at);
                if fuzz > 0 || applier.in_offset != 0 {
                    let mut line = format!("Hunk #{number} succeeded at {shown_at}");
                    if fuzz > 0 {
                        line.push_str(&format!(" with fuzz {fuzz}"));
                    }
                    if applier.in_offset != 0 {
                        let offset = applier.in_offset;
                        line.push_str(&format!(" (offset {offset} line{})", if offset == 1 { "" } else { "s" }));
                    }
                    line.push_str(".\n");
                    run.note(&line);
                }
                continue;
            }
        }
        let original_hunk = file.hunks.get(number - 1).cloned().unwrap_or_else(|| hunk.clone());
        let stated = if reversed_now { original_hunk.new_first } else { original_hunk.old_first };
        if !skip_rest {
            run.note(&format!("Hunk #{number} FAILED at {}.\n", stated as isize + applier.out_offset));
        }
        rejects.push((if reversed_now != reverse { hunk.clone() } else { original_hunk.clone() }, applier.out_offset));
        let _ = &original_hunk;
    }
    if let Some(error) = &file.error {
        return Err(run.fatal(error).await);
    }
    let failed = rejects.len();
    let result = applier.finish();
    let mut status = 0;
    let write_name = output_name.clone().unwrap_or_else(|| name.clone());
    if failed > 0 {
        status = 1;
        let word = if skip_rest { "ignored" } else { "FAILED" };
        let mut line = format!("{failed} out of {total} hunk{} {word}", plural(total));
        let reject_name = format!("{write_name}.rej");
        if run.settings.dry_run {
            line.push('\n');
        } else {
            line.push_str(&format!(" -- saving rejects to file {}\n", quote_name(&reject_name)));
        }
        run.say(&line);
        if !run.settings.dry_run {
            let text = reject_text(file, &rejects, reversed_now);
            write_file(run, &reject_name, &text).await?;
        }
    }
    if run.settings.dry_run || skip_rest {
        return Ok(status);
    }
    if output_name.is_none() && existing.is_some() && (run.settings.backup || mismatch || failed > 0) {
        let backup = format!("{name}{}", run.settings.suffix);
        write_file(run, &backup, &original).await?;
    }
    let deleting = says_nonexistent(file, reversed_now, 1);
    if result.is_empty() && output_name.is_none() && (run.settings.remove_empty || deleting) {
        let _ = run.ctx.fs.remove_file(&path).await;
        return Ok(status);
    }
    write_file(run, &write_name, &result).await?;
    Ok(status)
}

/// The text of a `.rej` file: the section's header lines, then each hunk.
fn reject_text(file: &FilePatch, rejects: &[(Hunk, isize)], reversed: bool) -> Vec<u8> {
    let mut text = Vec::new();
    if let Some(index) = &file.names[2] {
        text.extend_from_slice(format!("Index: {index}\n").as_bytes());
    }
    let marks: [&str; 2] = match file.format {
        Format::Unified => ["---", "+++"],
        _ => ["***", "---"],
    };
    let sides = if reversed { [1, 0] } else { [0, 1] };
    for (mark, side) in marks.iter().zip(sides) {
        let name = file.names[side].as_deref().unwrap_or("/dev/null");
        text.extend_from_slice(format!("{mark} {name}{}\n", file.times[side]).as_bytes());
    }
    for (hunk, offset) in rejects {
        hunk.write_reject(&mut text, file.format, *offset);
    }
    text
}

/// Writes `data` to `name` (parents made as needed); `Err` after a fatal message.
async fn write_file(run: &mut Run<'_, '_>, name: &str, data: &[u8]) -> Result<(), i32> {
    let path = run.path(name);
    let mut parents = Vec::new();
    let mut dir = path.as_str();
    while let Some(end) = dir.rfind('/').filter(|&end| end > 0) {
        dir = dir.get(..end).unwrap_or("");
        if run.ctx.fs.exists(dir).await {
            break;
        }
        parents.push(dir.to_string());
    }
    for dir in parents.iter().rev() {
        let _ = run.ctx.fs.create_dir(dir, 0o755 & !run.ctx.shell.umask()).await;
    }
    match run.ctx.fs.write_file(&path, data).await {
        Ok(()) => Ok(()),
        Err(error) => Err(run.fatal(&format!("Can't create file {name} : {error}")).await),
    }
}

/// A file name as patch shows it: in single quotes when the shell would
/// need them.
fn quote_name(name: &str) -> String {
    let plain = !name.is_empty() && name.bytes().all(|b| b.is_ascii_alphanumeric() || b"/._-+,:@%^".contains(&b) || b >= 0x80);
    if plain {
        name.to_string()
    } else {
        format!("'{}'", name.replace('\'', "'\\''"))
    }
}
