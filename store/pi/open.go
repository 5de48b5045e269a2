package pi

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"

	"skein/internal/jscan"
	"skein/internal/readfile"
	"skein/store"
)

// Open reads a whole session file into a Session. Message bodies stay
// raw bytes until they are shown.
func Open(path string) (*Session, error) {
	data, err := readFile(path)
	if err != nil {
		return nil, err
	}
	return parseSession(data)
}

// parseSession parses a file's bytes, naming a file that is not a session as this
// package does (*NotSession).
func parseSession(data []byte) (*Session, error) {
	s, err := Parse(data)
	var ns *NotSessionError
	if errors.As(err, &ns) {
		return nil, &NotSession{Reason: ns.Reason, Format: store.FormatPi}
	}
	return s, err
}

// OpenMapped is Open for a process that reads a session and exits: a
// large file is mapped (never unmapped) instead of read into memory. Its
// caller must recover the panic a fault raises if the file is cut short
// while it is used (see mapFile); store.IsFault says whether a recovered
// value is one.
func OpenMapped(path string) (*Session, error) {
	data, err := mapFile(path)
	if err != nil || data == nil {
		return Open(path)
	}
	return parseSession(data)
}

// ReadHeader reads only as much of a file as its header needs.
func ReadHeader(path string) (Header, error) {
	f, _, err := readfile.OpenRegular(path)
	if err != nil {
		return Header{}, err
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 64<<10)
	first := true
	for {
		line, err := readLine(r)
		if first {
			line = bytes.TrimPrefix(line, []byte("\xef\xbb\xbf"))
			first = false
		}
		if len(bytes.TrimSpace(line)) > 0 && jscan.Valid(line) {
			var info Info
			ok, stringID, herr := scanHeader(line, &info)
			if herr != nil || !ok || !stringID {
				return Header{}, &NotSession{Reason: "the first entry is not a session header", Format: store.FormatPi}
			}
			e, _ := ParseEntry(line, 1)
			h := Header{ID: info.ID, Cwd: info.Cwd, Timestamp: e.Timestamp, ParentSession: info.ParentSession, Version: 1}
			if v, err := jsonInt(e.Field("version")); err == nil {
				h.Version = v
			}
			return h, nil
		}
		if err == io.EOF {
			return Header{}, &NotSession{Reason: "no session header", Format: store.FormatPi}
		}
		if err != nil {
			return Header{}, err
		}
	}
}

func readLine(r *bufio.Reader) ([]byte, error) {
	var buf []byte
	for {
		chunk, err := r.ReadSlice('\n')
		buf = append(buf, chunk...)
		if err != bufio.ErrBufferFull {
			return bytes.TrimRight(buf, "\r\n"), err
		}
	}
}

func jsonInt(raw []byte) (int, error) {
	var v float64
	_, err := fmt.Sscan(string(raw), &v)
	return int(v), err
}

// OpenTail reads a session's header and only its last tail bytes, for a
// first screen of a large file while the rest loads: the entries whose
// parents lie before the tail are roots of the partial tree.
func OpenTail(path string, tail int64) (*Session, error) {
	f, st, err := readfile.OpenRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 64<<10)
	header, err := readLine(r)
	if err != nil && err != io.EOF {
		return nil, err
	}
	start := max(st.Size()-tail, int64(len(header))+1)
	buf := make([]byte, st.Size()-start)
	n, err := f.ReadAt(buf, start)
	if err != nil && err != io.EOF {
		return nil, err
	}
	buf = buf[:n]
	if start > int64(len(header))+1 {
		// Drop the line the tail starts inside of.
		if i := bytes.IndexByte(buf, '\n'); i >= 0 {
			buf = buf[i+1:]
		} else {
			buf = nil
		}
	}
	data := make([]byte, 0, len(header)+1+len(buf))
	data = append(append(append(data, header...), '\n'), buf...)
	return parseSession(data)
}
