// Cross-check: pi 1.6.0's own agent loop (createAgentSession over the scripted
// fauxProvider, see lib.mjs) writes random sessions that no test has seen (a
// new seed each run unless --seed is given), mixing what 1.6.0 writes: system
// messages and their patches (tool loadouts, prompt sections), tool calls with
// results and errors, nested calls, images, `!` commands, aborts, errors,
// context overflow recovery, threshold and manual compactions, extension
// context edits and compactions, /tree navigation with and without summaries,
// labels, names, model and thinking changes, custom messages, forks and
// clones, pi's cache warmer (usage entries), answers from a fallback model
// (responseModel), and a tool whose results record usage of their own. Then
// skein's `session list`, `tree`, `context`, `plan --json` and `stats --json`
// must print exactly what pi computes for them; and pi must read back what
// skein writes (forks, labels, names, compactions, extractive and by a model
// through a local stand-in of Anthropic's API, whose usage pi's totals must
// read), and continue a
// skein-compacted session the way it continues its own: the system prompt
// first, and no re-declaration of the prompt or tools after the compaction.
//
// Usage: ./node22 crosscheck.mjs --skein ../../skein [--seed N] [--sessions K] [--keep]
// Exits 1 on any mismatch, printing where the outputs first differ: "got" is
// skein's output (or what pi reads in a file skein wrote), "want" what pi
// computes (or what was meant). --keep keeps the sessions written.
import { mkdtempSync, mkdirSync, readFileSync, rmSync, copyFileSync, writeFileSync } from "node:fs";
import { randomInt, createHash } from "node:crypto";
import { tmpdir } from "node:os";
import { join, resolve, dirname, basename } from "node:path";
import { spawn, spawnSync } from "node:child_process";
import { createServer } from "node:http";
import { isDeepStrictEqual } from "node:util";
import { Type } from "typebox";
import { Agent, VirtualMachine, SessionManager, rng, reseed, setClock, tick, text, call, fail, reply, fauxText, fauxThinking, PNG_1x1, folderFor, usage } from "./lib.mjs";

const PI = "./node_modules/@earendil-works/pi-coding-agent/dist";
const { buildSessionContext, buildSessionProjection } = await import("@earendil-works/pi-coding-agent");
const { getCurrentSystemMessage } = await import("@earendil-works/pi-ai");
const { prepareCompaction } = await import(`${PI}/core/compaction/compaction.js`);
const { computeFileLists } = await import(`${PI}/core/compaction/utils.js`);
const { addUsageToTotals, createUsageTotals, getUsageCostBreakdown } = await import(`${PI}/core/usage-totals.js`);

// A stand-in for Anthropic's streaming Messages API, so that skein's LLM
// summarizer runs offline: its compaction must carry usage in pi's full shape.
const fakeLLM = createServer((req, res) => {
  req.resume();
  req.on("end", () => {
    res.writeHead(200, { "content-type": "text/event-stream" });
    const sse = (event, data) => res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    sse("message_start", { type: "message_start", message: { id: "msg_1", type: "message", role: "assistant", model: "m", content: [], stop_reason: null, usage: { input_tokens: 100, output_tokens: 1 } } });
    sse("content_block_start", { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } });
    sse("content_block_delta", { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "## Goal\nSummarized by a model." } });
    sse("content_block_stop", { type: "content_block_stop", index: 0 });
    sse("message_delta", { type: "message_delta", delta: { stop_reason: "end_turn" }, usage: { output_tokens: 20 } });
    sse("message_stop", { type: "message_stop" });
    res.end();
  });
});
await new Promise((ok) => fakeLLM.listen(0, "127.0.0.1", ok));
const llmURL = `http://127.0.0.1:${fakeLLM.address().port}`;
// runAsync runs skein while this process keeps serving the stand-in.
const runAsync = (args, env) =>
  new Promise((ok) => {
    const p = spawn(skein, args, { env: { ...process.env, ...env } });
    let out = "";
    p.stdout.on("data", (d) => (out += d));
    p.on("close", (status) => ok({ status, stdout: out }));
  });

