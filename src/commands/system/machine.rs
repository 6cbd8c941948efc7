//! What machine the sandbox claims to be: `uname` (Linux, host `sandbox`,
//! x86_64), `uptime` (the sandbox has just started), `nproc` (one
//! processor: the engine is single-threaded) and `getconf`.

use crate::calendar::civil::from_timestamp;
use crate::calendar::parse_tz;
use crate::commands::format::quote_locale;
use crate::commands::options::{parse_or_report, report_usage, Long, Spec};
use crate::fs::layout::HOST_NAME;
use crate::host::LocalFuture;
use crate::utility::{write_failure_status, Invocation};

/// The kernel release the sandbox reports.
pub const KERNEL_RELEASE: &str = "6.1.0-wabash";
/// The kernel version string the sandbox reports.
pub const KERNEL_VERSION: &str = "#1 SMP PREEMPT_DYNAMIC";

async fn print(ctx: &Invocation<'_>, text: &str) -> i32 {
    match ctx.write_out(text.as_bytes()).await {
        Ok(()) => 0,
        Err(error) => write_failure_status(error),
    }
}

const UNAME_LONGS: &[Long] = &[
    Long::flag("all", "a"),
    Long::flag("kernel-name", "s"),
    Long::flag("nodename", "n"),
    Long::flag("kernel-release", "r"),
    Long::flag("kernel-version", "v"),
    Long::flag("machine", "m"),
    Long::flag("processor", "p"),
    Long::flag("hardware-platform", "i"),
    Long::flag("operating-system", "o"),
];
const UNAME_SPEC: Spec = Spec::new("asnrvmpio", UNAME_LONGS);

/// Runs `uname [-asnrvmpio]`.
pub fn run_uname<'a>(ctx: &'a mut Invocation<'_>) -> LocalFuture<'a, i32> {
    Box::pin(async move {
        let parsed = match parse_or_report(ctx, &UNAME_SPEC, 1).await {
            Ok(parsed) => parsed,
            Err(status) => return status,
        };
        if let Some(extra) = parsed.operands.first() {
            report_usage(ctx, &format!("extra operand {}", quote_locale(ctx, extra))).await;
            return 1;
        }
        let all = parsed.has("a");
        let fields = [
            ("s", "Linux", true),
            ("n", HOST_NAME, true),
            ("r", KERNEL_RELEASE, true),
            ("v", KERNEL_VERSION, true),
            ("m", "x86_64", true),
            ("p", "unknown", false),
            ("i", "unknown", false),
            ("o", "GNU/Linux", true),
        ];
        let any = fields.iter().any(|(key, _, _)| parsed.has(key));
        let words: Vec<&str> = fields
            .iter()
            .filter(|(key, _, in_all)| parsed.has(key) || (all && *in_all) || (!any && !all && *key == "s"))
            .map(|(_, value, _)| *value)
            .collect();
        print(ctx, &format!("{}\n", words.join(" "))).await
    })
}

const UPTIME_LONGS: &[Long] = &[Long::flag("pretty", "p"), Long::flag("since", "s")];
const UPTIME_SPEC: Spec = Spec::new("ps", UPTIME_LONGS);

/// Runs `uptime [-p|-s]`: the sandbox has been up for no time at all.
pub fn run_uptime<'a>(ctx: &'a mut Invocation<'_>) -> LocalFuture<'a, i32> {
    Box::pin(async move {
        let parsed = match parse_or_report(ctx, &UPTIME_SPEC, 1).await {
            Ok(parsed) => parsed,
            Err(status) => return status,
        };
        let zone = parse_tz(ctx.env_var("TZ"));
        let seconds = (ctx.host.now_millis() / 1000.0).floor() as i64;
        let now = from_timestamp(seconds, 0, zone.offset);
        let text = if parsed.has("p") {
            "up 0 minutes\n".to_string()
        } else if parsed.has("s") {
            format!("{:04}-{:02}-{:02} {:02}:{:02}:{:02}\n", now.year, now.month, now.day, now.hour, now.minute, now.second)
        } else {
            format!(" {:02}:{:02}:{:02} up 0 min,  1 user,  load average: 0.00, 0.00, 0.00\n", now.hour, now.minute, now.second)
        };
        print(ctx, &text).await
    })
}

