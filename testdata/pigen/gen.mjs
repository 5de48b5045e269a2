// Writes skein's pi 1.6.0 fixtures with the reference implementation itself,
// @earendil-works/pi-coding-agent 1.6.0: pi's real agent loop
// (createAgentSession) answered by pi-ai's scripted fauxProvider, in a
// temporary agent dir (HOME=/tmp/skein-pigen/home), so that the files are
// written the way users' files are. Each scenario below is one session (or a
// fork of one) in a folder testdata/pi/store/--home-dev-pi16-*--.
//
// The 0.73.1-era fixtures (testdata/pi/legacy, testdata/pi/broken and the
// other folders of testdata/pi/store) were written by the 0.73.1 version of
// this script (git history, commit 5402cf8) and are kept byte for byte: this
// script neither rewrites nor removes them.
//
// Deterministic: lib.mjs fixes the clock, the ids and the PRNG, and each
// scenario reseeds; two runs write the same bytes.
// Run: ./node22 gen.mjs && ./node22 oracle.mjs
import { rmSync, mkdirSync, readdirSync, copyFileSync, cpSync, statSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { Agent, VirtualMachine, SessionManager, text, call, fail, reply, tick, setClock, reseed, PNG_1x1, folderFor, fauxText, fauxThinking } from "./lib.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const store = join(here, "..", "pi", "store");
const scratch = "/tmp/skein-pigen";
const home = join(scratch, "home");
const sessions = join(home, ".pi", "agent", "sessions");
rmSync(scratch, { recursive: true, force: true });
mkdirSync(sessions, { recursive: true });
const lorem = (n, seed = 0) => {
  const words = "the parser reads each line splits it on commas trims quotes and hands the fields to the writer which emits one json object per row".split(" ");
  return Array.from({ length: n }, (_, i) => words[(i * 7 + seed) % words.length]).join(" ");
};
const log = (n, seed = 0) => Array.from({ length: n }, (_, i) => `2026-11-2${seed % 10}T10:${String(i % 60).padStart(2, "0")}:00Z ${i % 7 === 3 ? "ERROR timeout after 30s" : "INFO request ok"} id=${1000 + i * 13 + seed}`).join("\n") + "\n";
const files = {};

// 1. notes: the everyday session. The system message and its patches (a tool
// loadout change, an extension's prompt section added then removed), tools
// with results and errors, images (attached and read), a user `!` command and
// a `!!` one, an abort mid-stream, a retried rate limit and an error, a custom
// message and entry, model and thinking changes, labels, a name, cache warming.
{
  reseed(1601);
  setClock("2026-11-21T09:00:00.000Z");
  const cwd = "/home/dev/pi16-notes";
  const vm = new VirtualMachine(
    cwd,
    {
      "src/notes.ts": "export const notes: string[] = [];\n",
      "src/notes.test.ts": "import { notes } from './notes';\ntest('empty', () => expect(notes).toEqual([]));\n",
      "README.md": "# notes\n\nA tiny notes module.\n",
      "docs/screenshot.png": Buffer.from(PNG_1x1, "base64"),
    },
    {
      "npm test": { output: "PASS src/notes.test.ts\n  ✓ empty (1 ms)\n  ✓ adds a note (2 ms)\n" },
      "npm run lint": { output: "src/notes.ts\n  2:26  error  'n' is too short  id-length\n\n✖ 1 problem (1 error, 0 warnings)\n", exitCode: 1 },
      "cat .env": { output: "NOTES_TOKEN=do-not-send\n" },
    },
  );
  const a = await Agent.open({ home, cwd, vm, paced: true });
  await a.say(
    "Here is a screenshot of the notes app. Add a function that appends a note.",
    [
      call("read", { path: "src/notes.ts" }, { thinking: "Look at the module before changing it.", text: "Reading the module first." }),
      call("edit", { path: "src/notes.ts", edits: [{ oldText: "export const notes: string[] = [];", newText: "export const notes: string[] = [];\nexport function addNote(n: string) {\n  notes.push(n);\n}" }] }),
      call("bash", { command: "npm test" }),
      text("Added `addNote(n)` to `src/notes.ts`:\n\n```ts\nexport function addNote(n: string) {\n  notes.push(n);\n}\n```\n\nThe tests pass."),
    ],
    { images: [{ type: "image", data: PNG_1x1, mimeType: "image/png" }] },
  );
  const added = a.lastMessage("assistant");
  a.label(added.id, "addNote");
  await a.say("Look at docs/screenshot.png and at docs/missing.md.", [
    call([
      ["read", { path: "docs/screenshot.png" }],
      ["read", { path: "docs/missing.md" }],
    ]),
    text("The screenshot is a single pixel, and `docs/missing.md` does not exist."),
  ]);
  await a.bash("npm run lint");
  await a.bash("cat .env", { exclude: true });
  a.setTools(["read", "bash", "grep"]);
  await a.say("Where is `notes` used?", [call("grep", { pattern: "notes" }), text("In `src/notes.ts` and its test.")]);
  a.hooks.beforeAgentStart = (event) => {
    event.systemPromptOptions.sections.memory = "The user prefers short answers and TypeScript.";
  };
  await a.say("Remember: keep answers short.", [text("Noted.")]);
  a.hooks.beforeAgentStart = undefined;
  a.setTools(["read", "bash", "edit", "write"]);
  await a.say("Forget that, and give me back the write tool.", [text("Done: the memory is gone and `write` is back.")]);
  a.hooks.abortAfter = 4;
  await a.say("Write a long essay about note taking.", [text(`Note taking ${lorem(120)}.`)]);
  await a.say("Shorter, please.", [fail("429 rate_limit_error: Number of request tokens has exceeded your per-minute rate limit"), text("Notes are short reminders kept for later.")]);
  await a.say("And in French?", [fail("400 invalid_request_error: messages.12.content: text content blocks must be non-empty")]);
  tick(30000);
  await a.api.sendMessage({ customType: "lint-report", content: "1 lint error in src/notes.ts (id-length)", display: true, details: { errors: 1 } });
  a.api.appendEntry("notes-extension-state", { lintRuns: 1 });
  await a.setModel("faux-small");
  await a.say("Quick: how many notes after two addNote calls?", [text("2.")]);
  await a.setModel("faux-large");
  a.setThinking("high");
  await a.say("How should notes persist across restarts?", [reply([fauxThinking("Files are simplest; SQLite if they need queries."), fauxText("Write them to a JSON file on every change; switch to SQLite if you need search.")])]);
  a.label(added.id, "");
  a.label(a.lastMessage("user").id, "persistence");
  a.name("  Notes module\n(pi 1.6)  ");
  await a.say("Thanks.", [text("You're welcome.")]);
  a.dispose();
  files.notes = a.file;
}

// 2. tree: /tree navigation with and without branch summaries (one from the
// root, with a label), branching at a tool result, labels set and cleared.
{
  reseed(1602);
  setClock("2026-11-22T14:00:00.000Z");
  const cwd = "/home/dev/pi16-tree";
  const vm = new VirtualMachine(cwd, { "data/sample.csv": "id,name\n1,Ada\n2,Linus\n" }, { "python3 csv2json.py data/sample.csv": { output: '[{"id": "1", "name": "Ada"}, {"id": "2", "name": "Linus"}]\n' }, "go run . data/sample.csv": { output: '[{"id":"1","name":"Ada"},{"id":"2","name":"Linus"}]\n' } });
  const a = await Agent.open({ home, cwd, vm });
  await a.say("Plan a tool that converts CSV to JSON.", [text("1. Read rows with a CSV reader.\n2. Map the header to keys.\n3. Print a JSON array.")]);
  const plan = a.lastMessage("assistant");
  a.label(plan.id, "plan");
  await a.say("Use Python for it.", [call("write", { path: "csv2json.py", content: "import csv, json, sys\nprint(json.dumps(list(csv.DictReader(open(sys.argv[1])))))\n" }), call("bash", { command: "python3 csv2json.py data/sample.csv" }), text("Wrote `csv2json.py`; it prints the rows as JSON.")]);
  const python = a.lastMessage("user", 1);
  await a.say("Add a --pretty flag.", [call("edit", { path: "csv2json.py", edits: [{ oldText: "print(json.dumps(", newText: "print(json.dumps(indent=2 if '--pretty' in sys.argv else None, obj=" }] }), text("Added `--pretty`.")]);
  // Back to the plan, summarizing the Python branch.
  await a.navigate(plan.id, { summarize: true });
  await a.say("Actually, write it in Go.", [call("write", { path: "main.go", content: "package main\n\nfunc main() {}\n" }), call("bash", { command: "go run . data/sample.csv" }), text("Wrote `main.go`.")]);
  const goRun = a.lastMessage("toolResult");
  a.label(a.lastMessage("assistant").id, "go version");
  // Re-edit the "Use Python" request: /tree on a user message puts the leaf
  // at its parent; no summary.
  await a.navigate(python.id, { summarize: false });
  await a.say("Use Rust for it.", [text("Rust: `cargo new csv2json` and the `csv` and `serde_json` crates.")]);
  // Re-edit the very first request, with a summary and a label: the leaf
  // moves to its parent, the system message.
  await a.navigate(a.branch().find((e) => e.type === "message" && e.message.role === "user").id, { summarize: true, label: "restart" });
  await a.say("Start over: TSV instead of CSV.", [text("TSV is CSV with tabs: `csv.reader(f, delimiter='\\t')`.")]);
  // Branch at the Go tool result, without a summary.
  await a.navigate(goRun.id);
  await a.say("Add a test for the Go version.", [call("write", { path: "main_test.go", content: "package main\n\nimport \"testing\"\n\nfunc TestMain(t *testing.T) {}\n" }), text("Added `main_test.go`.")]);
  a.label(plan.id, "");
  a.name("CSV converter");
  a.dispose();
  files.tree = a.file;
}

// 3. compact: manual compactions (the first, an update of it, a split turn, one
// with instructions), a tool loadout change after a compaction, a tool that
// runs other tools (nestedCalls on its result: their files count in the
// compaction's file lists).
{
  reseed(1603);
  setClock("2026-11-23T08:30:00.000Z");
  const cwd = "/home/dev/pi16-compact";
  const parser = Object.fromEntries(["lexer", "parser", "ast", "emit", "vm"].map((m, i) => [`src/${m}.ts`, `// ${m}\n${lorem(260 + 40 * i, i)}\n`]));
  const vm = new VirtualMachine(cwd, parser, { "npm test": { output: `${lorem(90, 3)}\nTests: 41 passed, 41 total\n` }, "npm run build": { output: "built dist/ in 1.2s\n" } });
  const a = await Agent.open({ home, cwd, vm, settings: { compaction: { keepRecentTokens: 1200 } } });
  await a.say("Read the lexer and the parser and explain how they fit.", [call([["read", { path: "src/lexer.ts" }], ["read", { path: "src/parser.ts" }]], undefined, { text: "Reading both files." }), text(`The lexer emits tokens; the parser consumes them. ${lorem(60, 1)}`)]);
  await a.say("Now the AST and the emitter.", [call("read", { path: "src/ast.ts" }), call("read", { path: "src/emit.ts" }), text(`The AST is walked by the emitter. ${lorem(50, 2)}`)]);
  a.setTools(["read", "bash", "edit", "write", "batch"]);
  await a.say("Update the AST and emitter headers in one go.", [call("batch", { ops: [{ tool: "read", args: { path: "src/ast.ts" } }, { tool: "edit", args: { path: "src/ast.ts", edits: [{ oldText: "// ast", newText: "// ast (typed)" }] } }, { tool: "write", args: { path: "src/emit.d.ts", content: "export {};\n" } }] }), text("Updated `src/ast.ts` and wrote `src/emit.d.ts` through one batch call.")]);
  a.setTools(["read", "bash", "edit", "write"]);
  await a.say("Rename Token to Lexeme in the lexer.", [call("edit", { path: "src/lexer.ts", edits: [{ oldText: "// lexer", newText: "// lexer (Lexeme)" }] }), call("bash", { command: "npm test" }), text("Renamed; tests pass.")]);
  await a.compact();
  await a.say("Read the VM.", [call("read", { path: "src/vm.ts" }), text(`The VM runs the emitted code. ${lorem(40, 4)}`)]);
  a.setTools(["read", "bash"]);
  await a.say("Build it, but do not change files now.", [call("bash", { command: "npm run build" }), text("Built `dist/`.")]);
  await a.compact();
  a.setTools(["read", "bash", "edit", "write"]);
  // One long turn: the next compaction cuts inside it (a split turn).
  await a.say("Go through every module and add a header comment to each.", [
    ...["lexer", "parser", "ast", "emit", "vm"].flatMap((m) => [call("read", { path: `src/${m}.ts` }), call("edit", { path: `src/${m}.ts`, edits: [{ oldText: `// ${m}`, newText: `// ${m}: part of the compiler` }] })]),
    text("Every module has a header comment now."),
  ]);
  await a.compact();
  await a.say("Run the tests again.", [call("bash", { command: "npm test" }), text("All 41 tests pass.")]);
  await a.compact("Focus on the file changes.");
  await a.say("What changed overall?", [text("Token became Lexeme, and every module got a header comment.")]);
  a.name("Compiler refactor");
  a.dispose();
  files.compact = a.file;
}

// 4. auto: threshold compaction, automatically, on a small-context model.
{
  reseed(1604);
  setClock("2026-11-24T16:00:00.000Z");
  const cwd = "/home/dev/pi16-auto";
  const vm = new VirtualMachine(cwd, Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`logs/day${i + 1}.log`, log(40, i)])), {});
  const a = await Agent.open({ home, cwd, vm, model: "faux-small", settings: { compaction: { reserveTokens: 1500, keepRecentTokens: 700 } } });
  for (let i = 1; i <= 10; i++) {
    await a.say(`Read logs/day${i}.log and count the timeouts.`, [call("read", { path: `logs/day${i}.log` }), text(`Day ${i}: 3 timeouts, the rest ok.`)]);
  }
  await a.say("Which day was worst?", [text("All days had 3 timeouts: none was worse.")]);
  a.dispose();
  files.auto = a.file;
}

