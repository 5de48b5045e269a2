package dhara

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"skein/internal/jscan"
	"skein/internal/jsdate"
	"skein/model"
	"skein/store/dhara/schema"
)

// Check reads the session folder dir and lists what doctor reports: each
// file against its schema, and the session against itself (tree ids that
// exist, a result for every call and a call for every result, compaction
// ranges, archive and working file without overlap, updatedAt not before
// the last entry). Warnings are what a live or interrupted writer leaves
// (DECISIONS.md 11).
func Check(dir string) ([]model.Diagnostic, error) {
	f, err := ReadFiles(dir)
	if err != nil {
		return nil, err
	}
	var out []model.Diagnostic
	errAt := func(file string, line int, format string, a ...any) {
		out = append(out, model.Diagnostic{File: file, Line: line, Msg: fmt.Sprintf(format, a...)})
	}
	ptr := func(file, pointer string, warning bool, format string, a ...any) {
		out = append(out, model.Diagnostic{File: file, Pointer: pointer, Msg: fmt.Sprintf(format, a...), Warning: warning})
	}
	for _, x := range []struct {
		name string
		data []byte
	}{{MetaFile, f.Meta}, {TreeFile, f.Tree}, {EntriesFile, f.Entries}} {
		if x.data == nil {
			errAt(x.name, 0, "missing")
		}
	}
	if des, err := os.ReadDir(dir); err == nil {
		for _, de := range des {
			if strings.HasPrefix(de.Name(), CarriedPrefix) {
				errAt(de.Name(), 0, "lines another writer appended to %s during an archive move, which could not be copied back: append them to %s by hand", EntriesFile, EntriesFile)
			}
		}
	}
	for _, x := range []struct {
		name     string
		data     []byte
		validate func([]byte) []schema.Problem
	}{{MetaFile, f.Meta, schema.Meta}, {TreeFile, f.Tree, schema.Tree}} {
		if x.data == nil {
			continue
		}
		problems := x.validate(x.data)
		for _, p := range problems {
			ptr(x.name, p.Pointer, false, "%s", p.Msg)
		}
		if x.name == TreeFile && len(problems) > 0 {
			f.Tree = nil // checked against itself only when it is a tree
		}
	}
	for _, x := range []struct {
		name string
		data []byte
	}{{EntriesFile, f.Entries}, {ArchiveFile, f.Archive}} {
		n := 0
		for rest := x.data; len(rest) > 0; {
			n++
			line := rest
			if i := indexNL(rest); i >= 0 {
				line, rest = rest[:i], rest[i+1:]
			} else {
				rest = nil
			}
			if isBlank(line) || !validJSON(line) {
				continue // Parse reports lines that are not JSON
			}
			for _, p := range schema.Entry(line) {
				where := p.Pointer
				if where == "" {
					where = "the entry"
				}
				errAt(x.name, n, "%s: %s", where, p.Msg)
			}
		}
	}
	s := Parse(f)
	out = append(out, s.Diagnostics...)
	s.checkSelf(dir, ptr, errAt, func(file string, line int, format string, a ...any) {
		out = append(out, model.Diagnostic{File: file, Line: line, Msg: fmt.Sprintf(format, a...), Warning: true})
	})
	slices.SortStableFunc(out, func(a, b model.Diagnostic) int {
		if c := fileOrder(a.File) - fileOrder(b.File); c != 0 {
			return c
		}
		return a.Line - b.Line
	})
	return out, nil
}

func fileOrder(f string) int {
	switch f {
	case MetaFile:
		return 0
	case TreeFile:
		return 1
	case ArchiveFile:
		return 2
	}
	return 3
}

func indexNL(b []byte) int {
	for i, c := range b {
		if c == '\n' {
			return i
		}
	}
	return -1
}

type (
	atLine    func(file string, line int, format string, a ...any)
	atPointer func(file, pointer string, warning bool, format string, a ...any)
)

