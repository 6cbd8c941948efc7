//! `read` (with `-r -a -d -n -N -p -s -t -u -e -i`) and `mapfile`/`readarray`.

use super::{words, Arg};
use crate::host::LocalFuture;
use crate::interp::{Outcome, Shell};
use crate::io::Fd;

struct ReadOptions {
    raw: bool,
    array: Option<String>,
    delimiter: u8,
    count: Option<usize>,
    exact: bool,
    timeout: Option<f64>,
    fd: usize,
}

/// Reads one record: up to the delimiter (consumed, not kept) or `count`
/// characters. Each byte comes with whether a backslash escaped it;
/// backslash-newline is a line continuation unless `-r`. Returns the bytes
/// and whether the record ended normally (delimiter or count reached).
async fn read_record(stream: &Fd, options: &ReadOptions) -> (Vec<(u8, bool)>, bool) {
    let mut out: Vec<(u8, bool)> = Vec::new();
    loop {
        // Whole pieces up to the delimiter, never past it nor past the
        // count (an escape makes a character of two bytes, so reading at
        // most the characters still wanted never reads too far).
        let room = match options.count {
            Some(count) if out.len() >= count => return (out, true),
            Some(count) => count - out.len(),
            None => usize::MAX,
        };
        let Ok(chunk) = stream.read_until(options.delimiter, room).await else {
            return (out, false);
        };
        if chunk.is_empty() {
            return (out, false);
        }
        let mut bytes = chunk.iter().copied();
        while let Some(byte) = bytes.next() {
            if byte == options.delimiter && !options.exact {
                return (out, true);
            }
            if byte == b'\\' && !options.raw {
                let next = match bytes.next() {
                    Some(next) => Some(next),
                    None => stream.read_until(options.delimiter, 1).await.ok().and_then(|next| next.first().copied()),
                };
                match next {
                    Some(b'\n') => continue,
                    Some(escaped) => out.push((escaped, true)),
                    None => return (out, false),
                }
                continue;
            }
            out.push((byte, false));
        }
    }
}

/// Splits `text` into at most `count` fields by IFS, the last taking the rest.
fn split_fields(text: &str, ifs: &str, count: usize, escaped: &[bool]) -> Vec<String> {
    let is_ws = |c: char| ifs.contains(c) && matches!(c, ' ' | '\t' | '\n');
    let is_sep = |i: usize, c: char| ifs.contains(c) && !escaped.get(i).copied().unwrap_or(false);
    let chars: Vec<char> = text.chars().collect();
    let mut fields = Vec::new();
    let mut index = 0;
    while index < chars.len() && is_ws(chars[index]) && is_sep(index, chars[index]) {
        index += 1;
    }
    while index < chars.len() {
        if fields.len() + 1 == count {
            let mut end = chars.len();
            while end > index && is_ws(chars[end - 1]) && is_sep(end - 1, chars[end - 1]) {
                end -= 1;
            }
            // The last name takes the rest of the line, except that a rest
            // that splits into a single field (`a:` with IFS=:) takes that field.
            let rest: String = chars[index..end].iter().collect();
            let rest_escaped = escaped.get(index..end.min(escaped.len())).unwrap_or(&[]);
            let mut split = split_fields(&rest, ifs, usize::MAX, rest_escaped);
            fields.push(if split.len() == 1 { split.remove(0) } else { rest });
            return fields;
        }
        let start = index;
        while index < chars.len() && !is_sep(index, chars[index]) {
            index += 1;
        }
        fields.push(chars[start..index].iter().collect());
        let mut saw_non_ws = false;
        while index < chars.len() && is_sep(index, chars[index]) {
            if !is_ws(chars[index]) {
                if saw_non_ws {
                    break;
                }
                saw_non_ws = true;
            }
            index += 1;
        }
    }
    fields
}

