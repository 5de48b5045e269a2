#!/usr/bin/env bash
# Issue 24: a home holding the sessions of every agent skein reads (pi,
# Claude Code, Codex, Gemini CLI, Copilot CLI, Qwen Code, Cursor, OpenClaw,
# oh-my-pi, Factory Droid, Kimi Code, Cline, OpenCode (its database and its
# older storage/ files), Kilo CLI; the fixtures the agents wrote where
# they run here, testdata/agentgen), with the real binary in a real
# terminal (tmux) at 120x40 and 80x24:
#   1. every session is listed from the agents' default folders, the list's
#      count being `session list --json`'s;
#   2. the a key narrows the list to each agent in turn (the header names
#      it), and one session of each opens (its messages pane shows);
#   3. agent:NAME in the / box narrows as a does;
#   4. every session exports (markdown), and skein search finds a word in
#      the sessions of every agent that says it.
# Usage: testdata/tmux-flow-every-agent.sh     (exit status 0 when every check holds)
source "$(dirname "$0")/tmux-lib.sh"
command -v jq >/dev/null || { echo "FAIL jq is needed"; exit 1; }

home="$work/home"
fx="$root/testdata/agentgen"
mkdir -p "$home/.pi/agent/sessions" "$work/data"
cp -r "$root"/testdata/pi/store/--home-dev-webapp-- "$home/.pi/agent/sessions/"
cp -r "$fx/claude/fixtures/parallel/home/.claude" "$home/"
cp -r "$fx/codex/fixtures/plain/codex-home" "$home/.codex"
cp -r "$fx/gemini/fixtures/plain/home/.gemini" "$home/"
cp -r "$fx/copilot/fixtures/plain/copilot-home" "$home/.copilot"
cp -r "$fx/qwen/fixtures/plain/qwen-home" "$home/.qwen"
cp -r "$fx/droid/fixtures/plain/home/.factory" "$home/"
cp -r "$fx/kimi/fixtures/plain/kimi-home" "$home/.kimi-code"
mkdir -p "$home/.cline" && cp -r "$fx/cline/fixtures/plain/cline-home/data" "$home/.cline/"
cp -r "$root"/testdata/cursor/cursor-home/.cursor "$home/"
cp -r "$root"/testdata/openclaw/openclaw-home/.openclaw "$home/"
cp -r "$root"/testdata/omp/omp-home/.omp "$home/"
# OpenCode and Kilo keep their databases in $XDG_DATA_HOME (the flow's
# $work/data); OpenCode's older files are sessions beside its database.
cp -r "$root"/testdata/opencode/legacy-home/.local/share/opencode "$work/data/"
cp "$fx/opencode/fixtures/plain/opencode/opencode.db" "$work/data/opencode/"
mkdir -p "$work/data/kilo" && cp "$fx/kilo/fixtures/parallel/kilo/kilo.db" "$work/data/kilo/"
skein_env="env -i PATH=$PATH HOME=$home XDG_CACHE_HOME=$work/cache XDG_DATA_HOME=$work/data TZ=UTC TERM=xterm-256color"
n=$($skein_env "$work/skein" session list --json | jq length)
agents=("Claude Code" "Cline" "Codex" "Copilot CLI" "Cursor" "Factory Droid" "Gemini CLI" "Kilo CLI" "Kimi Code" "oh-my-pi" "OpenClaw" "OpenCode" "pi" "Qwen Code")

for size in 120x40 80x24; do
  w=${size%x*} h=${size#*x}
  session -d -s skein -x "$w" -y "$h" "$skein_env $work/skein; sleep 300"
  check "$size: the list shows the $n sessions of ${#agents[@]} agents" wait_for "skein · sessions  $n ·" 20
  for a in "${agents[@]}"; do
    t send-keys -t skein a
    check "$size: a narrows to $a's sessions" wait_for "agent: $a"
    t send-keys -t skein Enter
    check "$size: one of $a's sessions opens" wait_for "messages ·" 15
    t send-keys -t skein q
    wait_gone "messages ·" >/dev/null
  done
  t send-keys -t skein a
  check "$size: a after the last agent: every session again" wait_for "skein · sessions  $n ·"
  t kill-session -t skein 2>/dev/null
done

# 3. agent:NAME in the / box.
session -d -s skein -x 120 -y 40 "$skein_env $work/skein; sleep 300"
wait_for "skein · sessions  $n ·" 20 >/dev/null
for a in gemini kimi droid cline opencode kilo; do
  want=$($skein_env "$work/skein" session list --json | jq --arg f "$a" '[.[] | select(.format == $f)] | length')
  pick "agent:$a"
  check "/agent:$a lists its $want session(s)" wait_for "skein · sessions  $want of $n"
  t send-keys -t skein Escape
  wait_gone "of $n" >/dev/null
done
t kill-session -t skein 2>/dev/null

# 4. search and export, on the command line, over every agent's sessions.
for p in $($skein_env "$work/skein" session list --json | jq -r '.[].path'); do
  check "export to markdown: ${p#"$home"/}" sh -c "$skein_env $work/skein session export '$p' --format markdown -o $work/export-$RANDOM.md >/dev/null 2>&1"
done
agents_hit=$($skein_env "$work/skein" search --json hello | jq -r '.[].path' | sed "s|^$home/||" | cut -d/ -f1 | sort -u | wc -l)
check "skein search finds hello in the sessions of 7 agents ($agents_hit)" test "$agents_hit" -ge 7

echo "tmux-flow-every-agent: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
