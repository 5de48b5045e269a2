#!/usr/bin/env bash
# Drives the real skein binary in a real terminal (tmux, 120x40) the way a
# person would, and checks what is on the screen:
#   1. with sessions in ~/.pi/agent/sessions: the list shows their names;
#      / and a name, Enter, Enter opens that session, with its tree and its
#      last user message on screen; ? shows help; hostile text is shown but
#      does not retitle the terminal; q from the list exits with status 0;
#   3. a day's use: the filter narrows as letters are typed; / finds a word in
#      an open session and n the next; the list's / finds a session by a word
#      of its messages and opens it at that message; P runs the pi first on the PATH; a
#      message an agent appends appears; f then y typed while a 100 MB
#      session loads fork it;
#   2. on a fresh machine (empty HOME) the README's run command, `go run .`,
#      opens the demo sessions.
# Usage: testdata/tmux-flow.sh     (exit status 0 when every check holds)
source "$(dirname "$0")/tmux-lib.sh"

# 1. A store in the default place.
home="$work/home"
mkdir -p "$home/.pi/agent/sessions"
cp -r "$root"/testdata/pi/store/* "$home/.pi/agent/sessions/"
session -d -s skein -x 120 -y 40 "env -u NO_COLOR HOME=$home TERM=xterm-256color $work/skein; echo \$? > $work/status; sleep 60"
check "the list shows the sessions' names" wait_for "Health endpoint"
all_names() { wait_for "Cache: Redis vs SQLite" && wait_for "Compiler work" && wait_for "多语言 ✨ test" && wait_for "Health endpoint"; }
check "the list shows every session" all_names
t send-keys -t skein / Cache
check "/ filters as you type" wait_for "/ Cache"
t send-keys -t skein Enter
check "Enter keeps the filter" wait_for "filter: Cache"
t send-keys -t skein Enter
check "Enter again opens the session" wait_for "Cache: Redis vs SQLite  /home/dev/webapp"
check "its tree is on screen" wait_for "├⊟ user: Try Redis first."
check "its last user message is on screen" shows "Start over: what is a cache?"
t send-keys -t skein '?'
check "? shows help" wait_for "skein · keys"
t send-keys -t skein Escape
# wait_gone TEXT [SECONDS]: until the screen no longer shows TEXT.
wait_gone() {
  local deadline=$((SECONDS + ${2:-10}))
  while [ $SECONDS -lt $deadline ]; do
    lacks "$1" && return 0
    sleep 0.1
  done
  return 1
}
help_closed() { wait_gone "skein · keys"; }
check "esc closes help" help_closed
t send-keys -t skein q
check "q goes back to the list, filter kept" wait_for "filter: Cache"
# Escape alone: followed at once by a key, a terminal reads it as Alt+key.
# Each step waits for the screen to answer the one before.
t send-keys -t skein Escape
wait_gone "filter: Cache" >/dev/null
# Its folder, not its title: pi 1.6.0's --fork of it has the same title.
t send-keys -t skein / dév/多语言
wait_for "/ dév/多语言" >/dev/null
t send-keys -t skein Enter
wait_for "filter: dév/多语言" >/dev/null
t send-keys -t skein Enter
# The list's preview shows the same text: wait for the session screen first.
check "the hostile session opens" wait_for "messages ·"
check "hostile text is shown as placeholders" wait_for "␛]0;pwned title␇"
check "C1 controls are shown as placeholders" wait_for "⟨U+009B⟩"
# The title reaches tmux after the frame: poll it, and never see the session's.
title_is() {
  local deadline=$((SECONDS + 5))
  while [ $SECONDS -lt $deadline ]; do
    title=$(t display -p -t skein '#{pane_title}')
    case $title in *pwned*) return 1 ;; "$1") return 0 ;; esac
    sleep 0.1
  done
  return 1
}
title=
check "the terminal's title is skein's, not the session's" title_is "skein — 多语言 ✨ test"
[ "$title" = "skein — 多语言 ✨ test" ] || echo "     (title: $title)"
t send-keys -t skein q
wait_for "sort: modified" >/dev/null
t send-keys -t skein q
for _ in $(seq 50); do [ -s "$work/status" ] && break; sleep 0.1; done
check "q from the list exits with status 0" test "$(cat "$work/status" 2>/dev/null)" = "0"
t kill-session -t skein 2>/dev/null

# 3. A day's use: the filter narrows, a search in a session, resume in pi,
#    keys typed while a 100 MB session loads, an agent's append followed.
session -d -s skein -x 120 -y 40 "env -u NO_COLOR HOME=$home TERM=xterm-256color $work/skein; sleep 60"
wait_for "Health endpoint" >/dev/null
count() { screen | grep -o '[0-9]* of 19 · sort' | head -1 | cut -d' ' -f1; }
narrows() {
  t send-keys -t skein /
  wait_for "/ " >/dev/null
  local prev=20 n
  for ch in c a c h e; do
    t send-keys -t skein "$ch"
    sleep 0.3
    n=$(count)
    [ -n "$n" ] || n=19
    [ "$n" -le "$prev" ] || return 1
    prev=$n
  done
  [ "$prev" -lt 19 ]
}
check "the filter shrinks as letters are typed" narrows
t send-keys -t skein Escape
wait_gone "/ cache" >/dev/null
t send-keys -t skein / Redis
wait_for "/ Redis" >/dev/null
t send-keys -t skein Enter
wait_for "filter: Redis" >/dev/null
t send-keys -t skein Enter
wait_for "Cache: Redis vs SQLite  /home/dev/webapp" >/dev/null
t send-keys -t skein / redis Enter
check "/ finds a word in the open session" wait_for "/redis · 1/"
t send-keys -t skein n
check "n moves to the next match" wait_for "/redis · 2/"
t kill-session -t skein 2>/dev/null

# The list's / searches the messages too: a word in no title, Enter twice
# opens its session at that message, the match marked, and n stays in it.
session -d -s skein -x 120 -y 40 "env -u NO_COLOR -u XDG_CACHE_HOME HOME=$home TERM=xterm-256color $work/skein; sleep 60"
wait_for "Health endpoint" >/dev/null
t send-keys -t skein / correlate
check "/ lists a session by its messages, with the snippet" wait_for "⌕ Now correlate all the ti" 20
check "the text match's count is on the filter line" shows "1 more by their messages"
t send-keys -t skein Enter
wait_for "filter: correlate" >/dev/null
t send-keys -t skein Enter
check "Enter opens the session of the text match" wait_for "What does logs/api.log say?  /home/dev/pi16-overflow"
check "at the message, the match marked" wait_for "/correlate · 1/1 in the messages"
focused() { screen | grep -q "▌ Now correlate all the timeouts across the three logs."; }
check "the matching message is the one focused" focused
t kill-session -t skein 2>/dev/null

# P runs the pi first on the PATH, with --session and the file, in its folder.
mkdir -p "$work/bin" "$work/proj" "$work/store3/proj"
printf '#!/bin/sh\nprintf "%%s\\n" "$PWD" "$@" > %s/pi-ran\n' "$work" > "$work/bin/pi"
chmod +x "$work/bin/pi"
src=$(ls "$root"/testdata/pi/store/--home-dev-webapp--/2026-03-02*.jsonl | head -1)
sess="$work/store3/proj/s.jsonl"
sed "1s#\"cwd\":\"[^\"]*\"#\"cwd\":\"$work/proj\"#" "$src" > "$sess"
session -d -s skein -x 120 -y 40 "env -u NO_COLOR HOME=$home PATH=$work/bin:$PATH TERM=xterm-256color $work/skein $sess; sleep 60"
wait_for "messages ·" >/dev/null
t send-keys -t skein P
ran() {
  for _ in $(seq 50); do [ -s "$work/pi-ran" ] && break; sleep 0.1; done
  [ "$(cat "$work/pi-ran" 2>/dev/null)" = "$(printf '%s\n' "$work/proj" --session "$sess")" ]
}
check "P runs pi --session FILE in the session's folder" ran
check "skein comes back when pi exits" wait_for "messages ·"
# An agent appends a message: it appears without a key.
last=$(tail -1 "$sess" | grep -o '"id":"[^"]*"' | head -1 | cut -d'"' -f4)
printf '%s\n' '{"type":"message","id":"feed0001","parentId":"'"$last"'","timestamp":"2026-03-02T10:00:00.000Z","message":{"role":"user","content":"appended by an agent while you watched","timestamp":1772445600000}}' >> "$sess"
check "a message an agent appends appears on screen" wait_for "1 new (G)"
t send-keys -t skein G
check "G shows it" wait_for "appended by an agent while you watched"
t kill-session -t skein 2>/dev/null

# Keys typed while a 100 MB session loads are not lost: f then y forks it.
big="$work/store4/big/big.jsonl"
mkdir -p "$(dirname "$big")"
if (cd "$root/testdata/pigen" && ./node22 bigstore.mjs --one "$big" --mb 100 >/dev/null 2>&1) && [ -s "$big" ]; then
  session -d -s skein -x 120 -y 40 "env -u NO_COLOR HOME=$home TERM=xterm-256color $work/skein $big; sleep 60"
  wait_for "big.jsonl…" 20 >/dev/null # the session screen, loading
  t send-keys -t skein f
  t send-keys -t skein y
  forked() {
    for _ in $(seq 300); do [ "$(ls "$(dirname "$big")" | wc -l)" -ge 2 ] && return 0; sleep 0.1; done
    return 1
  }
  check "f then y typed while 100 MB load fork it" forked
  check "the forked dialog says so" wait_for "Forked" 20
  t kill-session -t skein 2>/dev/null
else
  check "pi wrote a 100 MB session (testdata/pigen/bigstore.mjs)" false
fi

# 2. A fresh machine: empty HOME, the README's run command.
fresh="$work/fresh"
mkdir -p "$fresh"
run_cmd=$(awk '/^```/{inblock=!inblock; next} inblock && NF {print; exit}' "$root/README.md")
check "the README's first command is go run . (got: $run_cmd)" test "$run_cmd" = "go run ."
session -d -s skein -x 120 -y 40 -c "$root" "env HOME=$fresh TERM=xterm-256color $run_cmd; sleep 60"
check "with an empty HOME it opens the demo sessions" wait_for "skein · sessions · demo" 240
check "the demo has its sessions" wait_for "Rate limiting for"
check "the demo says changes are thrown away" shows "Demo: changes are thrown away on exit."
check "the demo says where skein looked" shows "No sessions in ~/.pi/agent/sessions, "
t send-keys -t skein Enter
check "a demo session opens" wait_for "messages ·"
t kill-session -t skein 2>/dev/null

echo "tmux-flow: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
