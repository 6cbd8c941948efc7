//! Shell options: `set -o` flags and `shopt` settings, kept outside the
//! variable namespace so no assignment can change them.

use super::vars::{Value, Variable};

/// `set` options and `shopt` options that scripts use.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Options {
    /// `set -e`.
    pub errexit: bool,
    /// `set -u`.
    pub nounset: bool,
    /// `set -o pipefail`.
    pub pipefail: bool,
    /// `set -x`.
    pub xtrace: bool,
    /// `set -v`.
    pub verbose: bool,
    /// `set -f`.
    pub noglob: bool,
    /// `set -C`.
    pub noclobber: bool,
    /// `set -a`.
    pub allexport: bool,
    /// `set -n`: read commands without running them.
    pub noexec: bool,
    /// `set -h` (accepted, no effect: there is no command hash).
    pub hashall: bool,
    /// `set -B`: brace expansion (on by default).
    pub braceexpand: bool,
    /// `set -o posix`.
    pub posix: bool,
    /// `set -E`: ERR trap inherited by functions.
    pub errtrace: bool,
    /// `set -T`: DEBUG/RETURN traps inherited by functions.
    pub functrace: bool,
    /// `shopt -s extglob`.
    pub extglob: bool,
    /// `shopt -s nullglob`.
    pub nullglob: bool,
    /// `shopt -s failglob`.
    pub failglob: bool,
    /// `shopt -s dotglob`.
    pub dotglob: bool,
    /// `shopt -s nocaseglob`.
    pub nocaseglob: bool,
    /// `shopt -s nocasematch`.
    pub nocasematch: bool,
    /// `shopt -s globstar`.
    pub globstar: bool,
    /// `shopt -s globskipdots` (on by default): globs never match `.` and `..`.
    pub globskipdots: bool,
    /// `shopt -s lastpipe`.
    pub lastpipe: bool,
    /// `shopt -s expand_aliases`.
    pub expand_aliases: bool,
    /// `shopt -s xpg_echo`.
    pub xpg_echo: bool,
    /// `shopt -s inherit_errexit`.
    pub inherit_errexit: bool,
    /// `shopt -s nullglob`-like others that are accepted and remembered.
    pub other_shopts: Vec<(String, bool)>,
    /// The shell runs a `-c` command string (`c` in `$-`).
    pub command_string: bool,
    /// `set -o emacs` / `set -o vi`: remembered (one excludes the other), no effect.
    pub line_editing: Option<&'static str>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            errexit: false,
            nounset: false,
            pipefail: false,
            xtrace: false,
            verbose: false,
            noglob: false,
            noclobber: false,
            allexport: false,
            noexec: false,
            hashall: true,
            braceexpand: true,
            posix: false,
            errtrace: false,
            functrace: false,
            extglob: false,
            nullglob: false,
            failglob: false,
            dotglob: false,
            nocaseglob: false,
            nocasematch: false,
            globstar: false,
            globskipdots: true,
            lastpipe: false,
            expand_aliases: false,
            xpg_echo: false,
            inherit_errexit: false,
            other_shopts: SHOPT_DEFAULTS.iter().map(|(n, v)| (n.to_string(), *v)).collect(),
            command_string: false,
            line_editing: None,
        }
    }
}

/// `shopt` options accepted without a dedicated field, with bash's defaults.
const SHOPT_DEFAULTS: &[(&str, bool)] = &[
    ("assoc_expand_once", false),
    ("autocd", false),
    ("cdable_vars", false),
    ("cdspell", false),
    ("checkhash", false),
    ("checkjobs", false),
    ("checkwinsize", true),
    ("cmdhist", true),
    ("compat31", false),
    ("compat32", false),
    ("compat40", false),
    ("compat41", false),
    ("compat42", false),
    ("compat43", false),
    ("compat44", false),
    ("complete_fullquote", true),
    ("direxpand", false),
    ("dirspell", false),
    ("execfail", false),
    ("extdebug", false),
    ("extquote", true),
    ("force_fignore", true),
    ("globasciiranges", true),
    ("gnu_errfmt", false),
    ("histappend", false),
    ("histreedit", false),
    ("histverify", false),
    ("hostcomplete", true),
    ("huponexit", false),
    ("interactive_comments", true),
    ("lithist", false),
    ("localvar_inherit", false),
    ("localvar_unset", false),
    ("login_shell", false),
    ("mailwarn", false),
    ("no_empty_cmd_completion", false),
    ("noexpand_translation", false),
    ("patsub_replacement", true),
    ("progcomp", true),
    ("progcomp_alias", false),
    ("promptvars", true),
    ("restricted_shell", false),
    ("shift_verbose", false),
    ("sourcepath", true),
    ("varredir_close", false),
];