// 5. overflow: the model rejects a request as too long; pi omits the failed
// attempt with a context_edit, compacts and retries.
{
  reseed(1605);
  setClock("2026-11-25T11:00:00.000Z");
  const cwd = "/home/dev/pi16-overflow";
  const vm = new VirtualMachine(cwd, Object.fromEntries(["api", "db", "worker"].map((s, i) => [`logs/${s}.log`, log(40, i)])), { "wc -l logs/*.log": { output: "  40 logs/api.log\n  40 logs/db.log\n  40 logs/worker.log\n 120 total\n" } });
  const a = await Agent.open({ home, cwd, vm, settings: { compaction: { keepRecentTokens: 800 } } });
  for (const s of ["api", "db", "worker"]) await a.say(`What does logs/${s}.log say?`, [call("read", { path: `logs/${s}.log` }), text(`${s}: mostly ok, a few timeouts.`)]);
  await a.say("Count the lines of every log.", [call("bash", { command: "wc -l logs/*.log" }), text("120 lines in all.")]);
  await a.say("Now correlate all the timeouts across the three logs.", [fail("prompt is too long: 213462 tokens > 200000 maximum"), text("After compaction: the timeouts happen at the same minutes in all three logs.")]);
  await a.say("So what is the root cause?", [text("The database: the api and the worker time out waiting for it.")]);
  a.dispose();
  files.overflow = a.file;
}

