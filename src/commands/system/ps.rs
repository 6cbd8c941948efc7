//! `ps`: the sandbox's own processes only (the shell, its running
//! background jobs, and `ps` itself), in procps' formats: the default
//! columns, `-f`, BSD `aux`, and `-o LIST`; `-e`/`-A`/`ax` select all,
//! `-p PID` some, `--no-headers`/`h` drop the header.

use crate::fs::layout::{SANDBOX_UID, USER_NAME};
use crate::host::LocalFuture;
use crate::utility::{write_failure_status, Invocation, Process};

/// One output column: its key in `-o`, header, width and alignment.
#[derive(Clone, Copy)]
struct Column {
    key: &'static str,
    header: &'static str,
    width: usize,
    right: bool,
}

const COLUMNS: &[Column] = &[
    Column { key: "pid", header: "PID", width: 7, right: true },
    Column { key: "ppid", header: "PPID", width: 7, right: true },
    Column { key: "uid", header: "UID", width: 5, right: true },
    Column { key: "user", header: "USER", width: 8, right: false },
    Column { key: "c", header: "C", width: 2, right: true },
    Column { key: "stime", header: "STIME", width: 5, right: false },
    Column { key: "tty", header: "TT", width: 8, right: false },
    Column { key: "stat", header: "STAT", width: 4, right: false },
    Column { key: "time", header: "TIME", width: 8, right: true },
    Column { key: "comm", header: "COMMAND", width: 0, right: false },
    Column { key: "args", header: "COMMAND", width: 0, right: false },
    Column { key: "cmd", header: "CMD", width: 0, right: false },
    Column { key: "command", header: "COMMAND", width: 0, right: false },
];

/// Output formats the options choose between.
enum Format {
    /// `PID TTY TIME CMD`.
    Default,
    /// `-f`: `UID PID PPID C STIME TTY TIME CMD`.
    Full,
    /// BSD `u`: `USER PID %CPU %MEM VSZ RSS TTY STAT START TIME COMMAND`.
    User,
    /// `-o LIST`: the named columns, each with its header or a given one.
    Custom(Vec<(Column, Option<String>)>),
}

/// What the command line asked for.
struct Request {
    format: Format,
    pids: Vec<u32>,
    headers: bool,
}

fn usage_error(kind: &str) -> String {
    format!(
        "error: {kind}\n\nUsage:\n ps [options]\n\n Try 'ps --help <simple|list|output|threads|misc|all>'\n  or 'ps --help <s|l|o|t|m|a>'\n for additional help text.\n\nFor more details see ps(1).\n"
    )
}

fn column(key: &str) -> Option<Column> {
    COLUMNS.iter().copied().find(|c| c.key == key)
}

fn parse_columns(list: &str) -> Result<Vec<(Column, Option<String>)>, String> {
    let mut columns = Vec::new();
    for item in list.split([',', ' ']).filter(|item| !item.is_empty()) {
        let (key, header) = match item.split_once('=') {
            Some((key, header)) => (key, Some(header.to_string())),
            None => (item, None),
        };
        let Some(found) = column(key) else {
            return Err(usage_error(&format!("unknown user-defined format specifier \"{key}\"")));
        };
        columns.push((found, header));
    }
    Ok(columns)
}

fn parse_pids(list: &str) -> Result<Vec<u32>, String> {
    list.split([',', ' ']).filter(|p| !p.is_empty()).map(|p| p.parse().map_err(|_| usage_error("process ID list syntax error"))).collect()
}

