// Writes Dhara 0.5 session files with Dhara's own SessionManager (v0.5.4,
// transpiled verbatim), appending what agent-loop.ts appends.
const RealDate = Date;
let clock = RealDate.parse("2026-05-17T09:12:03.120Z");
class FakeDate extends RealDate {
  constructor(...a) { super(...(a.length ? a : [clock])); }
  static now() { return clock; }
}
globalThis.Date = FakeDate;
const tick = (ms) => { clock += ms; };
const uuids = ["3f2b8c1e-9a4d-4e6b-8f0a-5c7d2e1b9a46", "b7e0d5a2-1c3f-4d8e-9b6a-0f4e2c8d7a13", "0c9d4e7f-6b2a-4f1e-8d3c-a5b6e9f0c2d8"];
crypto.randomUUID = () => uuids.shift();
const { SessionManager } = await import("./session-manager.js");
const sm = new SessionManager({ storageDir: process.argv[2] });
const model = { id: "claude-sonnet-4-20250514", provider: "anthropic" };

// 1. linear: a REPL session (repl.ts:113 creates it with cwd and model).
{
  const s = sm.create({ cwd: "/home/ana/src/skein", model });
  tick(4210);
  const user = (text) => { tick(1500); return s.append({ role: "user", content: [{ type: "text", text }] }); };
  const assistant = (content, toolCalls, usage, reasoningContent) => { tick(2300); return s.append({
    role: "assistant", content, toolCalls, reasoningContent,
    metadata: usage ? { tokenCount: { input: usage[0], output: usage[1] } } : undefined }); };
  const result = (call, res) => { tick(40); return s.append({ role: "tool_result", content: res.content,
    toolCallId: call.id, toolName: call.name, isError: res.isError }); };
  user("What does main.go do? Keep it short.");
  const c1 = { id: "toolu_01Hq8VwXr3pZ", name: "read", input: { path: "main.go" } };
  assistant([{ type: "text", text: "Let me read it." }], [c1], [1830, 52]);
  result(c1, { content: [{ type: "text", text: "package main\n\nimport \"os\"\n\nfunc main() { os.Exit(run(os.Args[1:])) }" }] });
  const c2 = { id: "toolu_01Bz7KmNq2Ts", name: "bash", input: { command: "go build ./... && echo ok" } };
  const c3 = { id: "toolu_01Wd4LcYp9Fe", name: "read", input: { path: "run.go", offset: 1, limit: 40 } };
  assistant([], [c2, c3], [2011, 97]);
  result(c2, { content: [{ type: "text", text: "ok" }] });
  result(c3, { content: [{ type: "text", text: "File not found: run.go. ENOENT: no such file or directory, open '/home/ana/src/skein/run.go'" }], isError: true });
  assistant([{ type: "text", text: "main.go calls run with the arguments and exits with its code; run is not in run.go." }], undefined, [2290, 41], "The user wants brevity. run is defined elsewhere.");
  tick(60000);
  user("Thanks. Where is run then?");
  assistant([{ type: "thinking", text: "Probably cli.go." }, { type: "text", text: "In cli.go, most likely." }], undefined, undefined);
}
// 2. branched: forks made through the API (Session.fork, session.ts:174).
{
  const s = sm.create({ cwd: "/home/ana/src/skein", model: { id: "deepseek-chat", provider: "deepseek" } });
  tick(1000);
  const u1 = s.append({ role: "user", content: [{ type: "text", text: "Write a Go function that reverses a slice." }] });
  tick(3100);
  const a1 = s.append({ role: "assistant", content: [{ type: "text", text: "func Reverse(s []int) { for i, j := 0, len(s)-1; i < j; i, j = i+1, j-1 { s[i], s[j] = s[j], s[i] } }" }], metadata: { tokenCount: { input: 120, output: 48 } } });
  tick(20000);
  s.append({ role: "user", content: [{ type: "text", text: "Now in Rust." }] });
  tick(2500);
  s.append({ role: "assistant", content: [{ type: "text", text: "fn reverse(s: &mut [i32]) { s.reverse() }" }], metadata: { tokenCount: { input: 190, output: 20 } } });
  tick(30000);
  s.fork(a1.id, "generics");
  tick(5000);
  s.append({ role: "user", content: [{ type: "text", text: "Make it generic." }] });
  tick(2000);
  const call = { id: "call_00_kq1", name: "write", input: { path: "reverse.go", content: "package x\n" } };
  s.append({ role: "assistant", content: [], toolCalls: [call], metadata: { tokenCount: { input: 210, output: 60 } } });
  tick(30);
  s.append({ role: "tool_result", content: [{ type: "text", text: "Wrote 10 bytes to reverse.go" }], toolCallId: call.id, toolName: call.name, isError: undefined });
  tick(1800);
  s.append({ role: "assistant", content: [{ type: "text", text: "func Reverse[T any](s []T) — written to reverse.go." }], metadata: { tokenCount: { input: 260, output: 18 } } });
  tick(40000);
  s.fork(u1.id);
  tick(3000);
  s.append({ role: "assistant", content: [{ type: "text", text: "Use slices.Reverse from the standard library." }] });
}
// 3. a session just created: create() saves the meta line at once.
{
  tick(3600000);
  sm.create({ cwd: "/tmp/empty" });
}
