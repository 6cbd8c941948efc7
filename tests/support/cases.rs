//! Reading case files (`tests/cases/**/*.cases`, format in
//! `tests/cases/README.md`) and running them in a sandbox.

use std::path::{Path, PathBuf};
use std::rc::Rc;
use wabash::fs::Fs;
use wabash::{ExecOptions, Sandbox, SandboxOptions};

/// One section of a case.
#[derive(Debug, Clone)]
pub struct Section {
    /// `script`, `stdin`, `file`, `stdout`, `stderr`, `status`, `expect-file`.
    pub kind: String,
    /// The argument after the kind (a path, or the status number).
    pub arg: String,
    /// The body.
    pub body: String,
}

/// One case.
#[derive(Debug, Clone)]
pub struct Case {
    /// The file it came from.
    pub file: PathBuf,
    /// The name after `===`.
    pub name: String,
    /// Its sections.
    pub sections: Vec<Section>,
}

impl Case {
    fn section(&self, kind: &str) -> Option<&Section> {
        self.sections.iter().find(|s| s.kind == kind)
    }

    /// The identifier used in the known-failures list: `file-stem::name`.
    pub fn id(&self) -> String {
        format!("{}::{}", self.file.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default(), self.name)
    }
}

/// Parses a case file.
pub fn parse(path: &Path, text: &str) -> Vec<Case> {
    let mut cases: Vec<Case> = Vec::new();
    let mut lines: Vec<&str> = text.split('\n').collect();
    if lines.last() == Some(&"") {
        lines.pop();
    }
    let mut current: Option<(String, bool, Vec<String>)> = None;
    let flush = |cases: &mut Vec<Case>, current: &mut Option<(String, bool, Vec<String>)>| {
        if let (Some(case), Some((header, no_newline, body))) = (cases.last_mut(), current.take()) {
            let (kind, arg) =
                header.split_once(' ').map(|(k, a)| (k.to_string(), a.to_string())).unwrap_or((header.clone(), String::new()));
            let mut text = body.join("\n");
            if !body.is_empty() && !no_newline {
                text.push('\n');
            }
            case.sections.push(Section { kind, arg, body: text });
        }
    };
    for line in lines {
        if let Some(name) = line.strip_prefix("=== ") {
            flush(&mut cases, &mut current);
            cases.push(Case { file: path.to_path_buf(), name: name.to_string(), sections: Vec::new() });
        } else if let Some(header) = line.strip_prefix("--- ") {
            flush(&mut cases, &mut current);
            let (header, no_newline) = match header.strip_suffix(" %") {
                Some(h) => (h.to_string(), true),
                None => (header.to_string(), false),
            };
            current = Some((header, no_newline, Vec::new()));
        } else if let Some((_, _, body)) = current.as_mut() {
            body.push(line.to_string());
        }
    }
    flush(&mut cases, &mut current);
    cases
}

/// All case files under `dir`, sorted.
pub fn case_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "cases") {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// Runs a case; `Err` describes every mismatch.
pub fn run(case: &Case) -> Result<(), String> {
    let host: Rc<dyn wabash::host::Host> = Rc::new(wabash::host::FixedHost::default());
    let script = case.section("script").map(|s| s.body.trim_end_matches('\n').to_string()).unwrap_or_default();
    let stdin = case.section("stdin").map(|s| s.body.clone()).unwrap_or_default();
    let files: Vec<(String, Vec<u8>)> =
        case.sections.iter().filter(|s| s.kind == "file").map(|s| (s.arg.clone(), s.body.clone().into_bytes())).collect();
    let (result, file_contents) = wabash::executor::block_on(async {
        let mut sandbox = Sandbox::new(SandboxOptions { files, ..Default::default() }, host).await;
        let result = sandbox.exec(&script, ExecOptions { stdin: stdin.into_bytes(), ..Default::default() }).await;
        let mut contents = Vec::new();
        for section in case.sections.iter().filter(|s| s.kind == "expect-file") {
            let path = wabash::fs::path::normalize("/home/user", &section.arg);
            let bytes = sandbox.fs().read_file(&path).await.unwrap_or_default();
            contents.push((section.arg.clone(), String::from_utf8_lossy(&bytes).into_owned(), section.body.clone()));
        }
        (result, contents)
    });
    let mut problems = Vec::new();
    let expected_stdout = case.section("stdout").map(|s| s.body.clone()).unwrap_or_default();
    let expected_stderr = case.section("stderr").map(|s| s.body.clone()).unwrap_or_default();
    let expected_status: i32 = case.section("status").and_then(|s| s.arg.trim().parse().ok()).unwrap_or(0);
    if result.stdout_text() != expected_stdout {
        problems.push(format!("stdout:\n  expected {expected_stdout:?}\n  actual   {:?}", result.stdout_text()));
    }
    if result.stderr_text() != expected_stderr {
        problems.push(format!("stderr:\n  expected {expected_stderr:?}\n  actual   {:?}", result.stderr_text()));
    }
    if result.exit_code != expected_status {
        problems.push(format!("status: expected {expected_status}, actual {}", result.exit_code));
    }
    for (name, actual, expected) in file_contents {
        if actual != expected {
            problems.push(format!("file {name}:\n  expected {expected:?}\n  actual   {actual:?}"));
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems.join("\n"))
    }
}
