// Writes skein's pi fixtures with the reference implementation itself
// (@mariozechner/pi-coding-agent 0.73.1): testdata/pi/store holds sessions
// that pi's SessionManager wrote, testdata/pi/legacy v1 and v2 files as older
// pi versions wrote them, testdata/pi/broken damaged files.
// Run: node gen.mjs && node oracle.mjs (see testdata/pigen/README.md).
import { mkdirSync, rmSync, writeFileSync, readFileSync, appendFileSync } from "fs";
import { join, dirname } from "path";
import { fileURLToPath } from "url";
import { SessionManager } from "@mariozechner/pi-coding-agent";
import { Writer, rng, setClock, tick, user, assistant, toolCall, toolResult, bash, usage, PROVIDERS, PNG_1x1 } from "./lib.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "..", "pi");
for (const d of ["store", "legacy", "broken"]) rmSync(join(root, d), { recursive: true, force: true });
const store = join(root, "store");
const dirFor = (cwd) => join(store, `--${cwd.replace(/^[/\\]/, "").replace(/[/\\:]/g, "-")}--`);

// 1. basic: tools, thinking, model and thinking changes, a name.
{
  setClock("2026-03-02T09:00:00.000Z");
  const cwd = "/home/dev/webapp";
  const w = new Writer(cwd, dirFor(cwd), rng(1));
  w.sm.appendModelChange("anthropic", "claude-sonnet-4-5");
  w.sm.appendThinkingLevelChange("medium");
  w.msg(user("Add a /health endpoint to the server and a test for it."));
  w.call("read", { path: "src/server.ts" }, "import express from 'express';\nconst app = express();\napp.listen(3000);\n", {
    thinking: "I should look at the server first.",
    text: "Let me read the server.",
  });
  w.call("edit", { path: "src/server.ts", oldText: "app.listen(3000);", newText: "app.get('/health', (_, res) => res.json({ ok: true }));\napp.listen(3000);" }, "Successfully replaced text in src/server.ts.");
  w.call("write", { path: "test/health.test.ts", content: "import request from 'supertest';\n// ...\n" }, "Successfully wrote 42 bytes to test/health.test.ts");
  w.call("bash", { command: "npm test -- health" }, "PASS test/health.test.ts\n  ✓ returns ok (12 ms)\n");
  w.msg(
    assistant([
      {
        type: "text",
        text: "Done. I added the endpoint:\n\n```ts\napp.get('/health', (_, res) => res.json({ ok: true }));\n```\n\nand a test in `test/health.test.ts`. All tests pass.\n\n| file | change |\n|---|---|\n| src/server.ts | route |\n| test/health.test.ts | new |",
      },
    ]),
  );
  w.sm.appendSessionInfo("  Health endpoint  ");
  w.turn("Thanks! What port does it listen on?", "Port **3000**, set in `src/server.ts`.");
}

// 2. branches: in-place branches with and without summaries, labels set and
// cleared, names set and cleared.
{
  setClock("2026-03-03T14:00:00.000Z");
  const cwd = "/home/dev/webapp";
  const w = new Writer(cwd, dirFor(cwd), rng(2));
  w.msg(user("Which database should we use for the cache: Redis or SQLite?"));
  const a1 = w.msg(assistant([{ type: "text", text: "Both work. Redis is faster for hot keys; SQLite needs no server." }]));
  w.sm.appendLabelChange(a1, "options");
  const u2 = w.msg(user("Try Redis first."));
  w.call("bash", { command: "redis-cli ping" }, "Could not connect to Redis at 127.0.0.1:6379: Connection refused", { isError: true });
  w.msg(assistant([{ type: "text", text: "Redis is not running here." }]));
  w.sm.appendSessionInfo("cache choice");
  // Branch back without a summary (like /tree selecting an earlier entry).
  w.sm.branch(a1);
  w.msg(user("Let's go with SQLite instead."));
  w.call("write", { path: "src/cache.ts", content: "import Database from 'better-sqlite3';\n" }, "Successfully wrote 40 bytes to src/cache.ts");
  const a3 = w.msg(assistant([{ type: "text", text: "SQLite cache written to `src/cache.ts`." }]));
  w.sm.appendLabelChange(a3, "sqlite");
  w.sm.appendLabelChange(a1, "decision point");
  w.sm.appendSessionInfo("");
  // Branch back to u2 with a summary of the abandoned path.
  tick(60000);
  w.sm.branchWithSummary(u2, "## Goal\nPick a cache backend.\n\n## Progress\n### Done\n- [x] Wrote an SQLite cache in src/cache.ts\n\n<modified-files>\nsrc/cache.ts\n</modified-files>", { readFiles: [], modifiedFiles: ["src/cache.ts"] });
  w.msg(assistant([{ type: "text", text: "Back on the Redis path: start it with `docker run redis`." }]));
  w.sm.appendLabelChange(a3, "");
  w.sm.appendSessionInfo("Cache: Redis vs SQLite");
  // A branch summary from before the first entry (fromId "root").
  tick(60000);
  w.sm.branchWithSummary(null, "Nothing was done before this point.");
  w.turn("Start over: what is a cache?", "A cache keeps results close so they are cheap to fetch again.");
}

