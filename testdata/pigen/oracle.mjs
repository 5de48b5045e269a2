// Records what the reference implementation (@mariozechner/pi-coding-agent
// 0.73.1) computes for every session file under the folders given (default:
// testdata/pi/{store,legacy,broken}), so that Go tests can compare skein with
// it without Node. Files are only read: parsed with parseSessionEntries and
// migrated in memory with migrateSessionEntries, never opened with
// SessionManager.open (which rewrites old files).
//
// Usage: node oracle.mjs [--out DIR] [DIR...]
// Writes DIR/../expected/<folder>/<file>.json per session and list.json per
// folder of sessions.
import { readFileSync, readdirSync, statSync, writeFileSync, mkdirSync, rmSync } from "fs";
import { join, dirname, relative, resolve } from "path";
import { fileURLToPath } from "url";
import { SessionManager, buildSessionContext, parseSessionEntries, migrateSessionEntries, estimateTokens, TreeSelectorComponent, initTheme } from "@mariozechner/pi-coding-agent";
import { prepareCompaction } from "./node_modules/@mariozechner/pi-coding-agent/dist/core/compaction/compaction.js";
import { computeFileLists } from "./node_modules/@mariozechner/pi-coding-agent/dist/core/compaction/utils.js";

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

// pi's /tree shortens paths under $HOME; fix it so outputs are stable.
process.env.HOME = "/home/dev";
initTheme("dark");
const stripAnsi = (s) => s.replace(/\x1b\[[0-9;]*m/g, "");
const FILTERS = ["default", "no-tools", "user-only", "labeled-only", "all"];

// The lines pi's /tree selector draws, without colour, for each filter.
function treeText(tree, leafId) {
  const out = {};
  for (const f of FILTERS) {
    const c = new TreeSelectorComponent(tree, leafId, 100000, () => {}, () => {}, () => {}, undefined, f);
    out[f] = c.treeList.render(100000).map(stripAnsi);
  }
  return out;
}

export const BUDGETS = [0, 50, 200, 1000, 3000, 20000];

function walk(dir) {
  const files = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) files.push(...walk(p));
    else if (name.endsWith(".jsonl")) files.push(p);
  }
  return files;
}

// pi's buildSessionContext and getBranch never return for an entry whose
// path to the root loops (a parent cycle, or an entry that is its own parent).
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

// Entries to build contexts and plans at: every entry of a small session,
// an even sample of a large one, and always the leaf.
function sample(entries, n) {
  if (entries.length <= n) return entries.map((e) => e.id);
  const ids = [];
  for (let i = 0; i < n; i++) ids.push(entries[Math.floor((i * entries.length) / n)].id);
  return ids;
}

function oracle(file) {
  const content = readFileSync(file, "utf8");
  const all = parseSessionEntries(content);
  const header = all[0];
  if (!header || header.type !== "session" || typeof header.id !== "string") {
    return { session: false };
  }
  migrateSessionEntries(all);
  const entries = all.filter((e) => e.type !== "session");
  const sm = SessionManager.inMemory(header.cwd);
  sm.fileEntries = all;
  sm._buildIndex();
  const byId = new Map(entries.map((e) => [e.id, e]));
  const result = { session: true, leafId: sm.getLeafId(), entryOrder: entries.map((e) => e.id), tree: treeJSON(sm.getTree()) };
  const loops = (id) => pathLoops(byId, id);
  if (!entries.some((e) => loops(e.id))) result.treeText = treeText(sm.getTree(), sm.getLeafId());
  result.loops = entries.filter((e) => loops(e.id)).map((e) => e.id);
  if (!result.leafId || !loops(result.leafId)) result.context = buildSessionContext(entries);
  result.contexts = {};
  for (const id of sample(entries, 40)) if (!loops(id)) result.contexts[id] = buildSessionContext(entries, id);
  result.tokens = {};
  for (const e of entries) {
    if (e.type === "message") {
      try {
        result.tokens[e.id] = estimateTokens(e.message);
      } catch {
        // estimateTokens throws on some shapes newer writers produce; skein counts 0.
      }
    }
  }
  result.plans = [];
  const leaves = [...new Set([sm.getLeafId(), ...sample(entries, 8)])].filter((id) => id && !loops(id));
  for (const leaf of leaves) {
    const path = sm.getBranch(leaf);
    for (const keep of BUDGETS) {
      let plan;
      try {
        plan = planJSON(prepareCompaction(path, { enabled: true, reserveTokens: 16384, keepRecentTokens: keep }));
      } catch (err) {
        plan = { error: String(err.message) };
      }
      result.plans.push({ leaf, keepRecentTokens: keep, plan });
    }
  }
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

const folders = new Set();
for (const root of roots) {
  for (const file of walk(root)) {
    folders.add(dirname(file));
    const rel = relative(base, file);
    const dest = join(out, rel + ".json");
    mkdirSync(dirname(dest), { recursive: true });
    writeFileSync(dest, JSON.stringify(oracle(file), null, 1) + "\n");
  }
}
// SessionManager.list over each folder; paths relative to the fixture root so
// that the outputs do not depend on where the repository is checked out.
for (const folder of folders) {
  const sessions = await SessionManager.list("/", folder);
  const rel = relative(base, folder);
  const list = sessions.map(infoJSON).map((s) => ({ ...s, path: relative(base, s.path) }));
  mkdirSync(join(out, rel), { recursive: true });
  writeFileSync(join(out, rel, "list.json"), JSON.stringify(list, null, 1) + "\n");
}
console.log(`expected outputs written to ${out}`);
