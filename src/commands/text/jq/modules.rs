//! jq's module system over the sandbox's filesystem: `import`/`include`
//! directives are found along jq 1.7.1's search path (`-L` directories, or
//! `~/.jq`, `$ORIGIN/../lib/jq` and `$ORIGIN/../lib`, where `$ORIGIN` is
//! `/usr/bin`, where the sandbox's `jq` lives), parsed into the one
//! [`Program`] with their names bound as `alias::name`, and `$HOME/.jq` is
//! included when it is a file. [`Library`] answers `modulemeta` and
//! `get_search_list` at run time from modules read before the run.

use super::ast::Ast;
use super::json::Reader;
use super::parse::{CompileError, Dep, Export, Header, Parser, Program};
use super::value::{Map, Value};
use crate::fs::canonical::{canonicalize, Existence};
use crate::fs::path::normalize;
use crate::host::LocalFuture;
use crate::utility::Invocation;
use std::rc::Rc;

/// Where the sandbox's `jq` executable is, for `$ORIGIN`.
pub const ORIGIN: &str = "/usr/bin";

/// The most files `modulemeta` looks at in the search path.
const MAX_LIBRARY_FILES: usize = 2000;

/// What a directive binds in its importer.
enum Binding {
    /// A code module's functions, under `alias::` or (include) bare.
    Code(Option<Rc<str>>, Vec<Export>),
    /// A data file, as `$alias::alias` and `$alias`.
    Data(Rc<str>, Value),
}

/// The search path and the `.jq` files in it, for `modulemeta` and
/// `get_search_list` at run time.
#[derive(Default)]
pub struct Library {
    /// The search path as `get_search_list` gives it.
    pub search_list: Vec<String>,
    /// The directory relative module paths of the main program start at.
    pub prog_origin: String,
    /// The search path's directories, absolute.
    dirs: Vec<String>,
    /// `.jq` files under the search path: absolute path and text.
    files: Vec<(String, String)>,
}

/// Loads the modules a program needs.
pub struct Linker<'c, 'i> {
    ctx: &'c Invocation<'i>,
    /// The search path as given (`-L` directories made absolute, or jq's default).
    search_list: Vec<String>,
    home: Option<String>,
    /// Code modules parsed so far: path and exports (none while loading: a cycle).
    loaded: Vec<(String, Option<Vec<Export>>)>,
}

/// A compile error as jq reports it (the caller adds a newline).
fn compile_error(e: CompileError) -> String {
    format!("jq: error: {}", e.0)
}

/// jq's checks on a module's relative path.
fn validate_relpath(name: &str) -> Result<(), String> {
    if name.contains('\\') {
        return Err(format!("Modules must be named by relative paths using '/', not '\\' ({name})"));
    }
    let parts: Vec<&str> = name.split('/').collect();
    for (i, part) in parts.iter().enumerate() {
        if *part == ".." {
            return Err(format!("Relative paths to modules may not traverse to parent directories ({name})"));
        }
        if i > 0 && parts.get(i - 1) == Some(part) {
            return Err(format!("module names must not have equal consecutive components: {name}"));
        }
    }
    Ok(())
}

/// The directory part of an absolute path.
fn dirname(path: &str) -> String {
    match path.rfind('/') {
        Some(0) | None => "/".to_string(),
        Some(i) => path.get(..i).unwrap_or("/").to_string(),
    }
}

/// The file names jq tries for `relpath` in directory `dir`.
fn candidates(dir: &str, relpath: &str, suffix: &str) -> [String; 3] {
    let base = relpath.rsplit('/').next().unwrap_or(relpath);
    [format!("{dir}/{relpath}{suffix}"), format!("{dir}/{relpath}/jq/main{suffix}"), format!("{dir}/{relpath}/{base}{suffix}")]
}

/// A directive's `search` metadata as a list of directories.
fn search_of(dep: &Dep, defaults: &[String]) -> Vec<Value> {
    match &info(dep, "search") {
        None => std::iter::once(Value::str(".")).chain(defaults.iter().map(|d| Value::str(d))).collect(),
        Some(Value::Arr(items)) => items.to_vec(),
        Some(other) => vec![other.clone()],
    }
}

/// A key of a directive's metadata.
fn info(dep: &Dep, key: &str) -> Option<Value> {
    match &dep.info {
        Value::Obj(m) => m.get(key).cloned(),
        _ => None,
    }
}

fn flag(dep: &Dep, key: &str) -> bool {
    matches!(info(dep, key), Some(Value::Bool(true)))
}

impl<'c, 'i> Linker<'c, 'i> {
    /// A linker for `-L` directories `dirs` (jq's default search path when empty).
    pub async fn new(ctx: &'c Invocation<'i>, dirs: &[String]) -> Linker<'c, 'i> {
        let mut search_list = Vec::new();
        if dirs.is_empty() {
            search_list = vec!["~/.jq".to_string(), "$ORIGIN/../lib/jq".to_string(), "$ORIGIN/../lib".to_string()];
        }
        for d in dirs {
            let path = normalize(&ctx.cwd, d);
            search_list.push(match canonicalize(&*ctx.fs, &path, Existence::All).await {
                Ok(real) => real,
                Err(_) => d.clone(),
            });
        }
        let home = ctx.env_var("HOME").map(str::to_string);
        Linker { ctx, search_list, home, loaded: Vec::new() }
    }

