package model

import (
	"errors"
	"hash/fnv"
	"slices"
	"sync"
	"time"

	"skein/internal/prices"
	"skein/internal/stamp"
)

// A session's stats as bytes, for a memo that spares a warm `skein stats`
// the reading of every session (store.Memo): every field NewSessionStats
// sets, each value exactly (floats by their bits, nil apart from empty),
// so that a table made from the memo is byte for byte the table made from
// the sessions. The context along the branch is not kept (NewSessionStats
// drops it).

// statsCodecVersion starts the bytes: a change of what they hold, or of
// how a session's stats are counted, changes it, and older bytes are then
// not read (the session is read again).
const statsCodecVersion = 7 // 7: Gemini CLI's, Copilot CLI's, Kimi Code's and Qwen Code's usage priced; 6: a format that counts nothing gets its entries' counts; 5: Claude Code's out-of-order reply blocks and results between blocks; 2: Codex counts its errors, and its usage by token_usage_record; 3: Claude Code's parallel results are one branch, a fork's copies count no usage; 4: usage priced from the price table

// ErrStatsCodec says bytes are not a session's stats of this version, time
// zone and price table: the session must be read again.
var ErrStatsCodec = errors.New("not a session's stats of this version")

// AppendBinary appends ss's bytes to b.
func (ss *SessionStats) AppendBinary(b []byte) []byte {
	e := stamp.Codec{B: b}
	e.Int(statsCodecVersion)
	e.Int(int64(statsZone()))
	e.Int(int64(prices.Current().Hash())) // a cost is the table's it was priced with
	for _, s := range []string{ss.Path, ss.Format, ss.ID, ss.Name, ss.Cwd, ss.Title} {
		e.Str(s)
	}
	st := &ss.Stats
	encodeTotals(&e, &st.Totals)
	e.Int(lenOrNil(st.Models == nil, len(st.Models)))
	for _, m := range st.Models {
		e.Str(m)
	}
	for _, n := range []int{st.Compactions, st.BranchSummaries, st.Labels, st.Leaves, st.Incomplete} {
		e.Int(int64(n))
	}
	e.Bools(st.TableCost)
	keys := make([]string, 0, len(st.Virtual))
	for k := range st.Virtual {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	e.Int(lenOrNil(st.Virtual == nil, len(keys)))
	for _, k := range keys {
		e.Str(k)
		e.Bools(st.Virtual[k])
	}
	e.Int(lenOrNil(st.Tools == nil, len(st.Tools)))
	for _, t := range st.Tools {
		e.Str(t.Name)
		e.Int(int64(t.Calls))
	}
	e.Int(lenOrNil(st.ByModel == nil, len(st.ByModel)))
	for _, m := range st.ByModel {
		e.Str(m.Key)
		encodeUsage(&e, &m.UsageTotals)
	}
	e.Int(lenOrNil(st.Days == nil, len(st.Days)))
	for _, d := range st.Days {
		e.Str(d.Day)
		encodeTotals(&e, &d.Totals)
	}
	e.Float(st.First)
	e.Float(st.Last)
	return e.B
}

// DecodeSessionStats is the session's stats AppendBinary wrote
// (ErrStatsCodec: bytes of another version, another time zone, or
// damaged).
func DecodeSessionStats(b []byte) (*SessionStats, error) {
	d := stamp.Codec{B: b}
	if d.ReadInt() != statsCodecVersion || uint64(d.ReadInt()) != statsZone() || uint64(d.ReadInt()) != prices.Current().Hash() || d.Bad {
		return nil, ErrStatsCodec
	}
	ss := &SessionStats{}
	ss.Path, ss.Format, ss.ID, ss.Name, ss.Cwd, ss.Title = d.ReadStr(), d.ReadStr(), d.ReadStr(), d.ReadStr(), d.ReadStr(), d.ReadStr()
	st := &ss.Stats
	decodeTotals(&d, &st.Totals)
	if n, ok := readLen(&d); ok {
		st.Models = make([]string, n)
		for i := range st.Models {
			st.Models[i] = d.ReadStr()
		}
	}
	for _, n := range []*int{&st.Compactions, &st.BranchSummaries, &st.Labels, &st.Leaves, &st.Incomplete} {
		*n = int(d.ReadInt())
	}
	st.TableCost = d.ReadBools(1)[0]
	if n, ok := readLen(&d); ok {
		st.Virtual = make(map[string]bool, n)
		for range n {
			k := d.ReadStr()
			st.Virtual[k] = d.ReadBools(1)[0]
		}
	}
	if n, ok := readLen(&d); ok {
		st.Tools = make([]ToolCount, n)
		for i := range st.Tools {
			st.Tools[i] = ToolCount{Name: d.ReadStr(), Calls: int(d.ReadInt())}
		}
	}
	if n, ok := readLen(&d); ok {
		st.ByModel = make([]ModelUsage, n)
		for i := range st.ByModel {
			st.ByModel[i].Key = d.ReadStr()
			decodeUsage(&d, &st.ByModel[i].UsageTotals)
		}
	}
	if n, ok := readLen(&d); ok {
		st.Days = make([]DayTotals, n)
		for i := range st.Days {
			st.Days[i].Day = d.ReadStr()
			decodeTotals(&d, &st.Days[i].Totals)
		}
	}
	st.First, st.Last = d.ReadFloat(), d.ReadFloat()
	if d.Bad || len(d.B) != 0 {
		return nil, ErrStatsCodec
	}
	return ss, nil
}

// lenOrNil is a slice's or map's length as the bytes hold it: 0 for nil,
// else one more than its length.
func lenOrNil(isNil bool, n int) int64 {
	if isNil {
		return 0
	}
	return int64(n) + 1
}

// readLen reads what lenOrNil wrote: ok false for nil (or bytes that
// cannot be: d.Bad is then set).
func readLen(d *stamp.Codec) (int, bool) {
	n := d.ReadInt()
	if n < 0 || n-1 > int64(len(d.B)) {
		d.Bad = true
		return 0, false
	}
	return int(n - 1), n > 0
}

func encodeUsage(e *stamp.Codec, u *UsageTotals) {
	for _, f := range []float64{u.TokensIn, u.TokensOut, u.CacheRead, u.CacheWrite, u.Cost, u.Unpriced} {
		e.Float(f)
	}
}

func decodeUsage(d *stamp.Codec, u *UsageTotals) {
	for _, f := range []*float64{&u.TokensIn, &u.TokensOut, &u.CacheRead, &u.CacheWrite, &u.Cost, &u.Unpriced} {
		*f = d.ReadFloat()
	}
}

func encodeTotals(e *stamp.Codec, t *Totals) {
	for _, n := range []int{t.Messages, t.UserMessages, t.AssistantMessages, t.ToolResults, t.ToolCalls, t.Errors, t.Aborts} {
		e.Int(int64(n))
	}
	encodeUsage(e, &t.UsageTotals)
	e.Int(int64(t.Active))
}

func decodeTotals(d *stamp.Codec, t *Totals) {
	for _, n := range []*int{&t.Messages, &t.UserMessages, &t.AssistantMessages, &t.ToolResults, &t.ToolCalls, &t.Errors, &t.Aborts} {
		*n = int(d.ReadInt())
	}
	decodeUsage(d, &t.UsageTotals)
	t.Active = time.Duration(d.ReadInt())
}

// statsZone tells local time zones apart, since a session's days are its
// entries' local days: a hash of the zone's name and its offsets at the
// start and middle of each year from 1970 to 2050. Bytes made in another
// zone are read as none.
func statsZone() uint64 {
	loc := time.Local
	zoneMu.Lock()
	defer zoneMu.Unlock()
	if loc == zoneOf {
		return zone
	}
	h := fnv.New64a()
	h.Write([]byte(loc.String()))
	for y := 1970; y <= 2050; y++ {
		for _, m := range []time.Month{time.January, time.July} {
			name, off := time.Date(y, m, 1, 0, 0, 0, 0, loc).Zone()
			h.Write([]byte{byte(off >> 24), byte(off >> 16), byte(off >> 8), byte(off)})
			h.Write([]byte(name))
		}
	}
	zoneOf, zone = loc, h.Sum64()
	return zone
}

// The last zone hashed (time.Local is a variable: a test may set it).
var (
	zoneMu sync.Mutex
	zoneOf *time.Location
	zone   uint64
)
