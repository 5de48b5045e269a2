package omp_test

import (
	"path/filepath"
	"slices"
	"testing"

	"skein/internal/formattest"
	"skein/store"
	_ "skein/store/formats" // every format, as the list finds them
	"skein/store/omp"
)

// TestListedAsOhMyPi: oh-my-pi's folder is a default root; its pi files
// are listed and opened by pi's reader under oh-my-pi's name, and resume
// with omp --session FILE.
func TestListedAsOhMyPi(t *testing.T) {
	t.Setenv("OMP_CODING_AGENT_DIR", "")
	abs, _ := filepath.Abs("../../testdata/omp/omp-home")
	root := filepath.Join(abs, ".omp", "agent", "sessions")
	in := formattest.Listed(t, store.Discover, store.List, store.Env{Home: abs}.DefaultRoots(), root, 1)[0]
	if in.Format != string(omp.Format) || store.AgentOf(in) != "oh-my-pi" || in.Cwd != "/home/dev/webapp" || in.MessageCount == 0 {
		t.Fatalf("%+v (agent %s)", in, store.AgentOf(in))
	}
	b := store.Of(in)
	s, err := b.Open(in.Path)
	if err != nil || s.Info.Format != string(omp.Format) || len(s.BuildContext(s.Leaf()).Messages) == 0 {
		t.Fatalf("%v %+v", err, s)
	}
	if prog, args := store.ResumeOf(b, in.Path); prog != "omp" || !slices.Equal(args, []string{"--session", in.Path}) {
		t.Errorf("resume %s %q", prog, args)
	}
	if !store.AgentIs(b, "omp") || !store.AgentIs(b, "oh-my-pi") {
		t.Error("the agent filter does not name it")
	}
}

func TestSessionsDir(t *testing.T) {
	e := func(p string) string { return p }
	if got := omp.SessionsDir(func(string) string { return "" }, "/h", e); got != "/h/.omp/agent/sessions" {
		t.Error(got)
	}
	if got := omp.SessionsDir(func(string) string { return "/o" }, "/h", e); got != "/o/sessions" {
		t.Error(got)
	}
}
