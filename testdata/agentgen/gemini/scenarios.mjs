// The scenarios gen.mjs runs: each one's project files, the fake model's
// script, and the gemini commands, smallest first.
import { sleeps } from "../seed.mjs";

const text = (t) => ({ text: t });
const thought = (t) => ({ text: t, thought: true });
const call = (name, args) => ({ functionCall: { name, args } });

// script answers the agent's main turns in order from `main`, a sub-agent's
// turns from byMarker[marker] (the marker is a word in the sub-agent's
// prompt), and its side requests with fixed answers: the router scores every
// prompt 10, a compression answers from `compress`.
function script(main, { byMarker = {}, compress = [] } = {}) {
  const queues = { main: [...main], compress: [...compress] };
  for (const [m, q] of Object.entries(byMarker)) queues[m] = [...q];
  return (entry) => {
    const body = entry.body;
    switch (entry.purpose) {
      case "router":
        return { parts: [text('{"complexity_reasoning": "A simple request.", "complexity_score": 10}')], verbatim: true, usage: { promptTokenCount: 300, candidatesTokenCount: 12 } };
      case "compress":
      case "compress-verify": {
        const r = queues.compress.shift();
        if (!r) return unscripted(entry);
        return { ...r, verbatim: true };
      }
      case "main": {
        const first = JSON.stringify(body.contents?.[0] ?? "");
        const marker = Object.keys(byMarker).find((m) => first.includes(m));
        const r = queues[marker ?? "main"].shift();
        return r ?? unscripted(entry);
      }
      default:
        return unscripted(entry);
    }
  };
}

function unscripted(entry) {
  entry.unscripted = true;
  return { status: 400, message: `fake server: no scripted reply for this ${entry.purpose} request` };
}

export const scenarios = {};

// plain: one text turn, then a resume by id.
scenarios.plain = {
  about: "one text turn, then a resume",
  respond: script([
    { parts: [text("Hello! How can I help?")], usage: { promptTokenCount: 9000, candidatesTokenCount: 9 } },
    { parts: [text("You said hello before; hello again.")], usage: { promptTokenCount: 9100, candidatesTokenCount: 11, cachedContentTokenCount: 8000 } },
  ]),
  async steps(s) {
    const a = await s.run("first", "Say hello.");
    const b = await s.run("resume", "And once more?", ["--resume", a.sessionId]);
    return { resume: b };
  },
};

// parallel: three calls in one reply: a read that works, a read of a file
// that is not there, a shell command that exits 3; then a resume.
scenarios.parallel = {
  about: "three calls in one reply (a read that works, a read that fails, a command exiting 3), then two resumes",
  files: { "present.txt": "I am here.\n" },
  respond: script([
    { parts: [text("Reading both files and running the check."), call("read_file", { file_path: "present.txt" }), call("read_file", { file_path: "missing.txt" }), call("run_shell_command", { command: `sleep ${sleeps([0.3])[0]}; echo checking; exit 3`, description: "Failing check" })], usage: { promptTokenCount: 9000, candidatesTokenCount: 60 } },
    { parts: [text("missing.txt does not exist and the check exited 3.")], usage: { promptTokenCount: 9300, candidatesTokenCount: 14 } },
    { parts: [text("Two calls failed: the read of missing.txt and the check.")], usage: { promptTokenCount: 9400, candidatesTokenCount: 13 } },
    { parts: [text("The read of present.txt worked.")], usage: { promptTokenCount: 9500, candidatesTokenCount: 8 } },
  ]),
  async steps(s) {
    const a = await s.run("first", "Read present.txt and missing.txt and run the check.");
    const b = await s.run("resume-1", "What failed?", ["--resume", a.sessionId]);
    const c = await s.run("resume", "And what worked?", ["--resume", a.sessionId]);
    return { resume: c, resume1: b };
  },
};

