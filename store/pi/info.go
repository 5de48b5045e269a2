// Package pi reads pi session files: whole, into a Session, or
// scanned for the few fields a listing needs.
package pi

import (
	"bytes"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"skein/internal/jscan"
	"skein/internal/jsdate"
	"skein/internal/jsjson"
	"skein/model"
	"skein/store"
)

// Info is a session's record in the list, as pi's SessionManager.list
// describes it: model's SessionInfo, which every format fills.
type Info = model.SessionInfo

// NotSession says a file is not a pi session (Format "pi"), or, with
// Named, is not the session its Reason names (another format's reader
// refused it): the store's type.
type NotSession = store.NotSession

// ScanInfo computes a file's Info from its bytes, as pi's buildSessionInfo
// does, decoding only what the record needs. mtimeMs is the file's
// modification time, used when no message or header gives a time.
func ScanInfo(data []byte, mtimeMs float64) (Info, error) {
	var st ScanState
	if err := st.Feed(data); err != nil {
		return st.Info, err
	}
	return st.Result(mtimeMs)
}

// ScanState is a listing scan part way through a file: what ScanInfo has
// gathered from its lines so far, so that a file that grew is scanned on
// from where it stopped (the index keeps it). Everything in it is a copy:
// it points into no file's bytes.
type ScanState struct {
	Info   Info
	Header bool
	// Times in ms; HasActivity and HasHeaderTime say whether they are set.
	LastActivity, HeaderTime   float64
	HasActivity, HasHeaderTime bool
	// The last entry's id, a model change's modelId and the last assistant
	// message's model, as raw JSON ("" for none).
	PrevID, LatestModel, AssistantModel string
	// Tips are the ids (raw JSON, one a line) of the entries no entry
	// follows yet, but for the last entry: the other branches' leaves.
	Tips         string
	HasAssistant bool
}

