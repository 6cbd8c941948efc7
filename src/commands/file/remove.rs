//! Removing a whole tree without prompts or messages beyond errors, for
//! `mv` across mounts and `find -delete`-like helpers.

use crate::commands::format::quote;
use crate::host::LocalFuture;
use crate::utility::Invocation;

/// Removes `name` and everything below it; reports failures as `rm` would
/// (`cannot remove 'x': ...`) and returns false when any remain.
pub fn remove_tree<'a>(ctx: &'a Invocation<'_>, name: &'a str) -> LocalFuture<'a, bool> {
    Box::pin(async move {
        let path = ctx.resolve(name);
        let metadata = match ctx.fs.symlink_metadata(&path).await {
            Ok(metadata) => metadata,
            Err(error) => {
                ctx.report(&format!("cannot remove {}: {error}", quote(name))).await;
                return false;
            }
        };
        if !metadata.is_dir() {
            return match ctx.fs.remove_file(&path).await {
                Ok(()) => true,
                Err(error) => {
                    ctx.report(&format!("cannot remove {}: {error}", quote(name))).await;
                    false
                }
            };
        }
        let mut ok = true;
        for entry in ctx.fs.read_dir(&path).await.unwrap_or_default() {
            ok &= remove_tree(ctx, &super::copy::join_name(name, &entry.name)).await;
        }
        if let Err(error) = ctx.fs.remove_dir(&path).await {
            ctx.report(&format!("cannot remove {}: {error}", quote(name))).await;
            ok = false;
        }
        ok
    })
}
