#!/usr/bin/env bash
# Drives the real skein binary in a real terminal (tmux, 120x40 and 80x24)
# on a store of pi's, Claude Code's and Codex's sessions and a Dhara import
# of the Codex one, and checks what is on the screen (issue 22, points 10
# and 14):
#   1. each row names its agent (pi, Claude, Codex, Dhara: the import is
#      told from its original), at 120 and 80 columns, and the preview
#      names it too;
#   2. a narrows the list to one agent, each in turn, the header saying
#      which, then every agent again; ? lists a;
#   3. agent:codex in the / box narrows the list as a does;
#   4. skein search takes an unquoted query of several words, prints each
#      hit's title, project, date and agent and the command that opens it;
#      that command (skein FILE --entry ID) opens the session with the
#      message in focus.
# Usage: testdata/tmux-flow-agent-column.sh     (exit status 0 when every check holds)
source "$(dirname "$0")/tmux-lib.sh"
command -v jq >/dev/null || { echo "FAIL jq is needed to read skein search --json"; exit 1; }

# screen_re REGEX: a screen line matches (grep -E); screen_re_not: none does.
screen_re() { screen | grep -qE -- "$1"; }
screen_re_not() { ! screen | grep -qE -- "$1"; }
# no_wider N: no screen line is wider than N columns.
no_wider() { screen | perl -CSD -ne 'chomp; $bad = 1 if length($_) > '"$1"'; END { exit($bad ? 1 : 0) }'; }
# wait_focused TEXT: until TEXT is on a line of the focused message (▌).
wait_focused() {
  local deadline=$((SECONDS + 10))
  while [ $SECONDS -lt $deadline ]; do
    screen | grep -F "▌" | grep -qF -- "$1" && return 0
    sleep 0.1
  done
  return 1
}

skein_env="env -u NO_COLOR -u DHARA_HOME -u PI_CODING_AGENT_DIR -u PI_CODING_AGENT_SESSION_DIR -u CLAUDE_CONFIG_DIR -u CODEX_HOME -u SKEIN_INDEX XDG_DATA_HOME=$work/data XDG_CACHE_HOME=$work/cache TZ=UTC TERM=xterm-256color"
home="$work/home"
mkdir -p "$home/.pi/agent/sessions" "$home/.claude/projects/-path-to-Demo" "$home/.codex/sessions/2025/05/07"
cp -r "$root"/testdata/pi/store/--home-dev-webapp-- "$home/.pi/agent/sessions/"
cp "$root"/testdata/claude/1af7fc5e-8455-4414-9ccd-011d40f70b2a.jsonl "$home/.claude/projects/-path-to-Demo/"
cp "$root"/testdata/codex/legacy.jsonl "$home/.codex/sessions/2025/05/07/"
# The Codex session imported into Dhara's store: the same conversation twice.
$skein_env HOME="$home" "$work/skein" session import --file "$home/.codex/sessions/2025/05/07/legacy.jsonl" >/dev/null ||
  { echo "FAIL the import"; exit 1; }
n=$($skein_env HOME="$home" "$work/skein" session list --json | jq length)

# 1. The agent's column, and the preview.
session -d -s skein -x 120 -y 40 "$skein_env HOME=$home $work/skein; sleep 300"
check "the list shows the $n sessions" wait_for "skein · sessions  $n ·" 20
check "the column titles name the agent" shows "session                      agent    project"
check "a Claude Code session's row says Claude" shows " Claude   /path/to/Demo"
check "a pi session's row says pi" wait_for "Cache: Redis vs SQLite       pi       /home/dev/webapp"
check "the Codex original says Codex" screen_re "^List the files\. +Codex "
check "its Dhara import says Dhara" screen_re "^List the files\. \(import\) +Dhara "
pick "Cache: Redis"
check "the preview names the agent" wait_for "│ pi · 019cb3ff"
t send-keys -t skein Escape
wait_gone "filter:" >/dev/null

# 2. a: each agent in turn, then all.
t send-keys -t skein a
check "a narrows to Claude Code's sessions" wait_for "all projects · agent: Claude Code"
check "…and lists no pi session" wait_gone "Cache: Redis vs SQLite"
check "the preview of the Claude session names Claude Code" wait_for "│ Claude Code · "
t send-keys -t skein a
check "a again: Codex's" wait_for "agent: Codex"
check "…the original only" screen_re_not "^List the files\. +Dhara "
t send-keys -t skein a
check "a again: Dhara's, the import" wait_for "agent: Dhara"
t send-keys -t skein a
check "a again: pi's" wait_for "agent: pi"
check "…pi's sessions" wait_for "Cache: Redis vs SQLite"
t send-keys -t skein a
check "a after the last agent: every agent" wait_gone "agent: "
check "…every session" wait_for "skein · sessions  $n ·"
t send-keys -t skein '?'
check "? lists a" wait_for "a     one agent (each in turn)"
t send-keys -t skein Escape
wait_gone "skein · keys" >/dev/null

# 3. agent: in the / box.
pick "agent:codex"
check "/agent:codex lists the Codex session" wait_for "skein · sessions  1 of $n"
check "…and not its Dhara import" screen_re_not "^List the files\. +Dhara "
t send-keys -t skein q

# 1, 2 at 80x24.
session -d -s skein -x 80 -y 24 "$skein_env HOME=$home $work/skein; sleep 300"
check "80x24: the list shows the $n sessions" wait_for "skein · sessions  $n ·" 20
check "80x24: the agent's column fits" shows "session                       agent    project                   modified  msgs"
check "80x24: the Claude row says Claude" shows " Claude   /path/to/Demo"
check "80x24: no line wider than 80" no_wider 80
t send-keys -t skein a
check "80x24: a narrows to Claude Code's" wait_for "agent: Claude Code"
t send-keys -t skein q

# 4. skein search, then the command it prints.
out=$($skein_env HOME="$home" "$work/skein" search try redis first; echo "exit $?")
check "skein search takes the words unquoted (exit 0)" grep -q "^exit 0$" <<<"$out"
check "a hit names its title, project, date and agent" grep -qF "Cache: Redis vs SQLite  ·  /home/dev/webapp  ·  2026-03-03 14:00  ·  pi" <<<"$out"
check "a hit prints the command that opens it" grep -qF -- "--entry d20164ee" <<<"$out"
cmd=$($skein_env HOME="$home" "$work/skein" search --json --limit 1 try redis first | jq -r '.[0].open')
check "--json gives that command" test -n "$cmd" -a "$cmd" != null
session -d -s skein -x 120 -y 40 "$skein_env HOME=$home $work/$cmd; sleep 300"
check "skein FILE --entry ID opens the session" wait_for "Cache: Redis vs SQLite  /home/dev/webapp" 20
check "…with that message in focus" wait_focused "Try Redis first."
t send-keys -t skein q

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
