#!/usr/bin/env bash
# Drives the real skein binary in a real terminal (tmux, 120x40, and once
# 80x24) on Dhara session folders (<id>/meta.json, entries.jsonl, tree.json,
# archive.jsonl; testdata/dhara/README.md), the way a person would, and
# checks what is on the screen and on disk:
#   1. a store of only Dhara folders in ~/.dhara/sessions (a copy of
#      testdata/dhara/store): the list shows their titles; Enter opens one
#      with its branches in the tree (├/└) and its messages; a tool_call
#      stands in the assistant message that owns it, its result after it;
#   2. a mixed store: pi's files in ~/.pi/agent/sessions and Dhara folders
#      in $DHARA_HOME/sessions (which replaces ~/.dhara/sessions) listed
#      together; a Dhara session opened at 80x24;
#   3. every action on a Dhara session through its keys: f forks at an entry
#      (a new branch in tree.json), L labels (a label entry), R renames
#      (meta.json's title), c compacts (a compaction entry; no earlier line
#      lost or changed: the archive move puts the summarized ones in
#      archive.jsonl, byte for byte), the list's / finds a word of a
#      message and opens the session there, a message an agent appends
#      (entries.jsonl, then tree.json replaced by mv) appears, d in the list
#      moves the folder to the trash; doctor finds skein's writes valid;
#   4. skein doctor --check-sessions: 0 on the store, 1 on a damaged copy,
#      naming entries.jsonl:LINE.
# Usage: testdata/tmux-flow-dhara.sh     (exit status 0 when every check holds)
source "$(dirname "$0")/tmux-lib.sh"
command -v jq >/dev/null || { echo "FAIL jq is needed to read tree.json and the entries"; exit 1; }

# Every run: no model (the extractive summarizer, as the TUI's tests use),
# no pi or Dhara folder from the environment, the trash and the text index
# in $work.
skein_env="env -u NO_COLOR -u DHARA_HOME -u PI_CODING_AGENT_DIR -u PI_CODING_AGENT_SESSION_DIR -u ANTHROPIC_API_KEY -u ANTHROPIC_BASE_URL -u OPENAI_API_KEY -u OPENAI_BASE_URL SKEIN_SUMMARIZER=extractive XDG_DATA_HOME=$work/data XDG_CACHE_HOME=$work/cache TERM=xterm-256color"