// 3. compaction: repeated compactions, a split turn, one from a hook.
{
  setClock("2026-03-04T08:00:00.000Z");
  const cwd = "/home/dev/tools";
  const r = rng(3);
  const w = new Writer(cwd, dirFor(cwd), r);
  w.sm.appendModelChange("openai", "gpt-5.1-codex");
  const files = ["cmd/main.go", "internal/parse.go", "internal/parse_test.go", "README.md", "go.mod"];
  const long = (n) => "lorem ipsum dolor sit amet ".repeat(n);
  for (let round = 0; round < 3; round++) {
    w.msg(user(`Round ${round}: refactor the parser, step ${round}. ${long(20)}`));
    for (let i = 0; i < 4; i++) {
      const f = files[(round + i) % files.length];
      w.call(r.pick(["read", "read", "edit", "write"]), { path: f }, long(r.int(20, 120)), { text: `Working on ${f}.`, p: PROVIDERS[1] });
    }
    w.msg(assistant([{ type: "text", text: `Round ${round} finished. ${long(30)}` }], { p: PROVIDERS[1] }));
    w.compact(600, { goal: `Refactor the parser (round ${round}).` });
  }
  // A long single turn so the cut falls inside it (split turn).
  w.msg(user("Now run the whole test suite and fix every failure."));
  for (let i = 0; i < 8; i++) {
    w.call(i % 2 ? "bash" : "edit", i % 2 ? { command: `go test ./... -run T${i}` } : { path: files[i % files.length] }, long(60), { p: PROVIDERS[1] });
  }
  w.compact(900);
  w.turn("Summarize what changed.", `Everything is green. ${long(10)}`, { p: PROVIDERS[1] });
  w.compact(100, { fromHook: true });
  w.turn("And the README?", "Updated too.", { p: PROVIDERS[1] });
}

// 4. media, errors, aborts, bash, custom entries and messages.
{
  setClock("2026-03-05T19:30:00.000Z");
  const cwd = "/home/dev/webapp";
  const w = new Writer(cwd, dirFor(cwd), rng(4));
  w.msg(user([{ type: "text", text: "What is wrong with this screenshot?" }, { type: "image", data: PNG_1x1, mimeType: "image/png" }]));
  w.msg(assistant([], { stopReason: "error", errorMessage: "429 rate_limit_error: Number of request tokens has exceeded your per-minute rate limit", usage: usage(0, 0) }));
  w.msg(assistant([{ type: "thinking", thinking: "The image is a single pixel." }, { type: "text", text: "It is a 1x1 pixel: the capture failed." }]));
  w.msg(bash("ls -la", "total 8\ndrwxr-xr-x 2 dev dev 4096 .\n"));
  w.msg(bash("make build", "error: missing target\n", 2));
  w.msg(bash("sleep 100", "", undefined, { cancelled: true }));
  w.msg(bash("cat secrets.txt", "hidden", 0, { excludeFromContext: true }));
  w.sm.appendCustomEntry("todo-state", { items: [{ text: "fix capture", done: false }] });
  w.gap();
  w.sm.appendCustomMessageEntry("reminder", "Remember to run the linter.", true, { source: "hook" });
  w.gap();
  w.sm.appendCustomMessageEntry("context-file", [{ type: "text", text: "AGENTS.md says: use tabs." }], false);
  w.msg(user("Take another screenshot and read it."));
  const tc = toolCall("read", { path: "shot.png" });
  w.msg(assistant([tc]));
  w.msg(toolResult(tc, [{ type: "text", text: "Read image file [image/png]" }, { type: "image", data: PNG_1x1, mimeType: "image/png" }]));
  w.msg(user("Write a very long essay about it."));
  w.msg(assistant([{ type: "text", text: "The pixel, as a subject, is" }], { stopReason: "aborted", usage: usage(0, 0) }));
  w.msg(assistant([{ type: "text", text: "Cut off." }], { stopReason: "length" }));
}

