#!/usr/bin/env bash
# Issue 27's diff screen in a real terminal (tmux), with the real binary, at
# 80x24 (stacked) and 160x40 (side by side): in "Cache: Redis vs SQLite",
# m marks the leaf's branch, G selects the SQLite branch's tip, D compares;
# n moves between the differences; enter opens that side at the message;
# esc from a comparison goes back to the session.
# Usage: testdata/tmux-flow-diff.sh     (exit status 0 when every check holds)
source "$(dirname "$0")/tmux-lib.sh"

home="$work/home"
mkdir -p "$home/.pi/agent/sessions"
cp -r "$root"/testdata/pi/store/--home-dev-webapp-- "$home/.pi/agent/sessions/"

settled() { sleep 0.5; wait_for "$1" 5; }

for size in 80x24 160x40; do
  w=${size%x*} h=${size#*x}
  session -d -s skein -x "$w" -y "$h" -c "$work" "env -u NO_COLOR HOME=$home TERM=xterm-256color $work/skein; sleep 60"
  wait_for "Cache: Redis vs SQLite" >/dev/null
  open "Cache: Redis vs SQLite"
  wait_for "messages ·" >/dev/null
  t send-keys -t skein m
  check "$size: m marks the entry in focus" settled "marked "
  t send-keys -t skein G D
  check "$size: D compares: the shared part in one line" settled "nothing shared: the two differ from their first message"
  if [ "$w" -ge 120 ]; then
    check "$size: side by side" follows "compare side by side" "left "
    check "$size: the sides next to each other" shows "── left only: 3 messages, 0 tool calls"
    check "$size: ... with the right one beside it" sh -c "tmux -S '$sock' capture-pane -p -t skein | grep -q 'left only.*│ ── right only: 6 messages'"
  else
    check "$size: stacked" shows "compare stacked"
    check "$size: the right side below the left" follows "3b5401ca  assistant" "── right only: 6 messages, 1 tool call"
  fi
  check "$size: the file the right side wrote" shows "src/cache.ts"
  t send-keys -t skein n n n n Enter
  check "$size: enter opens the right side at its first message" settled "messages · 1 of 6 on this branch"
  t send-keys -t skein m k D
  check "$size: a second comparison" settled "compare "
  t send-keys -t skein Escape
  check "$size: esc goes back to the session" settled "messages ·"
  t kill-session -t skein 2>/dev/null
done

echo "tmux-flow-diff: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
