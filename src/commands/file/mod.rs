//! File utilities: reading, listing, copying, moving and inspecting files.

pub mod basename;
pub mod cat;
#[cfg(test)]
mod fixtures;
pub mod glob;
pub mod ls;
pub mod mkdir;
pub mod mode;
pub mod prompt;
pub mod rm;
pub mod rmdir;
pub mod touch;