// 5. text in many scripts, and hostile terminal sequences.
{
  setClock("2026-03-06T06:15:00.000Z");
  const cwd = "/home/dév/多语言 project";
  const w = new Writer(cwd, dirFor(cwd), rng(5));
  w.sm.appendThinkingLevelChange("high");
  w.turn("Переведи «hello» на японский, арабский и хинди, пожалуйста.", "こんにちは (Japanese), مرحبا (Arabic), नमस्ते (Hindi).");
  w.turn("Emoji test: 👩‍👩‍👧‍👦 🇯🇵 🏳️‍🌈 and astral 𝔘𝔫𝔦𝔠𝔬𝔡𝔢 𠜎𠜱", "Combining: é (e + U+0301), Z̤͔ͧ̑̓ä͖̭̈̇lͮ̒ͫǫ̗̻̜, Hangul 한국어, Thai ภาษาไทย.");
  w.turn(
    "Hostile: \u001b]0;pwned title\u0007 \u001b[2J\u001b[H clear, \u001b]52;c;ZWNobyBoaQ==\u0007 clipboard, bell \u0007, C1 \u009b31m.",
    "Line separators\u2028and\u2029paragraphs, a NUL-free <tag> & \"quotes\" and a tab\there.",
  );
  w.sm.appendSessionInfo("多语言 ✨ test");
}

// 6. forks: pi's createBranchedSession (which drops on-path labels) and forkFrom.
let forkSource;
{
  setClock("2026-03-07T10:00:00.000Z");
  const cwd = "/home/dev/tools";
  const w = new Writer(cwd, dirFor(cwd), rng(6));
  w.msg(user("Plan the release of v2."));
  const a = w.msg(assistant([{ type: "text", text: "1. Freeze. 2. Tag. 3. Announce." }]));
  w.sm.appendLabelChange(a, "plan");
  const u = w.msg(user("Tag it now."));
  w.call("bash", { command: "git tag v2.0.0 && git push --tags" }, "To github.com:dev/tools.git\n * [new tag] v2.0.0 -> v2.0.0");
  w.msg(assistant([{ type: "text", text: "Tagged and pushed." }]));
  forkSource = w.file;
  tick(3600000);
  const sm = SessionManager.open(forkSource);
  sm.createBranchedSession(u);
  tick(3600000);
  const sm2 = SessionManager.forkFrom(forkSource, "/home/dev/tools-fork", dirFor("/home/dev/tools-fork"));
  sm2.appendMessage(user("Continue in the copied session."));
  sm2.appendMessage(assistant([{ type: "text", text: "Continuing." }]));
}

