// The scenarios gen.mjs runs, in order. Each is one Qwen Code session: steps
// are `qwen -p` runs (the first starts the session, the others resume it),
// each with the replies the fake server gives to its requests, in order. A
// reply goes to the main agent unless its `who` says "sub" (a sub-agent's
// request) or "compress" (the compression's summary request): server.mjs's
// whoOf tells them apart by the request's system prompt.
import { say, call, usage } from "./server.mjs";

const shell = (id, command) => call(id, "run_shell_command", { command, description: command });

export const scenarios = [
  {
    name: "plain",
    about: "one plain turn (text only) in a project with a QWEN.md, then a resume (--resume ID) with another plain turn",
    files: { "README.md": "# demo\n", "QWEN.md": "# Rules\n\nAnswer in one short sentence.\n" },
    steps: [
      { prompt: "Say hello.", replies: [{ text: "Hello! How can I help with this project?", usage: usage(1200, 12) }] },
      { resume: true, prompt: "What did I ask you before?", replies: [{ text: "You asked me to say hello.", usage: usage(1260, 9, 1152) }] },
    ],
  },
  {
    name: "parallel",
    about: "three calls in one response: a shell command that sleeps and finishes last, a shell command that fails (exit 1), read_file of a missing file; then a resume with --continue",
    files: { "a.txt": "alpha\n", "b.txt": "bravo\n" },
    steps: [
      {
        prompt: "Show me a.txt, c.txt and d.txt.",
        replies: [
          {
            text: "I'll read the three files at once.",
            calls: (body, proj) => [shell("call_par_a", "sleep 0.8; cat a.txt"), shell("call_par_c", "cat c.txt"), call("call_par_d", "read_file", { file_path: `${proj}/d.txt` })],
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
    about: "reasoning_content before a call and before the answer (thought parts), reasoning tokens in the usage; then a resume",
    files: { "notes.md": "remember the milk\n" },
    steps: [
      {
        prompt: "What is in notes.md?",
        replies: [
          { thinking: "The user wants the contents of notes.md. I should cat the file.", calls: [shell("call_th_cat", "cat notes.md")], usage: usage(1500, 60, 0, 40) },
          { thinking: "The file has one line.", text: "notes.md says: remember the milk.", usage: usage(1700, 30, 1408, 18) },
        ],
      },
      { resume: true, prompt: "Thanks. Anything else in it?", replies: [{ thinking: "Checking what I saw.", text: "No, just that one line.", usage: usage(1800, 20, 1664, 10) }] },
    ],
  },
  {
    name: "compact",
    about: "a turn, then `/compress` run as the prompt of a resume (the summary comes from the fake server), then a resume after the compression",
    files: {},
    steps: [
      { prompt: "Tell me a long story.", replies: [{ text: "Once upon a time there was a parser.", usage: usage(5000, 900) }] },
      { prompt: "Then tell me more.", resume: true, replies: [{ text: "The parser met a lexer, and they became friends.", usage: usage(5900, 40, 4864) }] },
      {
        resume: true,
        prompt: "/compress",
        replies: [{ who: "compress", text: "<state_snapshot>\nThe user asked for a long story; the assistant told one about a parser that met a lexer.\n</state_snapshot>", usage: usage(6000, 60) }],
      },
      { resume: true, prompt: "The end?", replies: [{ text: "The end.", usage: usage(850, 3, 768) }] },
    ],
  },
  {
    name: "subagent",
    about: "the agent tool starts a general-purpose sub-agent (in the background, Qwen Code's default) that runs a command and answers; the parent answers the launch, then the task notification; then a resume of the parent",
    files: { "x.txt": "hello from x\n" },
    steps: [
      {
        prompt: "Ask a helper to read x.txt.",
        replies: [
          { calls: [call("call_spawn", "agent", { description: "Read x.txt", prompt: "Read x.txt and tell me what it says.", subagent_type: "general-purpose" })], usage: usage(3000, 30) },
          { who: "sub", calls: [shell("call_sub_cat", "cat x.txt")], usage: usage(2000, 15) },
          { text: "The helper is reading x.txt.", usage: usage(3100, 8, 2944) },
          { who: "sub", text: "x.txt says: hello from x", usage: usage(2100, 9, 1920) },
          { text: "The helper says x.txt holds: hello from x", usage: usage(3200, 12, 3072) },
        ],
      },
      { resume: true, prompt: "What did the helper find?", replies: [{ text: "That x.txt says hello from x.", usage: usage(3300, 9, 3200) }] },
    ],
  },
  {
    name: "api-error",
    about: "a turn; a resume answered by HTTP 400 (not retried); a resume that works, whose request shows what the failed turn left in the history",
    files: {},
    steps: [
      { prompt: "Hello?", replies: [{ text: "Hello.", usage: usage(1000, 3) }] },
      {
        resume: true,
        prompt: "Hello again?",
        fails: true,
        replies: [{ status: 400, error: { message: "'developer' is not one of ['system', 'assistant', 'user', 'function'] - 'messages.0.role'", type: "invalid_request_error", param: null, code: null } }],
      },
      { resume: true, prompt: "Last try.", replies: [{ text: "I am here.", usage: usage(1100, 4, 960) }] },
    ],
  },
];