/// Every `shopt` name, in the order `shopt` lists them (bash's table order).
const SHOPT_ORDER: &[&str] = &[
    "autocd",
    "assoc_expand_once",
    "cdable_vars",
    "cdspell",
    "checkhash",
    "checkjobs",
    "checkwinsize",
    "cmdhist",
    "compat31",
    "compat32",
    "compat40",
    "compat41",
    "compat42",
    "compat43",
    "compat44",
    "complete_fullquote",
    "direxpand",
    "dirspell",
    "dotglob",
    "execfail",
    "expand_aliases",
    "extdebug",
    "extglob",
    "extquote",
    "failglob",
    "force_fignore",
    "globasciiranges",
    "globskipdots",
    "globstar",
    "gnu_errfmt",
    "histappend",
    "histreedit",
    "histverify",
    "hostcomplete",
    "huponexit",
    "inherit_errexit",
    "interactive_comments",
    "lastpipe",
    "lithist",
    "localvar_inherit",
    "localvar_unset",
    "login_shell",
    "mailwarn",
    "no_empty_cmd_completion",
    "nocaseglob",
    "nocasematch",
    "noexpand_translation",
    "nullglob",
    "patsub_replacement",
    "progcomp",
    "progcomp_alias",
    "promptvars",
    "restricted_shell",
    "shift_verbose",
    "sourcepath",
    "varredir_close",
    "xpg_echo",
];

/// `set -o` names, in the order `set -o` lists them, with their letters.
pub const SET_OPTIONS: &[(&str, Option<char>)] = &[
    ("allexport", Some('a')),
    ("braceexpand", Some('B')),
    ("emacs", None),
    ("errexit", Some('e')),
    ("errtrace", Some('E')),
    ("functrace", Some('T')),
    ("hashall", Some('h')),
    ("histexpand", Some('H')),
    ("history", None),
    ("ignoreeof", None),
    ("interactive-comments", None),
    ("keyword", Some('k')),
    ("monitor", Some('m')),
    ("noclobber", Some('C')),
    ("noexec", Some('n')),
    ("noglob", Some('f')),
    ("nolog", None),
    ("notify", Some('b')),
    ("nounset", Some('u')),
    ("onecmd", Some('t')),
    ("physical", Some('P')),
    ("pipefail", None),
    ("posix", None),
    ("privileged", Some('p')),
    ("verbose", Some('v')),
    ("vi", None),
    ("xtrace", Some('x')),
];

impl Options {
    /// The value of a `set -o` option by name; `None` for unknown names.
    pub fn get_set_option(&self, name: &str) -> Option<bool> {
        Some(match name {
            "allexport" => self.allexport,
            "braceexpand" => self.braceexpand,
            "errexit" => self.errexit,
            "errtrace" => self.errtrace,
            "functrace" => self.functrace,
            "hashall" => self.hashall,
            "interactive-comments" => true,
            "noclobber" => self.noclobber,
            "noexec" => self.noexec,
            "noglob" => self.noglob,
            "nounset" => self.nounset,
            "pipefail" => self.pipefail,
            "posix" => self.posix,
            "verbose" => self.verbose,
            "xtrace" => self.xtrace,
            "emacs" | "vi" => self.line_editing == Some(name),
            "histexpand" | "history" | "ignoreeof" | "keyword" | "monitor" | "nolog" | "notify" | "onecmd" | "physical" | "privileged" => {
                false
            }
            _ => return None,
        })
    }

    /// Sets a `set -o` option; false for unknown names.
    pub fn set_set_option(&mut self, name: &str, on: bool) -> bool {
        let slot = match name {
            "allexport" => &mut self.allexport,
            "braceexpand" => &mut self.braceexpand,
            "errexit" => &mut self.errexit,
            "errtrace" => &mut self.errtrace,
            "functrace" => &mut self.functrace,
            "hashall" => &mut self.hashall,
            "noclobber" => &mut self.noclobber,
            "noexec" => &mut self.noexec,
            "noglob" => &mut self.noglob,
            "nounset" => &mut self.nounset,
            "pipefail" => &mut self.pipefail,
            "posix" => &mut self.posix,
            "verbose" => &mut self.verbose,
            "xtrace" => &mut self.xtrace,
            "emacs" | "vi" => {
                let editor = if name == "vi" { "vi" } else { "emacs" };
                if on {
                    self.line_editing = Some(editor);
                } else if self.line_editing == Some(editor) {
                    self.line_editing = None;
                }
                return true;
            }
            "histexpand"
            | "history"
            | "ignoreeof"
            | "interactive-comments"
            | "keyword"
            | "monitor"
            | "nolog"
            | "notify"
            | "onecmd"
            | "physical"
            | "privileged" => return true,
            _ => return false,
        };
        *slot = on;
        true
    }

