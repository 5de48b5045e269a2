package store

// Wording is what the screens say of a format's sessions, so that no
// screen or command switches on a format: the agent's name, what its
// files are, and what a fork, a rename and a delete do to such a session.
// Fork holds one %d, the number of entries the fork holds.
type Wording struct {
	Agent string
	Kind  string // "a Claude Code log": what doctor says a file looks like
	// Folders is where the agent keeps its sessions, as --help names it
	// ("~/.codex/sessions, or $CODEX_HOME/sessions"); "" for a format
	// whose sessions skein finds only where it is pointed.
	Folders string
	Fork    string
	Rename  string
	Delete  string
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

// AgentFolders is each agent's Folders, "Agent's (Folders)", in the
// registry's order with the fallback (pi's) first: what --help and the
// README say of the default store.
func AgentFolders() []string {
	bs := fallbackFirst()
	var out []string
	seen := map[string]bool{}
	for _, b := range bs {
		w := b.Wording()
		if w.Folders == "" || seen[w.Agent] {
			continue
		}
		seen[w.Agent] = true
		out = append(out, w.Agent+"'s ("+w.Folders+")")
	}
	return out
}
