#!/usr/bin/env bash
# Writes every source of tests/parse/cases.txt and bash_n_extra.txt as one
# file of fuzz/corpus/parse/, the seed corpus of the `parse` fuzz target.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
out="$root/fuzz/corpus/parse"
mkdir -p "$out"
n=0
for file in "$root/tests/parse/cases.txt" "$root/tests/parse/bash_n_extra.txt"; do
    source= state=0 first=1
    while IFS= read -r line || [ -n "$line" ]; do
        if [ "$line" = "===" ]; then
            if [ "$state" = 2 ]; then n=$((n + 1)); printf '%s' "$source" > "$out/seed-$n"; fi
            source= state=1 first=1
        elif [ "$state" = 1 ] && [ "$line" = "---" ]; then
            state=2
        elif [ "$state" = 1 ]; then
            if [ "$first" = 1 ]; then source=$line first=0; else source+=$'\n'"$line"; fi
        fi
    done < "$file"
    if [ "$state" = 2 ]; then n=$((n + 1)); printf '%s' "$source" > "$out/seed-$n"; fi
done
echo "wrote $n seeds to $out"
