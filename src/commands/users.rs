//! User and group names from the sandbox's `/etc/passwd` and `/etc/group`,
//! for `ls -l`, `stat`, `find -user` and `chown`.

use crate::fs::Fs;

/// The id and name pairs of one database (`/etc/passwd` or `/etc/group`).
#[derive(Debug, Clone, Default)]
pub struct Names {
    entries: Vec<(u32, String)>,
}

impl Names {
    /// Parses `name:x:id:...` lines; malformed lines are skipped.
    pub fn parse(text: &str) -> Names {
        let entries = text
            .lines()
            .filter_map(|line| {
                let mut fields = line.split(':');
                let name = fields.next()?;
                let id = fields.nth(1)?.parse().ok()?;
                Some((id, name.to_string()))
            })
            .collect();
        Names { entries }
    }

    /// The name of `id`, or the number itself as GNU prints unknown ids.
    pub fn name(&self, id: u32) -> String {
        self.entries.iter().find(|(i, _)| *i == id).map(|(_, n)| n.clone()).unwrap_or_else(|| id.to_string())
    }

    /// The id a name (or a decimal number) stands for.
    pub fn id(&self, name: &str) -> Option<u32> {
        self.entries.iter().find(|(_, n)| n == name).map(|(i, _)| *i).or_else(|| name.parse().ok())
    }
}

/// The user and group databases of the sandbox.
#[derive(Debug, Clone, Default)]
pub struct Accounts {
    /// Users by uid.
    pub users: Names,
    /// Groups by gid.
    pub groups: Names,
}

impl Accounts {
    /// Reads `/etc/passwd` and `/etc/group`; missing files give empty tables.
    pub async fn load(fs: &dyn Fs) -> Accounts {
        let read = |bytes: Vec<u8>| String::from_utf8_lossy(&bytes).into_owned();
        let users = fs.read_file("/etc/passwd").await.map(read).unwrap_or_default();
        let groups = fs.read_file("/etc/group").await.map(read).unwrap_or_default();
        Accounts { users: Names::parse(&users), groups: Names::parse(&groups) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_passwd_lines() {
        let names = Names::parse("root:x:0:0:root:/root:/bin/bash\nuser:x:1000:1000::/home/user:/bin/bash\nbad\n");
        assert_eq!(names.name(1000), "user");
        assert_eq!(names.name(42), "42");
        assert_eq!(names.id("root"), Some(0));
        assert_eq!(names.id("7"), Some(7));
        assert_eq!(names.id("nobody"), None);
    }
}
