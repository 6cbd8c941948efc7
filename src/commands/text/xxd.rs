//! `xxd` (vim's, 2022-01-14): hex dumps (default, `-p`, `-i`, `-b`), and
//! back again (`-r`, `-r -p`), with `-c -g -l -s -o -u -d -a -n -C`.
//! Options are parsed as xxd does: by their first letters, with numbers
//! attached (`-c8`) or separate (`-c 8`), in C's `strtol` base-0 syntax.

use crate::commands::common::{open_input, Input};
use crate::commands::text::input::read_all;
use crate::host::LocalFuture;
use crate::utility::Invocation;

const USAGE: &str = "Usage:\n       xxd [options] [infile [outfile]]\n    or\n       xxd -r [-s [-]offset] [-c cols] [-ps] [infile [outfile]]\nOptions:\n    -a          toggle autoskip: A single '*' replaces nul-lines. Default off.\n    -b          binary digit dump (incompatible with -ps,-i,-r). Default hex.\n    -C          capitalize variable names in C include file style (-i).\n    -c cols     format <cols> octets per line. Default 16 (-i: 12, -ps: 30).\n    -E          show characters in EBCDIC. Default ASCII.\n    -e          little-endian dump (incompatible with -ps,-i,-r).\n    -g bytes    number of octets per group in normal output. Default 2 (-e: 4).\n    -h          print this summary.\n    -i          output in C include file style.\n    -l len      stop after <len> octets.\n    -n name     set the variable name used in C include output (-i).\n    -o off      add <off> to the displayed file position.\n    -ps         output in postscript plain hexdump style.\n    -r          reverse operation: convert (or patch) hexdump into binary.\n    -r -s off   revert with <off> added to file positions found in hexdump.\n    -d          show offset in decimal instead of hex.\n    -s [+][-]seek  start at <seek> bytes abs. (or +: rel.) infile offset.\n    -u          use upper case hex letters.\n    -v          show version: \"xxd 2022-01-14 by Juergen Weigert et al.\".\n";

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Hex,
    Bits,
    Plain,
    Include,
    LittleEndian,
}

struct Options {
    mode: Mode,
    revert: bool,
    autoskip: bool,
    upper: bool,
    decimal: bool,
    capitalize: bool,
    cols: Option<i64>,
    group: Option<i64>,
    length: Option<i64>,
    seek: Option<(bool, i64)>,
    display_offset: i64,
    name: Option<String>,
    files: Vec<String>,
}

/// C's `strtol(text, NULL, 0)`: sign, `0x` hex, leading-0 octal, decimal; 0 if none.
fn strtol(text: &str) -> i64 {
    let text = text.trim_start();
    let (neg, rest) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text.strip_prefix('+').unwrap_or(text)),
    };
    let (radix, digits) = if let Some(hex) = rest.strip_prefix("0x").or_else(|| rest.strip_prefix("0X")) {
        (16, hex)
    } else if rest.starts_with('0') {
        (8, rest)
    } else {
        (10, rest)
    };
    let mut value: i64 = 0;
    for c in digits.chars() {
        let Some(d) = c.to_digit(radix) else { break };
        value = value.saturating_mul(i64::from(radix)).saturating_add(i64::from(d));
    }
    if neg {
        -value
    } else {
        value
    }
}

enum ParseError {
    Usage,
}

fn parse_args(args: &[String]) -> Result<Options, ParseError> {
    let mut o = Options {
        mode: Mode::Hex,
        revert: false,
        autoskip: false,
        upper: false,
        decimal: false,
        capitalize: false,
        cols: None,
        group: None,
        length: None,
        seek: None,
        display_offset: 0,
        name: None,
        files: Vec::new(),
    };
    let mut i = 0;
    // The value of an option: attached after its letters, or the next word.
    let value = |i: &mut usize, word: &str, names: &[&str]| -> Result<String, ParseError> {
        for name in names {
            if let Some(rest) = word.strip_prefix(name) {
                if !rest.is_empty() {
                    return Ok(rest.to_string());
                }
            }
        }
        *i += 1;
        args.get(*i).cloned().ok_or(ParseError::Usage)
    };
    while let Some(word) = args.get(i) {
        let w = word.as_str();
        if w == "--" {
            i += 1;
            break;
        }
        if !w.starts_with('-') || w == "-" {
            o.files.push(word.clone());
            i += 1;
            continue;
        }
        let body = &w[1..];
        match body.as_bytes().first() {
            Some(b'a') => o.autoskip = !o.autoskip,
            Some(b'b') => o.mode = Mode::Bits,
            Some(b'e') => o.mode = Mode::LittleEndian,
            Some(b'u') => o.upper = true,
            Some(b'p') => o.mode = Mode::Plain,
            Some(b'i') => o.mode = Mode::Include,
            Some(b'r') => o.revert = true,
            Some(b'd') => o.decimal = true,
            Some(b'C') => o.capitalize = true,
            Some(b'E') => {}
            Some(b'c') => o.cols = Some(strtol(&value(&mut i, w, &["-cols", "-c"])?)),
            Some(b'g') => o.group = Some(strtol(&value(&mut i, w, &["-groupsize", "-g"])?)),
            Some(b'l') => o.length = Some(strtol(&value(&mut i, w, &["-len", "-l"])?)),
            Some(b'o') => o.display_offset = strtol(&value(&mut i, w, &["-offset", "-o"])?),
            Some(b'n') => o.name = Some(value(&mut i, w, &["-name", "-n"])?),
            Some(b's') => {
                let text = value(&mut i, w, &["-seek", "-s"])?;
                let relative = text.trim_start().starts_with('+');
                o.seek = Some((relative, strtol(&text)));
            }
            _ => return Err(ParseError::Usage),
        }
        i += 1;
    }
    o.files.extend(args.iter().skip(i).cloned());
    Ok(o)
}

