// Records what the reference implementation, @earendil-works/pi-coding-agent
// 1.6.0, computes for every session file under the folders given (default:
// testdata/pi/{store,legacy,broken}), so that Go tests compare skein with it
// without Node. Run with ./node22 (pi 1.6.0 needs Node 22).
//
// pi 1.6.0 writes when it opens a file (it appends a missing final newline and
// rewrites v1/v2 files migrated), so everything below runs on copies in a
// temporary folder; the fixtures are only read.
//
// Usage: ./node22 oracle.mjs [--out DIR] [DIR...]
// Writes DIR/../expected/<folder>/<file>.json per session file, list.json per
// folder of session files, and summarizer-prompts.json.
//
// How each output is computed (pi's functions named as exported by
// dist/core/session-manager.js and dist/core/compaction/compaction.js):
//
// <file>.json:
//   session      loadEntriesFromFile(copy).length > 0: the file's first parsed
//                line is {type:"session", id: string}. false also for a file
//                starting with a byte-order mark (pi 1.6.0 does not strip it;
//                see bomStripped). When false nothing else is recorded, except:
//   bomStripped  for a file starting with U+FEFF: everything below, computed
//                for the same bytes without the BOM (what pi would see if the
//                mark were not there; skein reads such files deliberately).
//   The rest comes from sm = SessionManager.open(copy) (which migrates
//   v1/v2 in memory and on the copy) and entries = sm.getEntries():
//   leafId       sm.getLeafId() (the id of the last entry of the file).
//   entryOrder   entries' ids, in file order (after migration: v1 ids are drawn
//                by pi's generateId, made deterministic here by a seeded
//                crypto.randomUUID).
//   tree         sm.getTree(), as {id, type, role (message entries), label,
//                children}.
//   loops        ids of the entries whose path to the root loops (pi's
//                getBranch/buildSessionContext never return on them; nothing
//                is computed at them, and treeText is left out if any).
//   treeText     the lines pi's /tree selector (TreeSelectorComponent, in a
//                terminal 100000 columns wide and rows high, HOME=/home/dev,
//                selection on the leaf) draws in each filter, without colour.
//   context      buildSessionContext(entries, leafId): {messages, thinkingLevel,
//                model}, messages exactly as pi builds the model's context
//                (buildSessionContext = buildSessionProjection without its
//                provenance: compaction checkpoint + summary, kept range
//                without system messages, context edits applied).
//   contextEntryIds  for each message of `context`, the id of the entry it
//                came from: buildSessionProjection(entries, leafId).entries,
//                each entry's sourceEntry.id once per message it yields. A
//                compaction with a systemMessage yields two messages (the
//                checkpoint, then the compactionSummary): its id appears twice.
//   contexts     buildSessionContext(entries, id) at up to 40 entries (all of
//                a small session, an even sample of a larger one).
//   contextsEntryIds  the same as contextEntryIds for each of `contexts`.
//   tokens       estimateTokens(entry.message) (compaction.js, chars/4) for
//                every message entry, system messages included; left out where
//                it throws.
//   plans        prepareCompaction(sm.getBranch(leaf), {enabled: true,
//                reserveTokens: 16384, keepRecentTokens}) at the leaf and 8
//                sampled entries, for keepRecentTokens in BUDGETS; plan null
//                where pi returns undefined (nothing to compact: the path ends
//                with a compaction, or nothing would be summarized), else
//                {firstKeptEntryId, tokensBefore, isSplitTurn,
//                messagesToSummarize (count), turnPrefixMessages (count),
//                readFiles, modifiedFiles (computeFileLists(fileOps))}; {error}
//                where it throws.
//   summaries    for up to four plans (the leaf at 200 and at 1000, the first
//                split-turn plan of `plans`, and the leaf at 200 with custom
//                instructions): what pi's compact() (the function behind
//                /compact and auto-compaction) sends to the summarizer and
//                writes, with a model that answers "<summary N>" to its N-th
//                request: {leaf, keepRecentTokens, customInstructions,
//                previousSummary, conversation (serializeConversation(
//                convertToLlm(messagesToSummarize))), turnPrefixConversation,
//                requests: [{system, prompt}] (the system prompt and the user
//                prompt of each request, in order), summary (the summary pi
//                stores: replies merged, file lists appended), details}.
//   usage        pi's totals over every entry of every branch: stats = the
//                token and cost sums AgentSession.getSessionStats makes
//                (assistant usage, usage entries, compaction and branch-summary
//                usage, tool-result usage) with its message counts; breakdown =
//                getUsageCostBreakdown(entries) (usage-totals.js); {error} where
//                pi throws (a usage without cost).
// list.json: SessionManager.listAll(folder) (the files directly in it), each
//   {path (relative to testdata/pi), id, cwd, name, parentSession, created,
//   modified (ISO), messageCount, firstMessage}; pi's order (modified, newest
//   first; equal times by file name, descending).
// summarizer-prompts.json: the prompt texts of compaction.js, utils.js,
//   branch-summarization.js and messages.js (exported or not: read from the
//   files' text), and TOOL_RESULT_MAX_CHARS.
import crypto from "node:crypto";
import { syncBuiltinESMExports } from "node:module";
import { readFileSync, readdirSync, statSync, writeFileSync, mkdirSync, rmSync, mkdtempSync, cpSync } from "node:fs";
import { join, dirname, relative, resolve } from "node:path";
import { tmpdir } from "node:os";
import { fileURLToPath } from "node:url";