    /// The option name for a `set` letter.
    pub fn name_for_letter(letter: char) -> Option<&'static str> {
        SET_OPTIONS.iter().find(|(_, l)| *l == Some(letter)).map(|(n, _)| *n)
    }

    /// `$-`: the letters of the options that are on.
    pub fn flags(&self) -> String {
        let mut out = String::new();
        for (letter, on) in [
            ('a', self.allexport),
            ('e', self.errexit),
            ('f', self.noglob),
            ('h', self.hashall),
            ('n', self.noexec),
            ('u', self.nounset),
            ('v', self.verbose),
            ('x', self.xtrace),
            ('B', self.braceexpand),
            ('C', self.noclobber),
            ('E', self.errtrace),
            ('T', self.functrace),
        ] {
            if on {
                out.push(letter);
            }
        }
        if self.command_string {
            out.push('c');
        }
        out
    }

    /// The value of a `shopt` option; `None` for unknown names.
    pub fn get_shopt(&self, name: &str) -> Option<bool> {
        Some(match name {
            "extglob" => self.extglob,
            "nullglob" => self.nullglob,
            "failglob" => self.failglob,
            "dotglob" => self.dotglob,
            "nocaseglob" => self.nocaseglob,
            "nocasematch" => self.nocasematch,
            "globstar" => self.globstar,
            "globskipdots" => self.globskipdots,
            "lastpipe" => self.lastpipe,
            "expand_aliases" => self.expand_aliases,
            "xpg_echo" => self.xpg_echo,
            "inherit_errexit" => self.inherit_errexit,
            other => return self.other_shopts.iter().find(|(n, _)| n == other).map(|(_, v)| *v),
        })
    }

    /// Sets a `shopt` option; false for unknown names.
    pub fn set_shopt(&mut self, name: &str, on: bool) -> bool {
        let slot = match name {
            "extglob" => &mut self.extglob,
            "nullglob" => &mut self.nullglob,
            "failglob" => &mut self.failglob,
            "dotglob" => &mut self.dotglob,
            "nocaseglob" => &mut self.nocaseglob,
            "nocasematch" => &mut self.nocasematch,
            "globstar" => &mut self.globstar,
            "globskipdots" => &mut self.globskipdots,
            "lastpipe" => &mut self.lastpipe,
            "expand_aliases" => &mut self.expand_aliases,
            "xpg_echo" => &mut self.xpg_echo,
            "inherit_errexit" => &mut self.inherit_errexit,
            other => match self.other_shopts.iter_mut().find(|(n, _)| n == other) {
                Some((_, value)) => value,
                None => return false,
            },
        };
        *slot = on;
        true
    }

    /// Every `shopt` name with its value, in the order bash lists them.
    pub fn all_shopts(&self) -> Vec<(String, bool)> {
        SHOPT_ORDER.iter().map(|name| (name.to_string(), self.get_shopt(name).unwrap_or(false))).collect()
    }
}

impl super::Shell {
    /// Refreshes the read-only SHELLOPTS and BASHOPTS variables (the `set -o`
    /// and `shopt` options that are on, colon-separated) after a change.
    pub(super) fn sync_option_variables(&mut self) {
        let shellopts: Vec<&str> =
            SET_OPTIONS.iter().map(|(name, _)| *name).filter(|name| self.options.get_set_option(name) == Some(true)).collect();
        let bashopts: Vec<String> = self.options.all_shopts().into_iter().filter(|(_, on)| *on).map(|(name, _)| name).collect();
        for (name, value) in [("SHELLOPTS", shellopts.join(":")), ("BASHOPTS", bashopts.join(":"))] {
            let mut var = self.vars.get(name).cloned().unwrap_or_else(|| Variable::scalar(""));
            var.value = Some(Value::Scalar(value));
            var.attributes.readonly = true;
            self.vars.insert(name, var);
        }
    }
}
