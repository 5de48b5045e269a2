package cli

import (
	"bufio"
	"fmt"
	"os"
	"strings"

	"skein/internal/jsdate"
	"skein/model"
	"skein/tui/transcript"
)

var diffCommand = command{
	name: "session diff",
	args: "[--json] A[@ENTRY] B[@ENTRY]",
	help: "two branches of a session, or two sessions: where they part, each side's messages, tool calls, files (diffed where both changed one), tokens, cost, time; ENTRY: an id or prefix (default: the leaf)",
	run:  (*cli).diff,
}

func (c *cli) diff(argv []string) error {
	a, err := parseArgs(argv, map[string]bool{"json": false})
	if err != nil {
		return err
	}
	if len(a.pos) != 2 {
		return usagef("want two sessions, A[@ENTRY] B[@ENTRY], not %d arguments", len(a.pos))
	}
	ends, err := c.diffEnds(a.pos[0], a.pos[1])
	if err != nil {
		return err
	}
	d := model.CompareSessions(ends[0], ends[1])
	if a.has("json") {
		return c.writeJSON(diffJSON(d))
	}
	w := bufio.NewWriter(c.stdout)
	defer w.Flush()
	for _, l := range transcript.DiffText(d, c.env.Home) {
		fmt.Fprintln(w, l.Text)
	}
	return nil
}

// diffEnds opens the sessions two references name, once when they name
// the same file (two branches of it), each at its entry.
func (c *cli) diffEnds(refA, refB string) ([2]model.DiffEnd, error) {
	var ends [2]model.DiffEnd
	var paths [2]string
	for k, arg := range []string{refA, refB} {
		ref, entry := splitEntry(arg)
		path, err := c.resolve(ref)
		if err != nil {
			return ends, err
		}
		paths[k] = path
		if k == 1 && path == paths[0] {
			ends[1].Session = ends[0].Session
		} else {
			s, _, err := c.open(path, true)
			if err != nil {
				return ends, err
			}
			ends[k].Session = s
		}
		s := ends[k].Session
		ends[k].Leaf = s.Leaf()
		if entry != "" {
			i, err := entryByPrefix(s, entry)
			if err != nil {
				return ends, fail(1, "%s: %v", path, err)
			}
			ends[k].Leaf = i
		}
	}
	return ends, nil
}

// splitEntry cuts REF@ENTRY; a reference that is a file as it stands
// (a path with an @ in it) has no entry.
func splitEntry(arg string) (ref, entry string) {
	i := strings.LastIndex(arg, "@")
	if i <= 0 || strings.Contains(arg[i:], "/") {
		return arg, ""
	}
	if _, err := os.Stat(arg); err == nil {
		return arg, ""
	}
	return arg[:i], arg[i+1:]
}

// entryByPrefix is the entry whose id is id, or the one entry whose id
// starts with it.
func entryByPrefix(s *model.Session, id string) (int, error) {
	if i, ok := s.Index(id); ok {
		return i, nil
	}
	found := -1
	for i := range s.Len() {
		if strings.HasPrefix(s.Entry(i).ID, id) {
			if found >= 0 {
				return 0, fmt.Errorf("%q names more than one entry (%s, %s…)", id, s.Entry(found).ID, s.Entry(i).ID)
			}
			found = i
		}
	}
	if found < 0 {
		return 0, fmt.Errorf("no entry %q", id)
	}
	return found, nil
}

// The JSON of a comparison, documented in docs/commands.md.
type (
	diffOut struct {
		Common diffCommonOut `json:"common"`
		Left   diffSideOut   `json:"left"`
		Right  diffSideOut   `json:"right"`
		Files  []diffFileOut `json:"files"`
	}
	diffCommonOut struct {
		SameSession bool `json:"sameSession"`
		Entries     int  `json:"entries"`
		Messages    int  `json:"messages"`
		LastCommon  struct {
			Left  *string `json:"left"`
			Right *string `json:"right"`
		} `json:"lastCommon"`
	}
	diffSideOut struct {
		Session  string           `json:"session"`
		Format   string           `json:"format"`
		Leaf     string           `json:"leaf"`
		Entries  int              `json:"entries"`
		Messages []diffMessageOut `json:"messages"`
		Calls    []diffCallOut    `json:"toolCalls"`
		Totals   diffTotalsOut    `json:"totals"`
		All      diffTotalsOut    `json:"all"`
	}
	diffMessageOut struct {
		ID   string `json:"id"`
		Role string `json:"role"`
		Text string `json:"text"`
	}
	diffCallOut struct {
		Entry    string `json:"entry"`
		Name     string `json:"name"`
		Argument string `json:"argument"`
		Failed   bool   `json:"failed"`
	}
	diffTotalsOut struct {
		Messages      int      `json:"messages"`
		ToolCalls     int      `json:"toolCalls"`
		Input         float64  `json:"input"`
		Output        float64  `json:"output"`
		CacheRead     float64  `json:"cacheRead"`
		CacheWrite    float64  `json:"cacheWrite"`
		Cost          *float64 `json:"cost"`
		ActiveSeconds float64  `json:"activeSeconds"`
		First         *string  `json:"first,omitempty"`
		Last          *string  `json:"last,omitempty"`
	}
	diffFileOut struct {
		Path  string        `json:"path"`
		Left  *diffStateOut `json:"left"`
		Right *diffStateOut `json:"right"`
		Diff  *string       `json:"diff"`
	}
	diffStateOut struct {
		State   string  `json:"state"` // "known", "unknown" or "deleted"
		Content *string `json:"content"`
		Calls   int     `json:"calls"`
	}
)

