#!/usr/bin/env bash
# Builds the Fairy-Stockfish binaries `cargo bench --bench engine` races,
# for this CPU, from the source archive beside this script (commit
# c19b5f6c of fairy-stockfish/Fairy-Stockfish, GPL-3.0: see Copying.txt in
# the archive). Fetches nothing: the build is perft only, with no network
# file (`nnue=no`, the Makefile's default).
#
#   bash benches/fsf/build.sh OUT [ARCH]
#
# writes OUT/fsf (boards up to 8×8) and OUT/fsf-large (boards up to 12×10,
# for capablanca, gothic and janus), then prints the bench's command line.
# ARCH is the Makefile's (default x86-64-bmi2: popcnt, pext, AVX2); `make
# help` in the archive's src/ lists the others.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
out=${1:?usage: build.sh OUT [ARCH]}
arch=${2:-x86-64-bmi2}
archive="$here/fairy-stockfish-c19b5f6c.tar.gz"
jobs=$(nproc)

mkdir -p "$out"
out=$(cd "$out" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

for large in no yes; do
    tar -xzf "$archive" -C "$work"
    src="$work/fairy-stockfish-c19b5f6c/src"
    name=fsf
    [ "$large" = yes ] && name=fsf-large
    echo "building $name (ARCH=$arch largeboards=$large) ..." >&2
    make -C "$src" -j"$jobs" build ARCH="$arch" largeboards="$large" nnue=no >"$out/$name.log" 2>&1 ||
        { tail -20 "$out/$name.log" >&2; exit 1; }
    cp "$src/stockfish" "$out/$name"
    rm -rf "$work/fairy-stockfish-c19b5f6c"
done

# The binaries answer before they are raced.
for b in fsf fsf-large; do
    printf 'uci\nquit\n' | "$out/$b" | grep -q uciok || { echo "$out/$b does not speak UCI" >&2; exit 1; }
done
echo "FSF_NATIVE=$out/fsf FSF_NATIVE_LARGE=$out/fsf-large cargo bench --bench engine"
