//! File utilities: reading, listing, copying, moving and inspecting files.

pub mod cat;
