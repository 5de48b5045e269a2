package copilot

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"skein/internal/formattest"
)

// systemRebuilt names the resumes whose system prompt Copilot made anew
// rather than read from the log, with why: the test checks that the
// stored one differs (take the resume off the list once it does not) and
// compares the rest.
var systemRebuilt = map[string]string{
	"compact/resume-request.json": "after a compaction Copilot's prompt lists the checkpoint it wrote; the resume sends that prompt and only then logs it as a new system.message",
}

type agentgenSteps struct {
	Session string
	Steps   []formattest.Step
}

// TestAgentgenContext checks that the context skein builds at the end of
// a session's events, cut to the lines they had when a resume began, is
// the messages Copilot CLI sent in that resume's first request, less the
// user message the resume added: the same JSON values, the system prompt
// and the tool calls' argument strings included.
func TestAgentgenContext(t *testing.T) {
	for _, sc := range scenarios(t) {
		dir := filepath.Join(fixturesDir, sc)
		var steps agentgenSteps
		readJSON(t, filepath.Join(dir, "steps.json"), &steps)
		var resumes []int
		for k, st := range steps.Steps {
			if len(st.Args) > 0 && strings.HasPrefix(st.Args[0], "--resume=") {
				resumes = append(resumes, k)
			}
		}
		for n, k := range resumes {
			file := formattest.ResumeRequest(n, len(resumes))
			t.Run(sc+"/"+file, func(t *testing.T) {
				lines := steps.Steps[k-1].Lines[steps.Session]
				_, rebuilt := systemRebuilt[sc+"/"+file]
				if diff := agentgenDiff(t, scenarioFolder(t, sc), filepath.Join(dir, file), lines, rebuilt); diff != "" {
					t.Error(diff)
				}
			})
		}
	}
}

// agentgenDiff is the first difference between the context skein writes
// for the session's first lines events and the request's messages less
// the last; "" when they are equal.
func agentgenDiff(t *testing.T, folder, request string, lines int, rebuilt bool) string {
	t.Helper()
	cut, _ := formattest.Cut(formattest.ReadFile(t, filepath.Join(folder, EventsFile)), lines)
	s, err := Parse(cut)
	if err != nil {
		t.Fatal(err)
	}
	var got, want struct{ Messages []any }
	formattest.LeafContextJSON(t, s, &got)
	readJSON(t, request, &want)
	if len(want.Messages) == 0 {
		t.Fatal("no messages in the request")
	}
	want.Messages = want.Messages[:len(want.Messages)-1]
	if rebuilt {
		if len(got.Messages) == 0 || len(want.Messages) == 0 {
			return "no system message"
		}
		if reflect.DeepEqual(got.Messages[0], want.Messages[0]) {
			return "the system prompt is now the stored one: take the resume off systemRebuilt"
		}
		got.Messages, want.Messages = got.Messages[1:], want.Messages[1:]
	}
	return formattest.FirstDiff("message", want.Messages, got.Messages, 400)
}