const NPROC_LONGS: &[Long] = &[Long::flag("all", "all"), Long::required("ignore", "ignore")];
const NPROC_SPEC: Spec = Spec::new("", NPROC_LONGS);

/// Runs `nproc [--all] [--ignore=N]`.
pub fn run_nproc<'a>(ctx: &'a mut Invocation<'_>) -> LocalFuture<'a, i32> {
    Box::pin(async move {
        let parsed = match parse_or_report(ctx, &NPROC_SPEC, 1).await {
            Ok(parsed) => parsed,
            Err(status) => return status,
        };
        if let Some(extra) = parsed.operands.first() {
            report_usage(ctx, &format!("extra operand {}", quote_locale(ctx, extra))).await;
            return 1;
        }
        if let Some(ignore) = parsed.value("ignore") {
            if ignore.parse::<u64>().is_err() {
                ctx.report(&format!("invalid number: {}", quote_locale(ctx, ignore))).await;
                return 1;
            }
        }
        print(ctx, "1\n").await
    })
}

/// The values `getconf` knows, by name.
const GETCONF: &[(&str, &str)] = &[
    ("ARG_MAX", "2097152"),
    ("CHAR_BIT", "8"),
    ("CHILD_MAX", "1024"),
    ("CLK_TCK", "100"),
    ("GNU_LIBC_VERSION", "glibc 2.36"),
    ("GNU_LIBPTHREAD_VERSION", "NPTL 2.36"),
    ("HOST_NAME_MAX", "64"),
    ("INT_MAX", "2147483647"),
    ("INT_MIN", "-2147483648"),
    ("LINE_MAX", "2048"),
    ("LOGIN_NAME_MAX", "256"),
    ("LONG_BIT", "64"),
    ("LONG_MAX", "9223372036854775807"),
    ("NAME_MAX", "255"),
    ("NGROUPS_MAX", "65536"),
    ("NPROCESSORS_CONF", "1"),
    ("NPROCESSORS_ONLN", "1"),
    ("OPEN_MAX", "1024"),
    ("PAGESIZE", "4096"),
    ("PAGE_SIZE", "4096"),
    ("PATH", "/bin:/usr/bin"),
    ("PATH_MAX", "4096"),
    ("PIPE_BUF", "4096"),
    ("SSIZE_MAX", "9223372036854775807"),
    ("UINT_MAX", "4294967295"),
    ("WORD_BIT", "32"),
    ("_NPROCESSORS_CONF", "1"),
    ("_NPROCESSORS_ONLN", "1"),
    ("_PHYS_PAGES", "1048576"),
    ("_POSIX_ARG_MAX", "2097152"),
];
const PATH_VARIABLES: &[&str] = &["NAME_MAX", "PATH_MAX", "PIPE_BUF", "LINK_MAX", "_POSIX_NAME_MAX"];
const GETCONF_USAGE: &str = "Usage: getconf [-v specification] variable_name [pathname]\n       getconf -a [pathname]\n";

/// Runs `getconf NAME [PATH]` or `getconf -a`.
pub fn run_getconf<'a>(ctx: &'a mut Invocation<'_>) -> LocalFuture<'a, i32> {
    Box::pin(async move {
        let args: Vec<&str> = ctx.args.iter().skip(1).map(String::as_str).collect();
        if args.first() == Some(&"-a") {
            let text: String = GETCONF.iter().map(|(name, value)| format!("{name:<35}{value}\n")).collect();
            return print(ctx, &text).await;
        }
        let (name, path) = match args.as_slice() {
            [name] => (*name, None),
            [name, path] => (*name, Some(*path)),
            _ => {
                let _ = ctx.stderr.write(GETCONF_USAGE.as_bytes()).await;
                return 2;
            }
        };
        if PATH_VARIABLES.contains(&name) && path.is_none() {
            let _ = ctx.stderr.write(GETCONF_USAGE.as_bytes()).await;
            return 2;
        }
        match GETCONF.iter().find(|(known, _)| *known == name) {
            Some((_, value)) => print(ctx, &format!("{value}\n")).await,
            None => {
                ctx.report(&format!("Unrecognized variable `{name}'")).await;
                2
            }
        }
    })
}
