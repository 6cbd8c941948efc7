//! Pathname expansion over the sandbox filesystem: a pattern is split at
//! `/`, each component with glob characters is matched against a directory
//! listing, and the results are sorted as bash sorts them under `LC_ALL=C`.

use super::pattern::{has_glob_chars, unescape, Pattern, PatternOptions};
use super::{ExpandHost, ExpandOptions};
use crate::fs::path::join;

/// Most directory entries one glob may examine (a `/*/*/*` storm stops here).
pub const MAX_GLOB_ENTRIES: usize = 1_000_000;

/// Expands `pattern` (quoted characters backslash-escaped) to the matching
/// paths, sorted; empty when nothing matches.
pub async fn glob(host: &mut dyn ExpandHost, pattern: &str, options: ExpandOptions) -> Vec<String> {
    let absolute = pattern.starts_with('/');
    let mut components: Vec<&str> = pattern.split('/').filter(|c| !c.is_empty()).collect();
    if options.globstar {
        // `**/**` matches what one `**` does.
        components.dedup_by(|a, b| *a == "**" && *b == "**");
    }
    let trailing_slash = pattern.ends_with('/') && !components.is_empty();
    let cwd = host.cwd();
    // Each candidate: (path as shown to the user, absolute path to read,
    // whether a glob produced part of it).
    let mut candidates: Vec<(String, String, bool)> =
        vec![(if absolute { "/".to_string() } else { String::new() }, if absolute { "/".to_string() } else { cwd }, false)];
    let mut budget = MAX_GLOB_ENTRIES;
    let pattern_options = PatternOptions { extglob: options.extglob, nocase: options.nocaseglob };
    for (index, component) in components.iter().enumerate() {
        let last = index + 1 == components.len();
        let mut next = Vec::new();
        if options.globstar && *component == "**" {
            // Before another component, or as `**/`, `**` stands for the
            // directories at every depth (the starting one too); as the
            // last component, for every file and directory below.
            let directories_only = !last || trailing_slash;
            for (shown, real, _) in &candidates {
                if directories_only {
                    next.push((shown.clone(), real.clone(), true));
                }
                let mut stack = vec![(shown.clone(), real.clone())];
                while let Some((shown_dir, real_dir)) = stack.pop() {
                    let Some(entries) = host.read_dir(&real_dir).await else { continue };
                    for (name, is_dir) in entries {
                        if budget == 0 {
                            break;
                        }
                        budget -= 1;
                        if name.starts_with('.') && !options.dotglob {
                            continue;
                        }
                        let path = join(&real_dir, &name);
                        if is_dir {
                            stack.push((format!("{shown_dir}{name}/"), path.clone()));
                        }
                        if is_dir && directories_only {
                            next.push((format!("{shown_dir}{name}/"), path, true));
                        } else if !directories_only {
                            next.push((format!("{shown_dir}{name}"), path, true));
                        }
                    }
                }
            }
            if last {
                // The directory `**` started from is a match too, shown as
                // written (`x/**` gives `x/`, `*/**` gives `c`).
                for (shown, real, globbed) in candidates.into_iter().filter(|(shown, ..)| !shown.is_empty() && !trailing_slash) {
                    if host.path_exists(&real).await {
                        let shown = if globbed && shown.len() > 1 { shown.trim_end_matches('/').to_string() } else { shown };
                        next.push((shown, real, globbed));
                    }
                }
                let mut results: Vec<String> = next.into_iter().map(|(shown, ..)| shown).filter(|shown| !shown.is_empty()).collect();
                results.sort();
                return results;
            }
            candidates = next;
            continue;
        }
        if !has_glob_chars(component, options.extglob) {
            let name = unescape(component);
            for (shown, real, globbed) in candidates {
                next.push((format!("{shown}{name}{}", if last { "" } else { "/" }), join(&real, &name), globbed));
            }
            candidates = next;
            continue;
        }
        let compiled = Pattern::new(component, pattern_options);
        let match_hidden = compiled.starts_with_dot() || options.dotglob;
        for (shown, real, _) in &candidates {
            let Some(mut entries) = host.read_dir(real).await else { continue };
            if !options.globskipdots && compiled.starts_with_dot() {
                entries.splice(0..0, [(".".to_string(), true), ("..".to_string(), true)]);
            }
            for (name, is_dir) in entries {
                if budget == 0 {
                    break;
                }
                budget -= 1;
                if name.starts_with('.') && !match_hidden {
                    continue;
                }
                if (!last || trailing_slash) && !is_dir {
                    continue;
                }
                if compiled.matches(&name, options.nocaseglob) {
                    next.push((format!("{shown}{name}{}", if last { "" } else { "/" }), join(real, &name), true));
                }
            }
        }
        candidates = next;
    }
    let mut results = Vec::new();
    for (shown, real, _) in candidates {
        if host.path_exists(&real).await {
            results.push(if trailing_slash { format!("{shown}/") } else { shown });
        }
    }
    results.sort();
    results
}
