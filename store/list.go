package store

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"skein/store/pi"
)

// Problem is a file that could not be listed.
type Problem struct {
	Path string
	Err  error
}

// List reads the pi session records of files, in parallel, newest first.
// Files that are not pi sessions are left out and returned as problems.
// progress, when not nil, is called from the workers as files are done.
func List(files []string, progress func(done, total int)) ([]pi.Info, []Problem) {
	type result struct {
		info pi.Info
		err  error
	}
	results := make([]result, len(files))
	var done atomic.Int64
	each(files, func(i int, info pi.Info, err error) {
		results[i] = result{info, err}
		if progress != nil {
			progress(int(done.Add(1)), len(files))
		}
	})
	var infos []pi.Info
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
func each(files []string, fn func(i int, info pi.Info, err error)) {
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
				var info pi.Info
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
func SortNewestFirst(infos []pi.Info) {
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

// mmapMin is the size from which a file is mapped rather than read. Below it
// page faults cost more than the copy; above it mapping also spares each
// worker a buffer the size of the largest session.
const mmapMin = 4 << 20

// scanFile reads a file into buf (grown as needed and returned for reuse),
// or maps it when it is large, and scans it.
func scanFile(path string, buf []byte) ([]byte, pi.Info, error) {
	f, st, err := pi.OpenRegular(path)
	if err != nil {
		return buf, pi.Info{}, err
	}
	defer f.Close()
	return scanOpen(f, st.Size(), float64(st.ModTime().UnixMilli()), buf, pi.ScanInfo)
}

// scanOpen reads an open file of size bytes into buf, or maps it when it is
// large, and scans it with scan.
func scanOpen(f *os.File, fileSize int64, mtimeMs float64, buf []byte, scan func([]byte, float64) (pi.Info, error)) ([]byte, pi.Info, error) {
	if fileSize >= mmapMin {
		if data, err := mmap(f, fileSize); err == nil {
			info, err := scanMapped(data, mtimeMs, scan)
			munmap(data)
			return buf, info, err
		}
	}
	size := int(fileSize) + 1
	if cap(buf) < size {
		buf = make([]byte, 0, size+size/4)
	}
	buf = buf[:0]
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := f.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if errors.Is(err, io.EOF) || (err == nil && n == 0) {
			break
		}
		if err != nil {
			return buf, pi.Info{}, err
		}
	}
	info, err := scan(buf, mtimeMs)
	return buf, info, err
}

// scanMapped scans mapped memory. A file truncated while it is mapped faults
// on access; the fault becomes an error instead of a crash.
func scanMapped(data []byte, mtimeMs float64, scan func([]byte, float64) (pi.Info, error)) (info pi.Info, err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("file changed while it was read: %v", r)
		}
	}()
	return scan(data, mtimeMs)
}

// Scan lists files like List, but streams: fn is called from one goroutine
// at a time with each batch of records as they are read (at least every
// interval), the files left out since the last batch and why, and the
// count done so far. It returns when all are read.
func Scan(files []string, interval time.Duration, fn func(batch []pi.Info, left []Problem, done, total int)) {
	defer currentCache().Save()
	type result struct {
		info pi.Info
		err  error
	}
	ch := make(chan result, 256)
	go func() {
		each(files, func(_ int, info pi.Info, err error) { ch <- result{info, err} })
		close(ch)
	}()
	var batch []pi.Info
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

// PartOfSession is a file that is a part of another session (a Claude Code
// sub-agent's log), or a writer's temporary file: not a session of its own,
// and no problem either. The list leaves it out without a word.
type PartOfSession struct{ Reason string }

func (e *PartOfSession) Error() string { return e.Reason }

func isPart(err error) bool {
	var p *PartOfSession
	return errors.As(err, &p)
}
