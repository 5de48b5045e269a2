// Package model is skein's domain: sessions, their entries and branch tree,
// messages with normalized content blocks, contexts and compaction plans, as
// every screen, command and exporter sees them, whatever the format that
// stored them. It knows no format's bytes and does no IO: a format package
// under store/ reads its files and gives a Session a Source.
package model

import "fmt"

// EntryKind is what an entry is, in any format.
type EntryKind uint8

const (
	EntryOther         EntryKind = iota // a kind skein does not know: kept, shown as data
	EntryMessage                        // a message; its Role says whose
	EntryModelChange                    // the model was changed
	EntryThinkingLevel                  // the thinking level was changed
	EntryCompaction                     // a summary replaced the history before it
	EntryBranchSummary                  // a summary of a branch left behind
	EntryCustom                         // an extension's data, not sent to the model
	EntryCustomMessage                  // an extension's message, sent to the model
	EntryLabel                          // a label set on (or cleared from) another entry
	EntryTitle                          // the session's name
	EntryUsage                          // usage outside the context (cache warming)
	EntryContextEdit                    // a branch-local edit of an earlier entry
)

// Message roles.
const (
	RoleUser              = "user"
	RoleAssistant         = "assistant"
	RoleToolResult        = "toolResult"
	RoleBashExecution     = "bashExecution"
	RoleCustom            = "custom"
	RoleBranchSummary     = "branchSummary"
	RoleCompactionSummary = "compactionSummary"
	RoleSystem            = "system" // the system prompt and its patches
)

// Entry is one entry of a session, as the tree and the lists see it.
type Entry struct {
	Kind EntryKind
	// Type is the format's own name for the entry's kind ("model_change"),
	// "" when the entry has none.
	Type      string
	Role      string // a message's role
	ID        string
	ParentID  string // "" for a root
	Timestamp string // ISO 8601, as stored
	Line      int    // 1-based line in the file it came from; 0 when none
}

// IsMessage reports whether the entry is a message of the role.
func (e Entry) IsMessage(role string) bool { return e.Kind == EntryMessage && e.Role == role }

// Detail is what an entry that is not a message says: the fields of its kind.
type Detail struct {
	Provider, Model string // EntryModelChange
	ThinkingLevel   string // EntryThinkingLevel
	Target          string // EntryLabel, EntryContextEdit: the entry it is about
	Label           string // EntryLabel: "" clears
	Title           string // EntryTitle: the name, "" clears
	CustomType      string // EntryCustom, EntryCustomMessage
}

// Diagnostic is a problem found in a session: in its file, or in one of
// the files of a session that is a folder (File, relative to it), at a
// line (0 for the whole file) or, in a JSON file, at a JSON pointer. A
// warning is reported but is not an error.
type Diagnostic struct {
	File    string
	Line    int
	Pointer string
	Msg     string
	Warning bool
}

// Where is where the diagnostic is, from the session's path:
// path[/file][:line | #pointer].
func (d Diagnostic) Where(path string) string {
	if d.File != "" {
		path += "/" + d.File
	}
	switch {
	case d.Pointer != "":
		return path + "#" + d.Pointer
	case d.Line > 0:
		return fmt.Sprintf("%s:%d", path, d.Line)
	}
	return path
}

func (d Diagnostic) String() string {
	if d.Line == 0 {
		return d.Msg
	}
	return fmt.Sprintf("%d: %s", d.Line, d.Msg)
}
