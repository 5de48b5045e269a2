package model

import (
	"sort"
	"strconv"

	"skein/internal/jscan"
	"skein/internal/jsjson"
)

// orderedMembers is a JavaScript object being built: members keep the place
// of their first insertion, a deleted one loses it, as in a Map.
type orderedMembers struct {
	names []string
	vals  map[string][]byte
}

func (o *orderedMembers) set(name string, val []byte) {
	if o.vals == nil {
		o.vals = map[string][]byte{}
	}
	if _, ok := o.vals[name]; !ok {
		o.names = append(o.names, name)
	}
	o.vals[name] = val
}

func (o *orderedMembers) delete(name string) {
	if _, ok := o.vals[name]; !ok {
		return
	}
	delete(o.vals, name)
	for i, n := range o.names {
		if n == name {
			o.names = append(o.names[:i], o.names[i+1:]...)
			break
		}
	}
}

// jsKeyOrder is the order in which JavaScript enumerates an object's own
// keys: array indexes (canonical integers below 2^32-1) ascending, then the
// other keys in insertion order.
func jsKeyOrder(names []string) []string {
	out := append([]string(nil), names...)
	sort.SliceStable(out, func(a, b int) bool {
		ia, aok := arrayIndex(out[a])
		ib, bok := arrayIndex(out[b])
		switch {
		case aok && bok:
			return ia < ib
		default:
			return aok && !bok
		}
	})
	return out
}

// arrayIndex reports whether key is a canonical array index.
func arrayIndex(key string) (uint64, bool) {
	if key == "" || len(key) > 10 || (key[0] == '0' && len(key) > 1) {
		return 0, false
	}
	n, err := strconv.ParseUint(key, 10, 64)
	return n, err == nil && n < 1<<32-1
}

// ObjectEntries calls fn with the members of a raw object as Object.entries
// gives them: JSON.parse keeps the last value of a duplicate key at the
// place of its first, and indexes come first.
func ObjectEntries(obj []byte, fn func(name string, val []byte)) {
	if len(obj) == 0 || obj[0] != '{' {
		return
	}
	var o orderedMembers
	jscan.Fields(obj, func(k, v []byte) bool {
		name, _ := jscan.Unquote(k)
		o.set(name, v)
		return true
	})
	for _, name := range jsKeyOrder(o.names) {
		fn(name, o.vals[name])
	}
}

// CurrentSystemMessage is pi-ai's getCurrentSystemMessage over a context's
// messages: every system message replayed into one, its content the
// non-empty contents joined by blank lines, its sections patched by name (a
// null removes one), its tools resolved (toolsRemoved, then toolsAdded, by
// name), stamped with the first system message's timestamp. nil where pi
// returns undefined: no timestamp and no tools.
func (s *Session) CurrentSystemMessage(msgs []ContextMessage) []byte {
	var content []string
	var sections, tools orderedMembers
	var timestamp []byte // nil while undefined
	for _, m := range msgs {
		if s.messageRole(m) != RoleSystem {
			continue
		}
		raw := s.rawMessage(m)
		if timestamp == nil || string(timestamp) == "null" {
			timestamp = Member(raw, "timestamp")
		}
		if text := ContentText(Member(raw, "content"), "\n"); text != "" {
			content = append(content, text)
		}
		ObjectEntries(Member(raw, "sections"), func(name string, val []byte) {
			if string(val) == "null" {
				sections.delete(name)
			} else {
				sections.set(name, val)
			}
		})
		_ = jscan.Elements(Member(raw, "toolsRemoved"), func(tool []byte) bool {
			tools.delete(toolName(tool))
			return true
		})
		_ = jscan.Elements(Member(raw, "toolsAdded"), func(tool []byte) bool {
			tools.set(toolName(tool), tool)
			return true
		})
	}
	if timestamp == nil && len(tools.names) == 0 {
		return nil
	}
	out := []byte(`{"role":"system","content":`)
	joined := ""
	for i, c := range content {
		if i > 0 {
			joined += "\n\n"
		}
		joined += c
	}
	out = jsjson.AppendString(out, joined)
	if len(sections.names) > 0 {
		out = append(out, `,"sections":{`...)
		for i, name := range jsKeyOrder(sections.names) {
			if i > 0 {
				out = append(out, ',')
			}
			out = jsjson.AppendString(out, name)
			out = append(out, ':')
			out = jsjson.AppendValue(out, sections.vals[name])
		}
		out = append(out, '}')
	}
	if len(tools.names) > 0 {
		out = append(out, `,"toolsAdded":[`...)
		for i, name := range tools.names {
			if i > 0 {
				out = append(out, ',')
			}
			out = jsjson.AppendValue(out, tools.vals[name])
		}
		out = append(out, ']')
	}
	out = append(out, `,"timestamp":`...)
	if timestamp == nil || string(timestamp) == "null" {
		out = append(out, '0')
	} else {
		out = jsjson.AppendValue(out, timestamp)
	}
	return append(out, '}')
}

// toolName is the key a tool has in pi's tool map: its name.
func toolName(tool []byte) string {
	name := Member(tool, "name")
	if s, ok := bstr(name); ok {
		return "s" + s
	}
	return "r" + string(name) // not a string: keyed by its JSON, never equal to a string's
}

// rawMessage is a context message's JSON, without a copy where it is the
// message as stored.
func (s *Session) rawMessage(m ContextMessage) []byte {
	if e := &s.Entries[m.Entry]; m.Kind == KindMessage && m.Content == 0 && !e.RenamedRole && e.Message != nil {
		return e.Message
	}
	return s.MessageJSON(m)
}

// StampSystemMessage is a system message with its timestamp set to ms, as
// pi 1.6.0's appendCompaction stamps the checkpoint it stores with the
// compaction's own time.
func StampSystemMessage(sys []byte, ms float64) []byte {
	return appendReplacingMembers(nil, sys, []member{{"timestamp", []byte(jsjson.FormatNumber(ms))}})
}
