// Writes skein's Claude Code 2.1.332 fixtures with Claude Code itself: its
// native binary (npm @anthropic-ai/claude-code-linux-x64) run in print mode,
// `claude -p PROMPT --output-format json --permission-mode bypassPermissions`,
// in a sandbox (HOME and the project under $AGENTGEN_TMP, default
// /tmp/skein-agentgen-claude), against the fake Messages API of server.mjs,
// which answers from each scenario's script and logs every request.
//
// Per scenario, into fixtures/<scenario>/:
//   home/.claude/...      the session files as Claude Code wrote them
//                         (projects/<dir>/<id>.jsonl and whatever else
//                         belongs to the session), the sandbox root
//                         replaced by /sandbox in names and contents
//   resume-request.json   the body of the first request the agent sent when
//                         it resumed (or continued) the session
//   requests.jsonl        every request of the scenario, in order (`tools`
//                         cut to their names and a hash; resume-request.json
//                         has them whole)
//   usage.json            the usage the fake server reported, per reply
//   runs.json             each command, its session id and its JSON result
//
// Run: ./node22 gen.mjs [scenario...]   (all scenarios when none is named)
import { rmSync, mkdirSync, writeFileSync, readFileSync, existsSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { Sandbox, walk, sha, script, text, thinking, tool, readJSONL, matchRequestLog } from "./lib.mjs";
import { sleeps, outDir, seed } from "../seed.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const fixtures = outDir("claude", join(here, "fixtures"));
const tmp = process.env.AGENTGEN_TMP || "/tmp/skein-agentgen-claude";

const scenarios = {};

// 1. plain: one plain turn, then a resume by id.
scenarios.plain = {
  respond: script([
    { content: [text("Hello! How can I help?")], usage: { input_tokens: 1200, output_tokens: 9, cache_creation_input_tokens: 5000, cache_read_input_tokens: 0 } },
    { content: [text("You said hello before; hello again.")], usage: { input_tokens: 30, output_tokens: 11, cache_creation_input_tokens: 60, cache_read_input_tokens: 6200 } },
  ]),
  async steps(s) {
    const a = await s.run("first", "Say hello.");
    const b = await s.run("resume", "And once more?", ["--resume", a.sessionId]);
    return { resume: b };
  },
};

// 2. parallel: three Write calls in one reply, every one finishing, then a
// resume.
scenarios.parallel = {
  respond: script([
    { content: [text("I'll write the three files at once."), tool("Write", { file_path: "@/a.txt", content: "alpha\n" }), tool("Write", { file_path: "@/b.txt", content: "beta\n" }), tool("Write", { file_path: "@/c.txt", content: "gamma\n" })], usage: { input_tokens: 1500, output_tokens: 120, cache_creation_input_tokens: 5000, cache_read_input_tokens: 0 } },
    { content: [text("Wrote a.txt, b.txt and c.txt.")], usage: { input_tokens: 400, output_tokens: 12, cache_creation_input_tokens: 300, cache_read_input_tokens: 6500 } },
    { content: [text("There are three files: a.txt, b.txt, c.txt.")], usage: { input_tokens: 50, output_tokens: 14, cache_creation_input_tokens: 80, cache_read_input_tokens: 6900 } },
  ]),
  async steps(s) {
    const a = await s.run("first", "Write alpha, beta and gamma into a.txt, b.txt and c.txt.");
    const b = await s.run("resume", "Which files are there now?", ["--resume", a.sessionId]);
    return { resume: b };
  },
};

// 3. parallel-bash: three Bash calls in one reply that sleep for different
// times, so that they finish in another order than they were called.
scenarios["parallel-bash"] = {
  respond: script([
    { content: bashTrio(sleeps([1.5, 0.1, 0.7])) },
    { content: [text("fast, middle, slow.")] },
    { content: [text("They were called slow, fast, middle.")] },
  ]),
  async steps(s) {
    const a = await s.run("first", "Run three echoes in parallel.");
    const b = await s.run("resume", "In which order were they called?", ["--resume", a.sessionId]);
    return { resume: b };
  },
};

// bashTrio is the three calls of parallel-bash, each sleeping its time (a
// fresh seed shuffles them); named by speed as the committed fixture has it.
function bashTrio(times) {
  const name = (t) => (t >= 1 ? "slow" : t <= 0.2 ? "fast" : "middle");
  return times.map((t) => tool("Bash", { command: `sleep ${t}; echo ${name(t)}`, description: `${name(t)[0].toUpperCase()}${name(t).slice(1)} echo` }));
}

// 4. parallel-error: a batch where some calls fail (a missing file, a command
// exiting 3) beside some that succeed.
scenarios["parallel-error"] = {
  files: { "present.txt": "I am here.\n" },
  respond: script([
    { content: [text("Reading both files and running the check."), tool("Read", { file_path: "@/present.txt" }), tool("Read", { file_path: "@/missing.txt" }), tool("Bash", { command: "echo checking; exit 3", description: "Failing check" }), tool("Bash", { command: "sleep 0.3; echo late", description: "Late echo" })] },
    { content: [text("missing.txt does not exist and the check exited 3.")] },
    { content: [text("Two calls failed: the read of missing.txt and the check.")] },
  ]),
  async steps(s) {
    const a = await s.run("first", "Read present.txt and missing.txt and run the check.");
    const b = await s.run("resume", "What failed?", ["--resume", a.sessionId]);
    return { resume: b };
  },
};

// 5. thinking: a reply with thinking then text; a reply with thinking and a
// tool call, then thinking and text after the result; a resume.
scenarios.thinking = {
  respond: script([
    { content: [thinking("The user wants a number. 6 times 7 is 42."), text("42.")], usage: { input_tokens: 1300, output_tokens: 30, cache_creation_input_tokens: 5000 } },
    { content: [thinking("I should check the date with a command."), tool("Bash", { command: "echo 2026", description: "Print the year" })], usage: { input_tokens: 80, output_tokens: 40, cache_read_input_tokens: 6300 } },
    { content: [thinking("The command printed 2026."), text("It is 2026.")], usage: { input_tokens: 60, output_tokens: 25, cache_read_input_tokens: 6400 } },
    { content: [text("I answered 42, then 2026.")] },
  ]),
  async steps(s) {
    const a = await s.run("first", "What is six times seven?");
    await s.run("second", "Which year is it? Check with a command.", ["--resume", a.sessionId]);
    const c = await s.run("resume", "What did you answer?", ["--resume", a.sessionId]);
    return { resume: c };
  },
};

// 6. compact: a turn with a tool call, "/compact", then a resume.
scenarios.compact = {
  respond: script([
    { content: [tool("Write", { file_path: "@/hello.txt", content: "hello\n" })] },
    { content: [text("hello.txt is written.")] },
    { content: [text("We wrote hello.txt; it holds hello.")] },
  ]),
  async steps(s) {
    const a = await s.run("first", "Write hello into hello.txt.");
    const b = await s.run("compact", "/compact", ["--resume", a.sessionId]);
    const c = await s.run("resume", "What did we do so far?", ["--resume", a.sessionId]);
    return { resume: c, compact: b };
  },
};

// 7. continue: a turn, then `--continue` (the latest session of the folder).
scenarios.continue = {
  respond: script([
    { content: [text("Noted: the colour is blue.")] },
    { content: [text("The colour you gave is blue.")] },
  ]),
  async steps(s) {
    await s.run("first", "Remember the colour blue.");
    const b = await s.run("continue", "Which colour?", ["--continue"]);
    return { resume: b };
  },
};

// 8. fork: a turn, `--resume ID --fork-session`, then a resume of the fork.
scenarios.fork = {
  respond: script([
    { content: [text("The plan has two steps: parse, then print.")] },
    { content: [text("In the fork: add a third step, test.")] },
    { content: [text("The fork's plan: parse, print, test.")] },
  ]),
  async steps(s) {
    const a = await s.run("first", "Make a plan.");
    const b = await s.run("fork", "Add a step in a fork.", ["--resume", a.sessionId, "--fork-session"]);
    const c = await s.run("resume", "What is the plan now?", ["--resume", b.sessionId]);
    return { resume: c, fork: b };
  },
};

// 9. subagent: an Agent call in the foreground; the sub-agent runs a command
// and hands back; then a resume.
scenarios.subagent = {
  respond: script(
    [
      { content: [text("I'll ask a sub-agent."), tool("Agent", { description: "Count the files", prompt: "SUBTASK-1: count the files in the project with ls | wc -l and report the number.", subagent_type: "general-purpose", run_in_background: false })] },
      { content: [text("The sub-agent counted 2 files.")] },
      { content: [text("A sub-agent counted the files: 2.")] },
    ],
    {
      byMarker: {
        "SUBTASK-1": [
          { content: [tool("Bash", { command: "ls | wc -l", description: "Count files" })], usage: { input_tokens: 700, output_tokens: 30 } },
          { content: [text("There are 2 files.")], usage: { input_tokens: 750, output_tokens: 8 } },
        ],
      },
    },
  ),
  files: { "one.txt": "1\n", "two.txt": "2\n" },
  async steps(s) {
    const a = await s.run("first", "Use a sub-agent to count the files here.");
    const b = await s.run("resume", "What did the sub-agent find?", ["--resume", a.sessionId]);
    return { resume: b };
  },
};

// 10. subagent-two: two Agent calls in one reply, in the foreground, running
// at once; each sub-agent runs a command; then a resume.
scenarios["subagent-two"] = {
  respond: script(
    [
      { content: [text("Two sub-agents, one per file."), tool("Agent", { description: "Read one", prompt: "SUBTASK-A: print one.txt with cat and report it.", subagent_type: "general-purpose", run_in_background: false }), tool("Agent", { description: "Read two", prompt: "SUBTASK-B: print two.txt with cat and report it.", subagent_type: "general-purpose", run_in_background: false })] },
      { content: [text("one.txt holds 1 and two.txt holds 2.")] },
      { content: [text("Sub-agent A read 1, sub-agent B read 2.")] },
    ],
    {
      byMarker: {
        "SUBTASK-A": [
          { content: [tool("Bash", { command: "sleep 0.8; cat one.txt", description: "Print one.txt" })] },
          { content: [text("one.txt holds 1.")] },
        ],
        "SUBTASK-B": [
          { content: [tool("Bash", { command: "cat two.txt", description: "Print two.txt" })] },
          { content: [text("two.txt holds 2.")] },
        ],
      },
    },
  ),
  files: { "one.txt": "1\n", "two.txt": "2\n" },
  async steps(s) {
    const a = await s.run("first", "Have two sub-agents read one.txt and two.txt.");
    const b = await s.run("resume", "What did each sub-agent read?", ["--resume", a.sessionId]);
    return { resume: b };
  },
};

// 11. subagent-background: an Agent call left to its default, the
// background; print mode waits for it and the parent is told when it is
// done; then a resume.
scenarios["subagent-background"] = {
  respond: script(
    [
      { content: [tool("Agent", { description: "Count in background", prompt: "SUBTASK-BG: count the files with ls | wc -l.", subagent_type: "general-purpose" })] },
      { content: [text("The count runs in the background.")] },
      { content: [text("The background count says 2 files.")] },
      { content: [text("The background sub-agent counted 2 files.")] },
    ],
    {
      byMarker: {
        "SUBTASK-BG": [
          { content: [tool("Bash", { command: "sleep 0.5; ls | wc -l", description: "Count files" })] },
          { content: [text("2 files.")] },
        ],
      },
    },
  ),
  files: { "one.txt": "1\n", "two.txt": "2\n" },
  async steps(s) {
    const a = await s.run("first", "Count the files with a background sub-agent.");
    const b = await s.run("resume", "What did the background sub-agent find?", ["--resume", a.sessionId]);
    return { resume: b };
  },
};

// 12. api-error: the first request is refused (529 overloaded, which Claude
// Code retries), a later one fails for good (400); then a resume.
scenarios["api-error"] = {
  respond: script([
    { status: 529, error: { type: "overloaded_error", message: "Overloaded" } },
    { content: [text("Answered after a retry.")] },
    ...Array.from({ length: 6 }, () => ({ status: 400, error: { type: "invalid_request_error", message: "fake: this request is refused" } })),
    { content: [text("The earlier request was refused; this one works.")] },
  ]),
  async steps(s) {
    const a = await s.run("first", "Say something.");
    await s.run("refused", "Say something else.", ["--resume", a.sessionId], { allowError: true });
    const c = await s.run("resume", "Try again.", ["--resume", a.sessionId]);
    return { resume: c };
  },
};

// "@/" in a tool input stands for the project folder.
function bindProject(respond, project) {
  return (body, ctx) => {
    const r = respond(body, ctx);
    if (!r.content) return r;
    return { ...r, content: r.content.map((b) => (b.type === "tool_use" ? { ...b, input: JSON.parse(JSON.stringify(b.input).split("@/").join(project + "/")) } : b)) };
  };
}

async function runScenario(name) {
  const sc = scenarios[name];
  const s = new Sandbox(tmp, name, null);
  s.respond = bindProject(sc.respond, s.project);
  await s.open(sc.files || {});
  const t0 = Date.now();
  let marks, failure;
  try {
    marks = await sc.steps(s);
  } catch (e) {
    failure = e;
  } finally {
    await s.close();
  }
  const out = join(fixtures, name);
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const put = (rel, textOut) => {
    const p = join(out, rel);
    mkdirSync(dirname(p), { recursive: true });
    writeFileSync(p, s.sanitize(textOut));
  };
  // The store: everything under ~/.claude but the config backups and the
  // plugin cache, which are not the session's.
  const dotclaude = join(s.home, ".claude");
  const stored = existsSync(dotclaude) ? walk(dotclaude).filter((p) => !/^(backups|plugins)\//.test(p)) : [];
  for (const rel of stored) put(s.sanitize(join("home", ".claude", rel)), readFileSync(join(dotclaude, rel), "utf8"));
  const reqs = s.server.requests;
  // Before any path is replaced: which api-request entry of the log each
  // request the server got is (see matchRequestLog).
  const entries = stored.filter((p) => p.endsWith(".jsonl")).flatMap((p) => readJSONL(join(dotclaude, p)));
  const messageReqs = reqs.filter((r) => r.path === "/v1/messages");
  const logged = matchRequestLog(entries, messageReqs);
  messageReqs.forEach((r, i) => (r.loggedAs = logged[i]));
  put("requests.jsonl", reqs.map((r) => JSON.stringify(cutTools(r)) + "\n").join(""));
  const main = (run) => run && run.requests.find((r) => r.purpose === "main" || r.purpose === "extra");
  if (marks && marks.resume) put("resume-request.json", JSON.stringify(main(marks.resume).body, null, 2) + "\n");
  put("usage.json", JSON.stringify(s.server.replies, null, 2) + "\n");
  put("runs.json", JSON.stringify(s.runs.map((r) => ({ label: r.label, args: r.args, code: r.code, sessionId: r.result && r.result.session_id, requests: r.requests, ms: r.ms, result: r.result, stderr: r.stderr, stdout: r.stdout })), null, 2) + "\n");
  const secs = ((Date.now() - t0) / 1000).toFixed(1);
  if (failure) {
    console.error(`${name}: FAILED after ${secs}s: ${failure.message}`);
    return false;
  }
  const unlogged = messageReqs.filter((r) => !r.loggedAs.id).map((r) => `${r.seq}(${r.purpose})`);
  console.log(`${name}: ${s.runs.length} runs, ${reqs.length} requests, ${stored.length} files, ${secs}s${unlogged.length ? "; not in the api-request log: " + unlogged.join(" ") : ""}`);
  return true;
}

function cutTools(r) {
  if (!r.body || !Array.isArray(r.body.tools)) return r;
  return { ...r, body: { ...r.body, tools: { names: r.body.tools.map((t) => t.name), sha256_16: sha(JSON.stringify(r.body.tools)) } } };
}

const wanted = process.argv.slice(2);
for (const w of wanted) if (!scenarios[w]) throw new Error(`no scenario ${w}; there are ${Object.keys(scenarios).join(", ")}`);
let ok = true;
const t0 = Date.now();
for (const name of wanted.length ? wanted : Object.keys(scenarios)) ok = (await runScenario(name)) && ok;
console.log(`${((Date.now() - t0) / 1000).toFixed(1)}s`);
process.exit(ok ? 0 : 1);
