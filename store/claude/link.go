package claude

import (
	"fmt"
	"path"
	"strconv"
	"strings"
	"sync"

	"skein/internal/jscan"
	"skein/model"
)

// Entry is one node of the session's tree: one line, the lines of one
// reply (an assistant message split over several lines that share
// message.id), a compact boundary and its summary, or one piece of a user
// line that holds several tool results (each result is an entry of its
// own; the blocks beside them, if any, another).
type Entry struct {
	// Type and Subtype are the first line's "type" and "subtype".
	Type, Subtype string
	// ID is the line's uuid. A line without one (summary, file-history
	// snapshot, title...) gets "line:N" ("<file>:N" in an agent's file);
	// the pieces of a user line with several tool results before its last
	// get "<uuid>#1", "<uuid>#2"..., the last the uuid itself.
	ID        string
	Timestamp string // the first line's
	Line      int    // 1-based, the first line's, in File
	File      string // "" for the session's file, else the agent file's name
	// Agent is the sub-agent the entry belongs to (an index into
	// Session.Agents), -1 for the main conversation.
	Agent      int
	ToolCallID string // a tool result's tool_use_id
	kind       model.EntryKind
	role       string
	first      int32 // its first line (an index into Session.lines)
	piece      int32 // a tool result's block index among the line's results; pieceRest; pieceWhole
	meta       bool  // isMeta
	excluded   bool  // isVisibleInTranscriptOnly
	hasSummary bool  // a compaction with its isCompactSummary line
}

const (
	pieceWhole = -1
	pieceRest  = -2 // the user blocks of a line beside its tool results
)

// Agent is a sub-agent of the session: the lines of one agent-<id>.jsonl,
// or of one sidechain in the session's own file.
type Agent struct {
	ID     string // agentId, "" when its lines name none (Claude Code 1.0)
	File   string // its file's name, "" when its lines are in the session's file
	CallID string // the tool_use id of the call that started it, "" when none was found
	Call   int    // the entry holding that call, -1
	Roots  []int  // its first entries, each hung under Call when there is one
}

// Session is a parsed Claude Code session: a model.Source.
type Session struct {
	model.EntryTree[Entry, *Entry]
	Agents []Agent
	// Diagnostics are what reading found: lines skipped, parents missing,
	// uuids repeated, cycles cut.
	Diagnostics []model.Diagnostic

	lines      []line
	next       []int32 // by line: the next line of the same entry, -1
	agentFiles []AgentFile
	parent     []int32
	byUUID     map[string]int32 // uuid -> its (first) line
	lineEntry  []int32          // by line: the entry it is (the last piece of one that holds several), -1 for a line left out
	leaf       int
	allSide    bool // the session's file has no main-conversation line (an agent's file read alone): its sidechain is the conversation

	// copies are the lines of a sub-agent's file whose uuid a line of
	// another file has (a compaction's agent copies the conversation it
	// summarizes): each file's uuids are its own. nil when there is none.
	copies map[fileUUID]int32

	callsOnce sync.Once
	calls     map[string]call // tool_use id -> the call

	nameOnce sync.Once
	name     string
}

// call is a tool call of an assistant entry.
type call struct {
	entry int32
	name  string
	input []byte
}

type fileUUID struct {
	file int32
	uuid string
}

type replyKey struct {
	group int32
	id    string
}

func (s *Session) diag(file int32, no int32, warn bool, format string, args ...any) {
	d := model.Diagnostic{Line: int(no), Msg: fmt.Sprintf(format, args...), Warning: warn}
	if file > 0 {
		d.File = s.agentFiles[file-1].Name
	}
	s.Diagnostics = append(s.Diagnostics, d)
}

func (s *Session) lineDiag(i int32, warn bool, format string, args ...any) {
	l := &s.lines[i]
	s.diag(l.file, l.no, warn, format, args...)
}

const groupPending = -2 // a sidechain line of the session's file with no agentId

