#!/usr/bin/env bash
# The export in a real terminal (tmux), at 80x24 and at 120x40 (issue 22,
# point 17): skein started in a git clone, x then h, m or j asks where the
# file goes, with a path ready to edit in ~/Downloads named after the
# session's title and day; Enter writes it there and says so; the clone gains no
# file; the same export again asks before it replaces the file; ? lists the
# export's keys.
# Usage: testdata/tmux-flow-export.sh     (exit status 0 when every check holds)
source "$(dirname "$0")/tmux-lib.sh"

home="$work/home"
mkdir -p "$home/.pi/agent/sessions" "$home/Downloads" "$work/clone/.git"
cp -r "$root"/testdata/pi/store/* "$home/.pi/agent/sessions/"
for size in 80x24 120x40; do
  rm -f "$home/Downloads"/*
  session -d -s skein -x "${size%x*}" -y "${size#*x}" -c "$work/clone" "env -u NO_COLOR HOME=$home TERM=xterm-256color $work/skein; sleep 60"
  wait_for "Health endpoint" >/dev/null
  open "Health endpoint"
  wait_for "GET /health" >/dev/null
  t send-keys -t skein x
  check "$size: x asks for the format" wait_for "Export the session"
  t send-keys -t skein h
  check "$size: h asks where, in ~/Downloads" wait_for "$home/Downloads/"
  check "$size: named after the session's title and day" wait_for "Health endpoint 20"
  t send-keys -t skein Enter
  check "$size: Enter writes it and says where" wait_for "Exported"
  check "$size: the file is in Downloads" test -s "$(ls "$home/Downloads"/Health\ endpoint\ 20??-??-??.html)"
  check "$size: the clone gained no file" test "$(ls -A "$work/clone")" = ".git"
  t send-keys -t skein Escape
  wait_gone "Exported" >/dev/null
  t send-keys -t skein x
  wait_for "Export the session" >/dev/null
  t send-keys -t skein j
  wait_for "Health endpoint 20" >/dev/null
  t send-keys -t skein Enter
  check "$size: j writes Dhara's JSON" wait_for "Exported"
  check "$size: the json is in Downloads" test -s "$(ls "$home/Downloads"/Health\ endpoint\ 20??-??-??.json)"
  t send-keys -t skein Escape
  wait_gone "Exported" >/dev/null
  t send-keys -t skein x
  wait_for "Export the session" >/dev/null
  t send-keys -t skein h
  wait_for "Health endpoint 20" >/dev/null
  t send-keys -t skein Enter
  check "$size: a file there is replaced only after a yes" wait_for "Replace the file?"
  t send-keys -t skein n
  wait_gone "Replace the file?" >/dev/null
  t send-keys -t skein '?'
  check "$size: ? shows the export's keys" wait_for "export markdown"
  t send-keys -t skein Escape
  t kill-server
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
