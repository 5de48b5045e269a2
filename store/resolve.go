package store

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"skein/internal/readfile"
	"sort"
	"strings"
)

// NotFoundError says a REF named no session.
type NotFoundError struct {
	Ref        string
	Candidates []string
}

func (e *NotFoundError) Error() string {
	if len(e.Candidates) > 1 {
		return fmt.Sprintf("%q is ambiguous: it matches %s", e.Ref, strings.Join(e.Candidates, ", "))
	}
	return fmt.Sprintf("no session %q (give a file path, or a session id or unique id prefix)", e.Ref)
}

// Resolve turns a REF into a file path: an existing file, a session of a
// container file ("<file>#<id>", as Discover lists it), or the session
// whose id is ref, or the only one whose id starts with ref, among the
// sessions under roots. A folder, pipe or device named as a REF is refused
// at once (*NotRegularError): reading a pipe waits for a writer, and
// reading /dev/zero never ends.
func Resolve(ref string, roots []string) (string, error) {
	if claimedContained(ref) {
		return ref, nil // one session of a container (Container): its format reads it
	}
	st, err := os.Stat(ref)
	switch {
	case err == nil && st.Mode().IsRegular():
		return ref, nil
	case err == nil && st.IsDir() && isSessionDir(ref):
		return ref, nil // a Dhara session folder
	case err == nil && !st.IsDir():
		return "", &NotRegularError{Path: ref, Kind: readfile.FileKind(st.Mode())}
	}
	// A folder whose name has no separator may also be an id prefix.
	var notFile error
	if err == nil {
		notFile = &NotRegularError{Path: ref, Kind: readfile.FileKind(st.Mode())}
	}
	if ref == "" || strings.ContainsRune(ref, os.PathSeparator) {
		switch {
		case notFile != nil:
			return "", notFile
		case !errors.Is(err, fs.ErrNotExist):
			return "", err // a folder on the way that cannot be read
		}
		return "", &NotFoundError{Ref: ref}
	}
	files, _ := Discover(roots)
	var exact, prefix []string
	for _, f := range files {
		// Most files are named <time>_<id>.jsonl: skip the header read when
		// the name cannot match.
		base := strings.TrimSuffix(f[strings.LastIndexByte(f, os.PathSeparator)+1:], ".jsonl")
		if i := strings.LastIndexByte(base, '_'); i >= 0 && looksLikeUUID(base[i+1:]) && !strings.HasPrefix(base[i+1:], ref) {
			continue
		}
		id, err := find(f).SessionID(f)
		if err != nil {
			continue
		}
		switch {
		case id == ref:
			exact = append(exact, f)
		case strings.HasPrefix(id, ref):
			prefix = append(prefix, f)
		}
	}
	switch {
	case len(exact) == 1:
		return exact[0], nil
	case len(exact) > 1:
		sort.Strings(exact)
		return "", &NotFoundError{Ref: ref, Candidates: exact}
	case len(prefix) == 1:
		return prefix[0], nil
	case len(prefix) == 0 && notFile != nil:
		return "", notFile
	}
	return "", &NotFoundError{Ref: ref, Candidates: prefix}
}

func looksLikeUUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i, c := range s {
		if i == 8 || i == 13 || i == 18 || i == 23 {
			if c != '-' {
				return false
			}
		} else if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}
