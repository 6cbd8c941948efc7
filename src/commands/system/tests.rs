//! Unit tests of the system utilities; expectations recorded from GNU
//! coreutils 9.1 (and debianutils `which`, procps `uptime`) with `TZ=UTC`
//! and the fixed test clock 2024-01-01T00:00:00Z.

use crate::commands::test_support::{new_fs, run_utility};
use crate::executor::block_on;
use crate::fs::Fs;

fn run(args: &[&str]) -> (String, String, i32) {
    let out = run_utility(&new_fs(), args, b"");
    (out.stdout, out.stderr, out.status)
}

fn out(args: &[&str]) -> String {
    run(args).0
}

#[test]
fn date_default_and_formats() {
    assert_eq!(out(&["date"]), "Mon Jan  1 00:00:00 UTC 2024\n");
    assert_eq!(out(&["date", "-u"]), "Mon Jan  1 00:00:00 UTC 2024\n");
    assert_eq!(out(&["date", "+%Y-%m-%d %H:%M:%S"]), "2024-01-01 00:00:00\n");
    assert_eq!(out(&["date", "+%s"]), "1704067200\n");
    assert_eq!(out(&["date", "+%c|%x|%X|%D|%F|%T|%R"]), "Mon Jan  1 00:00:00 2024|01/01/24|00:00:00|01/01/24|2024-01-01|00:00:00|00:00\n");
    assert_eq!(out(&["date", "+%A %B %j %U %W %V %G %u %w"]), "Monday January 001 00 01 01 2024 1 1\n");
    assert_eq!(out(&["date", "+%z %:z %Z"]), "+0000 +00:00 UTC\n");
    assert_eq!(out(&["date", "+%%|%n|%t|"]), "%|\n|\t|\n");
}

#[test]
fn date_iso_and_rfc() {
    assert_eq!(out(&["date", "-I"]), "2024-01-01\n");
    assert_eq!(out(&["date", "-Iseconds"]), "2024-01-01T00:00:00+00:00\n");
    assert_eq!(out(&["date", "--iso-8601=ns"]), "2024-01-01T00:00:00,000000000+00:00\n");
    assert_eq!(out(&["date", "-Ihours"]), "2024-01-01T00+00:00\n");
    assert_eq!(out(&["date", "-Iminutes"]), "2024-01-01T00:00+00:00\n");
    assert_eq!(out(&["date", "-Isec"]), "2024-01-01T00:00:00+00:00\n");
    assert_eq!(out(&["date", "-R"]), "Mon, 01 Jan 2024 00:00:00 +0000\n");
    assert_eq!(out(&["date", "--rfc-3339=seconds"]), "2024-01-01 00:00:00+00:00\n");
    assert_eq!(out(&["date", "--rfc-3339=ns"]), "2024-01-01 00:00:00.000000000+00:00\n");
    assert_eq!(out(&["date", "--rfc-3339=date"]), "2024-01-01\n");
}

#[test]
fn date_strings() {
    assert_eq!(out(&["date", "-d", "yesterday", "+%F"]), "2023-12-31\n");
    assert_eq!(out(&["date", "-d", "2 days ago", "+%F %T"]), "2023-12-30 00:00:00\n");
    assert_eq!(out(&["date", "-d", "next monday", "+%F %a"]), "2024-01-08 Mon\n");
    assert_eq!(out(&["date", "-d", "@1700000000"]), "Tue Nov 14 22:13:20 UTC 2023\n");
    assert_eq!(out(&["date", "--date=2024-03-05 14:07:09", "+%l %I %p %e"]), " 2 02 PM  5\n");
    assert_eq!(out(&["date", "-d", "2024-01-15T10:30:45+05:00", "-u"]), "Mon Jan 15 05:30:45 UTC 2024\n");
    assert_eq!(out(&["date", "-d", "2024-01-31 + 1 month", "+%F"]), "2024-03-02\n");
    assert_eq!(out(&["date", "-d", "foo", "-d", "@0", "+%s"]), "0\n");
}

#[test]
fn date_errors() {
    assert_eq!(run(&["date", "-d", "foo"]), (String::new(), "date: invalid date 'foo'\n".into(), 1));
    let (_, err, status) = run(&["date", "-Ix"]);
    assert_eq!(
        err,
        "date: invalid argument 'x' for '--iso-8601'\nValid arguments are:\n  - 'hours'\n  - 'minutes'\n  - 'date'\n  - 'seconds'\n  - 'ns'\nTry 'date --help' for more information.\n"
    );
    assert_eq!(status, 1);
    assert_eq!(run(&["date", "+%Y", "x"]).1, "date: extra operand 'x'\nTry 'date --help' for more information.\n");
    assert_eq!(run(&["date", "-R", "-I"]), (String::new(), "date: multiple output formats specified\n".into(), 1));
    assert_eq!(run(&["date", "-r", "/nonexist"]), (String::new(), "date: /nonexist: No such file or directory\n".into(), 1));
    assert_eq!(
        run(&["date", "-s", "@0"]),
        ("Thu Jan  1 00:00:00 UTC 1970\n".into(), "date: cannot set date: Operation not permitted\n".into(), 1)
    );
    assert_eq!(
        run(&["date", "010100002024"]),
        ("Mon Jan  1 00:00:00 UTC 2024\n".into(), "date: cannot set date: Operation not permitted\n".into(), 1)
    );
    assert_eq!(run(&["date", "-Q"]).1, "date: invalid option -- 'Q'\nTry 'date --help' for more information.\n");
}

