//! File types for `-t`/`-T`/`--type-list`: a name and the file-name globs
//! that make a file of that type. The table holds the common types of
//! ripgrep 13 with the same globs (not all of its 169).

use crate::commands::file::glob;

/// The built-in types, sorted by name: `(name, globs)`.
pub const TYPES: &[(&str, &[&str])] = &[
    ("asm", &["*.S", "*.asm", "*.s"]),
    ("awk", &["*.awk"]),
    ("bazel", &["*.BUILD", "*.bazel", "*.bazelrc", "*.bzl", "BUILD", "WORKSPACE"]),
    ("c", &["*.[chH]", "*.[chH].in", "*.cats"]),
    ("cmake", &["*.cmake", "CMakeLists.txt"]),
    ("config", &["*.cfg", "*.conf", "*.config", "*.ini"]),
    (
        "cpp",
        &["*.[ChH]", "*.[ChH].in", "*.[ch]pp", "*.[ch]pp.in", "*.[ch]xx", "*.[ch]xx.in", "*.cc", "*.cc.in", "*.hh", "*.hh.in", "*.inl"],
    ),
    ("cs", &["*.cs"]),
    ("css", &["*.css", "*.scss"]),
    ("csv", &["*.csv"]),
    ("d", &["*.d"]),
    ("dart", &["*.dart"]),
    ("diff", &["*.diff", "*.patch"]),
    ("docker", &["*Dockerfile*"]),
    ("elixir", &["*.eex", "*.ex", "*.exs"]),
    ("elm", &["*.elm"]),
    ("erlang", &["*.erl", "*.hrl"]),
    ("fish", &["*.fish"]),
    ("fortran", &["*.F", "*.F77", "*.F90", "*.F95", "*.f", "*.f77", "*.f90", "*.f95", "*.pfo"]),
    ("go", &["*.go"]),
    ("gradle", &["*.gradle"]),
    ("groovy", &["*.gradle", "*.groovy"]),
    ("h", &["*.h", "*.hpp"]),
    ("haskell", &["*.c2hs", "*.cpphs", "*.hs", "*.hsc", "*.lhs"]),
    ("hs", &["*.hs", "*.lhs"]),
    ("html", &["*.ejs", "*.htm", "*.html"]),
    ("java", &["*.java", "*.jsp", "*.jspx", "*.properties"]),
    ("jinja", &["*.j2", "*.jinja", "*.jinja2"]),
    ("js", &["*.js", "*.jsx", "*.vue"]),
    ("json", &["*.json", "composer.lock"]),
    ("jsonl", &["*.jsonl"]),
    ("julia", &["*.jl"]),
    ("jupyter", &["*.ipynb", "*.jpynb"]),
    ("kotlin", &["*.kt", "*.kts"]),
    ("less", &["*.less"]),
    ("lisp", &["*.el", "*.jl", "*.lisp", "*.lsp", "*.sc", "*.scm"]),
    ("lock", &["*.lock", "package-lock.json"]),
    ("log", &["*.log"]),
    ("lua", &["*.lua"]),
    (
        "make",
        &[
            "*.mak",
            "*.mk",
            "[Gg][Nn][Uu]makefile",
            "[Gg][Nn][Uu]makefile.am",
            "[Gg][Nn][Uu]makefile.in",
            "[Mm]akefile",
            "[Mm]akefile.am",
            "[Mm]akefile.in",
        ],
    ),
    ("markdown", &["*.markdown", "*.md", "*.mdown", "*.mkdn"]),
    ("matlab", &["*.m"]),
    ("md", &["*.markdown", "*.md", "*.mdown", "*.mkdn"]),
    ("ml", &["*.ml"]),
    ("nim", &["*.nim", "*.nimble", "*.nimf", "*.nims"]),
    ("nix", &["*.nix"]),
    ("objc", &["*.h", "*.m"]),
    ("ocaml", &["*.ml", "*.mli", "*.mll", "*.mly"]),
    ("pdf", &["*.pdf"]),
    ("perl", &["*.PL", "*.perl", "*.pl", "*.plh", "*.plx", "*.pm", "*.t"]),
    ("php", &["*.php", "*.php3", "*.php4", "*.php5", "*.phtml"]),
    ("protobuf", &["*.proto"]),
    ("ps", &["*.cdxml", "*.ps1", "*.ps1xml", "*.psd1", "*.psm1"]),
    ("py", &["*.py"]),
    ("r", &["*.R", "*.Rmd", "*.Rnw", "*.r"]),
    ("readme", &["*README", "README*"]),
    ("rst", &["*.rst"]),
    ("ruby", &["*.gemspec", "*.rb", "*.rbw", ".irbrc", "Gemfile", "Rakefile", "config.ru"]),
    ("rust", &["*.rs"]),
    ("sass", &["*.sass", "*.scss"]),
    ("scala", &["*.sbt", "*.scala"]),
    (
        "sh",
        &[
            "*.bash",
            "*.bashrc",
            "*.csh",
            "*.cshrc",
            "*.ksh",
            "*.kshrc",
            "*.sh",
            "*.tcsh",
            "*.zsh",
            ".bash_login",
            ".bash_logout",
            ".bash_profile",
            ".bashrc",
            ".cshrc",
            ".kshrc",
            ".login",
            ".logout",
            ".profile",
            ".tcshrc",
            ".zlogin",
            ".zlogout",
            ".zprofile",
            ".zshenv",
            ".zshrc",
            "bash_login",
            "bash_logout",
            "bash_profile",
            "bashrc",
            "profile",
            "zlogin",
            "zlogout",
            "zprofile",
            "zshenv",
            "zshrc",
        ],
    ),
    ("sql", &["*.psql", "*.sql"]),
    ("swift", &["*.swift"]),
    ("tex", &["*.bib", "*.cls", "*.dtx", "*.ins", "*.ltx", "*.sty", "*.tex"]),
    ("tf", &["*.tf"]),
    ("toml", &["*.toml", "Cargo.lock"]),
    ("ts", &["*.ts", "*.tsx"]),
    ("txt", &["*.txt"]),
    ("vim", &["*.vim"]),
    ("xml", &["*.dtd", "*.rng", "*.sch", "*.xhtml", "*.xjb", "*.xml", "*.xml.dist", "*.xsd", "*.xsl", "*.xslt"]),
    ("yaml", &["*.yaml", "*.yml"]),
    ("zig", &["*.zig"]),
    ("zsh", &["*.zsh", ".zlogin", ".zlogout", ".zprofile", ".zshenv", ".zshrc", "zlogin", "zlogout", "zprofile", "zshenv", "zshrc"]),
];

