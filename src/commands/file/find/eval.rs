//! Evaluating a `find` expression at one node: tests, and actions with
//! their side effects (output, deletion, running commands).

use super::parse::{Compare, Expr, PermMatch, Primary, Stamp};
use super::printf::render_printf;
use super::state::{Batch, Node, State};
use crate::commands::file::glob::{matches, matches_ignore_case};
use crate::commands::format::quote_locale;
use crate::fs::{FileType, Metadata};
use crate::host::LocalFuture;
use crate::utility::{Invocation, ProgramRequest, STATUS_SIGPIPE};

/// Flushes pending output; false when the pipe is closed.
pub async fn flush(ctx: &Invocation<'_>, state: &mut State) -> bool {
    if state.out.is_empty() {
        return true;
    }
    let text = std::mem::take(&mut state.out);
    if ctx.write_out(text.as_bytes()).await.is_err() {
        state.broken_pipe = true;
        state.quit = true;
        state.status = STATUS_SIGPIPE;
        return false;
    }
    true
}

fn type_letter(file_type: FileType) -> char {
    match file_type {
        FileType::File => 'f',
        FileType::Directory => 'd',
        FileType::Symlink => 'l',
        FileType::CharDevice => 'c',
        FileType::Fifo => 'p',
    }
}

fn stamp_time(metadata: &Metadata, stamp: Stamp) -> f64 {
    match stamp {
        Stamp::Access => metadata.atime,
        Stamp::Modify => metadata.mtime,
        Stamp::Change => metadata.ctime,
    }
}

/// Evaluates `expr` at `node`.
pub fn eval<'a>(ctx: &'a mut Invocation<'_>, expr: &'a Expr, node: &'a Node, state: &'a mut State) -> LocalFuture<'a, bool> {
    Box::pin(async move {
        match expr {
            Expr::Not(inner) => !eval(ctx, inner, node, state).await,
            Expr::And(left, right) => eval(ctx, left, node, state).await && !state.quit && eval(ctx, right, node, state).await,
            Expr::Or(left, right) => eval(ctx, left, node, state).await || (!state.quit && eval(ctx, right, node, state).await),
            Expr::Comma(left, right) => {
                eval(ctx, left, node, state).await;
                !state.quit && eval(ctx, right, node, state).await
            }
            Expr::Primary(primary) => primary_holds(ctx, primary, node, state).await,
        }
    })
}

