//! Mounts in a whole sandbox: a host directory (an in-Rust fake of the JS
//! adapter) mounted read-only and copy-on-write, used by scripts; the
//! overlay's changes and their patch.

use async_trait::async_trait;
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;
use wabash::executor::block_on;
use wabash::fs::host_dir::{HostDirFs, HostDirectory, HostEntry, HostStat};
use wabash::fs::overlay::{ChangeKind, OverlayFs};
use wabash::fs::{Credentials, FileType, Fs, FsError, FsResult, MemoryFs};
use wabash::host::{FixedHost, Host};
use wabash::{overlay_patch, ExecOptions, Sandbox, SandboxOptions};

const USER: Credentials = Credentials { uid: 1000, gid: 1000 };

/// A host tree in a map; records every path it is asked about.
struct Tree {
    nodes: BTreeMap<String, (FileType, Vec<u8>)>,
    asked: RefCell<Vec<String>>,
}

impl Tree {
    fn new(entries: &[(&str, FileType, &str)]) -> Rc<Tree> {
        let mut nodes = BTreeMap::new();
        nodes.insert("/".to_string(), (FileType::Directory, Vec::new()));
        for (path, kind, data) in entries {
            nodes.insert(path.to_string(), (*kind, data.as_bytes().to_vec()));
        }
        Rc::new(Tree { nodes, asked: RefCell::new(Vec::new()) })
    }

    fn get(&self, path: &str) -> FsResult<&(FileType, Vec<u8>)> {
        self.asked.borrow_mut().push(path.to_string());
        self.nodes.get(path).ok_or(FsError::NotFound)
    }
}

#[async_trait(?Send)]
impl HostDirectory for Tree {
    async fn stat(&self, path: &str) -> FsResult<HostStat> {
        let (file_type, data) = self.get(path)?;
        let mode = if *file_type == FileType::File { 0o644 } else { 0o755 };
        Ok(HostStat { file_type: *file_type, size: data.len() as u64, mode, mtime: 1.0 })
    }

    async fn list(&self, path: &str) -> FsResult<Vec<HostEntry>> {
        self.get(path)?;
        let prefix = if path == "/" { "/".to_string() } else { format!("{path}/") };
        Ok(self
            .nodes
            .iter()
            .filter_map(|(p, (kind, _))| {
                let rest = p.strip_prefix(&prefix)?;
                (!rest.is_empty() && !rest.contains('/')).then(|| HostEntry { name: rest.to_string(), file_type: *kind })
            })
            .collect())
    }

    async fn read(&self, path: &str, offset: u64, len: usize) -> FsResult<Vec<u8>> {
        let (_, data) = self.get(path)?;
        let start = usize::try_from(offset).unwrap_or(usize::MAX).min(data.len());
        Ok(data[start..(start + len).min(data.len())].to_vec())
    }

    async fn read_link(&self, path: &str) -> FsResult<String> {
        let (_, data) = self.get(path)?;
        Ok(String::from_utf8_lossy(data).into_owned())
    }
}

fn project() -> Rc<Tree> {
    Tree::new(&[
        ("/README.md", FileType::File, "# project\n"),
        ("/src", FileType::Directory, ""),
        ("/src/main.rs", FileType::File, "fn main() {\n    println!(\"hi\");\n}\n"),
        ("/src/old.rs", FileType::File, "// old\n"),
        ("/docs", FileType::Directory, ""),
        ("/docs/a.md", FileType::File, "a\n"),
        ("/escape", FileType::Symlink, "../../../../etc/passwd"),
    ])
}

fn sandbox_with(mounts: Vec<(String, Rc<dyn Fs>)>) -> Sandbox {
    let host: Rc<dyn Host> = Rc::new(FixedHost::default());
    block_on(Sandbox::new(SandboxOptions { mounts, ..SandboxOptions::default() }, host))
}

fn run(sandbox: &mut Sandbox, script: &str) -> (String, String, i32) {
    let result = block_on(sandbox.exec(script, ExecOptions::default()));
    (result.stdout_text(), result.stderr_text(), result.exit_code)
}

fn overlay_of(tree: &Rc<Tree>) -> Rc<OverlayFs> {
    let host: Rc<dyn Host> = Rc::new(FixedHost::default());
    let lower = Rc::new(HostDirFs::new(tree.clone(), USER, USER));
    Rc::new(OverlayFs::new(MemoryFs::new(host, USER.uid, USER.gid), lower))
}

#[test]
fn a_read_only_mount_is_read_by_scripts_and_refuses_every_change() {
    let tree = project();
    let lower: Rc<dyn Fs> = Rc::new(HostDirFs::new(tree.clone(), USER, USER));
    let mut sandbox = sandbox_with(vec![("/project".to_string(), lower)]);
    assert_eq!(run(&mut sandbox, "cat /project/README.md; ls /project; cd /project/src && wc -l < main.rs").0, "# project\nREADME.md\ndocs\nescape\nsrc\n3\n");
    let (_, stderr, status) = run(&mut sandbox, "echo x > /project/new");
    assert_eq!((stderr.as_str(), status), ("bash: line 1: /project/new: Read-only file system\n", 1));
    let (_, stderr, status) = run(&mut sandbox, "rm /project/README.md");
    assert_eq!((stderr.as_str(), status), ("rm: cannot remove '/project/README.md': Read-only file system\n", 1));
    let (_, stderr, status) = run(&mut sandbox, "mkdir /project/d");
    assert_eq!((stderr.as_str(), status), ("mkdir: cannot create directory ‘/project/d’: Read-only file system\n", 1));
    assert_eq!(run(&mut sandbox, "ls /").0.lines().filter(|l| *l == "project").count(), 1);
}

