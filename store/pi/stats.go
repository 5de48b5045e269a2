package pi

import (
	"math"
	"slices"
	"strings"
	"time"

	"skein/internal/jscan"
	"skein/internal/jsdate"
	"skein/model"
)

// Stats adds up the whole session as pi 1.6.0's getSessionStats does: every
// branch; the usage of assistant messages, of usage entries (cache warming),
// of compactions and branch summaries made by a model, and of tool results
// that record one. Its counts are pi's too (ToolCalls: blocks of type
// "toolCall" only), and ByModel is getUsageCostBreakdown's list. Models are
// the ones that answered (responseModel, else model) and the ones selected;
// a virtual model (named by a pi.virtual-model-state entry) is marked so.
//
// Where pi cannot add a usage up (an assistant message or usage entry
// without usage, a usage without cost, a field that is not a number), its
// getSessionStats throws a TypeError or its sums come out NaN, and its
// footer breaks. Stats never fails: what is there is added, what is
// missing counts 0, and Incomplete says how many such usages there were.
//
// Days are the entries' local days (time.Local); active time is the gaps
// between entries in file order, each capped at model.ActiveGapCap, a gap
// counted on the day of the entry that ends it.
func (s *Session) Stats() model.Stats {
	var st model.Stats
	st.First, st.Last = math.NaN(), math.NaN()
	seen := map[string]bool{}
	addModel := func(m string) {
		if m != "/" && m != "" && !seen[m] {
			seen[m] = true
			st.Models = append(st.Models, strings.Clone(m))
		}
	}
	byModel := map[string]int{} // key -> index in st.ByModel
	breakdown := func(key string, u model.UsageTotals) {
		i, ok := byModel[key]
		if !ok {
			i = len(st.ByModel)
			byModel[key] = i
			st.ByModel = append(st.ByModel, model.ModelUsage{Key: strings.Clone(key)})
		}
		st.ByModel[i].AddUsage(u)
	}
	tools := map[string]int{}
	sizes := map[int]float64{} // the context size each assistant message's usage gives
	var days model.Days
	prev := math.NaN() // the time of the last entry that had one
	st.Virtual = s.virtualModels()
	for i := range s.Entries {
		e := &s.Entries[i]
		if len(s.Children(i)) == 0 {
			st.Leaves++
		}
		var d model.Totals // this entry's part
		t := jsdate.Parse(e.Timestamp)
		if t == t {
			if gap := t - prev; gap > 0 { // NaN for the first
				d.Active = model.ActiveGapCap
				if gap < float64(model.ActiveGapCap.Milliseconds()) {
					d.Active = time.Duration(gap) * time.Millisecond
				}
			}
			prev = t
			if !(st.First <= t) {
				st.First = t
			}
			if !(st.Last >= t) {
				st.Last = t
			}
		}
		// usage adds a usage up; required says pi adds it unchecked (it
		// throws on none).
		usage := func(raw []byte, required bool, key string) model.UsageTotals {
			if !jsTruthy(raw) {
				if required {
					st.Incomplete++
				}
				return model.UsageTotals{}
			}
			u, complete := usageTotals(raw)
			if !complete {
				st.Incomplete++
			}
			d.AddUsage(u)
			breakdown(key, u)
			return u
		}
		switch e.Type {
		case TypeMessage:
			d.AddMessage(e.Role)
			switch e.Role {
			case RoleToolResult:
				usage(e.MessageField("usage"), false, toolsKey)
			case RoleAssistant:
				var u, content, provider, mdl, responseModel []byte
				var stop string
				Fields(e.Message, func(k string, v []byte) {
					switch k {
					case "usage":
						u = v
					case "content":
						content = v
					case "provider":
						provider = v
					case "model":
						mdl = v
					case "responseModel":
						responseModel = v
					case "stopReason":
						stop = String(v)
					}
				})
				answered := mdl
				if len(responseModel) > 0 && string(responseModel) != "null" { // responseModel ?? model
					answered = responseModel
				}
				if r := String(responseModel); r != "" {
					addModel(String(provider) + "/" + r)
				} else {
					addModel(String(provider) + "/" + String(mdl))
				}
				switch stop {
				case "error":
					d.Errors++
				case "aborted":
					d.Aborts++
				}
				EachBlock(content, func(b []byte) {
					// One pass over the block: its type and its names.
					var typ, toolName, name []byte
					jscan.Fields(b, func(k, v []byte) bool {
						switch {
						case jscan.KeyIs(k, "type"):
							typ = v
						case jscan.KeyIs(k, "toolName"):
							toolName = v
						case jscan.KeyIs(k, "name"):
							name = v
						}
						return true
					})
					switch String(typ) {
					case "toolCall":
						d.ToolCalls++
						fallthrough
					case "tool_use", "tool_call", "function_call": // IsToolCallBlock's shapes
						n, ok := bstr(toolName) // NormalizeToolCall's name
						if !ok {
							n, _ = bstr(name)
						}
						tools[n]++
					}
				})
				// The context's size after it: its input, cache and output.
				if ut := usage(u, true, templateString(provider)+"/"+templateString(answered)); ut.Tokens() > 0 {
					sizes[i] = ut.Tokens()
				}
			}
		case TypeUsage:
			usage(e.Field("usage"), true, templateString(e.Field("provider"))+"/"+templateString(e.Field("model")))
		case TypeModelChange:
			p, _ := e.StringField("provider")
			m, _ := e.StringField("modelId")
			if name := p + "/" + m; st.Virtual[name] {
				addModel(name + " (virtual)")
			} else {
				addModel(name)
			}
		case TypeCompaction:
			st.Compactions++
			usage(e.Field("usage"), false, toolsKey)
		case TypeBranchSummary:
			st.BranchSummaries++
			usage(e.Field("usage"), false, toolsKey)
		}
		st.Totals.Add(d)
		days.Add(t, d)
	}
	st.Labels = len(s.labels)
	// pi's breakdown: only what cost or counted something, costliest first.
	st.ByModel = slices.DeleteFunc(st.ByModel, func(m model.ModelUsage) bool { return !(m.Cost > 0 || m.Tokens() > 0) })
	model.SortModels(st.ByModel)
	for name, n := range tools {
		st.Tools = append(st.Tools, model.ToolCount{Name: strings.Clone(name), Calls: n})
	}
	model.SortTools(st.Tools)
	st.Days = days.Sorted()
	st.Context = s.contextSeries(s.Leaf(), sizes)
	return st
}