const argv = process.argv.slice(2);
const opt = (name, def) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : def;
};
const skein = resolve(opt("skein", "../../skein"));
const seed = Number(opt("seed", randomInt(1, 2 ** 31)));
const count = Number(opt("sessions", 30));
const r = rng(seed);
reseed(seed);
const work = mkdtempSync(join(tmpdir(), "skein-crosscheck-"));
const home = join(work, "home");
const store = join(home, ".pi", "agent", "sessions");
console.log(`crosscheck: seed ${seed}, ${count} sessions in ${work} (rerun: --seed ${seed})`);

const SCRIPTS = ["hello world", "Привет мир", "こんにちは世界", "مرحبا بالعالم", "नमस्ते दुनिया", "👩‍💻 🚀 🇫🇷", "𝔘𝔫𝔦𝔠𝔬𝔡𝔢 𠜎", "e\u0301 Z\u0324\u0354", "tab\there", 'quote " back\\slash', "line\u2028sep", "<b>&amp;</b>"];
const words = (n) => Array.from({ length: n }, () => r.pick(SCRIPTS)).join(" ");
const FILES = ["a.go", "b/c.ts", "README.md", "ünï.txt", "dir/日本.md", "img/shot.png"];
const COMMANDS = ["make", "go test ./...", "ls -la", "git status"];

// A machine with one more tool: "ask" stands for a tool that calls a model of
// its own (a subagent, a web search), and returns that model's usage with its
// result, which pi's agent loop stores on the tool result (agent-loop.js
// createToolResultMessage) and pi's totals count. Its costs are not round, so
// that the order of pi's sums matters; now and then its usage has no cost,
// which pi's getSessionStats cannot add (it throws) and skein marks.
class StatsVM extends VirtualMachine {
  toolDefinitions() {
    const ask = {
      name: "ask",
      label: "Ask",
      description: "Ask another model a question.",
      promptSnippet: "Ask another model",
      parameters: Type.Object({ question: Type.String() }),
      async execute() {
        tick(1200);
        const u = usage(r.int(10, 5000), r.int(1, 900), r.int(0, 3000), r.int(0, 400));
        if (r.chance(0.05)) delete u.cost;
        return { content: [{ type: "text", text: words(r.int(1, 6)) }], details: undefined, usage: u };
      },
    };
    return [...super.toolDefinitions(), ask];
  }
}

