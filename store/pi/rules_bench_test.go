package pi

import (
	"os"
	"testing"

	"skein/internal/formattest"
	"skein/model"
)

// bigData is the bytes of the 100 MB benchmark session (bigSession).
func bigData(b *testing.B) []byte {
	data, err := os.ReadFile(bigSession(b))
	if err != nil {
		b.Fatal(err)
	}
	return data
}

// BenchmarkContext is the context target: open a 100 MB session, build the
// context at its leaf and write it as JSON. pi takes about 7 s and 950 MB.
func BenchmarkContext(b *testing.B) { benchContext(b, bigData(b)) }

// BenchmarkParse is opening alone.
func BenchmarkParse(b *testing.B) {
	data := bigData(b)
	formattest.Throughput(b, int64(len(data)), func() error {
		_, err := Parse(data)
		return err
	})
}

// BenchmarkTreeApply is a fold or a filter change in the tree of a 100 MB
// session: the visible rows laid out again (it was 265 ms, with maps by
// entry and each assistant message's JSON read again at every change).
func BenchmarkTreeApply(b *testing.B) {
	s, err := Parse(bigData(b))
	if err != nil {
		b.Fatal(err)
	}
	v := s.Domain(model.SessionInfo{}).NewTreeView(s.Leaf(), model.FilterDefault)
	b.ResetTimer()
	for b.Loop() {
		v.Apply()
	}
}

// BenchmarkTreeView is laying out the tree of a 100 MB session when it
// opens (in the load's goroutine): 440 ms before each assistant message was
// read once and blank text told without decoding it.
func BenchmarkTreeView(b *testing.B) {
	s, err := Parse(bigData(b))
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		s.Domain(model.SessionInfo{}).NewTreeView(s.Leaf(), model.FilterDefault)
	}
}