/// The selected (`-t`) and negated (`-T`) types, as glob lists.
#[derive(Default)]
pub struct TypeFilter {
    selected: Vec<String>,
    negated: Vec<String>,
}

impl TypeFilter {
    /// Builds the filter; `Err(name)` for an unknown type.
    pub fn new(selected: &[String], negated: &[String], added: &[(String, Vec<String>)]) -> Result<TypeFilter, String> {
        let lookup = |name: &String| -> Result<Vec<String>, String> {
            let mut globs: Vec<String> = Vec::new();
            let mut known = false;
            if let Some((_, builtin)) = TYPES.iter().find(|(type_name, _)| type_name == name) {
                globs.extend(builtin.iter().map(|g| g.to_string()));
                known = true;
            }
            for (added_name, added_globs) in added {
                if added_name == name {
                    globs.extend(added_globs.iter().cloned());
                    known = true;
                }
            }
            if known {
                Ok(globs)
            } else {
                Err(name.clone())
            }
        };
        let mut filter = TypeFilter::default();
        for name in selected {
            filter.selected.extend(lookup(name)?);
        }
        for name in negated {
            filter.negated.extend(lookup(name)?);
        }
        Ok(filter)
    }

    /// True when a file named `name` is left out by the types.
    pub fn excludes(&self, name: &str) -> bool {
        if self.negated.iter().any(|g| glob::matches(g, name)) {
            return true;
        }
        !self.selected.is_empty() && !self.selected.iter().any(|g| glob::matches(g, name))
    }
}

/// The `--type-list` text: `name: glob, glob` per type, with the types
/// `--type-add` defined merged in.
pub fn type_list(added: &[(String, Vec<String>)]) -> String {
    let mut all: std::collections::BTreeMap<String, Vec<String>> =
        TYPES.iter().map(|(name, globs)| (name.to_string(), globs.iter().map(|g| g.to_string()).collect())).collect();
    for (name, globs) in added {
        all.entry(name.clone()).or_default().extend(globs.iter().cloned());
    }
    let mut out = String::new();
    for (name, mut globs) in all {
        globs.sort();
        globs.dedup();
        out.push_str(&format!("{name}: {}\n", globs.join(", ")));
    }
    out
}