// 7. a long session with many models, for plans at many budgets.
{
  setClock("2026-03-08T12:00:00.000Z");
  const cwd = "/home/dev/big";
  const r = rng(7);
  const w = new Writer(cwd, dirFor(cwd), r);
  const words = ["parser", "lexer", "token", "grammar", "ast", "visitor", "emit", "bytecode", "vm", "gc"];
  for (let t = 0; t < 25; t++) {
    if (t % 6 === 0) w.sm.appendModelChange(...(() => { const p = PROVIDERS[t % 3]; return [p.provider, p.model]; })());
    if (t % 8 === 3) w.sm.appendThinkingLevelChange(r.pick(["low", "medium", "high", "off"]));
    w.msg(user(`Task ${t}: improve the ${r.pick(words)} and the ${r.pick(words)}.`));
    const calls = r.int(0, 4);
    for (let i = 0; i < calls; i++) {
      const name = r.pick(["read", "edit", "write", "bash", "grep"]);
      const args = name === "bash" ? { command: `go test ./${r.pick(words)}/...` } : name === "grep" ? { pattern: r.pick(words), path: "src" } : { path: `src/${r.pick(words)}.go` };
      w.call(name, args, `${r.pick(words)} `.repeat(r.int(10, 400)), { p: PROVIDERS[t % 3], text: r.chance(0.5) ? `Checking ${r.pick(words)}.` : undefined });
    }
    w.msg(assistant([{ type: "text", text: `Done with task ${t}. ` + "Details follow. ".repeat(r.int(5, 80)) }], { p: PROVIDERS[t % 3] }));
    if (t === 12) w.compact(3000);
  }
  w.sm.appendSessionInfo("Compiler work");
}

// ---- legacy files, as pi v1 and v2 wrote them ------------------------------------
{
  const dir = join(root, "legacy");
  mkdirSync(dir, { recursive: true });
  const ts = (m) => new Date(Date.UTC(2025, 0, 10, 9, m)).toISOString();
  const ms = (m) => Date.UTC(2025, 0, 10, 9, m);
  const u = (m, text) => ({ role: "user", content: text, timestamp: ms(m) });
  const a = (m, text) => ({ role: "assistant", content: [{ type: "text", text }], api: "anthropic-messages", provider: "anthropic", model: "claude-3-5-sonnet", usage: usage(100 * m, 20 * m), stopReason: "stop", timestamp: ms(m) });
  const v1 = [
    { type: "session", id: "0b2e7c1a-1111-4111-8111-111111111111", timestamp: ts(0), cwd: "/home/dev/old", branchedFrom: "/home/dev/.pi/agent/sessions/--home-dev-old--/2024-12-01T00-00-00-000Z_aaaa.jsonl" },
    { type: "model_change", timestamp: ts(1), provider: "anthropic", modelId: "claude-3-5-sonnet" },
    { type: "message", timestamp: ts(2), message: u(2, "First question in a v1 file.") },
    { type: "message", timestamp: ts(3), message: a(3, "First answer.") },
    { type: "message", timestamp: ts(4), message: u(4, "Second question.") },
    { type: "message", timestamp: ts(5), message: a(5, "Second answer.") },
    { type: "compaction", timestamp: ts(6), summary: "The user asked two questions.", firstKeptEntryIndex: 4, tokensBefore: 500 },
    { type: "thinking_level_change", timestamp: ts(7), thinkingLevel: "low" },
    { type: "message", timestamp: ts(8), message: u(8, "Third question, after compaction.") },
    { type: "message", timestamp: ts(9), message: a(9, "Third answer.") },
  ];
  writeFileSync(join(dir, "v1.jsonl"), v1.map((e) => JSON.stringify(e)).join("\n") + "\n");
  const v2 = [
    { type: "session", version: 2, id: "0b2e7c1a-2222-4222-8222-222222222222", timestamp: ts(0), cwd: "/home/dev/old" },
    { type: "message", id: "a0000001", parentId: null, timestamp: ts(1), message: u(1, "A v2 question.") },
    { type: "message", id: "a0000002", parentId: "a0000001", timestamp: ts(2), message: a(2, "A v2 answer.") },
    { type: "message", id: "a0000003", parentId: "a0000002", timestamp: ts(3), message: { role: "hookMessage", customType: "lint", content: "Lint passed.", display: true, timestamp: ms(3) } },
    { type: "label", id: "a0000004", parentId: "a0000003", timestamp: ts(4), targetId: "a0000002", label: "answer" },
    { type: "message", id: "a0000005", parentId: "a0000001", timestamp: ts(5), message: a(5, "A second answer on another branch.") },
  ];
  writeFileSync(join(dir, "v2.jsonl"), v2.map((e) => JSON.stringify(e)).join("\n") + "\n");
}