    /// Expands one search-path entry as jq does: `~/`, `$ORIGIN/`, and
    /// relative paths against the importing file's directory.
    fn expand(&self, path: &str, lib_origin: Option<&str>) -> Result<String, String> {
        let path = match path.strip_prefix("~/") {
            Some(rest) => match &self.home {
                Some(home) => format!("{home}/{rest}"),
                None => return Err(format!("Could not expand {path}. (Could not find home directory.)")),
            },
            None => path.to_string(),
        };
        Ok(if path == "." {
            self.ctx.cwd.clone()
        } else if let Some(rest) = path.strip_prefix("$ORIGIN/") {
            format!("{ORIGIN}/{rest}")
        } else if let (Some(origin), false) = (lib_origin, path.starts_with('/')) {
            normalize(origin, &path)
        } else {
            normalize(&self.ctx.cwd, &path)
        })
    }

    /// Finds module `relpath` along `search`; jq's "module not found" otherwise.
    async fn find(&self, relpath: &str, search: &[Value], suffix: &str, lib_origin: Option<&str>) -> Result<String, String> {
        validate_relpath(relpath)?;
        let mut expand_error = None;
        for dir in search {
            let Value::Str(dir) = dir else { continue };
            if dir.is_empty() {
                continue;
            }
            let dir = match self.expand(dir, lib_origin) {
                Ok(d) => d,
                Err(e) => {
                    expand_error = Some(e);
                    continue;
                }
            };
            for candidate in candidates(&dir, relpath, suffix) {
                let path = normalize("/", &candidate);
                if self.ctx.fs.metadata(&path).await.is_ok() {
                    return Ok(canonicalize(&*self.ctx.fs, &path, Existence::All).await.unwrap_or(path));
                }
            }
        }
        Err(match expand_error {
            Some(e) => format!("module not found: {relpath} ({e})"),
            None => format!("module not found: {relpath}"),
        })
    }

    /// Loads what `deps` name, for a file in directory `lib_origin`.
    async fn load_deps(&mut self, prog: &mut Program, deps: &[Dep], lib_origin: &str) -> Result<Vec<Binding>, String> {
        let mut bindings = Vec::new();
        let defaults = self.search_list.clone();
        for dep in deps {
            let search = search_of(dep, &defaults);
            let suffix = if dep.is_data { ".json" } else { ".jq" };
            let path = match self.find(&dep.relpath, &search, suffix, Some(lib_origin)).await {
                Ok(p) => p,
                Err(_) if flag(dep, "optional") => continue,
                Err(e) => return Err(format!("jq: error: {e}\n")),
            };
            if dep.is_data {
                let alias = dep.alias.clone().unwrap_or_else(|| Rc::from(""));
                let data = match self.ctx.fs.read_file(&path).await {
                    Ok(d) => d,
                    Err(_) if flag(dep, "optional") => continue,
                    Err(e) => return Err(format!("jq: error loading data file {path}: Could not open {path}: {e}\n")),
                };
                let value = if flag(dep, "raw") {
                    Value::str(&String::from_utf8_lossy(&data))
                } else {
                    let mut reader = Reader::new(&data);
                    let mut items = Vec::new();
                    while let Some(v) = reader.next_value() {
                        match v {
                            Ok(v) => items.push(v),
                            Err(e) => return Err(format!("jq: error loading data file {path}: {e}\n")),
                        }
                    }
                    Value::arr(items)
                };
                bindings.push(Binding::Data(alias, value));
                continue;
            }
            let exports = match self.loaded.iter().find(|(p, _)| *p == path) {
                Some((_, Some(exports))) => exports.clone(),
                Some((_, None)) => return Err(format!("jq: error: module {path} imports itself (a cycle)\n")),
                None => self.load_code(prog, path).await?,
            };
            bindings.push(Binding::Code(dep.alias.clone(), exports));
        }
        Ok(bindings)
    }

    /// Reads and parses the code module at `path` (and what it imports).
    fn load_code<'a>(&'a mut self, prog: &'a mut Program, path: String) -> LocalFuture<'a, Result<Vec<Export>, String>> {
        Box::pin(async move {
            let data = match self.ctx.fs.read_file(&path).await {
                Ok(d) => d,
                Err(e) => return Err(format!("jq: error loading data file {path}: Could not open {path}: {e}\n")),
            };
            let text = String::from_utf8_lossy(&data).into_owned();
            self.loaded.push((path.clone(), None));
            let header = read_header(&text, &path)?;
            let bindings = self.load_deps(prog, &header.deps, &dirname(&path)).await?;
            let mark = prog.mark();
            bind(prog, bindings);
            let exports = {
                let mut p = Parser::new(&text, prog);
                p.set_origin(&path);
                p.resume(header.body);
                p.parse_library(false)
            };
            prog.reset(mark);
            let exports = exports.map_err(compile_error)?;
            if let Some(entry) = self.loaded.iter_mut().find(|(p, _)| *p == path) {
                entry.1 = Some(exports.clone());
            }
            Ok(exports)
        })
    }