// v1 migration draws ids from randomUUID: a seeded one keeps them stable.
let uuidSeq = 0;
crypto.randomUUID = () => {
  const h = crypto.createHash("sha256").update(`skein-oracle-${uuidSeq++}`).digest("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
};
syncBuiltinESMExports();

const PI = "./node_modules/@earendil-works/pi-coding-agent/dist";
const { SessionManager, buildSessionContext, buildSessionProjection, estimateTokens, serializeConversation, convertToLlm, TreeSelectorComponent, initTheme } = await import("@earendil-works/pi-coding-agent");
const { loadEntriesFromFile } = await import(`${PI}/core/session-manager.js`);
const { prepareCompaction, compact } = await import(`${PI}/core/compaction/compaction.js`);
const { computeFileLists } = await import(`${PI}/core/compaction/utils.js`);
const { getUsageCostBreakdown, createUsageTotals, addUsageToTotals } = await import(`${PI}/core/usage-totals.js`);

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
let out = join(here, "..", "pi", "expected");
const outIdx = args.indexOf("--out");
if (outIdx >= 0) {
  out = resolve(args[outIdx + 1]);
  args.splice(outIdx, 2);
}
const roots = args.length ? args.map((a) => resolve(a)) : ["store", "legacy", "broken"].map((d) => join(here, "..", "pi", d));
const base = dirname(roots[0]);
rmSync(out, { recursive: true, force: true });

// Copies: pi writes to what it opens.
const work = mkdtempSync(join(tmpdir(), "skein-oracle-"));
for (const root of roots) cpSync(root, join(work, relative(base, root)), { recursive: true });

// pi's /tree shortens paths under $HOME; fix it so outputs are stable.
process.env.HOME = "/home/dev";
initTheme("dark");
const stripAnsi = (s) => s.replace(/\x1b\[[0-9;]*m/g, "");
const FILTERS = ["default", "no-tools", "user-only", "labeled-only", "all"];
export const BUDGETS = [0, 50, 200, 1000, 3000, 20000];
const SETTINGS = (keepRecentTokens) => ({ enabled: true, reserveTokens: 16384, keepRecentTokens });

function treeText(tree, leafId) {
  const res = {};
  for (const f of FILTERS) {
    const c = new TreeSelectorComponent(tree, leafId, 100000, () => {}, () => {}, () => {}, undefined, f);
    res[f] = c.treeList.render(100000).map(stripAnsi);
  }
  return res;
}

function walk(dir) {
  const files = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) files.push(...walk(p));
    else if (name.endsWith(".jsonl")) files.push(p);
  }
  return files;
}

