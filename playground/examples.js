// Example sessions: what an agent typically runs, one command at a time.
// Some use commands (awk, jq, curl) that other parts of wabash are still
// bringing in; the example runs them all the same, and the shell says when
// one does not exist yet.

/** Each example: a title, a sentence, and the commands typed in order. */
export const EXAMPLES = [
  {
    id: "logs",
    title: "Log analysis (grep, awk, sort)",
    about: "Count errors in an access log and find the busiest clients.",
    commands: [
      "mkdir -p ~/logs && cd ~/logs",
      `cat > access.log <<'EOF'
10.0.0.1 GET /index.html 200 512
10.0.0.2 GET /api/items 500 0
10.0.0.1 POST /api/items 201 64
10.0.0.3 GET /index.html 200 512
10.0.0.2 GET /api/items 500 0
10.0.0.1 GET /favicon.ico 404 0
EOF`,
      "grep -c ' 500 ' access.log",
      "cut -d' ' -f1 access.log | sort | uniq -c | sort -rn",
      "awk '{ bytes[$1] += $5 } END { for (ip in bytes) print ip, bytes[ip] }' access.log | sort",
    ],
  },
  {
    id: "json",
    title: "JSON with jq",
    about: "Filter and reshape a JSON document.",
    commands: [
      `cat > ~/items.json <<'EOF'
{"items": [{"name": "pen", "price": 2}, {"name": "lamp", "price": 35}, {"name": "desk", "price": 120}]}
EOF`,
      "jq '.items | length' ~/items.json",
      "jq -r '.items[] | select(.price > 10) | .name' ~/items.json",
    ],
  },
  {
    id: "refactor",
    title: "Project refactor (find, sed)",
    about: "Rename a function across a small project and check the result.",
    commands: [
      "mkdir -p ~/project/src/util && cd ~/project",
      `printf 'export function fetchData() {}\\n' > src/api.js
printf 'import { fetchData } from "../api.js";\\nfetchData();\\n' > src/util/load.js`,
      "grep -rn fetchData src",
      "find src -name '*.js' -exec sed -i 's/fetchData/loadRecords/g' {} +",
      "grep -rn loadRecords src && tree src",
    ],
  },
  {
    id: "network",
    title: "Network call (curl, allowlisted)",
    about: "Fetch an allowlisted URL (Settings lists the allowed prefixes); any other URL is refused.",
    commands: [
      "curl -sS https://api.github.com/repos/nodejs/node | jq '{name, stars: .stargazers_count}'",
      "curl -sS https://example.com/ ; echo \"exit status $?\"",
    ],
  },
  {
    id: "loop",
    title: "An endless loop (press Stop)",
    about: "Runs until you press Stop or Ctrl-C; the page stays responsive.",
    commands: ["i=0; while :; do i=$((i+1)); done"],
  },
];
