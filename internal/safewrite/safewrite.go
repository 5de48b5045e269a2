// Package safewrite appends to a file so that the append lands whole or the
// file is left byte for byte as it was: a full disk, a quota or an I/O error
// halfway through a line must not leave a cut-off line for the next reader.
package safewrite

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"syscall"
)

// File is what an append needs of a file opened for appending (O_APPEND)
// and for writing. *os.File is one; tests wrap one to fail at a chosen step.
type File interface {
	Write(p []byte) (int, error)
	Sync() error
	Truncate(size int64) error
	Stat() (os.FileInfo, error)
	ReadAt(p []byte, off int64) (int, error)
}

// Reserver is a File that reserves the space of n bytes at off itself.
type Reserver interface {
	Reserve(off, n int64) error
}

// Taker is what TakeBack needs of a file.
type Taker interface {
	Sync() error
	Truncate(size int64) error
	Stat() (os.FileInfo, error)
	ReadAt(p []byte, off int64) (int, error)
}

// Append writes p at the end of f, which the caller found to be size bytes
// long and holds the lock of, and syncs it. The space is reserved first
// where the platform can, so that a full disk usually fails before a byte
// is written. When the write is short or fails, or the sync fails, the
// bytes written are cut off again (TakeBack), but only while they are the
// file's last bytes: a writer that does not take the lock may have
// appended meanwhile, and its line is never cut. The error then says
// whether the file was put back.
func Append(f File, size int64, p []byte) error {
	if err := Reserve(f, size, int64(len(p))); err != nil {
		return err
	}
	n, err := f.Write(p)
	if err == nil && n < len(p) {
		err = io.ErrShortWrite
	}
	if err == nil {
		if err = f.Sync(); err == nil {
			return nil
		}
	}
	if uerr := undo(f, size, int64(n), p); uerr != nil {
		return errors.Join(err, uerr)
	}
	return err
}

// undo takes back the n bytes of p an append wrote at size.
func undo(f File, size, n int64, p []byte) error {
	if n <= 0 {
		return nil
	}
	return TakeBack(f, size, p[:n])
}

// TakeBack cuts off again the bytes p that an append wrote when the file
// was size bytes long, wherever an O_APPEND write put them: at size, or
// after the lines of a writer that takes no lock and appended between the
// caller's look at the size and its write. They are cut only while they
// are the file's last bytes, so a line appended after them is never cut
// (the error then says they stay). Between the look at the file and the
// cut, a writer that takes no lock could still append: that cannot be
// closed from this side.
func TakeBack(f Taker, size int64, p []byte) error {
	n := int64(len(p))
	if n == 0 {
		return nil
	}
	fi, err := f.Stat()
	if err != nil {
		return fmt.Errorf("%d bytes of a failed append stay at the end of the file: %w", n, err)
	}
	end := fi.Size()
	if end < size+n {
		return fmt.Errorf("%d bytes of a failed append are not where they were written: the file is %d bytes, not %d", n, end, size+n)
	}
	if end > size+n {
		last := make([]byte, n)
		if _, err := f.ReadAt(last, end-n); err != nil || !bytes.Equal(last, p) {
			return fmt.Errorf("%d bytes of a failed append stay in the file: another writer appended after them (%d bytes, not %d)", n, end, size+n)
		}
	}
	if err := f.Truncate(end - n); err != nil {
		return fmt.Errorf("%d bytes of a failed append stay at the end of the file: %w", n, err)
	}
	// The cut is made durable where it can be; it stands in the page
	// cache for every reader either way.
	_ = f.Sync()
	return nil
}

// Reserve asks the file system for the space of n bytes at off without
// changing the file's size, so that the write that follows cannot run out
// of room halfway. It fails only when there is no room (ENOSPC, a quota, a
// file too large); a platform or file system that cannot reserve, or a File
// with no descriptor, leaves the write to find out. A File that reserves
// space itself (a Reserver: a writer's own file, which its tests fail at
// that step) is asked to.
func Reserve(f File, off, n int64) error {
	if n <= 0 {
		return nil
	}
	if r, ok := f.(Reserver); ok {
		return r.Reserve(off, n)
	}
	sc, ok := f.(interface {
		SyscallConn() (syscall.RawConn, error)
	})
	if !ok {
		return nil
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return nil
	}
	return reserve(rc, off, n)
}
