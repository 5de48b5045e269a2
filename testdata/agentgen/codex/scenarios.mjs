// The scenarios gen.mjs runs, in order. Each is one Codex session: steps are
// `codex exec` runs (the first starts the session, the others resume it), each
// with the replies the fake server gives to its requests, in order.
import { say, call, think, usage } from "./server.mjs";

export const scenarios = [
  {
    name: "plain",
    about: "one plain turn (text only) in a project with an AGENTS.md, then a resume with another plain turn",
    files: { "README.md": "# demo\n", "AGENTS.md": "# Rules\n\nAnswer in one short sentence.\n" },
    steps: [
      { prompt: "Say hello.", replies: [{ items: [say("Hello! How can I help with this project?")], usage: usage(1200, 0, 12) }] },
      { resume: "main", prompt: "What did I ask you before?", replies: [{ items: [say("You asked me to say hello.")], usage: usage(1260, 1152, 9) }] },
    ],
  },
  {
    name: "parallel",
    about: "three exec_command calls in one response, finishing out of order (the first sleeps), one of them failing (exit 1); the outputs go back in the next request; then a resume",
    files: { "a.txt": "alpha\n", "b.txt": "bravo\n" },
    steps: [
      {
        prompt: "Show me a.txt, b.txt and c.txt.",
        replies: [
          {
            items: [
              say("I'll read the three files at once."),
              call("call_par_a", "sleep 0.8; cat a.txt"),
              call("call_par_b", "cat b.txt"),
              call("call_par_c", "cat c.txt"),
            ],
            usage: usage(2400, 0, 95),
          },
          { items: [say("a.txt holds `alpha`, b.txt holds `bravo`, and c.txt does not exist.")], usage: usage(2700, 2304, 22) },
        ],
      },
      { resume: "main", prompt: "Which file was missing?", replies: [{ items: [say("c.txt was missing.")], usage: usage(2760, 2688, 6) }] },
    ],
  },
  {
    name: "tool-errors",
    about: "calls that fail in different ways, all in one response: a command exiting 3, a command not found, an unknown tool, arguments that are not JSON; then a resume",
    files: {},
    steps: [
      {
        prompt: "Try these commands.",
        replies: [
          {
            items: [
              call("call_err_exit", "echo to stderr >&2; exit 3"),
              call("call_err_nf", "no-such-command --flag"),
              { type: "function_call", name: "no_such_tool", call_id: "call_err_tool", arguments: "{}" },
              { type: "function_call", name: "exec_command", call_id: "call_err_args", arguments: "{not json" },
            ],
            usage: usage(2000, 0, 80),
          },
          { items: [say("All four calls failed, each in its own way.")], usage: usage(2500, 1920, 11) },
        ],
      },
      { resume: "main", prompt: "Why did the first fail?", replies: [{ items: [say("It exited with status 3.")], usage: usage(2560, 2432, 8) }] },
    ],
  },
  {
    name: "server-errors",
    about: "a plain turn; a resume answered by HTTP 400 with an OpenAI error body (the message real rollouts hold); a resume answered by text then response.failed; a resume that works, whose request shows what the failed turns left in the context",
    files: {},
    steps: [
      { prompt: "Hello?", replies: [{ items: [say("Hello.")], usage: usage(1000, 0, 3) }] },
      {
        resume: "main",
        prompt: "Hello again?",
        fails: true,
        replies: [{ status: 400, error: { message: "'developer' is not one of ['system', 'assistant', 'user', 'function'] - 'messages.0.role'", type: "invalid_request_error", param: null, code: null } }],
      },
      {
        resume: "main",
        prompt: "Are you there?",
        fails: true,
        replies: [{ items: [say("I was about to answer when")], failed: { code: "server_error", message: "The server had an error while processing your request." } }],
      },
      { resume: "main", prompt: "Last try.", replies: [{ items: [say("I am here.")], usage: usage(1100, 960, 4) }] },
    ],
  },
  {
    name: "reasoning",
    about: "a reasoning item (summary, raw reasoning text, encrypted content) before a call, another before the answer; then a resume",
    files: { "notes.md": "remember the milk\n" },
    steps: [
      {
        prompt: "What is in notes.md?",
        replies: [
          { items: [think("**Reading the notes**\n\nThe user wants the contents of notes.md.", "I should cat the file."), call("call_rs_cat", "cat notes.md")], usage: usage(1500, 0, 60, 40) },
          { items: [think("**Answering**\n\nThe file has one line."), say("notes.md says: remember the milk.")], usage: usage(1700, 1408, 30, 18) },
        ],
      },
      { resume: "main", prompt: "Thanks. Anything else in it?", replies: [{ items: [think("**Checking**"), say("No, just that one line.")], usage: usage(1800, 1664, 20, 10) }] },
    ],
  },
  {
    name: "resume-twice",
    about: "a turn, a resume, and a resume of that resume (resume-1-request.json, then resume-request.json)",
    files: {},
    steps: [
      { prompt: "Count: one.", replies: [{ items: [say("one")], usage: usage(1000, 0, 1) }] },
      { resume: "main", prompt: "Count: two.", replies: [{ items: [say("two")], usage: usage(1020, 896, 1) }] },
      { resume: "main", prompt: "Count: three.", replies: [{ items: [say("three")], usage: usage(1040, 1024, 1) }] },
    ],
  },
  {
    name: "fork",
    about: "a turn with a call, `codex exec fork` of it into a new session (fork-request.json), then a resume of the fork",
    files: { "x.txt": "x marks the spot\n" },
    steps: [
      {
        prompt: "Read x.txt.",
        replies: [
          { items: [call("call_fk_cat", "cat x.txt")], usage: usage(1500, 0, 20) },
          { items: [say("x.txt says: x marks the spot.")], usage: usage(1600, 1408, 9) },
        ],
      },
      { fork: "main", as: "fork", prompt: "In this fork: what did the file say?", replies: [{ items: [say("It said: x marks the spot.")], usage: usage(1650, 1536, 8) }] },
      { resume: "fork", prompt: "And still in the fork?", replies: [{ items: [say("Still: x marks the spot.")], usage: usage(1700, 1664, 6) }] },
    ],
  },
  {
    name: "retry",
    about: "stream_max_retries = 1: the first response fails (response.failed, server_error) and Codex retries once, which works; what the rollout records of the retry",
    config: "",
    provider: { stream_max_retries: 1, request_max_retries: 1 },
    files: {},
    steps: [
      {
        prompt: "Hi.",
        replies: [
          { items: [], failed: { code: "server_error", message: "The server had an error while processing your request." } },
          { items: [say("Hi there.")], usage: usage(1000, 0, 3) },
        ],
      },
      { resume: "main", prompt: "Again.", replies: [{ status: 500, error: { message: "Internal error", type: "server_error", param: null, code: null } }, { items: [say("Again, hi.")], usage: usage(1050, 896, 3) }] },
    ],
  },
  {
    name: "compact",
    about: "model_auto_compact_token_limit = 3000 and a first turn reporting 5000 input tokens: the resume compacts before its turn (the summary comes from the fake server), then a resume after the compaction",
    config: "model_auto_compact_token_limit = 3000\n",
    files: {},
    steps: [
      { prompt: "Tell me a long story.", replies: [{ items: [say("Once upon a time there was a parser.")], usage: usage(5000, 0, 900) }] },
      {
        resume: "main",
        prompt: "And then?",
        replies: [
          { items: [say("SUMMARY: the user asked for a long story; the assistant began one about a parser.")], usage: usage(5200, 4096, 40) },
          { items: [say("And then the parser met a lexer.")], usage: usage(800, 0, 10) },
        ],
      },
      { resume: "main", prompt: "The end?", replies: [{ items: [say("The end.")], usage: usage(850, 768, 3) }] },
    ],
  },
  {
    name: "subagent",
    about: "spawn_agent (multi_agent_v1) starts a sub-agent that runs a command and answers; wait_agent waits for it; then a resume of the parent",
    subagents: true,
    files: { "x.txt": "hello from x\n" },
    steps: [
      {
        prompt: "Ask a helper to read x.txt.",
        replies: [
          { items: [{ type: "function_call", namespace: "multi_agent_v1", name: "spawn_agent", call_id: "call_spawn", arguments: JSON.stringify({ message: "Read x.txt and tell me what it says." }) }], usage: usage(3000, 0, 30) },
          { agent: "sub", items: [call("call_sub_cat", "cat x.txt")], usage: usage(2000, 0, 15) },
          { agent: "sub", items: [say("x.txt says: hello from x")], usage: usage(2100, 1920, 9) },
          { items: (body) => [{ type: "function_call", namespace: "multi_agent_v1", name: "wait_agent", call_id: "call_wait", arguments: JSON.stringify({ targets: [spawnedId(body)], timeout_ms: 30000 }) }], usage: usage(3100, 2944, 20) },
          { items: [say("The helper says x.txt holds: hello from x")], usage: usage(3200, 3072, 12) },
        ],
      },
      { resume: "main", prompt: "What did the helper find?", replies: [{ items: [say("That x.txt says hello from x.")], usage: usage(3300, 3200, 9) }] },
    ],
  },
];

// spawnedId is the agent id in the output of the spawn_agent call.
function spawnedId(body) {
  const out = body.input.find((i) => i.type === "function_call_output" && i.call_id === "call_spawn");
  if (!out) return "missing";
  const text = typeof out.output === "string" ? out.output : JSON.stringify(out.output);
  try {
    const o = JSON.parse(text);
    return o.agent_id ?? o.id ?? text;
  } catch {
    return text;
  }
}