// link makes the entries from the lines and builds the tree: merges,
// parents, sub-agents, the leaf (FORMAT.md, "Decisions").
func (s *Session) link() {
	L := s.lines
	n := len(L)
	byUUID := make(map[string]int32, n)
	s.byUUID = byUUID
	mainConv := false
	for i := range L {
		l := &L[i]
		if l.file == 0 && l.conversational() && !l.has(flagSidechain) {
			mainConv = true
		}
		if l.uuid == "" {
			continue
		}
		j, ok := byUUID[l.uuid]
		if ok && L[j].file != l.file {
			key := fileUUID{l.file, l.uuid}
			if j, ok = s.copies[key]; !ok {
				if s.copies == nil {
					s.copies = map[fileUUID]int32{}
				}
				s.copies[key] = int32(i)
				continue
			}
		}
		if ok {
			l.flags |= flagSkip
			s.lineDiag(int32(i), true, "uuid %q repeats line %d's: this line is left out", l.uuid, L[j].no)
			continue
		}
		byUUID[l.uuid] = int32(i)
	}
	s.allSide = !mainConv

	// The group of each line: the main conversation, an agent, or (a
	// sidechain of the session's file that names no agent) found from its
	// chain's root once the parents are known.
	group := make([]int32, n)
	agentOf := map[string]int32{}
	fileAgent := map[int32]int32{}
	newAgent := func(a Agent) int32 {
		a.Call = -1
		s.Agents = append(s.Agents, a)
		return int32(len(s.Agents) - 1)
	}
	for i := range L {
		l := &L[i]
		switch {
		case l.file > 0:
			g, ok := fileAgent[l.file]
			if !ok {
				name := s.agentFiles[l.file-1].Name
				id := strings.TrimSuffix(strings.TrimPrefix(path.Base(name), "agent-"), ".jsonl")
				if l.agentID != "" {
					id = l.agentID
				}
				g = newAgent(Agent{ID: id, File: name})
				fileAgent[l.file] = g
			}
			group[i] = g
		case !l.has(flagSidechain) || s.allSide:
			group[i] = -1
		case l.agentID != "":
			g, ok := agentOf[l.agentID]
			if !ok {
				g = newAgent(Agent{ID: l.agentID})
				agentOf[l.agentID] = g
			}
			group[i] = g
		default:
			group[i] = groupPending
		}
	}

	// The entries, in line order.
	s.next = make([]int32, n)
	lineEntry := make([]int32, n) // the entry a line is (a line of several results: its last piece)
	s.lineEntry = lineEntry
	for i := range lineEntry {
		lineEntry[i] = -1
	}
	merged := make([]bool, n)
	lastLine := make([]int32, 0, n+n/16) // by entry: its last line so far
	replies := map[replyKey]int32{}
	s.Entries = make([]Entry, 0, n+n/16)
	add := func(i int, e Entry) int32 {
		l := &L[i]
		e.Type, e.Subtype, e.Timestamp, e.Line = l.typ, l.subtype, l.ts, int(l.no)
		e.File, e.first = s.fileName(l.file), int32(i)
		e.meta, e.excluded = l.has(flagMeta), l.has(flagVisibleOnly)
		if e.ID == "" {
			e.ID = s.baseID(l)
		}
		s.Entries = append(s.Entries, e)
		lastLine = append(lastLine, int32(i))
		return int32(len(s.Entries) - 1)
	}
	join := func(i int, e int32) {
		s.next[lastLine[e]] = int32(i)
		lastLine[e] = int32(i)
		lineEntry[i], merged[i] = e, true
	}
	for i := range L {
		l := &L[i]
		s.next[i] = -1
		if l.has(flagSkip) {
			continue
		}
		if l.flags&flagMessageBad != 0 && (l.typ == TypeUser || l.typ == TypeAssistant) {
			s.lineDiag(int32(i), true, "a %s line whose message is not an object: kept with no content", l.typ)
		}
		var e int32
		switch {
		case l.typ == TypeAssistant:
			key := replyKey{group[i], l.msgID}
			if l.msgID != "" {
				if r, ok := replies[key]; ok && s.follows(int32(i), r) {
					join(i, r)
					continue
				}
			}
			e = add(i, Entry{kind: model.EntryMessage, role: model.RoleAssistant, piece: pieceWhole})
			if l.msgID != "" {
				replies[key] = e
			}
		case l.typ == TypeUser && l.has(flagCompactSummary):
			if p, ok := s.lineOf(int32(i), l.parent); ok && lineEntry[p] >= 0 && L[p].typ == TypeSystem && L[p].subtype == SubtypeCompactBoundary &&
				!s.Entries[lineEntry[p]].hasSummary && !merged[p] {
				b := lineEntry[p]
				s.Entries[b].hasSummary = true
				join(i, b)
				continue
			}
			e = add(i, Entry{kind: model.EntryCompaction, piece: pieceWhole, hasSummary: true})
		case l.typ == TypeUser && len(l.results) > 0:
			last := len(l.results) - 1
			if l.has(flagOther) {
				last++
			}
			for k, id := range l.results {
				pe := Entry{kind: model.EntryMessage, role: model.RoleToolResult, piece: int32(k), ToolCallID: id}
				if k < last {
					pe.ID = s.baseID(l) + "#" + strconv.Itoa(k+1)
				}
				e = add(i, pe)
			}
			if l.has(flagOther) {
				e = add(i, Entry{kind: model.EntryMessage, role: model.RoleUser, piece: pieceRest})
			}
		case l.typ == TypeUser:
			e = add(i, Entry{kind: model.EntryMessage, role: model.RoleUser, piece: pieceWhole})
		case l.typ == TypeSystem && l.subtype == SubtypeCompactBoundary:
			e = add(i, Entry{kind: model.EntryCompaction, piece: pieceWhole})
		case l.typ == TypeSummary || l.typ == TypeCustomTitle || l.typ == TypeAITitle || l.typ == TypeAgentName:
			e = add(i, Entry{kind: model.EntryTitle, piece: pieceWhole})
		case l.typ == "":
			e = add(i, Entry{kind: model.EntryOther, piece: pieceWhole})
		default:
			e = add(i, Entry{kind: model.EntryCustom, piece: pieceWhole})
		}
		lineEntry[i] = e
	}

	// node is the entry a line's children hang under: its entry, but for a
	// line merged into an earlier entry whose parent is outside that entry
	// (a reply's next block written after a tool result), the node of that
	// parent, so that the chain stays one chain.
	const unset = -3
	node := make([]int32, n)
	for i := range node {
		node[i] = unset
	}
	var chain []int32
	nodeOf := func(i int32) int32 {
		chain = chain[:0]
		j := i
		res := int32(-1)
		for {
			if node[j] != unset {
				res = node[j]
				break
			}
			if !merged[j] {
				res = lineEntry[j]
				break
			}
			node[j] = -4 // visiting
			chain = append(chain, j)
			p, ok := s.lineOf(j, L[j].parent)
			if !ok || lineEntry[p] == lineEntry[j] || node[p] == -4 {
				res = lineEntry[j]
				break
			}
			j = p
		}
		for _, k := range chain {
			node[k] = res
		}
		if len(chain) == 0 && node[j] == unset {
			node[j] = res
		}
		return res
	}

	// Parents.
	ne := len(s.Entries)
	s.parent = make([]int32, ne)
	s.SetParents(s.parent)
	for k := range s.parent {
		s.parent[k] = -1
	}
	prevConv := map[int32]int32{}   // group -> its last turn so far
	lastWithID := map[int32]int32{} // file -> the last entry with a uuid
	leading := map[int32][]int32{}  // file -> records before its first entry with a uuid
	batchTail := map[int32]int32{}  // a reply -> the last of its tool results hung so far
	batchOf := make([]int32, ne)    // a tool result -> the reply whose batch it is in, -1
	for k := range batchOf {
		batchOf[k] = -1
	}
	batch := int32(-1) // the reply the current line's results answer, -1
	for k := range s.Entries {
		e := &s.Entries[k]
		i := e.first
		l := &L[i]
		g := group[i]
		p := int32(-1)
		missing := ""
		switch {
		case e.piece >= 1 || e.piece == pieceRest && len(l.results) > 0:
			p = int32(k - 1) // the line's previous piece
		case l.badParent:
			missing = "parentUuid is neither a string nor null"
		case l.parent != "":
			if j, ok := s.lineOf(i, l.parent); ok {
				if q := nodeOf(j); q >= 0 && q != int32(k) {
					p = q
				}
			} else {
				missing = fmt.Sprintf("parent %q is not in the file", l.parent)
			}
		case l.typ == TypeSystem && l.subtype == SubtypeCompactBoundary && l.logical != "":
			if j, ok := s.lineOf(i, l.logical); ok {
				if q := nodeOf(j); q >= 0 && q != int32(k) {
					p = q
				}
			}
		case l.uuid == "":
			if id := recordTarget(l); id != "" {
				if j, ok := s.lineOf(i, id); ok && L[j].file == l.file {
					p = nodeOf(j)
				}
			}
			if p < 0 {
				if q, ok := lastWithID[l.file]; ok {
					p = q
				} else {
					leading[l.file] = append(leading[l.file], int32(k))
				}
			}
		}
		if missing != "" {
			if q, ok := prevConv[g]; ok && q != int32(k) {
				p = q
				s.lineDiag(i, true, "%s: hung under the turn before it in the file", missing)
			} else {
				s.lineDiag(i, true, "%s: a root here", missing)
			}
		}
		if e.piece == 0 {
			p, batch = s.inBatch(p, e.ToolCallID, batchTail, batchOf)
		}
		if batch >= 0 && (e.role == model.RoleToolResult || e.piece == pieceRest && len(l.results) > 0) {
			batchTail[batch] = int32(k)
			batchOf[k] = batch
		}
		s.parent[k] = p
		if l.uuid != "" {
			lastWithID[l.file] = int32(k)
			if recs := leading[l.file]; len(recs) > 0 {
				for _, r := range recs {
					s.parent[r] = int32(k)
				}
				delete(leading, l.file)
			}
		}
		if l.conversational() {
			prevConv[g] = int32(k)
		}
	}
	s.groupSidechains(group)
	s.cutCycles()
	s.attachAgents()
	s.cutCycles()
	s.findLeaf(lineEntry, lastLine)
}

