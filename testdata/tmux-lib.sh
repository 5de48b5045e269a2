# The helpers the tmux flows share (sourced; the caller sets nothing):
# root, work, a tmux socket of its own, check and its counts, screen,
# session, waits, pick/open/to_list for the list, and the binary built
# into $work/skein.
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
work=$(mktemp -d)
sock="$work/tmux.sock"
t() { tmux -S "$sock" "$@"; }
trap 't kill-server 2>/dev/null; rm -rf "$work"' EXIT
passed=0
failed=0
check() { # check NAME COND...
  local name=$1
  shift
  if "$@"; then
    passed=$((passed + 1))
    echo "ok   $name"
  else
    failed=$((failed + 1))
    echo "FAIL $name"
    echo "---- screen ----"
    t capture-pane -p -t skein 2>/dev/null | sed 's/^/    /'
    echo "----------------"
  fi
}
screen() { t capture-pane -p -t skein; }
# session ARGS...: a new session, once the server of the last one (killed
# just before) is gone: tmux exits when its last session ends, and a new
# one started while it does fails ("server exited unexpectedly").
session() {
  for _ in $(seq 50); do t ls >/dev/null 2>&1 || break; t kill-server 2>/dev/null; sleep 0.1; done
  t new-session "$@" || { sleep 0.5; t new-session "$@"; }
}
# wait_for TEXT [SECONDS]: until the screen shows TEXT.
wait_for() {
  local deadline=$((SECONDS + ${2:-10}))
  while [ $SECONDS -lt $deadline ]; do
    screen | grep -qF -- "$1" && return 0
    sleep 0.1
  done
  return 1
}
shows() { screen | grep -qF -- "$1"; }
lacks() { ! screen | grep -qF -- "$1"; }
# wait_gone TEXT [SECONDS]: until the screen no longer shows TEXT.
wait_gone() {
  local deadline=$((SECONDS + ${2:-10}))
  while [ $SECONDS -lt $deadline ]; do
    lacks "$1" && return 0
    sleep 0.1
  done
  return 1
}
# follows A B: a screen line holding A is followed at once by one holding B.
follows() {
  screen | awk -v a="$1" -v b="$2" 'prev && index($0, b) { found = 1 } { prev = index($0, a) > 0 } END { exit !found }'
}
# wait_follows A B [SECONDS]
wait_follows() {
  local deadline=$((SECONDS + ${3:-10}))
  while [ $SECONDS -lt $deadline ]; do
    follows "$1" "$2" && return 0
    sleep 0.1
  done
  return 1
}
# pick TEXT: in the list, / TEXT, Enter keeps the filter (its row selected).
pick() {
  t send-keys -t skein / "$1"
  wait_for "/ $1" >/dev/null
  t send-keys -t skein Enter
  wait_for "filter: $1" >/dev/null
}
# open TEXT: pick TEXT, Enter opens it.
open() {
  pick "$1"
  t send-keys -t skein Enter
}
# to_list: q back from a session to the list, its filter cleared.
to_list() {
  t send-keys -t skein q
  wait_for "sort: modified" >/dev/null
  if shows "(esc clears)"; then
    t send-keys -t skein Escape
    wait_gone "(esc clears)" >/dev/null
  fi
}

# Build once; go keeps its caches where they are when HOME changes.
export GOCACHE=$(go env GOCACHE) GOMODCACHE=$(go env GOMODCACHE) GOPATH=$(go env GOPATH)
(cd "$root" && go build -o "$work/skein" .) || exit 1
