// The scenarios gen.mjs runs, in order. Each is one Cline session: the first
// step is `cline --json PROMPT` (the CLI's non-interactive mode), each later
// step a resume of it through `cline --acp` (session/load, then
// session/prompt: the CLI's --id resume is interactive only). A step lists
// the replies the fake server gives to its requests, in order; a reply goes
// to the main agent unless its `who` says "sub" (a spawn_agent sub-agent's
// request: server.mjs's whoOf tells them apart by the system prompt).
import { say, call, usage } from "./server.mjs";

const cmds = (id, ...commands) => call(id, "run_commands", { commands });
const read = (id, ...paths) => call(id, "read_files", { files: paths.map((path) => ({ path })) });

export const scenarios = [
  {
    name: "plain",
    about: "one plain turn (text only), then a resume with another plain turn",
    files: { "README.md": "# demo\n" },
    steps: [
      { prompt: "Say hello.", replies: [{ text: "Hello! How can I help with this project?", usage: usage(1200, 12) }] },
      { resume: true, prompt: "What did I ask you before?", replies: [{ text: "You asked me to say hello.", usage: usage(1260, 9, 1152) }] },
    ],
  },
  {
    name: "parallel",
    about: "two calls in one response: run_commands with a command that sleeps and one that fails (exit 1), read_files of a file that exists and one that does not; then a resume",
    files: { "a.txt": "alpha\n", "b.txt": "bravo\n" },
    steps: [
      {
        prompt: "Show me a.txt, c.txt and d.txt.",
        replies: [
          {
            text: "I'll look at the files at once.",
            calls: (body, proj) => [cmds("call_par_cmd", "sleep 0.5; cat a.txt", "cat c.txt"), read("call_par_read", `${proj}/b.txt`, `${proj}/d.txt`)],
            usage: usage(2400, 95),
          },
          { text: "a.txt holds `alpha`, b.txt `bravo`; c.txt and d.txt do not exist.", usage: usage(2700, 22, 2304) },
        ],
      },
      { resume: true, prompt: "Which files were missing?", replies: [{ text: "c.txt and d.txt were missing.", usage: usage(2760, 6, 2688) }] },
    ],
  },
  {
    name: "thinking",
    about: "reasoning_content before a call and before the answer, reasoning tokens in the usage; then a resume",
    files: { "notes.md": "remember the milk\n" },
    steps: [
      {
        prompt: "What is in notes.md?",
        replies: [
          { thinking: "The user wants the contents of notes.md. I should cat the file.", calls: [cmds("call_th_cat", "cat notes.md")], usage: usage(1500, 60, 0, 40) },
          { thinking: "The file has one line.", text: "notes.md says: remember the milk.", usage: usage(1700, 30, 1408, 18) },
        ],
      },
      { resume: true, prompt: "Thanks. Anything else in it?", replies: [{ thinking: "Checking what I saw.", text: "No, just that one line.", usage: usage(1800, 20, 1664, 10) }] },
    ],
  },
  {
    name: "subagent",
    about: "spawn_agent starts a sub-agent that runs a command and answers; the parent answers with what it found; then a resume of the parent",
    files: { "x.txt": "hello from x\n" },
    steps: [
      {
        prompt: "Ask a helper to read x.txt.",
        replies: [
          { calls: [call("call_spawn", "spawn_agent", { systemPrompt: "You are a helper that reads files.", task: "Read x.txt and tell me what it says." })], usage: usage(3000, 30) },
          { who: "sub", calls: [cmds("call_sub_cat", "cat x.txt")], usage: usage(2000, 15) },
          { who: "sub", text: "x.txt says: hello from x", usage: usage(2100, 9, 1920) },
          { text: "The helper says x.txt holds: hello from x", usage: usage(3200, 12, 3072) },
        ],
      },
      { resume: true, prompt: "What did the helper find?", replies: [{ text: "That x.txt says hello from x.", usage: usage(3300, 9, 3200) }] },
    ],
  },
];