// inBatch is where a line's first tool result hangs, whose parentUuid
// names p: Claude Code 2.1 writes each result of a reply's parallel calls
// as its own line whose parent is the block holding its call, in the order
// the tools finished, and goes on from the last of them; on resume it sends
// them all, in file order, in one user message (testdata/agentgen/claude,
// findings 1 and 2). So a result whose parent is a reply hangs under the
// reply's last result so far, and the batch is one chain, not a branch for
// each result. Claude Code 2.1.9x also writes a reply's next block while
// its tools run, after the results already in (the block's parent is the
// last result written): a result whose parent resolves to a result of the
// same batch (and answers a call of that reply) joins the batch too. batch
// is the reply, -1 when p is neither.
func (s *Session) inBatch(p int32, callID string, tail map[int32]int32, batchOf []int32) (parent, batch int32) {
	var r int32
	switch {
	case p < 0:
		return p, -1
	case s.Entries[p].role == model.RoleAssistant:
		r = p
	case batchOf[p] >= 0 && s.makesCall(batchOf[p], callID):
		r = batchOf[p]
	default:
		return p, -1
	}
	if t, ok := tail[r]; ok {
		return t, r
	}
	return r, r
}

// makesCall reports whether reply r makes the tool call id.
func (s *Session) makesCall(r int32, id string) bool {
	if id == "" {
		return false
	}
	for _, c := range s.callsOf(int(r)) {
		if c.ID == id {
			return true
		}
	}
	return false
}

