package store

// Wording is what the screens say of a format's sessions, so that no
// screen or command switches on a format: the agent's name, what its
// files are, and what a fork, a rename and a delete do to such a session.
// Fork holds one %d, the number of entries the fork holds.
type Wording struct {
	Agent  string
	Kind   string // "a Claude Code log": what doctor says a file looks like
	Fork   string
	Rename string
	Delete string
}

// WordingOf is the backend's wording.
func WordingOf(b Backend) Wording { return b.Wording() }

// FormatKind is what a file of format f is, "" for a format skein does not
// know.
func FormatKind(f Format) string {
	if f == FormatUnknown {
		return ""
	}
	b := ForFormat(f)
	if b.Format() != f {
		return ""
	}
	return b.Wording().Kind
}
