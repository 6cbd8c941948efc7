//! `strings` (GNU binutils 2.40): runs of at least `-n` (default 4)
//! printable characters (ASCII graphic, space and tab; `-w` adds every
//! whitespace), one per line, with `-t o|d|x` (or `-o`) offsets and `-f`
//! file names. Input streams; every file is scanned whole (`-a`).

use crate::commands::common::{open_input, Input};
use crate::commands::options::{parse, Long, Spec};
use crate::host::LocalFuture;
use crate::io::READ_CHUNK;
use crate::utility::Invocation;

const SPEC: Spec = Spec::new("adfn:t:woe:s:0123456789", &[
    Long::flag("all", "a"),
    Long::flag("data", "d"),
    Long::flag("print-file-name", "f"),
    Long::required("bytes", "n"),
    Long::required("radix", "t"),
    Long::flag("include-all-whitespace", "w"),
    Long::required("encoding", "e"),
    Long::required("output-separator", "s"),
]);

const USAGE: &str = "Usage: strings [option(s)] [file(s)]\n Display printable strings in [file(s)] (stdin by default)\n The options are:\n  -a - --all                Scan the entire file, not just the data section [default]\n  -d --data                 Only scan the data sections in the file\n  -f --print-file-name      Print the name of the file before each string\n  -n <number>               Locate & print any sequence of at least <number>\n    --bytes=<number>         displayable characters.  (The default is 4).\n  -t --radix={o,d,x}        Print the location of the string in base 8, 10 or 16\n  -w --include-all-whitespace Include all whitespace as valid string characters\n  -o                        An alias for --radix=o\n  -T --target=<BFDNAME>     Specify the binary file format\n  -e --encoding={s,S,b,l,B,L} Select character size and endianness:\n                            s = 7-bit, S = 8-bit, {b,l} = 16-bit, {B,L} = 32-bit\n  --unicode={default|show|invalid|hex|escape|highlight}\n  -U {d|s|i|x|e|h}          Specify how to treat UTF-8 encoded unicode characters\n  -s --output-separator=<string> String used to separate strings in output.\n  @<file>                   Read options from <file>\n  -h --help                 Display this information\n  -v -V --version           Print the program's version number\nstrings: supported targets: elf64-x86-64 elf32-i386 elf32-iamcu elf32-x86-64 pei-i386 pe-x86-64 pei-x86-64 elf64-little elf64-big elf32-little elf32-big pe-bigobj-x86-64 pe-i386 pdb srec symbolsrec verilog tekhex binary ihex plugin\n";

struct Settings {
    min: usize,
    radix: Option<char>,
    all_whitespace: bool,
    file_names: bool,
    separator: Vec<u8>,
}

fn printable(byte: u8, all_whitespace: bool) -> bool {
    (0x20..0x7f).contains(&byte) || byte == b'\t' || (all_whitespace && matches!(byte, b'\n' | b'\r' | 0x0b | 0x0c))
}

fn emit(settings: &Settings, name: &str, start: u64, run: &[u8], out: &mut Vec<u8>) {
    if settings.file_names {
        out.extend_from_slice(name.as_bytes());
        out.extend_from_slice(b": ");
    }
    match settings.radix {
        Some('o') => out.extend_from_slice(format!("{start:7o} ").as_bytes()),
        Some('d') => out.extend_from_slice(format!("{start:7} ").as_bytes()),
        Some('x') => out.extend_from_slice(format!("{start:7x} ").as_bytes()),
        _ => {}
    }
    out.extend_from_slice(run);
    out.extend_from_slice(&settings.separator);
}

async fn scan(ctx: &Invocation<'_>, settings: &Settings, input: &Input) -> Result<bool, i32> {
    let (name, stream) = match open_input(ctx, input).await {
        Ok(stream) => (match input {
            Input::File(name) => name.clone(),
            Input::Stdin => "{standard input}".to_string(),
        }, stream),
        Err(_) => {
            if let Input::File(name) = input {
                ctx.report(&format!("'{name}': No such file")).await;
            }
            return Ok(false);
        }
    };
    let mut run: Vec<u8> = Vec::new();
    let mut run_start = 0u64;
    let mut offset = 0u64;
    let mut out = Vec::new();
    loop {
        let chunk = stream.read(READ_CHUNK).await.unwrap_or_default();
        if chunk.is_empty() {
            break;
        }
        for &byte in &chunk {
            if printable(byte, settings.all_whitespace) {
                if run.is_empty() {
                    run_start = offset;
                }
                run.push(byte);
            } else {
                if run.len() >= settings.min {
                    emit(settings, &name, run_start, &run, &mut out);
                }
                run.clear();
            }
            offset += 1;
        }
        if out.len() >= READ_CHUNK {
            if let Err(error) = ctx.write_out(&out).await {
                return Err(ctx.write_failed(error).await);
            }
            out.clear();
        }
    }
    if run.len() >= settings.min {
        emit(settings, &name, run_start, &run, &mut out);
    }
    if let Err(error) = ctx.write_out(&out).await {
        return Err(ctx.write_failed(error).await);
    }
    Ok(true)
}

/// Runs `strings [-afw] [-n MIN] [-t RADIX] [-o] [FILE]...`.
pub fn run<'a>(ctx: &'a mut Invocation<'_>) -> LocalFuture<'a, i32> {
    Box::pin(async move {
        let args = ctx.args.get(1..).unwrap_or(&[]).to_vec();
        let Ok(parsed) = parse(&SPEC, &args) else {
            let _ = ctx.stderr.write(USAGE.as_bytes()).await;
            return 1;
        };
        let mut settings = Settings { min: 4, radix: None, all_whitespace: false, file_names: false, separator: b"\n".to_vec() };
        let mut digits = String::new();
        for (key, value) in &parsed.options {
            match *key {
                "n" => {
                    let text = value.as_deref().unwrap_or("");
                    match text.parse::<i64>() {
                        Ok(n) if n > 0 => settings.min = n as usize,
                        _ => {
                            ctx.report(&format!("invalid minimum string length {text}")).await;
                            return 1;
                        }
                    }
                }
                "t" => match value.as_deref() {
                    Some(r @ ("o" | "d" | "x")) => settings.radix = r.chars().next(),
                    _ => {
                        let _ = ctx.stderr.write(USAGE.as_bytes()).await;
                        return 1;
                    }
                },
                "o" => settings.radix = Some('o'),
                "w" => settings.all_whitespace = true,
                "f" => settings.file_names = true,
                "s" => settings.separator = value.clone().unwrap_or_default().into_bytes(),
                digit if digit.len() == 1 && digit.as_bytes()[0].is_ascii_digit() => {
                    digits.push_str(digit);
                    settings.min = digits.parse().unwrap_or(4);
                }
                _ => {}
            }
        }
        if settings.min == 0 {
            ctx.report("invalid minimum string length 0").await;
            return 1;
        }
        let inputs: Vec<Input> = if parsed.operands.is_empty() {
            vec![Input::Stdin]
        } else {
            parsed.operands.iter().map(|name| Input::File(name.clone())).collect()
        };
        let mut status = 0;
        for input in &inputs {
            match scan(ctx, &settings, input).await {
                Ok(true) => {}
                Ok(false) => status = 1,
                Err(code) => return code,
            }
        }
        status
    })
}
