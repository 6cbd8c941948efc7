//! `diff`: compare files line by line, as GNU diffutils 3.8 does, byte for
//! byte: the normal, unified (`-u`, `-U N`), context (`-c`, `-C N`) and
//! side-by-side (`-y`, `-W`) formats; `-q`, `-s`; directories with `-r`,
//! `-N`, `-x` and `--no-dereference`; the loosening options `-i -b -w -Z
//! -B` and `--strip-trailing-cr`; binary files; exit status 0 (same), 1
//! (different) or 2 (trouble).
//!
//! The comparison is GNU's own algorithm, not a general diff crate's:
//! among edit scripts of equal cost GNU picks one by its identical-ends
//! skip, its discarding of confusing lines, its Myers search and its
//! boundary shifting, and only the same steps give the same hunks
//! (docs/diff.md has the measurement).
//!
//! - [`settings`]: the command line.
//! - [`files`]: one pair of inputs (which kind, reading, the result).
//! - [`directory`]: directories, recursively.
//! - [`text`], [`ends`], [`equivalence`], [`discard`], [`myers`],
//!   [`shift`], [`compare`]: the comparison.
//! - [`hunks`], [`formats`], [`side`]: the output.
//! - [`unified`]: one file's unified diff for callers outside the command.

mod compare;
mod directory;
mod discard;
mod ends;
mod equivalence;
mod files;
mod formats;
mod hunks;
mod myers;
mod settings;
mod shift;
mod side;
mod text;
pub mod unified;

use crate::host::LocalFuture;
use crate::utility::Invocation;
use settings::{parse_command, Command, Settings};

/// Output collects up to this many bytes before it is written.
const FLUSH_AT: usize = 64 * 1024;

/// One run of `diff`: the invocation, the settings, and pending output.
pub struct Session<'c, 'i> {
    ctx: &'c Invocation<'i>,
    settings: Settings,
    out: Vec<u8>,
}

impl Session<'_, '_> {
    /// Writes out the pending output once it is large (or `always`);
    /// `Err(status)` when writing failed.
    async fn flush(&mut self, always: bool) -> Result<(), i32> {
        if self.out.is_empty() || (!always && self.out.len() < FLUSH_AT) {
            return Ok(());
        }
        let result = match self.ctx.write_out(&self.out).await {
            Ok(()) => Ok(()),
            Err(error) => Err(self.ctx.write_failed_with(error, |error| format!("standard output: {error}"), 2).await),
        };
        self.out.clear();
        result
    }

    /// Reports a problem (`diff: x: No such file or directory`) after
    /// writing out what came before it.
    async fn report(&mut self, message: &str) -> Result<(), i32> {
        self.flush(true).await?;
        self.ctx.report(message).await;
        Ok(())
    }
}

/// Runs `diff`.
pub fn run<'a>(ctx: &'a mut Invocation<'_>) -> LocalFuture<'a, i32> {
    Box::pin(async move {
        let args = ctx.args.get(1..).unwrap_or(&[]).to_vec();
        let settings = match parse_command(&args) {
            Command::Compare(settings) => settings,
            Command::Print(text) => {
                return match ctx.write_out(text.as_bytes()).await {
                    Ok(()) => 0,
                    Err(error) => ctx.write_failed_with(error, |error| format!("standard output: {error}"), 2).await,
                };
            }
            Command::Usage(message, hint) => {
                let mut text = format!("diff: {message}\n");
                if hint {
                    text.push_str("diff: Try 'diff --help' for more information.\n");
                }
                let _ = ctx.stderr.write(text.as_bytes()).await;
                return 2;
            }
        };
        let mut session = Session { ctx, settings: *settings, out: Vec::new() };
        let result = files::compare_operands(&mut session).await;
        let status = match result {
            Ok(status) => status,
            Err(status) => return status,
        };
        match session.flush(true).await {
            Ok(()) => status,
            Err(failure) => failure,
        }
    })
}
