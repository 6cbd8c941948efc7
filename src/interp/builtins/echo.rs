//! `echo [-neE] [arg...]`.

use super::{words, Arg};
use crate::expand::escapes::{decode, EscapeStyle};
use crate::host::LocalFuture;
use crate::interp::{Outcome, Shell};

/// `echo`: options only as leading words made entirely of `n`, `e`, `E`.
pub fn echo(shell: &mut Shell, args: Vec<Arg>) -> LocalFuture<'_, Outcome> {
    Box::pin(async move {
        let args = words(&args);
        let mut newline = true;
        let mut escapes = shell.options.xpg_echo;
        let mut index = 1;
        while let Some(arg) = args.get(index) {
            let Some(flags) = arg.strip_prefix('-') else { break };
            if flags.is_empty() || !flags.chars().all(|c| matches!(c, 'n' | 'e' | 'E')) {
                break;
            }
            for flag in flags.chars() {
                match flag {
                    'n' => newline = false,
                    'e' => escapes = true,
                    _ => escapes = false,
                }
            }
            index += 1;
        }
        let mut out = Vec::new();
        for (position, arg) in args[index.min(args.len())..].iter().enumerate() {
            if position > 0 {
                out.push(b' ');
            }
            if escapes {
                let decoded = decode(arg, EscapeStyle::Echo);
                out.extend_from_slice(&decoded.bytes);
                if decoded.stop {
                    shell.out(&out).await?;
                    return Ok(0);
                }
            } else {
                out.extend_from_slice(arg.as_bytes());
            }
        }
        if newline {
            out.push(b'\n');
        }
        shell.out(&out).await?;
        Ok(0)
    })
}