async fn primary_holds(ctx: &mut Invocation<'_>, primary: &Primary, node: &Node, state: &mut State) -> bool {
    let m = &node.metadata;
    match primary {
        Primary::Constant(value) => *value,
        Primary::Name { pattern, fold, link } => {
            let subject = if *link {
                if !m.is_symlink() {
                    return false;
                }
                ctx.fs.read_link(&node.path).await.unwrap_or_default()
            } else {
                node.name().to_string()
            };
            if *fold {
                matches_ignore_case(pattern, &subject)
            } else {
                matches(pattern, &subject)
            }
        }
        Primary::Path { pattern, fold } => {
            if *fold {
                matches_ignore_case(pattern, &node.shown)
            } else {
                matches(pattern, &node.shown)
            }
        }
        Primary::Regex(regex) => regex.is_match(&node.shown),
        Primary::Type { letters, follow } => {
            let file_type = if *follow && m.is_symlink() {
                ctx.fs.metadata(&node.path).await.map(|t| t.file_type).unwrap_or(FileType::Symlink)
            } else if *follow {
                ctx.fs.symlink_metadata(&node.path).await.map(|t| t.file_type).unwrap_or(m.file_type)
            } else {
                m.file_type
            };
            letters.contains(type_letter(file_type))
        }
        Primary::Size { compare, unit } => {
            let units = if *unit == 1 { m.size } else { m.size.div_ceil(*unit) };
            compare.holds(units as f64)
        }
        Primary::Empty => match m.file_type {
            FileType::File => m.size == 0,
            FileType::Directory => ctx.fs.read_dir(&node.path).await.map(|e| e.is_empty()).unwrap_or(false),
            _ => false,
        },
        Primary::Newer { stamp, reference } => stamp_time(m, *stamp) > *reference,
        Primary::Age { stamp, compare, minutes } => {
            let elapsed = (state.now - stamp_time(m, *stamp)) / 1000.0;
            let value = if *minutes { (elapsed / 60.0).ceil() } else { (elapsed / 86_400.0).floor() };
            match compare {
                Compare::Equal(n) if *minutes => value == *n,
                other => other.holds(value),
            }
        }
        Primary::Perm(rule) => {
            let mode = m.mode & 0o7777;
            match rule {
                PermMatch::Exact(bits) => mode == *bits,
                PermMatch::All(bits) => mode & bits == *bits,
                PermMatch::Any(bits) => *bits == 0 || mode & bits != 0,
            }
        }
        Primary::Uid(uid) => m.uid == *uid,
        Primary::Gid(gid) => m.gid == *gid,
        Primary::NoOwner { group } => {
            if *group {
                state.accounts.groups.name(m.gid) == m.gid.to_string()
            } else {
                state.accounts.users.name(m.uid) == m.uid.to_string()
            }
        }
        Primary::Links(compare) => compare.holds(m.nlink as f64),
        Primary::Inode(compare) => compare.holds(m.ino as f64),
        Primary::Access(bit) => {
            let shift = if m.uid == crate::fs::layout::SANDBOX_UID {
                6
            } else if m.gid == crate::fs::layout::SANDBOX_GID {
                3
            } else {
                0
            };
            (m.mode >> shift) & bit != 0
        }
        Primary::Prune => {
            state.prune = true;
            true
        }
        Primary::Quit => {
            state.quit = true;
            true
        }
        Primary::Print(end) => {
            state.out.push_str(&node.shown);
            state.out.push(*end);
            true
        }
        Primary::Printf(format) => {
            let target = if m.is_symlink() { ctx.fs.read_link(&node.path).await.ok() } else { None };
            let followed = if m.is_symlink() { ctx.fs.metadata(&node.path).await.ok() } else { None };
            let text = render_printf(format, node, state, target.as_deref(), followed.as_ref());
            state.out.push_str(&text);
            true
        }
        Primary::List => {
            let line = super::printf::ls_line(node, state, ctx.fs.read_link(&node.path).await.ok().as_deref());
            state.out.push_str(&line);
            true
        }
        Primary::Delete => {
            if node.depth == 0 && (node.shown == "." || node.shown == "./") {
                return true;
            }
            let result = if m.is_dir() { ctx.fs.remove_dir(&node.path).await } else { ctx.fs.remove_file(&node.path).await };
            match result {
                Ok(()) => true,
                Err(error) => {
                    flush(ctx, state).await;
                    ctx.report(&format!("cannot delete {}: {error}", quote_locale(ctx, &node.shown))).await;
                    state.status = 1;
                    false
                }
            }
        }
        Primary::Exec { argv, batch, in_dir, id } => {
            if *batch {
                let entry = state.batches.entry(*id).or_insert_with(|| Batch { argv: argv.clone(), paths: Vec::new() });
                // `-execdir ... +` runs from the working directory with full paths.
                let _ = in_dir;
                entry.paths.push(node.shown.clone());
                if entry.paths.len() >= 4096 {
                    run_batch(ctx, state, *id).await;
                }
                return true;
            }
            let substitute = if *in_dir { format!("./{}", node.name()) } else { node.shown.clone() };
            let words: Vec<String> = argv.iter().map(|word| word.replace("{}", &substitute)).collect();
            if !flush(ctx, state).await {
                return false;
            }
            let directory = if *in_dir { Some(parent_of(&node.path)) } else { None };
            run_command(ctx, words, directory).await == 0
        }
    }
}

/// The directory holding an absolute path.
fn parent_of(path: &str) -> String {
    crate::commands::file::basename::dir_name(path).to_string()
}

/// Runs one command for `-exec`, in `directory` for `-execdir`.
async fn run_command(ctx: &mut Invocation<'_>, words: Vec<String>, directory: Option<String>) -> i32 {
    let program = words.first().cloned().unwrap_or_default();
    if !crate::commands::common::program_exists(ctx, &program).await {
        // GNU find cannot exec it: it says so itself, and the test is false.
        ctx.report(&format!("{}: No such file or directory", quote_locale(ctx, &program))).await;
        return 127;
    }
    let (stdin, stdout, stderr) = (ctx.stdin.clone(), ctx.stdout.clone(), ctx.stderr.clone());
    match directory {
        Some(directory) => {
            let mut request = ProgramRequest::new(words, stdin, stdout, stderr);
            // The directory as the program's getcwd() would name it.
            request.cwd = Some(crate::fs::path::normalize("/", &directory));
            ctx.shell.run_program(request).await
        }
        None => ctx.shell.run_program(ProgramRequest::new(words, stdin, stdout, stderr)).await,
    }
}

/// Runs the gathered `-exec ... {} +` command `id`, if any paths wait.
pub async fn run_batch(ctx: &mut Invocation<'_>, state: &mut State, id: usize) {
    let Some(batch) = state.batches.get_mut(&id) else { return };
    if batch.paths.is_empty() {
        return;
    }
    let mut words = batch.argv.clone();
    words.append(&mut batch.paths);
    if !flush(ctx, state).await {
        return;
    }
    if run_command(ctx, words, None).await != 0 {
        state.status = 1;
    }
}
