//! The files an `rg` run searches: the named files as they are, and the
//! files under the named directories in name order (what ripgrep prints
//! with `--sort path`), leaving out hidden entries, symbolic links (unless
//! `-L`), and what the ignore files, `-g` globs and `-t`/`-T` types
//! exclude. Ignore files of the directories above the walk apply too;
//! `.gitignore` only inside a git repository (a directory holding `.git`).

use super::ignore::{Rules, Verdict};
use super::Config;
use crate::fs::{DirEntry, FileType};
use crate::utility::Invocation;

/// The ignore files of one directory.
pub struct Level {
    /// The directory, absolute, with a trailing `/`.
    dir: String,
    /// It holds `.git`.
    has_git: bool,
    rgignore: Option<Rules>,
    ignore: Option<Rules>,
    gitignore: Option<Rules>,
    exclude: Option<Rules>,
}

/// A file to search, as the walk yields it.
pub struct Found {
    /// The path to open.
    pub path: String,
    /// The path as printed.
    pub shown: String,
}

/// A directory being listed.
struct Frame {
    entries: std::vec::IntoIter<DirEntry>,
    path: String,
    shown: String,
    depth: usize,
    levels: usize,
}

/// The walk over one directory operand.
pub struct Walk {
    stack: Vec<Frame>,
    levels: Vec<Level>,
    /// Errors met (reported by the caller).
    pub errors: Vec<String>,
}

const IGNORE_NAMES: [&str; 3] = [".rgignore", ".ignore", ".gitignore"];

impl Walk {
    /// Starts a walk of the directory `path` (shown as `shown`, empty for
    /// the implicit `./`).
    pub async fn new(ctx: &Invocation<'_>, config: &Config, path: &str, shown: &str) -> Walk {
        let mut walk = Walk { stack: Vec::new(), levels: Vec::new(), errors: Vec::new() };
        if config.ignores_any() {
            let absolute = crate::fs::path::normalize(&ctx.cwd, path);
            let mut ancestors = Vec::new();
            let mut current = absolute.as_str();
            while let Some(index) = current.rfind('/') {
                current = &current[..index];
                ancestors.push(if current.is_empty() { "/".to_string() } else { current.to_string() });
            }
            if config.ignore_parents {
                for ancestor in ancestors.iter().rev() {
                    if let Ok(entries) = ctx.fs.read_dir(ancestor).await {
                        let level = read_level(ctx, config, ancestor, &entries).await;
                        walk.levels.push(level);
                    }
                }
            }
        }
        walk.enter(ctx, config, path, shown, 0).await;
        walk
    }

    async fn enter(&mut self, ctx: &Invocation<'_>, config: &Config, path: &str, shown: &str, depth: usize) {
        let absolute = crate::fs::path::normalize(&ctx.cwd, path);
        let mut entries = match ctx.fs.read_dir(&absolute).await {
            Ok(entries) => entries,
            Err(error) => {
                let name = if shown.is_empty() { "." } else { shown };
                self.errors.push(format!("{name}: {error} (os error {})", error.errno()));
                return;
            }
        };
        entries.sort_by(|a, b| a.name.as_bytes().cmp(b.name.as_bytes()));
        let levels = self.levels.len();
        if config.ignores_any() {
            let level = read_level(ctx, config, &absolute, &entries).await;
            self.levels.push(level);
        }
        self.stack.push(Frame { entries: entries.into_iter(), path: path.to_string(), shown: shown.to_string(), depth, levels });
    }

    /// The next file to search, `None` when the walk is over.
    pub async fn next(&mut self, ctx: &Invocation<'_>, config: &Config) -> Option<Found> {
        loop {
            let frame = self.stack.last_mut()?;
            let Some(entry) = frame.entries.next() else {
                let levels = frame.levels;
                self.stack.pop();
                self.levels.truncate(levels);
                continue;
            };
            let child_path = join(&frame.path, &entry.name);
            let child_shown = join(&frame.shown, &entry.name);
            let depth = frame.depth + 1;
            if config.max_depth.is_some_and(|max| depth > max) {
                continue;
            }
            let is_dir = match entry.file_type {
                FileType::Directory => true,
                FileType::Symlink if config.follow => match ctx.fs.metadata(&crate::fs::path::normalize(&ctx.cwd, &child_path)).await {
                    Ok(meta) => meta.is_dir(),
                    Err(error) => {
                        self.errors.push(format!("{child_shown}: {error} (os error {})", error.errno()));
                        continue;
                    }
                },
                FileType::Symlink => continue,
                FileType::File => false,
                _ => continue,
            };
            let absolute = crate::fs::path::normalize(&ctx.cwd, &child_path);
            if self.excluded(ctx, config, &absolute, &entry.name, &child_shown, is_dir) {
                continue;
            }
            if is_dir {
                if self.stack.len() < MAX_DEPTH {
                    self.enter(ctx, config, &child_path, &child_shown, depth).await;
                }
                continue;
            }
            return Some(Found { path: child_path, shown: child_shown });
        }
    }

