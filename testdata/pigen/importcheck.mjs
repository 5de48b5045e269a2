// Import check: `skein session import --to pi` of other agents' sessions,
// read back by pi 1.6.0 (run with ./node22); a source is a file or a Dhara
// session folder:
//   - pi opens each file skein wrote (on a copy: pi writes when it opens) and
//     skips none of its lines; every entry's parent is in the file;
//   - on every branch, every tool call of an answer is answered by a result
//     before the next message, as the model APIs want;
//   - pi's context (buildSessionContext at the file's leaf) ends on the source's
//     path: its last user prompt is the source's latest prompt (the
//     expectation file's latestPrompt beside the source, when there is one,
//     else a text of the source);
//   - pi continues it: its real agent loop (over the faux provider) sends the
//     imported conversation, every call paired, and appends its reply after
//     the imported leaf.
// Usage: ./node22 importcheck.mjs --skein BIN SOURCE...
import { mkdtempSync, readFileSync, readdirSync, rmSync, copyFileSync, existsSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve, basename, dirname } from "node:path";
import { spawnSync } from "node:child_process";
import { Agent, VirtualMachine, SessionManager, text } from "./lib.mjs";

const { buildSessionContext } = await import("@earendil-works/pi-coding-agent");

const argv = process.argv.slice(2);
const at = argv.indexOf("--skein");
const skein = resolve(at >= 0 ? argv[at + 1] : "../../skein");
const sources = argv.filter((a, i) => i !== at && i !== at + 1);
const work = mkdtempSync(join(tmpdir(), "skein-importcheck-"));
const home = join(work, "home");
let passed = 0;
let failed = 0;
const check = (what, ok, detail = "") => {
  if (ok) passed++;
  else {
    failed++;
    console.log(`FAIL ${what}${detail ? `\n  ${detail}` : ""}`);
  }
  return ok;
};
let copies = 0;
const load = (file) => {
  const copy = join(work, `read-${copies++}-${basename(file)}`);
  copyFileSync(file, copy);
  const sm = SessionManager.open(copy);
  return { copy, sm, entries: sm.getEntries(), header: sm.getHeader() };
};
const textOf = (m) => (typeof m.content === "string" ? m.content : (m.content ?? []).filter((b) => b.type === "text").map((b) => b.text).join("\n"));

// unpaired lists the calls of messages that no result answers before the
// next message that is not a result.
const unpaired = (messages) => {
  const out = [];
  for (let k = 0; k < messages.length; k++) {
    const m = messages[k];
    // pi leaves an answer that failed or was stopped out of what it sends.
    if (m.role !== "assistant" || m.stopReason === "error" || m.stopReason === "aborted") continue;
    const calls = (m.content ?? []).filter((b) => b.type === "toolCall").map((b) => b.id);
    const answered = new Set();
    for (let j = k + 1; j < messages.length && messages[j].role === "toolResult"; j++) answered.add(messages[j].toolCallId);
    for (const id of calls) if (!answered.has(id)) out.push(id);
  }
  return out;
};

