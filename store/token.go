package store

import (
	"errors"
	"hash/crc32"
	"io"
	"io/fs"
	"os"
)

// The change token the indexes keep of a file (the list's, per backend,
// and the text index's): its size and modification time, the inode it is
// and that inode's change time, and hashes of what was read of it. A
// program can keep a file's size and put its modification time back
// (dd conv=notrunc, then touch -r), but any write moves the change time,
// and a file replaced by another is another inode.

// inodeStamp is what a file's inode says beyond its size and modification
// time: which inode it is, on which device, and when it last changed.
type inodeStamp struct {
	Dev, Ino uint64
	CtimeNs  int64
}

// ctimeSlack is how long after a change a file's times are not trusted
// alone: a write in the same clock tick as the indexing would not move them.
const ctimeSlack = 2e9

// statVerdict is what a file's stat alone says of it against a token.
type statVerdict uint8

const (
	// statChanged: its size, modification time or inode moved.
	statChanged statVerdict = iota
	// statSame: all as they were, and the change older than the clock's
	// slack when the token was taken.
	statSame
	// statUnsure: as they were, but the change was too recent when the
	// token was taken to be trusted, or the platform gives no change
	// time: the file's bytes must say.
	statUnsure
)

// byStat is what st says of a file whose token holds size, mtimeNs, in and
// was taken at indexedNs.
func byStat(st fs.FileInfo, size, mtimeNs int64, in inodeStamp, indexedNs int64) statVerdict {
	if !st.Mode().IsRegular() || st.Size() != size || st.ModTime().UnixNano() != mtimeNs {
		return statChanged
	}
	now, ok := changeTime(st)
	switch {
	case !ok:
		return statUnsure
	case now != in:
		return statChanged
	case indexedNs-in.CtimeNs <= ctimeSlack:
		return statUnsure
	}
	return statSame
}

// sameBytes is the bytes' word when byStat is unsure: whether f's first
// end bytes are those the token hashed. Where the platform gives change
// times, all of them (whole, their CRC-32C): only a change in the clock
// tick of the indexing is left to find, and it may be anywhere. Where it
// does not, the last 4 KB (tail): reading every file whole on every run
// would cost what the index saves.
func sameBytes(f *os.File, st fs.FileInfo, end int64, whole uint32, tail uint64) bool {
	if _, ok := changeTime(st); ok {
		c, err := prefixCRC(f, end)
		return err == nil && c == whole
	}
	h, err := tailHash(f, end)
	return err == nil && h == tail
}

// castagnoli is the CRC the token hashes with: the processor computes it.
var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// tailSpan is how much of a scanned prefix's end the token hashes.
const tailSpan = 4096

// tailHash hashes the tailSpan bytes of f before end.
func tailHash(f *os.File, end int64) (uint64, error) {
	from := max(0, end-tailSpan)
	b := make([]byte, end-from)
	if _, err := f.ReadAt(b, from); err != nil && !(errors.Is(err, io.EOF) && len(b) == 0) {
		return 0, err
	}
	return uint64(crc32.Checksum(b, castagnoli)), nil
}

// prefixCRC is the CRC-32C of f's first end bytes.
func prefixCRC(f *os.File, end int64) (uint32, error) { return rangeCRC(0, f, 0, end) }

// rangeCRC is c updated with f's bytes from from to end.
func rangeCRC(c uint32, f *os.File, from, end int64) (uint32, error) {
	buf := make([]byte, max(0, min(end-from, 1<<20)))
	for off := from; off < end; {
		b := buf[:min(int64(len(buf)), end-off)]
		if _, err := f.ReadAt(b, off); err != nil {
			return 0, err
		}
		c = crc32.Update(c, castagnoli, b)
		off += int64(len(b))
	}
	return c, nil
}

// wholeCRC is the CRC-32C of data's first n bytes, from the CRC of its
// first cut bytes (data may be longer or shorter than n: a file that grew
// or shrank while it was read).
func wholeCRC(data []byte, cut int64, crcCut uint32, n int64) uint32 {
	if cut <= n && n <= int64(len(data)) {
		return crc32.Update(crcCut, castagnoli, data[cut:n])
	}
	return crc32.Checksum(data[:min(int64(len(data)), n)], castagnoli)
}
