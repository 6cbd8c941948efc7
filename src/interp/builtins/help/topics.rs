//! bash 5.2's help topics (builtins and keywords), read from `topics.txt`:
//! each topic is a line `@@ NAME`, its synopsis line, then its long text
//! as bash prints it, indented by four spaces (its first line is the short
//! description `help -d` prints).
//! The texts are bash's own (GPL), kept verbatim so scripts and agents
//! that read `help` output see what bash prints.

/// The topics file: `@@ NAME`, synopsis, long text; in bash's table order.
const TOPICS: &str = include_str!("topics.txt");

/// One help topic.
#[derive(Debug, Clone, Copy)]
pub struct Topic {
    /// Its name (`cd`, `for ((`, `[[ ... ]]`).
    pub name: &'static str,
    /// The synopsis (`cd [-L|[-P [-e]] [-@]] [dir]`).
    pub synopsis: &'static str,
    /// The long text as bash prints it (indented), lines ending in newlines.
    pub long: &'static str,
}

impl Topic {
    /// The short description: the long text's first line.
    pub fn short(&self) -> &'static str {
        self.long.lines().next().unwrap_or("").trim_start_matches(' ')
    }
}

/// Every topic, in bash's order.
pub fn topics() -> impl Iterator<Item = Topic> {
    TOPICS.split("@@ ").filter(|chunk| !chunk.is_empty()).filter_map(|chunk| {
        let (name, rest) = chunk.split_once('\n')?;
        let (synopsis, long) = rest.split_once('\n')?;
        Some(Topic { name, synopsis, long })
    })
}

/// The topic called exactly `name`.
pub fn find(name: &str) -> Option<Topic> {
    topics().find(|topic| topic.name == name)
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_topic_reads_whole() {
        let all: Vec<_> = super::topics().collect();
        assert_eq!(all.len(), 76);
        let cd = super::find("cd").unwrap();
        assert_eq!(cd.synopsis, "cd [-L|[-P [-e]] [-@]] [dir]");
        assert_eq!(cd.short(), "Change the shell working directory.");
        assert!(all.iter().all(|topic| !topic.synopsis.is_empty() && topic.long.ends_with('\n')));
    }
}
