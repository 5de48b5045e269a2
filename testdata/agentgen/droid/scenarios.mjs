// The scenarios gen.mjs runs, in order. Each is one Droid session: steps are
// `droid exec` runs (the first starts the session, the others continue it
// with `-s ID`), and `replies` is what the fake server answers to the
// scenario's model requests, in the order they arrive (a sub-agent's too).
// A reply is { content: [blocks], usage } or { status, error }; a block is
// text(), thinking() or tool() below.
export const text = (t) => ({ type: "text", text: t });
export const thinking = (t) => ({ type: "thinking", thinking: t });
export const tool = (id, name, input) => ({ type: "tool_use", id, name, input });
export const usage = (input, output, cacheRead = 0, cacheCreation = 0) => ({ input_tokens: input, output_tokens: output, cache_read_input_tokens: cacheRead, cache_creation_input_tokens: cacheCreation });

export const scenarios = [
  {
    name: "plain",
    about: "one plain turn (text only) in a project with an AGENTS.md, then a resume (-s ID) with another plain turn",
    files: { "README.md": "# demo\n", "AGENTS.md": "# Rules\n\nAnswer in one short sentence.\n" },
    steps: [{ prompt: "Say hello." }, { resume: true, prompt: "What did I ask you before?" }],
    replies: [
      { content: [text("Hello! How can I help with this project?")], usage: usage(1200, 12, 0, 5000) },
      { content: [text("You asked me to say hello.")], usage: usage(60, 9, 6200, 40) },
    ],
  },
  {
    name: "parallel",
    about: "three calls in one response: an Execute that sleeps and finishes last, an Execute that fails (exit 1), a Read of a missing file; then a resume",
    files: { "a.txt": "alpha\n", "b.txt": "bravo\n" },
    steps: [{ prompt: "Show me a.txt, c.txt and d.txt." }, { resume: true, prompt: "Which files were missing?" }],
    replies: [
      {
        content: (proj) => [
          text("I'll read the three files at once."),
          tool("toolu_par_a", "Execute", { command: "sleep 0.8; cat a.txt", summary: "read a file", riskLevel: "low", riskLevelReason: "reads a file" }),
          tool("toolu_par_c", "Execute", { command: "cat c.txt", summary: "read a file", riskLevel: "low", riskLevelReason: "reads a file" }),
          tool("toolu_par_d", "Read", { file_path: `${proj}/d.txt` }),
        ],
        usage: usage(2400, 95, 0, 3000),
      },
      { content: [text("a.txt holds `alpha`; c.txt and d.txt do not exist.")], usage: usage(300, 22, 5400) },
      { content: [text("c.txt and d.txt were missing.")], usage: usage(80, 6, 5700) },
    ],
  },
  {
    name: "thinking",
    about: "thinking blocks (enableThinking on the custom model) before a call and before the answer; then a resume",
    thinking: true,
    files: { "notes.md": "remember the milk\n" },
    steps: [{ prompt: "What is in notes.md?" }, { resume: true, prompt: "Thanks. Anything else in it?" }],
    replies: [
      { content: [thinking("The user wants the contents of notes.md. I should read the file."), tool("toolu_th_cat", "Execute", { command: "cat notes.md", summary: "read a file", riskLevel: "low", riskLevelReason: "reads a file" })], usage: usage(1500, 60) },
      { content: [thinking("The file has one line."), text("notes.md says: remember the milk.")], usage: usage(200, 30, 1408) },
      { content: [thinking("Checking what I saw."), text("No, just that one line.")], usage: usage(100, 20, 1664) },
    ],
  },
  {
    name: "task-fails",
    about: "the Task tool is asked for a worker sub-agent; in exec mode without Droid's daemon it fails (\"Could not reach the daemon\"), and the agent runs the command itself; then a resume",
    files: { "x.txt": "hello from x\n" },
    steps: [{ prompt: "Ask a helper to read x.txt." }, { resume: true, prompt: "What did the helper find?" }],
    replies: [
      { content: [tool("toolu_spawn", "Task", { description: "Read x.txt", prompt: "Read x.txt and tell me what it says.", subagent_type: "worker" })], usage: usage(3000, 30) },
      { content: [text("The helper could not start; I'll read it myself."), tool("toolu_cat", "Execute", { command: "cat x.txt", summary: "read a file", riskLevel: "low", riskLevelReason: "reads a file" })], usage: usage(200, 15, 2900) },
      { content: [text("x.txt says: hello from x")], usage: usage(200, 9, 3100) },
      { content: [text("No helper ran; x.txt says hello from x.")], usage: usage(100, 12, 3300) },
    ],
  },
  {
    name: "api-error",
    about: "a turn; a resume answered by HTTP 400 (not retried); a resume that works, whose request shows what the failed turn left in the history",
    files: {},
    steps: [{ prompt: "Hello?" }, { resume: true, prompt: "Hello again?", fails: true }, { resume: true, prompt: "Last try." }],
    replies: [
      { content: [text("Hello.")], usage: usage(1000, 3) },
      { status: 400, error: { type: "invalid_request_error", message: "messages.0.content: fake server says no" } },
      { content: [text("I am here.")], usage: usage(140, 4, 960) },
    ],
  },
];