// ---- random sessions, written by pi's agent loop ------------------------------------------
async function randomSession(k) {
  setClock(new Date(Date.UTC(2026, 11, 1 + (k % 28), r.int(0, 23), r.int(0, 59))).toISOString());
  const cwd = r.pick(["/home/dev/alpha", "/home/dev/beta", "/srv/gamma project"]);
  const files = {};
  for (const f of FILES) if (r.chance(0.7)) files[f] = f.endsWith(".png") ? Buffer.from(PNG_1x1, "base64") : `${words(r.int(1, 80))}\n`;
  const shell = {};
  for (const c of COMMANDS) if (r.chance(0.6)) shell[c] = { output: `${words(r.int(0, 60))}\n`, exitCode: r.pick([0, 0, 1, 2]) };
  const vm = new StatsVM(cwd, files, shell);
  const small = r.chance(0.35);
  const paced = r.chance(0.15);
  // pi's cache warmer: a cache that lives half an hour, so that its timer
  // (real time: 27 minutes, within its 30-minute idle limit) never fires on
  // its own; warmNow runs its refresh at once, which writes a usage entry.
  const warm = r.chance(0.4);
  const a = await Agent.open({
    home,
    cwd,
    vm,
    paced,
    model: small ? "faux-small" : "faux-large",
    promptCache: warm ? { short: 1800 } : undefined,
    settings: { compaction: { keepRecentTokens: r.pick([100, 300, 800, 2000]), reserveTokens: small ? r.pick([1000, 2500, 4000]) : 16384 } },
  });
  if (warm) a.hooks.cacheWarm = true; // the faux models cost nothing: warming would never pay
  // The warmer's refresh, now: it replays the last request and appends a usage entry.
  const warmNow = async () => {
    const w = a.session._cacheWarmer;
    if (!w?.run) return;
    tick(r.int(1000, 60000));
    await w.refresh(w.run);
    w.cancel();
  };
  const ids = () => a.sm.getEntries().map((e) => e.id);
  const editable = () => a.branch().filter((e) => e.type === "custom_message" || (e.type === "message" && ["user", "assistant", "toolResult"].includes(e.message.role)));
  let drafts = [];
  a.hooks.turnEnd = () => {
    const entries = drafts;
    drafts = [];
    return entries.length ? { entries } : undefined;
  };
  const toolReply = () => {
    const name = r.pick(["read", "read", "write", "edit", "bash", "batch", "grep", "ask"]);
    if (name === "ask") return call("ask", { question: words(2) });
    const path = r.pick(FILES);
    if (name === "read") return call("read", { path }, { text: r.chance(0.3) ? words(r.int(1, 8)) : undefined, thinking: r.chance(0.2) ? words(3) : undefined });
    if (name === "write") return call("write", { path, content: `${words(r.int(1, 30))}\n` });
    if (name === "edit") return call("edit", { path, edits: [{ oldText: r.chance(0.5) ? (files[path] ?? "x").toString().slice(0, 12) : "no such text", newText: words(2) }] });
    if (name === "bash") return call("bash", { command: r.pick([...COMMANDS, "rm -rf /nope"]) });
    if (name === "grep") return call("grep", { pattern: r.pick(["hello", "мир", "x"]) });
    return call("batch", { ops: [{ tool: "read", args: { path } }, { tool: r.pick(["write", "edit"]), args: { path: r.pick(FILES), content: "x\n", edits: [{ oldText: "x", newText: "y" }] } }] });
  };
  const turn = () => {
    const replies = [];
    for (let i = r.int(0, 3); i > 0; i--) replies.push(toolReply());
    const end = r.int(0, 99);
    if (end < 8) replies.push(fail(r.pick(["400 invalid_request_error: bad request", "500 internal error: upstream died"])));
    else if (end < 12) replies.push(fail("prompt is too long: 213462 tokens > 200000 maximum"), text(`Recovered. ${words(r.int(1, 20))}`));
    else if (end < 16 && paced) {
      a.hooks.abortAfter = r.int(1, 4);
      replies.push(text(words(r.int(30, 60))));
    } else replies.push(r.chance(0.3) ? reply([fauxThinking(words(r.int(1, 10))), fauxText(words(r.int(1, 60)))]) : text(words(r.int(1, 60))));
    // Now and then a fallback model answers: the message keeps the model
    // asked for and names the one that answered (responseModel).
    return replies.map((step) => (r.chance(0.15) ? (...args) => ({ ...step(...args), responseModel: "faux-fallback" }) : step));
  };
  const steps = r.int(3, 22);
  for (let s = 0; s < steps; s++) {
    const op = r.int(0, 99);
    try {
      if (op < 45) {
        const images = r.chance(0.1) ? [{ type: "image", data: PNG_1x1, mimeType: "image/png" }] : undefined;
        await a.say(words(r.int(1, 40)), turn(), { images, lenient: true });
        if (warm && r.chance(0.5)) await warmNow();
      } else if (op < 52 && ids().length > 3) {
        const target = r.pick(a.sm.getEntries());
        await a.navigate(target.id, { summarize: r.chance(0.5), label: r.chance(0.2) ? words(1) : undefined });
      } else if (op < 57 && ids().length > 0) a.label(r.pick(ids()), r.chance(0.3) ? "" : words(1));
      else if (op < 60) a.name(r.chance(0.2) ? " " : words(r.int(1, 3)));
      else if (op < 64) await a.setModel(r.pick(["faux-large", "faux-small"]));
      else if (op < 67) a.setThinking(r.pick(["off", "low", "high"]));
      else if (op < 71) a.setTools(r.pick([["read", "bash", "edit", "write"], ["read", "bash"], ["read", "bash", "edit", "write", "grep", "batch"], ["read", "grep"]]));
      else if (op < 74) a.hooks.beforeAgentStart = r.chance(0.5) ? (e) => void (e.systemPromptOptions.sections.memory = words(r.int(1, 5))) : undefined;
      else if (op < 80 && editable().length > 0) {
        for (let i = r.int(1, 3); i > 0; i--) {
          const t = r.pick(editable());
          drafts.push({ type: "context_edit", targetId: t.id, replacement: r.chance(0.4) ? null : { content: r.chance(0.5) ? words(r.int(1, 6)) : [{ type: "text", text: words(r.int(1, 6)) }] } });
        }
      } else if (op < 83) {
        tick(5000);
        await a.api.sendMessage({ customType: "note", content: r.chance(0.5) ? words(3) : [{ type: "text", text: words(3) }], display: r.chance(0.5), details: r.chance(0.5) ? { k: 1 } : undefined });
      } else if (op < 88) await a.compact(r.chance(0.3) ? words(2) : undefined).catch(() => undefined);
      else if (op < 91) await a.bash(r.pick(COMMANDS), { exclude: r.chance(0.2) });
      else if (op < 93) drafts.push({ type: "compaction", summary: `## Goal\n${words(4)}`, firstKeptEntryId: r.chance(0.5) ? null : r.pick(a.branch()).id, details: { hook: true } });
      else if (op < 96 && a.sm.getEntries().some((e) => e.type === "message" && e.message.role === "user")) {
        // /fork before a user message, or /clone at the leaf: a new file, continued.
        const source = a.file;
        const sm = SessionManager.open(source);
        const users = sm.getBranch().filter((e) => e.type === "message" && e.message.role === "user");
        if (r.chance(0.5) && users.length) sm.createBranchedSession(r.pick(users).parentId ?? sm.getLeafId());
        else sm.createBranchedSession(sm.getLeafId());
        a.dispose();
        const b = await Agent.open({ home, cwd, vm, paced, model: small ? "faux-small" : "faux-large", sessionManager: sm });
        await b.say(words(r.int(1, 10)), [text(words(r.int(1, 10)))], { lenient: true });
        b.dispose();
        return [source, b.file];
      }
    } catch (err) {
      if (!/Nothing to compact|Already compacted|not found|Wait for/.test(err.message)) throw err;
    }
  }
  // Make sure the file exists: pi writes nothing before the first user message.
  await a.say(words(3), [text("end")], { lenient: true });
  a.dispose();
  return [a.file];
}

