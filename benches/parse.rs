//! Parse throughput on a ~1 MB script of typical agent commands (not a
//! test). Run: `cargo bench --bench parse` (or with `--profile bench-native`).
//! `BENCH_ROUNDS=n` sets how many times each measure runs (default 15); the
//! best and the median round are reported, so the spread shows. Each round is
//! timed twice: wall time, and the process's CPU time (user and system,
//! `clock_gettime`'s process clock through the `cpu-time` crate), which other
//! processes' load changes much less; where there is no such clock (WASI) only
//! the wall time is shown.

use std::time::Instant;
use wabash::syntax::{parse, ParseLimits, ParseOptions, Parser};

/// Lines an agent typically runs, with `{n}` replaced by a counter.
const LINES: [&str; 24] = [
    "cd /home/user/project{n} && ls -la",
    "grep -rn \"TODO\" src/ | head -20",
    "find . -name '*.rs' -type f | xargs wc -l",
    "cat package.json | jq '.dependencies | keys[]'",
    "git log --oneline -n 10 && git status --short",
    "sed -i 's/foo{n}/bar/g' src/file{n}.txt",
    "awk -F, '{print $1, $3}' data.csv | sort | uniq -c | sort -rn | head",
    "for f in *.log; do gzip \"$f\"; done",
    "if [ -f package.json ]; then npm install --silent; else echo \"no package\"; fi",
    "echo \"$(date +%Y-%m-%d) build {n}\" >> log.txt 2>&1",
    "count=$((count + {n})); echo \"${count:-0} ${name##*/} ${arr[@]}\"",
    "while read -r line; do echo \"${line%%:*}\"; done < /etc/passwd",
    "test -d build || mkdir -p build/{debug,release}",
    "curl -s https://api.example.com/v1/items?page={n} | jq -r '.items[] | .name'",
    "export PATH=~/bin:$PATH NODE_ENV=production",
    "case \"$1\" in start) run ;; stop|halt) halt ;; *) usage ;; esac",
    "[[ -n $x && $x =~ ^[0-9]+$ ]] && echo numeric",
    "python3 -c 'import sys; print(sys.version)' | tee -a out{n}.txt",
    "tar -czf backup{n}.tar.gz --exclude=node_modules ./src ./tests",
    "result=$(cat input.txt | tr 'a-z' 'A-Z' | wc -c)",
    "f{n}() { local x=\"$1\"; printf '%s\\n' \"$x\"; }",
    "cat > config{n}.yaml <<EOF\nname: app{n}\nport: $PORT\nEOF",
    "docker run --rm -v \"$PWD\":/app -w /app node:20 npm test # comment",
    "diff <(sort a.txt) <(sort b.txt) || true",
];

fn main() {
    let mut script = String::new();
    let mut n = 0usize;
    while script.len() < 1_000_000 {
        for line in LINES {
            script.push_str(&line.replace("{n}", &n.to_string()));
            script.push('\n');
        }
        n += 1;
    }
    let options = ParseOptions {
        limits: ParseLimits { max_tokens: usize::MAX, max_iterations: usize::MAX, max_input_bytes: usize::MAX, ..ParseLimits::default() },
        ..ParseOptions::default()
    };
    let rounds = std::env::var("BENCH_ROUNDS").ok().and_then(|text| text.parse().ok()).unwrap_or(15usize).max(1);
    let megabytes = script.len() as f64 / 1e6;
    let mut whole = Rounds::default();
    let mut commands = 0;
    for _ in 0..rounds {
        let start = Clocks::now();
        let list = parse(&script, &options).expect("the benchmark script parses");
        whole.push(&start);
        commands = list.items.len();
    }
    println!("parse (whole tree): {megabytes:.2} MB script, {commands} top-level commands, {rounds} rounds");
    whole.print(megabytes);
    let mut streaming = Rounds::default();
    for _ in 0..rounds {
        let start = Clocks::now();
        let mut parser = Parser::new(&script);
        let mut lines = 0usize;
        while let Some(line) = parser.next_line(&options).expect("the benchmark script parses") {
            lines += line.items.len();
        }
        streaming.push(&start);
        assert_eq!(lines, commands);
    }
    println!("parse (line by line, as the interpreter reads): {rounds} rounds");
    streaming.print(megabytes);
}

/// The two clocks read at the start of a round.
struct Clocks {
    /// Wall-clock start.
    wall: Instant,
    /// CPU time the process had used, when it can be read.
    cpu: Option<CpuClock>,
}

impl Clocks {
    /// Both clocks now.
    fn now() -> Self {
        let cpu = cpu_now();
        Clocks { wall: Instant::now(), cpu }
    }
}

/// The process's CPU clock (user and system time, all threads).
#[cfg(unix)]
type CpuClock = cpu_time::ProcessTime;

/// Where there is no CPU clock (WASI), nothing is ever read.
#[cfg(not(unix))]
type CpuClock = std::convert::Infallible;

/// The process's CPU clock now, when it can be read.
#[cfg(unix)]
fn cpu_now() -> Option<CpuClock> {
    cpu_time::ProcessTime::try_now().ok()
}

/// No CPU clock here.
#[cfg(not(unix))]
fn cpu_now() -> Option<CpuClock> {
    None
}

/// CPU seconds since `start`.
#[cfg(unix)]
fn cpu_seconds_since(start: &CpuClock) -> Option<f64> {
    start.try_elapsed().ok().map(|elapsed| elapsed.as_secs_f64())
}

/// No CPU clock here.
#[cfg(not(unix))]
fn cpu_seconds_since(start: &CpuClock) -> Option<f64> {
    match *start {}
}

/// The wall and CPU seconds of each round of one measure.
#[derive(Default)]
struct Rounds {
    /// Wall seconds per round.
    wall: Vec<f64>,
    /// CPU seconds per round (empty when the CPU clock cannot be read).
    cpu: Vec<f64>,
}

impl Rounds {
    /// Records the round that started at `start`.
    fn push(&mut self, start: &Clocks) {
        self.wall.push(start.wall.elapsed().as_secs_f64());
        if let Some(seconds) = start.cpu.as_ref().and_then(cpu_seconds_since) {
            self.cpu.push(seconds);
        }
    }

    /// Prints one line per clock: the best and the median round.
    fn print(&mut self, megabytes: f64) {
        println!("  wall time: {}", summary(&mut self.wall, megabytes));
        if !self.cpu.is_empty() {
            println!("  CPU time:  {}", summary(&mut self.cpu, megabytes));
        }
    }
}

/// The best and the median of the rounds' times, in ms and MB/s.
fn summary(seconds: &mut [f64], megabytes: f64) -> String {
    seconds.sort_by(f64::total_cmp);
    let best = seconds.first().copied().unwrap_or(f64::NAN);
    let median = seconds.get(seconds.len() / 2).copied().unwrap_or(f64::NAN);
    format!("best {:.2} ms ({:.1} MB/s), median {:.2} ms ({:.1} MB/s)", best * 1e3, megabytes / best, median * 1e3, megabytes / median,)
}
