package pi

import (
	"fmt"

	"skein/internal/jsdate"
	"skein/internal/jsjson"
	"skein/model"
)

// CompactionEntry is a compaction as pi 1.6.0 writes one after parent, its
// keys in pi's order: summary, firstKeptEntryId, tokensBefore, details
// {readFiles, modifiedFiles}, usage (a model's summary's), systemMessage
// (the checkpoint of the compacted context's system prompt, stamped with
// the entry's time, when it has one), read from the session the plan was
// made on.
func CompactionEntry(c model.Compaction, parent string) NewEntry {
	details := jsjson.AppendStrings(append(jsjson.AppendStrings([]byte(`{"readFiles":`), c.ReadFiles), `,"modifiedFiles":`...), c.ModifiedFiles)
	details = append(details, '}')
	e := NewEntry{Type: TypeCompaction, Parent: &parent, Fields: []Field{
		{Key: "summary", Value: jsjson.AppendString(nil, c.Summary)},
		{Key: "firstKeptEntryId", Value: jsjson.AppendString(nil, c.FirstKeptEntryID)},
		{Key: "tokensBefore", Value: []byte(jsjson.FormatNumber(c.TokensBefore))},
		{Key: "details", Value: details},
		{Key: "usage", Value: usageJSON(c.Usage)},
	}}
	if from := (*Session)(nil); c.Plan != nil && c.From != nil {
		from = Of(c.From)
		if sys := from.systemOf(c.Plan); sys != nil {
			e.Stamped = func(ts string) []Field {
				return []Field{{Key: "systemMessage", Value: StampSystemMessage(sys, jsdate.Parse(ts))}}
			}
		}
	}
	return e
}

// usageJSON is a summary's cost in pi's shape ({input, output, cacheRead,
// cacheWrite, totalTokens, cost {input, output, cacheRead, cacheWrite,
// total}}): pi 1.6.0 reads usage.cost.total without a check, so the cost is
// always there, zeros where no price is known. nil (no member) for none.
func usageJSON(u *model.Usage) []byte {
	if u == nil {
		return nil
	}
	total := u.Total
	if total == 0 {
		total = u.Input + u.Output + u.CacheRead + u.CacheWrite
	}
	n := func(f float64) int64 { return int64(f) }
	b := fmt.Appendf(nil, `{"input":%d,"output":%d,"cacheRead":%d,"cacheWrite":%d,`, n(u.Input), n(u.Output), n(u.CacheRead), n(u.CacheWrite))
	if u.Reasoning > 0 {
		b = fmt.Appendf(b, `"reasoning":%d,`, n(u.Reasoning))
	}
	return fmt.Appendf(b, `"totalTokens":%d,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}}`, n(total))
}

// systemOf is the current system message of a plan's context, nil for a
// session of another format.
func (s *Session) systemOf(p *model.Plan) []byte {
	if s == nil {
		return nil
	}
	return s.CurrentSystemMessage(p.Context.Messages)
}