/// `read`.
pub fn read(shell: &mut Shell, args: Vec<Arg>) -> LocalFuture<'_, Outcome> {
    Box::pin(async move {
        let args = words(&args);
        let mut options = ReadOptions { raw: false, array: None, delimiter: b'\n', count: None, exact: false, timeout: None, fd: 0 };
        const USAGE: &str = "read [-ers] [-a array] [-d delim] [-i text] [-n nchars] [-N nchars] [-p prompt] [-t timeout] [-u fd] [name ...]";
        let scanned = match shell.scan_options(&args, "a:d:ei:n:N:p:rst:u:", USAGE).await {
            Ok(scanned) => scanned,
            Err(outcome) => return outcome,
        };
        let index = scanned.rest;
        for (letter, value) in scanned.options {
            match (letter, value) {
                ('r', _) => options.raw = true,
                ('a', Some(v)) => options.array = Some(v),
                ('d', Some(v)) => options.delimiter = v.bytes().next().unwrap_or(0),
                ('n', Some(v)) | ('N', Some(v)) => {
                    match v.parse::<usize>() {
                        Ok(n) => options.count = Some(n),
                        Err(_) => {
                            shell.builtin_error("read", &format!("{v}: invalid number")).await;
                            return Ok(1);
                        }
                    }
                    options.exact = letter == 'N';
                }
                // Bash shows the prompt only when reading from a terminal, which a sandbox never has.
                ('t', Some(v)) => options.timeout = v.parse().ok(),
                ('u', Some(v)) => match v.parse::<usize>() {
                    Ok(fd) => options.fd = fd,
                    Err(_) => {
                        shell.builtin_error("read", &format!("{v}: invalid file descriptor specification")).await;
                        return Ok(1);
                    }
                },
                _ => {}
            }
        }
        let names: Vec<String> = args[index.min(args.len())..].to_vec();
        for name in &names {
            if !crate::interp::variables::is_valid_name(name.split('[').next().unwrap_or(name)) {
                shell.builtin_error("read", &format!("`{name}': not a valid identifier")).await;
                return Ok(1);
            }
        }
        let Some(stream) = shell.fds.get(options.fd) else {
            shell.builtin_error("read", &format!("{}: invalid file descriptor: Bad file descriptor", options.fd)).await;
            return Ok(1);
        };
        if options.timeout == Some(0.0) {
            return Ok(0);
        }
        let (record, found) = read_record(&stream, &options).await;
        let bytes: Vec<u8> = record.iter().map(|(b, _)| *b).collect();
        let text = String::from_utf8_lossy(&bytes).into_owned();
        let mut escaped = Vec::new();
        let mut byte_index = 0;
        for c in text.chars() {
            escaped.push(record.get(byte_index).is_some_and(|(_, e)| *e));
            byte_index += c.len_utf8();
        }
        let status = if found { 0 } else { 1 };
        let ifs = shell.var("IFS").unwrap_or_else(|| " \t\n".to_string());
        if let Some(array) = options.array {
            let fields = split_fields(&text, &ifs, usize::MAX, &escaped);
            let items: Vec<(Option<String>, String, bool)> = fields.into_iter().map(|f| (None, f, false)).collect();
            if let Err(message) = shell.assign_array(&array, &items, false, false) {
                shell.builtin_error("read", &message).await;
                return Ok(1);
            }
            return Ok(status);
        }
        if names.is_empty() {
            let _ = shell.assign_scalar("REPLY", text, false);
            return Ok(status);
        }
        // `-N` takes the characters as they are, without splitting.
        let fields = if options.exact { vec![text] } else { split_fields(&text, &ifs, names.len(), &escaped) };
        for (position, name) in names.iter().enumerate() {
            let value = fields.get(position).cloned().unwrap_or_default();
            if let Err(message) = shell.assign_name(name, value).await {
                shell.builtin_error("read", &message).await;
                return Ok(1);
            }
        }
        Ok(status)
    })
}

/// `mapfile [-d delim] [-n count] [-O origin] [-s count] [-t] [-u fd] [array]`.
pub fn mapfile(shell: &mut Shell, args: Vec<Arg>) -> LocalFuture<'_, Outcome> {
    Box::pin(async move {
        let args = words(&args);
        let mut delimiter = b'\n';
        let mut trim = false;
        let mut max: Option<usize> = None;
        let mut origin: Option<i64> = None;
        let mut skip = 0usize;
        let mut fd = 0usize;
        let usage = format!("{} [-d delim] [-n count] [-O origin] [-s count] [-t] [-u fd] [-C callback] [-c quantum] [array]", args[0]);
        let scanned = match shell.scan_options(&args, "d:n:O:s:tu:C:c:", &usage).await {
            Ok(scanned) => scanned,
            Err(outcome) => return outcome,
        };
        for (letter, value) in scanned.options {
            let value = value.unwrap_or_default();
            match letter {
                't' => trim = true,
                'd' => delimiter = value.bytes().next().unwrap_or(0),
                'n' => max = value.parse().ok().filter(|n| *n > 0),
                'O' => origin = value.parse().ok(),
                's' => skip = value.parse().unwrap_or(0),
                'u' => fd = value.parse().unwrap_or(0),
                _ => {}
            }
        }
        let index = scanned.rest;
        let name = args.get(index).cloned().unwrap_or_else(|| "MAPFILE".to_string());
        let Some(stream) = shell.fds.get(fd) else {
            shell.builtin_error(&args[0], &format!("{fd}: invalid file descriptor: Bad file descriptor")).await;
            return Ok(1);
        };
        let mut lines = Vec::new();
        let mut seen = 0;
        loop {
            if max.is_some_and(|m| lines.len() >= m) {
                break;
            }
            let record = match stream.read_until(delimiter, usize::MAX).await {
                Ok(r) if !r.is_empty() => r,
                _ => break,
            };
            seen += 1;
            if seen <= skip {
                continue;
            }
            let mut record = record;
            if trim && record.last() == Some(&delimiter) {
                record.pop();
            }
            lines.push(String::from_utf8_lossy(&record).into_owned());
        }
        let start = origin.unwrap_or(0);
        if origin.is_none() {
            let _ = shell.unset_variable(&name);
        }
        let items: Vec<(Option<String>, String, bool)> =
            lines.into_iter().enumerate().map(|(i, l)| (Some((start + i as i64).to_string()), l, false)).collect();
        if let Err(message) = shell.assign_array(&name, &items, origin.is_some(), false) {
            shell.builtin_error(&args[0], &message).await;
            return Ok(1);
        }
        Ok(0)
    })
}