// 6. edits: an extension edits the model's context (context_edit entries:
// null and {content} replacements, a replacement replaced, edits on one branch
// only), then compacts from a turn_end hook (retain-none, fromHook).
{
  reseed(1606);
  setClock("2026-11-26T10:00:00.000Z");
  const cwd = "/home/dev/pi16-edits";
  const vm = new VirtualMachine(cwd, { "server.log": log(60, 6), "config.yaml": "port: 8080\ntimeout: 30s\n" }, {});
  const a = await Agent.open({ home, cwd, vm, settings: { compaction: { keepRecentTokens: 100 } } });
  let drafts = [];
  a.hooks.turnEnd = () => {
    const entries = drafts;
    drafts = [];
    return entries.length ? { entries } : undefined;
  };
  await a.say("Read server.log and tell me what fails.", [call("read", { path: "server.log" }), text("Requests time out after 30s now and then.")]);
  const logResult = a.lastMessage("toolResult");
  const firstAsk = a.lastMessage("user");
  await a.say("Side question: what is 17 * 3?", [text("51.")]);
  const sideQ = a.lastMessage("user");
  const sideA = a.lastMessage("assistant");
  // The log trimmer replaces the long tool result (a string, which pi turns
  // into one text block) and drops the side question and its answer.
  drafts = [
    { type: "context_edit", targetId: logResult.id, replacement: { content: "[server.log: 60 lines; 9 timeouts, elided by log-trimmer]" } },
    { type: "context_edit", targetId: sideQ.id, replacement: null },
    { type: "context_edit", targetId: sideA.id, replacement: null },
  ];
  await a.say("Read config.yaml.", [call("read", { path: "config.yaml" }), text("The timeout is 30s.")]);
  const configAnswer = a.lastMessage("assistant");
  tick(20000);
  await a.api.sendMessage({ customType: "ci-status", content: "CI: 2 failing jobs", display: true });
  const ci = a.last((e) => e.type === "custom_message");
  drafts = [
    { type: "context_edit", targetId: firstAsk.id, replacement: { content: [{ type: "text", text: "Read server.log (the request, as the extension rewrote it)." }] } },
    { type: "context_edit", targetId: ci.id, replacement: { content: "CI: all green (updated)" } },
    { type: "context_edit", targetId: configAnswer.id, replacement: { content: "The timeout is 30 seconds (config.yaml)." } },
  ];
  await a.say("Raise the timeout to 60s.", [call("edit", { path: "config.yaml", edits: [{ oldText: "timeout: 30s", newText: "timeout: 60s" }] }), text("Raised to 60s.")]);
  // The same tool result edited again: the newest edit wins.
  drafts = [{ type: "context_edit", targetId: logResult.id, replacement: null }];
  await a.say("Is anything else in the log?", [text("Nothing else stands out.")]);
  const afterEdits = a.sm.getLeafId();
  // Another branch, from before the edits: they do not apply there.
  await a.navigate(sideA.id);
  await a.say("Back here: what did the log say?", [text("Timeouts after 30s.")]);
  // Back to the edited branch; compact it (pi distrusts the usage recorded
  // before the edits).
  await a.navigate(afterEdits);
  await a.compact();
  await a.say("Summarize the fix.", [text("Timeout raised from 30s to 60s in config.yaml.")]);
  // An extension compaction from a turn_end hook: it keeps nothing.
  drafts = [{ type: "compaction", summary: "## Goal\nFix request timeouts.\n\n## Progress\n### Done\n- [x] Raised the timeout to 60s\n\n## Next Steps\n1. Watch the log", firstKeptEntryId: null, details: { source: "timeout-helper" } }];
  await a.say("Done for today.", [text("Good night.")]);
  await a.say("One more thing: is the change saved?", [text("Yes, config.yaml says 60s.")]);
  a.dispose();
  files.edits = a.file;
}

