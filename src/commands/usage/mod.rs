//! `--help` and `--version` for every utility, and `man`.
//!
//! Each utility's usage text lives in `texts/NAME.txt`, in GNU's layout
//! (a `Usage:` line, the option column, short descriptions), listing
//! exactly the options the sandbox's implementation accepts. The sandbox
//! registers [`entry_point`] for every built-in utility: it finds
//! `--help`/`--version` where the real tool's option parser would (see
//! [`scan`]) and answers them before the command's own parsing, so no
//! command handles them itself. The texts follow the real tools' `--help`
//! output (short usage texts, kept for interoperability), trimmed to what
//! the sandbox supports.

mod listing;
pub mod man;
mod scan;

pub use listing::{listed_options, Listed};
pub use scan::{scan, Request, Scan};

use crate::host::LocalFuture;
use crate::utility::{Invocation, UtilityFn};

/// The usage of one utility.
#[derive(Debug, Clone, Copy)]
pub struct Usage {
    /// The command name (`ls`).
    pub name: &'static str,
    /// The first line of the real tool's `--version` (`ls (GNU coreutils) 9.1`).
    pub version: &'static str,
    /// Where its option parser finds `--help`.
    pub scan: Scan,
    /// The `--help` text.
    pub text: &'static str,
}

/// What `--version` prints after the real tool's first line.
pub const VERSION_NOTE: &str =
    "This is wabash's sandboxed implementation (Rust, WebAssembly), following the behaviour of the tool named above.\n";

