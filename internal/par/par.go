// Package par runs the independent work of a loop on every core.
package par

import (
	"bytes"
	"iter"
	"runtime"
	"sync"
	"sync/atomic"

	"skein/internal/jscan"
)

// Range calls f with the parts [lo, hi) of [0, n), a part per core, at
// once, and waits for them all.
func Range(n int, f func(lo, hi int)) {
	workers := max(1, min(runtime.GOMAXPROCS(0), n))
	if workers == 1 {
		f(0, n)
		return
	}
	chunk := (n + workers - 1) / workers
	var wg sync.WaitGroup
	for w := range workers {
		lo, hi := w*chunk, min(n, (w+1)*chunk)
		if lo < hi {
			wg.Go(func() { f(lo, hi) })
		}
	}
	wg.Wait()
}

// Ahead runs f over the parts [lo, hi) of [0, n), part items each, on
// every core, the parts in order, while its caller goes on: ready(i)
// waits until i's part is done (and what f wrote for it is visible), and
// all waits for every part. The caller walks the items as they are made
// instead of after them all.
func Ahead(n, part int, f func(lo, hi int)) (ready func(i int), all func()) {
	if part < 1 {
		part = 1
	}
	parts := (n + part - 1) / part
	done := make([]chan struct{}, parts)
	for k := range done {
		done[k] = make(chan struct{})
	}
	var next atomic.Int64
	for range max(1, min(runtime.GOMAXPROCS(0), parts)) {
		go func() {
			for {
				k := int(next.Add(1) - 1)
				if k >= parts {
					return
				}
				f(k*part, min(n, (k+1)*part))
				close(done[k])
			}
		}()
	}
	ready = func(i int) { <-done[i/part] }
	all = func() {
		for _, d := range done {
			<-d
		}
	}
	return ready, all
}

// Each calls f(k) for every k in [0, n), each on a goroutine of its own,
// and waits for them all; with one item it calls f on the caller's
// goroutine. It runs the parts SplitLines cut, one parser a part.
func Each(n int, f func(k int)) {
	if n == 1 {
		f(0)
		return
	}
	var wg sync.WaitGroup
	for k := range n {
		wg.Go(func() { f(k) })
	}
	wg.Wait()
}

// SplitLines cuts data into up to n pieces at line ends, for a parser a
// piece; a file under 8 MiB stays whole, as no piece is worth a goroutine
// under 4 MiB.
func SplitLines(data []byte, n int) [][]byte {
	const minChunk = 4 << 20
	if n < 2 || len(data) < 2*minChunk {
		return [][]byte{data}
	}
	var chunks [][]byte
	for k := n; k > 1 && len(data) > minChunk; k-- {
		cut := len(data) / k
		i := bytes.IndexByte(data[cut:], '\n')
		if i < 0 {
			break
		}
		chunks = append(chunks, data[:cut+i+1])
		data = data[cut+i+1:]
	}
	return append(chunks, data)
}

// A Part is one piece of the files ParseLines parses: whole lines of one
// file, and where they stand in it.
type Part struct {
	Data []byte
	File int  // its file's index
	Line int  // its first line's number in its file
	Off  int  // its first byte's offset in its file (a byte order mark counted)
	Last bool // it ends its file
}

// A Line is one line of a Part that holds more than blanks.
type Line struct {
	Text []byte // without its line end and the blanks around it (jscan.TrimBlank)
	No   int    // its number in its file
	// Last: it ends its file, so that its writer may not have finished it.
	Last bool
}

// Lines are the part's lines that hold more than blanks, in order: what a
// reader of JSON lines parses, one line an entry.
func (p Part) Lines() iter.Seq[Line] {
	return func(yield func(Line) bool) {
		data, no := p.Data, p.Line-1
		for len(data) > 0 {
			no++
			var text []byte
			text, data, _ = bytes.Cut(data, []byte{'\n'})
			if text = jscan.TrimBlank(text); len(text) == 0 {
				continue
			}
			if !yield(Line{Text: text, No: no, Last: p.Last && len(data) == 0}) {
				return
			}
		}
	}
}

// ParseLines parses the lines of files (each read past a UTF-8 byte order
// mark) in parts, each file cut at line ends into up to n parts
// (SplitLines), a goroutine a part, each part straight into its own region
// of one slice, a slot per line: parse fills out's slots from the first
// and says how many it filled, with what else it has to say of its part
// (its problems, say). The result is the filled slots closed up, in order
// of file and line; gather is called with each part's say, in the same
// order, after its slots have moved, and with the index its first slot
// now has (for what a part noted by slot).
func ParseLines[T, R any](files [][]byte, n int, parse func(p Part, out []T) (int, R), gather func(say R, at int)) []T {
	type part struct {
		Part
		at, n int
		say   R
	}
	var parts []part
	total := 0
	for f, file := range files {
		data := bytes.TrimPrefix(file, jscan.BOM)
		if len(data) == 0 {
			continue
		}
		pieces := SplitLines(data, n)
		line, off := 1, len(file)-len(data)
		for k, c := range pieces {
			lines := bytes.Count(c, []byte{'\n'})
			parts = append(parts, part{Part: Part{Data: c, File: f, Line: line, Off: off, Last: k == len(pieces)-1}, at: total})
			line += lines
			off += len(c)
			total += lines + 1
		}
	}
	all := make([]T, total)
	Each(len(parts), func(k int) {
		p := &parts[k]
		p.n, p.say = parse(p.Part, all[p.at:])
	})
	filled := 0
	for k := range parts {
		p := &parts[k]
		if filled != p.at {
			copy(all[filled:], all[p.at:p.at+p.n])
		}
		gather(p.say, filled)
		filled += p.n
	}
	clear(all[filled:])
	return all[:filled:filled]
}
