//! File utilities: reading, listing, copying, moving and inspecting files.

pub mod backup;
pub mod basename;
pub mod cat;
pub mod chmod;
pub mod chown;
pub mod copy;
pub mod cp;
pub mod df;
pub mod du;
#[cfg(test)]
mod e2e_tests;
pub mod file_type;
pub mod find;
#[cfg(test)]
mod fixtures;
pub mod glob;
pub mod install;
pub mod ln;
pub mod ls;
pub mod magic;
pub mod misc;
pub mod mkdir;
pub mod mktemp;
pub mod mode;
pub mod mv;
pub mod prompt;
pub mod readlink;
pub mod remove;
pub mod rm;
pub mod rmdir;
pub mod split;
pub mod stat;
pub mod stat_format;
pub mod statfs;
pub mod touch;
pub mod tree;
pub mod truncate;