// 7. models: a session with a custom id, a virtual model routing between the
// two faux models (model_change to it, router state entries), thinking
// changes, and pi's cache warmer (an extension overrides its decision to
// warm): once the prompt cache is about to expire it replays the last request
// and records a usage entry of kind cache_warm.
{
  reseed(1607);
  setClock("2026-11-27T13:00:00.000Z");
  const cwd = "/home/dev/pi16-models";
  const vm = new VirtualMachine(cwd, { "CHANGELOG.md": "## 1.0.0\n- first release\n" }, {});
  const router = {
    provider: "router",
    id: "auto",
    name: "Auto",
    thinkingLevels: ["low", "high"],
    route(request, ctx) {
      const sticky = request.failed ?? request.previous;
      if (request.reason !== "user" && sticky) return { model: sticky.model, thinkingLevel: sticky.thinkingLevel ?? "medium" };
      const id = request.thinkingLevel === "high" ? "faux-large" : "faux-small";
      return { model: ctx.modelRegistry.find("faux", id), thinkingLevel: id === "faux-large" ? "medium" : "off", state: { routed: (request.state?.routed ?? 0) + 1, last: id } };
    },
  };
  const a = await Agent.open({ home, cwd, vm, sessionId: "release-notes.2026-11", virtualModel: router, promptCache: { short: 11 } });
  await a.say("Draft release notes for 1.1.0.", [call("read", { path: "CHANGELOG.md" }), text("## 1.1.0\n- faster startup\n- fixes")]);
  await a.setModel("router/auto");
  a.setThinking("high");
  await a.say("Make them more detailed.", [call("read", { path: "CHANGELOG.md" }), text("## 1.1.0\n- Startup is 40% faster.\n- Fixed the crash on empty input.")]);
  a.setThinking("low");
  await a.say("And a one-line summary?", [text("1.1.0: faster and steadier.")]);
  await a.setModel("faux-small");
  a.name("Release notes 1.1.0");
  a.hooks.cacheWarm = true;
  await a.say("Thanks, that's all.", [text("Glad to help.")]);
  // The warmer's timer (real time: 90% of the 11 s cache lifetime, at most
  // ttl - 10 s) fires once; then the clock moves past the refresh deadline, so
  // that the next one stops.
  await new Promise((r) => setTimeout(r, 1500));
  tick(60000);
  await new Promise((r) => setTimeout(r, 1200));
  a.dispose();
  files.models = a.file;
}

