package model

import (
	"reflect"
	"testing"
)

func TestStartContext(t *testing.T) {
	var l Links
	l.SetParents([]int32{-1, 0, 1, 0})
	for _, leaf := range []int{-1, 4} {
		ctx, ok := l.PathContext(leaf)
		if ok || ctx.Path != nil || ctx.Compaction != -1 {
			t.Errorf("PathContext(%d) = %+v, %v; want an empty context, false", leaf, ctx, ok)
		}
	}
	ctx, ok := l.PathContext(2)
	if !ok || !reflect.DeepEqual(ctx.Path, []int{0, 1, 2}) || ctx.Compaction != -1 {
		t.Errorf("PathContext(2) = %+v, %v; want the path 0 1 2, true", ctx, ok)
	}
	ctx, ok = StartContext(3, 4, l.Parent)
	if !ok || !reflect.DeepEqual(ctx.Path, []int{0, 3}) || ctx.Compaction != -1 {
		t.Errorf("StartContext(3) = %+v, %v; want the path 0 3, true", ctx, ok)
	}
	if ctx, ok := StartContext(4, 4, l.Parent); ok || ctx.Path != nil || ctx.Compaction != -1 {
		t.Errorf("StartContext(4) = %+v, %v; want an empty context, false", ctx, ok)
	}
}

func TestOnePerEntry(t *testing.T) {
	kinds := []EntryKind{EntryMessage, EntryCompaction, EntryLabel, EntryMessage}
	kind := func(i int) EntryKind { return kinds[i] }
	for _, summaries := range []bool{true, false} {
		var ctx Context
		ctx.OnePerEntry([]int{0, 1, 2, 3}, kind, summaries)
		msgs := []ContextMessage{{Entry: 0}, {Entry: 1, Kind: KindCompactionSummary}, {Entry: 3}}
		entries := []Projected{{0, 0, 1}, {1, 1, 1}, {2, 2, 0}, {3, 2, 1}}
		if !summaries {
			msgs = []ContextMessage{{Entry: 0}, {Entry: 3}}
			entries = []Projected{{0, 0, 1}, {1, 1, 0}, {2, 1, 0}, {3, 1, 1}}
		}
		if !reflect.DeepEqual(ctx.Messages, msgs) || !reflect.DeepEqual(ctx.Entries, entries) {
			t.Errorf("summaries %v: messages %+v entries %+v; want %+v %+v", summaries, ctx.Messages, ctx.Entries, msgs, entries)
		}
	}
}

func TestPathTo(t *testing.T) {
	parents := []int{-1, 0, 1, 7, 5, 4}
	parent := func(i int) int { return parents[i] }
	for _, c := range []struct {
		leaf int
		want []int
	}{
		{2, []int{0, 1, 2}},
		{0, []int{0}},
		{-1, nil},
		{6, nil},
		{3, []int{3}},                   // a parent that is no entry ends the walk
		{5, []int{5, 4, 5, 4, 5, 4, 5}}, // a cycle: n+1 steps
	} {
		if got := PathTo(c.leaf, len(parents), parent); !reflect.DeepEqual(got, c.want) {
			t.Errorf("PathTo(%d) = %v, want %v", c.leaf, got, c.want)
		}
	}
}
