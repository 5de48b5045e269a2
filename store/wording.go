package store

// Wording is what the screens say of a format's sessions, so that no
// screen or command switches on a format: the agent's name, and what a
// fork, a rename and a delete do to such a session. Fork holds one %d, the
// number of entries the fork holds.
type Wording struct {
	Agent  string
	Fork   string
	Rename string
	Delete string
}

// Worded is a Backend that says how its sessions are spoken of; one that
// is not gets pi's words with its format's name as the agent's.
type Worded interface {
	Wording() Wording
}

// piWording is what a session file that is its own session gets.
var piWording = Wording{
	Agent:  "pi",
	Fork:   "A new session beside this one will hold the %d entries from the first to this one, copied byte for byte, with their labels. This session is not touched.",
	Rename: "pi shows this name in its session list. An empty name clears it.",
	Delete: "The file moves to the trash (a desktop can restore it). Its forks stay.",
}

// WordingOf is the backend's wording.
func WordingOf(b Backend) Wording {
	if w, ok := b.(Worded); ok {
		return w.Wording()
	}
	w := piWording
	if b != nil && b.Format() != FormatPi {
		w.Agent = string(b.Format())
	}
	return w
}

func (piBackend) Wording() Wording { return piWording }

func (dharaBackend) Wording() Wording {
	return Wording{
		Agent:  "Dhara",
		Fork:   "A new branch of this session will hold the %d entries from the first to this one; tree.json gets it, no entry is written, and the agent resumes on it.",
		Rename: "The title in the session's meta.json. An empty name clears it.",
		Delete: "The session's folder moves to the trash with all its branches (a desktop can restore it).",
	}
}

func (b readOnly) Wording() Wording {
	w := piWording
	w.Agent = b.agent
	return w
}

// Mapper is a Backend whose OpenMapped maps the file and keeps only an
// index of it on the heap (pi's): a one-shot command leaves room for that
// index rather than for the whole file.
type Mapper interface {
	MapsFile() bool
}

func (piBackend) MapsFile() bool { return true }
