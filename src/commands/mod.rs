//! The utilities the sandbox provides (`cat`, `ls`, `grep`...), one file or
//! folder per command or family, and their one registry table.
//!
//! The table is the name list: `/bin` is populated from it, `type` and
//! `which` consult it, and nothing else lists command names.

mod archive;
mod calc;
pub mod common;
mod file;
pub mod format;
mod hash;
mod net;
pub mod options;
mod system;
#[cfg(test)]
pub mod test_support;
mod text;
pub mod usage;
pub mod users;

use crate::utility::Utility;

/// One file's unified diff (`diff -u`'s format), for exporting changes as a patch.
pub use text::diff::unified::unified_file_diff;

/// Every utility, sorted by name.
static REGISTRY: &[Utility] = &[
    Utility { name: "awk", run: text::awk::run },
    Utility { name: "base32", run: hash::basenc::run_base32 },
    Utility { name: "base64", run: hash::base64::run },
    Utility { name: "basename", run: file::basename::run_basename },
    Utility { name: "basenc", run: hash::basenc::run_basenc },
    Utility { name: "bc", run: calc::bc::run },
    Utility { name: "cat", run: file::cat::run },
    Utility { name: "chgrp", run: file::chown::run_chgrp },
    Utility { name: "chmod", run: file::chmod::run },
    Utility { name: "chown", run: file::chown::run_chown },
    Utility { name: "cksum", run: hash::cksum::run },
    Utility { name: "clear", run: system::terminal::run_clear },
    Utility { name: "cmp", run: text::cmp::run },
    Utility { name: "column", run: text::column::run },
    Utility { name: "comm", run: text::comm::run },
    Utility { name: "cp", run: file::cp::run },
    Utility { name: "csplit", run: text::csplit::run },
    Utility { name: "curl", run: net::curl::run },
    Utility { name: "cut", run: text::cut::run },
    Utility { name: "date", run: system::date::run },
    Utility { name: "dc", run: calc::dc::run },
    Utility { name: "df", run: file::df::run },
    Utility { name: "diff", run: text::diff::run },
    Utility { name: "dirname", run: file::basename::run_dirname },
    Utility { name: "du", run: file::du::run },
    Utility { name: "egrep", run: text::grep::run },
    Utility { name: "env", run: system::env::run_env },
    Utility { name: "envsubst", run: text::envsubst::run },
    Utility { name: "expand", run: text::expand::run_expand },
    Utility { name: "expr", run: text::expr::run },
    Utility { name: "fgrep", run: text::grep::run },
    Utility { name: "file", run: file::file_type::run },
    Utility { name: "find", run: file::find::run },
    Utility { name: "fmt", run: text::fmt::run },
    Utility { name: "fold", run: text::fold::run },
    Utility { name: "gawk", run: text::awk::run },
    Utility { name: "getconf", run: system::machine::run_getconf },
    Utility { name: "grep", run: text::grep::run },
    Utility { name: "gunzip", run: archive::gzip::run },
    Utility { name: "gzip", run: archive::gzip::run },
    Utility { name: "hd", run: text::hexdump::run_hd },
    Utility { name: "head", run: text::head::run },
    Utility { name: "hexdump", run: text::hexdump::run_hexdump },
    Utility { name: "hostname", run: system::identity::run_hostname },
    Utility { name: "iconv", run: text::iconv::run },
    Utility { name: "id", run: system::identity::run_id },
    Utility { name: "install", run: file::install::run },
    Utility { name: "join", run: text::join::run },
    Utility { name: "jq", run: text::jq::run },
    Utility { name: "less", run: text::pager::run_less },
    Utility { name: "ln", run: file::ln::run },
    Utility { name: "look", run: text::look::run },
    Utility { name: "ls", run: file::ls::run },
    Utility { name: "man", run: usage::man::run_man },
    Utility { name: "md5sum", run: hash::sum::run },
    Utility { name: "mkdir", run: file::mkdir::run },
    Utility { name: "mktemp", run: file::mktemp::run },
    Utility { name: "more", run: text::pager::run_more },
    Utility { name: "mv", run: file::mv::run },
    Utility { name: "nl", run: text::nl::run },
    Utility { name: "nproc", run: system::machine::run_nproc },
    Utility { name: "numfmt", run: text::numfmt::run },
    Utility { name: "od", run: text::od::run },
    Utility { name: "paste", run: text::paste::run },
    Utility { name: "patch", run: text::patch::run },
    Utility { name: "pr", run: text::pr::run },
    Utility { name: "printenv", run: system::env::run_printenv },
    Utility { name: "ps", run: system::ps::run },
    Utility { name: "readlink", run: file::readlink::run_readlink },
    Utility { name: "realpath", run: file::readlink::run_realpath },
    Utility { name: "rev", run: text::rev::run },
    Utility { name: "rg", run: text::rg::run },
    Utility { name: "rm", run: file::rm::run },
    Utility { name: "rmdir", run: file::rmdir::run },
    Utility { name: "sed", run: text::sed::run },
    Utility { name: "seq", run: system::seq::run },
    Utility { name: "sha1sum", run: hash::sum::run },
    Utility { name: "sha224sum", run: hash::sum::run },
    Utility { name: "sha256sum", run: hash::sum::run },
    Utility { name: "sha384sum", run: hash::sum::run },
    Utility { name: "sha512sum", run: hash::sum::run },
    Utility { name: "shred", run: file::misc::run_shred },
    Utility { name: "shuf", run: text::shuf::run },
    Utility { name: "sleep", run: system::sleep::run },
    Utility { name: "sort", run: text::sort::run },
    Utility { name: "split", run: file::split::run },
    Utility { name: "stat", run: file::stat::run },
    Utility { name: "strings", run: text::strings::run },
    Utility { name: "sync", run: file::misc::run_sync },
    Utility { name: "tac", run: text::tac::run },
    Utility { name: "tail", run: text::tail::run },
    Utility { name: "tar", run: archive::tar::run },
    Utility { name: "tee", run: text::tee::run },
    Utility { name: "timeout", run: system::timeout::run },
    Utility { name: "touch", run: file::touch::run },
    Utility { name: "tr", run: text::tr::run },
    Utility { name: "tree", run: file::tree::run },
    Utility { name: "truncate", run: file::truncate::run },
    Utility { name: "tsort", run: text::tsort::run },
    Utility { name: "tty", run: system::terminal::run_tty },
    Utility { name: "uname", run: system::machine::run_uname },
    Utility { name: "unexpand", run: text::expand::run_unexpand },
    Utility { name: "uniq", run: text::uniq::run },
    Utility { name: "unzip", run: archive::unzip::run },
    Utility { name: "uptime", run: system::machine::run_uptime },
    Utility { name: "wc", run: text::wc::run },
    Utility { name: "wget", run: net::wget::run },
    Utility { name: "which", run: system::which::run },
    Utility { name: "whoami", run: system::identity::run_whoami },
    Utility { name: "xargs", run: text::xargs::run },
    Utility { name: "xxd", run: text::xxd::run },
    Utility { name: "yes", run: system::yes::run },
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
