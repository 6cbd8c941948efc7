//! Commands the host defines (JS custom commands), run like registered
//! utilities: the interpreter finds them after functions and builtins, and
//! this one utility forwards each call to [`Host::run_command`].
//!
//! The command receives its whole standard input, read before the call (up
//! to [`STDIN_LIMIT`] bytes; more is an error, never a silent cut), unless
//! the host reads it as it arrives ([`Host::commands_stream_stdin`]). It
//! may write output while it runs, returns the rest at its end, and may run
//! scripts back in the sandbox, all through [`HostCommandShell`].
//!
//! [`Host::commands_stream_stdin`]: crate::host::Host::commands_stream_stdin
//!
//! [`Host::run_command`]: crate::host::Host::run_command

use crate::host::{HostCommandCall, HostCommandOutput, HostCommandShell, LocalFuture};
use crate::interp::{write_failure_status, Invocation, ShellServices};
use crate::io::{Capture, Fd, Stream};
use std::rc::Rc;

/// Most bytes of standard input a host command receives.
pub const STDIN_LIMIT: usize = 64 << 20;

/// Most bytes of output a script run back by a host command may produce, per stream.
const NESTED_OUTPUT_LIMIT: usize = 64 << 20;

/// The utility every host command is registered with.
pub fn run<'a>(ctx: &'a mut Invocation<'_>) -> LocalFuture<'a, i32> {
    Box::pin(async move {
        let typed = ctx.name().to_string();
        let name = typed.rsplit('/').next().unwrap_or(&typed).to_string();
        let stdin = if ctx.host.commands_stream_stdin() {
            Vec::new()
        } else {
            let Some(stdin) = read_stdin(&ctx.stdin).await else {
                ctx.report(&format!("standard input is larger than the {STDIN_LIMIT}-byte limit of host commands")).await;
                return 1;
            };
            stdin
        };
        let mut argv = ctx.args.clone();
        if let Some(first) = argv.first_mut() {
            first.clone_from(&name);
        }
        let call = HostCommandCall { argv, stdin, cwd: ctx.cwd.clone(), env: ctx.env.clone() };
        let host = ctx.host.clone();
        let output = {
            let mut nested =
                NestedShell { shell: &mut *ctx.shell, stdin: ctx.stdin.clone(), stdout: ctx.stdout.clone(), stderr: ctx.stderr.clone() };
            host.run_command(call, &mut nested).await
        };
        if let Err(error) = ctx.stderr.write(&output.stderr).await {
            return write_failure_status(error);
        }
        if let Err(error) = ctx.write_out(&output.stdout).await {
            return write_failure_status(error);
        }
        output.status
    })
}

/// Reads standard input to its end; `None` when it is longer than the limit.
async fn read_stdin(stdin: &Fd) -> Option<Vec<u8>> {
    let mut data = Vec::new();
    loop {
        let chunk = stdin.read(64 << 10).await.unwrap_or_default();
        if chunk.is_empty() {
            return Some(data);
        }
        if data.len() + chunk.len() > STDIN_LIMIT {
            return None;
        }
        data.extend_from_slice(&chunk);
    }
}

/// The running shell and the command's own descriptors, seen through [`HostCommandShell`].
struct NestedShell<'s> {
    shell: &'s mut dyn ShellServices,
    stdin: Fd,
    stdout: Fd,
    stderr: Fd,
}

impl HostCommandShell for NestedShell<'_> {
    fn exec(&mut self, script: String, stdin: Vec<u8>) -> LocalFuture<'_, HostCommandOutput> {
        Box::pin(async move {
            let stdout = Capture::new(NESTED_OUTPUT_LIMIT, None);
            let stderr = Capture::new(NESTED_OUTPUT_LIMIT, None);
            let argv = ["builtin", "bash", "-c"].into_iter().map(String::from).chain([script]).collect();
            let status = self
                .shell
                .run_command(argv, Stream::input(stdin), Rc::new(Stream::Capture(stdout.clone())), Rc::new(Stream::Capture(stderr.clone())))
                .await;
            HostCommandOutput { stdout: stdout.take(), stderr: stderr.take(), status }
        })
    }

    fn read_stdin(&mut self, max: usize) -> LocalFuture<'_, Vec<u8>> {
        Box::pin(async move { self.stdin.read(max.clamp(1, 1 << 20)).await.unwrap_or_default() })
    }

    fn write_output(&mut self, stderr: bool, data: Vec<u8>) -> LocalFuture<'_, Result<(), i32>> {
        Box::pin(async move {
            let fd = if stderr { &self.stderr } else { &self.stdout };
            fd.write(&data).await.map_err(write_failure_status)
        })
    }
}

#[cfg(test)]
mod tests {
    use crate::executor::block_on;
    use crate::host::{FixedHost, Host, HostCommandCall, HostCommandOutput, HostCommandShell, LocalFuture};
    use crate::{ExecOptions, ExecResult, Sandbox, SandboxOptions};
    use std::rc::Rc;

    /// A host defining `shout` (upper-cases stdin, echoes argv and cwd on
    /// stderr, exits with status 3) and `nested` (runs `argv[1]` back in the sandbox).
    struct CommandHost(FixedHost);

    impl Host for CommandHost {
        fn now_millis(&self) -> f64 {
            self.0.now_millis()
        }