// toolsKey is the key pi's breakdown gives usage that no model's answer
// carries: tool results', compactions' and branch summaries'.
const toolsKey = "Tools/summaries"

// usageTotals reads a usage as pi's addUsageToTotals adds it; complete is
// false when pi's sum would throw or be NaN (a number missing, no cost).
func usageTotals(raw []byte) (u model.UsageTotals, complete bool) {
	complete = len(raw) > 0 && raw[0] == '{'
	var in, out, cr, cw, cost []byte // the last of each, as JSON.parse keeps
	jscan.Fields(raw, func(k, v []byte) bool {
		switch {
		case jscan.KeyIs(k, "input"):
			in = v
		case jscan.KeyIs(k, "output"):
			out = v
		case jscan.KeyIs(k, "cacheRead"):
			cr = v
		case jscan.KeyIs(k, "cacheWrite"):
			cw = v
		case jscan.KeyIs(k, "cost"):
			cost = v
		}
		return true
	})
	num := func(v []byte) float64 {
		f, ok := jsNumberValue(v)
		complete = complete && ok
		return f
	}
	u.TokensIn, u.TokensOut, u.CacheRead, u.CacheWrite = num(in), num(out), num(cr), num(cw)
	u.Cost = num(Member(cost, "total"))
	return u, complete
}

// templateString is a value as a JavaScript template literal writes it
// (`${v}`): a missing one is "undefined", null "null".
func templateString(raw []byte) string {
	switch {
	case raw == nil:
		return "undefined"
	case string(raw) == "null":
		return "null"
	}
	return jsString(raw)
}

