//! `find`: walk directory trees evaluating GNU find's expression language
//! (tests, operators, `-prune`, `-exec`/`-execdir`, `-delete`, `-printf`...).
//! Entries are visited in name order, so output is deterministic.

mod eval;
mod parse;
mod printf;
mod regex;
mod state;

use crate::commands::users::Accounts;
use crate::fs::path::join;
use crate::host::LocalFuture;
use crate::utility::Invocation;
use eval::{eval, flush, run_batch};
use state::{Node, State};
use parse::{Expr, ParseContext, Primary, WalkOptions};
use std::collections::BTreeMap;

/// Whether symlinks are followed (`-P` default, `-L`, `-H`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Follow {
    Never,
    Always,
    CommandLine,
}

/// Runs `find [-H|-L|-P] [PATH]... [EXPRESSION]`.
pub fn run<'a>(ctx: &'a mut Invocation<'_>) -> LocalFuture<'a, i32> {
    Box::pin(async move {
        let args: Vec<String> = ctx.args.get(1..).unwrap_or(&[]).to_vec();
        let mut index = 0;
        let mut follow = Follow::Never;
        while let Some(word) = args.get(index) {
            match word.as_str() {
                "-P" => follow = Follow::Never,
                "-L" => follow = Follow::Always,
                "-H" => follow = Follow::CommandLine,
                "-D" | "-O" => index += 1,
                w if w.starts_with("-O") => {}
                "--" => {
                    index += 1;
                    break;
                }
                _ => break,
            }
            index += 1;
        }
        let rest = args.get(index..).unwrap_or(&[]);
        let path_count = rest.iter().position(|w| w.starts_with('-') && w.len() > 1 || w == "(" || w == "!").unwrap_or(rest.len());
        let (paths, expression) = rest.split_at(path_count);
        let accounts = Accounts::load(ctx.fs.as_ref()).await;
        let mut references = BTreeMap::new();
        for pair in expression.windows(2) {
            if let [flag, file] = pair {
                if flag.starts_with("-newer") || matches!(flag.as_str(), "-anewer" | "-cnewer") {
                    if let Ok(metadata) = ctx.fs.metadata(&ctx.resolve(file)).await {
                        references.insert(file.clone(), (metadata.atime, metadata.mtime, metadata.ctime));
                    }
                }
            }
        }
        let lookup = |name: &str| references.get(name).map(|times| times.1);
        let stamp_lookup = |name: &str, which: char| {
            references.get(name).map(|(atime, mtime, ctime)| match which {
                'a' => *atime,
                'c' => *ctime,
                _ => *mtime,
            })
        };
        let now = ctx.host.now_millis();
        let zone = crate::calendar::parse_tz(ctx.env_var("TZ"));
        let date = |text: &str| crate::calendar::parse_date_millis(text, now, &zone);
        let utf8 = crate::commands::format::locale_is_utf8(ctx);
        let quote = |text: &str| if utf8 { format!("\u{2018}{text}\u{2019}") } else { format!("'{text}'") };
        let context = ParseContext {
            reference_times: &lookup,
            reference_stamp: &stamp_lookup,
            parse_date: &date,
            accounts: &accounts,
            quote: &quote,
        };
        let (expr, walk) = match parse::parse(expression, &context) {
            Ok(parsed) => parsed,
            Err(message) => {
                ctx.report(&without_false_hint(ctx, message).await).await;
                return 1;
            }
        };
        let expr = if walk.has_action {
            expr
        } else {
            let print = Expr::Primary(Primary::Print('\n'));
            Some(match expr {
                Some(e) => Expr::And(Box::new(e), Box::new(print)),
                None => print,
            })
        };
        let Some(expr) = expr else { return 0 };
        let mut state = State {
            out: String::new(),
            prune: false,
            quit: false,
            status: 0,
            batches: BTreeMap::new(),
            now: ctx.host.now_millis(),
            zone: crate::calendar::parse_tz(ctx.env_var("TZ")),
            accounts,
            broken_pipe: false,
        };
        let starts: Vec<String> = if paths.is_empty() { vec![".".to_string()] } else { paths.to_vec() };
        for start in &starts {
            if state.quit {
                break;
            }
            if start.is_empty() {
                ctx.report(&format!("{}: No such file or directory", crate::commands::format::quote_locale(ctx, ""))).await;
                state.status = 1;
                continue;
            }
            let path = ctx.resolve(start);
            let plan = Walk { expr: &expr, options: &walk, follow, start };
            walk_from(ctx, &plan, &mut state, path).await;
        }
        let ids: Vec<usize> = state.batches.keys().copied().collect();
        for id in ids {
            if !state.broken_pipe {
                run_batch(ctx, &mut state, id).await;
            }
        }
        flush(ctx, &mut state).await;
        state.status
    })
}

/// A directory being walked: its node (evaluated after its entries under
/// `-depth`) and the entries still to visit.
struct Frame {
    node: Node,
    entries: std::vec::IntoIter<crate::fs::DirEntry>,
}