// checkSelf is the checks of the session against itself.
func (s *Session) checkSelf(dir string, ptr atPointer, errAt, warnAt atLine) {
	for _, d := range s.Duplicates {
		e, first := &d.Entry, &s.Entries[d.First]
		switch {
		case d.SameBytes && e.Archived != first.Archived:
			warnAt(e.File(), e.Line, "%s is also in %s (line %d): an archive move was interrupted; the next write finishes it", e.ID, first.File(), first.Line)
		default:
			errAt(first.File(), first.Line, "id %s is used again at %s:%d", first.ID, e.File(), e.Line)
			errAt(e.File(), e.Line, "id %s was already used at %s:%d", e.ID, first.File(), first.Line)
		}
	}
	// The tree.
	branches := map[string]int{}
	for b, br := range s.Tree.Branches {
		if br.ID != "" {
			branches[br.ID] = b
		}
	}
	if s.Tree.Raw != nil {
		if _, ok := branches[s.Tree.Root]; !ok {
			ptr(TreeFile, "/root", false, "the root branch %s is not among the branches", s.Tree.Root)
		}
	}
	inBranch := make([]bool, len(s.Entries))
	for b, br := range s.Tree.Branches {
		base := "/branches/" + strconv.Itoa(b)
		for k, id := range br.EntryIDs {
			if i, ok := s.byID.get(id); ok {
				inBranch[i] = true
			} else {
				ptr(TreeFile, base+"/entryIds/"+strconv.Itoa(k), false, "no entry has the id %s", id)
			}
		}
		if br.ParentBranchID == "" {
			continue
		}
		p, ok := branches[br.ParentBranchID]
		if !ok {
			ptr(TreeFile, base+"/parentBranchId", false, "no branch %s", br.ParentBranchID)
			continue
		}
		// No cycle of parents.
		seen := map[int]bool{b: true}
		for q, ok := p, true; ok; {
			if seen[q] {
				ptr(TreeFile, base+"/parentBranchId", false, "the parent branches of %s go round in a cycle", br.ID)
				break
			}
			seen[q] = true
			q, ok = branches[s.Tree.Branches[q].ParentBranchID]
		}
		// A fork copies its parent's ids up to the fork point, then grows on
		// its own.
		parent := s.Tree.Branches[p].EntryIDs
		shared := 0
		for shared < len(br.EntryIDs) && shared < len(parent) && br.EntryIDs[shared] == parent[shared] {
			shared++
		}
		own := map[string]bool{}
		for _, id := range parent {
			own[id] = true
		}
		for k := shared; k < len(br.EntryIDs); k++ {
			if own[br.EntryIDs[k]] {
				ptr(TreeFile, base+"/entryIds/"+strconv.Itoa(k), false, "%s is in the parent branch %s but not in its place there: a branch starts with its parent's ids up to the fork point", br.EntryIDs[k], br.ParentBranchID)
				break
			}
		}
	}
	// Entries.
	calls, results := map[string]bool{}, map[string]bool{}
	for i := range s.Entries {
		e := &s.Entries[i]
		switch e.Type {
		case TypeToolCall:
			calls[e.ID] = true
		case TypeToolResult:
			results[e.Ref] = true
		}
	}
	latest := 0.0
	for i := range s.Entries {
		e := &s.Entries[i]
		if t := jsdate.Parse(e.Timestamp); t > latest {
			latest = t
		}
		if len(s.Tree.Branches) > 0 && !inBranch[i] && e.ID != "" {
			warnAt(e.File(), e.Line, "%s is in no branch of %s (a write was interrupted before the tree was updated)", e.ID, TreeFile)
		}
		switch e.Type {
		case TypeToolCall:
			if !results[e.ID] {
				if s.pending(i) {
					warnAt(e.File(), e.Line, "the tool call %s has no result yet (it ends its branch: still running?)", e.ID)
				} else {
					errAt(e.File(), e.Line, "the tool call %s has no tool_result", e.ID)
				}
			}
			if _, ok := s.byID.get(e.Ref); !ok && e.Ref != "" {
				warnAt(e.File(), e.Line, "parentMessageId %s names no entry", e.Ref)
			}
		case TypeToolResult:
			if !calls[e.Ref] {
				errAt(e.File(), e.Line, "the tool result %s answers %s, which is no tool_call", e.ID, e.Ref)
			}
		case TypeLabel:
			if _, ok := s.byID.get(e.Ref); !ok {
				errAt(e.File(), e.Line, "label of missing entry %s", e.Ref)
			}
		case TypeCompaction:
			s.checkCompaction(i, branches, inBranch[i], errAt)
		}
	}
	if s.Meta.Raw != nil {
		if up := jsdate.Parse(s.Meta.UpdatedAt); up == up && latest > up {
			t, _ := jsdate.ISO(latest)
			ptr(MetaFile, "/updatedAt", false, "updatedAt %s is before the last entry's time %s", s.Meta.UpdatedAt, t)
		}
		if s.Meta.ID != "" && s.Meta.ID != filepath.Base(dir) {
			ptr(MetaFile, "/id", true, "the id %s is not the folder's name %s", s.Meta.ID, filepath.Base(dir))
		}
	}
	if _, err := os.Stat(filepath.Join(dir, LockFile)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		warnAt(LockFile, 0, "%v", err)
	}
}

// checkCompaction checks a compaction's range and branch. One in no
// branch at all is an interrupted write's, which the warning of an entry
// in no branch says: its branchId is not checked.
func (s *Session) checkCompaction(i int, branches map[string]int, inBranch bool, errAt atLine) {
	e := &s.Entries[i]
	raw := e.Raw
	ids := stringList(jsonMember(raw, "entryIds"))
	inRange := map[string]bool{}
	for _, id := range ids {
		inRange[id] = true
		if _, ok := s.byID.get(id); !ok {
			errAt(e.File(), e.Line, "the compaction's entryIds name %s, which no entry has", id)
		}
	}
	for _, id := range stringList(jsonMember(raw, "preservedEntryIds")) {
		j, ok := s.byID.get(id)
		switch {
		case !ok:
			errAt(e.File(), e.Line, "the compaction's preservedEntryIds name %s, which no entry has", id)
		case !inRange[id]:
			errAt(e.File(), e.Line, "the compaction preserves %s, which is not in its entryIds", id)
		case s.Entries[j].Type != TypeToolResult:
			errAt(e.File(), e.Line, "the compaction preserves %s, a %s entry: only tool results are preserved", id, s.Entries[j].Type)
		}
	}
	b, _ := jscan.String(jsonMember(raw, "branchId"))
	if b == "" {
		return
	}
	k, ok := branches[b]
	if !ok {
		errAt(e.File(), e.Line, "the compaction's branchId %s names no branch", b)
		return
	}
	if inBranch && !slices.Contains(s.Tree.Branches[k].EntryIDs, e.ID) {
		errAt(e.File(), e.Line, "the compaction %s is not on its branch %s", e.ID, b)
	}
}

func jsonMember(obj []byte, key string) []byte { return jscan.Member(obj, key) }

func validJSON(b []byte) bool { return jscan.Valid(b) }

// pending reports whether a call with no result may still be running: on
// its branch, nothing but entries that are not messages (labels, custom
// data, model changes) comes after it.
func (s *Session) pending(call int) bool {
	for i := call; ; {
		kids := s.Children(i)
		switch {
		case len(kids) == 0:
			return true
		case len(kids) > 1:
			return false
		}
		i = kids[0]
		if s.Entries[i].kind == model.EntryMessage || s.Entries[i].Type == TypeCompaction {
			return false
		}
	}
}
