//! `md5sum`, `sha1sum`, `sha224sum`, `sha256sum`, `sha384sum`, `sha512sum`:
//! print or check message digests, as GNU coreutils does.

use super::check::{check_file, CheckOptions};
use super::digest::Algorithm;
use super::source::{open_operand, quote_name};
use crate::commands::options::{parse_or_report, report_usage, Long, Spec};
use crate::host::LocalFuture;
use crate::utility::{write_failure_status, Invocation};

const LONGS: &[Long] = &[
    Long::flag("binary", "b"),
    Long::flag("check", "c"),
    Long::flag("tag", "tag"),
    Long::flag("text", "t"),
    Long::flag("zero", "z"),
    Long::flag("ignore-missing", "ignore-missing"),
    Long::flag("quiet", "quiet"),
    Long::flag("status", "status"),
    Long::flag("strict", "strict"),
    Long::flag("warn", "w"),
];
const SPEC: Spec = Spec::new("bctwz", LONGS);

/// Runs `md5sum` and its siblings; the algorithm comes from the command name.
pub fn run<'a>(ctx: &'a mut Invocation<'_>) -> LocalFuture<'a, i32> {
    Box::pin(async move {
        let parsed = match parse_or_report(ctx, &SPEC, 1).await {
            Ok(parsed) => parsed,
            Err(status) => return status,
        };
        let algorithm = Algorithm::for_command(ctx.name());
        let check = parsed.has("c");
        let binary = parsed.options.iter().rev().find(|(k, _)| *k == "b" || *k == "t").map(|(k, _)| *k == "b");
        let options = CheckOptions {
            ignore_missing: parsed.has("ignore-missing"),
            quiet: parsed.has("quiet"),
            status_only: parsed.has("status"),
            strict: parsed.has("strict"),
            warn: parsed.has("w"),
        };
        if let Some(message) = conflict(&parsed, check, binary.is_some()) {
            report_usage(ctx, &message).await;
            return 1;
        }
        let operands = if parsed.operands.is_empty() { vec!["-".to_string()] } else { parsed.operands.clone() };
        let mut status = 0;
        for operand in &operands {
            let result = if check {
                check_file(ctx, algorithm, operand, &options).await
            } else {
                print_digest(ctx, algorithm, operand, parsed.has("tag"), binary == Some(true), parsed.has("z")).await
            };
            match result {
                Ok(true) => {}
                Ok(false) => status = 1,
                Err(code) => return code,
            }
        }
        status
    })
}

/// The usage error GNU reports for options that do not fit the mode.
fn conflict(parsed: &crate::commands::options::Parsed, check: bool, binary_or_text: bool) -> Option<String> {
    if check {
        if parsed.has("tag") {
            return Some("the --tag option is meaningless when verifying checksums".into());
        }
        if binary_or_text {
            return Some("the --binary and --text options are meaningless when verifying checksums".into());
        }
        if parsed.has("z") {
            return Some("the --zero option is not supported when verifying checksums".into());
        }
        return None;
    }
    for (key, long) in [("ignore-missing", "ignore-missing"), ("status", "status"), ("w", "warn"), ("strict", "strict"), ("quiet", "quiet")]
    {
        if parsed.has(key) {
            return Some(format!("the --{long} option is meaningful only when verifying checksums"));
        }
    }
    None
}

/// Prints one digest line. `Ok(false)` when the operand could not be read;
/// `Err(status)` when standard output failed.
async fn print_digest(ctx: &Invocation<'_>, algorithm: Algorithm, operand: &str, tag: bool, binary: bool, zero: bool) -> Result<bool, i32> {
    let digest = match open_operand(ctx, operand).await {
        Ok(stream) => algorithm.digest_stream(&stream).await.map_err(super::source::ReadError::Io),
        Err(error) => Err(error),
    };
    let hex = match digest {
        Ok(hex) => hex,
        Err(error) => {
            ctx.report(&format!("{}: {error}", quote_name(operand))).await;
            return Ok(false);
        }
    };
    let line = format_line(algorithm, &hex, operand, tag, binary, zero);
    ctx.write_out(line.as_bytes()).await.map_err(write_failure_status)?;
    Ok(true)
}

/// One output line: `HEX  NAME`, `HEX *NAME` (binary) or `ALG (NAME) = HEX`
/// (tag). Names holding a backslash or newline are escaped and the line
/// starts with `\`, unless lines end in NUL (`-z`).
pub fn format_line(algorithm: Algorithm, hex: &str, name: &str, tag: bool, binary: bool, zero: bool) -> String {
    let needs_escape = !zero && (name.contains('\\') || name.contains('\n') || name.contains('\r'));
    let shown = if needs_escape { name.replace('\\', "\\\\").replace('\n', "\\n").replace('\r', "\\r") } else { name.to_string() };
    let prefix = if needs_escape { "\\" } else { "" };
    let end = if zero { '\0' } else { '\n' };
    if tag {
        format!("{prefix}{} ({shown}) = {hex}{end}", algorithm.tag())
    } else {
        let mode = if binary { '*' } else { ' ' };
        format!("{prefix}{hex} {mode}{shown}{end}")
    }
}
