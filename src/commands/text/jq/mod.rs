//! `jq`: the JSON processor, as jq 1.7.1 behaves. The program is parsed
//! once ([`parse`]) into a tree with names resolved, then evaluated
//! ([`eval`]) for each input value; outputs are written as jq prints them
//! ([`json`]). Evaluation steps count against `maxJqIterations`.

mod ast;
mod builtins;
mod entries;
mod eval;
mod format;
mod funcs;
mod json;
mod lex;
mod modules;
mod ops;
mod parse;
mod paths;
mod prelude;
mod regex;
mod seq;
mod time;
mod value;

use crate::commands::text::input::read_all;
use crate::host::LocalFuture;
use crate::utility::Invocation;
use eval::{Cx, Flow, Inputs};
use json::{dump, Reader, Style};
use parse::{Parser, Program};
use std::rc::Rc;
use value::{Map, Value};

const DIE: &str =
    "Use jq --help for help with command-line options,\nor see the jq manpage, or online docs  at https://jqlang.github.io/jq\n";

const USAGE: &str = "Usage:\tjq [OPTIONS] FILTER [FILES...]\n\tjq [OPTIONS] --args FILTER [ARGUMENTS...]\n\tjq [OPTIONS] --jsonargs FILTER [JSON_VALUES...]\n\njq is a tool for processing JSON inputs, applying the given filter to\nits JSON text inputs and producing the filter's results as JSON on\nstandard output.\n";

/// The options of one run.
#[derive(Default)]
struct Opts {
    null_input: bool,
    raw_input: bool,
    slurp: bool,
    raw_output: bool,
    join: bool,
    nul: bool,
    ascii: bool,
    compact: bool,
    tab: bool,
    indent: usize,
    sort_keys: bool,
    color: bool,
    exit_status: bool,
    seq: bool,
    from_file: bool,
    filter: Option<String>,
    files: Vec<String>,
    named: Vec<(String, Value)>,
    positional: Vec<Value>,
    lib_dirs: Vec<String>,
}

/// The input values, read from the files (or stdin) in turn.
struct Source {
    files: Vec<(String, Vec<u8>)>,
    index: usize,
    pos: usize,
    line: usize,
    line_start: usize,
    raw: bool,
    /// `--seq`: RS-separated texts, read through `cursor`.
    seq: bool,
    cursor: seq::Cursor,
    current: Value,
    /// Set when an input could not be parsed: the message.
    failed: Option<String>,
    /// Keys and short strings shared across the input values.
    interner: json::Interner,
}

impl Inputs for Source {
    fn next_input(&mut self) -> Option<Result<Value, String>> {
        loop {
            let (name, data) = self.files.get(self.index)?;
            if self.raw {
                let rest = data.get(self.pos..).unwrap_or(&[]);
                if rest.is_empty() {
                    self.index += 1;
                    self.pos = 0;
                    continue;
                }
                let end = rest.iter().position(|b| *b == b'\n');
                let line = rest.get(..end.unwrap_or(rest.len())).unwrap_or(&[]);
                if self.pos == 0 {
                    self.line = 0;
                }
                self.pos += end.map(|e| e + 1).unwrap_or(rest.len());
                self.line += 1;
                self.current = Value::str(name);
                return Some(Ok(Value::str(&String::from_utf8_lossy(line))));
            }
            if self.pos == 0 {
                self.line = 0;
                self.line_start = 0;
            }
            if self.seq {
                let last = self.index + 1 == self.files.len();
                let r = seq::next(data, &mut self.cursor, last);
                self.line = self.cursor.line;
                match r {
                    None => {
                        self.index += 1;
                        self.pos = 0;
                        self.cursor = self.cursor.next_file();
                    }
                    Some(r) => {
                        self.pos = self.cursor.pos.max(1);
                        self.current = Value::str(name);
                        return Some(r);
                    }
                }
                continue;
            }
            let mut reader = Reader::resume(data, self.pos, self.line, self.line_start);
            reader.interner = std::mem::take(&mut self.interner);
            let next = reader.next_value();
            self.interner = std::mem::take(&mut reader.interner);
            match next {
                None => {
                    self.index += 1;
                    self.pos = 0;
                }
                Some(r) => {
                    self.line = reader.line;
                    self.line_start = reader.line_start();
                    self.pos = reader.position();
                    self.current = Value::str(name);
                    return Some(r.map_err(|e| {
                        self.failed = Some(e.clone());
                        e
                    }));
                }
            }
        }
    }