for (const src of sources) {
  const res = spawnSync(skein, ["session", "import", "--file", src, "--to", "pi", "--out", join(work, "out"), "--json"], { encoding: "utf8" });
  if (!check(`import ${src}`, res.status === 0, res.stderr)) continue;
  const got = JSON.parse(res.stdout);
  const sessions = got.sessions ?? [got];
  // A split ChatGPT export is one export: its sessions are every part's.
  const parts = /conversations-\d+\.json$/.test(src)
    ? readdirSync(dirname(src)).filter((n) => /^conversations-\d+\.json\.expect\.json$/.test(n)).sort().map((n) => join(dirname(src), n))
    : [`${src}.expect.json`];
  const expect = parts.every((f) => existsSync(f)) ? parts.flatMap((f) => JSON.parse(readFileSync(f, "utf8")).sessions) : null;
  if (expect) check(`${src}: one session per conversation`, sessions.length === expect.length, `${sessions.length} sessions, expected ${expect.length}`);
  // A Dhara session is a folder: its entries are its text. A session a
  // container holds ("<db>#<id>", OpenCode's) has the container's bytes.
  const file = !existsSync(src) && src.includes("#") ? src.slice(0, src.lastIndexOf("#")) : src;
  let srcBytes = statSync(file).isDirectory()
    ? ["archive.jsonl", "entries.jsonl"].filter((n) => existsSync(join(file, n))).map((n) => readFileSync(join(file, n), "utf8")).join("\n")
    : readFileSync(file, "utf8");
  // A session of OpenCode's older layout (storage/session/<project>/<id>.json)
  // has its text in its messages' parts' files (storage/part/<message>/).
  const legacy = /^(.*)\/storage\/session\/[^/]+\/([^/]+)\.json$/.exec(resolve(file));
  if (legacy) {
    const storage = join(legacy[1], "storage");
    const msgs = join(storage, "message", legacy[2]);
    for (const m of existsSync(msgs) ? readdirSync(msgs) : []) {
      const parts = join(storage, "part", basename(m, ".json"));
      for (const p of existsSync(parts) ? readdirSync(parts) : []) srcBytes += "\n" + readFileSync(join(parts, p), "utf8");
    }
  }
  for (const [k, s] of sessions.entries()) {
    const what = `${src}${sessions.length > 1 ? ` #${k}` : ""} -> ${s.path}`;
    let f;
    try {
      f = load(s.path);
    } catch (err) {
      check(`${what}: pi opens it`, false, String(err.message));
      continue;
    }
    const lines = readFileSync(s.path, "utf8").split("\n").filter((l) => l !== "").length;
    check(`${what}: pi opens it, version 3, every line an entry`, f.header?.version === 3 && f.entries.length === lines - 1, `${f.entries.length} entries of ${lines - 1} lines`);
    const ids = new Set(f.entries.map((e) => e.id));
    check(`${what}: every parent in the file`, f.entries.every((e) => e.parentId === null || ids.has(e.parentId)));
    const parents = new Set(f.entries.map((e) => e.parentId));
    const leaves = f.entries.filter((e) => !parents.has(e.id));
    if (expect?.[k]) check(`${what}: ${expect[k].branches} branches`, leaves.length >= expect[k].branches, `${leaves.length} leaves`);
    for (const leaf of leaves) {
      const msgs = f.sm.getBranch(leaf.id).filter((e) => e.type === "message").map((e) => e.message);
      const open = unpaired(msgs);
      check(`${what} @${leaf.id}: every call answered`, open.length === 0, `unanswered: ${open.join(", ")}`);
    }
    const ctx = buildSessionContext(f.entries);
    const users = ctx.messages.filter((m) => m.role === "user");
    const last = users.at(-1);
    if (expect?.[k]?.latestPrompt) check(`${what}: pi's context ends with the latest prompt`, last && textOf(last).includes(expect[k].latestPrompt), `last prompt: ${last && JSON.stringify(textOf(last)).slice(0, 200)}`);
    else if (!last) check(`${what}: no prompt in pi's context: none in the file, or a compaction summarized them`, ctx.messages.some((m) => m.role === "compactionSummary") || !f.entries.some((e) => e.type === "message" && e.message.role === "user"));
    else check(`${what}: pi's context has the source's last prompt`, last && srcBytes.includes(JSON.stringify(textOf(last).split("\n")[0]).slice(1, -1)), `last prompt: ${last && JSON.stringify(textOf(last)).slice(0, 200)}`);
    check(`${what}: pi's context pairs every call`, unpaired(ctx.messages).length === 0);
    // pi continues it.
    const before = f.entries.length;
    const leafID = f.entries.at(-1).id;
    const cwd = f.header.cwd || "/";
    let sent;
    const b = await Agent.open({ home, cwd, vm: new VirtualMachine(cwd), sessionManager: f.sm });
    try {
      await b.say("UNSEEN-CONTINUE go on", [(context) => ((sent = context.messages), text("continued")())], { lenient: true });
    } finally {
      b.dispose();
    }
    const after = SessionManager.open(f.copy).getEntries();
    const appended = after.slice(before);
    const prompt = appended.find((e) => e.type === "message" && e.message.role === "user");
    const onLeaf = prompt && SessionManager.open(f.copy).getBranch(prompt.id).some((e) => e.id === leafID);
    check(`${what}: pi continues after the imported leaf`, onLeaf && appended.some((e) => e.type === "message" && e.message.role === "assistant" && textOf(e.message) === "continued"), JSON.stringify(appended.map((e) => [e.type, e.message?.role])));
    const sentUsers = (sent ?? []).filter((m) => m.role === "user").map(textOf);
    check(`${what}: pi sends the imported conversation, calls paired`, sent && unpaired(sent).length === 0 && sentUsers.length >= users.length, `sent ${sent?.length} messages, ${sentUsers.length} prompts (context has ${users.length}); unanswered: ${sent && unpaired(sent).join(", ")}`);
  }
}
console.log(`importcheck: ${passed} passed, ${failed} failed (${sources.length} sources)`);
if (failed === 0) rmSync(work, { recursive: true, force: true });
else console.log(`kept ${work}`);
process.exit(failed ? 1 : 0);
