// The scenarios gen.mjs runs, in order. Each is one Kimi Code session:
// steps are `kimi -p` runs (the first starts the session, the others resume
// it), each with the replies the fake server gives to its requests, in
// order. A reply goes to the main agent unless its `who` says "sub" (a
// sub-agent's request) or "compress" (a compaction's summary request):
// server.mjs's whoOf tells them apart.
import { call, usage } from "./server.mjs";

const bash = (id, command) => call(id, "Bash", { command });

export const scenarios = [
  {
    name: "plain",
    about: "one plain turn (text only) in a project with an AGENTS.md, then a resume (--session ID) with another plain turn",
    files: { "README.md": "# demo\n", "AGENTS.md": "# Rules\n\nAnswer in one short sentence.\n" },
    steps: [
      { prompt: "Say hello.", replies: [{ text: "Hello! How can I help with this project?", usage: usage(1200, 12) }] },
      { resume: true, prompt: "What did I ask you before?", replies: [{ text: "You asked me to say hello.", usage: usage(1260, 9, 1152) }] },
    ],
  },
  {
    name: "parallel",
    about: "three calls in one response: a Bash command that sleeps and finishes last, a Bash command that fails (exit 1), Read of a missing file; then a resume with --continue",
    files: { "a.txt": "alpha\n", "b.txt": "bravo\n" },
    steps: [
      {
        prompt: "Show me a.txt, c.txt and d.txt.",
        replies: [
          {
            text: "I'll read the three files at once.",
            calls: [bash("call_par_a", "sleep 0.8; cat a.txt"), bash("call_par_c", "cat c.txt"), call("call_par_d", "Read", { path: "d.txt" })],
            usage: usage(2400, 95),
          },
          { text: "a.txt holds `alpha`; c.txt and d.txt do not exist.", usage: usage(2700, 22, 2304) },
        ],
      },
      { resume: "continue", prompt: "Which files were missing?", replies: [{ text: "c.txt and d.txt were missing.", usage: usage(2760, 6, 2688) }] },
    ],
  },
  {
    name: "thinking",
    about: "reasoning_content before a call and before the answer (think parts), reasoning tokens in the usage; then a resume",
    files: { "notes.md": "remember the milk\n" },
    steps: [
      {
        prompt: "What is in notes.md?",
        replies: [
          { thinking: "The user wants the contents of notes.md. I should cat the file.", calls: [bash("call_th_cat", "cat notes.md")], usage: usage(1500, 60, 0, 40) },
          { thinking: "The file has one line.", text: "notes.md says: remember the milk.", usage: usage(1700, 30, 1408, 18) },
        ],
      },
      { resume: true, prompt: "Thanks. Anything else in it?", replies: [{ thinking: "Checking what I saw.", text: "No, just that one line.", usage: usage(1800, 20, 1664, 10) }] },
    ],
  },
  {
    name: "subagent",
    about: "the Agent tool runs an explore sub-agent in the foreground that runs a command and answers; the parent answers; then a resume of the parent",
    files: { "x.txt": "hello from x\n" },
    steps: [
      {
        prompt: "Ask a helper to read x.txt.",
        replies: [
          { calls: [call("call_spawn", "Agent", { description: "Read x.txt", prompt: "Read x.txt and tell me what it says.", subagent_type: "explore" })], usage: usage(3000, 30) },
          { who: "sub", calls: [bash("call_sub_cat", "cat x.txt")], usage: usage(2000, 15) },
          { who: "sub", text: "x.txt says: hello from x", usage: usage(2100, 9, 1920) },
          { text: "The helper says x.txt holds `hello from x`.", usage: usage(3200, 12, 2944) },
        ],
      },
      { resume: true, prompt: "Thanks, what did the helper find?", replies: [{ text: "It found `hello from x` in x.txt.", usage: usage(3300, 11, 3200) }] },
    ],
  },
];