    /// Parses the main program `text`, whose relative module paths start
    /// at `origin`, after loading `~/.jq` and what it imports. The error is
    /// jq's message before the line ending it and `jq: 1 compile error`.
    pub async fn link_main(&mut self, prog: &mut Program, text: &str, origin: &str) -> Result<Ast, String> {
        let header = read_header(text, "<top-level>")?;
        let mut bindings = Vec::new();
        if let Some(home) = self.home.clone() {
            let path = normalize(&self.ctx.cwd, &format!("{home}/.jq"));
            if self.ctx.fs.metadata(&path).await.is_ok_and(|m| m.is_file()) {
                let exports = self.load_code(prog, path).await?;
                bindings.push(Binding::Code(None, exports));
            }
        }
        bindings.extend(self.load_deps(prog, &header.deps, origin).await?);
        bind(prog, bindings);
        let mut p = Parser::new(text, prog);
        p.resume(header.body);
        p.parse_main().map_err(compile_error)
    }

    /// The search path and its `.jq` files, read now for `modulemeta`
    /// (only when the program mentions it).
    pub async fn library(&self, wanted: bool, prog_origin: &str) -> Library {
        let mut lib = Library { search_list: self.search_list.clone(), prog_origin: prog_origin.to_string(), ..Library::default() };
        for d in &self.search_list {
            if let Ok(dir) = self.expand(d, None) {
                lib.dirs.push(dir);
            }
        }
        if !wanted {
            return lib;
        }
        let mut pending: Vec<(String, usize)> = lib.dirs.iter().map(|d| (d.clone(), 0)).collect();
        let mut seen = 0;
        while let Some((dir, depth)) = pending.pop() {
            let Ok(entries) = self.ctx.fs.read_dir(&dir).await else { continue };
            for entry in entries {
                seen += 1;
                if seen > MAX_LIBRARY_FILES {
                    return lib;
                }
                let path = normalize("/", &format!("{dir}/{}", entry.name));
                if entry.file_type == crate::fs::FileType::Directory {
                    if depth < 8 {
                        pending.push((path, depth + 1));
                    }
                } else if entry.name.ends_with(".jq") {
                    if let Ok(data) = self.ctx.fs.read_file(&path).await {
                        lib.files.push((path, String::from_utf8_lossy(&data).into_owned()));
                    }
                }
            }
        }
        lib
    }
}

/// Binds what directives loaded into the program's scope, later ones shadowing earlier.
fn bind(prog: &mut Program, bindings: Vec<Binding>) {
    for b in bindings {
        match b {
            Binding::Code(alias, exports) => {
                for (name, arity, index) in exports {
                    let name: Rc<str> = match &alias {
                        Some(a) => Rc::from(format!("{a}::{name}").as_str()),
                        None => name,
                    };
                    prog.bind_fn(name, arity, index);
                }
            }
            Binding::Data(alias, value) => {
                let index = prog.declare_global(&format!("{alias}::{alias}"), value);
                prog.bind_var(&alias, index);
            }
        }
    }
}

/// Parses the directives at the head of `text`.
fn read_header(text: &str, origin: &str) -> Result<Header, String> {
    let mut scratch = Program::default();
    let mut p = Parser::new(text, &mut scratch);
    p.set_origin(origin);
    p.parse_header().map_err(compile_error)
}

impl Library {
    /// `modulemeta`: the module's metadata with its `deps` and `defs`.
    pub fn modulemeta(&self, relpath: &str) -> Result<Value, String> {
        validate_relpath(relpath)?;
        let found = self.dirs.iter().find_map(|dir| {
            candidates(dir, relpath, ".jq").into_iter().find_map(|c| {
                let path = normalize("/", &c);
                self.files.iter().find(|(p, _)| *p == path)
            })
        });
        let Some((path, text)) = found else {
            return Err(format!("module not found: {relpath}"));
        };
        let Ok(header) = read_header(text, path) else {
            return Ok(Value::Null);
        };
        let mut scratch = Program::default();
        let defs = {
            let mut p = Parser::new(text, &mut scratch);
            p.set_origin(path);
            p.resume(header.body);
            p.parse_library(true)
        };
        let Ok(defs) = defs else {
            return Ok(Value::Null);
        };
        let mut names: Vec<String> = Vec::new();
        for (name, arity, _) in defs {
            let n = format!("{name}/{arity}");
            if !names.contains(&n) {
                names.push(n);
            }
        }
        let names = names.iter().map(|n| Value::str(n)).collect();
        let mut meta = match &header.meta {
            Some(Value::Obj(m)) => (**m).clone(),
            _ => Map::new(),
        };
        meta.insert(Rc::from("deps"), Value::arr(header.deps.into_iter().map(|d| d.info).collect()));
        meta.insert(Rc::from("defs"), Value::arr(names));
        Ok(Value::Obj(Rc::new(meta)))
    }
}
