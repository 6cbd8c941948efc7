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
    let components: Vec<&str> = pattern.split('/').filter(|c| !c.is_empty()).collect();
    let trailing_slash = pattern.ends_with('/') && !components.is_empty();
    let cwd = host.cwd();
    // Each candidate: (path as shown to the user, absolute path to read).
    let mut candidates: Vec<(String, String)> =
        vec![(if absolute { "/".to_string() } else { String::new() }, if absolute { "/".to_string() } else { cwd })];
    let mut budget = MAX_GLOB_ENTRIES;
    let pattern_options = PatternOptions { extglob: options.extglob, nocase: options.nocaseglob };
    for (index, component) in components.iter().enumerate() {
        let last = index + 1 == components.len();
        let mut next = Vec::new();
        if options.globstar && *component == "**" {
            for (shown, real) in &candidates {
                let mut stack = vec![(shown.clone(), real.clone())];
                while let Some((shown_dir, real_dir)) = stack.pop() {
                    next.push((shown_dir.clone(), real_dir.clone()));
                    let Some(entries) = host.read_dir(&real_dir).await else { continue };
                    for (name, is_dir) in entries.into_iter().rev() {
                        if budget == 0 {
                            break;
                        }
                        budget -= 1;
                        if name.starts_with('.') && !options.dotglob {
                            continue;
                        }
                        if is_dir || last {
                            let entry = (format!("{shown_dir}{name}{}", if last && !is_dir { "" } else { "/" }), join(&real_dir, &name));
                            if is_dir {
                                stack.push(entry);
                            } else {
                                next.push(entry);
                            }
                        }
                    }
                }
            }
            if last {
                next.retain(|(shown, _)| !shown.is_empty());
                candidates = next
                    .into_iter()
                    .map(|(s, r)| (s.trim_end_matches('/').to_string() + if s.ends_with('/') { "/" } else { "" }, r))
                    .collect();
                let mut results: Vec<String> = candidates.into_iter().map(|(shown, _)| shown).collect();
                results.sort();
                return results;
            }
            candidates = next;
            continue;
        }
        if !has_glob_chars(component, options.extglob) {
            let name = unescape(component);
            for (shown, real) in candidates {
                next.push((format!("{shown}{name}{}", if last { "" } else { "/" }), join(&real, &name)));
            }
            candidates = next;
            continue;
        }
        let compiled = Pattern::new(component, pattern_options);
        let match_hidden = compiled.starts_with_dot() || options.dotglob;
        for (shown, real) in &candidates {
            let Some(entries) = host.read_dir(real).await else { continue };
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
                    next.push((format!("{shown}{name}{}", if last { "" } else { "/" }), join(real, &name)));
                }
            }
        }
        candidates = next;
    }
    let mut results = Vec::new();
    for (shown, real) in candidates {
        if host.path_exists(&real).await {
            results.push(if trailing_slash { format!("{shown}/") } else { shown });
        }
    }
    results.sort();
    results
}
