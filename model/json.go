package model

import (
	"bytes"
	"encoding/json"

	"skein/internal/jsjson"
)

// jsNumber is a number as JSON.stringify writes it (null for NaN and the
// infinities, which encoding/json refuses).
type jsNumber float64

func (n jsNumber) MarshalJSON() ([]byte, error) { return jsjson.AppendNumber(nil, float64(n)), nil }

// list is a list that is [] when empty, never null.
func list(l []string) []string {
	if l == nil {
		return []string{}
	}
	return l
}

// marshal is encoding/json's output without HTML escapes or the newline
// after it. It differs from JSON.stringify's only where the two read the
// same: encoding/json writes U+2028 and U+2029 as escapes.
func marshal(v any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic(err) // only strings, numbers, booleans and lists: cannot fail
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

// JSON is the plan as `skein session plan --json` prints it: the two
// message lists as counts; null for no plan.
func (p *Plan) JSON() []byte {
	if p == nil {
		return []byte("null")
	}
	return marshal(struct {
		FirstKeptEntryID    string   `json:"firstKeptEntryId"`
		TokensBefore        jsNumber `json:"tokensBefore"`
		IsSplitTurn         bool     `json:"isSplitTurn"`
		MessagesToSummarize int      `json:"messagesToSummarize"`
		TurnPrefixMessages  int      `json:"turnPrefixMessages"`
		ReadFiles           []string `json:"readFiles"`
		ModifiedFiles       []string `json:"modifiedFiles"`
	}{p.FirstKeptEntryID, jsNumber(p.TokensBefore), p.IsSplitTurn, len(p.MessagesToSummarize), len(p.TurnPrefixMessages),
		list(p.ReadFiles), list(p.ModifiedFiles)})
}

// JSON describes a compaction for --json: the entry's id ("" when nothing
// was written: null) and its fields.
func (c *Compaction) JSON(id string) []byte {
	var idp *string
	if id != "" {
		idp = &id
	}
	return marshal(struct {
		ID               *string  `json:"id"`
		Summary          string   `json:"summary"`
		FirstKeptEntryID string   `json:"firstKeptEntryId"`
		TokensBefore     jsNumber `json:"tokensBefore"`
		ReadFiles        []string `json:"readFiles"`
		ModifiedFiles    []string `json:"modifiedFiles"`
	}{idp, c.Summary, c.FirstKeptEntryID, jsNumber(c.TokensBefore), list(c.ReadFiles), list(c.ModifiedFiles)})
}