const files = [];
for (let k = 0; k < count; k++) files.push(...(await randomSession(k)));

// ---- comparisons -----------------------------------------------------------------------------------
let passed = 0;
let failed = 0;
function firstDiff(got, want, path = "") {
  if (isDeepStrictEqual(got, want)) return undefined;
  if (typeof got !== typeof want || got === null || want === null || typeof got !== "object" || Array.isArray(got) !== Array.isArray(want)) return { path, got, want };
  if (Array.isArray(got)) {
    for (let i = 0; i < Math.min(got.length, want.length); i++) {
      const d = firstDiff(got[i], want[i], `${path}[${i}]`);
      if (d) return d;
    }
    return { path: `${path}.length`, got: got.length, want: want.length };
  }
  for (const k of new Set([...Object.keys(want), ...Object.keys(got)])) {
    if (!(k in got)) return { path: `${path}.${k}`, got: "(missing)", want: want[k] };
    if (!(k in want)) return { path: `${path}.${k}`, got: got[k], want: "(missing)" };
    const d = firstDiff(got[k], want[k], `${path}.${k}`);
    if (d) return d;
  }
  return undefined;
}
const show = (v) => (typeof v === "string" && v === "(missing)" ? v : JSON.stringify(v)?.slice(0, 400));
const check = (what, got, want) => {
  const d = firstDiff(got, want);
  if (!d) {
    passed++;
    return true;
  }
  failed++;
  console.log(`FAIL ${what}\n  first difference at ${d.path || "(top)"}\n    got:  ${show(d.got)}\n    want: ${show(d.want)}`);
  return false;
};
const run = (...args) => {
  const res = spawnSync(skein, args, { encoding: "utf8", maxBuffer: 1 << 30 });
  if (res.status !== 0) throw new Error(`skein ${args.join(" ")}: exit ${res.status}: ${res.stderr}`);
  return JSON.parse(res.stdout);
};
// A skein command that fails is a mismatch too; the cross-check goes on.
const attempt = async (what, fn) => {
  try {
    await fn();
  } catch (err) {
    failed++;
    console.log(`FAIL ${what}\n  ${String(err.message).split("\n").slice(0, 3).join("\n  ")}`);
  }
};
const plain = (v) => JSON.parse(JSON.stringify(v));
const treeJSON = (nodes) => nodes.map((n) => ({ id: n.entry.id, type: n.entry.type, role: n.entry.type === "message" ? n.entry.message.role : null, label: n.label ?? null, children: treeJSON(n.children) }));
const infoJSON = (s) => ({ path: s.path, id: s.id, cwd: s.cwd, name: s.name ?? null, parentSession: s.parentSessionPath ?? null, created: s.created.toISOString(), modified: s.modified.toISOString(), messageCount: s.messageCount, firstMessage: s.firstMessage });
const planJSON = (prep) => {
  if (!prep) return null;
  const { readFiles, modifiedFiles } = computeFileLists(prep.fileOps);
  return { firstKeptEntryId: prep.firstKeptEntryId, tokensBefore: prep.tokensBefore, isSplitTurn: prep.isSplitTurn, messagesToSummarize: prep.messagesToSummarize.length, turnPrefixMessages: prep.turnPrefixMessages.length, readFiles, modifiedFiles };
};
// Read a file the way pi does (SessionManager.open), on a copy: pi writes to what it opens.
let copies = 0;
const load = (file) => {
  const copy = join(work, `read-${copies++}-${basename(file)}`);
  copyFileSync(file, copy);
  const sm = SessionManager.open(copy);
  return { sm, entries: sm.getEntries(), header: sm.getHeader() };
};
const projectionIds = (entries, leaf) => buildSessionProjection(entries, leaf).entries.flatMap((e) => e.messages.map(() => e.sourceEntry.id));