#[test]
fn date_reference_file_and_file_of_dates() {
    let fs = new_fs();
    block_on(fs.write_file("/home/user/f", b"x")).unwrap();
    block_on(fs.set_times("/home/user/f", None, Some(1_000_000_000_000.0))).unwrap();
    assert_eq!(run_utility(&fs, &["date", "-r", "f", "+%s"], b"").stdout, "1000000000\n");
    let result = run_utility(&fs, &["date", "-f", "-", "+%s"], b"@0\nfoo\n@60\n");
    assert_eq!(result.stdout, "0\n60\n");
    assert_eq!(result.stderr, "date: invalid date 'foo'\n");
    assert_eq!(result.status, 1);
}

#[test]
fn date_time_zones() {
    let zone = crate::calendar::parse_tz(Some("EST5"));
    let at = crate::calendar::Instant { seconds: 0, nanos: 0 };
    assert_eq!(super::date::render("%a %b %e %H:%M:%S %Z %Y", at, &zone), "Wed Dec 31 19:00:00 EST 1969");
    assert_eq!(super::date::render("%Z%z", at, &zone), "EST-0500");
    let plus_two = crate::calendar::parse_tz(Some("UTC-2"));
    assert_eq!(super::date::render("%F %T %z %Z", at, &plus_two), "1970-01-01 02:00:00 +0200 UTC");
}

#[test]
fn sleep_waits_on_the_host_clock() {
    assert_eq!(run(&["sleep", "0.5"]), (String::new(), String::new(), 0));
    assert_eq!(run(&["sleep", "1m", "2s"]).2, 0);
    assert_eq!(run(&["sleep"]), (String::new(), "sleep: missing operand\nTry 'sleep --help' for more information.\n".into(), 1));
    assert_eq!(run(&["sleep", "x"]).1, "sleep: invalid time interval 'x'\nTry 'sleep --help' for more information.\n");
    assert_eq!(run(&["sleep", "1x"]).1, "sleep: invalid time interval '1x'\nTry 'sleep --help' for more information.\n");
    assert_eq!(run(&["sleep", "-1"]).1, "sleep: invalid option -- '1'\nTry 'sleep --help' for more information.\n");
}

#[test]
fn timeout_statuses() {
    assert_eq!(run(&["timeout", "1", "sleep", "5"]).2, 124);
    assert_eq!(run(&["timeout", "5", "sleep", "1"]).2, 0);
    assert_eq!(run(&["timeout", "-s", "KILL", "1", "sleep", "5"]).2, 137);
    assert_eq!(run(&["timeout", "--preserve-status", "1", "sleep", "5"]).2, 143);
    assert_eq!(run(&["timeout", "5", "seq", "2"]), ("1\n2\n".into(), String::new(), 0));
    assert_eq!(run(&["timeout", "5", "tty"]).2, 1);
    assert_eq!(run(&["timeout", "-v", "1", "sleep", "5"]).1, "timeout: sending signal TERM to command 'sleep'\n");
    assert_eq!(run(&["timeout"]), (String::new(), "Try 'timeout --help' for more information.\n".into(), 125));
    assert_eq!(run(&["timeout", "1"]).2, 125);
    assert_eq!(
        run(&["timeout", "x", "sleep", "1"]),
        (String::new(), "timeout: invalid time interval 'x'\nTry 'timeout --help' for more information.\n".into(), 125)
    );
    assert_eq!(
        run(&["timeout", "-s", "FOO", "1", "true"]),
        (String::new(), "timeout: 'FOO': invalid signal\nTry 'timeout --help' for more information.\n".into(), 125)
    );
    assert_eq!(
        run(&["timeout", "1", "nosuch"]),
        (String::new(), "timeout: failed to run command 'nosuch': No such file or directory\n".into(), 127)
    );
}