fn parse_request(args: &[String]) -> Result<Request, String> {
    let mut request = Request { format: Format::Default, pids: Vec::new(), headers: true };
    let mut words = args.iter();
    while let Some(word) = words.next() {
        if let Some(long) = word.strip_prefix("--") {
            let (name, value) = match long.split_once('=') {
                Some((name, value)) => (name, Some(value.to_string())),
                None => (long, None),
            };
            let mut value_or_next =
                || value.clone().or_else(|| words.next().cloned()).ok_or_else(|| usage_error("list of process IDs must follow --pid"));
            match name {
                "no-headers" | "no-heading" => request.headers = false,
                "pid" => request.pids.extend(parse_pids(&value_or_next()?)?),
                "format" => request.format = Format::Custom(parse_columns(&value_or_next()?)?),
                _ => return Err(usage_error("unknown gnu long option")),
            }
        } else if let Some(letters) = word.strip_prefix('-') {
            for (index, letter) in letters.char_indices() {
                match letter {
                    'e' | 'A' | 'a' | 'd' | 'N' => {}
                    'f' | 'F' => request.format = Format::Full,
                    'o' | 'p' => {
                        let rest = &letters[index + letter.len_utf8()..];
                        let value = if rest.is_empty() { words.next().cloned() } else { Some(rest.to_string()) };
                        let Some(value) = value else {
                            return Err(usage_error(if letter == 'o' {
                                "improper format list"
                            } else {
                                "list of process IDs must follow -p"
                            }));
                        };
                        if letter == 'o' {
                            request.format = Format::Custom(parse_columns(&value)?);
                        } else {
                            request.pids.extend(parse_pids(&value)?);
                        }
                        break;
                    }
                    _ => return Err(usage_error("unsupported SysV option")),
                }
            }
        } else {
            for letter in word.chars() {
                match letter {
                    'a' | 'x' | 'e' | 'w' => {}
                    'u' => request.format = Format::User,
                    'h' => request.headers = false,
                    _ => return Err(usage_error("unsupported option (BSD syntax)")),
                }
            }
        }
    }
    Ok(request)
}

/// The command name of a job's command line: its first word, or `bash` for
/// a compound command or function (a subshell of the script).
fn command_name(command: &str, is_program: impl Fn(&str) -> bool) -> String {
    let first = command.split_whitespace().next().unwrap_or("bash");
    let base = first.rsplit('/').next().unwrap_or(first);
    if is_program(base) {
        base.to_string()
    } else {
        "bash".to_string()
    }
}

fn cell(process: &Process, name: &str, key: &str) -> String {
    match key {
        "pid" => process.pid.to_string(),
        "ppid" => process.parent_pid.to_string(),
        "uid" => SANDBOX_UID.to_string(),
        "user" => USER_NAME.to_string(),
        "c" => "0".to_string(),
        "stime" => "00:00".to_string(),
        "tty" => "?".to_string(),
        "stat" => if name == "ps" { "R" } else { "S" }.to_string(),
        "time" => "00:00:00".to_string(),
        "comm" => name.to_string(),
        _ => {
            if name == "bash" {
                "bash".to_string()
            } else {
                process.command.clone()
            }
        }
    }
}

fn pad(text: &str, width: usize, right: bool) -> String {
    if right {
        format!("{text:>width$}")
    } else {
        format!("{text:<width$}")
    }
}

/// The columns of a standard format: `TTY` for `TT`, and UID as wide as a
/// user name.
fn standard_columns(keys: &[&str]) -> Vec<(Column, String)> {
    keys.iter()
        .filter_map(|key| column(if *key == "ucmd" { "comm" } else { key }).map(|c| (key, c)))
        .map(|(key, c)| match c.key {
            "uid" => (Column { width: 8, right: false, ..c }, c.header.to_string()),
            "tty" => (c, "TTY".to_string()),
            "comm" if *key == "ucmd" => (c, "CMD".to_string()),
            _ => (c, c.header.to_string()),
        })
        .collect()
}

