#!/usr/bin/env bash
# Drives the real skein binary in a real terminal (tmux, 120x40, and once
# 80x24) on other agents' logs, read-only: Claude Code's
# (~/.claude/projects/<project>/<uuid>.jsonl) and Codex's
# (~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl), the real samples of
# ../shared/samples (testdata/claude and testdata/codex hold the same bytes,
# used when that folder is absent), beside pi's sessions (testdata/pi/store),
# and checks what is on the screen and on disk:
#   1. the list shows the Claude and Codex sessions (their first prompts,
#      each row naming its agent)
#      with pi's, a sub-agent's file beside its session not as a session
#      of its own;
#   2. Enter opens the Claude session: its tree (one reply's lines merged
#      into one entry, 29 lines as 21 entries) and messages (a reply's text
#      and its call together, each result under its call); the Codex
#      session: its prompt, the model, a function_call with its output
#      under it; the legacy bare Codex file;
#   3. the list's / finds a word only a Claude message holds, Enter opens
#      the session at that message; likewise for a Codex message;
#   4. f, L, R, c on a Claude session (and f, R on a Codex one) say the
#      format is read-only, naming the action (? marks them unavailable; skein
#      offers to import the session first), esc says no, and nothing is
#      written: every file under ~/.claude and ~/.codex is unchanged, byte
#      for byte;
#   5. at 80x24 the Claude session opens with its tree and messages;
#   6. skein session import --file <the Claude log> makes a Dhara session
#      (the guessed format named, the source's path and hash in meta.json;
#      the same bytes again say where they went) that a fresh run lists
#      beside the Claude one and opens (writable: f asks where to fork); f,
#      yes on the Claude session opens that import and asks where to fork
#      there; the Claude log is unchanged;
#   7. $CLAUDE_CONFIG_DIR/projects and $CODEX_HOME/sessions replace the
#      default folders;
#   8. skein doctor --check-sessions on the Claude and the Codex folders
#      (and on the imported session) exits 0.
# Usage: testdata/tmux-flow-agents.sh     (exit status 0 when every check holds)
source "$(dirname "$0")/tmux-lib.sh"
command -v jq >/dev/null || { echo "FAIL jq is needed to read meta.json and the import's answer"; exit 1; }

# Helpers of this flow beside the shared ones.
# below A B N: a screen line holding B comes at most N lines after one
# holding A. (awk -v reads escapes: no backslash in A or B.)
below() {
  screen | awk -v a="$1" -v b="$2" -v n="$3" 'last && NR - last <= n && index($0, b) { found = 1 } index($0, a) { last = NR } END { exit !found }'
}
# wait_below A B N [SECONDS]
wait_below() {
  local deadline=$((SECONDS + ${4:-10}))
  while [ $SECONDS -lt $deadline ]; do
    below "$1" "$2" "$3" && return 0
    sleep 0.1
  done
  return 1
}
# screen_has_re REGEX [SECONDS]: until a screen line matches REGEX (grep -E).
screen_has_re() {
  local deadline=$((SECONDS + ${2:-10}))
  while [ $SECONDS -lt $deadline ]; do
    screen | grep -qE -- "$1" && return 0
    sleep 0.1
  done
  return 1
}
# wait_re REGEX [SECONDS]: until a screen line matches REGEX (grep -E, any case).
wait_re() {
  local deadline=$((SECONDS + ${2:-10}))
  while [ $SECONDS -lt $deadline ]; do
    screen | grep -qiE -- "$1" && return 0
    sleep 0.1
  done
  return 1
}
# wait_re_gone REGEX [SECONDS]: until no screen line matches REGEX.
wait_re_gone() {
  local deadline=$((SECONDS + ${2:-10}))
  while [ $SECONDS -lt $deadline ]; do
    screen | grep -qiE -- "$1" || return 0
    sleep 0.1
  done
  return 1
}
# focused TEXT: TEXT is on a line of the focused message (marked ▌).
focused() { screen | grep -F "▌" | grep -qF -- "$1"; }
# tree_at N/M: in a session, g then j until the tree's position is N/M.
tree_at() {
  local want=$1 n=${1%/*}
  t send-keys -t skein g
  wait_for "tree · row 1 of ${want#*/}" >/dev/null
  for _ in $(seq $((n - 1))); do t send-keys -t skein j; done
  wait_for "tree · row $n of ${want#*/}" >/dev/null
}