// Feed scans whole lines (a partial last line is scanned as it is: the
// caller feeds only complete ones when it means to go on later). It fails
// when the first entry is not a session header.
func (st *ScanState) Feed(data []byte) error {
	info := &st.Info
	if !st.Header {
		info.Format = "pi"
		data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	}
	lastActivity, headerTime := math.NaN(), math.NaN()
	if st.HasActivity {
		lastActivity = st.LastActivity
	}
	if st.HasHeaderTime {
		headerTime = st.HeaderTime
	}
	prevID, latestModel := []byte(st.PrevID), []byte(st.LatestModel)
	// The leaves are counted as pi's tree has them: an entry is one until
	// another names it as its parent. An entry that follows the last one,
	// the usual case, takes its place; only a jump back (a branch) needs
	// the set of the other leaves.
	var tips map[string]bool
	if st.Tips != "" {
		tips = map[string]bool{}
		for _, id := range strings.Split(st.Tips, "\n") {
			tips[id] = true
		}
	}
	if st.PrevID == "" {
		prevID = nil
	}
	if st.LatestModel == "" {
		latestModel = nil
	}
	var latestAssistant []byte
	assistantModel, hasAssistant := st.AssistantModel, st.HasAssistant
	defer func() {
		st.LastActivity, st.HasActivity = lastActivity, !math.IsNaN(lastActivity)
		st.HeaderTime, st.HasHeaderTime = headerTime, !math.IsNaN(headerTime)
		st.PrevID, st.LatestModel = string(prevID), string(latestModel)
		st.Tips = strings.Join(slices.Sorted(maps.Keys(tips)), "\n")
		if latestAssistant != nil {
			assistantModel, hasAssistant = modelOf(latestAssistant), true
		}
		st.AssistantModel, st.HasAssistant = assistantModel, hasAssistant
	}()
	// pi 1.6.0 lists with readline, which also ends a line at a lone CR.
	lineEnd := func(b []byte) int { return bytes.IndexByte(b, '\n') }
	if bytes.IndexByte(data, '\r') >= 0 {
		lineEnd = func(b []byte) int {
			if i := bytes.IndexAny(b, "\r\n"); i >= 0 && b[i] == '\r' && i+1 < len(b) && b[i+1] == '\n' {
				return i + 1 // CRLF: the CR is white space at the line's end
			} else {
				return i
			}
		}
	}
	for len(data) > 0 {
		var line []byte
		if i := lineEnd(data); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			line, data = data, nil
		}
		if len(line) == 0 || len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		if !st.Header {
			ok, _, err := scanHeader(line, info)
			if err != nil {
				continue // pi skips a first line that does not parse
			}
			if !ok {
				return &NotSession{Reason: "the first entry is not a session header", Format: store.FormatPi}
			}
			st.Header = true
			headerTime = jsdate.Parse(headerTimestamp(line))
			info.Created = headerTime
			continue
		}
		var typ, entryTS []byte
		var msg, name, id, parentID, modelID []byte
		it := jscan.Object(line)
		for k, v, ok := it.Next(); ok; k, v, ok = it.Next() {
			switch jscan.Key(k) {
			case "type":
				typ = v
			case "message":
				msg = v
			case "name":
				name = v
			case "timestamp":
				entryTS = v
			case "id":
				id = v
			case "parentId":
				parentID = v
			case "modelId":
				modelID = v
			}
		}
		if err := it.Err(); err != nil && err != jscan.ErrNotObject {
			continue
		}
		if !bytes.Equal(parentID, prevID) {
			if prevID != nil {
				if tips == nil {
					tips = map[string]bool{}
				}
				tips[string(prevID)] = true
			}
			delete(tips, string(parentID))
		}
		prevID = id
		info.Entries++
		if bytes.IndexByte(typ, '\\') >= 0 { // an escaped type name, rare
			typ = jsjson.AppendString(nil, String(typ))
		}
		switch string(typ) {
		case `"` + TypeSessionInfo + `"`:
			info.Name = strings.Clone(TrimJS(String(name)))
		case `"` + TypeModelChange + `"`:
			latestModel, latestAssistant = modelID, nil
			assistantModel, hasAssistant = "", false
		case `"` + TypeMessage + `"`:
			info.MessageCount++
			if msg == nil {
				continue
			}
			var role string
			var content, ts []byte
			hasContent := false
			// pi ends a message with its numeric timestamp; when it does, the
			// walk can stop once role and content are known (and the first
			// message's text is no longer wanted).
			tailTS, tail := jscan.LastNumberMember(msg, `"timestamp":`)
			it := jscan.Walk(msg)
		fields:
			for k, ok := it.Next(); ok; k, ok = it.Next() {
				switch jscan.Key(k) {
				case "role":
					role = String(it.Value())
					// Only user and assistant messages matter past the count.
					if role != RoleUser && role != RoleAssistant {
						break fields
					}
				case "content":
					hasContent = true
					if tail && role != "" && (role == RoleAssistant || info.FirstMessage != "") {
						// Its presence is all that counts: no need to walk it.
						ts = tailTS
						break fields
					}
					content = it.Value()
				case "timestamp":
					ts = it.Value()
				}
			}
			if role == RoleAssistant {
				// Its model is read once, at the end, from the last one.
				latestAssistant, latestModel = msg, nil
			}
			if !hasContent || (role != RoleUser && role != RoleAssistant) {
				continue
			}
			if t, ok := number(ts); ok {
				lastActivity = maxNaN(lastActivity, t)
			} else if jscan.IsString(entryTS) {
				if t := jsdate.Parse(String(entryTS)); !math.IsNaN(t) {
					lastActivity = maxNaN(lastActivity, t)
				}
			}
			if info.FirstMessage == "" && role == RoleUser {
				info.FirstMessage = textContent(content)
			}
		}
	}
	return nil
}