#[test]
fn symlinks_in_the_host_tree_never_lead_the_host_outside_its_directory() {
    let tree = project();
    let lower: Rc<dyn Fs> = Rc::new(HostDirFs::new(tree.clone(), USER, USER));
    let mut sandbox = sandbox_with(vec![("/project".to_string(), lower)]);
    // The link resolves in the sandbox's own namespace: its /etc/passwd, not the host's.
    let (stdout, _, status) = run(&mut sandbox, "cat /project/escape | head -1; cat /project/../../../etc/hostname 2>&1; cd /project && cd .. && pwd");
    assert_eq!(status, 0);
    assert!(stdout.starts_with("root:x:0:0:"), "{stdout}");
    assert!(stdout.ends_with("/\n"), "{stdout}");
    for path in tree.asked.borrow().iter() {
        assert!(path.starts_with('/') && !path.split('/').any(|part| part == ".." || part == "."), "the host was asked about {path}");
    }
}

#[test]
fn nothing_is_read_from_the_host_until_a_script_touches_it() {
    let tree = project();
    let lower: Rc<dyn Fs> = Rc::new(HostDirFs::new(tree.clone(), USER, USER));
    let mut sandbox = sandbox_with(vec![("/project".to_string(), lower)]);
    assert!(tree.asked.borrow().iter().all(|p| p == "/"), "{:?}", tree.asked.borrow());
    run(&mut sandbox, "cat /project/docs/a.md");
    assert!(!tree.asked.borrow().iter().any(|p| p.starts_with("/src")), "{:?}", tree.asked.borrow());
}

#[test]
fn a_copy_on_write_mount_takes_changes_in_memory_and_lists_them() {
    let tree = project();
    let overlay = overlay_of(&tree);
    let mut sandbox = sandbox_with(vec![("/project".to_string(), overlay.clone() as Rc<dyn Fs>)]);
    let script = "cd /project && echo new > src/new.rs && sed -i 's/hi/hello/' src/main.rs && rm src/old.rs && rm -r docs \
                  && mkdir -p build/out && touch README.md && chmod 600 README.md && cat src/main.rs && ls";
    let (stdout, stderr, status) = run(&mut sandbox, script);
    assert_eq!((stderr.as_str(), status), ("", 0));
    assert_eq!(stdout, "fn main() {\n    println!(\"hello\");\n}\nREADME.md\nbuild\nescape\nsrc\n");
    let changes: Vec<(String, ChangeKind)> = block_on(overlay.changes()).unwrap().into_iter().map(|c| (c.path, c.kind)).collect();
    let expected = [
        ("/README.md", ChangeKind::Modified),
        ("/build", ChangeKind::Created),
        ("/build/out", ChangeKind::Created),
        ("/docs", ChangeKind::Deleted),
        ("/docs/a.md", ChangeKind::Deleted),
        ("/src/main.rs", ChangeKind::Modified),
        ("/src/new.rs", ChangeKind::Created),
        ("/src/old.rs", ChangeKind::Deleted),
    ];
    assert_eq!(changes, expected.map(|(p, k)| (p.to_string(), k)).to_vec());
    // The host tree itself is untouched.
    assert_eq!(tree.nodes.get("/src/main.rs").map(|n| n.1.clone()), Some(b"fn main() {\n    println!(\"hi\");\n}\n".to_vec()));
}

#[test]
fn the_changes_export_as_a_unified_patch() {
    let tree = project();
    let overlay = overlay_of(&tree);
    let mut sandbox = sandbox_with(vec![("/project".to_string(), overlay.clone() as Rc<dyn Fs>)]);
    run(&mut sandbox, "cd /project && echo new > src/new.rs && sed -i 's/hi/hello/' src/main.rs && rm src/old.rs && ln -s main.rs src/link");
    let patch = String::from_utf8(block_on(overlay_patch(&overlay)).unwrap()).unwrap();
    assert_eq!(
        patch,
        "Symlink src/link -> main.rs\n\
         diff -ruN a/src/main.rs b/src/main.rs\n--- a/src/main.rs\n+++ b/src/main.rs\n@@ -1,3 +1,3 @@\n fn main() {\n-    println!(\"hi\");\n+    println!(\"hello\");\n }\n\
         diff -ruN a/src/new.rs b/src/new.rs\n--- /dev/null\n+++ b/src/new.rs\n@@ -0,0 +1 @@\n+new\n\
         diff -ruN a/src/old.rs b/src/old.rs\n--- a/src/old.rs\n+++ /dev/null\n@@ -1 +0,0 @@\n-// old\n"
    );
}

#[test]
fn a_file_put_back_as_it_was_is_no_change() {
    let tree = project();
    let overlay = overlay_of(&tree);
    let mut sandbox = sandbox_with(vec![("/project".to_string(), overlay.clone() as Rc<dyn Fs>)]);
    run(&mut sandbox, "cd /project && echo tmp >> README.md && printf '# project\\n' > README.md && touch src/main.rs");
    assert_eq!(block_on(overlay.changes()).unwrap(), Vec::new());
    assert!(block_on(overlay_patch(&overlay)).unwrap().is_empty());
}