# Every run: no model, no agent's folder from the environment, the trash and
# the indexes (the list's and the text index) in $work, times in UTC.
skein_env="env -u NO_COLOR -u DHARA_HOME -u PI_CODING_AGENT_DIR -u PI_CODING_AGENT_SESSION_DIR -u CLAUDE_CONFIG_DIR -u CODEX_HOME -u SKEIN_INDEX -u ANTHROPIC_API_KEY -u ANTHROPIC_BASE_URL -u OPENAI_API_KEY -u OPENAI_BASE_URL SKEIN_SUMMARIZER=extractive XDG_DATA_HOME=$work/data XDG_CACHE_HOME=$work/cache TZ=UTC TERM=xterm-256color"

# The samples: ../shared/samples beside the repository, else the copies of
# the same real logs in testdata.
claude_log=1af7fc5e-8455-4414-9ccd-011d40f70b2a.jsonl
codex_log=rollout-2026-01-02T18-39-45-019b7f94-51b4-7593-922e-ba12b5b73b52.jsonl
samples="$root/../shared/samples"
if [ -f "$samples/claude/$claude_log" ] && [ -f "$samples/codex/$codex_log" ]; then
  claude_src=("$samples"/claude/*.jsonl)
  codex_src=("$samples"/codex/*.jsonl)
  echo "samples: $(cd "$samples" && pwd)"
else
  claude_src=("$root/testdata/claude/$claude_log" "$root/testdata/claude/agent-test-hash-123.jsonl")
  codex_src=("$root/testdata/codex/$codex_log" "$root/testdata/codex/rollout-44444444-4444-4444-8444-444444444444.jsonl")
  echo "samples: $samples is absent; testdata/claude and testdata/codex"
fi

# Where the agents keep them: Claude Code a folder per project (its cwd,
# /path/to/Demo, with / as -), Codex a folder per day.
home="$work/home"
project="$home/.claude/projects/-path-to-Demo"
day="$home/.codex/sessions/2026/01/02"
mkdir -p "$project" "$day" "$home/.pi/agent/sessions"
cp "${claude_src[@]}" "$project/"
# The session the real sub-agent's log belongs to (hand-made, see
# testdata/claude/README.md), beside it as Claude Code 2.0 kept them: the
# log is shown with it. (Alone, a sub-agent's log is a session of its own.)
cp "$root/testdata/claude/5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl" "$project/"
cp "${codex_src[@]}" "$day/"
cp -r "$root"/testdata/pi/store/* "$home/.pi/agent/sessions/"
claude_file="$project/$claude_log"
codex_file="$day/$codex_log"
# pi's 19, and a session for each log but a sub-agent's.
n_claude=0
for f in "$project"/*.jsonl; do case $(basename "$f") in agent-*) ;; *) n_claude=$((n_claude + 1)) ;; esac; done
n_codex=$(ls "$day"/*.jsonl | wc -l)
total=$((19 + n_claude + n_codex))
# What is under ~/.claude and ~/.codex, with every file's hash: nothing of
# it may change.
agents_files() { (cd "$home" && find .claude .codex -printf '%y %p %s\n' | sort && find .claude .codex -type f -exec sha256sum {} + | sort); }
agents_files > "$work/agents.before"
cp "$claude_file" "$work/claude.before"
cp "$codex_file" "$work/codex.before"
unchanged() { agents_files | cmp -s - "$work/agents.before" && cmp -s "$claude_file" "$work/claude.before" && cmp -s "$codex_file" "$work/codex.before"; }

# 1, 2. The list, and the sessions opened.
session -d -s skein -x 120 -y 40 "$skein_env HOME=$home $work/skein; sleep 300"
check "the list shows the Claude session (its first prompt, /init, in /path/to/Demo)" wait_for "/init                        Claude   /path/to/Demo" 20
check "the list shows the Codex session (its first prompt, not AGENTS.md or the environment)" screen_has_re "^what is current repositor[a-z ]*… +Codex +.*codemie-code "
check "the list shows the legacy Codex file" shows "Open the synthetic legacy s"
check "the list shows pi's sessions with them" shows "Health endpoint"
check "the list counts pi's 19, the Claude and the Codex sessions ($total)" wait_for "skein · sessions  $total ·"
check "the sub-agent's file is not a session of its own" lacks "Run the test suite"
open "/init"
check "Enter opens the Claude session" wait_for "/init  /path/to/Demo  anthropic/claude-sonnet-4-20250514"
check "the tree holds its $(wc -l < "$claude_file") lines as 21 entries (a reply's lines merged)" wait_for "tree · row 21 of 21"
check "the tree shows a reply of three tool uses, on three lines, as one entry" shows "• assistant: → Bash ls -la, → Glob *, → Glob .*"
check "the tree shows a reply's text and its call as one entry" shows "• assistant: I'll analyze the codebase and crea"
check "the tree shows the refused Write's result as an error" shows "• ← error: Claude requested permissions to writ"
check "the last reply is the leaf" shows "• assistant: I've created a basic CLAUDE… ◂ leaf"
check "the messages show the last reply" shows "│  start building the project."
check "a reply's text and its tool use (two lines) are one message" follows "│  foundation for future development work." "│  → Write /path/to/Demo/CLAUDE.md"
check "the Write's result is under its call" below "│  → Write /path/to/Demo/CLAUDE.md" "│  ← Write (error) · 2025-09-03 00:47:46" 2
check "the result's text is shown" follows "← Write (error) · 2025-09-03 00:47:46" "│  Claude requested permissions to write to /path/to/Demo/CLAUDE.md, but"
tree_at 5/21
check "the five parallel tool uses (five lines) are one message" wait_follows "│  → Glob CLAUDE.md" "│  → Glob .cursorrules"
check "the first reply's text and its TodoWrite are one message" follows "│  instances of Claude Code work effectively with this repository." "│  → TodoWrite"
check "the TodoWrite's result is under its call" below "│  → TodoWrite" "│  ← TodoWrite · 2025-09-03 00:47:24" 2
tree_at 10/21
check "the parallel calls' results are under them, in the order they came" wait_below "│  → Glob .cursorrules" "│  ← Glob · 2025-09-03 00:47:29" 2
check "a Glob's result text is shown" follows "│  ← Glob · 2025-09-03 00:47:29" "│  No files found"
to_list
open "what is current"
check "Enter opens the Codex session" wait_for "what is current repository about? summarize purpuse and exp…  /Users/Nikita_Levyankov/"
check "its tree shows the prompt and the calls" wait_for "tree · row 12 of 12"
check "its tree shows a function_call" shows "• assistant: → shell bash -lc ls"
check "its tree shows the call's output next, its text (not Codex's JSON of it)" follows "• assistant: → shell bash -lc ls" '• ← _bmad'
check "its tree shows the encrypted reasoning" shows "• assistant: (reasoning, encrypted)"
check "its tree shows the reasoning summary" shows "• assistant: (thinking) **Clarifying documentat"
tree_at 6/12
check "the messages show the prompt" wait_for "│  what is current repository about? summarize purpuse and explain goals"
check "the messages show the model of turn_context" shows "── model: preview-codex/gpt-5-1-codex-2025-11-13 ──"
check "the messages show the function_call" shows "│  → shell bash -lc ls"
check "the function_call_output is under its call" below "│  → shell bash -lc ls" "│  ← shell · 2026-01-02 16:39:49" 2
check "the output's text is shown (not Codex's JSON of it)" follows "│  ← shell · 2026-01-02 16:39:49" '│  _bmad'
to_list
open "Open the synthetic"
check "Enter opens the legacy bare Codex file" wait_for "tree · row 2 of 2"
legacy() { wait_for "│  Open the synthetic legacy session." && shows "│  The synthetic legacy session is open."; }
check "its prompt and answer are shown" legacy
to_list
t kill-session -t skein 2>/dev/null

# 3. The list's / finds a word of a message (in no title, in no other
#    session), and Enter, Enter opens that session at it.
# search WORD SNIPPET HEADER FOCUSED: the checks of one word.
search() {
  local word=$1 snippet=$2 header=$3 line=$4
  session -d -s skein -x 120 -y 40 "$skein_env HOME=$home $work/skein; sleep 300"
  wait_for "Health endpoint" 20 >/dev/null
  t send-keys -t skein / "$word"
  local found=0
  wait_for "⌕ $snippet" 30 && found=1
  check "/ $word lists the session by its messages, with the snippet" test $found -eq 1
  if [ $found -eq 1 ]; then
    check "/ $word: the count of text matches is on the filter line" shows "1 more by their messages"
    t send-keys -t skein Enter
    wait_for "filter: $word" >/dev/null
    t send-keys -t skein Enter
    check "/ $word: Enter opens the session of the match" wait_for "$header"
    check "/ $word: at the message, the match marked" wait_for "/$word · 1/1 in the messages"
    check "/ $word: the matching message is the one focused" focused "$line"
  else
    for c in "Enter opens the session of the match" "at the message, the match marked" "the matching message is the one focused"; do
      failed=$((failed + 1))
      echo "FAIL / $word: $c (not tried: no match listed)"
    done
  fi
  t kill-session -t skein 2>/dev/null
}
search placeholders "… includes placeholder" "/init  /path/to/Demo" "project develops. The file includes placeholders for common commands"
search zsh "… <shell>zsh</shell>" "what is current repository about? summarize purpuse and exp…  /Users/Nikita_Levyankov/" "<shell>zsh</shell>"

# 4. Write actions on a read-only session: refused, nothing written.
session -d -s skein -x 120 -y 40 "$skein_env HOME=$home $work/skein; sleep 300"
wait_for "/init" 20 >/dev/null
open "/init"
wait_for "tree · row 21 of 21" >/dev/null
t send-keys -t skein k
wait_for "tree · row 20 of 21" >/dev/null
t send-keys -t skein '?'
unavailable() {
  wait_for "skein · keys" && shows "f fork here (unavailable)" && shows "c compact (unavailable)" &&
    shows "L label (unavailable)" && shows "R rename (unavailable)"
}
check "? in a Claude session marks fork, compact, label, rename unavailable" unavailable
t send-keys -t skein Escape
wait_gone "skein · keys" >/dev/null
# refused KEY ACTION FORMAT: KEY says that FORMAT's sessions are read-only
# (skein offers to import the session first), naming ACTION; esc says no.
refused() {
  local ro="$3.*(read-only|not support|unavailable)"
  t send-keys -t skein "$1"
  check "$1 on a $3 session says the format is read-only" wait_re "$ro"
  check "$1 on a $3 session names what it would do ($2)" wait_re "(no|support) $2"
  t send-keys -t skein Escape
  check "$1 on a $3 session: esc says no, the session still open" wait_re_gone "$ro"
  shows "tree · " || check "$1 on a $3 session leaves the session open" false
}
refused f fork "claude"
refused L labels "claude"
refused R renaming "claude"
refused c compaction "claude"
check "the Claude log and every file under ~/.claude and ~/.codex are unchanged" unchanged
to_list
open "what is current"
wait_for "tree · row 12 of 12" >/dev/null
refused f fork "codex"
refused R renaming "codex"
check "the Codex rollout and every file under ~/.claude and ~/.codex are unchanged" unchanged
to_list
t kill-session -t skein 2>/dev/null

# 5. At 80x24.
session -d -s skein -x 80 -y 24 "$skein_env HOME=$home $work/skein; sleep 300"
wait_for "Health endpoint" 20 >/dev/null
open "/init"
small() {
  wait_for "/init  /path/to/Demo" && wait_for "tree · row 21 of 21" &&
    wait_for "• assistant: The directory appears to be empty. This is a completely new/empty" &&
    wait_for "• ← error: Claude requested permissions to write to /path/to/Demo/CLAUDE.md" &&
    wait_for "messages · 21 of 21" && wait_for "will need to be filled in once you start building the project."
}
check "at 80x24 the Claude session opens with its tree and messages" small
t kill-session -t skein 2>/dev/null

# 6. Import into Dhara's store, then a fresh run.
$skein_env HOME=$home "$work/skein" session import --file "$claude_file" >"$work/import.out" 2>"$work/import.err"
rc=$?
check "skein session import --file <the Claude log> exits 0" test $rc -eq 0
[ $rc -eq 0 ] || sed 's/^/     /' "$work/import.out" "$work/import.err"
check "it names the format it guessed (claude)" grep -qF "$claude_file as claude" "$work/import.err"
imported=$(sed -n 's/^imported .* into //p' "$work/import.out" | head -1)
check "the new session is a Dhara folder in ~/.dhara/sessions" test -n "$imported" -a -f "$imported/meta.json" -a "$(dirname "$imported")" = "$home/.dhara/sessions"
check "its meta.json records the source and its hash" test "$(jq -r '.importedFrom.path + " " + .importedFrom.sha256' "$imported/meta.json" 2>/dev/null)" = "$claude_file $(sha256sum < "$claude_file" | cut -d' ' -f1)"
again=$($skein_env HOME=$home "$work/skein" session import --file "$claude_file" --json 2>/dev/null | jq -r 'select(.already) | .path' 2>/dev/null)
check "importing the same bytes again says where they went (--json: already, the path)" test "$again" = "$imported"
check "no second Dhara session is made" test "$(ls "$home/.dhara/sessions" | wc -l)" -eq 1
check "the import leaves every file under ~/.claude and ~/.codex unchanged" unchanged
id=$(basename "$imported")
session -d -s skein -x 120 -y 40 "$skein_env HOME=$home $work/skein; sleep 300"
check "a fresh run counts one more session ($((total + 1)))" wait_for "skein · sessions  $((total + 1)) ·" 20
pick "/init"
two_rows() {
  local deadline=$((SECONDS + 10))
  while [ $SECONDS -lt $deadline ]; do
    screen | grep -qE '^/init +Claude +/path/to/Demo ' &&
      screen | grep -qE '^/init \(import\) +Dhara +/path/to/Demo ' && return 0
    sleep 0.1
  done
  return 1
}
check "the filter /init lists two rows titled /init in /path/to/Demo: the Claude session and the imported one, marked so in a later run" two_rows
# The imported one's row: its preview names its id.
for _ in 1 2; do wait_for "Dhara · ${id:0:8}" 2 && break; t send-keys -t skein j; done
check "the imported session is listed (its agent and id in the preview)" wait_for "Dhara · ${id:0:8}"
t send-keys -t skein Enter
imported_open() { wait_for "/init  /path/to/Demo" && wait_for "│  start building the project." && wait_for "│  → Write /path/to/Demo/CLAUDE.md"; }
check "Enter opens the imported session with the Claude log's messages" imported_open
t send-keys -t skein f
check "the imported session is writable: f asks where to fork" wait_for "Fork at:"
t send-keys -t skein Escape
wait_gone "Fork at:" >/dev/null
# f, then yes, on the Claude session: the import it offers finds the one
# made of the same bytes.
to_list
pick "/init"
for _ in 1 2; do wait_for "Claude Code · ${claude_log:0:8}" 2 && break; t send-keys -t skein j; done
t send-keys -t skein Enter
wait_for "tree · row 21 of 21" >/dev/null
t send-keys -t skein f
wait_re "claude.*read-only" >/dev/null
t send-keys -t skein y
# (issue 22, 5: the copy made before opens, and the fork goes on there.)
check "f, yes on the Claude session: the copy made before opens, with the fork's dialog" wait_for "Fork from this entry?"
check "the note says it is the copy, imported before" wait_for "this is the copy, imported before"
t send-keys -t skein Escape
wait_gone "Fork from this entry?" >/dev/null
t send-keys -t skein q
check "the list marks the copy" wait_for "(import"
check "still one Dhara session, the Claude log and the rest unchanged" test "$(ls "$home/.dhara/sessions" | wc -l)" -eq 1 -a -n "$(unchanged && echo y)"
t kill-session -t skein 2>/dev/null

# 7. The environment's folders replace the default ones.
alt="$work/alt"
mkdir -p "$work/althome" "$alt/claude/projects/-path-to-Demo" "$alt/codex/sessions/2026/01/02"
cp "$claude_file" "$alt/claude/projects/-path-to-Demo/"
cp "$codex_file" "$alt/codex/sessions/2026/01/02/"
session -d -s skein -x 120 -y 40 "$skein_env HOME=$work/althome CLAUDE_CONFIG_DIR=$alt/claude CODEX_HOME=$alt/codex $work/skein; sleep 300"
overrides() { wait_for "skein · sessions  2 ·" 20 && wait_for "/init" && wait_for "what is current repository a"; }
check "\$CLAUDE_CONFIG_DIR/projects and \$CODEX_HOME/sessions are listed" overrides
t kill-session -t skein 2>/dev/null
session -d -s skein -x 120 -y 40 "$skein_env HOME=$home CLAUDE_CONFIG_DIR=$work/none CODEX_HOME=$work/none $work/skein; sleep 300"
replaced() { wait_for "skein · sessions  $((19 + 1)) ·" 20 && lacks "what is current repository a" && shows "Health endpoint"; }
check "they replace ~/.claude/projects and ~/.codex/sessions (pi's 19 and the import only)" replaced
t kill-session -t skein 2>/dev/null

# 8. doctor.
for d in "$home/.claude/projects" "$home/.codex/sessions" "$imported"; do
  out=$($skein_env HOME="$home" "$work/skein" doctor --check-sessions "$d" 2>&1)
  rc=$?
  check "skein doctor --check-sessions ${d#"$home"/} exits 0" test $rc -eq 0
  [ $rc -eq 0 ] || printf '%s\n' "$out" | grep -v ': OK$' | sed 's/^/     /'
done

echo "tmux-flow-agents: $passed passed, $failed failed (${SECONDS}s)"
[ "$failed" -eq 0 ]