// Result is the record of the lines fed so far.
func (st *ScanState) Result(mtimeMs float64) (Info, error) {
	info := st.Info
	if !st.Header {
		return info, &NotSession{Reason: "no session header", Format: store.FormatPi}
	}
	switch {
	case st.HasActivity && st.LastActivity > 0:
		info.Modified = st.LastActivity
	case st.HasHeaderTime:
		info.Modified = st.HeaderTime
	default:
		info.Modified = mtimeMs
	}
	if info.FirstMessage == "" {
		info.FirstMessage = model.NoMessages
	}
	if info.Entries > 0 {
		info.Branches = 1 + strings.Count(st.Tips, "\n")
		if st.Tips != "" {
			info.Branches++
		}
	}
	model := st.LatestModel
	if st.HasAssistant {
		model = st.AssistantModel
	}
	info.Model = strings.Clone(String([]byte(model)))
	return info, nil
}

// modelOf is the raw "model" of an assistant message, found from its end:
// display only, the model sits near the end of pi's messages.
func modelOf(msg []byte) string {
	k := bytes.LastIndex(msg, []byte(`"model":"`))
	if k < 0 {
		return ""
	}
	m := msg[k+8:]
	if end := jscan.SkipValid(m, 0); end > 0 {
		m = m[:end]
	}
	return string(m)
}

func maxNaN(a, b float64) float64 {
	if math.IsNaN(a) || b > a {
		return b
	}
	return a
}

func number(raw []byte) (float64, bool) {
	if len(raw) == 0 || !(raw[0] == '-' || raw[0] >= '0' && raw[0] <= '9') {
		return 0, false
	}
	// pi's timestamps are integers (milliseconds): up to 15 digits convert
	// exactly without the general parser.
	if len(raw) <= 15 && raw[0] != '-' {
		var n int64
		for _, c := range raw {
			if c < '0' || c > '9' {
				goto general
			}
			n = n*10 + int64(c-'0')
		}
		return float64(n), true
	}
general:
	f, err := strconv.ParseFloat(string(raw), 64)
	return f, err == nil
}

// scanHeader reads the header line into info; session is false when the
// line is JSON but not {"type":"session"}, stringID when its id is not a
// string (pi 1.6.0 lists such a file but does not open it).
func scanHeader(line []byte, info *Info) (session, stringID bool, err error) {
	var typ string
	hasID := false
	var parent, rawID []byte
	err = jscan.Members(line, func(k, v []byte) bool {
		switch jscan.Key(k) {
		case "type":
			typ = String(v)
		case "id":
			info.ID, hasID, rawID = String(v), jscan.IsString(v), v
		case "cwd":
			info.Cwd = String(v)
		case "parentSession":
			parent = v
		}
		return true
	})
	if err == jscan.ErrNotObject {
		return false, false, nil
	}
	if err != nil {
		return false, false, err
	}
	// pi reads parentSession only; a v1 header's branchedFrom is not migrated
	// and so is not a parent in pi's list (FORMATS.md says otherwise; the
	// reference implementation wins).
	if jscan.IsString(parent) {
		info.ParentSession, info.HasParent = String(parent), true
	}
	info.ID = strings.Clone(info.ID)
	info.Cwd = strings.Clone(info.Cwd)
	info.ParentSession = strings.Clone(info.ParentSession)
	if !hasID {
		info.NoStringID = true
		if rawID != nil {
			info.IDJSON = jsjson.AppendValue(nil, rawID)
		}
	}
	return typ == TypeSession, hasID, nil
}

func headerTimestamp(line []byte) string {
	return strings.Clone(String(Member(line, "timestamp")))
}

// textContent is pi's extractTextContent: a string, or the text blocks joined
// with " ".
func textContent(content []byte) string {
	if s, ok := StringValue(content); ok {
		return strings.Clone(s)
	}
	var parts []string
	_ = jscan.Elements(content, func(b []byte) bool {
		if String(Member(b, "type")) == "text" {
			parts = append(parts, strings.Clone(String(Member(b, "text"))))
		}
		return true
	})
	return strings.Join(parts, " ")
}