// list: per folder, pi's order (SessionManager.listAll(folder)); skein lists the whole store.
await attempt("list", async () => {
  const got = run("session", "list", "--json", store).map(({ format, ...rest }) => rest);
  for (const dir of [...new Set(files.map((f) => dirname(f)))].sort()) {
    const want = (await SessionManager.listAll(dir)).map(infoJSON);
    check(`list ${dir}`, got.filter((s) => dirname(s.path) === dir), want);
  }
  check("list: newest first", got.every((s, i) => i === 0 || got[i - 1].modified >= s.modified), true);
});
for (const file of files) await attempt(`read ${file}`, async () => {
  const { sm, entries } = load(file);
  check(`tree ${file}`, run("session", "tree", "--json", file), treeJSON(sm.getTree()));
  const leaves = [sm.getLeafId(), ...Array.from({ length: 4 }, () => r.pick(entries).id)];
  for (const leaf of leaves) {
    const { entryIds, ...ctx } = run("session", "context", "--json", file, "--leaf", leaf);
    check(`context ${file} @${leaf}`, ctx, plain(buildSessionContext(entries, leaf)));
    check(`context ${file} @${leaf}: entryIds`, entryIds, projectionIds(entries, leaf));
    const keep = r.pick([0, 10, 100, 1000, 5000, 20000]);
    const want = planJSON(prepareCompaction(sm.getBranch(leaf), { enabled: true, reserveTokens: 16384, keepRecentTokens: keep }));
    check(`plan ${file} @${leaf} keep ${keep}`, run("session", "plan", "--json", file, "--leaf", leaf, "--keep-tokens", String(keep)), want);
  }
});

