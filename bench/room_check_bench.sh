#!/usr/bin/env bash
# Builds the room check's decision with the property tests' signals (-O, swiftc) and prints its figures: how often
# it is right, how soon it decides, its CPU per second of audio (bench/room_check_bench.swift).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
for f in "$ROOT"/Sources/AubadeCore/RoomHearing/{Goertzel,PlayedBlock,RoomVerdict,RoomHearing,RoomHearing+Tests}.swift; do
  cp "$f" "$OUT/"
done
sed 's/^import AubadeCore$//' "$ROOT/Tests/AubadeCoreTests/RoomSignals.swift" > "$OUT/RoomSignals.swift"
cp "$ROOT/bench/room_check_bench.swift" "$OUT/main.swift"
"${SWIFTC:-swiftc}" -O -o "$OUT/room_check_bench" "$OUT"/*.swift
"$OUT/room_check_bench"
