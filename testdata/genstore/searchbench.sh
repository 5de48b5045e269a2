#!/usr/bin/env bash
# The full-text index at scale, on a store genstore wrote (issue 10):
#   testdata/genstore/searchbench.sh SKEIN_BINARY STORE_DIR
# cat of the store from disk, then the first search (the index built) from
# disk, both with the page cache dropped when this runs as root; the index's
# size; then warm searches, five of each, as whole processes.
set -uo pipefail
bin=$1 store=$2
cache=$(mktemp -d)
trap 'rm -rf "$cache"' EXIT
export XDG_CACHE_HOME=$cache
drop() { sync; [ -w /proc/sys/vm/drop_caches ] && echo 3 > /proc/sys/vm/drop_caches; }
mb=$(du -sm "$store" | cut -f1)
echo "store: $store, $mb MB, $(find "$store" -name '*.jsonl' | wc -l) sessions"
drop
s=$(date +%s.%N); find "$store" -name '*.jsonl' -exec cat {} + > /dev/null; e=$(date +%s.%N)
echo "cat from disk: $(echo "$e - $s" | bc) s ($(echo "$mb / ($e - $s)" | bc) MB/s)"
drop
/usr/bin/time -f "first search, index built from disk: %e s, %M KB peak" "$bin" search --limit 20 "parser token" "$store" > /dev/null
idx=$(du -sm "$cache/skein/text" | cut -f1)
echo "text index: $idx MB ($(echo "scale=1; 100 * $idx / $mb" | bc)% of the store)"
for q in "parser token" 're:wombat-\d+' 're:[a-z]{30}'; do
  for _ in 1 2 3 4 5; do
    /usr/bin/time -f "%e s %M KB" "$bin" search --limit 20 "$q" "$store" 2>&1 >/dev/null | tail -1
  done | sort -n | tr '\n' ' ' | sed "s|^|warm '$q': |"
  echo
done
