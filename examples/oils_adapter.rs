//! A development adapter for the Oils spec runner (`oils_spec.py --shell`):
//! runs `-c SCRIPT` natively in a sandbox with the case directory and
//! REPO_ROOT copied in, and the corpus's helper programs (argv.py, ...)
//! provided as utilities. The JS adapter (custom commands) replaces it for
//! the official measurement; this one makes iterating on semantics fast.
//!
//! Build: `cargo build --release --example oils_adapter`.

use std::io::Write;
use std::rc::Rc;
use wabash::fs::Fs;
use wabash::host::LocalFuture;
use wabash::interp::{Invocation, Utility};
use wabash::{ExecOptions, Sandbox, SandboxOptions};

fn python_bytes_repr(bytes: &[u8]) -> String {
    let quote = if bytes.contains(&b'\'') && !bytes.contains(&b'"') { '"' } else { '\'' };
    let mut out = String::new();
    out.push(quote);
    for &b in bytes {
        match b {
            b'\\' => out.push_str("\\\\"),
            b'\n' => out.push_str("\\n"),
            b'\t' => out.push_str("\\t"),
            b'\r' => out.push_str("\\r"),
            b if b as char == quote => {
                out.push('\\');
                out.push(quote);
            }
            0x20..=0x7e => out.push(b as char),
            _ => out.push_str(&format!("\\x{b:02x}")),
        }
    }
    out.push(quote);
    out
}

fn argv_py<'a>(ctx: &'a mut Invocation<'_>) -> LocalFuture<'a, i32> {
    Box::pin(async move {
        let items: Vec<String> = ctx.args[1..].iter().map(|a| python_bytes_repr(a.as_bytes())).collect();
        let line = format!("[{}]\n", items.join(", "));
        let _ = ctx.write_out(line.as_bytes()).await;
        0
    })
}

fn printenv_py<'a>(ctx: &'a mut Invocation<'_>) -> LocalFuture<'a, i32> {
    Box::pin(async move {
        let mut out = String::new();
        for name in &ctx.args[1..] {
            out.push_str(ctx.env_var(name).unwrap_or("None"));
            out.push('\n');
        }
        let _ = ctx.write_out(out.as_bytes()).await;
        0
    })
}

fn stdout_stderr_py<'a>(ctx: &'a mut Invocation<'_>) -> LocalFuture<'a, i32> {
    Box::pin(async move {
        let out = ctx.args.get(1).cloned().unwrap_or_else(|| "STDOUT".into());
        let err = ctx.args.get(2).cloned().unwrap_or_else(|| "STDERR".into());
        let status = ctx.args.get(3).and_then(|s| s.parse().ok()).unwrap_or(0);
        let _ = ctx.stderr.write(format!("{err}\n").as_bytes()).await;
        let _ = ctx.write_out(format!("{out}\n").as_bytes()).await;
        status
    })
}

fn read_from_fd_py<'a>(ctx: &'a mut Invocation<'_>) -> LocalFuture<'a, i32> {
    Box::pin(async move {
        let fds: Vec<String> = ctx.args.drain(1..).collect();
        for arg in fds {
            let Some(stream) = ctx.special_stream(&format!("/dev/fd/{arg}")) else {
                let _ = ctx.stderr.write(format!("FATAL: Error reading from fd {arg}: [Errno 9] Bad file descriptor\n").as_bytes()).await;
                return 1;
            };
            let data = stream.read(1024).await.unwrap_or_default();
            let mut out = format!("{arg}: ").into_bytes();
            out.extend_from_slice(&data);
            let _ = ctx.write_out(&out).await;
        }
        0
    })
}

fn copy_tree(fs: &wabash::fs::MemoryFs, host_dir: &std::path::Path, sandbox_dir: &str) {
    let mut prefix = String::new();
    for part in sandbox_dir.split('/').filter(|p| !p.is_empty()) {
        prefix.push('/');
        prefix.push_str(part);
        let _ = wabash::executor::block_on(fs.create_dir(&prefix, 0o755));
    }
    let Ok(entries) = std::fs::read_dir(host_dir) else { return };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let target = format!("{}/{}", sandbox_dir.trim_end_matches('/'), name);
        let Ok(meta) = std::fs::symlink_metadata(entry.path()) else { continue };
        if meta.file_type().is_symlink() {
            if let Ok(link) = std::fs::read_link(entry.path()) {
                let _ = wabash::executor::block_on(fs.symlink(&link.to_string_lossy(), &target));
            }
        } else if meta.is_dir() {
            copy_tree(fs, &entry.path(), &target);
        } else if let Ok(bytes) = std::fs::read(entry.path()) {
            let _ = wabash::executor::block_on(fs.write_file(&target, &bytes));
            use std::os::unix::fs::PermissionsExt;
            let _ = wabash::executor::block_on(fs.set_mode(&target, meta.permissions().mode() & 0o7777));
        }
    }
}

fn main() {
    // The interpreter recurses; give it room (debug builds use large frames).
    let code = std::thread::Builder::new().stack_size(256 << 20).spawn(run).map(|h| h.join().unwrap_or(70)).unwrap_or(70);
    std::process::exit(code);
}

fn run() -> i32 {
    let args: Vec<String> = std::env::args().collect();
    let Some(position) = args.iter().position(|a| a == "-c") else {
        eprintln!("usage: oils_adapter -c SCRIPT");
        return 2;
    };
    let script = args.get(position + 1).cloned().unwrap_or_default();
    let cwd = std::env::current_dir().map(|p| p.to_string_lossy().into_owned()).unwrap_or_else(|_| "/tmp".into());
    let env: Vec<(String, String)> =
        std::env::vars().filter(|(k, _)| matches!(k.as_str(), "TMP" | "REPO_ROOT" | "SH" | "LC_ALL")).collect();
    let helpers = vec![
        Utility { name: "argv.py", run: argv_py },
        Utility { name: "printenv.py", run: printenv_py },
        Utility { name: "stdout_stderr.py", run: stdout_stderr_py },
        Utility { name: "read_from_fd.py", run: read_from_fd_py },
    ];
    let host: Rc<dyn wabash::host::Host> = Rc::new(wabash::host::FixedHost::default());
    let result = wabash::executor::block_on(async {
        let options = SandboxOptions { env, cwd: Some(cwd.clone()), extra_utilities: helpers, ..Default::default() };
        let mut sandbox = Sandbox::new(options, host).await;
        copy_tree(sandbox.fs(), std::path::Path::new(&cwd), &cwd);
        if let Ok(root) = std::env::var("REPO_ROOT") {
            copy_tree(sandbox.fs(), std::path::Path::new(&root), &root);
        }
        sandbox.exec(&script, ExecOptions::default()).await
    });
    let _ = std::io::stdout().write_all(&result.stdout);
    let _ = std::io::stderr().write_all(&result.stderr);
    result.exit_code
}
