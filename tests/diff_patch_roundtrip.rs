//! Property test of the sandbox's `diff` and `patch` together: for random
//! pairs of files (seeded, so every run checks the same pairs), `patch`
//! applied to the output of `diff -u`, `diff -c` and plain `diff` turns the
//! old file into the new one, byte for byte, and `patch -R` turns it back.
//! The pairs include empty files, missing final newlines, CRLF lines,
//! invalid UTF-8, NUL bytes and runs of repeated lines.

use std::rc::Rc;
use wabash::fs::Fs;
use wabash::{ExecOptions, Sandbox, SandboxOptions};

/// A small deterministic generator (xorshift64*).
struct Random(u64);

impl Random {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, bound: u64) -> u64 {
        self.next() % bound.max(1)
    }
}

/// A random line: often one of a few repeated lines, sometimes odd bytes.
fn line(random: &mut Random) -> Vec<u8> {
    const COMMON: [&[u8]; 8] = [b"{", b"}", b"", b"return x;", b"a", b"b", b"  indented", b"x = 1;"];
    match random.below(10) {
        0 => vec![0xff, 0xfe, b'z'],
        1 => b"nul\0byte".to_vec(),
        2 => b"crlf\r".to_vec(),
        3..=6 => COMMON[random.below(COMMON.len() as u64) as usize].to_vec(),
        _ => format!("line {}", random.below(40)).into_bytes(),
    }
}

/// A random file and an edited copy of it.
fn pair(random: &mut Random) -> (Vec<u8>, Vec<u8>) {
    let count = random.below(40) as usize;
    let old: Vec<Vec<u8>> = (0..count).map(|_| line(random)).collect();
    let mut new = old.clone();
    for _ in 0..random.below(6) + 1 {
        let at = random.below(new.len() as u64 + 1) as usize;
        match random.below(3) {
            0 if at < new.len() => {
                new.remove(at);
            }
            1 if at < new.len() => new[at] = line(random),
            _ => new.insert(at, line(random)),
        }
    }
    let render = |lines: &[Vec<u8>], random: &mut Random| {
        let mut text: Vec<u8> = lines.iter().flat_map(|l| l.iter().copied().chain(std::iter::once(b'\n'))).collect();
        if !text.is_empty() && random.below(5) == 0 {
            text.pop();
        }
        text
    };
    let old_text = render(&old, random);
    let new_text = render(&new, random);
    (old_text, new_text)
}

#[test]
fn patch_of_diff_reproduces_the_new_file() {
    let mut random = Random(0x5eed_d1ff_u64);
    let mut pairs = Vec::new();
    for _ in 0..100 {
        pairs.push(pair(&mut random));
    }
    let host: Rc<dyn wabash::host::Host> = Rc::new(wabash::host::FixedHost::default());
    wabash::executor::block_on(async {
        let mut sandbox = Sandbox::new(SandboxOptions::default(), host).await;
        for (index, (old, new)) in pairs.iter().enumerate() {
            for format in ["-u", "-c", "--normal"] {
                let fs = sandbox.fs();
                fs.write_file("/home/user/old", old).await.expect("write old");
                fs.write_file("/home/user/new", new).await.expect("write new");
                fs.write_file("/home/user/work", old).await.expect("write work");
                let script = format!(
                    "cd /home/user && diff -a {format} old new > p.diff; d=$?; patch -s work p.diff; p=$?; cmp -s work new; c=$?; \
                     patch -s -R work p.diff; r=$?; cmp -s work old; echo $d $p $c $r $?"
                );
                let result = sandbox.exec(&script, ExecOptions::default()).await;
                let stdout = String::from_utf8_lossy(&result.stdout);
                let expected_diff = if old == new { "0" } else { "1" };
                assert_eq!(
                    stdout.trim(),
                    format!("{expected_diff} 0 0 0 0"),
                    "pair {index} with diff {format}: old {:?} new {:?}; stderr {}",
                    String::from_utf8_lossy(old),
                    String::from_utf8_lossy(new),
                    String::from_utf8_lossy(&result.stderr)
                );
            }
        }
    });
}