function pathLoops(byId, id) {
  const seen = new Set();
  let cur = byId.get(id);
  while (cur) {
    if (seen.has(cur.id)) return true;
    seen.add(cur.id);
    cur = cur.parentId ? byId.get(cur.parentId) : undefined;
  }
  return false;
}

function treeJSON(nodes) {
  return nodes.map((n) => ({
    id: n.entry.id,
    type: n.entry.type,
    role: n.entry.type === "message" ? (n.entry.message?.role ?? null) : null,
    label: n.label ?? null,
    children: treeJSON(n.children),
  }));
}

function planJSON(prep) {
  if (!prep) return null;
  const { readFiles, modifiedFiles } = computeFileLists(prep.fileOps);
  return {
    firstKeptEntryId: prep.firstKeptEntryId,
    tokensBefore: prep.tokensBefore,
    isSplitTurn: prep.isSplitTurn,
    messagesToSummarize: prep.messagesToSummarize.length,
    turnPrefixMessages: prep.turnPrefixMessages.length,
    readFiles,
    modifiedFiles,
  };
}

function sample(entries, n) {
  if (entries.length <= n) return entries.map((e) => e.id);
  const ids = [];
  for (let i = 0; i < n; i++) ids.push(entries[Math.floor((i * entries.length) / n)].id);
  return ids;
}

const plain = (v) => JSON.parse(JSON.stringify(v));
const projectionIds = (entries, leaf) => buildSessionProjection(entries, leaf).entries.flatMap((e) => e.messages.map(() => e.sourceEntry.id));

// compact() with a summarizer that records its requests.
const SUMMARIZER = { id: "oracle-summarizer", name: "Oracle", api: "oracle", provider: "oracle", reasoning: false, input: ["text"], contextWindow: 200000, maxTokens: 16384, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } };
async function summarize(prep, customInstructions) {
  const requests = [];
  const streamFn = async (_model, context) => {
    const system = context.messages.find((m) => m.role === "system");
    const user = context.messages.find((m) => m.role === "user");
    requests.push({ system: system?.content ?? null, prompt: user.content.map((b) => b.text).join("") });
    const message = { role: "assistant", content: [{ type: "text", text: `<summary ${requests.length}>` }], api: "oracle", provider: "oracle", model: "oracle-summarizer", usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } }, stopReason: "stop", timestamp: 0 };
    return { result: async () => message };
  };
  const result = await compact(prep, SUMMARIZER, undefined, undefined, customInstructions, undefined, undefined, streamFn);
  return {
    previousSummary: prep.previousSummary ?? null,
    conversation: serializeConversation(convertToLlm(prep.messagesToSummarize)),
    turnPrefixConversation: prep.isSplitTurn ? serializeConversation(convertToLlm(prep.turnPrefixMessages)) : null,
    requests,
    summary: result.summary,
    details: result.details,
  };
}

// AgentSession.getSessionStats's sums, over entries (it reads sessionManager.getEntries()).
function usageTotals(entries) {
  try {
    let userMessages = 0;
    let assistantMessages = 0;
    let toolResults = 0;
    let totalMessages = 0;
    let toolCalls = 0;
    const t = createUsageTotals();
    for (const entry of entries) {
      if (entry.type === "usage") addUsageToTotals(t, entry.usage);
      else if ((entry.type === "branch_summary" || entry.type === "compaction") && entry.usage) addUsageToTotals(t, entry.usage);
      if (entry.type !== "message") continue;
      totalMessages++;
      const m = entry.message;
      if (m.role === "user") userMessages++;
      else if (m.role === "toolResult") {
        toolResults++;
        if (m.usage) addUsageToTotals(t, m.usage);
      } else if (m.role === "assistant") {
        assistantMessages++;
        if (Array.isArray(m.content)) toolCalls += m.content.filter((c) => c.type === "toolCall").length;
        addUsageToTotals(t, m.usage);
      }
    }
    return {
      stats: { userMessages, assistantMessages, toolCalls, toolResults, totalMessages, tokens: { input: t.input, output: t.output, cacheRead: t.cacheRead, cacheWrite: t.cacheWrite, total: t.input + t.output + t.cacheRead + t.cacheWrite }, cost: t.cost },
      breakdown: getUsageCostBreakdown(entries),
    };
  } catch (err) {
    return { error: String(err.message) };
  }
}

