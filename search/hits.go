package search

import (
	"math"

	"skein/store"
)

// HitSessions are the list records of the sessions the hits are in (from
// the list index: a few reads), by path: `skein search` and the MCP
// server say each hit's title, project and agent from them.
func HitSessions(hits []Hit) map[string]store.Info {
	var paths []string
	seen := map[string]bool{}
	for _, h := range hits {
		if !seen[h.Path] {
			seen[h.Path] = true
			paths = append(paths, h.Path)
		}
	}
	about := make(map[string]store.Info, len(paths))
	infos, _ := store.List(paths, nil)
	for _, in := range infos {
		about[in.Path] = in
	}
	return about
}

// HitTime is when the hit's message was written, else when its session
// (in, its list record) last changed; NaN for neither.
func HitTime(h Hit, in store.Info) float64 {
	if !math.IsNaN(h.Time) && h.Time != 0 {
		return h.Time
	}
	if in.Path == "" {
		return math.NaN()
	}
	return in.Modified
}