#[test]
fn env_and_printenv() {
    assert_eq!(run(&["env"]), (String::new(), String::new(), 0));
    assert_eq!(out(&["env", "-i", "A=1", "B=x y"]), "A=1\nB=x y\n");
    assert_eq!(run(&["env", "-i", "A=1", "-u", "A"]), (String::new(), "env: '-u': No such file or directory\n".into(), 127));
    assert_eq!(out(&["env", "-i", "-u", "A", "A=1"]), "A=1\n");
    assert_eq!(out(&["env", "-0", "-i", "A=1"]), "A=1\0");
    assert_eq!(out(&["env", "seq", "2"]), "1\n2\n");
    assert_eq!(
        run(&["env", "-u"]),
        (String::new(), "env: option requires an argument -- 'u'\nTry 'env --help' for more information.\n".into(), 125)
    );
    assert_eq!(run(&["env", "nosuch"]), (String::new(), "env: 'nosuch': No such file or directory\n".into(), 127));
    assert_eq!(run(&["printenv", "NOPE"]), (String::new(), String::new(), 1));
    assert_eq!(run(&["printenv"]), (String::new(), String::new(), 0));
}

#[test]
fn which_searches_path() {
    assert_eq!(run(&["which", "nosuchcmd", "seq"]), ("/usr/bin/seq\n".into(), String::new(), 1));
    assert_eq!(out(&["which", "-a", "seq"]), "/usr/bin/seq\n/bin/seq\n");
    assert_eq!(run(&["which"]), (String::new(), String::new(), 1));
    assert_eq!(out(&["which", "/bin/date"]), "/bin/date\n");
}

#[test]
fn identity() {
    assert_eq!(out(&["whoami"]), "user\n");
    assert_eq!(run(&["whoami", "x"]).1, "whoami: extra operand 'x'\nTry 'whoami --help' for more information.\n");
    assert_eq!(out(&["id"]), "uid=1000(user) gid=1000(user) groups=1000(user)\n");
    assert_eq!(out(&["id", "-u"]), "1000\n");
    assert_eq!(out(&["id", "-un"]), "user\n");
    assert_eq!(out(&["id", "-g"]), "1000\n");
    assert_eq!(out(&["id", "-Gn"]), "user\n");
    assert_eq!(out(&["id", "root"]), "uid=0(root) gid=0(root) groups=0(root)\n");
    assert_eq!(run(&["id", "-n"]), (String::new(), "id: cannot print only names or real IDs in default format\n".into(), 1));
    assert_eq!(run(&["id", "nosuchuser"]), (String::new(), "id: 'nosuchuser': no such user\n".into(), 1));
    assert_eq!(out(&["hostname"]), "sandbox\n");
    assert_eq!(out(&["hostname", "-s"]), "sandbox\n");
    assert_eq!(run(&["hostname", "foo"]), (String::new(), "hostname: you must be root to change the host name\n".into(), 1));
}

#[test]
fn machine() {
    assert_eq!(out(&["uname"]), "Linux\n");
    assert_eq!(out(&["uname", "-a"]), "Linux sandbox 6.1.0-wabash #1 SMP PREEMPT_DYNAMIC x86_64 GNU/Linux\n");
    assert_eq!(out(&["uname", "-snrvmpio"]), "Linux sandbox 6.1.0-wabash #1 SMP PREEMPT_DYNAMIC x86_64 unknown unknown GNU/Linux\n");
    assert_eq!(out(&["uname", "-m"]), "x86_64\n");
    assert_eq!(out(&["uname", "-o"]), "GNU/Linux\n");
    assert_eq!(out(&["uname", "-n"]), "sandbox\n");
    assert_eq!(
        run(&["uname", "-x"]),
        (String::new(), "uname: invalid option -- 'x'\nTry 'uname --help' for more information.\n".into(), 1)
    );
    assert_eq!(out(&["uptime"]), " 00:00:00 up 0 min,  1 user,  load average: 0.00, 0.00, 0.00\n");
    assert_eq!(out(&["uptime", "-p"]), "up 0 minutes\n");
    assert_eq!(out(&["uptime", "-s"]), "2024-01-01 00:00:00\n");
    assert_eq!(out(&["nproc"]), "1\n");
    assert_eq!(out(&["nproc", "--all"]), "1\n");
    assert_eq!(run(&["nproc", "x"]).1, "nproc: extra operand 'x'\nTry 'nproc --help' for more information.\n");
    assert_eq!(out(&["getconf", "PAGESIZE"]), "4096\n");
    assert_eq!(out(&["getconf", "ARG_MAX"]), "2097152\n");
    assert_eq!(out(&["getconf", "PATH_MAX", "/"]), "4096\n");
    assert_eq!(out(&["getconf", "_NPROCESSORS_ONLN"]), "1\n");
    assert_eq!(run(&["getconf", "FOO"]), (String::new(), "getconf: Unrecognized variable `FOO'\n".into(), 2));
    assert_eq!(run(&["getconf", "PATH_MAX"]).2, 2);
    assert_eq!(run(&["getconf"]).1, "Usage: getconf [-v specification] variable_name [pathname]\n       getconf -a [pathname]\n");
}

