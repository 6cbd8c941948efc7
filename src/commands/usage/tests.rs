//! Checks of the usage table against the registry.

use super::*;

#[test]
fn table_is_sorted_and_unique() {
    let names: Vec<&str> = usages().iter().map(|u| u.name).collect();
    let mut sorted = names.clone();
    sorted.sort_unstable();
    sorted.dedup();
    assert_eq!(names, sorted);
}

#[test]
fn every_registered_utility_has_a_usage_text() {
    let missing: Vec<&str> = crate::commands::registry().iter().map(|u| u.name).filter(|name| find(name).is_none()).collect();
    assert!(missing.is_empty(), "utilities without a usage text in src/commands/usage/texts: {missing:?}");
}

#[test]
fn every_text_opens_with_a_usage_line_and_ends_cleanly() {
    let mut bad = Vec::new();
    for usage in usages() {
        let first = usage.text.lines().next().unwrap_or("");
        let opens = first.to_ascii_lowercase().starts_with("usage:") || OWN_FORM.contains(&usage.name);
        let clean = usage.text.ends_with('\n') && !usage.text.lines().any(|line| line.ends_with(' '));
        if !opens || !clean || usage.version.is_empty() {
            bad.push(usage.name);
        }
    }
    assert!(bad.is_empty(), "texts without a Usage: line, with trailing spaces or no version: {bad:?}");
}

/// Tools whose own `--help` does not open with `Usage:`.
const OWN_FORM: &[&str] = &["rg", "unzip", "wget", "zip"];

#[test]
fn help_names_the_command_as_invoked() {
    let ls = find("ls").unwrap();
    assert!(help_text(ls, "/bin/ls").starts_with("Usage: /bin/ls [OPTION]... [FILE]...\n"));
    assert_eq!(help_text(ls, "ls"), ls.text);
}

#[test]
fn every_registered_utility_has_an_entry_point() {
    assert!(entry_point(crate::commands::registry().len() - 1).is_some(), "add indices to ENTRIES in usage/mod.rs");
}
