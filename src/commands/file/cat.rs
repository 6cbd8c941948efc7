//! `cat`: concatenate files to standard output.

use crate::commands::common::{copy_to_stdout, inputs, open_input, Input};
use crate::host::LocalFuture;
use crate::interp::Invocation;

/// Runs `cat [FILE]...`.
pub fn run<'a>(ctx: &'a mut Invocation<'_>) -> LocalFuture<'a, i32> {
    Box::pin(async move {
        let operands: Vec<String> = ctx.args[1..].to_vec();
        let mut status = 0;
        for input in inputs(&operands) {
            match open_input(ctx, &input).await {
                Ok(stream) => {
                    if let Err(code) = copy_to_stdout(ctx, &stream).await {
                        if code == crate::interp::STATUS_SIGPIPE {
                            return code;
                        }
                        status = 1;
                    }
                }
                Err(error) => {
                    let name = match &input {
                        Input::File(name) => name.as_str(),
                        Input::Stdin => "-",
                    };
                    ctx.report_fs(name, error).await;
                    status = 1;
                }
            }
        }
        status
    })
}
