//! `cksum`: the POSIX CRC-32 and byte count of each file (GNU's default),
//! or with `-a ALGORITHM` a message digest in BSD tagged form.

use super::check::{check_file, CheckOptions};
use super::digest::Algorithm;
use super::source::{open_operand, quote_name, quote_value};
use super::sum::format_line;
use crate::commands::options::{parse_or_report, Long, Spec};
use crate::host::LocalFuture;
use crate::io::{Fd, IoError, READ_CHUNK};
use crate::utility::{write_failure_status, Invocation};

const LONGS: &[Long] = &[
    Long::required("algorithm", "a"),
    Long::flag("check", "c"),
    Long::flag("tag", "tag"),
    Long::flag("untagged", "untagged"),
    Long::flag("zero", "z"),
    Long::flag("ignore-missing", "ignore-missing"),
    Long::flag("quiet", "quiet"),
    Long::flag("status", "status"),
    Long::flag("strict", "strict"),
    Long::flag("warn", "w"),
];
const SPEC: Spec = Spec::new("a:cwz", LONGS);
const ALGORITHMS: &[&str] = &["bsd", "sysv", "crc", "md5", "sha1", "sha224", "sha256", "sha384", "sha512", "blake2b", "sm3"];

/// The CRC table for the POSIX polynomial 0x04C11DB7, most significant bit first.
const fn crc_table() -> [u32; 256] {
    let mut table = [0u32; 256];
    let mut index = 0;
    while index < 256 {
        let mut crc = (index as u32) << 24;
        let mut bit = 0;
        while bit < 8 {
            crc = if crc & 0x8000_0000 != 0 { (crc << 1) ^ 0x04C1_1DB7 } else { crc << 1 };
            bit += 1;
        }
        table[index] = crc;
        index += 1;
    }
    table
}

static CRC_TABLE: [u32; 256] = crc_table();

/// The running POSIX `cksum` CRC.
#[derive(Debug, Default, Clone, Copy)]
pub struct PosixCrc {
    crc: u32,
    length: u64,
}

impl PosixCrc {
    /// Feeds bytes.
    pub fn update(&mut self, data: &[u8]) {
        for &byte in data {
            self.crc = (self.crc << 8) ^ CRC_TABLE[(((self.crc >> 24) as u8) ^ byte) as usize];
        }
        self.length += data.len() as u64;
    }

    /// The final CRC (the length is folded in, least significant byte first) and the length.
    pub fn finish(self) -> (u32, u64) {
        let mut crc = self.crc;
        let mut length = self.length;
        while length > 0 {
            crc = (crc << 8) ^ CRC_TABLE[(((crc >> 24) as u8) ^ (length as u8)) as usize];
            length >>= 8;
        }
        (!crc, self.length)
    }
}

async fn crc_stream(stream: &Fd) -> Result<(u32, u64), IoError> {
    let mut crc = PosixCrc::default();
    loop {
        let chunk = stream.read(READ_CHUNK).await?;
        if chunk.is_empty() {
            return Ok(crc.finish());
        }
        crc.update(&chunk);
    }
}

fn digest_algorithm(name: &str) -> Option<Algorithm> {
    match name {
        "md5" => Some(Algorithm::Md5),
        "sha1" => Some(Algorithm::Sha1),
        "sha224" => Some(Algorithm::Sha224),
        "sha256" => Some(Algorithm::Sha256),
        "sha384" => Some(Algorithm::Sha384),
        "sha512" => Some(Algorithm::Sha512),
        _ => None,
    }
}

/// Runs `cksum [-a ALGORITHM] [FILE]...`.
pub fn run<'a>(ctx: &'a mut Invocation<'_>) -> LocalFuture<'a, i32> {
    Box::pin(async move {
        let parsed = match parse_or_report(ctx, &SPEC, 1).await {
            Ok(parsed) => parsed,
            Err(status) => return status,
        };
        let name = parsed.value("a").unwrap_or("crc");
        if !ALGORITHMS.contains(&name) {
            let mut text = format!("invalid argument {} for '--algorithm'\nValid arguments are:\n", quote_value(name));
            for valid in ALGORITHMS {
                text.push_str(&format!("  - '{valid}'\n"));
            }
            text.push_str("Try 'cksum --help' for more information.");
            ctx.report(&text).await;
            return 1;
        }
        let algorithm = digest_algorithm(name);
        if parsed.has("c") && algorithm.is_none() {
            ctx.report("--check is not supported with --algorithm={bsd,sysv,crc}").await;
            return 1;
        }
        if algorithm.is_none() && name != "crc" {
            ctx.report(&format!("the {name} algorithm is not supported in this sandbox")).await;
            return 1;
        }
        let operands = if parsed.operands.is_empty() { vec!["-".to_string()] } else { parsed.operands.clone() };
        let options = CheckOptions {
            ignore_missing: parsed.has("ignore-missing"),
            quiet: parsed.has("quiet"),
            status_only: parsed.has("status"),
            strict: parsed.has("strict"),
            warn: parsed.has("w"),
        };
        let mut status = 0;
        for operand in &operands {
            if let (Some(algorithm), true) = (algorithm, parsed.has("c")) {
                match check_file(ctx, algorithm, operand, &options).await {
                    Ok(true) => {}
                    Ok(false) => status = 1,
                    Err(code) => return code,
                }
                continue;
            }
            let stream = match open_operand(ctx, operand).await {
                Ok(stream) => stream,
                Err(error) => {
                    ctx.report(&format!("{}: {error}", quote_name(operand))).await;
                    status = 1;
                    continue;
                }
            };
            let line = match algorithm {
                Some(algorithm) => match algorithm.digest_stream(&stream).await {
                    Ok(hex) => format_line(algorithm, &hex, operand, !parsed.has("untagged"), false, parsed.has("z")),
                    Err(error) => {
                        ctx.report(&format!("{}: {error}", quote_name(operand))).await;
                        status = 1;
                        continue;
                    }
                },
                None => match crc_stream(&stream).await {
                    Ok((crc, length)) if operand == "-" && parsed.operands.is_empty() => {
                        format!("{crc} {length}\n")
                    }
                    Ok((crc, length)) => format!("{crc} {length} {operand}\n"),
                    Err(error) => {
                        ctx.report(&format!("{}: {error}", quote_name(operand))).await;
                        status = 1;
                        continue;
                    }
                },
            };
            if let Err(error) = ctx.write_out(line.as_bytes()).await {
                return write_failure_status(error);
            }
        }
        status
    })
}