fn render(request: &Request, processes: &[(Process, String)]) -> String {
    let columns: Vec<(Column, String)> = match &request.format {
        Format::Default => standard_columns(&["pid", "tty", "time", "ucmd"]),
        Format::Full => standard_columns(&["uid", "pid", "ppid", "c", "stime", "tty", "time", "cmd"]),
        Format::User => Vec::new(),
        Format::Custom(list) => list.iter().map(|(c, header)| (*c, header.clone().unwrap_or_else(|| c.header.to_string()))).collect(),
    };
    let mut text = String::new();
    if let Format::User = request.format {
        if request.headers {
            text.push_str("USER         PID %CPU %MEM    VSZ   RSS TTY      STAT START   TIME COMMAND\n");
        }
        for (process, name) in processes {
            let stat = cell(process, name, "stat");
            text.push_str(&format!(
                "{:<8} {:>7}  0.0  0.0      0     0 ?        {stat:<4} 00:00   0:00 {}\n",
                USER_NAME,
                process.pid,
                cell(process, name, "args")
            ));
        }
        return text;
    }
    let full = matches!(request.format, Format::Full);
    let mut rows: Vec<Vec<String>> = Vec::new();
    if request.headers && columns.iter().any(|(_, header)| !header.is_empty()) {
        rows.push(columns.iter().map(|(_, header)| header.clone()).collect());
    }
    for (process, name) in processes {
        // `-f` shows the user's name under UID.
        rows.push(columns.iter().map(|(c, _)| cell(process, name, if full && c.key == "uid" { "user" } else { c.key })).collect());
    }
    for row in rows {
        let last = columns.len().saturating_sub(1);
        let line: Vec<String> = row
            .iter()
            .zip(&columns)
            .enumerate()
            .map(|(i, (value, (c, _)))| if i == last && !c.right { value.clone() } else { pad(value, c.width, c.right) })
            .collect();
        text.push_str(line.join(" ").trim_end());
        text.push('\n');
    }
    text
}

/// Runs `ps [OPTIONS]`.
pub fn run<'a>(ctx: &'a mut Invocation<'_>) -> LocalFuture<'a, i32> {
    Box::pin(async move {
        let args = ctx.args.get(1..).unwrap_or(&[]).to_vec();
        let request = match parse_request(&args) {
            Ok(request) => request,
            Err(message) => {
                let _ = ctx.stderr.write(message.as_bytes()).await;
                return 1;
            }
        };
        let mut processes = ctx.shell.processes();
        let shell_pid = processes.first().map_or(1, |p| p.pid);
        let own_pid = processes.iter().map(|p| p.pid).max().unwrap_or(0) + 1;
        processes.push(Process {
            pid: own_pid,
            parent_pid: shell_pid,
            command: args.iter().fold("ps".to_string(), |line, a| line + " " + a),
        });
        let shell = &*ctx.shell;
        let named: Vec<(Process, String)> = processes
            .into_iter()
            .filter(|p| request.pids.is_empty() || request.pids.contains(&p.pid))
            .map(|p| {
                let name =
                    if p.pid == own_pid { "ps".to_string() } else { command_name(&p.command, |n| n != "bash" && shell.command_exists(n)) };
                (p, name)
            })
            .collect();
        let status = if named.is_empty() { 1 } else { 0 };
        match ctx.write_out(render(&request, &named).as_bytes()).await {
            Ok(()) => status,
            Err(error) => write_failure_status(error),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn listing(args: &[&str]) -> String {
        let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
        let request = parse_request(&args).unwrap_or_else(|message| panic!("{message}"));
        let processes = vec![
            (Process { pid: 10, parent_pid: 1, command: "bash".into() }, "bash".to_string()),
            (Process { pid: 11, parent_pid: 10, command: "sleep 5".into() }, "sleep".to_string()),
        ];
        render(&request, &processes)
    }

    #[test]
    fn default_columns_show_the_command_name() {
        assert_eq!(listing(&[]), "    PID TTY          TIME CMD\n     10 ?        00:00:00 bash\n     11 ?        00:00:00 sleep\n");
    }

    #[test]
    fn full_format_and_custom_columns() {
        assert!(listing(&["-ef"]).contains("user          11      10  0 00:00 ?        00:00:00 sleep 5\n"));
        assert_eq!(listing(&["-o", "pid=,comm="]), "     10 bash\n     11 sleep\n");
        assert_eq!(listing(&["--no-headers", "-o", "ppid"]), "      1\n     10\n");
    }

    #[test]
    fn unknown_options_are_refused() {
        assert!(parse_request(&["-Q".to_string()]).is_err_and(|m| m.starts_with("error: unsupported SysV option")));
        assert!(parse_request(&["-o".to_string(), "bogus".to_string()]).is_err());
    }
}