    fn filename(&self) -> Value {
        self.current.clone()
    }

    fn line(&self) -> usize {
        self.line
    }

    fn location(&self) -> String {
        Source::location(self)
    }
}

impl Source {
    fn location(&self) -> String {
        match &self.current {
            Value::Str(name) => format!("{name}:{}", self.line),
            _ => "<unknown>".to_string(),
        }
    }
}

/// Runs `jq [OPTIONS] FILTER [FILES...]`.
pub fn run<'a>(ctx: &'a mut Invocation<'_>) -> LocalFuture<'a, i32> {
    Box::pin(async move {
        let mut opts = match parse_args(ctx).await {
            Ok(o) => o,
            Err(status) => return status,
        };
        // Without a program and not on a terminal, jq runs `.`.
        let filter = opts.filter.take().unwrap_or_else(|| ".".to_string());
        let filter_name = filter.clone();
        let text = if opts.from_file {
            match ctx.fs.read_file(&ctx.resolve(&filter)).await {
                Ok(data) => String::from_utf8_lossy(&data).into_owned(),
                Err(e) => {
                    let _ = ctx.stderr.write(format!("jq: error: Could not open {filter}: {e}\n").as_bytes()).await;
                    return 2;
                }
            }
        } else {
            filter
        };
        let mut prog = Program::default();
        let env_obj = {
            let mut m = Map::new();
            for (k, v) in &ctx.env {
                m.insert(Rc::from(k.as_str()), Value::str(v));
            }
            Value::Obj(Rc::new(m))
        };
        prog.declare_global("ENV", env_obj.clone());
        {
            let mut p = Parser::new(prelude::PRELUDE, &mut prog);
            if let Err(e) = p.parse_defs() {
                let _ = ctx.stderr.write(format!("jq: internal error in builtins: {}\n", e.0).as_bytes()).await;
                return 3;
            }
        }
        let mut named = Map::new();
        for (k, v) in &opts.named {
            named.insert(Rc::from(k.as_str()), v.clone());
        }
        let args_obj = {
            let mut m = Map::new();
            m.insert(Rc::from("positional"), Value::arr(opts.positional.clone()));
            m.insert(Rc::from("named"), Value::Obj(Rc::new(named)));
            Value::Obj(Rc::new(m))
        };
        prog.declare_global("ARGS", args_obj);
        for (k, v) in &opts.named {
            prog.declare_global(k, v.clone());
        }
        let mut linker = modules::Linker::new(ctx, &opts.lib_dirs).await;
        // Relative module paths start at the program file's directory, or the working directory.
        let origin = if opts.from_file {
            let file = crate::fs::path::normalize(&ctx.cwd, &filter_name);
            file.rfind('/').and_then(|i| file.get(..i)).filter(|d| !d.is_empty()).unwrap_or("/").to_string()
        } else {
            ctx.cwd.clone()
        };
        let main = match linker.link_main(&mut prog, &text, &origin).await {
            Ok(ast) => ast,
            Err(e) => {
                let _ = ctx.stderr.write(format!("{e}\njq: 1 compile error\n").as_bytes()).await;
                return 3;
            }
        };
        let library = Rc::new(linker.library(text.contains("modulemeta"), &origin).await);
        // Read the inputs; a file that cannot be read is reported and skipped (status 2 at the end).
        let mut files = Vec::new();
        let mut input_errors = false;
        if opts.files.is_empty() {
            files.push(("<stdin>".to_string(), read_all(&ctx.stdin).await.unwrap_or_default()));
        } else {
            for name in &opts.files {
                match ctx.fs.read_file(&ctx.resolve(name)).await {
                    Ok(data) => files.push((name.clone(), data)),
                    Err(e) => {
                        let _ = ctx.stderr.write(format!("jq: error: Could not open file {name}: {e}\n").as_bytes()).await;
                        input_errors = true;
                    }
                }
            }
        }
        let mut source = Source {
            files,
            index: 0,
            pos: 0,
            line: 0,
            line_start: 0,
            raw: opts.raw_input,
            seq: opts.seq,
            cursor: seq::Cursor::new(),
            current: Value::Null,
            failed: None,
            interner: json::Interner::default(),
        };
        let style = Style {
            indent: if opts.compact { 0 } else { opts.indent },
            tab: opts.tab && !opts.compact,
            sort_keys: opts.sort_keys,
            ascii: opts.ascii,
            color: opts.color,
        };
        let now = ctx.host.now_millis();
        let shell: &dyn crate::utility::ShellServices = &*ctx.shell;
        let mut out = String::new();
        let mut err_text: Vec<u8> = Vec::new();
        let mut pending_inputs: Vec<Value> = Vec::new();
        if opts.slurp && !opts.null_input {
            if opts.raw_input {
                let mut all = Vec::new();
                for (_, d) in &source.files {
                    all.extend_from_slice(d);
                }
                source.index = source.files.len();
                pending_inputs.push(Value::str(&String::from_utf8_lossy(&all)));
            } else {
                let mut items = Vec::new();
                loop {
                    match source.next_input() {
                        Some(Ok(v)) => items.push(v),
                        Some(Err(e)) => {
                            let _ = ctx.stderr.write(format!("jq: parse error: {e}\n").as_bytes()).await;
                            return 2;
                        }
                        None => break,
                    }
                }
                pending_inputs.push(Value::arr(items));
            }
        }
        // jq's process() result of the last input: 0 ok, -1 last output false/null,
        // -4 no output, 5 error, or a halt code.
        let mut ret: i32 = -4;
        let mut last_result: i32 = -1;
        let mut stopped: Option<i32> = None;
        {
            let mut cx = Cx::new(&prog, shell, &mut source);
            cx.globals = prog.values.clone();
            cx.library = library;
            cx.now_millis = now;
            cx.env_value = env_obj;
            let mut first = true;
            loop {
                let input = if opts.null_input {
                    if !first {
                        break;
                    }
                    Value::Null
                } else if let Some(v) = pending_inputs.pop() {
                    v
                } else if opts.slurp {
                    break;
                } else {
                    match cx.inputs.next_input() {
                        Some(Ok(v)) => v,
                        Some(Err(e)) => {
                            if opts.seq {
                                err_text.extend_from_slice(format!("jq: ignoring parse error: {e}\n").as_bytes());
                                continue;
                            }
                            err_text.extend_from_slice(format!("jq: parse error: {e}\n").as_bytes());
                            ret = 5;
                            break;
                        }
                        None => break,
                    }
                };
                first = false;
                let mut this_ret: i32 = -4;
                let r = cx.eval(&main, &None, input, None, &mut |cx, v, _| {
                    match (&v, opts.raw_output) {
                        (Value::Str(s), true) => {
                            if opts.ascii {
                                dump(&v, &Style { ascii: true, ..Style::COMPACT }, 0, &mut out);
                            } else {
                                if opts.nul && s.contains('\0') {
                                    return Err(eval::err("Cannot dump a string containing NUL with --raw-output0 option"));
                                }
                                out.push_str(s);
                            }
                            this_ret = 0;
                        }
                        _ => {
                            this_ret = if v.truthy() { 0 } else { -1 };
                            if opts.seq {
                                out.push('\u{1e}');
                            }
                            dump(&v, &style, 0, &mut out);
                        }
                    }
                    if !opts.join {
                        out.push('\n');
                    }
                    if opts.nul {
                        out.push('\0');
                    }
                    if !cx.stderr.is_empty() {
                        err_text.append(&mut cx.stderr);
                    }
                    if out.len() > 256 << 20 {
                        return Err(Flow::Stop(Some("jq: error: output too large".to_string())));
                    }
                    Ok(())
                });
                err_text.append(&mut cx.stderr);
                match r {
                    Ok(()) => {}
                    Err(Flow::Err(e)) => {
                        let loc = location_of(&cx);
                        let msg = match &e {
                            Value::Str(s) => format!("jq: error (at {loc}): {s}\n"),
                            other => format!("jq: error (at {loc}) (not a string): {}\n", json::to_json(other)),
                        };
                        err_text.extend_from_slice(msg.as_bytes());
                        this_ret = 5;
                    }
                    Err(Flow::Break(_)) | Err(Flow::Down(_)) => {
                        let loc = location_of(&cx);
                        err_text.extend_from_slice(format!("jq: error (at {loc}): break\n").as_bytes());
                        this_ret = 5;
                    }
                    Err(Flow::Stop(message)) => {
                        match message {
                            Some(m) => {
                                let m = if m.starts_with("jq:") { m } else { format!("jq: error: {m}") };
                                err_text.extend_from_slice(format!("{m}\n").as_bytes());
                                stopped = Some(5);
                            }
                            None => stopped = Some(130),
                        }
                        break;
                    }
                    Err(Flow::Halt(code, value)) => {
                        match &value {
                            Some(Value::Str(s)) => err_text.extend_from_slice(s.as_bytes()),
                            Some(Value::Null) | None => {}
                            Some(other) => {
                                err_text.extend_from_slice(json::to_json(other).as_bytes());
                                err_text.push(b'\n');
                            }
                        }
                        stopped = Some(code);
                        break;
                    }
                }
                ret = this_ret;
                if ret <= 0 && ret != -4 {
                    last_result = i32::from(ret != -1);
                }
            }
            if let Err(Flow::Stop(Some(m))) = cx.flush_steps() {
                if stopped.is_none() {
                    err_text.extend_from_slice(format!("jq: error: {m}\n").as_bytes());
                    stopped = Some(5);
                }
            }
        }
        if let Err(error) = ctx.write_out(out.as_bytes()).await {
            return crate::utility::write_failure_status(error);
        }
        let _ = ctx.stderr.write(&err_text).await;
        if let Some(code) = stopped {
            return code;
        }
        if input_errors {
            ret = 2;
        }
        if opts.exit_status {
            if ret != -4 {
                return ret.abs();
            }
            return match last_result {
                -1 => 4,
                0 => 1,
                _ => 0,
            };
        }
        ret.max(0)
    })
}