/// Every usage text, sorted by name. Texts for tools not yet in the
/// registry wait here for them.
static USAGES: &[Usage] = &[
    Usage { name: "awk", version: "GNU Awk 5.2.1, API 3.2, PMA Avon 8-g1, (GNU MPFR 4.2.0, GNU MP 6.2.1)", scan: Scan::Stop, text: include_str!("texts/awk.txt") },
    Usage { name: "base32", version: "base32 (GNU coreutils) 9.1", scan: Scan::Permute, text: include_str!("texts/base32.txt") },
    Usage { name: "base64", version: "base64 (GNU coreutils) 9.1", scan: Scan::Permute, text: include_str!("texts/base64.txt") },
    Usage { name: "basename", version: "basename (GNU coreutils) 9.1", scan: Scan::Stop, text: include_str!("texts/basename.txt") },
    Usage { name: "basenc", version: "basenc (GNU coreutils) 9.1", scan: Scan::Permute, text: include_str!("texts/basenc.txt") },
    Usage { name: "bc", version: "bc 1.07.1", scan: Scan::Permute, text: include_str!("texts/bc.txt") },
    Usage { name: "cat", version: "cat (GNU coreutils) 9.1", scan: Scan::Permute, text: include_str!("texts/cat.txt") },
    Usage { name: "chgrp", version: "chgrp (GNU coreutils) 9.1", scan: Scan::Permute, text: include_str!("texts/chgrp.txt") },
    Usage { name: "chmod", version: "chmod (GNU coreutils) 9.1", scan: Scan::Permute, text: include_str!("texts/chmod.txt") },
    Usage { name: "chown", version: "chown (GNU coreutils) 9.1", scan: Scan::Permute, text: include_str!("texts/chown.txt") },
    Usage { name: "cksum", version: "cksum (GNU coreutils) 9.1", scan: Scan::Permute, text: include_str!("texts/cksum.txt") },
    Usage { name: "clear", version: "ncurses 6.4.20221231", scan: Scan::Permute, text: include_str!("texts/clear.txt") },
    Usage { name: "cmp", version: "cmp (GNU diffutils) 3.8", scan: Scan::Permute, text: include_str!("texts/cmp.txt") },
    Usage { name: "column", version: "column from util-linux 2.38.1", scan: Scan::Permute, text: include_str!("texts/column.txt") },
    Usage { name: "comm", version: "comm (GNU coreutils) 9.1", scan: Scan::Permute, text: include_str!("texts/comm.txt") },
    Usage { name: "cp", version: "cp (GNU coreutils) 9.1", scan: Scan::Permute, text: include_str!("texts/cp.txt") },
    Usage { name: "csplit", version: "csplit (GNU coreutils) 9.1", scan: Scan::Permute, text: include_str!("texts/csplit.txt") },
    Usage { name: "curl", version: "curl 7.88.1 (x86_64-pc-linux-gnu) libcurl/7.88.1 OpenSSL/3.0.19 zlib/1.2.13 brotli/1.0.9 zstd/1.5.4 libidn2/2.3.3 libpsl/0.21.2 (+libidn2/2.3.3) libssh2/1.10.0 nghttp2/1.52.0 librtmp/2.3 OpenLDAP/2.5.13", scan: Scan::Permute, text: include_str!("texts/curl.txt") },
    Usage { name: "cut", version: "cut (GNU coreutils) 9.1", scan: Scan::Permute, text: include_str!("texts/cut.txt") },
    Usage { name: "date", version: "date (GNU coreutils) 9.1", scan: Scan::Permute, text: include_str!("texts/date.txt") },
    Usage { name: "dc", version: "dc (GNU bc 1.07.1) 1.4.1", scan: Scan::Permute, text: include_str!("texts/dc.txt") },
    Usage { name: "df", version: "df (GNU coreutils) 9.1", scan: Scan::Permute, text: include_str!("texts/df.txt") },
    Usage { name: "diff", version: "diff (GNU diffutils) 3.8", scan: Scan::Permute, text: include_str!("texts/diff.txt") },
    Usage { name: "dirname", version: "dirname (GNU coreutils) 9.1", scan: Scan::Permute, text: include_str!("texts/dirname.txt") },
    Usage { name: "du", version: "du (GNU coreutils) 9.1", scan: Scan::Permute, text: include_str!("texts/du.txt") },
    Usage { name: "egrep", version: "grep (GNU grep) 3.8", scan: Scan::Permute, text: include_str!("texts/egrep.txt") },
    Usage { name: "env", version: "env (GNU coreutils) 9.1", scan: Scan::Stop, text: include_str!("texts/env.txt") },
    Usage { name: "envsubst", version: "envsubst (GNU gettext-runtime) 0.21", scan: Scan::Permute, text: include_str!("texts/envsubst.txt") },
    Usage { name: "expand", version: "expand (GNU coreutils) 9.1", scan: Scan::Permute, text: include_str!("texts/expand.txt") },
    Usage { name: "expr", version: "expr (GNU coreutils) 9.1", scan: Scan::First, text: include_str!("texts/expr.txt") },
    Usage { name: "fgrep", version: "grep (GNU grep) 3.8", scan: Scan::Permute, text: include_str!("texts/fgrep.txt") },
    Usage { name: "file", version: "file-5.44", scan: Scan::Permute, text: include_str!("texts/file.txt") },
    Usage { name: "find", version: "find (GNU findutils) 4.9.0", scan: Scan::Anywhere, text: include_str!("texts/find.txt") },
    Usage { name: "fmt", version: "fmt (GNU coreutils) 9.1", scan: Scan::Permute, text: include_str!("texts/fmt.txt") },
    Usage { name: "fold", version: "fold (GNU coreutils) 9.1", scan: Scan::Permute, text: include_str!("texts/fold.txt") },
    Usage { name: "gawk", version: "GNU Awk 5.2.1, API 3.2, PMA Avon 8-g1, (GNU MPFR 4.2.0, GNU MP 6.2.1)", scan: Scan::Stop, text: include_str!("texts/gawk.txt") },
    Usage { name: "getconf", version: "getconf (Debian GLIBC 2.36-9+deb12u14) 2.36", scan: Scan::Permute, text: include_str!("texts/getconf.txt") },
    Usage { name: "grep", version: "grep (GNU grep) 3.8", scan: Scan::Permute, text: include_str!("texts/grep.txt") },
    Usage { name: "gunzip", version: "gunzip (gzip) 1.12", scan: Scan::Permute, text: include_str!("texts/gunzip.txt") },
    Usage { name: "gzip", version: "gzip 1.12", scan: Scan::Permute, text: include_str!("texts/gzip.txt") },
    Usage { name: "hd", version: "hd from util-linux 2.38.1", scan: Scan::Permute, text: include_str!("texts/hd.txt") },
    Usage { name: "head", version: "head (GNU coreutils) 9.1", scan: Scan::Permute, text: include_str!("texts/head.txt") },
    Usage { name: "hexdump", version: "hexdump from util-linux 2.38.1", scan: Scan::Permute, text: include_str!("texts/hexdump.txt") },
    Usage { name: "hostname", version: "hostname 3.23", scan: Scan::Permute, text: include_str!("texts/hostname.txt") },
    Usage { name: "iconv", version: "iconv (Debian GLIBC 2.36-9+deb12u14) 2.36", scan: Scan::Permute, text: include_str!("texts/iconv.txt") },
    Usage { name: "id", version: "id (GNU coreutils) 9.1", scan: Scan::Permute, text: include_str!("texts/id.txt") },
    Usage { name: "install", version: "install (GNU coreutils) 9.1", scan: Scan::Permute, text: include_str!("texts/install.txt") },
    Usage { name: "join", version: "join (GNU coreutils) 9.1", scan: Scan::Permute, text: include_str!("texts/join.txt") },
    Usage { name: "jq", version: "jq-1.7.1", scan: Scan::Permute, text: include_str!("texts/jq.txt") },
    Usage { name: "less", version: "less 590 (GNU regular expressions)", scan: Scan::Permute, text: include_str!("texts/less.txt") },
    Usage { name: "ln", version: "ln (GNU coreutils) 9.1", scan: Scan::Permute, text: include_str!("texts/ln.txt") },
    Usage { name: "look", version: "look from util-linux 2.38.1", scan: Scan::Permute, text: include_str!("texts/look.txt") },
    Usage { name: "ls", version: "ls (GNU coreutils) 9.1", scan: Scan::Permute, text: include_str!("texts/ls.txt") },
    Usage { name: "man", version: "man 2.11.2", scan: Scan::Permute, text: include_str!("texts/man.txt") },
    Usage { name: "md5sum", version: "md5sum (GNU coreutils) 9.1", scan: Scan::Permute, text: include_str!("texts/md5sum.txt") },
    Usage { name: "mkdir", version: "mkdir (GNU coreutils) 9.1", scan: Scan::Permute, text: include_str!("texts/mkdir.txt") },
    Usage { name: "mktemp", version: "mktemp (GNU coreutils) 9.1", scan: Scan::Permute, text: include_str!("texts/mktemp.txt") },
    Usage { name: "more", version: "more from util-linux 2.38.1", scan: Scan::Permute, text: include_str!("texts/more.txt") },
    Usage { name: "mv", version: "mv (GNU coreutils) 9.1", scan: Scan::Permute, text: include_str!("texts/mv.txt") },
    Usage { name: "nl", version: "nl (GNU coreutils) 9.1", scan: Scan::Permute, text: include_str!("texts/nl.txt") },
    Usage { name: "nproc", version: "nproc (GNU coreutils) 9.1", scan: Scan::Permute, text: include_str!("texts/nproc.txt") },
    Usage { name: "numfmt", version: "numfmt (GNU coreutils) 9.1", scan: Scan::Permute, text: include_str!("texts/numfmt.txt") },
    Usage { name: "od", version: "od (GNU coreutils) 9.1", scan: Scan::Permute, text: include_str!("texts/od.txt") },
    Usage { name: "paste", version: "paste (GNU coreutils) 9.1", scan: Scan::Permute, text: include_str!("texts/paste.txt") },
    Usage { name: "patch", version: "GNU patch 2.7.6", scan: Scan::Permute, text: include_str!("texts/patch.txt") },
    Usage { name: "pr", version: "pr (GNU coreutils) 9.1", scan: Scan::Permute, text: include_str!("texts/pr.txt") },
    Usage { name: "printenv", version: "printenv (GNU coreutils) 9.1", scan: Scan::Stop, text: include_str!("texts/printenv.txt") },
    Usage { name: "ps", version: "ps from procps-ng 4.0.2", scan: Scan::Permute, text: include_str!("texts/ps.txt") },
    Usage { name: "readlink", version: "readlink (GNU coreutils) 9.1", scan: Scan::Permute, text: include_str!("texts/readlink.txt") },
    Usage { name: "realpath", version: "realpath (GNU coreutils) 9.1", scan: Scan::Permute, text: include_str!("texts/realpath.txt") },
    Usage { name: "rev", version: "rev from util-linux 2.38.1", scan: Scan::Permute, text: include_str!("texts/rev.txt") },
    Usage { name: "rg", version: "ripgrep 13.0.0", scan: Scan::Permute, text: include_str!("texts/rg.txt") },
    Usage { name: "rm", version: "rm (GNU coreutils) 9.1", scan: Scan::Permute, text: include_str!("texts/rm.txt") },
    Usage { name: "rmdir", version: "rmdir (GNU coreutils) 9.1", scan: Scan::Permute, text: include_str!("texts/rmdir.txt") },
    Usage { name: "sed", version: "sed (GNU sed) 4.9", scan: Scan::Permute, text: include_str!("texts/sed.txt") },
    Usage { name: "seq", version: "seq (GNU coreutils) 9.1", scan: Scan::Stop, text: include_str!("texts/seq.txt") },
    Usage { name: "sha1sum", version: "sha1sum (GNU coreutils) 9.1", scan: Scan::Permute, text: include_str!("texts/sha1sum.txt") },
    Usage { name: "sha224sum", version: "sha224sum (GNU coreutils) 9.1", scan: Scan::Permute, text: include_str!("texts/sha224sum.txt") },
    Usage { name: "sha256sum", version: "sha256sum (GNU coreutils) 9.1", scan: Scan::Permute, text: include_str!("texts/sha256sum.txt") },
    Usage { name: "sha384sum", version: "sha384sum (GNU coreutils) 9.1", scan: Scan::Permute, text: include_str!("texts/sha384sum.txt") },
    Usage { name: "sha512sum", version: "sha512sum (GNU coreutils) 9.1", scan: Scan::Permute, text: include_str!("texts/sha512sum.txt") },
    Usage { name: "shred", version: "shred (GNU coreutils) 9.1", scan: Scan::Permute, text: include_str!("texts/shred.txt") },
    Usage { name: "shuf", version: "shuf (GNU coreutils) 9.1", scan: Scan::Permute, text: include_str!("texts/shuf.txt") },
    Usage { name: "sleep", version: "sleep (GNU coreutils) 9.1", scan: Scan::Permute, text: include_str!("texts/sleep.txt") },
    Usage { name: "sort", version: "sort (GNU coreutils) 9.1", scan: Scan::Permute, text: include_str!("texts/sort.txt") },
    Usage { name: "split", version: "split (GNU coreutils) 9.1", scan: Scan::Permute, text: include_str!("texts/split.txt") },
    Usage { name: "stat", version: "stat (GNU coreutils) 9.1", scan: Scan::Permute, text: include_str!("texts/stat.txt") },
    Usage { name: "strings", version: "GNU strings (GNU Binutils for Debian) 2.40", scan: Scan::Permute, text: include_str!("texts/strings.txt") },
    Usage { name: "sync", version: "sync (GNU coreutils) 9.1", scan: Scan::Permute, text: include_str!("texts/sync.txt") },
    Usage { name: "tac", version: "tac (GNU coreutils) 9.1", scan: Scan::Permute, text: include_str!("texts/tac.txt") },
    Usage { name: "tail", version: "tail (GNU coreutils) 9.1", scan: Scan::Permute, text: include_str!("texts/tail.txt") },
    Usage { name: "tar", version: "tar (GNU tar) 1.34", scan: Scan::Permute, text: include_str!("texts/tar.txt") },
    Usage { name: "tee", version: "tee (GNU coreutils) 9.1", scan: Scan::Permute, text: include_str!("texts/tee.txt") },
    Usage { name: "timeout", version: "timeout (GNU coreutils) 9.1", scan: Scan::Stop, text: include_str!("texts/timeout.txt") },
    Usage { name: "touch", version: "touch (GNU coreutils) 9.1", scan: Scan::Permute, text: include_str!("texts/touch.txt") },
    Usage { name: "tr", version: "tr (GNU coreutils) 9.1", scan: Scan::Stop, text: include_str!("texts/tr.txt") },
    Usage { name: "tree", version: "tree v2.1.0 (c) 1996 - 2022 by Steve Baker, Thomas Moore, Francesc Rocher, Florian Sesser, Kyosuke Tokoro", scan: Scan::Permute, text: include_str!("texts/tree.txt") },
    Usage { name: "truncate", version: "truncate (GNU coreutils) 9.1", scan: Scan::Permute, text: include_str!("texts/truncate.txt") },
    Usage { name: "tsort", version: "tsort (GNU coreutils) 9.1", scan: Scan::Permute, text: include_str!("texts/tsort.txt") },
    Usage { name: "tty", version: "tty (GNU coreutils) 9.1", scan: Scan::Permute, text: include_str!("texts/tty.txt") },
    Usage { name: "uname", version: "uname (GNU coreutils) 9.1", scan: Scan::Permute, text: include_str!("texts/uname.txt") },
    Usage { name: "unexpand", version: "unexpand (GNU coreutils) 9.1", scan: Scan::Permute, text: include_str!("texts/unexpand.txt") },
    Usage { name: "uniq", version: "uniq (GNU coreutils) 9.1", scan: Scan::Permute, text: include_str!("texts/uniq.txt") },
    Usage { name: "unzip", version: "UnZip 6.00 of 20 April 2009, by Debian. Original by Info-ZIP.", scan: Scan::Permute, text: include_str!("texts/unzip.txt") },
    Usage { name: "uptime", version: "uptime from procps-ng 4.0.2", scan: Scan::Permute, text: include_str!("texts/uptime.txt") },
    Usage { name: "wc", version: "wc (GNU coreutils) 9.1", scan: Scan::Permute, text: include_str!("texts/wc.txt") },
    Usage { name: "wget", version: "GNU Wget 1.21.3 built on linux-gnu.", scan: Scan::Permute, text: include_str!("texts/wget.txt") },
    Usage { name: "which", version: "which (debianutils) 5.7", scan: Scan::Permute, text: include_str!("texts/which.txt") },
    Usage { name: "whoami", version: "whoami (GNU coreutils) 9.1", scan: Scan::Permute, text: include_str!("texts/whoami.txt") },
    Usage { name: "xargs", version: "xargs (GNU findutils) 4.9.0", scan: Scan::Stop, text: include_str!("texts/xargs.txt") },
    Usage { name: "xxd", version: "xxd 2022-01-14 by Juergen Weigert et al.", scan: Scan::Permute, text: include_str!("texts/xxd.txt") },
    Usage { name: "yes", version: "yes (GNU coreutils) 9.1", scan: Scan::Permute, text: include_str!("texts/yes.txt") },
    Usage { name: "zcat", version: "zcat (gzip) 1.12", scan: Scan::Permute, text: include_str!("texts/zcat.txt") },
    Usage { name: "zip", version: "This is Zip 3.0 (July 5th 2008), by Info-ZIP.", scan: Scan::Permute, text: include_str!("texts/zip.txt") },
];

