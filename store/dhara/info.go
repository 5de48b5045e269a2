package dhara

import (
	"bytes"
	"math"
	"path/filepath"
	"runtime"
	"strings"

	"skein/internal/jscan"
	"skein/internal/par"

	"skein/internal/jsdate"
	"skein/model"
)

// Info is the session's record in the list (DECISIONS.md 10); mtimeMs is
// the folder's modification time, the last resort for Modified.
func (s *Session) Info(dir string, mtimeMs float64) model.SessionInfo {
	info := model.SessionInfo{Path: dir, Format: "dhara", ID: s.Meta.ID, Cwd: s.Meta.Cwd, Name: s.Meta.Title,
		Entries: len(s.Entries), Branches: len(s.Tree.Branches)}
	if info.ID == "" {
		info.ID = filepath.Base(dir)
	}
	info.Created = jsdate.Parse(s.Meta.CreatedAt)
	modified := math.Inf(-1)
	first := ""
	for i := range s.Entries {
		e := &s.Entries[i]
		switch e.Type {
		case TypeMessage:
			if !Synthetic(e) {
				info.MessageCount++
			}
			if t := jsdate.Parse(e.Timestamp); t > modified {
				modified = t
			}
			if first == "" && e.Role == model.RoleUser {
				first = firstText(e.Raw)
			}
		case TypeToolResult:
			if !Synthetic(e) {
				info.MessageCount++
			}
		}
	}
	info.SetFirstMessage(first)
	info.Modified = modifiedOf(modified, s.Meta, mtimeMs)
	info.Model = s.Meta.Model
	info.ImportedFrom = s.Meta.ImportedFrom
	if s.leaf >= 0 {
		for _, i := range s.Path(s.leaf) {
			if s.Entries[i].Type == TypeModelChange {
				if m := s.Detail(i).Model; m != "" {
					info.Model = m
				}
			}
		}
	}
	return info
}

// Synthetic reports whether entry e is one skein made on import: a result
// because Dhara wants one for every call and the source recorded none, or
// a copy of what a compaction keeps (Codex's replacement history). It is
// in the context but no message of the conversation, and is not counted
// as one.
func Synthetic(e *Entry) bool { return e.synthetic }

// ListInfo is the list record of the session folder dir without building
// the session: the lines scanned for what the record counts, in parallel
// chunks. A session whose record needs the tree or the ids (an archive,
// whose lines may be copies; a model change on one of several branches)
// is opened whole.
func ListInfo(dir string, mtimeMs float64) (model.SessionInfo, error) {
	f, err := ReadFiles(dir)
	if err != nil {
		return model.SessionInfo{}, err
	}
	var s Session
	if f.Meta != nil {
		s.Meta = parseMeta(f.Meta, &s.Diagnostics)
	}
	branches := 0
	if f.Tree != nil {
		if b := jscan.Member(bytes.TrimPrefix(f.Tree, jscan.BOM), "branches"); b != nil {
			jscan.Items(b, func([]byte) bool { branches++; return true })
		}
	}
	data := bytes.TrimPrefix(f.Entries, jscan.BOM)
	chunks := par.SplitLines(data, runtime.GOMAXPROCS(0))
	scans := make([]listScan, len(chunks))
	par.Each(len(chunks), func(k int) { scans[k].scan(chunks[k]) })
	var total listScan
	total.modified = math.Inf(-1)
	for _, sc := range scans {
		total.entries += sc.entries
		total.messages += sc.messages
		total.modified = max(total.modified, sc.modified)
		total.modelChanges += sc.modelChanges
		if sc.model != "" {
			total.model = sc.model
		}
		if total.first == nil {
			total.first = sc.first
		}
	}
	if branches == 0 && total.entries > 0 {
		branches = 1 // the one branch a session without a tree is read as
	}
	if f.Archive != nil || total.modelChanges > 0 && branches > 1 {
		full := Parse(f)
		return full.Info(dir, mtimeMs), nil
	}
	info := model.SessionInfo{Path: dir, Format: "dhara", ID: s.Meta.ID, Cwd: s.Meta.Cwd, Name: s.Meta.Title,
		Entries: total.entries, Branches: branches, MessageCount: total.messages, Model: s.Meta.Model, ImportedFrom: s.Meta.ImportedFrom}
	if info.ID == "" {
		info.ID = filepath.Base(dir)
	}
	if total.model != "" {
		info.Model = total.model
	}
	info.Created = jsdate.Parse(s.Meta.CreatedAt)
	info.FirstMessage = model.NoMessages
	if total.first != nil {
		if t := firstText(total.first); t != "" {
			info.FirstMessage = t
		}
	}
	info.Modified = modifiedOf(total.modified, s.Meta, mtimeMs)
	return info, nil
}

// listScan is what the list counts in a part of entries.jsonl.
type listScan struct {
	entries, messages, modelChanges int
	modified                        float64
	first                           []byte // the first user message's line
	model                           string // the last model change's
}

func (sc *listScan) scan(data []byte) {
	sc.modified = math.Inf(-1)
	for len(data) > 0 {
		var line []byte
		line, data, _ = bytes.Cut(data, nl)
		line = bytes.TrimSuffix(line, []byte("\r"))
		if isBlank(line) {
			continue
		}
		var typ, role, ts, mdl, synthetic []byte
		it := jscan.Object(line)
		for k, v, ok := it.Next(); ok; k, v, ok = it.Next() {
			switch it.Name(k) {
			case "type":
				typ = v
			case "role":
				role = v
			case "timestamp":
				ts = v
			case "model":
				mdl = v
			case "synthetic":
				synthetic = v
			}
		}
		if it.Err() != nil {
			continue
		}
		sc.entries++
		switch string(typ) {
		case `"message"`:
			if string(synthetic) != "true" {
				sc.messages++
			}
			if t, ok := jscan.StringShared(ts); ok {
				sc.modified = max(sc.modified, jsdate.Parse(t))
			}
			if sc.first == nil && string(role) == `"user"` && len(firstText(line)) > 0 {
				sc.first = line
			}
		case `"tool_result"`:
			if string(synthetic) != "true" {
				sc.messages++
			}
		case `"model_change"`:
			sc.modelChanges++
			if m, ok := jscan.String(mdl); ok && m != "" {
				sc.model = m
			}
		}
	}
}

// firstText is a message line's text blocks joined with a space.
func firstText(line []byte) string {
	var parts []string
	for _, b := range blocksOf(jscan.Member(line, "content")) {
		if b.Type == model.BlockText {
			parts = append(parts, b.Text)
		}
	}
	return strings.Join(parts, " ")
}

// modifiedOf is the list's modified time: the latest message's, else
// meta.json's updatedAt, else createdAt, else the folder's mtime.
func modifiedOf(latest float64, m Meta, mtimeMs float64) float64 {
	for _, t := range []string{m.UpdatedAt, m.CreatedAt} {
		if !math.IsInf(latest, -1) {
			break
		}
		if ms := jsdate.Parse(t); ms == ms {
			latest = ms
		}
	}
	if math.IsInf(latest, -1) {
		return mtimeMs
	}
	return latest
}
