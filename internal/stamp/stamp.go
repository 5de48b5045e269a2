// Package stamp is the change token the indexes keep of a file (the
// list's, per format, and the text index's), and the codec their states
// are written in.
package stamp

import (
	"encoding/binary"
	"errors"
	"hash/crc32"
	"io"
	"io/fs"
	"math"
	"os"
	"time"
)

// The change token the indexes keep of a file (the list's, per backend,
// and the text index's): its size and modification time, the inode it is
// and that inode's change time, and hashes of what was read of it. A
// program can keep a file's size and put its modification time back
// (dd conv=notrunc, then touch -r), but any write moves the change time,
// and a file replaced by another is another inode.

// Inode is what a file's inode says beyond its size and modification
// time: which inode it is, on which device, and when it last changed.
type Inode struct {
	Dev, Ino uint64
	CtimeNs  int64
}

// Slack is how long after a change a file's times are not trusted
// alone: a write in the same clock tick as the indexing would not move them.
const Slack = 2e9

// Verdict is what a file's stat alone says of it against a token.
type Verdict uint8

const (
	// Changed: its size, modification time or inode moved.
	Changed Verdict = iota
	// Same: all as they were, and the change older than the clock's
	// slack when the token was taken.
	Same
	// Unsure: as they were, but the change was too recent when the
	// token was taken to be trusted, or the platform gives no change
	// time: the file's bytes must say.
	Unsure
)

// ByStat is what st says of a file whose token holds size, mtimeNs, in and
// was taken at indexedNs.
func ByStat(st fs.FileInfo, size, mtimeNs int64, in Inode, indexedNs int64) Verdict {
	if !st.Mode().IsRegular() || st.Size() != size || st.ModTime().UnixNano() != mtimeNs {
		return Changed
	}
	now, ok := ChangeTime(st)
	switch {
	case !ok:
		return Unsure
	case now != in:
		return Changed
	case indexedNs-in.CtimeNs <= Slack:
		return Unsure
	}
	return Same
}

// SameBytes is the bytes' word when ByStat is unsure: whether f's first
// end bytes are those the token hashed. Where the platform gives change
// times, all of them (whole, their CRC-32C): only a change in the clock
// tick of the indexing is left to find, and it may be anywhere. Where it
// does not, the last 4 KB (tail): reading every file whole on every run
// would cost what the index saves.
func SameBytes(f *os.File, st fs.FileInfo, end int64, whole uint32, tail uint64) bool {
	if _, ok := ChangeTime(st); ok {
		c, err := PrefixCRC(f, end)
		return err == nil && c == whole
	}
	h, err := TailHash(f, end)
	return err == nil && h == tail
}

// Castagnoli is the CRC the token hashes with: the processor computes it.
var Castagnoli = crc32.MakeTable(crc32.Castagnoli)

// TailSpan is how much of a scanned prefix's end the token hashes.
const TailSpan = 4096

// TailHash hashes the TailSpan bytes of f before end.
func TailHash(f *os.File, end int64) (uint64, error) {
	from := max(0, end-TailSpan)
	b := make([]byte, end-from)
	if _, err := f.ReadAt(b, from); err != nil && !(errors.Is(err, io.EOF) && len(b) == 0) {
		return 0, err
	}
	return uint64(crc32.Checksum(b, Castagnoli)), nil
}

// PrefixCRC is the CRC-32C of f's first end bytes.
func PrefixCRC(f *os.File, end int64) (uint32, error) { return RangeCRC(0, f, 0, end) }

// RangeCRC is c updated with f's bytes from from to end.
func RangeCRC(c uint32, f *os.File, from, end int64) (uint32, error) {
	buf := make([]byte, max(0, min(end-from, 1<<20)))
	for off := from; off < end; {
		b := buf[:min(int64(len(buf)), end-off)]
		if _, err := f.ReadAt(b, off); err != nil {
			return 0, err
		}
		c = crc32.Update(c, Castagnoli, b)
		off += int64(len(b))
	}
	return c, nil
}

// WholeCRC is the CRC-32C of data's first n bytes, from the CRC of its
// first cut bytes (data may be longer or shorter than n: a file that grew
// or shrank while it was read).
func WholeCRC(data []byte, cut int64, crcCut uint32, n int64) uint32 {
	if cut <= n && n <= int64(len(data)) {
		return crc32.Update(crcCut, Castagnoli, data[cut:n])
	}
	return crc32.Checksum(data[:min(int64(len(data)), n)], Castagnoli)
}

// NowNs is the clock tokens are settled by (a test moves it on).
var NowNs = func() int64 { return time.Now().UnixNano() }

// Codec appends and reads the index's values: varints, floats' bits,
// length-prefixed strings, bytes of flags. Bad is set by a read past what
// is there.
type Codec struct {
	B   []byte
	Bad bool
}

func (c *Codec) Int(v int64)     { c.B = binary.AppendVarint(c.B, v) }
func (c *Codec) Float(v float64) { c.B = binary.LittleEndian.AppendUint64(c.B, math.Float64bits(v)) }
func (c *Codec) Str(s string) {
	c.B = binary.AppendUvarint(c.B, uint64(len(s)))
	c.B = append(c.B, s...)
}
func (c *Codec) Bools(v ...bool) {
	var x byte
	for i, f := range v {
		if f {
			x |= 1 << i
		}
	}
	c.B = append(c.B, x)
}

func (c *Codec) ReadInt() int64 {
	v, n := binary.Varint(c.B)
	if n <= 0 {
		c.Bad = true
		return 0
	}
	c.B = c.B[n:]
	return v
}

func (c *Codec) ReadFloat() float64 {
	if len(c.B) < 8 {
		c.Bad = true
		return 0
	}
	v := math.Float64frombits(binary.LittleEndian.Uint64(c.B))
	c.B = c.B[8:]
	return v
}

func (c *Codec) ReadStr() string {
	n, k := binary.Uvarint(c.B)
	if k <= 0 || n > uint64(len(c.B)-k) {
		c.Bad = true
		return ""
	}
	s := string(c.B[k : k+int(n)])
	c.B = c.B[k+int(n):]
	return s
}

func (c *Codec) ReadBools(n int) []bool {
	out := make([]bool, n)
	if len(c.B) < 1 {
		c.Bad = true
		return out
	}
	for i := range out {
		out[i] = c.B[0]&(1<<i) != 0
	}
	c.B = c.B[1:]
	return out
}