fn location_of(cx: &Cx<'_>) -> String {
    cx.inputs.location()
}

async fn parse_args(ctx: &Invocation<'_>) -> Result<Opts, i32> {
    let mut o = Opts { indent: 2, ..Opts::default() };
    let args: Vec<String> = ctx.args.get(1..).unwrap_or(&[]).to_vec();
    let mut i = 0;
    let mut positional_mode: Option<bool> = None; // Some(json?)
    let mut rest_positional = false;
    while i < args.len() {
        let a = args.get(i).cloned().unwrap_or_default();
        i += 1;
        let optish = a.starts_with('-') && a.chars().nth(1).is_some_and(|c| c == '-' || c.is_ascii_alphabetic());
        if rest_positional || !optish {
            if o.filter.is_none() {
                o.filter = Some(a);
            } else if let Some(json) = positional_mode {
                if json {
                    match json::parse_one(&a) {
                        Ok(v) => o.positional.push(v),
                        Err(_) => {
                            let _ = ctx.stderr.write(format!("jq: invalid JSON text passed to --jsonargs\n{DIE}").as_bytes()).await;
                            return Err(2);
                        }
                    }
                } else {
                    o.positional.push(Value::str(&a));
                }
            } else {
                o.files.push(a);
            }
            continue;
        }
        if a == "--" {
            rest_positional = true;
            continue;
        }
        let need = |n: usize, i: usize| -> bool { i + n <= args.len() };
        if let Some(long) = a.strip_prefix("--") {
            match long {
                "null-input" => o.null_input = true,
                "raw-input" => o.raw_input = true,
                "slurp" => o.slurp = true,
                "raw-output" => o.raw_output = true,
                "join-output" => {
                    o.raw_output = true;
                    o.join = true
                }
                "raw-output0" => {
                    o.raw_output = true;
                    o.join = true;
                    o.nul = true
                }
                "ascii-output" => o.ascii = true,
                "compact-output" => o.compact = true,
                "tab" => o.tab = true,
                "sort-keys" => o.sort_keys = true,
                "color-output" => o.color = true,
                "monochrome-output" => o.color = false,
                "exit-status" => o.exit_status = true,
                "seq" => o.seq = true,
                "stream" | "stream-errors" | "unbuffered" => {}
                "from-file" => o.from_file = true,
                "args" => positional_mode = Some(false),
                "jsonargs" => positional_mode = Some(true),
                "indent" => {
                    if !need(1, i) {
                        let _ = ctx.stderr.write(b"jq: --indent takes one parameter\n").await;
                        return Err(2);
                    }
                    let n: i64 = args.get(i).and_then(|s| s.parse().ok()).unwrap_or(-1);
                    i += 1;
                    if !(0..=7).contains(&n) {
                        let _ = ctx.stderr.write(b"jq: Cannot indent more than 7 characters\n").await;
                        return Err(2);
                    }
                    o.indent = n as usize;
                }
                "arg" | "argjson" | "slurpfile" | "rawfile" => {
                    if !need(2, i) {
                        let _ =
                            ctx.stderr.write(format!("jq: --{long} takes two parameters (e.g. --{long} varname value)\n").as_bytes()).await;
                        return Err(2);
                    }
                    let name = args.get(i).cloned().unwrap_or_default();
                    let val = args.get(i + 1).cloned().unwrap_or_default();
                    i += 2;
                    let v = match long {
                        "arg" => Value::str(&val),
                        "argjson" => match json::parse_one(&val) {
                            Ok(v) => v,
                            Err(_) => {
                                let _ = ctx.stderr.write(format!("jq: Invalid JSON text passed to --argjson\n").as_bytes()).await;
                                return Err(2);
                            }
                        },
                        _ => {
                            let data = match ctx.fs.read_file(&ctx.resolve(&val)).await {
                                Ok(d) => d,
                                Err(e) => {
                                    let _ = ctx.stderr.write(format!("jq: error: Could not open {val}: {e}\n").as_bytes()).await;
                                    return Err(2);
                                }
                            };
                            if long == "rawfile" {
                                Value::str(&String::from_utf8_lossy(&data))
                            } else {
                                let mut r = Reader::new(&data);
                                let mut items = Vec::new();
                                while let Some(v) = r.next_value() {
                                    match v {
                                        Ok(v) => items.push(v),
                                        Err(e) => {
                                            let _ = ctx
                                                .stderr
                                                .write(format!("jq: Bad JSON in --slurpfile {name} {val}: {e}\n").as_bytes())
                                                .await;
                                            return Err(2);
                                        }
                                    }
                                }
                                Value::arr(items)
                            }
                        }
                    };
                    o.named.push((name, v));
                }
                "help" => {
                    let _ = ctx.write_out(USAGE.as_bytes()).await;
                    return Err(0);
                }
                "version" => {
                    let _ = ctx.write_out(b"jq-1.7.1\n").await;
                    return Err(0);
                }
                _ => {
                    let _ = ctx.stderr.write(format!("jq: Unknown option {a}\n{DIE}").as_bytes()).await;
                    return Err(2);
                }
            }
            continue;
        }
        if let Some(dir) = a.strip_prefix("-L") {
            if !dir.is_empty() {
                o.lib_dirs.push(dir.to_string());
            } else if let Some(dir) = args.get(i) {
                o.lib_dirs.push(dir.clone());
                i += 1;
            } else {
                let _ = ctx.stderr.write(format!("-L takes a parameter: (e.g. -L /search/path or -L/search/path)\n{DIE}").as_bytes()).await;
                return Err(2);
            }
            continue;
        }
        let mut count = 0;
        for c in "nRsrjacSCMefhV".chars() {
            if !a.contains(c) {
                continue;
            }
            count += 1;
            match c {
                'n' => o.null_input = true,
                'R' => o.raw_input = true,
                's' => o.slurp = true,
                'r' => o.raw_output = true,
                'j' => {
                    o.raw_output = true;
                    o.join = true
                }
                'a' => o.ascii = true,
                'c' => o.compact = true,
                'S' => o.sort_keys = true,
                'C' => o.color = true,
                'M' => o.color = false,
                'e' => o.exit_status = true,
                'f' => o.from_file = true,
                'h' => {
                    let _ = ctx.write_out(USAGE.as_bytes()).await;
                    return Err(0);
                }
                _ => {
                    let _ = ctx.write_out(b"jq-1.7.1\n").await;
                    return Err(0);
                }
            }
        }
        if a.len() != count + 1 {
            let _ = ctx.stderr.write(format!("jq: Unknown option {a}\n{DIE}").as_bytes()).await;
            return Err(2);
        }
    }
    if o.tab {
        o.indent = 1;
    }
    Ok(o)
}