// stats: what pi 1.6.0's own functions compute. getSessionStats is a method
// of AgentSession over its session manager's entries: it is called on a real
// AgentSession opened on a copy of the file (over the faux provider, offline,
// as the sessions were written); getUsageCostBreakdown is exported by
// usage-totals.js. Where pi throws (a usage without cost), skein must not:
// it adds what is there and counts the usages pi could not add.
const piCalls = { stats: 0, throws: 0, usageEntries: 0, responseModels: 0, toolUsage: 0, compactionUsage: 0 };
for (const file of files) await attempt(`stats ${file}`, async () => {
  const { sm, entries, header } = load(file);
  for (const e of entries) {
    if (e.type === "usage") piCalls.usageEntries++;
    if (e.type === "message" && e.message.responseModel !== undefined) piCalls.responseModels++;
    if (e.type === "message" && e.message.role === "toolResult" && e.message.usage) piCalls.toolUsage++;
    if ((e.type === "compaction" || e.type === "branch_summary") && e.usage) piCalls.compactionUsage++;
  }
  const b = await Agent.open({ home, cwd: header.cwd, vm: new StatsVM(header.cwd), sessionManager: sm });
  let want, breakdown;
  try {
    const { userMessages, assistantMessages, toolCalls, toolResults, totalMessages, tokens, cost } = b.session.getSessionStats();
    want = { userMessages, assistantMessages, toolCalls, toolResults, totalMessages, tokens, cost };
    breakdown = getUsageCostBreakdown(entries);
  } catch (err) {
    want = { throws: String(err.message) };
  } finally {
    b.dispose();
  }
  piCalls.stats++;
  const { rows: [got] } = run("stats", "--json", file); // {rows, total}: one session, one row
  if (want.throws) {
    piCalls.throws++;
    check(`stats ${file}: pi throws (${want.throws}); skein counts what it can and says so`, got.incompleteUsage > 0, true);
    return;
  }
  const { userMessages, assistantMessages, toolCalls, toolResults, totalMessages, tokens, cost } = got;
  check(`stats ${file}: pi's getSessionStats`, { userMessages, assistantMessages, toolCalls, toolResults, totalMessages, tokens, cost }, want);
  check(`stats ${file}: pi's getUsageCostBreakdown`, got.models.map(({ key, cost, tokens }) => ({ key, cost, tokens })), breakdown);
  check(`stats ${file}: no usage left out`, got.incompleteUsage, 0);
});
// The generator must have written what the stats are about.
console.log(`stats: ${piCalls.stats} sessions (pi threw on ${piCalls.throws}); ${piCalls.usageEntries} usage entries, ${piCalls.responseModels} answers with responseModel, ${piCalls.toolUsage} tool results and ${piCalls.compactionUsage} summaries with usage`);
check(`stats: sessions with usage entries, responseModel, tool-result and compaction usage (${JSON.stringify(piCalls)})`,
  [piCalls.usageEntries > 0, piCalls.responseModels > 0, piCalls.toolUsage > 0, piCalls.compactionUsage > 0], [true, true, true, true]);