/// Every usage, sorted by name.
pub fn usages() -> &'static [Usage] {
    USAGES
}

/// The usage of the utility `name`.
pub fn find(name: &str) -> Option<&'static Usage> {
    USAGES.binary_search_by(|usage| usage.name.cmp(name)).ok().map(|index| &USAGES[index])
}

/// The text `--help` prints when the command was run as `arg0` (GNU tools
/// name themselves as invoked: `/bin/ls --help` shows `Usage: /bin/ls`).
pub fn help_text(usage: &Usage, arg0: &str) -> String {
    if arg0 == usage.name || arg0.is_empty() {
        return usage.text.to_string();
    }
    let mut text = String::with_capacity(usage.text.len() + 16);
    for line in usage.text.split_inclusive('\n') {
        let renamed = ["Usage: ", "  or:  ", "usage: "].iter().find_map(|prefix| {
            let rest = line.strip_prefix(prefix)?.strip_prefix(usage.name)?;
            (rest.starts_with([' ', '\n']) || rest.is_empty()).then(|| format!("{prefix}{arg0}{rest}"))
        });
        text.push_str(renamed.as_deref().unwrap_or(line));
    }
    text
}

/// What `--version` prints: the real tool's first line, then our note,
/// except for the tools whose real `--version` is that one line alone
/// (util-linux's and procps's), which stay exact.
pub fn version_text(usage: &Usage) -> String {
    if usage.version.contains(" from util-linux ") || usage.version.contains(" from procps-ng ") {
        return format!("{}\n", usage.version);
    }
    format!("{}\n{VERSION_NOTE}", usage.version)
}

