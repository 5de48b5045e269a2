// The scenarios gen.mjs runs, in order. Each is one OpenCode session: steps
// are `opencode run` runs (the first starts the session, the others resume
// it with --session ID or --continue), each with the replies the fake
// server gives to its requests, in order. A reply goes to the main agent
// unless its `who` says "sub" (the task tool's sub-agent) or "compress";
// the title request each new session makes is answered by the server itself.
import { say, call, usage } from "./server.mjs";

const bash = (id, command) => call(id, "bash", { command, description: command });

export const scenarios = [
  {
    name: "plain",
    about: "one plain turn (text only), then a resume (--session ID) with another plain turn",
    files: { "README.md": "# demo\n" },
    steps: [
      { prompt: "Say hello.", replies: [{ text: "Hello! How can I help with this project?", usage: usage(1200, 12) }] },
      { resume: true, prompt: "What did I ask you before?", replies: [{ text: "You asked me to say hello.", usage: usage(1260, 9, 1152) }] },
    ],
  },
  {
    name: "parallel",
    about: "two bash calls in one response: one that sleeps and succeeds, one that fails (exit 1); then a resume with --continue",
    files: { "a.txt": "alpha\n" },
    steps: [
      {
        prompt: "Show me a.txt and c.txt.",
        replies: [
          { text: "I'll read both files at once.", calls: [bash("call_par_a", "sleep 0.5; cat a.txt"), bash("call_par_c", "cat c.txt")], usage: usage(2400, 95) },
          { text: "a.txt holds `alpha`; c.txt does not exist.", usage: usage(2700, 22, 2304) },
        ],
      },
      { resume: "continue", prompt: "Which file was missing?", replies: [{ text: "c.txt was missing.", usage: usage(2760, 6, 2688) }] },
    ],
  },
  {
    name: "thinking",
    about: "reasoning_content before a call and before the answer (reasoning parts), reasoning tokens in the usage; then a resume",
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
    about: "the task tool starts a general sub-agent (a child session) that runs a command and answers; the parent answers; then a resume of the parent",
    files: { "x.txt": "hello from x\n" },
    steps: [
      {
        prompt: "Ask a helper to read x.txt.",
        replies: [
          { calls: [call("call_spawn", "task", { description: "Read x.txt", prompt: "Read x.txt and tell me what it says.", subagent_type: "general" })], usage: usage(3000, 30) },
          { who: "sub", calls: [bash("call_sub_cat", "cat x.txt")], usage: usage(2000, 15) },
          { who: "sub", text: "x.txt says: hello from x", usage: usage(2100, 9, 1920) },
          { text: "The helper says x.txt holds `hello from x`.", usage: usage(3200, 12, 2944) },
        ],
      },
      { resume: true, prompt: "What did the helper find?", replies: [{ text: "That x.txt says hello from x.", usage: usage(3300, 10, 3200) }] },
    ],
  },
];