// ---- skein writes, pi reads ---------------------------------------------------------------------------
const sha = (f) => createHash("sha256").update(readFileSync(f)).digest("hex");
for (const file of files.slice(0, 20)) await attempt(`fork ${file}`, async () => {
  const src = load(file);
  const before = sha(file);
  const rawLines = readFileSync(file, "utf8").split("\n");
  for (let k = 0; k < 3; k++) {
    const at = r.pick(src.entries).id;
    const fk = run("session", "fork", file, "--at", at, "--json");
    check(`fork ${file} @${at}: beside its source`, dirname(fk.path), dirname(file));
    check(`fork ${file} @${at}: source unchanged`, sha(file), before);
    const fork = load(fk.path);
    check(`fork ${file} @${at}: header`, [fork.header.version, fork.header.cwd, fork.header.parentSession, fork.header.id], [3, src.header.cwd, resolve(file), fk.id]);
    const path = src.sm.getBranch(at);
    const forkLines = readFileSync(fk.path, "utf8").split("\n").slice(1, 1 + path.length);
    const srcLines = path.map((e) => rawLines.find((l) => l.includes(`"id":"${e.id}"`) && JSON.parse(l).id === e.id));
    check(`fork ${file} @${at}: lines copied byte for byte`, forkLines, srcLines);
    check(`fork ${file} @${at}: pi's context on the fork = pi's on the source`, plain(buildSessionContext(fork.entries)), plain(buildSessionContext(src.entries, at)));
    check(`fork ${file} @${at}: labels`, path.map((e) => fork.sm.getLabel(e.id) ?? null), path.map((e) => src.sm.getLabel(e.id) ?? null));
    rmSync(fk.path);
  }
});
// Label, rename and compaction on copies, read back by pi; then pi continues
// the compacted copy.
for (const file of files.slice(0, 20)) await attempt(`write ${file}`, async () => {
  const copy = join(work, "w", folderFor(`/w${files.indexOf(file)}`), basename(file));
  mkdirSync(dirname(copy), { recursive: true });
  copyFileSync(file, copy);
  const before = readFileSync(copy);
  const src = load(copy);
  const target = r.pick(src.entries).id;
  const label = r.chance(0.3) ? "" : words(1);
  spawnSync(skein, ["session", "label", copy, target, ...(label ? [label] : [])]);
  spawnSync(skein, ["session", "rename", copy, "  renamed " + words(1) + "  "]);
  const after = load(copy);
  check(`label ${copy}: pi sees it`, after.sm.getLabel(target) ?? "", label);
  const listed = (await SessionManager.listAll(dirname(copy))).find((x) => x.path === copy);
  check(`rename ${copy}: pi sees the name`, listed?.name, after.sm.getSessionName());
  check(`label/rename ${copy}: earlier bytes unchanged`, readFileSync(copy).subarray(0, before.length).equals(before), true);
  check(`label/rename ${copy}: appended as children of the leaf`, after.entries.slice(-2).map((e) => e.parentId), [src.entries.at(-1).id, after.entries.at(-2).id]);
  // Compaction, extractive: one entry, a child of the old leaf, with pi's plan
  // and the checkpoint pi's appendCompaction writes.
  const keep = r.pick([0, 100, 1000]);
  const leaf = after.entries.at(-1).id;
  const prep = prepareCompaction(after.sm.getBranch(leaf), { enabled: true, reserveTokens: 16384, keepRecentTokens: keep });
  const beforeCompact = readFileSync(copy);
  const res = spawnSync(skein, ["session", "compact", copy, "--summarizer", "extractive", "--keep-tokens", String(keep), "--json"], { encoding: "utf8" });
  if (!prep) {
    check(`compact ${copy}: refused where pi would not compact`, [res.status, readFileSync(copy).equals(beforeCompact)], [1, true]);
    return;
  }
  const compacted = load(copy);
  const c = compacted.entries.at(-1);
  const { readFiles, modifiedFiles } = computeFileLists(prep.fileOps);
  check(`compact ${copy}: one compaction entry after the leaf, pi's plan`, [res.status, compacted.entries.length - after.entries.length, c?.type, c?.parentId, c?.firstKeptEntryId, c?.tokensBefore, c?.details], [0, 1, "compaction", leaf, prep.firstKeptEntryId, prep.tokensBefore, { readFiles, modifiedFiles }]);
  if (c?.type !== "compaction") return;
  const system = getCurrentSystemMessage(buildSessionProjection(after.entries, leaf).messages);
  check(`compact ${copy}: systemMessage as pi's appendCompaction writes it`, c.systemMessage ?? null, system ? plain({ ...system, timestamp: new Date(c.timestamp).getTime() }) : null);
  const nothingBefore = prep.isSplitTurn && prep.turnPrefixMessages.length > 0 && prep.messagesToSummarize.length === 0 && !prep.previousSummary;
  check(`compact ${copy}: summary in pi's format`, [c.summary.startsWith(nothingBefore ? "No prior history." : "## Goal"), readFiles.length === 0 || c.summary.includes("<read-files>\n" + readFiles.join("\n") + "\n</read-files>")], [true, true]);
  const resumed = buildSessionContext(compacted.entries).messages;
  const head = system ? ["system", "compactionSummary"] : ["compactionSummary"];
  check(`compact ${copy}: pi resumes from the checkpoint and the summary`, [resumed.slice(0, head.length).map((m) => m.role), resumed[head.length - 1]?.summary], [head, c.summary]);
  check(`compact ${copy}: earlier bytes unchanged`, readFileSync(copy).subarray(0, beforeCompact.length).equals(beforeCompact), true);
  check(`compact ${copy}: an extractive compaction carries no usage`, c.usage ?? null, null);
  // The same with a model: usage in pi's full shape, which pi's totals read
  // (usage.cost.total unchecked) without throwing.
  const llmCopy = copy.replace(/\.jsonl$/, ".llm.jsonl");
  writeFileSync(llmCopy, beforeCompact);
  const llm = await runAsync(["session", "compact", llmCopy, "--summarizer", "llm", "--model", "anthropic/m", "--keep-tokens", String(keep), "--json"], { ANTHROPIC_API_KEY: "test", ANTHROPIC_BASE_URL: llmURL, OPENAI_API_KEY: "", OPENAI_BASE_URL: "" });
  const lc = load(llmCopy).entries.at(-1);
  const shape = (u) => u && { keys: Object.keys(u).filter((k) => k !== "reasoning"), cost: u.cost && Object.keys(u.cost) };
  check(`compact ${llmCopy}: an LLM compaction's usage in pi's shape`, [llm.status, lc?.type, shape(lc?.usage)], [0, "compaction", { keys: ["input", "output", "cacheRead", "cacheWrite", "totalTokens", "cost"], cost: ["input", "output", "cacheRead", "cacheWrite", "total"] }]);
  let totals;
  try {
    totals = createUsageTotals();
    for (const e of load(llmCopy).entries) if ((e.type === "compaction" || e.type === "branch_summary") && e.usage) addUsageToTotals(totals, e.usage);
  } catch (err) {
    totals = String(err);
  }
  check(`compact ${llmCopy}: pi's usage totals read it`, typeof totals?.cost === "number" && !Number.isNaN(totals.cost), true);
  // pi continues the compacted session: its request leads with the system
  // prompt, and it appends no re-declaration of the prompt or tools.
  if (!system) return;
  const cwd = compacted.header.cwd;
  const sm = SessionManager.open(copy);
  const before2 = sm.getEntries().length;
  const b = await Agent.open({ home, cwd, vm: new VirtualMachine(cwd), sessionManager: sm });
  let firstRole;
  await b.say("continue", [(context) => ((firstRole = context.messages[0]?.role), text("continued")())], { lenient: true });
  b.dispose();
  const appended = load(copy).entries.slice(before2);
  const declared = new Set((system.toolsAdded ?? []).map((t) => JSON.stringify(t)));
  const redeclared = appended.filter((e) => e.type === "message" && e.message.role === "system" && (e.message.sections?.preamble !== undefined || (e.message.toolsAdded ?? []).some((t) => declared.has(JSON.stringify(t)))));
  check(`continue ${copy}: pi's request leads with the system prompt`, firstRole, "system");
  check(`continue ${copy}: no re-declaration of the prompt or tools`, redeclared.map((e) => e.id), []);
});
fakeLLM.close();
console.log(`${passed} passed, ${failed} failed (seed ${seed})`);
if (failed === 0 && !argv.includes("--keep")) rmSync(work, { recursive: true, force: true });
process.exit(failed ? 1 : 0);