        fn random_seed(&self) -> u64 {
            self.0.random_seed()
        }

        fn sleep(&self, millis: f64) -> LocalFuture<'_, ()> {
            self.0.sleep(millis)
        }

        fn command_names(&self) -> Vec<String> {
            ["shout", "nested", "bad/name", ""].map(String::from).to_vec()
        }

        fn run_command<'a>(&'a self, call: HostCommandCall, shell: &'a mut dyn HostCommandShell) -> LocalFuture<'a, HostCommandOutput> {
            Box::pin(async move {
                if call.argv[0] == "nested" {
                    let script = call.argv.get(1).cloned().unwrap_or_default();
                    return shell.exec(script, call.stdin).await;
                }
                let marker = call.env.iter().find(|(name, _)| name == "MARK").map(|(_, v)| v.as_str()).unwrap_or("-");
                HostCommandOutput {
                    stdout: call.stdin.to_ascii_uppercase(),
                    stderr: format!("{:?} {} {marker}\n", call.argv, call.cwd).into_bytes(),
                    status: 3,
                }
            })
        }
    }

    fn run(script: &str, stdin: &str) -> ExecResult {
        block_on(async {
            let mut sandbox = Sandbox::new(SandboxOptions::default(), Rc::new(CommandHost(FixedHost::default()))).await;
            sandbox.exec(script, ExecOptions { stdin: stdin.as_bytes().to_vec(), ..Default::default() }).await
        })
    }

    #[test]
    fn a_host_command_gets_argv_stdin_cwd_and_env_and_returns_output_and_status() {
        let result = run("cd /tmp; export MARK=m; printf 'ab\\n' | shout x 'y z'; echo $?", "");
        assert_eq!(result.stdout_text(), "AB\n3\n");
        assert_eq!(result.stderr_text(), "[\"shout\", \"x\", \"y z\"] /tmp m\n");
    }

    #[test]
    fn host_commands_are_in_the_registry_and_bin_and_come_after_functions() {
        let result = run("type shout; command -v shout; ls /bin/shout; shout() { echo fn; }; shout; /bin/shout <<<q 2>/dev/null", "");
        assert_eq!(result.stdout_text(), "shout is /usr/bin/shout\n/usr/bin/shout\n/bin/shout\nfn\nQ\n");
        let unknown = run("bad/name; ''", "");
        assert_eq!(unknown.exit_code, 127);
    }

    #[test]
    fn a_host_command_runs_scripts_back_with_the_callers_fds_and_variables() {
        let result = run("x=5; export x; y=6; nested 'echo $x-$y; cat; cat <&3' 3<<<three", "in\n");
        assert_eq!(result.stdout_text(), "5-\nin\nthree\n");
        let failing = run("nested 'echo out; echo err >&2; exit 4'; echo $?", "");
        assert_eq!((failing.stdout_text(), failing.stderr_text()), ("out\n4\n".to_string(), "err\n".to_string()));
    }

    /// A host whose one command, `stream`, reads its input chunk by chunk
    /// and writes each chunk back upper-cased at once, as the JS wrapper's
    /// streaming commands do.
    struct StreamHost(FixedHost);

    impl Host for StreamHost {
        fn now_millis(&self) -> f64 {
            self.0.now_millis()
        }

        fn random_seed(&self) -> u64 {
            self.0.random_seed()
        }

        fn sleep(&self, millis: f64) -> LocalFuture<'_, ()> {
            self.0.sleep(millis)
        }

        fn command_names(&self) -> Vec<String> {
            vec!["stream".to_string()]
        }

        fn commands_stream_stdin(&self) -> bool {
            true
        }

        fn run_command<'a>(&'a self, call: HostCommandCall, shell: &'a mut dyn HostCommandShell) -> LocalFuture<'a, HostCommandOutput> {
            Box::pin(async move {
                assert!(call.stdin.is_empty());
                let mut chunks = 0;
                loop {
                    let chunk = shell.read_stdin(4).await;
                    if chunk.is_empty() {
                        break;
                    }
                    chunks += 1;
                    if let Err(status) = shell.write_output(false, chunk.to_ascii_uppercase()).await {
                        return HostCommandOutput { status, ..HostCommandOutput::default() };
                    }
                }
                HostCommandOutput { stdout: format!("{chunks} chunks\n").into_bytes(), ..HostCommandOutput::default() }
            })
        }
    }

    fn run_streaming(script: &str) -> ExecResult {
        block_on(async {
            let mut sandbox = Sandbox::new(SandboxOptions::default(), Rc::new(StreamHost(FixedHost::default()))).await;
            sandbox.exec(script, ExecOptions::default()).await
        })
    }

    #[test]
    fn a_streaming_host_command_reads_and_writes_while_it_runs() {
        let result = run_streaming("printf 'abcdefghij' | stream");
        assert_eq!(result.stdout_text(), "ABCDEFGHIJ3 chunks\n");
        // An endless producer and a reader that stops: the command ends as SIGPIPE would.
        let endless = run_streaming("yes | stream | head -c 6; echo \" ${PIPESTATUS[*]}\"");
        assert_eq!(endless.stdout_text(), "Y\nY\nY\n 141 141 0\n");
    }
}