// follows reports whether line i comes after reply r on its chain, a few
// lines up at most: the reply's previous line, or a tool result of it
// written before the reply's next block. A line with the same message.id
// elsewhere (after a compaction, on another branch) starts a reply of its
// own.
//
// Claude Code 2.1.9x sometimes writes a reply's blocks out of their chain's
// order (a tool_use block whose parent, the block before it, comes a line
// later): a later line of the same message.id on the way is walked through.
func (s *Session) follows(i, r int32) bool {
	j, ok := s.lineOf(i, s.lines[i].parent)
	for steps := 0; ok && steps < 8; steps++ {
		if s.lineEntry[j] == r {
			return true
		}
		later := j > i && s.lines[j].typ == TypeAssistant && s.lines[j].msgID == s.lines[i].msgID && s.lines[j].file == s.lines[i].file
		if s.lineEntry[j] < 0 && !later || s.lines[j].parent == "" {
			return false
		}
		j, ok = s.lineOf(j, s.lines[j].parent)
	}
	return false
}

// lineOf is the line whose uuid is id, for line i's parent: most parents
// are one of the few lines before, found without the map; else its own
// file's copy of id, else the line that has it first.
func (s *Session) lineOf(i int32, id string) (int32, bool) {
	if id == "" {
		return 0, false
	}
	file := s.lines[i].file
	for j := i - 1; j >= 0 && j >= i-4; j-- {
		if l := &s.lines[j]; l.uuid == id && l.flags&flagSkip == 0 && l.file == file {
			return j, true
		}
	}
	if s.copies != nil {
		if j, ok := s.copies[fileUUID{file, id}]; ok {
			return j, true
		}
	}
	j, ok := s.byUUID[id]
	return j, ok
}

