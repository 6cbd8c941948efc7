//! The utilities the sandbox provides (`cat`, `ls`, `grep`...), one file or
//! folder per command or family, and their one registry table.
//!
//! The table is the name list: `/bin` is populated from it, `type` and
//! `which` consult it, and nothing else lists command names.

mod archive;
pub mod common;
pub mod options;
mod file;
mod hash;
mod system;
#[cfg(test)]
pub mod test_support;

use crate::interp::Utility;

/// Every utility, sorted by name.
static REGISTRY: &[Utility] = &[
    Utility { name: "base64", run: hash::base64::run },
    Utility { name: "cat", run: file::cat::run },
    Utility { name: "cksum", run: hash::cksum::run },
    Utility { name: "gunzip", run: archive::gzip::run },
    Utility { name: "gzip", run: archive::gzip::run },
    Utility { name: "md5sum", run: hash::sum::run },
    Utility { name: "sha1sum", run: hash::sum::run },
    Utility { name: "sha224sum", run: hash::sum::run },
    Utility { name: "sha256sum", run: hash::sum::run },
    Utility { name: "sha384sum", run: hash::sum::run },
    Utility { name: "sha512sum", run: hash::sum::run },
    Utility { name: "tar", run: archive::tar::run },
    Utility { name: "unzip", run: archive::unzip::run },
    Utility { name: "zcat", run: archive::gzip::run },
    Utility { name: "zip", run: archive::zip::run },
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