fn hex_digit(value: u8, upper: bool) -> u8 {
    let table = if upper { b"0123456789ABCDEF" } else { b"0123456789abcdef" };
    table[usize::from(value & 15)]
}

fn dump(o: &Options, data: &[u8], start: u64, out: &mut Vec<u8>) {
    let bits = o.mode == Mode::Bits;
    let little = o.mode == Mode::LittleEndian;
    let default_group = if bits { 1 } else if little { 4 } else { 2 };
    let cols = o.cols.unwrap_or(if bits { 6 } else { 16 }).max(1) as usize;
    let mut group = o.group.unwrap_or(default_group).max(0) as usize;
    if group == 0 || group > cols {
        group = cols;
    }
    let grplen = if bits { 8 * group + 1 } else { 2 * group + 1 };
    let mut previous_zero_line = false;
    let mut skipped = false;
    for (index, chunk) in data.chunks(cols).enumerate() {
        let offset = start + (index * cols) as u64 + o.display_offset as u64;
        let mut line: Vec<u8> = if o.decimal { format!("{offset:08}:") } else { format!("{offset:08x}:") }.into_bytes();
        let addrlen = line.len();
        let ascii_at = addrlen + 3 + (grplen * cols - 1) / group;
        line.resize(ascii_at + chunk.len(), b' ');
        for (p, &byte) in chunk.iter().enumerate() {
            let x = if little { p ^ (group - 1) } else { p };
            let c = addrlen + 1 + (grplen * x) / group;
            if bits {
                for bit in 0..8 {
                    if let Some(slot) = line.get_mut(c + bit) {
                        *slot = if byte & (0x80 >> bit) != 0 { b'1' } else { b'0' };
                    }
                }
            } else if let Some(slot) = line.get_mut(c..c + 2) {
                slot[0] = hex_digit(byte >> 4, o.upper);
                slot[1] = hex_digit(byte, o.upper);
            }
            line[ascii_at + p] = if (0x20..0x7f).contains(&byte) { byte } else { b'.' };
        }
        line.push(b'\n');
        let all_zero = chunk.iter().all(|&b| b == 0);
        let is_last = (index + 1) * cols >= data.len();
        if o.autoskip && all_zero && previous_zero_line && !is_last {
            if !skipped {
                out.extend_from_slice(b"*\n");
                skipped = true;
            }
            continue;
        }
        previous_zero_line = all_zero;
        skipped = false;
        out.extend_from_slice(&line);
    }
}

fn plain(o: &Options, data: &[u8], out: &mut Vec<u8>) {
    let cols = o.cols.unwrap_or(30).max(1) as usize;
    for chunk in data.chunks(cols) {
        for &byte in chunk {
            out.push(hex_digit(byte >> 4, o.upper));
            out.push(hex_digit(byte, o.upper));
        }
        out.push(b'\n');
    }
}

fn include(o: &Options, data: &[u8], file: Option<&str>, out: &mut Vec<u8>) {
    let cols = o.cols.unwrap_or(12).max(1) as usize;
    let name = o.name.clone().or_else(|| {
        file.map(|f| {
            let mut name: String = f.chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '_' }).collect();
            if name.starts_with(|c: char| c.is_ascii_digit()) {
                name.insert_str(0, "__");
            }
            name
        })
    });
    let name = name.map(|n| if o.capitalize { n.to_ascii_uppercase() } else { n });
    if let Some(name) = &name {
        out.extend_from_slice(format!("unsigned char {name}[] = {{\n").as_bytes());
    }
    let lines: Vec<&[u8]> = data.chunks(cols).collect();
    for (index, chunk) in lines.iter().enumerate() {
        let items: Vec<String> =
            chunk.iter().map(|b| if o.upper { format!("0X{b:02X}") } else { format!("0x{b:02x}") }).collect();
        out.extend_from_slice(b"  ");
        out.extend_from_slice(items.join(", ").as_bytes());
        out.extend_from_slice(if index + 1 < lines.len() { b",\n" } else { b"\n" });
    }
    if let Some(name) = &name {
        let len = if o.capitalize { "_LEN" } else { "_len" };
        out.extend_from_slice(format!("}};\nunsigned int {name}{len} = {};\n", data.len()).as_bytes());
    }
}

