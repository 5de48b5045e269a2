package readfile

import (
	"io/fs"
	"os"
)

// NotRegularError says a path names something other than a regular file: a
// folder, a named pipe, a device. Reading one could block forever (a pipe
// with no writer) or never end (/dev/zero), so nothing reads it.
type NotRegularError struct {
	Path string
	Kind string // "a folder", "a named pipe", ...
}

func (e *NotRegularError) Error() string { return e.Path + " is " + e.Kind + ", not a session file" }

// FileKind names what a file mode is, for NotRegularError.
func FileKind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a folder"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m.IsRegular():
		return "a file"
	}
	return "not a regular file"
}

// OpenRegular opens a regular file for reading and refuses anything else
// without reading it: the path is checked before it is opened (opening
// some devices does something), and the file once open (the path may have
// changed between the two). The open does not wait for a pipe's writer.
func OpenRegular(path string) (*os.File, fs.FileInfo, error) {
	if st, err := os.Stat(path); err != nil {
		return nil, nil, err
	} else if !st.Mode().IsRegular() {
		return nil, nil, &NotRegularError{path, FileKind(st.Mode())}
	}
	f, err := os.OpenFile(path, os.O_RDONLY|oNonblock, 0)
	if err != nil {
		return nil, nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, nil, &NotRegularError{path, FileKind(st.Mode())}
	}
	return f, st, nil
}
