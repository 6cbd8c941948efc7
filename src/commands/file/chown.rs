//! `chown` and `chgrp`: change owner and group among the sandbox's users
//! (`-R -v -c -f -h --reference`). Whether the change is permitted is the
//! filesystem's decision, reported as GNU reports it.

use crate::commands::format::{quote, quote_locale};
use crate::commands::options::{parse_or_report, report_usage, Long, Spec};
use crate::commands::users::Accounts;
use crate::host::LocalFuture;
use crate::utility::Invocation;

const SPEC: Spec = Spec::new(
    "RvcfhHLP",
    &[
        Long::flag("recursive", "R"),
        Long::flag("verbose", "v"),
        Long::flag("changes", "c"),
        Long::flag("silent", "f"),
        Long::flag("quiet", "f"),
        Long::flag("no-dereference", "h"),
        Long::flag("dereference", "dereference"),
        Long::required("reference", "reference"),
        Long::required("from", "from"),
        Long::flag("preserve-root", "preserve-root"),
        Long::flag("no-preserve-root", "no-preserve-root"),
    ],
);

struct Change {
    uid: Option<u32>,
    gid: Option<u32>,
    group_only: bool,
    recursive: bool,
    verbose: bool,
    changes: bool,
    quiet: bool,
}

/// Runs `chown [OPTION]... [OWNER][:[GROUP]] FILE...`.
pub fn run_chown<'a>(ctx: &'a mut Invocation<'_>) -> LocalFuture<'a, i32> {
    Box::pin(run_either(ctx, false))
}

/// Runs `chgrp [OPTION]... GROUP FILE...`.
pub fn run_chgrp<'a>(ctx: &'a mut Invocation<'_>) -> LocalFuture<'a, i32> {
    Box::pin(run_either(ctx, true))
}

async fn run_either(ctx: &mut Invocation<'_>, group_only: bool) -> i32 {
    let parsed = match parse_or_report(ctx, &SPEC, 1).await {
        Ok(parsed) => parsed,
        Err(status) => return status,
    };
    let accounts = Accounts::load(ctx.fs.as_ref()).await;
    let mut operands = parsed.operands.clone();
    let (uid, gid) = if let Some(reference) = parsed.value("reference") {
        match ctx.fs.metadata(&ctx.resolve(reference)).await {
            Ok(m) => (if group_only { None } else { Some(m.uid) }, Some(m.gid)),
            Err(error) => {
                ctx.report(&format!("failed to get attributes of {}: {error}", quote(reference))).await;
                return 1;
            }
        }
    } else {
        if operands.is_empty() {
            report_usage(ctx, "missing operand").await;
            return 1;
        }
        let spec = operands.remove(0);
        if operands.is_empty() {
            report_usage(ctx, &format!("missing operand after {}", quote_locale(ctx, &spec))).await;
            return 1;
        }
        if group_only {
            match accounts.groups.id(&spec) {
                Some(gid) => (None, Some(gid)),
                None => {
                    ctx.report(&format!("invalid group: {}", quote_locale(ctx, &spec))).await;
                    return 1;
                }
            }
        } else {
            let (user, group) = match spec.split_once([':', '.']) {
                Some((user, group)) => (user, Some(group)),
                None => (spec.as_str(), None),
            };
            let uid = if user.is_empty() {
                None
            } else {
                match accounts.users.id(user) {
                    Some(uid) => Some(uid),
                    None => {
                        ctx.report(&format!("invalid user: {}", quote_locale(ctx, &spec))).await;
                        return 1;
                    }
                }
            };
            let gid = match group {
                None => None,
                // `user:` means the user's login group; ours share the id.
                Some("") => uid,
                Some(group) => match accounts.groups.id(group) {
                    Some(gid) => Some(gid),
                    None => {
                        ctx.report(&format!("invalid group: {}", quote_locale(ctx, &spec))).await;
                        return 1;
                    }
                },
            };
            (uid, gid)
        }
    };
    let change = Change {
        uid,
        gid,
        group_only,
        recursive: parsed.has("R"),
        verbose: parsed.has("v"),
        changes: parsed.has("c"),
        quiet: parsed.has("f"),
    };
    let mut ok = true;
    for name in &operands {
        ok &= change_owner(ctx, &change, &accounts, name).await;
    }
    i32::from(!ok)
}