/// Runs the registry's utility number `index`, first answering `--help`
/// and `--version` as the real tool would. The utility is known by its
/// place in the registry, not by `args[0]`, which may be any name
/// (`hash -p /bin/cat kitty`).
async fn run_with_usage(index: usize, ctx: &mut Invocation<'_>) -> i32 {
    let Some(utility) = crate::commands::registry().get(index) else {
        ctx.report("command not found").await;
        return 127;
    };
    if let Some(usage) = find(utility.name) {
        if let Some(request) = scan(usage.text, usage.scan, ctx.args.get(1..).unwrap_or(&[])) {
            let output = match request {
                Request::Help => help_text(usage, ctx.name()),
                Request::Version => version_text(usage),
            };
            return match ctx.write_out(output.as_bytes()).await {
                Ok(()) => 0,
                Err(error) => ctx.write_failed(error).await,
            };
        }
    }
    (utility.run)(ctx).await
}

/// The entry point for the registry's utility number `INDEX`.
fn entry<'a, const INDEX: usize>(ctx: &'a mut Invocation<'_>) -> LocalFuture<'a, i32> {
    Box::pin(run_with_usage(INDEX, ctx))
}

/// One [`entry`] per registry index, for as many utilities as the
/// registry may hold (a test checks it holds no more).
macro_rules! entries {
    ($($index:literal)*) => {
        &[$(entry::<$index>),*]
    };
}