// thinking: thoughts then text; thoughts and a call, then thoughts and text
// after the result; a resume.
scenarios.thinking = {
  about: "thoughts before text, thoughts before a call and after its result, then a resume",
  respond: script([
    { parts: [thought("**Multiplying** The user wants a number. 6 times 7 is 42."), text("42.")], usage: { promptTokenCount: 9000, candidatesTokenCount: 3, thoughtsTokenCount: 40 } },
    { parts: [thought("**Checking the year** I should check the date with a command."), call("run_shell_command", { command: "echo 2026", description: "Print the year" })], usage: { promptTokenCount: 9100, candidatesTokenCount: 20, thoughtsTokenCount: 30 } },
    { parts: [thought("**Reading the output** The command printed 2026."), text("It is 2026.")], usage: { promptTokenCount: 9200, candidatesTokenCount: 6, thoughtsTokenCount: 25 } },
    { parts: [text("I answered 42, then 2026.")], usage: { promptTokenCount: 9300, candidatesTokenCount: 9 } },
  ]),
  async steps(s) {
    const a = await s.run("first", "What is six times seven?");
    await s.run("second", "Which year is it? Check with a command.", ["--resume", a.sessionId]);
    const c = await s.run("resume", "What did you answer?", ["--resume", a.sessionId]);
    return { resume: c };
  },
};

// compact: a turn with a call; a resumed turn whose call's reply reports
// more prompt tokens than half the model's window, so that Gemini CLI
// compresses the chat before it sends the call's result (its automatic
// compression: `/compress` is not a command in headless mode); a resume.
scenarios.compact = {
  about: "a turn with a call; a resumed turn whose usage passes the compression threshold, so the chat is compressed before the next request; then a resume",
  respond: script(
    [
      { parts: [call("write_file", { file_path: "hello.txt", content: "hello\n" })], usage: { promptTokenCount: 9000, candidatesTokenCount: 30 } },
      { parts: [text("hello.txt is written.")], usage: { promptTokenCount: 9200, candidatesTokenCount: 6 } },
      { parts: [call("read_file", { file_path: "hello.txt" })], usage: { promptTokenCount: 700000, candidatesTokenCount: 20 } },
      { parts: [text("It holds one line: hello.")], usage: { promptTokenCount: 3000, candidatesTokenCount: 8 } },
      { parts: [text("We wrote hello.txt and read it back; it holds hello.")], usage: { promptTokenCount: 3100, candidatesTokenCount: 12 } },
    ],
    {
      compress: [
        { parts: [text("<state_snapshot>\n<overall_goal>Write hello into hello.txt.</overall_goal>\n<key_knowledge>hello.txt holds hello.</key_knowledge>\n</state_snapshot>")], usage: { promptTokenCount: 8000, candidatesTokenCount: 40 } },
        { parts: [text("<state_snapshot>\n<overall_goal>Write hello into hello.txt.</overall_goal>\n<key_knowledge>hello.txt holds one line: hello.</key_knowledge>\n</state_snapshot>")], usage: { promptTokenCount: 8100, candidatesTokenCount: 42 } },
      ],
    },
  ),
  async steps(s) {
    const a = await s.run("first", "Write hello into hello.txt.");
    const b = await s.run("second", "Read it back.", ["--resume", a.sessionId]);
    const c = await s.run("resume", "What did we do so far?", ["--resume", a.sessionId]);
    return { resume: c, compress: b };
  },
};

// subagent: invoke_agent hands a task to the generalist sub-agent, which
// runs a command and reports; then a resume.
scenarios.subagent = {
  about: "invoke_agent runs the generalist sub-agent, which runs a command and reports; then a resume",
  files: { "one.txt": "1\n", "two.txt": "2\n" },
  respond: script(
    [
      { parts: [text("I'll ask a sub-agent."), call("invoke_agent", { agent_name: "generalist", prompt: "SUBTASK-1: count the files in the project with ls | wc -l and report the number." })], usage: { promptTokenCount: 9000, candidatesTokenCount: 40 } },
      { parts: [text("The sub-agent counted 2 files.")], usage: { promptTokenCount: 9400, candidatesTokenCount: 8 } },
      { parts: [text("A sub-agent counted the files: 2.")], usage: { promptTokenCount: 9500, candidatesTokenCount: 9 } },
    ],
    {
      byMarker: {
        "SUBTASK-1": [
          { parts: [call("run_shell_command", { command: "ls | wc -l", description: "Count files" })], usage: { promptTokenCount: 5000, candidatesTokenCount: 20 } },
          { parts: [call("complete_task", { result: { response: "There are 2 files." } })], usage: { promptTokenCount: 5100, candidatesTokenCount: 12 } },
        ],
      },
    },
  ),
  async steps(s) {
    const a = await s.run("first", "Use a sub-agent to count the files here.");
    const b = await s.run("resume", "What did the sub-agent find?", ["--resume", a.sessionId]);
    return { resume: b };
  },
};