// contextSeries is the size of the context along the path to leaf: after
// each assistant message, its usage (input, cache reads and writes, output)
// or, when it has none, the last size plus estimates of the messages since;
// after each compaction, pi's estimate of the context it leaves (its
// checkpoint, summary and kept messages), so that a compaction shows as a
// drop.
func (s *Session) contextSeries(leaf int, sizes map[int]float64) []model.ContextPoint {
	if leaf < 0 {
		return nil
	}
	path := s.Path(leaf)
	var out []model.ContextPoint
	last, since := 0.0, 0 // the last size, and the path position after it
	for pos, i := range path {
		e := &s.Entries[i]
		switch {
		case e.Type == TypeCompaction:
			after := s.ContextTokens(s.BuildContext(i))
			if pos > 0 && last > 0 {
				// Estimates and recorded usage count differently (a faux
				// model's usage is far below any estimate): the context
				// shrinks by the ratio the estimates give, from the size
				// recorded before it.
				if before := s.ContextTokens(s.BuildContext(path[pos-1])); before > 0 {
					after = last * min(1, after/before)
				}
			}
			last, since = after, pos+1
			out = append(out, model.ContextPoint{Entry: i, Tokens: last, Estimated: true, Compaction: true})
		case e.Type == TypeMessage && e.Role == RoleAssistant:
			p := model.ContextPoint{Entry: i}
			if size, ok := sizes[i]; ok {
				p.Tokens = size
			} else {
				p.Tokens, p.Estimated = last, true
				for _, j := range path[since : pos+1] {
					if k, ok := s.messageKind(j); ok {
						p.Tokens += float64(s.MessageTokens(model.ContextMessage{Entry: j, Kind: k}))
					}
				}
			}
			last, since = p.Tokens, pos+1
			out = append(out, p)
		}
	}
	return out
}

// virtualModels are the provider/model names of the virtual models the
// session selected: those a pi.virtual-model-state entry names (pi 1.6.0
// writes one before each request a router routes).
func (s *Session) virtualModels() map[string]bool {
	virtual := map[string]bool{}
	for i := range s.Entries {
		if e := &s.Entries[i]; e.Type == TypeCustom && String(e.Field("customType")) == "pi.virtual-model-state" {
			data := e.Field("data")
			virtual[String(Member(data, "provider"))+"/"+String(Member(data, "modelId"))] = true
		}
	}
	return virtual
}

// BuildHistory is the path to leaf with nothing compacted away: every entry
// that makes a message, and each compaction as its summary where it stands.
// It is what "show the full original history" shows.
func (s *Session) BuildHistory(leaf int) model.Context {
	ctx := s.BuildContext(leaf)
	if leaf < 0 || ctx.Compaction < 0 {
		return ctx
	}
	ctx.Messages, ctx.Entries = ctx.Messages[:0:0], nil
	for _, i := range s.Path(leaf) {
		if s.Entries[i].Type == TypeCompaction {
			ctx.Messages = append(ctx.Messages, model.ContextMessage{Entry: i, Kind: model.KindCompactionSummary})
		} else if k, ok := s.messageKind(i); ok {
			ctx.Messages = append(ctx.Messages, model.ContextMessage{Entry: i, Kind: k})
		}
	}
	return ctx
}

// Summarized counts the messages a context's compaction replaced: those on
// the path before its first kept entry.
func (s *Session) Summarized(leaf int, ctx model.Context) int {
	if ctx.Compaction < 0 {
		return 0
	}
	kept := make(map[int]bool, len(ctx.Messages))
	for _, m := range ctx.Messages {
		kept[m.Entry] = true
	}
	n := 0
	for _, m := range s.BuildHistory(leaf).Messages {
		if m.Kind != model.KindCompactionSummary && !kept[m.Entry] {
			n++
		}
	}
	return n
}

// Fields calls fn with each member of a valid object, by name.
func Fields(obj []byte, fn func(key string, val []byte)) {
	jscan.Fields(obj, func(k, v []byte) bool {
		fn(jscan.Key(k), v)
		return true
	})
}
