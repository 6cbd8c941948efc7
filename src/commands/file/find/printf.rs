//! `find -printf` directives and escapes, and the `-ls` line.

use super::state::{Node, State};
use crate::calendar::strftime;
use crate::commands::format::{kib_blocks, mode_string, Directive, Field};
use crate::fs::{FileType, Metadata};

fn type_letter(file_type: FileType) -> char {
    match file_type {
        FileType::File => 'f',
        FileType::Directory => 'd',
        FileType::Symlink => 'l',
        FileType::CharDevice => 'c',
        FileType::Fifo => 'p',
    }
}

/// A time directive: `%t`-style ctime text, or `%Tk` with one strftime letter
/// (`@` for seconds since the epoch with a fraction).
fn time_text(millis: f64, letter: Option<char>, state: &State) -> String {
    match letter {
        None => strftime(millis, "%a %b %e %H:%M:%S.%N0 %Y", &state.zone),
        Some('@') => {
            let seconds = (millis / 1000.0).floor();
            let nanos = ((millis - seconds * 1000.0) * 1_000_000.0).round() as u64;
            format!("{}.{:09}0", seconds as i64, nanos)
        }
        Some('+') => strftime(millis, "%Y-%m-%d+%H:%M:%S.%N0", &state.zone),
        Some(c) => strftime(millis, &format!("%{c}"), &state.zone),
    }
}

/// Expands a `-printf` format for one node.
pub fn render_printf(format: &str, node: &Node, state: &State, target: Option<&str>, followed: Option<&Metadata>) -> String {
    let m = &node.metadata;
    let chars: Vec<char> = format.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while let Some(&c) = chars.get(i) {
        i += 1;
        if c == '\\' {
            let Some(&next) = chars.get(i) else {
                out.push('\\');
                break;
            };
            i += 1;
            match next {
                'n' => out.push('\n'),
                't' => out.push('\t'),
                '0' => out.push('\0'),
                'a' => out.push('\x07'),
                'b' => out.push('\x08'),
                'f' => out.push('\x0c'),
                'r' => out.push('\r'),
                'v' => out.push('\x0b'),
                '\\' => out.push('\\'),
                'c' => return out,
                d if d.is_digit(8) => {
                    let mut value = d.to_digit(8).unwrap_or(0);
                    for _ in 0..2 {
                        match chars.get(i).and_then(|c| c.to_digit(8)) {
                            Some(digit) => {
                                value = value * 8 + digit;
                                i += 1;
                            }
                            None => break,
                        }
                    }
                    out.push(char::from_u32(value).unwrap_or('?'));
                }
                other => {
                    out.push('\\');
                    out.push(other);
                }
            }
            continue;
        }
        if c != '%' {
            out.push(c);
            continue;
        }
        let spec = Directive::scan(&chars, &mut i, "-+ #0");
        let Some(&directive) = chars.get(i) else {
            out.push('%');
            break;
        };
        i += 1;
        // GNU formats the depth and the mode as C integers (`%+d`, `%#o`),
        // and everything else, sizes and numbers of links too, as text.
        let text = match directive {
            'd' => {
                spec.write(&Field::Signed(i64::try_from(node.depth).unwrap_or(i64::MAX)), &mut out);
                continue;
            }
            'm' => {
                spec.write(&Field::Octal(u64::from(m.mode & 0o7777)), &mut out);
                continue;
            }
            '%' => "%".to_string(),
            'p' => node.shown.clone(),
            'f' => node.name().to_string(),
            'h' => match node.shown.trim_end_matches('/').rfind('/') {
                Some(0) => "/".to_string(),
                Some(index) => node.shown.get(..index).unwrap_or("").to_string(),
                None => ".".to_string(),
            },
            'P' => {
                let rest = node.shown.strip_prefix(node.start.as_str()).unwrap_or(&node.shown);
                rest.trim_start_matches('/').to_string()
            }
            'H' => node.start.clone(),
            's' => m.size.to_string(),
            'k' => kib_blocks(m).to_string(),
            'b' => (kib_blocks(m) * 2).to_string(),
            'y' => type_letter(m.file_type).to_string(),
            'Y' => match (m.is_symlink(), followed) {
                (true, Some(t)) => type_letter(t.file_type).to_string(),
                (true, None) => "N".to_string(),
                _ => type_letter(m.file_type).to_string(),
            },
            'M' => mode_string(m.file_type, m.mode),
            'u' => state.accounts.users.name(m.uid),
            'g' => state.accounts.groups.name(m.gid),
            'U' => m.uid.to_string(),
            'G' => m.gid.to_string(),
            'i' => m.ino.to_string(),
            'n' => m.nlink.to_string(),
            'l' => target.unwrap_or("").to_string(),
            'D' => m.dev.to_string(),
            'F' => "tmpfs".to_string(),
            'S' => "1".to_string(),
            't' => time_text(m.mtime, None, state),
            'a' => time_text(m.atime, None, state),
            'c' => time_text(m.ctime, None, state),
            'T' | 'A' | 'C' => {
                let letter = chars.get(i).copied();
                i += 1;
                let millis = match directive {
                    'T' => m.mtime,
                    'A' => m.atime,
                    _ => m.ctime,
                };
                time_text(millis, letter, state)
            }
            other => format!("%{other}"),
        };
        spec.write(&Field::Text(text), &mut out);
    }
    out
}

/// The `-ls` line (`ls -dils` style).
pub fn ls_line(node: &Node, state: &State, target: Option<&str>) -> String {
    let m = &node.metadata;
    let recent = m.mtime > state.now - 15_778_476_000.0 && m.mtime <= state.now;
    let date = strftime(m.mtime, if recent { "%b %e %H:%M" } else { "%b %e  %Y" }, &state.zone);
    let mut line = format!(
        "{:>9} {:>6} {} {:>3} {:<8} {:<8} {:>8} {} {}",
        m.ino,
        kib_blocks(m),
        mode_string(m.file_type, m.mode),
        m.nlink,
        state.accounts.users.name(m.uid),
        state.accounts.groups.name(m.gid),
        m.size,
        date,
        node.shown
    );
    if let (true, Some(target)) = (m.is_symlink(), target) {
        line.push_str(" -> ");
        line.push_str(target);
    }
    line.push('\n');
    line
}
