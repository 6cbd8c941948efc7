#!/bin/bash
# Greets its first argument; run it with `bash scripts/greet.sh NAME`.
name="${1:-stranger}"
echo "Hello, $name!"
