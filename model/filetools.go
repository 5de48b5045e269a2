package model

import (
	"path"
	"strings"

	"skein/internal/jscan"
)

// A FileTool is how one agent's tool that writes or edits a file names its
// arguments: the call's name and the keys of its input. A call matches the
// first row of its name whose path key (or patch key) its input has, so
// that two agents that call a tool "edit" with different keys each find
// their own row. A new agent adds a row.
type FileTool struct {
	Name string
	Path string // the key of the file's path
	// Content is the key of a whole file's new content (a write).
	Content string
	// Old and New are the keys of one edit's old and new text; Edits the
	// key of a list of edits, each an object with Old and New keys; All
	// the key of a flag that replaces every occurrence.
	Old, New, Edits, All string
	// Patch is the key of a patch in the `*** Begin Patch` format (Codex's
	// apply_patch, which names its files itself: Path is "").
	Patch string
	// SearchReplace is the key of Cline's SEARCH/REPLACE blocks.
	SearchReplace string
	// Opaque: the call changes the file in a way its input does not let
	// skein replay (a notebook's cell).
	Opaque bool
}

// FileTools are the file-writing tools of every agent skein reads, as
// their own tool lists (testdata/agentgen/*/fixtures/*/resume-request.json)
// name them. Shell commands that write files (heredocs, sed -i) are not
// read: what they did cannot be told from the command alone.
var FileTools = []FileTool{
	// pi (and oh-my-pi): write, and edit with one edit or a list of them.
	{Name: "write", Path: "path", Content: "content"},
	{Name: "edit", Path: "path", Old: "oldText", New: "newText", Edits: "edits"},
	// Claude Code.
	{Name: "Write", Path: "file_path", Content: "content"},
	{Name: "Edit", Path: "file_path", Old: "old_string", New: "new_string", All: "replace_all"},
	{Name: "MultiEdit", Path: "file_path", Edits: "edits", Old: "old_string", New: "new_string", All: "replace_all"},
	{Name: "NotebookEdit", Path: "notebook_path", Opaque: true},
	// Gemini CLI and Qwen Code.
	{Name: "write_file", Path: "file_path", Content: "content"},
	{Name: "replace", Path: "file_path", Old: "old_string", New: "new_string", All: "allow_multiple"},
	{Name: "edit", Path: "file_path", Old: "old_string", New: "new_string", All: "replace_all"},
	{Name: "notebook_edit", Path: "notebook_path", Opaque: true},
	// OpenCode.
	{Name: "write", Path: "filePath", Content: "content"},
	{Name: "edit", Path: "filePath", Old: "oldString", New: "newString", All: "replaceAll"},
	{Name: "patch", Patch: "patchText"},
	// Codex (a custom tool call's input is {"input": the patch}), Cline
	// and Copilot CLI.
	{Name: "apply_patch", Patch: "input"},
	{Name: "apply_patch", Patch: "patch"},
	// Droid.
	{Name: "Create", Path: "file_path", Content: "content"},
	{Name: "Edit", Path: "file_path", Old: "old_str", New: "new_str", All: "change_all"},
	// Kimi.
	{Name: "Write", Path: "path", Content: "content"},
	{Name: "Edit", Path: "path", Old: "old_string", New: "new_string", All: "replace_all"},
	// Copilot CLI's older tools.
	{Name: "create", Path: "path", Content: "file_text"},
	{Name: "edit", Path: "path", Old: "old_str", New: "new_str"},
	{Name: "str_replace", Path: "path", Old: "old_str", New: "new_str"},
	// Cline.
	{Name: "write_to_file", Path: "path", Content: "content"},
	{Name: "replace_in_file", Path: "path", SearchReplace: "diff"},
	// Cursor.
	{Name: "search_replace", Path: "file_path", Old: "old_string", New: "new_string", All: "replace_all"},
	{Name: "edit_file", Path: "target_file", Opaque: true},
}

// ChangeKind is what a call did to a file.
type ChangeKind uint8

const (
	ChangeWrite  ChangeKind = iota // the whole content: Content
	ChangeEdit                     // replacements: Edits
	ChangeDelete                   // the file removed
	ChangeOpaque                   // changed, in a way not known
)

// TextEdit is one replacement of an edit: Old by New, every occurrence
// when All.
type TextEdit struct {
	Old, New string
	All      bool
}

// FileChange is one call's change to one file, normalized from whichever
// tool made it.
type FileChange struct {
	Path    string
	Kind    ChangeKind
	Content string
	Edits   []TextEdit
}