// ---- broken files ---------------------------------------------------------------------
{
  const dir = join(root, "broken");
  mkdirSync(dir, { recursive: true });
  const src = readFileSync(join(store, "--home-dev-webapp--", (await import("fs")).readdirSync(join(store, "--home-dev-webapp--")).sort()[0]), "utf8");
  const lines = src.trimEnd().split("\n");
  // A writer that crashed mid-line: the last line is cut.
  writeFileSync(join(dir, "truncated.jsonl"), lines.join("\n").slice(0, -37));
  // Garbage in the middle, blank lines, CRLF and a line cut then continued.
  const garbage = [...lines];
  garbage.splice(3, 0, "not json at all", "", "{\"type\":\"message\",\"id\":\"deadbeef\",\"parentId\":", "   ", "[1,2,3]", "{}");
  writeFileSync(join(dir, "garbage.jsonl"), garbage.join("\n") + "\n");
  writeFileSync(join(dir, "crlf.jsonl"), lines.join("\r\n") + "\r\n");
  writeFileSync(join(dir, "bom.jsonl"), "\ufeff" + lines.join("\n") + "\n");
  writeFileSync(join(dir, "no-header.jsonl"), lines.slice(1).join("\n") + "\n");
  writeFileSync(join(dir, "empty.jsonl"), "");
  writeFileSync(join(dir, "header-only.jsonl"), lines[0] + "\n");
  writeFileSync(join(dir, "not-a-session.jsonl"), '{"hello":"world"}\n{"type":"message"}\n');
  // Orphans: entries whose parent is missing, one that is its own parent,
  // a duplicate id and a label of a missing entry.
  const parsed = lines.map((l) => JSON.parse(l));
  const orph = [...parsed];
  orph.splice(4, 1); // drop an entry: its child becomes an orphan
  orph.push({ type: "message", id: "selfself", parentId: "selfself", timestamp: "2026-03-09T00:00:00.000Z", message: user("I am my own parent.") });
  orph.push({ type: "label", id: "lab00001", parentId: "selfself", timestamp: "2026-03-09T00:00:01.000Z", targetId: "nothere1", label: "ghost" });
  orph.push({ ...parsed[2], parentId: "lab00001" }); // duplicate id
  writeFileSync(join(dir, "orphans.jsonl"), orph.map((e) => JSON.stringify(e)).join("\n") + "\n");
  // A parent cycle: pi loops forever on it; skein must break it.
  const cyc = parsed.slice(0, 4).map((e) => ({ ...e }));
  cyc[1].parentId = cyc[3].id;
  writeFileSync(join(dir, "cycle.jsonl"), cyc.map((e) => JSON.stringify(e)).join("\n") + "\n");
  // Newer writers: unknown entry types, roles and blocks, usage without cost.
  const newer = [...parsed.slice(0, 3)];
  let prev = parsed[2].id;
  const add = (e) => { newer.push({ ...e, parentId: prev }); prev = e.id; };
  add({ type: "usage", id: "f0000001", timestamp: "2026-03-09T01:00:00.000Z", input: 10 });
  add({ type: "message", id: "f0000002", timestamp: "2026-03-09T01:00:01.000Z", message: { role: "system", content: "You are helpful.", timestamp: 1773018001000 } });
  add({ type: "message", id: "f0000003", timestamp: "2026-03-09T01:00:02.000Z", message: { role: "assistant", content: [{ type: "hologram", payload: 42 }, { type: "toolCall", id: "c1", name: "noop", arguments: null }, { type: "text", text: "ok" }], api: "x", provider: "y", model: "z", usage: { input: 5, output: 6, cacheRead: 0, cacheWrite: 0 }, stopReason: "stop", timestamp: 1773018002000, extraField: [1] } });
  add({ type: "context_edit", id: "f0000004", timestamp: "2026-03-09T01:00:03.000Z", edits: [] });
  writeFileSync(join(dir, "newer.jsonl"), newer.map((e) => JSON.stringify(e)).join("\n") + "\n");
}
console.log("fixtures written to", root);
