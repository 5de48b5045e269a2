// The scenarios gen.mjs runs, smallest first. Each step is one `copilot -p`
// run (the first starts the session, `resume: true` resumes it with
// --resume=<id>) and the replies the fake server gives it, in order
// (server.mjs says what a reply holds).
import { sleeps } from "../seed.mjs";

const [slow, fast] = sleeps([1, 0]);

export const scenarios = [
  {
    name: "plain",
    about: "one text turn in a project with an AGENTS.md, then a resume",
    files: { "AGENTS.md": "# Notes\n\nAnswer briefly.\n", "hello.txt": "hello\n" },
    steps: [
      { prompt: "Say hello.", replies: [{ text: "Hello! How can I help?", usage: { input: 11000, output: 9 } }] },
      { resume: true, prompt: "Say it again, shorter.", replies: [{ text: "Hello.", usage: { input: 11030, output: 3, cached: 10900 } }] },
    ],
  },
  {
    name: "parallel",
    about: "two bash calls in one response, the first slower and fine, the second failing (exit 3); then a resume",
    files: { "a.txt": "alpha\n" },
    steps: [
      {
        prompt: "Read a.txt and b.txt at once.",
        replies: [
          {
            text: "Reading both files.",
            calls: [
              { name: "bash", args: { command: `sleep ${slow}; cat a.txt`, description: "Read a.txt" } },
              { name: "bash", args: { command: `sleep ${fast}; cat b.txt; exit 3`, description: "Read b.txt" } },
            ],
            usage: { input: 11200, output: 80 },
          },
          { text: "a.txt says alpha; b.txt does not exist.", usage: { input: 11400, output: 14, cached: 11100 } },
        ],
      },
      { resume: true, prompt: "Which one failed?", replies: [{ text: "b.txt: it is missing.", usage: { input: 11500, output: 8, cached: 11300 } }] },
    ],
  },
  {
    name: "reasoning",
    about: "reasoning (delta.reasoning_content) before a tool call and before the answer; reasoning tokens in the usage; then a resume",
    files: { "n.txt": "42\n" },
    steps: [
      {
        prompt: "What number is in n.txt?",
        replies: [
          { reasoning: "The user wants the number. I should read n.txt.", calls: [{ name: "view", args: { path: "$PROJ/n.txt" } }], usage: { input: 11100, output: 40, reasoning: 25 } },
          { reasoning: "The file holds 42.", text: "It is 42.", usage: { input: 11300, output: 20, reasoning: 8, cached: 11000 } },
        ],
      },
      { resume: true, prompt: "And doubled?", replies: [{ reasoning: "42 times 2 is 84.", text: "84.", usage: { input: 11400, output: 12, reasoning: 9, cached: 11200 } }] },
    ],
  },
  {
    name: "subagent",
    about: "a task call starts a general-purpose sub-agent, which runs a command and answers; then a resume of the parent",
    files: { "c.txt": "gamma\n" },
    steps: [
      {
        prompt: "Ask a sub-agent what c.txt holds.",
        replies: [
          { text: "Delegating.", calls: [{ name: "task", args: { description: "Read c.txt", prompt: "Read c.txt in the current directory and say what it holds.", agent_type: "general-purpose", name: "reader" } }], usage: { input: 11300, output: 60 } },
          { agent: "sub", calls: [{ name: "bash", args: { command: "cat c.txt", description: "Read c.txt" } }], usage: { input: 9000, output: 30 } },
          { agent: "sub", text: "c.txt holds gamma.", usage: { input: 9100, output: 8, cached: 8900 } },
          { text: "The sub-agent says c.txt holds gamma.", usage: { input: 11500, output: 12, cached: 11200 } },
        ],
      },
      { resume: true, prompt: "Thanks. Which file was it?", replies: [{ text: "c.txt.", usage: { input: 11600, output: 4, cached: 11400 } }] },
    ],
  },
  {
    name: "compact",
    about: "a small prompt budget (COPILOT_PROVIDER_MAX_PROMPT_TOKENS) and a long tool output start a background compaction in a resumed session (two user messages before it), which finishes while the next reply (a tool call) is held back, so that the turn after it runs on the compacted history; then a resume",
    env: { COPILOT_PROVIDER_MAX_PROMPT_TOKENS: "19000" },
    steps: [
      { prompt: "Say hi first.", replies: [{ text: "Hi.", usage: { input: 11000, output: 2 } }] },
      {
        resume: true,
        prompt: "Print the numbers 1 to 2000.",
        replies: [
          { calls: [{ name: "bash", args: { command: "seq 1 2000", description: "Print numbers" } }], usage: { input: 11200, output: 30 } },
          { agent: "compact", text: "<overview>The user asked for the numbers 1 to 2000; seq printed them.</overview>", usage: { input: 16300, output: 40 } },
          { text: "Checking the count.", calls: [{ name: "bash", args: { command: "seq 1 2000 | wc -l", description: "Count lines" } }], delay: 3, usage: { input: 16400, output: 20 } },
          { text: "Printed 1 to 2000.", usage: { input: 9000, output: 8 } },
        ],
      },
      { resume: true, prompt: "What was the last number?", replies: [{ text: "2000.", usage: { input: 11800, output: 4 } }] },
    ],
  },
];
