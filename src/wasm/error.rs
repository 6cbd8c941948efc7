//! JS `Error` values with a stable `code` property, the only way errors
//! cross the boundary.

use crate::fs::FsError;
use wasm_bindgen::JsValue;

/// Code of an options object the engine cannot read.
pub const INVALID_OPTIONS: &str = "WABASH_INVALID_OPTIONS";
/// Code of an `exec` started while another runs on the same sandbox.
pub const BUSY: &str = "WABASH_BUSY";
/// Code of snapshot bytes that cannot be restored.
pub const SNAPSHOT: &str = "WABASH_SNAPSHOT";
/// Code of a result the engine could not convert back to JS.
pub const INTERNAL: &str = "WABASH_INTERNAL";

/// A JS `Error` with `message` and a `code` property.
pub fn js_error(code: &str, message: &str) -> JsValue {
    let error = js_sys::Error::new(message);
    let _ = js_sys::Reflect::set(&error, &JsValue::from_str("code"), &JsValue::from_str(code));
    error.into()
}

/// A filesystem error in the form Node's `fs` reports it:
/// `ENOENT: No such file or directory, open '/x'` with `code` `ENOENT`.
pub fn fs_error(error: FsError, operation: &str, path: &str) -> JsValue {
    let code = errno_name(error);
    js_error(code, &format!("{code}: {}, {operation} '{path}'", error.message()))
}

/// The symbolic errno name of a filesystem error.
fn errno_name(error: FsError) -> &'static str {
    match error {
        FsError::NotFound => "ENOENT",
        FsError::NotADirectory => "ENOTDIR",
        FsError::IsADirectory => "EISDIR",
        FsError::AlreadyExists => "EEXIST",
        FsError::DirectoryNotEmpty => "ENOTEMPTY",
        FsError::PermissionDenied => "EACCES",
        FsError::NotPermitted => "EPERM",
        FsError::ReadOnly => "EROFS",
        FsError::NoSpace => "ENOSPC",
        FsError::FileTooLarge => "EFBIG",
        FsError::TooManyLinks => "ELOOP",
        FsError::NameTooLong => "ENAMETOOLONG",
        FsError::InvalidArgument => "EINVAL",
        FsError::CrossDevice => "EXDEV",
        FsError::Busy => "EBUSY",
        FsError::BadDescriptor => "EBADF",
        FsError::Io => "EIO",
    }
}
