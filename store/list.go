package store

import (
	"errors"
	"path/filepath"
	"runtime"
	"sort"
	"sync"
	"sync/atomic"
	"time"
)

// Problem is a file that could not be listed.
type Problem struct {
	Path string
	Err  error
}

// List reads the pi session records of files, in parallel, newest first.
// Files that are not pi sessions are left out and returned as problems.
// progress, when not nil, is called from the workers as files are done.
func List(files []string, progress func(done, total int)) ([]Info, []Problem) {
	type result struct {
		info Info
		err  error
	}
	results := make([]result, len(files))
	var done atomic.Int64
	each(files, func(i int, info Info, err error) {
		results[i] = result{info, err}
		if progress != nil {
			progress(int(done.Add(1)), len(files))
		}
	})
	var infos []Info
	var problems []Problem
	for i, r := range results {
		if isPart(r.err) {
			continue // shown with its session
		}
		if r.err != nil {
			problems = append(problems, Problem{files[i], r.err})
			continue
		}
		infos = append(infos, r.info)
	}
	SortNewestFirst(infos)
	return infos, problems
}

// each scans the files on every core and calls fn, from the workers, with
// each record (its Path set) or error.
func each(files []string, fn func(i int, info Info, err error)) {
	var next atomic.Int64
	workers := min(runtime.GOMAXPROCS(0), max(1, len(files)))
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var buf []byte // reused: one allocation for a worker's files
			for {
				i := int(next.Add(1)) - 1
				if i >= len(files) {
					return
				}
				var info Info
				var err error
				buf, info, err = listOne(files[i], buf)
				info.Path = files[i]
				fn(i, info, err)
			}
		}()
	}
	wg.Wait()
}

// SortNewestFirst orders by modified time, newest first, then as pi 1.6.0
// breaks ties: by file name, descending (for pi's usual names, the later
// file first), then by path.
func SortNewestFirst(infos []Info) {
	sort.SliceStable(infos, func(a, b int) bool {
		if infos[a].Modified != infos[b].Modified {
			return infos[a].Modified > infos[b].Modified
		}
		if na, nb := filepath.Base(infos[a].Path), filepath.Base(infos[b].Path); na != nb {
			return na > nb
		}
		return infos[a].Path < infos[b].Path
	})
}

// Scan lists files like List, but streams: fn is called from one goroutine
// at a time with each batch of records as they are read (at least every
// interval), the files left out since the last batch and why, and the
// count done so far. It returns when all are read.
func Scan(files []string, interval time.Duration, fn func(batch []Info, left []Problem, done, total int)) {
	defer currentCache().Save()
	type result struct {
		info Info
		err  error
	}
	ch := make(chan result, 256)
	go func() {
		each(files, func(_ int, info Info, err error) { ch <- result{info, err} })
		close(ch)
	}()
	var batch []Info
	var left []Problem
	done := 0
	last := time.Now()
	for r := range ch {
		done++
		switch {
		case r.err == nil:
			batch = append(batch, r.info)
		case !isPart(r.err):
			left = append(left, Problem{r.info.Path, r.err})
		}
		if time.Since(last) >= interval {
			fn(batch, left, done, len(files))
			batch, left, last = nil, nil, time.Now()
		}
	}
	fn(batch, left, done, len(files))
}

func isPart(err error) bool {
	var p *PartOfSession
	return errors.As(err, &p)
}