// baseID is a line's uuid, else "line:N" ("<file>:N" in an agent's file).
func (s *Session) baseID(l *line) string {
	if l.uuid != "" {
		return l.uuid
	}
	f := s.fileName(l.file)
	if f == "" {
		f = "line"
	}
	return f + ":" + strconv.Itoa(int(l.no))
}

// recordTarget is the uuid a record without one is about: a file-history
// snapshot's messageId (the message it was taken before).
func recordTarget(l *line) string {
	if l.typ != "file-history-snapshot" {
		return ""
	}
	id, _ := jscan.StringShared(jscan.Member(l.raw, "messageId"))
	return id
}

func (s *Session) fileName(file int32) string {
	if file <= 0 {
		return ""
	}
	return s.agentFiles[file-1].Name
}

// cutCycles breaks every cycle of parents where the walk from the earliest
// entry in it closes it, and reports it.
func (s *Session) cutCycles() {
	model.BreakCycles(s.parent, false, func(k, _ int) {
		e := &s.Entries[k]
		s.diag(s.lines[e.first].file, int32(e.Line), false, "parent of %q makes a cycle: a root here", e.ID)
	})
}

// callIndex is every tool call of the assistant entries by its id (the
// first entry that makes it).
func (s *Session) callIndex() map[string]call {
	s.callsOnce.Do(func() {
		s.calls = map[string]call{}
		for k := range s.Entries {
			if s.Entries[k].role != model.RoleAssistant {
				continue
			}
			for _, c := range s.callsOf(k) {
				if _, ok := s.calls[c.ID]; !ok {
					s.calls[c.ID] = call{entry: int32(k), name: c.Name, input: c.Input}
				}
			}
		}
	})
	return s.calls
}

// onMain reports whether entry k is a turn of the main conversation: a
// message or a compaction outside every agent.
func (s *Session) onMain(k int) bool {
	e := &s.Entries[k]
	return e.Agent < 0 && (e.kind == model.EntryMessage || e.kind == model.EntryCompaction)
}

// findLeaf sets the leaf: the entry of the last line of the session's file
// that is a turn of the main conversation; from there, while it has
// children that are such turns, the one made by the latest line. -1 when
// the file has none.
func (s *Session) findLeaf(lineEntry, lastLine []int32) {
	s.leaf = -1
	for i := len(s.lines) - 1; i >= 0; i-- {
		l := &s.lines[i]
		if l.file != 0 || lineEntry[i] < 0 {
			continue
		}
		if k := int(lineEntry[i]); s.onMain(k) {
			s.leaf = k
			break
		}
	}
	if s.leaf < 0 {
		return
	}
	kids := make([]int32, len(s.Entries)) // the main turn child with the latest line, -1
	for k := range kids {
		kids[k] = -1
	}
	for k := range s.Entries {
		p := s.parent[k]
		if p < 0 || !s.onMain(k) {
			continue
		}
		if c := kids[p]; c < 0 || lastLine[k] > lastLine[c] {
			kids[p] = int32(k)
		}
	}
	for steps := 0; kids[s.leaf] >= 0 && steps < len(s.Entries); steps++ {
		s.leaf = int(kids[s.leaf])
	}
}
