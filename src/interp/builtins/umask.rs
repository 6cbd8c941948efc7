//! Process settings: `umask` (octal and symbolic modes) and `ulimit`
//! (limits are reported; changing them is not permitted in the sandbox).

use super::{words, Arg};
use crate::host::LocalFuture;
use crate::interp::{Outcome, Shell};

/// `umask -S` text for a mask: the permissions it leaves, `u=rwx,g=rx,o=rx`.
fn symbolic(mask: u32) -> String {
    let perms = |shift: u32| {
        let allowed = !mask >> shift & 7;
        [(4, 'r'), (2, 'w'), (1, 'x')].iter().filter(|(bit, _)| allowed & bit != 0).map(|(_, c)| *c).collect::<String>()
    };
    format!("u={},g={},o={}", perms(6), perms(3), perms(0))
}

/// Applies a symbolic mode (`u=rwx,g+r,o-w`) to `mask`; `Err` holds bash's message.
fn apply_symbolic(mask: u32, mode: &str) -> Result<u32, String> {
    let mut allowed = !mask & 0o777;
    for clause in mode.split(',') {
        let mut chars = clause.chars().peekable();
        let mut who = 0;
        while let Some(&c) = chars.peek() {
            who |= match c {
                'u' => 0o700,
                'g' => 0o070,
                'o' => 0o007,
                'a' => 0o777,
                _ => break,
            };
            chars.next();
        }
        if who == 0 {
            who = 0o777;
        }
        loop {
            let op = match chars.next() {
                None => break,
                Some(op @ ('+' | '-' | '=')) => op,
                Some(other) => return Err(format!("`{other}': invalid symbolic mode operator")),
            };
            let mut bits = 0;
            while let Some(&c) = chars.peek() {
                bits |= match c {
                    'r' => 0o444,
                    'w' => 0o222,
                    'x' => 0o111,
                    '+' | '-' | '=' => break,
                    other => return Err(format!("`{other}': invalid symbolic mode character")),
                };
                chars.next();
            }
            let bits = bits & who;
            allowed = match op {
                '+' => allowed | bits,
                '-' => allowed & !bits,
                _ => (allowed & !who) | bits,
            };
        }
    }
    Ok(!allowed & 0o777)
}

/// `umask [-p] [-S] [mode]`.
pub fn umask(shell: &mut Shell, args: Vec<Arg>) -> LocalFuture<'_, Outcome> {
    Box::pin(async move {
        let args = words(&args);
        let (mut symbolic_output, mut reusable) = (false, false);
        let mut index = 1;
        while let Some(arg) = args.get(index).filter(|a| a.starts_with('-') && a.len() > 1) {
            if arg == "--" {
                index += 1;
                break;
            }
            for letter in arg[1..].chars() {
                match letter {
                    'S' => symbolic_output = true,
                    'p' => reusable = true,
                    other => {
                        shell.builtin_error("umask", &format!("-{other}: invalid option")).await;
                        let _ = shell.write_fd(2, b"umask: usage: umask [-p] [-S] [mode]\n").await;
                        return Ok(2);
                    }
                }
            }
            index += 1;
        }
        let Some(mode) = args.get(index) else {
            let value = if symbolic_output { symbolic(shell.umask) } else { format!("{:04o}", shell.umask) };
            let prefix = match (reusable, symbolic_output) {
                (true, true) => "umask -S ",
                (true, false) => "umask ",
                _ => "",
            };
            shell.out(format!("{prefix}{value}\n").as_bytes()).await?;
            return Ok(0);
        };
        let result = if mode.starts_with(|c: char| c.is_ascii_digit()) {
            u32::from_str_radix(mode, 8).ok().filter(|v| *v <= 0o777).ok_or_else(|| format!("{mode}: octal number out of range"))
        } else {
            apply_symbolic(shell.umask, mode)
        };
        match result {
            Ok(mask) => {
                shell.umask = mask;
                Ok(0)
            }
            Err(message) => {
                shell.builtin_error("umask", &message).await;
                Ok(1)
            }
        }
    })
}

/// The limits `ulimit -a` lists: option letter, description, value.
const LIMITS: &[(char, &str, &str)] = &[
    ('R', "real-time non-blocking time  (microseconds, -R)", "unlimited"),
    ('c', "core file size              (blocks, -c)", "0"),
    ('d', "data seg size               (kbytes, -d)", "unlimited"),
    ('f', "file size                   (blocks, -f)", "unlimited"),
    ('u', "max user processes                  (-u)", "1"),
    ('n', "open files                          (-n)", "1024"),
    ('s', "stack size                  (kbytes, -s)", "8192"),
    ('t', "cpu time                   (seconds, -t)", "unlimited"),
    ('v', "virtual memory              (kbytes, -v)", "unlimited"),
];

/// `ulimit [-SHabcdefiklmnpqrstuvxPRT] [limit]`.
pub fn ulimit(shell: &mut Shell, args: Vec<Arg>) -> LocalFuture<'_, Outcome> {
    Box::pin(async move {
        let args = words(&args);
        let mut selected: Vec<char> = Vec::new();
        let mut all = false;
        let mut index = 1;
        while let Some(arg) = args.get(index).filter(|a| a.starts_with('-') && a.len() > 1) {
            for letter in arg[1..].chars() {
                match letter {
                    'a' => all = true,
                    'S' | 'H' => {}
                    c if "bcdefiklmnpqrstuvxPRT".contains(c) => selected.push(c),
                    other => {
                        shell.builtin_error("ulimit", &format!("-{other}: invalid option")).await;
                        let _ = shell.write_fd(2, b"ulimit: usage: ulimit [-SHabcdefiklmnpqrstuvxPRT] [limit]\n").await;
                        return Ok(2);
                    }
                }
            }
            index += 1;
        }
        if let Some(value) = args.get(index) {
            if value != "unlimited" && value != "hard" && value != "soft" && value.parse::<u64>().is_err() {
                shell.builtin_error("ulimit", &format!("{value}: invalid number")).await;
                return Ok(1);
            }
            shell.builtin_error("ulimit", "cannot modify limit: Operation not permitted").await;
            return Ok(1);
        }
        let value_of = |letter: char| LIMITS.iter().find(|(l, _, _)| *l == letter).map(|(_, _, v)| *v).unwrap_or("unlimited");
        let mut out = String::new();
        if all {
            for (_, description, value) in LIMITS {
                out.push_str(&format!("{description} {value}\n"));
            }
        } else if selected.len() > 1 {
            for letter in &selected {
                let description = LIMITS.iter().find(|(l, _, _)| l == letter).map(|(_, d, _)| *d).unwrap_or("");
                out.push_str(&format!("{description} {}\n", value_of(*letter)));
            }
        } else {
            out.push_str(&format!("{}\n", value_of(selected.first().copied().unwrap_or('f'))));
        }
        shell.out(out.as_bytes()).await?;
        Ok(0)
    })
}