    /// True when the globs, ignore files, types or the hidden rule leave
    /// the entry out.
    fn excluded(&self, ctx: &Invocation<'_>, config: &Config, absolute: &str, name: &str, shown: &str, is_dir: bool) -> bool {
        if let Some(overrides) = &config.overrides {
            let relative = relative_to(absolute, &ctx.cwd).unwrap_or_else(|| shown.trim_start_matches("./").to_string());
            match overrides.matched(&relative, is_dir) {
                Verdict::Whitelist => return false,
                Verdict::Ignore => return true,
                Verdict::None if !is_dir && overrides.whitelist_count() > 0 => return true,
                Verdict::None => {}
            }
        }
        let mut whitelisted = false;
        match self.ignored(config, absolute, is_dir) {
            Verdict::Ignore => return true,
            Verdict::Whitelist => whitelisted = true,
            Verdict::None => {}
        }
        if !is_dir && config.types.excludes(name) {
            return true;
        }
        !whitelisted && !config.hidden && name.starts_with('.')
    }

    /// What the ignore files say: deeper directories first, and within a
    /// directory `.rgignore` before `.ignore` before `.gitignore`.
    fn ignored(&self, config: &Config, absolute: &str, is_dir: bool) -> Verdict {
        if self.levels.is_empty() {
            return Verdict::None;
        }
        let in_git = !config.require_git || self.levels.iter().any(|level| level.has_git);
        let mut verdicts = [Verdict::None; 4];
        let mut saw_git = false;
        for level in self.levels.iter().rev() {
            let Some(relative) = absolute.strip_prefix(level.dir.as_str()) else { continue };
            let sets = [&level.rgignore, &level.ignore, &level.gitignore, &level.exclude];
            for (index, rules) in sets.into_iter().enumerate() {
                let is_git = index >= 2;
                if verdicts[index] != Verdict::None || (is_git && (!in_git || saw_git)) {
                    continue;
                }
                if let Some(rules) = rules {
                    verdicts[index] = rules.matched(relative, is_dir);
                }
            }
            saw_git |= level.has_git;
        }
        verdicts.into_iter().find(|v| *v != Verdict::None).unwrap_or(Verdict::None)
    }
}

/// How deep the walk may nest (a guard against endless symlink loops).
const MAX_DEPTH: usize = 256;

/// Reads the ignore files a directory listing shows.
async fn read_level(ctx: &Invocation<'_>, config: &Config, dir: &str, entries: &[DirEntry]) -> Level {
    let has = |name: &str| entries.iter().any(|entry| entry.name == name);
    let dir_slash = if dir.ends_with('/') { dir.to_string() } else { format!("{dir}/") };
    let mut files: [Option<Rules>; 3] = [None, None, None];
    let enabled = [config.ignore_dot, config.ignore_dot, config.ignore_vcs];
    for (index, name) in IGNORE_NAMES.iter().enumerate() {
        if enabled.get(index).copied().unwrap_or(false) && has(name) {
            if let Ok(text) = ctx.fs.read_file(&format!("{dir_slash}{name}")).await {
                files[index] = Rules::parse(&text, false);
            }
        }
    }
    let has_git = has(".git");
    let exclude = if has_git && config.ignore_vcs {
        match ctx.fs.read_file(&format!("{dir_slash}.git/info/exclude")).await {
            Ok(text) => Rules::parse(&text, false),
            Err(_) => None,
        }
    } else {
        None
    };
    let [rgignore, ignore, gitignore] = files;
    Level { dir: dir_slash, has_git, rgignore, ignore, gitignore, exclude }
}

/// `dir/name` as ripgrep joins them (no doubled separator after a `/`).
fn join(dir: &str, name: &str) -> String {
    if dir.is_empty() {
        name.to_string()
    } else if dir.ends_with('/') {
        format!("{dir}{name}")
    } else {
        format!("{dir}/{name}")
    }
}

fn relative_to(absolute: &str, base: &str) -> Option<String> {
    let base = base.trim_end_matches('/');
    absolute.strip_prefix(base).and_then(|rest| rest.strip_prefix('/')).map(str::to_string)
}