// FileChanges are the changes a tool call makes to files: none when the
// call is no file tool's. A relative path is taken from cwd, so that two
// sessions' paths compare. A row matches when its path key and one of its
// content keys are there; a call with a file tool's name and path but
// none of its keys changed the file in a way not known.
func FileChanges(c ToolCall, cwd string) []FileChange {
	var opaque []FileChange
	for i := range FileTools {
		t := &FileTools[i]
		if t.Name != c.Name {
			continue
		}
		if t.Patch != "" {
			p, ok := patchText(c.Input, t.Patch)
			if !ok {
				continue
			}
			out := ParsePatch(p)
			for j := range out {
				out[j].Path = filePath(out[j].Path, cwd)
			}
			return out
		}
		p := jscan.StringMember(c.Input, t.Path)
		if p == "" {
			continue
		}
		if !t.Opaque && !t.hasKeys(c.Input) {
			if opaque == nil {
				opaque = []FileChange{{Path: filePath(p, cwd), Kind: ChangeOpaque}}
			}
			continue
		}
		return []FileChange{t.change(c.Input, filePath(p, cwd))}
	}
	return opaque
}

// hasKeys reports whether input has one of t's content keys.
func (t *FileTool) hasKeys(input []byte) bool {
	for _, k := range []string{t.Content, t.Old, t.Edits, t.SearchReplace} {
		if k != "" && jscan.ObjectMember(input, k) != nil {
			return true
		}
	}
	return false
}

// patchText is the patch under key, or the input itself when a format kept
// a custom call's raw string.
func patchText(input []byte, key string) (string, bool) {
	if s, ok := jscan.String(input); ok {
		return s, strings.Contains(s, "*** Begin Patch")
	}
	s := jscan.StringMember(input, key)
	return s, s != ""
}

// change is the change a call of tool t with input makes to the file p.
func (t *FileTool) change(input []byte, p string) FileChange {
	ch := FileChange{Path: p, Kind: ChangeOpaque}
	switch {
	case t.Opaque:
	case t.Content != "" && jscan.ObjectMember(input, t.Content) != nil:
		ch.Kind, ch.Content = ChangeWrite, jscan.StringMember(input, t.Content)
	case t.SearchReplace != "":
		if edits, ok := searchReplace(jscan.StringMember(input, t.SearchReplace)); ok {
			ch.Kind, ch.Edits = ChangeEdit, edits
		}
	case t.Edits != "" && jscan.ObjectMember(input, t.Edits) != nil:
		ok := true
		jscan.Items(jscan.ObjectMember(input, t.Edits), func(e []byte) bool {
			o, okO := jscan.String(jscan.ObjectMember(e, t.Old))
			n, okN := jscan.String(jscan.ObjectMember(e, t.New))
			ok = okO && okN
			ch.Edits = append(ch.Edits, TextEdit{Old: o, New: n, All: isTrue(jscan.ObjectMember(e, t.All))})
			return ok
		})
		if ok {
			ch.Kind = ChangeEdit
		}
	case t.Old != "":
		o, okO := jscan.String(jscan.ObjectMember(input, t.Old))
		n, okN := jscan.String(jscan.ObjectMember(input, t.New))
		if okO && okN {
			all := t.All != "" && isTrue(jscan.ObjectMember(input, t.All))
			ch.Kind, ch.Edits = ChangeEdit, []TextEdit{{Old: o, New: n, All: all}}
		}
	}
	return ch
}

func isTrue(raw []byte) bool { return string(raw) == "true" }

// filePath is p cleaned, and taken from cwd when it is relative.
func filePath(p, cwd string) string {
	if !path.IsAbs(p) && cwd != "" {
		return path.Join(cwd, p)
	}
	return path.Clean(p)
}

// FileState is a file as the calls of one side left it.
type FileState struct {
	Path string
	// Known: Content is the file's content, from a whole write and the
	// edits after it that found their old text.
	Known   bool
	Content string
	Deleted bool
	Calls   int // the calls that changed it
}

// Apply is the state after change ch: a write makes the content known; an
// edit applied to a known content keeps it known when each old text is
// found, and makes it unknown otherwise, as does an opaque change.
func (f FileState) Apply(ch FileChange) FileState {
	f.Calls++
	switch ch.Kind {
	case ChangeWrite:
		f.Known, f.Content, f.Deleted = true, ch.Content, false
	case ChangeDelete:
		f.Known, f.Content, f.Deleted = true, "", true
	case ChangeOpaque:
		f.Known, f.Content = false, ""
	case ChangeEdit:
		if !f.Known {
			return f
		}
		for _, e := range ch.Edits {
			if e.Old == "" || !strings.Contains(f.Content, e.Old) {
				f.Known, f.Content = false, ""
				return f
			}
			if e.All {
				f.Content = strings.ReplaceAll(f.Content, e.Old, e.New)
			} else {
				f.Content = strings.Replace(f.Content, e.Old, e.New, 1)
			}
		}
	}
	return f
}
