package pi

import (
	"fmt"
	"io"
	"os"
	"time"
)

// lineWait is how Append waits for a last line that another writer has not
// finished. pi appends each entry with one write, but a large line may take
// more than one, and nothing tells a live writer from one that was killed
// mid-line except that a live one keeps going.
type lineWait struct {
	poll  time.Duration // how often the file is looked at
	still time.Duration // a partial last line unchanged this long is a crashed writer's
	limit time.Duration // a file still changing after this long is refused
	now   func() time.Time
	sleep func(time.Duration)
}

// waitRules are the rules every write uses; tests set a fake clock.
var waitRules = lineWait{
	poll:  100 * time.Millisecond,
	still: 2 * time.Second,
	limit: 10 * time.Second,
	now:   time.Now,
	sleep: time.Sleep,
}

// fileState is what the poll compares: a writer changes one or the other.
type fileState struct {
	size  int64
	mtime time.Time
}

// settler reads a locked session file once its last line is settled:
// complete, or left partial by a writer that crashed.
type settler struct {
	lineWait
	f      *os.File
	path   string
	start  time.Time
	onWait func()
	waited bool  // onWait was called
	dead   int64 // the size at which a partial last line was found still; -1 none
}

func newSettler(f *os.File, path string, onWait func()) *settler {
	return &settler{lineWait: waitRules, f: f, path: path, start: waitRules.now(), onWait: onWait, dead: -1}
}

// read returns the whole file once its last line is settled: it ends in a
// newline, or it is a partial line that was found still at this very size
// (a crashed writer's, which the next line must not be glued to). It
// refuses, the file unchanged, when the file is still changing after the
// limit.
func (st *settler) read() ([]byte, error) {
	for {
		data, err := io.ReadAll(io.NewSectionReader(st.f, 0, 1<<62))
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", st.path, err)
		}
		if len(data) == 0 || data[len(data)-1] == '\n' || int64(len(data)) == st.dead {
			return data, nil
		}
		if err := st.waitPartial(); err != nil {
			return nil, err
		}
	}
}

// waitPartial polls the file until its last line ends or has not changed for
// the still period, whichever comes first.
func (st *settler) waitPartial() error {
	var last fileState
	var since time.Time
	seen := false
	for {
		fi, err := st.f.Stat()
		if err != nil {
			return fmt.Errorf("stat %s: %w", st.path, err)
		}
		now := fileState{fi.Size(), fi.ModTime()}
		if ended, err := st.endsLine(now.size); err != nil || ended {
			return err
		}
		t := st.now()
		switch {
		case !seen || now != last:
			last, since, seen = now, t, true
		case t.Sub(since) >= st.still:
			st.dead = now.size
			return nil
		}
		if err := st.checkLimit(); err != nil {
			return err
		}
		if !st.waited && st.onWait != nil {
			st.onWait()
		}
		st.waited = true
		st.sleep(st.poll)
	}
}

// endsLine says whether a file of size bytes ends a line (or is empty).
func (st *settler) endsLine(size int64) (bool, error) {
	if size == 0 {
		return true, nil
	}
	var b [1]byte
	if _, err := st.f.ReadAt(b[:], size-1); err != nil {
		return false, fmt.Errorf("read %s: %w", st.path, err)
	}
	return b[0] == '\n', nil
}

// checkLimit refuses once the wait has lasted the limit.
func (st *settler) checkLimit() error {
	if st.now().Sub(st.start) < st.limit {
		return nil
	}
	return &RefusedError{Reason: fmt.Sprintf("%s: the file is being written; try again (it was still changing after %v)", st.path, st.limit)}
}

// unchanged says whether the file is still the size it was read at: the
// entry's parent is the leaf of what was read, so the file must not have
// grown in between.
func (st *settler) unchanged(data []byte) (bool, error) {
	fi, err := st.f.Stat()
	if err != nil {
		return false, fmt.Errorf("stat %s: %w", st.path, err)
	}
	return fi.Size() == int64(len(data)), nil
}