async function oracle(copy) {
  if (readFileSync(copy, "utf8").startsWith("\ufeff")) {
    const stripped = `${copy}.nobom.jsonl`;
    writeFileSync(stripped, readFileSync(copy, "utf8").slice(1));
    const res = { session: loadEntriesFromFile(copy).length > 0 };
    res.bomStripped = await oracle(stripped);
    return res;
  }
  if (loadEntriesFromFile(copy).length === 0) return { session: false };
  const sm = SessionManager.open(copy);
  const entries = sm.getEntries();
  const byId = new Map(entries.map((e) => [e.id, e]));
  const loops = (id) => pathLoops(byId, id);
  const result = { session: true, leafId: sm.getLeafId(), entryOrder: entries.map((e) => e.id), tree: treeJSON(sm.getTree()) };
  if (!entries.some((e) => loops(e.id))) result.treeText = treeText(sm.getTree(), sm.getLeafId());
  result.loops = entries.filter((e) => loops(e.id)).map((e) => e.id);
  const leaf = sm.getLeafId();
  if (!leaf || !loops(leaf)) {
    result.context = plain(buildSessionContext(entries, leaf));
    result.contextEntryIds = projectionIds(entries, leaf);
  }
  result.contexts = {};
  result.contextsEntryIds = {};
  for (const id of sample(entries, 40)) {
    if (loops(id)) continue;
    result.contexts[id] = plain(buildSessionContext(entries, id));
    result.contextsEntryIds[id] = projectionIds(entries, id);
  }
  result.tokens = {};
  for (const e of entries) {
    if (e.type !== "message") continue;
    try {
      result.tokens[e.id] = estimateTokens(e.message);
    } catch {
      // estimateTokens throws on some shapes newer writers produce.
    }
  }
  result.plans = [];
  const leaves = [...new Set([leaf, ...sample(entries, 8)])].filter((id) => id && !loops(id));
  const preps = new Map();
  for (const l of leaves) {
    const path = sm.getBranch(l);
    for (const keep of BUDGETS) {
      let plan;
      try {
        const prep = prepareCompaction(path, SETTINGS(keep));
        preps.set(`${l}/${keep}`, prep);
        plan = planJSON(prep);
      } catch (err) {
        plan = { error: String(err.message) };
      }
      result.plans.push({ leaf: l, keepRecentTokens: keep, plan });
    }
  }
  result.summaries = [];
  const wanted = [
    [leaf, 200, undefined],
    [leaf, 1000, undefined],
  ];
  const split = result.plans.find((p) => p.plan?.isSplitTurn && !(p.leaf === leaf && (p.keepRecentTokens === 200 || p.keepRecentTokens === 1000)));
  if (split) wanted.push([split.leaf, split.keepRecentTokens, undefined]);
  wanted.push([leaf, 200, "Focus on the file changes."]);
  for (const [l, keep, instructions] of wanted) {
    const prep = preps.get(`${l}/${keep}`);
    if (!prep) continue;
    result.summaries.push({ leaf: l, keepRecentTokens: keep, customInstructions: instructions ?? null, ...(await summarize(prep, instructions)) });
  }
  result.usage = usageTotals(entries);
  return result;
}