/// The walk's fixed inputs.
struct Walk<'a> {
    expr: &'a Expr,
    options: &'a WalkOptions,
    follow: Follow,
    start: &'a str,
}

/// Drops the unquoted-pattern hint from a misplaced-path error when the
/// path does not exist (GNU only guesses at a glob that matched a file).
async fn without_false_hint(ctx: &Invocation<'_>, message: String) -> String {
    let Some((first, _)) = message.split_once(&format!("\n{}", parse::UNQUOTED_HINT)) else { return message };
    let word = first.strip_prefix("paths must precede expression: `").and_then(|w| w.strip_suffix('\'')).unwrap_or("");
    if ctx.fs.symlink_metadata(&ctx.resolve(word)).await.is_ok() {
        message
    } else {
        first.to_string()
    }
}

/// Walks one starting point depth first with an explicit stack, so deep
/// trees never grow the call stack.
async fn walk_from(ctx: &mut Invocation<'_>, walk: &Walk<'_>, state: &mut State, path: String) {
    let mut stack: Vec<Frame> = Vec::new();
    if let Some(frame) = enter(ctx, walk, state, walk.start.to_string(), path, 0, &stack).await {
        stack.push(frame);
    }
    while let Some(frame) = stack.last_mut() {
        if state.quit {
            break;
        }
        match frame.entries.next() {
            Some(entry) => {
                let shown = &frame.node.shown;
                let child_shown = if shown.ends_with('/') { format!("{shown}{}", entry.name) } else { format!("{shown}/{}", entry.name) };
                let child_path = join(&frame.node.path, &entry.name);
                let depth = frame.node.depth + 1;
                if let Some(child) = enter(ctx, walk, state, child_shown, child_path, depth, &stack).await {
                    stack.push(child);
                }
            }
            None => {
                let Some(done) = stack.pop() else { break };
                if walk.options.depth_first && done.node.depth >= walk.options.min_depth && !state.quit {
                    eval(ctx, walk.expr, &done.node, state).await;
                }
            }
        }
        if state.out.len() > 32 * 1024 {
            flush(ctx, state).await;
        }
    }
}

/// Visits one node: evaluates it (before its entries, or at once under
/// `-depth` when it has none to visit) and returns a frame when the walk
/// descends into it.
async fn enter(
    ctx: &mut Invocation<'_>,
    walk: &Walk<'_>,
    state: &mut State,
    shown: String,
    path: String,
    depth: usize,
    ancestors: &[Frame],
) -> Option<Frame> {
    let follows = walk.follow == Follow::Always || (walk.follow == Follow::CommandLine && depth == 0);
    let metadata = if follows {
        match ctx.fs.metadata(&path).await {
            Ok(metadata) => Ok(metadata),
            Err(_) => ctx.fs.symlink_metadata(&path).await,
        }
    } else {
        ctx.fs.symlink_metadata(&path).await
    };
    let metadata = match metadata {
        Ok(metadata) => metadata,
        Err(error) => {
            flush(ctx, state).await;
            ctx.report(&format!("{}: {error}", crate::commands::format::quote_locale(ctx, &shown))).await;
            state.status = 1;
            return None;
        }
    };
    let options = walk.options;
    let node = Node { shown, path, metadata, depth, start: walk.start.to_string() };
    state.prune = false;
    if !options.depth_first && depth >= options.min_depth {
        eval(ctx, walk.expr, &node, state).await;
    }
    let pruned = state.prune && !options.depth_first;
    let other_device = options.same_device && ancestors.first().is_some_and(|start| start.node.metadata.dev != node.metadata.dev);
    let may_descend = options.max_depth.is_none_or(|max| depth < max) && !other_device;
    let mut entries = None;
    if node.metadata.is_dir() && !pruned && may_descend && !state.quit {
        if ancestors.iter().any(|frame| (frame.node.metadata.dev, frame.node.metadata.ino) == (node.metadata.dev, node.metadata.ino)) {
            flush(ctx, state).await;
            let quoted = crate::commands::format::quote_locale(ctx, &node.shown);
            ctx.report(&format!("File system loop detected; {quoted} is part of the same file system loop.")).await;
            state.status = 1;
        } else {
            match ctx.fs.read_dir(&node.path).await {
                Ok(listing) => entries = Some(listing),
                Err(error) => {
                    flush(ctx, state).await;
                    ctx.report(&format!("{}: {error}", crate::commands::format::quote_locale(ctx, &node.shown))).await;
                    state.status = 1;
                }
            }
        }
    }
    match entries {
        Some(listing) => Some(Frame { node, entries: listing.into_iter() }),
        None => {
            if options.depth_first && depth >= options.min_depth && !state.quit {
                eval(ctx, walk.expr, &node, state).await;
            }
            None
        }
    }
}

#[cfg(test)]
mod tests;
