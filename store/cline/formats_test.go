package cline_test

import (
	"path/filepath"
	"testing"

	"skein/store"
	"skein/store/cline"
	_ "skein/store/formats" // every format, as the list finds them
)

// TestListedAmongAllFormats: with every format registered, a fixture's
// session folder lists as one Cline session (its manifest and sub-agents'
// files are parts of it), whose resume is cline --id. The lead's and the
// sub-agent's messages files named: one session (the sub-agent's a part).
func TestListedAmongAllFormats(t *testing.T) {
	root := "../../testdata/agentgen/cline/fixtures/subagent/cline-home/data/sessions"
	// Found from the folder as skein finds them under its default roots
	// (store.FileNamer: they are .json files): the lead's messages file,
	// not the sub-agent's, which is a part of its session.
	files, err := store.Discover([]string{root})
	if err != nil || len(files) != 1 || filepath.Base(files[0]) != filepath.Base(filepath.Dir(files[0]))+cline.MessagesSuffix {
		t.Fatalf("discovered %v, %v", files, err)
	}
	infos, problems := store.List(files, nil)
	if len(problems) > 0 || len(infos) != 1 || infos[0].Format != cline.Format || store.AgentOf(infos[0]) != "Cline" {
		t.Fatalf("%+v %v", infos, problems)
	}
	b, err := store.Find(infos[0].Path)
	if err != nil {
		t.Fatal(err)
	}
	name, args := store.ResumeOf(b, infos[0].Path)
	if name != "cline" || len(args) != 2 || args[0] != "--id" || args[1] != infos[0].ID || filepath.Base(infos[0].Path) != infos[0].ID+cline.MessagesSuffix {
		t.Errorf("resume %s %v, path %s", name, args, infos[0].Path)
	}
}
