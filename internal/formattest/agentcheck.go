package formattest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"testing"
)

// Steps are an agent's fixtures under testdata/agentgen (AgentgenDir),
// each scenario listing the agent's runs in its steps.json; S is what a
// format's test reads of a step.
type Steps[S any] struct{ Dir string }

// AgentgenSteps are agent's fixtures, their steps read as S.
func AgentgenSteps[S any](agent string) Steps[S] { return Steps[S]{AgentgenDir(agent)} }

// Scenarios are the fixtures' scenarios with their steps, in name order
// (StepScenarios); the test ends when there is none.
func (a Steps[S]) Scenarios(t testing.TB) []Scenario[S] {
	t.Helper()
	return StepScenarios[S](t, a.Dir)
}

// CallsAnswered fails the test for each tool call of msgs (a
// []model.Message, each asked its ToolCalls, whose ID and Name are read by
// their fields' names) that pairs (model.PairTools(msgs)) gives no
// result, and returns the calls' ids in order.
func CallsAnswered(t testing.TB, msgs any, pairs map[string]int) []string {
	t.Helper()
	v := reflect.ValueOf(msgs)
	var ids []string
	for k := range v.Len() {
		calls := v.Index(k).Addr().MethodByName("ToolCalls").Call(nil)[0]
		for j := range calls.Len() {
			c := calls.Index(j)
			id := c.FieldByName("ID").String()
			ids = append(ids, id)
			if _, ok := pairs[id]; !ok {
				t.Errorf("call %s %s has no result", id, c.FieldByName("Name").String())
			}
		}
	}
	return ids
}

// OpenAIStats fails the test unless the tokens of st (a model.Stats, read
// by its fields' names) are what the fake server reported in usage.json
// at path (OpenAIUsage: in, read from the cache, out) and, when calls is
// not below zero, its tool calls are calls.
func OpenAIStats(t testing.TB, st any, path string, calls int) {
	t.Helper()
	in, cached, out := OpenAIUsage(t, path)
	v := reflect.ValueOf(st)
	sin, scached, sout := v.FieldByName("TokensIn").Float(), v.FieldByName("CacheRead").Float(), v.FieldByName("TokensOut").Float()
	if sin != in || scached != cached || sout != out {
		t.Errorf("stats tokens in %v cached %v out %v, server %v %v %v", sin, scached, sout, in, cached, out)
	}
	if n := int(v.FieldByName("ToolCalls").Int()); calls >= 0 && n != calls {
		t.Errorf("stats %d calls, history %d", n, calls)
	}
}

// LeafContextJSON decodes into v what s (a format's session) writes of
// its context at its leaf (WriteContextJSON), or ends the test: what the
// agentgen tests hold against the messages the agent sent when it resumed.
func LeafContextJSON[C any](t testing.TB, s interface {
	Leaf() int
	BuildContext(leaf int) C
	WriteContextJSON(w io.Writer, ctx C) error
}, v any) {
	t.Helper()
	var buf bytes.Buffer
	if err := s.WriteContextJSON(&buf, s.BuildContext(s.Leaf())); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(buf.Bytes(), v); err != nil {
		t.Fatalf("context JSON: %v\n%s", err, buf.Bytes())
	}
}

// ResultsFollowCalls fails the test unless each tool call of msgs (a
// []model.Message: its ToolCalls, Role and ToolCallID read by name) is
// answered by a message of role result (model.RoleToolResult) before the
// next message of another role, and each result answers a call still
// open: how an agent that sends its history as it stands (OpenAI's and
// Anthropic's APIs) must find it.
func ResultsFollowCalls(t testing.TB, msgs any, result string) {
	t.Helper()
	v := reflect.ValueOf(msgs)
	open := map[string]bool{}
	for k := range v.Len() {
		m := v.Index(k)
		if m.FieldByName("Role").String() == result {
			id := m.FieldByName("ToolCallID").String()
			if !open[id] {
				t.Errorf("result %q answers no open call", id)
			}
			delete(open, id)
			continue
		}
		if len(open) > 0 {
			t.Errorf("calls without a result before message %d: %v", k, open)
		}
		calls := m.Addr().MethodByName("ToolCalls").Call(nil)[0]
		for j := range calls.Len() {
			open[calls.Index(j).FieldByName("ID").String()] = true
		}
	}
	if len(open) > 0 {
		t.Errorf("calls without a result: %v", open)
	}
}

// Messages are the messages of ctx (a model.Context, its Messages read by
// name) as s (a format's session) gives them.
func Messages[CM, M any](s interface{ Message(m CM) M }, ctx any) []M {
	v := reflect.ValueOf(ctx).FieldByName("Messages")
	var out []M
	for k := range v.Len() {
		out = append(out, s.Message(v.Index(k).Interface().(CM)))
	}
	return out
}

// A Step is one run of an agent in a scenario's steps.json: the run's
// arguments, its exit status, the session it wrote, the numbers of the
// requests it sent (in requests.jsonl), and Lines, how many lines each
// file it writes had at the run's end, which steps.json names after what
// the agent writes (files, wires, chats, messages, rollouts).
type Step struct {
	Args     []string
	Exit     int
	Session  string
	Requests []int
	Lines    map[string]int
}

// UnmarshalJSON reads a step of steps.json, its one object member, under
// whatever name, as Lines.
func (s *Step) UnmarshalJSON(data []byte) error {
	var known struct {
		Args     []string
		Exit     int
		Session  string
		Requests []int
	}
	var members map[string]json.RawMessage
	if err := json.Unmarshal(data, &known); err != nil {
		return err
	}
	if err := json.Unmarshal(data, &members); err != nil {
		return err
	}
	*s = Step{Args: known.Args, Exit: known.Exit, Session: known.Session, Requests: known.Requests}
	for name, v := range members {
		if v = bytes.TrimSpace(v); len(v) == 0 || v[0] != '{' {
			continue
		}
		if s.Lines != nil {
			return fmt.Errorf("step: two objects of lines, %s and another", name)
		}
		if err := json.Unmarshal(v, &s.Lines); err != nil {
			return fmt.Errorf("step's %s: %w", name, err)
		}
	}
	return nil
}
