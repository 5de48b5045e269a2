#!/usr/bin/env bash
# The cross-check against Claude Code 2.1.332 and Codex 0.171.0 themselves:
# both agents, run offline against their fake model servers, write new
# sessions with a fresh seed (their answers' words, usage figures and the
# order parallel tools finish in change with it: seed.mjs), and skein's Go
# tests over the agents' fixtures (context on every resume equal to what the
# agent sent, every call followed by its result, one branch, doctor clean,
# tokens equal to the server's usage) run on those new sessions.
#
#   bash testdata/agentgen/crosscheck.sh [SEED]     (default: the time)
#
# Needs npm and the network for `npm ci` (about 20 s; the agents' native
# binaries are ~400 MB on disk); the gens take about 2 minutes on 2 cores.
set -euo pipefail
cd "$(dirname "$0")"
seed=${1:-$(date +%s)}
out=$(mktemp -d /tmp/skein-agentgen-XXXXXX)
trap 'rm -rf "$out"' EXIT
start=$(date +%s)
(cd codex && npm ci --no-audit --no-fund --loglevel=error)
(cd claude && npm ci --no-audit --no-fund --loglevel=error)
echo "agentgen: seed $seed, sessions into $out"
export AGENTGEN_SEED=$seed AGENTGEN_OUT=$out
export AGENTGEN_TMP=$out/sandbox-claude
(cd codex && ../claude/node22 gen.mjs) | sed 's/^/codex: /'
(cd claude && ./node22 gen.mjs) | sed 's/^/claude: /'
gen=$(date +%s)
sessions=$(find "$out/codex" "$out/claude" \( -name 'rollout-*.jsonl' -o -path '*/projects/*.jsonl' \) -not -path '*/subagents/*' | wc -l)
cd ../..
log=$out/go-test.log
if ! go test -count=1 -v -run 'Agentgen' ./store/claude ./store/codex >"$log" 2>&1; then
  grep -E -- '--- FAIL|^\s+\S+_test.go:[0-9]+' "$log" | head -60
  echo "agentgen: FAILED (seed $seed: rerun with bash testdata/agentgen/crosscheck.sh $seed)"
  exit 1
fi
checks=$(grep -c -- '--- PASS' "$log" || true)
echo "agentgen: seed $seed: $sessions sessions written by the agents, $checks checks passed; gen $((gen - start)) s, all $(($(date +%s) - start)) s"