fn hex_value(b: u8) -> Option<u8> {
    (b as char).to_digit(16).map(|d| d as u8)
}

/// `-r -p`: every pair of hex digits is a byte; anything else is skipped.
fn revert_plain(data: &[u8], out: &mut Vec<u8>) {
    let mut high: Option<u8> = None;
    for &b in data {
        let Some(v) = hex_value(b) else { continue };
        match high.take() {
            Some(h) => out.push(h << 4 | v),
            None => high = Some(v),
        }
    }
}

/// `-r`: `offset: hex hex  ascii` lines back to bytes, gaps filled with zeros.
fn revert_dump(data: &[u8], cols: usize, shift: i64, out: &mut Vec<u8>) {
    for line in data.split(|&b| b == b'\n') {
        let Some(colon) = line.iter().position(|&b| b == b':') else { continue };
        let mut offset: i64 = 0;
        for &b in &line[..colon] {
            if let Some(v) = hex_value(b) {
                offset = offset.saturating_mul(16).saturating_add(i64::from(v));
            }
        }
        let offset = (offset + shift).max(0) as usize;
        if offset > out.len() {
            out.resize(offset, 0);
        }
        let mut pos = offset;
        let mut high: Option<u8> = None;
        let mut spaces = 0;
        let mut count = 0;
        for &b in &line[colon + 1..] {
            if b == b' ' {
                spaces += 1;
                if spaces >= 2 && count > 0 && high.is_none() {
                    break;
                }
                continue;
            }
            spaces = 0;
            let Some(v) = hex_value(b) else { break };
            match high.take() {
                Some(h) => {
                    let byte = h << 4 | v;
                    if pos < out.len() {
                        out[pos] = byte;
                    } else {
                        out.push(byte);
                    }
                    pos += 1;
                    count += 1;
                    if count >= cols {
                        break;
                    }
                }
                None => high = Some(v),
            }
        }
    }
}

async fn run_xxd(ctx: &Invocation<'_>, o: Options) -> i32 {
    let input = match o.files.first().map(String::as_str) {
        None | Some("-") => Input::Stdin,
        Some(name) => Input::File(name.to_string()),
    };
    let stream = match open_input(ctx, &input).await {
        Ok(stream) => stream,
        Err(error) => {
            let name = o.files.first().cloned().unwrap_or_default();
            ctx.report(&format!("{name}: {error}")).await;
            return 2;
        }
    };
    let Ok(mut data) = read_all(&stream).await else {
        return 2;
    };
    let mut out = Vec::new();
    if o.revert {
        if o.mode == Mode::Plain {
            revert_plain(&data, &mut out);
        } else {
            let shift = o.seek.map(|(_, n)| n).unwrap_or(0);
            revert_dump(&data, o.cols.unwrap_or(16).max(1) as usize, shift, &mut out);
        }
    } else {
        let mut start = 0u64;
        if let Some((relative, n)) = o.seek {
            let at = if n < 0 && !relative { data.len() as i64 + n } else { n };
            let at = at.clamp(0, data.len() as i64) as usize;
            data.drain(..at);
            start = at as u64;
        }
        if let Some(len) = o.length {
            data.truncate(len.max(0) as usize);
        }
        let file = match &input {
            Input::File(name) => Some(name.as_str()),
            Input::Stdin => None,
        };
        match o.mode {
            Mode::Plain => plain(&o, &data, &mut out),
            Mode::Include => include(&o, &data, file, &mut out),
            _ => dump(&o, &data, start, &mut out),
        }
    }
    let sink = match o.files.get(1) {
        Some(target) => match crate::commands::text::input::open_output(ctx, target, false).await {
            Ok(sink) => sink,
            Err(error) => {
                ctx.report(&format!("{target}: {error}")).await;
                return 3;
            }
        },
        None => ctx.stdout.clone(),
    };
    match sink.write(&out).await {
        Ok(()) => 0,
        Err(error) => ctx.write_failed_with(error, |e| format!("{e}"), 3).await,
    }
}

/// Runs `xxd [options] [infile [outfile]]`.
pub fn run<'a>(ctx: &'a mut Invocation<'_>) -> LocalFuture<'a, i32> {
    Box::pin(async move {
        let args = ctx.args.get(1..).unwrap_or(&[]).to_vec();
        let options = match parse_args(&args) {
            Ok(options) => options,
            Err(ParseError::Usage) => {
                let _ = ctx.stderr.write(USAGE.as_bytes()).await;
                return 1;
            }
        };
        if let Some(cols) = options.cols {
            if !(1..=256).contains(&cols) {
                ctx.report("invalid number of columns (max. 256).").await;
                return 1;
            }
        }
        run_xxd(ctx, options).await
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strtol_bases() {
        assert_eq!(strtol("0x10"), 16);
        assert_eq!(strtol("010"), 8);
        assert_eq!(strtol("-5"), -5);
        assert_eq!(strtol("+7k"), 7);
    }

    #[test]
    fn plain_round_trip() {
        let mut out = Vec::new();
        revert_plain(b"4142 43\n44", &mut out);
        assert_eq!(out, b"ABCD");
    }
}
