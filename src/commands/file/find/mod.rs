//! `find`: walk directory trees evaluating GNU find's expression language
//! (tests, operators, `-prune`, `-exec`/`-execdir`, `-delete`, `-printf`...).
//! Entries are visited in name order, so output is deterministic.

mod eval;
mod parse;
mod printf;
mod regex;

use crate::commands::timefmt::Zone;
use crate::commands::users::Accounts;
use crate::fs::path::join;
use crate::host::LocalFuture;
use crate::interp::Invocation;
use eval::{eval, flush, run_batch, Node, State};
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
        let zone = Zone::from_tz(ctx.env_var("TZ"));
        let date = |text: &str| crate::commands::datestr::parse_date(text, now, &zone);
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
                ctx.report(&message).await;
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
            zone: Zone::from_tz(ctx.env_var("TZ")),
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
            let mut ancestors = Vec::new();
            visit(ctx, &expr, &walk, follow, &mut state, start, path, 0, start, &mut ancestors).await;
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

/// Visits one node and (unless pruned or too deep) what lies below it.
#[allow(clippy::too_many_arguments)]
fn visit<'a>(
    ctx: &'a mut Invocation<'_>,
    expr: &'a Expr,
    walk: &'a WalkOptions,
    follow: Follow,
    state: &'a mut State,
    shown: &'a str,
    path: String,
    depth: usize,
    start: &'a str,
    ancestors: &'a mut Vec<u64>,
) -> LocalFuture<'a, ()> {
    Box::pin(async move {
        let follows = follow == Follow::Always || (follow == Follow::CommandLine && depth == 0);
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
                ctx.report(&format!("{}: {error}", crate::commands::format::quote_locale(ctx, shown))).await;
                state.status = 1;
                return;
            }
        };
        let is_dir = metadata.is_dir();
        let ino = metadata.ino;
        let node = Node { shown: shown.to_string(), path: path.clone(), metadata, depth, start: start.to_string() };
        state.prune = false;
        if !walk.depth_first && depth >= walk.min_depth {
            eval(ctx, expr, &node, state).await;
        }
        let pruned = state.prune && !walk.depth_first;
        let may_descend = walk.max_depth.is_none_or(|max| depth < max);
        if is_dir && !pruned && may_descend && !state.quit {
            if ancestors.contains(&ino) {
                flush(ctx, state).await;
                ctx.report(&format!(
                    "File system loop detected; {} is part of the same file system loop.",
                    crate::commands::format::quote_locale(ctx, shown)
                ))
                .await;
                state.status = 1;
            } else {
                match ctx.fs.read_dir(&path).await {
                    Ok(entries) => {
                        ancestors.push(ino);
                        for entry in entries {
                            if state.quit {
                                break;
                            }
                            let child_shown =
                                if shown.ends_with('/') { format!("{shown}{}", entry.name) } else { format!("{shown}/{}", entry.name) };
                            let child_path = join(&path, &entry.name);
                            visit(ctx, expr, walk, follow, state, &child_shown, child_path, depth + 1, start, ancestors).await;
                        }
                        ancestors.pop();
                    }
                    Err(error) => {
                        flush(ctx, state).await;
                        ctx.report(&format!("{}: {error}", crate::commands::format::quote_locale(ctx, shown))).await;
                        state.status = 1;
                    }
                }
            }
        }
        if walk.depth_first && depth >= walk.min_depth && !state.quit {
            eval(ctx, expr, &node, state).await;
        }
        if state.out.len() > 32 * 1024 {
            flush(ctx, state).await;
        }
    })
}

#[cfg(test)]
mod tests;