func diffJSON(d *model.Diff) diffOut {
	out := diffOut{Left: diffSideJSON(&d.Left), Right: diffSideJSON(&d.Right), Files: []diffFileOut{}}
	out.Common.SameSession, out.Common.Entries, out.Common.Messages = d.SameSession, d.Shared, d.SharedMessages
	out.Common.LastCommon.Left = entryID(d.Left.Session, d.Left.LastCommon)
	out.Common.LastCommon.Right = entryID(d.Right.Session, d.Right.LastCommon)
	for _, f := range d.Files {
		fo := diffFileOut{Path: valid(f.Path), Left: diffStateJSON(f.Left), Right: diffStateJSON(f.Right)}
		if f.Diff != "" {
			s := valid(f.Diff)
			fo.Diff = &s
		}
		out.Files = append(out.Files, fo)
	}
	return out
}

func entryID(s *model.Session, i int) *string {
	if i < 0 {
		return nil
	}
	id := valid(s.Entry(i).ID)
	return &id
}

func diffSideJSON(sd *model.DiffSide) diffSideOut {
	s := sd.Session
	leaf := ""
	if sd.Leaf >= 0 {
		leaf = valid(s.Entry(sd.Leaf).ID)
	}
	out := diffSideOut{Session: valid(s.Info.Path), Format: s.Info.Format, Leaf: leaf,
		Entries: len(sd.Path), Messages: []diffMessageOut{}, Calls: []diffCallOut{},
		Totals: diffTotalsJSON(sd.Totals, sd.First, sd.Last), All: diffTotalsJSON(sd.All, 0, -1)}
	if out.Format == "" {
		out.Format = "pi"
	}
	for _, i := range sd.Messages {
		m := s.EntryMessage(i)
		text := m.Text("\n")
		if text == "" {
			text = m.Summary
		}
		out.Messages = append(out.Messages, diffMessageOut{ID: valid(s.Entry(i).ID), Role: m.Role, Text: valid(text)})
	}
	for _, c := range sd.Calls {
		out.Calls = append(out.Calls, diffCallOut{Entry: valid(s.Entry(c.Entry).ID), Name: valid(c.Call.Name),
			Argument: valid(model.KeyArgument(c.Call.Input)), Failed: c.Failed})
	}
	return out
}

func diffTotalsJSON(t model.Totals, first, last float64) diffTotalsOut {
	out := diffTotalsOut{Messages: t.Messages, ToolCalls: t.ToolCalls, Input: t.TokensIn, Output: t.TokensOut,
		CacheRead: t.CacheRead, CacheWrite: t.CacheWrite, ActiveSeconds: t.Active.Seconds()}
	// A cost is null when part of the usage has no price.
	if t.Unpriced == 0 {
		c := t.Cost
		out.Cost = &c
	}
	if last >= first {
		if s, ok := jsdate.ISO(first); ok {
			out.First = &s
		}
		if s, ok := jsdate.ISO(last); ok {
			out.Last = &s
		}
	}
	return out
}

func diffStateJSON(f *model.FileState) *diffStateOut {
	switch {
	case f == nil:
		return nil
	case f.Deleted:
		return &diffStateOut{State: "deleted", Calls: f.Calls}
	case f.Known:
		c := valid(f.Content)
		return &diffStateOut{State: "known", Content: &c, Calls: f.Calls}
	}
	return &diffStateOut{State: "unknown", Calls: f.Calls}
}
