package pi

import (
	"skein/internal/jscan"
	"skein/model"
)

// Stats adds up the whole session as pi 1.6.0's getSessionStats does: every
// branch; the usage of assistant messages, of usage entries (cache warming),
// of compactions and branch summaries made by a model, and of tool results
// that record one. Models are the ones that answered (responseModel, else
// model) and the ones selected; a virtual model (named by a
// pi.virtual-model-state entry) is marked so.
func (s *Session) Stats() model.Stats {
	var st model.Stats
	seen := map[string]bool{}
	addModel := func(m string) {
		if m != "/" && m != "" && !seen[m] {
			seen[m] = true
			st.Models = append(st.Models, m)
		}
	}
	addUsage := func(usage []byte) {
		if !jsTruthy(usage) {
			return
		}
		in, _ := jsNumberValue(Member(usage, "input"))
		out, _ := jsNumberValue(Member(usage, "output"))
		cr, _ := jsNumberValue(Member(usage, "cacheRead"))
		cw, _ := jsNumberValue(Member(usage, "cacheWrite"))
		cost, _ := jsNumberValue(Member(Member(usage, "cost"), "total"))
		st.TokensIn += in
		st.TokensOut += out
		st.CacheRead += cr
		st.CacheWrite += cw
		st.Cost += cost
	}
	st.Virtual = s.virtualModels()
	for i := range s.Entries {
		e := &s.Entries[i]
		if len(s.Children(i)) == 0 {
			st.Leaves++
		}
		switch e.Type {
		case TypeMessage:
			st.Messages++
			switch e.Role {
			case RoleUser:
				st.UserMessages++
			case RoleToolResult:
				addUsage(e.MessageField("usage"))
			case RoleAssistant:
				st.AssistantMessages++
				var usage, content []byte
				var provider, mdl, responseModel, stop string
				Fields(e.Message, func(k string, v []byte) {
					switch k {
					case "usage":
						usage = v
					case "content":
						content = v
					case "provider":
						provider = String(v)
					case "model":
						mdl = String(v)
					case "responseModel":
						responseModel = String(v)
					case "stopReason":
						stop = String(v)
					}
				})
				if responseModel != "" {
					mdl = responseModel
				}
				addModel(provider + "/" + mdl)
				if stop == "error" {
					st.Errors++
				}
				EachBlock(content, func(b []byte) {
					if IsToolCallBlock(b) {
						st.ToolCalls++
					}
				})
				addUsage(usage)
			}
		case TypeUsage:
			addUsage(e.Field("usage"))
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
			addUsage(e.Field("usage"))
		case TypeBranchSummary:
			st.BranchSummaries++
			addUsage(e.Field("usage"))
		}
	}
	st.Labels = len(s.labels)
	return st
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