/// Changes `name` and, with `-R`, everything below it (pre-order, with an
/// explicit stack; symlinks met on the way are skipped).
async fn change_owner(ctx: &Invocation<'_>, change: &Change, accounts: &Accounts, name: &str) -> bool {
    let mut pending = vec![name.to_string()];
    let mut ok = true;
    while let Some(name) = pending.pop() {
        let (success, descend) = change_one(ctx, change, accounts, &name).await;
        ok &= success;
        if descend {
            let entries = ctx.fs.read_dir(&ctx.resolve(&name)).await.unwrap_or_default();
            for entry in entries.iter().rev() {
                let child = super::copy::join_name(&name, &entry.name);
                if !ctx.fs.symlink_metadata(&ctx.resolve(&child)).await.is_ok_and(|m| m.is_symlink()) {
                    pending.push(child);
                }
            }
        }
    }
    ok
}

/// Changes one node; returns success and whether to descend into it.
async fn change_one(ctx: &Invocation<'_>, change: &Change, accounts: &Accounts, name: &str) -> (bool, bool) {
    let path = ctx.resolve(name);
    let metadata = match ctx.fs.metadata(&path).await {
        Ok(metadata) => metadata,
        Err(error) => {
            if !change.quiet {
                ctx.report(&format!("cannot access {}: {error}", quote(name))).await;
            }
            return (false, false);
        }
    };
    let describe = |uid: u32, gid: u32| -> String {
        if change.group_only {
            accounts.groups.name(gid)
        } else if change.gid.is_some() {
            format!("{}:{}", accounts.users.name(uid), accounts.groups.name(gid))
        } else {
            accounts.users.name(uid)
        }
    };
    let new_uid = change.uid.unwrap_or(metadata.uid);
    let new_gid = change.gid.unwrap_or(metadata.gid);
    let differs = new_uid != metadata.uid || new_gid != metadata.gid;
    let mut ok = true;
    if let Err(error) = ctx.fs.set_owner(&path, change.uid, change.gid).await {
        if !change.quiet {
            let what = if change.group_only { "group" } else { "ownership" };
            ctx.report(&format!("changing {what} of {}: {error}", quote(name))).await;
        }
        ok = false;
    }
    if ok && (change.verbose || (change.changes && differs)) {
        let what = if change.group_only { "group" } else { "ownership" };
        let line = if differs {
            format!("changed {what} of {} from {} to {}\n", quote(name), describe(metadata.uid, metadata.gid), describe(new_uid, new_gid))
        } else {
            format!("{what} of {} retained as {}\n", quote(name), describe(new_uid, new_gid))
        };
        let _ = ctx.write_out(line.as_bytes()).await;
    }
    (ok, change.recursive && metadata.is_dir())
}

#[cfg(test)]
mod tests {
    use crate::commands::file::fixtures::{run, tree};

    #[test]
    fn owners() {
        let fs = tree(&["f"]);
        assert_eq!(run(&fs, &["chown", "bob", "f"]).stderr, "chown: invalid user: 'bob'\n");
        assert_eq!(run(&fs, &["chown", "user:bob", "f"]).stderr, "chown: invalid group: 'user:bob'\n");
        assert_eq!(run(&fs, &["chgrp", "bob", "f"]).stderr, "chgrp: invalid group: 'bob'\n");
        assert_eq!(run(&fs, &["chown"]).stderr, "chown: missing operand\nTry 'chown --help' for more information.\n");
        assert_eq!(run(&fs, &["chown", "user"]).stderr, "chown: missing operand after 'user'\nTry 'chown --help' for more information.\n");
        assert_eq!(run(&fs, &["chown", "user", "nope"]).stderr, "chown: cannot access 'nope': No such file or directory\n");
        assert_eq!(run(&fs, &["chown", "-v", "user", "f"]).stdout, "ownership of 'f' retained as user\n");
        assert_eq!(run(&fs, &["chown", "-v", "1000:1000", "f"]).stdout, "ownership of 'f' retained as user:user\n");
        assert_eq!(run(&fs, &["chgrp", "-v", "user", "f"]).stdout, "group of 'f' retained as user\n");
        assert_eq!(run(&fs, &["chown", "-c", "user", "f"]).stdout, "");
    }
}
