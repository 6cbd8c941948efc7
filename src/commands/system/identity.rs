//! Who the sandbox user is: `whoami`, `id` and `hostname`, with the
//! sandbox's fixed values (user `user`, uid and gid 1000, host `sandbox`).

use crate::commands::format::quote_locale;
use crate::commands::options::{parse_or_report, report_usage, Long, Spec};
use crate::fs::layout::{HOST_NAME, SANDBOX_GID, SANDBOX_UID, USER_NAME};
use crate::host::LocalFuture;
use crate::utility::{write_failure_status, Invocation};

async fn print(ctx: &Invocation<'_>, text: &str) -> i32 {
    match ctx.write_out(text.as_bytes()).await {
        Ok(()) => 0,
        Err(error) => write_failure_status(error),
    }
}

const WHOAMI_SPEC: Spec = Spec::new("", &[]);

/// Runs `whoami`.
pub fn run_whoami<'a>(ctx: &'a mut Invocation<'_>) -> LocalFuture<'a, i32> {
    Box::pin(async move {
        let parsed = match parse_or_report(ctx, &WHOAMI_SPEC, 1).await {
            Ok(parsed) => parsed,
            Err(status) => return status,
        };
        if let Some(extra) = parsed.operands.first() {
            report_usage(ctx, &format!("extra operand {}", quote_locale(ctx, extra))).await;
            return 1;
        }
        print(ctx, &format!("{USER_NAME}\n")).await
    })
}

const ID_LONGS: &[Long] = &[
    Long::flag("user", "u"),
    Long::flag("group", "g"),
    Long::flag("groups", "G"),
    Long::flag("name", "n"),
    Long::flag("real", "r"),
    Long::flag("zero", "z"),
];

const ID_SPEC: Spec = Spec::new("ugGnrz", ID_LONGS);

/// The (uid, gid, name, group name) of a user the sandbox knows.
fn lookup(name: &str) -> Option<(u32, u32, &'static str, &'static str)> {
    match name {
        "root" | "0" => Some((0, 0, "root", "root")),
        _ if name == USER_NAME || name == SANDBOX_UID.to_string() => Some((SANDBOX_UID, SANDBOX_GID, USER_NAME, USER_NAME)),
        _ => None,
    }
}

/// Runs `id [-u|-g|-G] [-n] [-r] [USER]`.
pub fn run_id<'a>(ctx: &'a mut Invocation<'_>) -> LocalFuture<'a, i32> {
    Box::pin(async move {
        let parsed = match parse_or_report(ctx, &ID_SPEC, 1).await {
            Ok(parsed) => parsed,
            Err(status) => return status,
        };
        if let Some(extra) = parsed.operands.get(1) {
            report_usage(ctx, &format!("extra operand {}", quote_locale(ctx, extra))).await;
            return 1;
        }
        let user = match parsed.operands.first() {
            Some(name) => match lookup(name) {
                Some(user) => user,
                None => {
                    ctx.report(&format!("{}: no such user", quote_locale(ctx, name))).await;
                    return 1;
                }
            },
            None => (SANDBOX_UID, SANDBOX_GID, USER_NAME, USER_NAME),
        };
        let (uid, gid, name, group) = user;
        let selected = ["u", "g", "G"].iter().filter(|k| parsed.has(k)).count();
        if selected > 1 {
            ctx.report("cannot print \"only\" of more than one choice").await;
            return 1;
        }
        let names = parsed.has("n");
        let end = if parsed.has("z") { "\0" } else { "\n" };
        let text = if parsed.has("u") {
            if names {
                name.to_string()
            } else {
                uid.to_string()
            }
        } else if parsed.has("g") || parsed.has("G") {
            if names {
                group.to_string()
            } else {
                gid.to_string()
            }
        } else if names || parsed.has("r") {
            ctx.report("cannot print only names or real IDs in default format").await;
            return 1;
        } else {
            format!("uid={uid}({name}) gid={gid}({group}) groups={gid}({group})")
        };
        print(ctx, &format!("{text}{end}")).await
    })
}

const HOSTNAME_LONGS: &[Long] = &[
    Long::flag("short", "s"),
    Long::flag("fqdn", "f"),
    Long::flag("long", "f"),
    Long::flag("domain", "d"),
    Long::flag("ip-address", "i"),
    Long::flag("all-ip-addresses", "I"),
];
const HOSTNAME_SPEC: Spec = Spec::new("sfdiIA", HOSTNAME_LONGS);

/// Runs `hostname [-s|-f|-d|-i]`; setting a name is refused as for a non-root user.
pub fn run_hostname<'a>(ctx: &'a mut Invocation<'_>) -> LocalFuture<'a, i32> {
    Box::pin(async move {
        let parsed = match parse_or_report(ctx, &HOSTNAME_SPEC, 1).await {
            Ok(parsed) => parsed,
            Err(status) => return status,
        };
        if !parsed.operands.is_empty() {
            ctx.report("you must be root to change the host name").await;
            return 1;
        }
        let text = if parsed.has("d") {
            "\n".to_string()
        } else if parsed.has("i") || parsed.has("I") {
            "127.0.0.1\n".to_string()
        } else {
            format!("{HOST_NAME}\n")
        };
        print(ctx, &text).await
    })
}