#[cfg(test)]
mod tests {
    use crate::commands::test_support::{new_fs, run_utility};

    fn jq(args: &[&str], stdin: &str) -> (String, String, i32) {
        let mut argv = vec!["jq"];
        argv.extend_from_slice(args);
        let out = run_utility(&new_fs(), &argv, stdin.as_bytes());
        (out.stdout, out.stderr, out.status)
    }

    #[test]
    fn endless_programs_hit_the_step_limit() {
        for program in ["repeat(1)", "[range(1e12)]", "def f: f; f", "[limit(1e9; repeat(1))] | length", "until(false; .)"] {
            let (_, stderr, status) = jq(&["-n", program], "");
            assert_eq!(status, 5, "{program}: {stderr}");
            assert!(stderr.contains("jq iteration limit") || stderr.contains("nested too deeply"), "{program}: {stderr}");
        }
    }

    #[test]
    fn deep_recursion_is_an_error_not_a_stack_overflow() {
        for program in ["def f: [f]; f", "def f: 1 + f; f", "def f(g): f(g + 1); f(0)", "[recurse(.+1)]"] {
            let (_, stderr, status) = jq(&["-n", program], "");
            assert_eq!(status, 5, "{program}: {stderr}");
            assert!(stderr.contains("nested too deeply") || stderr.contains("limit"), "{program}: {stderr}");
        }
    }

    #[test]
    fn deeply_nested_input_is_refused_or_handled() {
        let deep = format!("{}{}", "[".repeat(20000), "]".repeat(20000));
        let (_, stderr, status) = jq(&["-c", "."], &deep);
        assert_eq!(status, 5, "{stderr}");
        assert!(stderr.starts_with("jq: parse error: Exceeds depth limit for parsing"), "{stderr}");
        let ok = format!("{}{}", "[".repeat(500), "]".repeat(500));
        let (stdout, _, status) = jq(&["-c", "."], &ok);
        assert_eq!(status, 0);
        assert_eq!(stdout.len(), 1001);
    }

    #[test]
    fn numbers_print_as_jq_1_7() {
        let (stdout, _, _) = jq(&["-c", "., .[0] + 0"], "[1.0, 1e1000, 100000000000000000000, 0.1]\n");
        assert_eq!(stdout, "[1.0,1E+1000,100000000000000000000,0.1]\n1\n");
    }
}
