#!/usr/bin/env bash
# Records what real bash says about each source of tests/parse/cases.txt
# and tests/parse/bash_n_extra.txt: runs `bash -n -c SOURCE` and writes
# tests/parse/bash_n.txt, one case per source in the case-file format
# (`===`, the source, `---`, then bash's stderr, empty when it accepts).
# Usage: tests/parse/record_bash_n.sh   (needs GNU bash 5.2 as `bash`)
set -u
dir=$(cd "$(dirname "$0")" && pwd)
out="$dir/bash_n.txt"
: > "$out"
record() {
    local source=$1 stderr
    stderr=$(bash -n -c "$source" 2>&1 >/dev/null)
    printf '===\n%s\n---\n%s\n' "$source" "$stderr" >> "$out"
}
for file in "$dir/cases.txt" "$dir/bash_n_extra.txt"; do
    [ -f "$file" ] || continue
    source= in_source=0 first=1
    while IFS= read -r line || [ -n "$line" ]; do
        if [ "$line" = "===" ]; then
            [ "$in_source" = 2 ] && record "$source"
            source= in_source=1 first=1
        elif [ "$in_source" = 1 ] && [ "$line" = "---" ]; then
            in_source=2
        elif [ "$in_source" = 1 ]; then
            if [ "$first" = 1 ]; then source=$line first=0; else source+=$'\n'"$line"; fi
        fi
    done < "$file"
    [ "$in_source" = 2 ] && record "$source"
done
echo "recorded $(grep -c '^===$' "$out") cases in $out"