function infoJSON(s) {
  const iso = (d) => (Number.isNaN(d.getTime()) ? null : d.toISOString());
  return {
    path: s.path,
    id: s.id,
    cwd: s.cwd,
    name: s.name ?? null,
    parentSession: s.parentSessionPath ?? null,
    created: iso(s.created),
    modified: iso(s.modified),
    messageCount: s.messageCount,
    firstMessage: s.firstMessage,
  };
}

// The prompt texts, exported or not, read from pi's files.
function prompts() {
  const res = {};
  const read = (f) => readFileSync(join(here, PI, f), "utf8");
  const grab = (text, name, scope = {}) => {
    const m = new RegExp(`(?:export )?const ${name} = \`((?:[^\`\\\\]|\\\\.)*)\`;`).exec(text);
    if (!m) throw new Error(`${name} not found`);
    return Function(...Object.keys(scope), `return \`${m[1]}\`;`)(...Object.values(scope));
  };
  const compaction = read("core/compaction/compaction.js");
  const utils = read("core/compaction/utils.js");
  const branch = read("core/compaction/branch-summarization.js");
  const messages = read("core/messages.js");
  res.SUMMARIZATION_SYSTEM_PROMPT = grab(utils, "SUMMARIZATION_SYSTEM_PROMPT");
  res.SUMMARIZATION_PROMPT = grab(compaction, "SUMMARIZATION_PROMPT");
  res.UPDATE_SUMMARIZATION_INSTRUCTIONS = grab(compaction, "UPDATE_SUMMARIZATION_INSTRUCTIONS");
  res.UPDATE_SUMMARIZATION_PROMPT = grab(compaction, "UPDATE_SUMMARIZATION_PROMPT", { UPDATE_SUMMARIZATION_INSTRUCTIONS: res.UPDATE_SUMMARIZATION_INSTRUCTIONS });
  res.TURN_PREFIX_SUMMARIZATION_PROMPT = grab(compaction, "TURN_PREFIX_SUMMARIZATION_PROMPT");
  res.BRANCH_SUMMARY_PREAMBLE = grab(branch, "BRANCH_SUMMARY_PREAMBLE");
  res.BRANCH_SUMMARY_PROMPT = grab(branch, "BRANCH_SUMMARY_PROMPT");
  for (const n of ["COMPACTION_SUMMARY_PREFIX", "COMPACTION_SUMMARY_SUFFIX", "BRANCH_SUMMARY_PREFIX", "BRANCH_SUMMARY_SUFFIX"]) res[n] = grab(messages, n);
  res.TOOL_RESULT_MAX_CHARS = Number(/const TOOL_RESULT_MAX_CHARS = (\d+);/.exec(utils)[1]);
  return res;
}

const folders = new Set();
for (const root of roots) {
  for (const file of walk(join(work, relative(base, root)))) {
    folders.add(dirname(file));
    const rel = relative(work, file);
    const dest = join(out, rel + ".json");
    mkdirSync(dirname(dest), { recursive: true });
    writeFileSync(dest, JSON.stringify(await oracle(file), null, 1) + "\n");
  }
}
// listAll over a pristine copy of each folder (oracle() rewrote some files).
rmSync(work, { recursive: true, force: true });
for (const root of roots) cpSync(root, join(work, relative(base, root)), { recursive: true });
for (const folder of folders) {
  const sessions = await SessionManager.listAll(folder);
  const rel = relative(work, folder);
  const list = sessions.map(infoJSON).map((s) => ({ ...s, path: relative(work, s.path) }));
  mkdirSync(join(out, rel), { recursive: true });
  writeFileSync(join(out, rel, "list.json"), JSON.stringify(list, null, 1) + "\n");
}
writeFileSync(join(out, "summarizer-prompts.json"), JSON.stringify(prompts(), null, 1) + "\n");
rmSync(work, { recursive: true, force: true });
console.log(`expected outputs written to ${out}`);
