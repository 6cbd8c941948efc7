//! `tsort` (GNU coreutils): a topological order of the pairs read, in
//! GNU's order (items with no predecessors in byte order first, then each
//! item's successors most recent first); loops are reported and broken.

use crate::commands::common::{open_input, Input};
use crate::commands::options::{parse_or_report, report_usage, Spec};
use crate::commands::text::input::read_all;
use crate::host::LocalFuture;
use crate::utility::Invocation;
use std::collections::BTreeMap;

const SPEC: Spec = Spec::new("", &[]);

struct Graph {
    names: Vec<Vec<u8>>,
    index: BTreeMap<Vec<u8>, usize>,
    count: Vec<usize>,
    successors: Vec<Vec<usize>>,
}

impl Graph {
    fn item(&mut self, name: &[u8]) -> usize {
        if let Some(&i) = self.index.get(name) {
            return i;
        }
        let i = self.names.len();
        self.names.push(name.to_vec());
        self.index.insert(name.to_vec(), i);
        self.count.push(0);
        self.successors.push(Vec::new());
        i
    }
}

/// Runs `tsort [FILE]`.
pub fn run<'a>(ctx: &'a mut Invocation<'_>) -> LocalFuture<'a, i32> {
    Box::pin(async move {
        let parsed = match parse_or_report(ctx, &SPEC, 1).await {
            Ok(parsed) => parsed,
            Err(status) => return status,
        };
        if let Some(extra) = parsed.operands.get(1) {
            report_usage(ctx, &format!("extra operand {}", crate::commands::format::quote_locale(ctx, extra))).await;
            return 1;
        }
        let name = parsed.operands.first().cloned().unwrap_or_else(|| "-".to_string());
        let input = if name == "-" { Input::Stdin } else { Input::File(name.clone()) };
        let data = match open_input(ctx, &input).await {
            Ok(stream) => read_all(&stream).await.unwrap_or_default(),
            Err(error) => {
                ctx.report(&format!("{name}: {error}")).await;
                return 1;
            }
        };
        let tokens: Vec<&[u8]> = data.split(|b| b.is_ascii_whitespace()).filter(|t| !t.is_empty()).collect();
        if tokens.len() % 2 == 1 {
            ctx.report(&format!("{name}: input contains an odd number of tokens")).await;
            return 1;
        }
        let mut graph = Graph { names: Vec::new(), index: BTreeMap::new(), count: Vec::new(), successors: Vec::new() };
        for pair in tokens.chunks(2) {
            let a = graph.item(pair[0]);
            let b = graph.item(pair[1]);
            if a != b {
                graph.count[b] += 1;
                // GNU prepends each new successor.
                graph.successors[a].insert(0, b);
            }
        }
        let mut out = Vec::new();
        let mut done = vec![false; graph.names.len()];
        let mut remaining = graph.names.len();
        let mut status = 0;
        while remaining > 0 {
            let mut queue: Vec<usize> = graph.index.values().copied().filter(|&i| !done[i] && graph.count[i] == 0).collect();
            let mut head = 0;
            while let Some(&item) = queue.get(head) {
                head += 1;
                out.extend_from_slice(&graph.names[item]);
                out.push(b'\n');
                done[item] = true;
                remaining -= 1;
                for &next in &graph.successors[item] {
                    graph.count[next] = graph.count[next].saturating_sub(1);
                    if graph.count[next] == 0 && !done[next] {
                        queue.push(next);
                    }
                }
            }
            if remaining == 0 {
                break;
            }
            // A loop: report one, then break it at its first item.
            status = 1;
            let _ = ctx.stdout.write(&out).await;
            out.clear();
            ctx.report(&format!("{name}: input contains a loop:")).await;
            let Some(start) = graph.index.values().copied().find(|&i| !done[i]) else { break };
            let mut path = vec![start];
            let mut current = start;
            while let Some(&next) = graph.successors[current].iter().find(|&&n| !done[n]) {
                if let Some(at) = path.iter().position(|&p| p == next) {
                    path.drain(..at);
                    break;
                }
                path.push(next);
                current = next;
            }
            for &item in &path {
                ctx.report(&String::from_utf8_lossy(&graph.names[item])).await;
            }
            if let Some(&first) = path.first() {
                graph.count[first] = 0;
            }
        }
        if let Err(error) = ctx.write_out(&out).await {
            return ctx.write_failed(error).await;
        }
        status
    })
}