# 1. A store of Dhara folders only, in the default place.
home="$work/home"
store="$home/.dhara/sessions"
mkdir -p "$store"
cp -r "$root"/testdata/dhara/store/* "$store/"
session -d -s skein -x 120 -y 40 "$skein_env HOME=$home $work/skein; sleep 120"
check "the list shows a Dhara session's title" wait_for "Paginate GET /orders"
all_titles() {
  wait_for "skein · sessions  8 ·" && wait_for "Flaky payment retry test" && wait_for "Refactor auth module" &&
    wait_for "make release fails on macOS" && wait_for "Config loader: YAML to TOML" && wait_for "Umbenennen: größe → size"
}
check "the list shows every Dhara session (8)" all_titles
open "Paginate GET /orders"
check "Enter opens the branched session" wait_for "Paginate GET /orders  /srv/work/shopfront"
check "its tree shows the fork from the middle (├)" wait_for "├⊟ • user: Keep the cursor, but encode it"
check "its tree shows the fork of the fork (└)" shows "│  └─ assistant: Alternative: an opaque cursor"
check "its tree shows the main branch (└)" shows "└⊟ user: Use offset pagination instead"
leaf_marked() { screen | grep -F "• assistant: Documented cursor" | grep -qF "◂ leaf"; }
check "the leaf is the middle fork's tip (latest activity)" leaf_marked
check "the messages of the active path are shown" shows "│  Documented cursor pagination in README.md under \"Listing orders\"."
check "the path's first message is shown" shows "│  Add cursor pagination to GET /orders."
to_list
open "Flaky payment retry test"
check "Enter opens the linear session" wait_for "Flaky payment retry test  /home/priya/src/ledger-api"
check "a tool_call stands under its assistant's text" wait_follows "│  Let me read the test and the retry helper." "│  → read payments/retry_test.go"
check "its second call follows it in the same message" follows "│  → read payments/retry_test.go" "│  → read payments/retry.go"
check "the call's result is shown" follows "│  ← read · 2026-06-02 08:14:32" "│  func TestRetryPayment(t *testing.T) {"
t kill-session -t skein 2>/dev/null

# 2. A mixed store: pi's sessions in the default place, Dhara's in
#    $DHARA_HOME/sessions; a decoy in ~/.dhara/sessions must not be listed.
mixhome="$work/mixhome"
mkdir -p "$mixhome/.pi/agent/sessions" "$mixhome/.dhara/sessions" "$work/dhara/sessions"
cp -r "$root"/testdata/pi/store/* "$mixhome/.pi/agent/sessions/"
cp -r "$root"/testdata/dhara/store/* "$work/dhara/sessions/"
cp -r "$root/testdata/dhara/store/seed" "$mixhome/.dhara/sessions/decoy"
jq '.id = "decoy" | .title = "Decoy under ~/.dhara"' "$root/testdata/dhara/store/seed/meta.json" > "$mixhome/.dhara/sessions/decoy/meta.json"
session -d -s skein -x 120 -y 40 "$skein_env HOME=$mixhome DHARA_HOME=$work/dhara $work/skein; sleep 120"
check "the mixed list counts pi's 19 and Dhara's 8" wait_for "skein · sessions  27 ·"
check "the mixed list shows a pi session" wait_for "Health endpoint"
check "the mixed list shows a Dhara session" shows "Paginate GET /orders"
another_of_each() { shows "Cache: Redis vs SQLite" && shows "Flaky payment retry test"; }
check "the mixed list shows another of each" another_of_each
check "DHARA_HOME replaces ~/.dhara: the decoy is not listed" lacks "Decoy under ~/.dhara"
t kill-session -t skein 2>/dev/null
session -d -s skein -x 80 -y 24 "$skein_env HOME=$mixhome DHARA_HOME=$work/dhara $work/skein; sleep 120"
wait_for "Health endpoint" >/dev/null
open "Paginate GET /orders"
small_tree() {
  wait_for "Paginate GET /orders  /srv/work/shopfront" && wait_for "├⊟ • user: Keep the cursor" &&
    wait_for "│  └─ assistant: Alternative: an opaque cursor" && wait_for "messages · 6 of 6" &&
    wait_for "Documented cursor pagination in README.md under \"Listing orders\"."
}
check "at 80x24 the Dhara session opens with its tree and messages" small_tree
t kill-session -t skein 2>/dev/null

# 3. Every action on a Dhara session, through the keys.
b="$store/branched"
session -d -s skein -x 120 -y 40 "$skein_env HOME=$home $work/skein; sleep 120"
wait_for "Paginate GET /orders" >/dev/null
open "Paginate GET /orders"
wait_for "tree · row 6 of 11" >/dev/null
t send-keys -t skein '?'
session_help() { wait_for "skein · keys" && shows "f fork here" && shows "c compact" && shows "L label" && shows "R rename"; }
check "? in a session shows fork, compact, label, rename" session_help
t send-keys -t skein Escape
wait_gone "skein · keys" >/dev/null
# Fork at "user: Now document it in the README." (one up from the leaf).
t send-keys -t skein k
wait_for "tree · row 5 of 11" >/dev/null
jq -r '.branches[].id' "$b/tree.json" > "$work/branches.before"
t send-keys -t skein f
check "f asks to fork at the selected entry" wait_for "Fork at: user: Now document it in the README."
t send-keys -t skein y
check "the status line says forked" wait_for "forked: the new branch branch_"
fork_id=$(screen | grep -o 'forked: the new branch branch_[0-9a-f]*' | head -1 | sed 's/.* //')
forked_on_disk() {
  [ -n "$fork_id" ] && ! grep -qxF "$fork_id" "$work/branches.before" &&
    [ "$(jq '.branches | length' "$b/tree.json")" -eq $(($(wc -l < "$work/branches.before") + 1)) ] &&
    jq -e --arg id "$fork_id" '.branches[] | select(.id == $id) | .parentBranchId == "branch_3c9e1a7f05b2d468" and .entryIds[-1] == "msg_9d1f3b5c7e8a0f2b"' "$b/tree.json" >/dev/null
}
check "tree.json has one more branch, its parentBranchId set, ending at the entry" forked_on_disk
check "the fork is the path shown (5 messages)" wait_for "messages · 5 of 5"
# Label the selected entry.
t send-keys -t skein L
wait_for "An empty label clears it." >/dev/null
t send-keys -t skein -l docs-done
wait_for "> docs-done" >/dev/null
t send-keys -t skein Enter
check "the status line says label set" wait_for "label set"
check "the tree shows the label" wait_for "[docs-done] user: Now document it"
label_on_disk() {
  tail -n 1 "$b/entries.jsonl" | jq -e '.type == "label" and .label == "docs-done" and .targetId == "msg_9d1f3b5c7e8a0f2b"' >/dev/null
}
check "entries.jsonl ends with the label entry" label_on_disk
# Rename the session.
t send-keys -t skein R
wait_for "> Paginate GET /orders" >/dev/null
t send-keys -t skein C-u
wait_gone "> Paginate GET /orders" >/dev/null
t send-keys -t skein -l "Orders paging v2"
wait_for "> Orders paging v2" >/dev/null
t send-keys -t skein Enter
check "the status line says renamed" wait_for "renamed"
check "the header shows the new title" wait_for "Orders paging v2  /srv/work/shopfront"
check "meta.json's title is the new one" test "$(jq -r .title "$b/meta.json")" = "Orders paging v2"
# Compact the path to the selection. skein moves the summarized lines to
# archive.jsonl (DECISIONS.md 9) when entries.jsonl has been still for 2 s:
# wait for that, so that the move is checked every run.
for _ in $(seq 100); do [ $(($(date +%s) - $(stat -c %Y "$b/entries.jsonl"))) -ge 3 ] && break; sleep 0.1; done
cp "$b/entries.jsonl" "$work/entries.before"
t send-keys -t skein c
wait_for "Keep about" 20 >/dev/null
# - keeps fewer tokens until there is something to summarize.
keep() { screen | grep -o 'Keep about [0-9.k]* tokens' | head -1; }
for _ in $(seq 20); do
  shows "Compact the branch?" && break
  was=$(keep)
  t send-keys -t skein -
  for _ in $(seq 50); do [ "$(keep)" != "$was" ] && break; sleep 0.1; done
done
check "c (and -) shows the compaction plan" wait_for "Compact the branch?"
check "the summarizer is the extractive one" shows "Summarizer: extractive"
t send-keys -t skein Enter
check "Enter shows the summary to review" wait_for "Compaction summary" 30
check "the summary has its sections" wait_for "## Goal"
t send-keys -t skein C-s
# (The review dialog says "Nothing is written until ctrl+s": wait for the
# status line's own words.)
written() {
  local deadline=$((SECONDS + 20))
  while [ $SECONDS -lt $deadline ]; do
    screen | grep -q 'compaction cmp_[0-9a-f]* written' && return 0
    sleep 0.1
  done
  return 1
}
check "ctrl+s writes the compaction (the status line says so)" written
cmp_id=$(screen | grep -o 'compaction cmp_[0-9a-f]* written' | head -1 | cut -d' ' -f2)
compaction_on_disk() {
  [ -n "$cmp_id" ] && tail -n 1 "$b/entries.jsonl" | jq -e --arg id "$cmp_id" '.type == "compaction" and .id == $id and (.entryIds | length) > 0' >/dev/null
}
check "entries.jsonl ends with the compaction entry" compaction_on_disk
# The lines before it: each one, byte for byte and in order, either still in
# entries.jsonl or moved to archive.jsonl (it had none before).
lines_kept() {
  local archive="$b/archive.jsonl"
  : > "$work/no-archive"
  [ -e "$archive" ] || archive="$work/no-archive"
  { grep -xF -f "$archive" "$work/entries.before" || true; } | cmp -s - "$archive" &&
    { grep -vxF -f "$archive" "$work/entries.before" || true; } | cmp -s - <(head -n -1 "$b/entries.jsonl")
}
check "no earlier line of entries.jsonl is lost or changed (the summarized ones are in archive.jsonl)" lines_kept
archived_ids() {
  [ -s "$b/archive.jsonl" ] || return 1
  [ "$(jq -r .id "$b/archive.jsonl" | sort)" = "$(tail -n 1 "$b/entries.jsonl" | jq -r '(.entryIds - .preservedEntryIds)[]' | sort)" ]
}
check "archive.jsonl holds the compaction's entries that are not preserved" archived_ids
check "the tree shows the compaction" wait_for "[compaction of"
# The list's / finds a word of a Dhara session's messages and opens it there.
to_list
check "the list shows the new title" wait_for "Orders paging v2"
check "the list no longer shows the old title" lacks "Paginate GET /orders"
t send-keys -t skein / channel
check "/ lists a Dhara session by its messages, with the snippet" wait_for "⌕ …Wait on a channel" 30
check "the text match's count is on the filter line" shows "1 more by their messages"
t send-keys -t skein Enter
wait_for "filter: channel" >/dev/null
t send-keys -t skein Enter
check "Enter opens the Dhara session of the text match" wait_for "Flaky payment retry test  /home/priya/src/ledger-api"
check "at the message, the match marked" wait_for "/channel · 1/1 in the messages"
focused() { screen | grep -qF "▌ Wait on a channel instead of sleeping."; }
check "the matching message is the one focused" focused
# An agent appends a message: entries.jsonl first, then tree.json (and
# meta.json's updatedAt) replaced, each through a temporary file and mv.
l="$store/linear"
[ -n "$(tail -c 1 "$l/entries.jsonl")" ] && printf '\n' >> "$l/entries.jsonl" # its last line has no newline
printf '%s\n' '{"id":"01JWQ3ME5F7G9H1J3K5M7N9P1Q","type":"message","role":"user","content":[{"type":"text","text":"appended by Dhara while you watched"}],"timestamp":"2026-06-02T08:17:00.000Z"}' >> "$l/entries.jsonl"
jq '.branches[0].entryIds += ["01JWQ3ME5F7G9H1J3K5M7N9P1Q"]' "$l/tree.json" > "$l/tree.json.tmp" && mv "$l/tree.json.tmp" "$l/tree.json"
jq '.updatedAt = "2026-06-02T08:17:00.000Z"' "$l/meta.json" > "$l/meta.json.tmp" && mv "$l/meta.json.tmp" "$l/meta.json"
appeared() {
  local deadline=$((SECONDS + 15))
  while [ $SECONDS -lt $deadline ]; do
    shows "appended by Dhara while you watched" && return 0
    shows "new (G)" && t send-keys -t skein G
    sleep 0.1
  done
  return 1
}
check "a message an agent appends to a Dhara session appears on screen" appeared
# Delete from the list: the folder goes to the trash.
to_list
wait_for "Refactor auth module" >/dev/null
t send-keys -t skein '?'
check "? in the list shows d: delete (to trash)" wait_for "delete (to trash)"
t send-keys -t skein Escape
wait_gone "skein · keys" >/dev/null
pick "Refactor auth module"
t send-keys -t skein d
check "d asks to move the Dhara folder to the trash" wait_for "~/.dhara/sessions/seed"
t send-keys -t skein y
check "the status line says moved to the trash" wait_for "moved to the trash"
in_trash() {
  [ -d "$work/data/Trash/files/seed" ] && [ -f "$work/data/Trash/files/seed/entries.jsonl" ] && [ ! -e "$store/seed" ] &&
    grep -qxF "Path=$store/seed" "$work/data/Trash/info/seed.trashinfo"
}
check "the folder is in \$XDG_DATA_HOME/Trash/files/seed, with its .trashinfo" in_trash
t send-keys -t skein Escape
check "the list counts 7 sessions" wait_for "skein · sessions  7 ·"
check "the deleted session's row is gone" lacks "Refactor auth module"
t kill-session -t skein 2>/dev/null
out=$(HOME="$home" "$work/skein" doctor --check-sessions "$store" 2>&1)
rc=$?
check "doctor finds the store valid after skein's fork, label, rename, compaction" test $rc -eq 0
[ $rc -eq 0 ] || printf '%s\n' "$out" | grep -v ': OK$' | sed 's/^/     /'

# 4. doctor --check-sessions on a copy of the store, and on a damaged copy.
mkdir -p "$work/doctor"
cp -r "$root/testdata/dhara/store" "$work/doctor/store"
cp -r "$root/testdata/dhara/damaged/garbage-line" "$work/doctor/garbage-line"
HOME="$work/doctor" "$work/skein" doctor --check-sessions "$work/doctor/store" >"$work/doctor/out" 2>&1
check "doctor --check-sessions on the store exits 0" test $? -eq 0
HOME="$work/doctor" "$work/skein" doctor --check-sessions "$work/doctor/garbage-line" >"$work/doctor/out" 2>&1
check "doctor --check-sessions on garbage-line exits 1" test $? -eq 1
check "doctor names garbage-line/entries.jsonl:3" grep -qF "garbage-line/entries.jsonl:3:" "$work/doctor/out"

echo "tmux-flow-dhara: $passed passed, $failed failed (${SECONDS}s)"
[ "$failed" -eq 0 ]
