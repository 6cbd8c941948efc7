//! The utilities the sandbox provides (`cat`, `ls`, `grep`...), one file or
//! folder per command or family, and their one registry table.
//!
//! The table is the name list: `/bin` is populated from it, `type` and
//! `which` consult it, and nothing else lists command names.

pub mod common;
pub mod datestr;
pub mod format;
pub mod options;
pub mod timefmt;
pub mod users;
mod file;
mod text;
#[cfg(test)]
pub mod test_support;

use crate::interp::Utility;

/// Every utility, sorted by name.
static REGISTRY: &[Utility] = &[
    Utility { name: "basename", run: file::basename::run_basename },
    Utility { name: "cat", run: file::cat::run },
    Utility { name: "chgrp", run: file::chown::run_chgrp },
    Utility { name: "chmod", run: file::chmod::run },
    Utility { name: "chown", run: file::chown::run_chown },
    Utility { name: "cp", run: file::cp::run },
    Utility { name: "df", run: file::misc::run_df },
    Utility { name: "dirname", run: file::basename::run_dirname },
    Utility { name: "du", run: file::du::run },
    Utility { name: "file", run: file::file_type::run },
    Utility { name: "find", run: file::find::run },
    Utility { name: "head", run: text::head::run },
    Utility { name: "install", run: file::install::run },
    Utility { name: "ln", run: file::ln::run },
    Utility { name: "ls", run: file::ls::run },
    Utility { name: "mkdir", run: file::mkdir::run },
    Utility { name: "mktemp", run: file::mktemp::run },
    Utility { name: "mv", run: file::mv::run },
    Utility { name: "readlink", run: file::readlink::run_readlink },
    Utility { name: "realpath", run: file::readlink::run_realpath },
    Utility { name: "rm", run: file::rm::run },
    Utility { name: "rmdir", run: file::rmdir::run },
    Utility { name: "shred", run: file::misc::run_shred },
    Utility { name: "split", run: file::split::run },
    Utility { name: "stat", run: file::stat::run },
    Utility { name: "sync", run: file::misc::run_sync },
    Utility { name: "tail", run: text::tail::run },
    Utility { name: "touch", run: file::touch::run },
    Utility { name: "tree", run: file::tree::run },
    Utility { name: "truncate", run: file::truncate::run },
    Utility { name: "wc", run: text::wc::run },
];

/// The registry table.
pub fn registry() -> &'static [Utility] {
    REGISTRY
}

/// Looks a utility up by name.
pub fn find(name: &str) -> Option<&'static Utility> {
    REGISTRY.binary_search_by(|utility| utility.name.cmp(name)).ok().map(|index| &REGISTRY[index])
}

#[cfg(test)]
mod tests {
    #[test]
    fn registry_is_sorted_and_unique() {
        let names: Vec<&str> = super::REGISTRY.iter().map(|u| u.name).collect();
        let mut sorted = names.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(names, sorted);
    }
}
