#!/bin/sh
# Regenerate docs/example-report/ (report.md and the plots it links) from a quick `verify` run.
#
# Usage, from the repository root:  scripts/example_report.sh [path/to/dpsaddle]
# (default: $CARGO_TARGET_DIR/release/dpsaddle, else target/release/dpsaddle; build it first with
# `cargo build --release`). report.json is not kept (the example is the rendered report); the
# run fails, leaving docs/example-report/ as it was, if any claim fails or a link in report.md
# does not resolve.
set -eu
BIN=${1:-${CARGO_TARGET_DIR:-target}/release/dpsaddle}
OUT=docs/example-report
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$BIN" verify --out "$tmp/run" > "$tmp/table.txt"
mkdir -p "$tmp/new"
cp "$tmp/run/report.md" "$tmp/new/"
if [ -d "$tmp/run/plots" ]; then cp -r "$tmp/run/plots" "$tmp/new/"; fi
missing=0
for f in $(grep -o '](plots/[^)]*\.svg)' "$tmp/new/report.md" | sed 's/^](//; s/)$//' | sort -u); do
    if [ ! -f "$tmp/new/$f" ]; then echo "unresolved link: $f" >&2; missing=1; fi
done
[ "$missing" = 0 ]
rm -rf "$OUT"
mv "$tmp/new" "$OUT"
echo "wrote $OUT: report.md and $(ls "$OUT/plots" 2>/dev/null | wc -l) plots"
