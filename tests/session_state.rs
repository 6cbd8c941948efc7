//! A sandbox's state saved and brought back: snapshots, and the copy a host
//! keeps from deltas. A restored sandbox must answer every question about
//! its state (variables with attributes, arrays in bash's order, functions,
//! aliases, options, traps, cwd, umask, directory stack, positional
//! parameters, `$?`, the `$RANDOM` sequence, files) exactly as the original.

use std::rc::Rc;
use wabash::executor::block_on;
use wabash::host::FixedHost;
use wabash::{ExecOptions, RestoreError, Sandbox, SandboxOptions};

fn sandbox() -> Sandbox {
    block_on(Sandbox::new(SandboxOptions::default(), Rc::new(FixedHost::default())))
}

fn run(sandbox: &mut Sandbox, script: &str) -> String {
    let result = block_on(sandbox.exec(script, ExecOptions::default()));
    format!("{}{}[{}]", result.stdout_text(), result.stderr_text(), result.exit_code)
}

const SETUP: &str = r#"
declare -i count=41; count+=1
declare -r frozen=ice
declare -x exported=yes
declare -l lower=MiXeD
declare -a sparse=([3]=c [10]="j k")
declare -A map=([zeta]=1 [alpha]=2 [mid]=3); map[new]=4; unset 'map[alpha]'
declare -n ref=count
greet() { local who=${1:-world}; echo "hello $who"; }
shopt -s extglob nullglob
matcher() { case $1 in @(a|b)*) echo ab;; *) echo other;; esac; }
alias ll='ls -l'
set -o pipefail -u
trap 'echo bye' USR1
umask 027
mkdir -p /home/user/w/deep && cd /home/user/w && pushd deep >/dev/null
set -- one "two words" three
echo data > /home/user/w/file.txt
ln -s file.txt /home/user/w/link
RANDOM=7
unset LANG
false
"#;

const PROBE: &str = r#"
echo "status=$?"
declare -p count frozen exported lower sparse map ref
declare -f greet matcher
matcher abc
alias
shopt extglob nullglob dotglob
set -o | grep -E 'pipefail|nounset|errexit'
trap -p
umask; pwd; dirs
printf '<%s>' "$@"; echo
echo "$RANDOM $RANDOM"
echo "${LANG-unset}"
ls -l /home/user/w | cut -c1-10; cat /home/user/w/link
"#;

#[test]
fn a_snapshot_brings_back_the_whole_session() {
    let mut original = sandbox();
    run(&mut original, SETUP);
    let bytes = original.snapshot();
    let expected = run(&mut original, PROBE);
    let mut copy = sandbox();
    assert_eq!(block_on(copy.restore_snapshot(&bytes)), Ok(vec![]));
    assert_eq!(run(&mut copy, PROBE), expected);
    assert!(expected.contains("hello") || expected.contains("greet"), "{expected}");
}

#[test]
fn a_copy_kept_from_deltas_brings_back_the_session() {
    let mut original = sandbox();
    let mut records: std::collections::BTreeMap<u64, Vec<u8>> = Default::default();
    let mut shell = Vec::new();
    let mut keep = |sandbox: &Sandbox, records: &mut std::collections::BTreeMap<u64, Vec<u8>>, shell: &mut Vec<u8>| {
        let (delta, state) = sandbox.take_delta();
        if delta.full {
            records.clear();
        }
        let mut at = 0usize;
        for length in &delta.record_lengths {
            let record = &delta.records[at..at + *length as usize];
            at += *length as usize;
            records.insert(u64::from_le_bytes(record[..8].try_into().unwrap()), record.to_vec());
        }
        for head in delta.heads.chunks(wabash::fs::memory::RECORD_HEAD_LEN) {
            let ino = u64::from_le_bytes(head[..8].try_into().unwrap());
            records.get_mut(&ino).unwrap()[..head.len()].copy_from_slice(head);
        }
        for ino in &delta.freed {
            records.remove(ino);
        }
        *shell = state;
    };
    keep(&original, &mut records, &mut shell);
    for line in SETUP.lines() {
        run(&mut original, line);
        keep(&original, &mut records, &mut shell);
    }
    run(&mut original, "rm /home/user/w/file.txt; echo new > /home/user/w/other");
    keep(&original, &mut records, &mut shell);
    let flat: Vec<u8> = records.values().flatten().copied().collect();
    let mut copy = sandbox();
    assert_eq!(block_on(copy.restore_saved(&flat, &shell)), Ok(vec![]));
    let expected = run(&mut original, PROBE);
    assert_eq!(run(&mut copy, PROBE), expected);
}

#[test]
fn damaged_snapshots_are_refused_and_change_nothing() {
    let mut original = sandbox();
    run(&mut original, "x=1; echo a > f");
    let good = original.snapshot();
    let mut target = sandbox();
    run(&mut target, "y=2; echo b > g");
    let before = run(&mut target, "echo $x $y; ls");
    for bad in [Vec::new(), b"garbage".to_vec(), good[..good.len() / 2].to_vec(), {
        let mut flipped = good.clone();
        let middle = flipped.len() / 2;
        flipped[middle] ^= 1;
        flipped
    }] {
        match block_on(target.restore_snapshot(&bad)) {
            Err(RestoreError::Corrupt(_)) => {}
            other => panic!("{other:?}"),
        }
        assert_eq!(run(&mut target, "echo $x $y; ls"), before);
    }
    assert_eq!(block_on(target.restore_snapshot(&good)), Ok(vec![]));
    assert_eq!(run(&mut target, "echo $x $y; ls"), "1\nf\n[0]");
}

#[test]
fn the_probe_sees_the_state_it_checks() {
    let mut original = sandbox();
    run(&mut original, SETUP);
    let out = run(&mut original, PROBE);
    for expected in [
        "status=1",
        "declare -i count=\"42\"",
        "declare -r frozen=\"ice\"",
        "declare -a sparse=([3]=\"c\" [10]=\"j k\")",
        "declare -n ref=\"count\"",
        "hello $who",
        "ab\n",
        "alias ll='ls -l'",
        "extglob        \ton",
        "pipefail       \ton",
        "trap -- 'echo bye' SIGUSR1",
        "0027\n/home/user/w/deep\n~/w/deep ~/w\n",
        "<one><two words><three>",
        "unset\n",
        "lrwxrwxrwx",
        "data\n",
    ] {
        assert!(out.contains(expected), "{expected:?} not in:\n{out}");
    }
}