static ENTRIES: &[UtilityFn] = entries!(
    0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39
    40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63 64 65 66 67 68 69 70 71 72 73 74 75 76
    77 78 79 80 81 82 83 84 85 86 87 88 89 90 91 92 93 94 95 96 97 98 99 100 101 102 103 104 105 106 107 108 109 110
    111 112 113 114 115 116 117 118 119 120 121 122 123 124 125 126 127 128 129 130 131 132 133 134 135 136 137 138
    139 140 141 142 143 144 145 146 147 148 149 150 151 152 153 154 155 156 157 158 159 160 161 162 163 164 165 166
    167 168 169 170 171 172 173 174 175 176 177 178 179 180 181 182 183 184 185 186 187 188 189 190 191 192 193 194
    195 196 197 198 199 200 201 202 203 204 205 206 207 208 209 210 211 212 213 214 215 216 217 218 219 220 221 222
    223 224 225 226 227 228 229 230 231 232 233 234 235 236 237 238 239 240 241 242 243 244 245 246 247 248 249 250
    251 252 253 254 255
);

/// The function the sandbox registers for the registry's utility number
/// `index`: it answers `--help` and `--version` as the real tool would,
/// before the utility's own parsing, and otherwise runs the utility.
pub fn entry_point(index: usize) -> Option<UtilityFn> {
    ENTRIES.get(index).copied()
}

#[cfg(test)]
mod tests;
