//! What `tar`'s create, extract and list share: the options of one run and
//! GNU tar's rule for the unsafe prefixes it strips from member names.

/// Everything one `tar` run was asked to do.
#[derive(Debug, Clone, Default)]
pub struct TarOptions {
    /// The archive (`-` for standard input or output).
    pub file: String,
    /// Verbosity: 1 lists names, 2 lists details (`-vv`, or `-v` with `t`).
    pub verbose: u32,
    /// Compress or expect gzip.
    pub gzip: bool,
    /// Working-directory changes in effect, the last one wins.
    pub directory: Option<String>,
    /// Exclusion patterns.
    pub excludes: Vec<String>,
    /// Keep existing files on extraction (`-k`).
    pub keep_old: bool,
    /// Extract to standard output (`-O`).
    pub to_stdout: bool,
    /// Keep the archived permissions exactly (`-p`).
    pub preserve: bool,
    /// Keep leading `/` and `..` (`-P`).
    pub absolute: bool,
    /// Do not restore modification times (`-m`).
    pub touch: bool,
    /// Follow symlinks when creating (`-h`).
    pub dereference: bool,
    /// Leading path components to drop on extraction.
    pub strip: usize,
    /// Member operands are wildcards (`--wildcards`).
    pub wildcards: bool,
    /// Do not descend into directories when creating.
    pub no_recursion: bool,
    /// Choose compression from the archive's suffix (`-a`).
    pub auto_compress: bool,
    /// Remove files after adding them.
    pub remove_files: bool,
    /// The operands (files to add, or members to extract or list).
    pub operands: Vec<String>,
}

/// Splits off what GNU tar strips from member names: leading `/` and `../`.
pub fn strip_unsafe_prefix(name: &str) -> (String, &str) {
    let mut rest = name;
    loop {
        if let Some(after) = rest.strip_prefix('/') {
            rest = after;
        } else if let Some(after) = rest.strip_prefix("../") {
            rest = after;
        } else if rest == ".." {
            rest = "";
        } else {
            break;
        }
    }
    (name.get(..name.len() - rest.len()).unwrap_or("").to_string(), rest)
}