// 8. forks: /fork (a new session up to just before a user message) and
// /clone (the active branch, labels on it dropped and re-created), both
// continued; `pi --fork PATH` of a 0.73.1 session (no system message) into
// another cwd, continued by 1.6.0: its first request declares the prompt
// mid-file, and a compaction there checkpoints it.
{
  reseed(1608);
  setClock("2026-11-28T09:00:00.000Z");
  // /fork at the tree session's "Use Python" request.
  {
    const cwd = "/home/dev/pi16-tree";
    const sm = SessionManager.open(files.tree);
    const python = sm.getEntries().find((e) => e.type === "message" && e.message.role === "user" && JSON.stringify(e.message.content).includes("Use Python"));
    sm.createBranchedSession(python.parentId);
    const a = await Agent.open({ home, cwd, vm: new VirtualMachine(cwd, {}, {}), sessionManager: sm });
    await a.say("Use JavaScript for it.", [text("With Node: `csv-parse` and `JSON.stringify`.")]);
    a.dispose();
    files.fork = a.file;
  }
  // /clone of the notes session (its path has label entries).
  {
    tick(3600000);
    const cwd = "/home/dev/pi16-notes";
    const sm = SessionManager.open(files.notes);
    sm.createBranchedSession(sm.getLeafId());
    const a = await Agent.open({ home, cwd, vm: new VirtualMachine(cwd, { "src/notes.ts": "export const notes: string[] = [];\n" }, {}), sessionManager: sm });
    await a.say("In this copy, try a Map instead of an array.", [call("edit", { path: "src/notes.ts", edits: [{ oldText: "export const notes: string[] = [];", newText: "export const notes = new Map<number, string>();" }] }), text("Switched to a `Map`.")]);
    a.dispose();
    files.clone = a.file;
  }
  // pi --fork of a 0.73.1 session (the multilingual one, so that the copy of
  // its first message and name does not shadow another session in filters).
  {
    tick(3600000);
    const old = join(store, "--home-dév-多语言 project--");
    const name = readdirSync(old).sort()[0];
    const src = join(sessions, "--home-dév-多语言 project--", name);
    mkdirSync(dirname(src), { recursive: true });
    copyFileSync(join(old, name), src);
    const cwd = "/home/dev/pi16-resumed";
    const sm = SessionManager.forkFrom(src, cwd, join(sessions, folderFor(cwd)));
    const vm = new VirtualMachine(cwd, { "i18n/greetings.json": '{"ja": "こんにちは", "ar": "مرحبا", "hi": "नमस्ते"}\n' }, { "npm test": { output: "PASS i18n/greetings.test.ts\n" } });
    const a = await Agent.open({ home, cwd, vm, sessionManager: sm, settings: { compaction: { keepRecentTokens: 400 } } });
    await a.say("Continue: add Korean to the greetings file.", [call("read", { path: "i18n/greetings.json" }), call("edit", { path: "i18n/greetings.json", edits: [{ oldText: '"hi": "नमस्ते"', newText: '"hi": "नमस्ते", "ko": "안녕하세요"' }] }), text("Added `\"ko\": \"안녕하세요\"` to `i18n/greetings.json`.")]);
    await a.compact();
    await a.say("Run the tests.", [call("bash", { command: "npm test" }), text("Tests pass.")]);
    a.dispose();
    files.resumed = a.file;
  }
}

// Into the fixture store: the pi16 folders only, replaced as a whole.
for (const name of readdirSync(store)) if (name.startsWith("--home-dev-pi16-")) rmSync(join(store, name), { recursive: true, force: true });
for (const name of readdirSync(sessions)) {
  if (!name.startsWith("--home-dev-pi16-")) continue;
  cpSync(join(sessions, name), join(store, name), { recursive: true });
}
for (const [k, f] of Object.entries(files)) console.log(`${k.padEnd(9)} ${statSync(f).size.toString().padStart(7)} bytes  ${f.slice(sessions.length + 1)}`);
console.log("fixtures written to", store);