#[test]
fn terminal() {
    assert_eq!(run(&["tty"]), ("not a tty\n".into(), String::new(), 1));
    assert_eq!(run(&["tty", "-s"]), (String::new(), String::new(), 1));
    assert_eq!(run(&["tty", "x"]), (String::new(), "tty: extra operand 'x'\nTry 'tty --help' for more information.\n".into(), 2));
    assert_eq!(out(&["clear"]), "\x1b[H\x1b[2J\x1b[3J");
    assert_eq!(out(&["clear", "-x"]), "\x1b[H\x1b[2J");
}

#[test]
fn seq_integers() {
    assert_eq!(out(&["seq", "3"]), "1\n2\n3\n");
    assert_eq!(out(&["seq", "-s,", "3"]), "1,2,3\n");
    assert_eq!(out(&["seq", "-s", "", "3"]), "123\n");
    assert_eq!(out(&["seq", "-s", ": ", "1", "3"]), "1: 2: 3\n");
    assert_eq!(out(&["seq", "5", "1"]), "");
    assert_eq!(out(&["seq", "-3", "-1"]), "-3\n-2\n-1\n");
    assert_eq!(out(&["seq", "10", "-3", "1"]), "10\n7\n4\n1\n");
    assert_eq!(out(&["seq", "-w", "8", "11"]), "08\n09\n10\n11\n");
    assert_eq!(out(&["seq", "-w", "-1", "1"]), "-1\n00\n01\n");
    assert_eq!(out(&["seq", "0x10", "0x12"]), "16\n17\n18\n");
    assert_eq!(out(&["seq", "1e2", "1e2"]), "100\n");
    assert_eq!(out(&["seq", "99999999999999999999", "100000000000000000000"]), "99999999999999999999\n100000000000000000000\n");
}

#[test]
fn seq_decimals_and_formats() {
    assert_eq!(out(&["seq", "1", "0.5", "3"]), "1.0\n1.5\n2.0\n2.5\n3.0\n");
    assert_eq!(out(&["seq", "0.1", "0.3"]), "0.1\n");
    assert_eq!(out(&["seq", "1", ".1", "1.3"]), "1.0\n1.1\n1.2\n1.3\n");
    assert_eq!(out(&["seq", "1.5", "3"]), "1.5\n2.5\n");
    assert_eq!(out(&["seq", "1", "1.0", "2"]), "1.0\n2.0\n");
    assert_eq!(out(&["seq", "0.000001", "0.000001", "0.000003"]), "0.000001\n0.000002\n0.000003\n");
    assert_eq!(out(&["seq", "1e-2", "1e-2", "3e-2"]), "0.01\n0.02\n0.03\n");
    assert_eq!(out(&["seq", "-w", "1", "1.5", "10"]), "01.0\n02.5\n04.0\n05.5\n07.0\n08.5\n10.0\n");
    assert_eq!(out(&["seq", "3", "-1", "1.5"]), "3\n2\n");
    assert_eq!(out(&["seq", "-f", "%03g", "3"]), "001\n002\n003\n");
    assert_eq!(out(&["seq", "-f", "x%.2fy", "1", "2"]), "x1.00y\nx2.00y\n");
    assert_eq!(out(&["seq", "-f", "%g", "1", "0.5", "2"]), "1\n1.5\n2\n");
    assert_eq!(out(&["seq", "-f", "%e", "1", "1"]), "1.000000e+00\n");
}

#[test]
fn seq_errors() {
    assert_eq!(run(&["seq"]), (String::new(), "seq: missing operand\nTry 'seq --help' for more information.\n".into(), 1));
    assert_eq!(run(&["seq", "x"]).1, "seq: invalid floating point argument: 'x'\nTry 'seq --help' for more information.\n");
    assert_eq!(run(&["seq", "1", "0", "3"]).1, "seq: invalid Zero increment value: '0'\nTry 'seq --help' for more information.\n");
    assert_eq!(run(&["seq", "1", "2", "3", "4"]).1, "seq: extra operand '4'\nTry 'seq --help' for more information.\n");
    assert_eq!(run(&["seq", "-f", "%d", "3"]), (String::new(), "seq: format '%d' has unknown %d directive\n".into(), 1));
    assert_eq!(run(&["seq", "-f", "nofmt", "1"]).1, "seq: format 'nofmt' has no % directive\n");
    assert_eq!(
        run(&["seq", "-w", "-f", "%g", "1", "2"]).1,
        "seq: format string may not be specified when printing equal width strings\nTry 'seq --help' for more information.\n"
    );
    assert_eq!(run(&["seq", "1", "nan"]).1, "seq: invalid 'not-a-number' argument: 'nan'\nTry 'seq --help' for more information.\n");
}
