// Cross-check: the reference implementation writes random sessions that no
// test has seen (a new seed each run unless --seed is given), then skein's
// `session list`, `context`, `tree` and `plan` must print exactly what pi
// computes for them.
//
// Usage: node crosscheck.mjs --skein ../../skein [--seed N] [--sessions K]
import { mkdtempSync, readFileSync, rmSync } from "fs";
import { randomInt } from "crypto";
import { tmpdir } from "os";
import { join, resolve, dirname } from "path";
import { spawnSync } from "child_process";
import { isDeepStrictEqual } from "util";
import { SessionManager, buildSessionContext, parseSessionEntries, migrateSessionEntries } from "@mariozechner/pi-coding-agent";
import { prepareCompaction } from "./node_modules/@mariozechner/pi-coding-agent/dist/core/compaction/compaction.js";
import { computeFileLists } from "./node_modules/@mariozechner/pi-coding-agent/dist/core/compaction/utils.js";
import { Writer, rng, setClock, tick, user, assistant, toolCall, toolResult, bash, usage, PROVIDERS, PNG_1x1 } from "./lib.mjs";

const argv = process.argv.slice(2);
const opt = (name, def) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : def;
};
const skein = resolve(opt("skein", "../../skein"));
const seed = Number(opt("seed", randomInt(1, 2 ** 31)));
const count = Number(opt("sessions", 30));
const r = rng(seed);
const work = mkdtempSync(join(tmpdir(), "skein-crosscheck-"));
console.log(`crosscheck: seed ${seed}, ${count} sessions in ${work}`);

const SCRIPTS = ["hello world", "Привет мир", "こんにちは世界", "مرحبا بالعالم", "नमस्ते दुनिया", "👩‍💻 🚀 🇫🇷", "𝔘𝔫𝔦𝔠𝔬𝔡𝔢 𠜎", "e\u0301 Z\u0324\u0354", "tab\there", "quote \" back\\slash", "line\u2028sep", "<b>&amp;</b>"];
const text = (n) => Array.from({ length: n }, () => r.pick(SCRIPTS)).join(" ");
const FILES = ["a.go", "b/c.ts", "README.md", "ünï.txt", "dir/日本.md"];

function randomSession(k) {
  setClock(new Date(Date.UTC(2026, 0, 1 + k, r.int(0, 23), r.int(0, 59))).toISOString());
  const cwd = r.pick(["/home/dev/alpha", "/home/dev/beta", "/srv/gamma project"]);
  const dir = join(work, "store", `--${cwd.slice(1).replace(/[/\\:]/g, "-")}--`);
  const w = new Writer(cwd, dir, r);
  const ids = [];
  const steps = r.int(3, 60);
  for (let s = 0; s < steps; s++) {
    const p = r.pick(PROVIDERS);
    const op = r.int(0, 99);
    if (op < 25) ids.push(w.msg(user(r.chance(0.2) ? [{ type: "text", text: text(r.int(1, 30)) }, { type: "image", data: PNG_1x1, mimeType: "image/png" }] : text(r.int(1, 40)))));
    else if (op < 50) {
      const content = [];
      if (r.chance(0.3)) content.push({ type: "thinking", thinking: text(r.int(1, 10)) });
      content.push({ type: "text", text: text(r.int(1, 60)) });
      const stop = r.chance(0.1) ? r.pick(["error", "aborted", "length"]) : undefined;
      ids.push(w.msg(assistant(content, { p, stopReason: stop, errorMessage: stop === "error" ? "boom" : undefined, usage: r.chance(0.1) ? usage(0, 0) : usage(r.int(100, 50000), r.int(10, 4000), r.int(0, 20000)) })));
    } else if (op < 70) {
      const name = r.pick(["read", "write", "edit", "bash", "grep", "custom_tool"]);
      const args = name === "bash" ? { command: text(r.int(1, 5)) } : { path: r.pick(FILES), n: r.int(0, 1e6) / 7, flag: r.chance(0.5), nested: { list: [1, "x", null] } };
      const tc = w.call(name, args, text(r.int(1, 200)), { p, isError: r.chance(0.1) });
      ids.push(w.sm.getLeafId());
    } else if (op < 75) ids.push(w.msg(bash(text(2), text(r.int(0, 50)), r.pick([0, 1, 127]))));
    else if (op < 80 && ids.length > 2) {
      w.sm.branch(r.pick(ids));
    } else if (op < 84 && ids.length > 2) {
      tick(1000);
      ids.push(w.sm.branchWithSummary(r.pick(ids), r.chance(0.2) ? "" : text(r.int(1, 20))));
    } else if (op < 88 && ids.length > 0) {
      w.sm.appendLabelChange(r.pick(ids), r.chance(0.3) ? "" : text(1));
    } else if (op < 90) w.sm.appendSessionInfo(r.chance(0.3) ? " " : text(1));
    else if (op < 93) w.sm.appendModelChange(p.provider, p.model);
    else if (op < 95) w.sm.appendThinkingLevelChange(r.pick(["off", "low", "high"]));
    else if (op < 97) {
      tick(500);
      ids.push(w.sm.appendCustomMessageEntry("note", r.chance(0.5) ? text(3) : [{ type: "text", text: text(3) }], r.chance(0.5), r.chance(0.5) ? { k: 1 } : undefined));
    } else {
      const c = w.compact(r.pick([0, 50, 300, 2000]), { fromHook: r.chance(0.2) || undefined });
      if (c) ids.push(c);
    }
  }
  // Make sure pi flushed the file: it writes nothing before an assistant message.
  w.msg(assistant([{ type: "text", text: "end" }]));
  return w.file;
}

const files = [];
for (let k = 0; k < count; k++) files.push(randomSession(k));

let passed = 0;
let failed = 0;
const check = (what, got, want) => {
  if (isDeepStrictEqual(got, want)) passed++;
  else {
    failed++;
    console.log(`FAIL ${what}\n  got  ${JSON.stringify(got).slice(0, 600)}\n  want ${JSON.stringify(want).slice(0, 600)}`);
  }
};
const run = (...args) => {
  const res = spawnSync(skein, args, { encoding: "utf8", maxBuffer: 1 << 30 });
  if (res.status !== 0) throw new Error(`skein ${args.join(" ")}: exit ${res.status}: ${res.stderr}`);
  return JSON.parse(res.stdout);
};
const treeJSON = (nodes, sm) => nodes.map((n) => ({ id: n.entry.id, type: n.entry.type, role: n.entry.type === "message" ? n.entry.message.role : null, label: n.label ?? null, children: treeJSON(n.children, sm) }));

// list
{
  const want = [];
  for (const dir of new Set(files.map((f) => dirname(f)))) want.push(...(await SessionManager.list("/", dir)));
  want.sort((a, b) => b.modified.getTime() - a.modified.getTime() || (a.path < b.path ? -1 : 1));
  const got = run("session", "list", "--json", join(work, "store")).map(({ format, ...rest }) => rest);
  check("list", got, want.map((s) => ({ path: s.path, id: s.id, cwd: s.cwd, name: s.name ?? null, parentSession: s.parentSessionPath ?? null, created: s.created.toISOString(), modified: s.modified.toISOString(), messageCount: s.messageCount, firstMessage: s.firstMessage })));
}
for (const file of files) {
  const all = parseSessionEntries(readFileSync(file, "utf8"));
  migrateSessionEntries(all);
  const entries = all.filter((e) => e.type !== "session");
  const sm = SessionManager.inMemory();
  sm.fileEntries = all;
  sm._buildIndex();
  check(`tree ${file}`, run("session", "tree", "--json", file), treeJSON(sm.getTree(), sm));
  const leaves = [sm.getLeafId(), ...Array.from({ length: 4 }, () => r.pick(entries).id)];
  for (const leaf of leaves) {
    const { entryIds, ...ctx } = run("session", "context", "--json", file, "--leaf", leaf);
    check(`context ${file} @${leaf}`, ctx, JSON.parse(JSON.stringify(buildSessionContext(entries, leaf))));
    const keep = r.pick([0, 10, 100, 1000, 5000, 20000]);
    const prep = prepareCompaction(sm.getBranch(leaf), { enabled: true, reserveTokens: 16384, keepRecentTokens: keep });
    let want = null;
    if (prep) {
      const { readFiles, modifiedFiles } = computeFileLists(prep.fileOps);
      want = { firstKeptEntryId: prep.firstKeptEntryId, tokensBefore: prep.tokensBefore, isSplitTurn: prep.isSplitTurn, messagesToSummarize: prep.messagesToSummarize.length, turnPrefixMessages: prep.turnPrefixMessages.length, readFiles, modifiedFiles };
    }
    check(`plan ${file} @${leaf} keep ${keep}`, run("session", "plan", "--json", file, "--leaf", leaf, "--keep-tokens", String(keep)), want);
  }
}
// Writes: skein forks, labels, renames and compacts; pi must read what it
// wrote and see exactly what was meant.
import { createHash } from "crypto";
import { copyFileSync, readdirSync } from "fs";
const sha = (f) => createHash("sha256").update(readFileSync(f)).digest("hex");
const load = (file) => {
  const all = parseSessionEntries(readFileSync(file, "utf8"));
  migrateSessionEntries(all);
  const sm = SessionManager.inMemory();
  sm.fileEntries = all;
  sm._buildIndex();
  return { all, entries: all.filter((e) => e.type !== "session"), sm, header: all[0] };
};
for (const file of files.slice(0, 20)) {
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
    check(`fork ${file} @${at}: pi's context on the fork = pi's on the source`, JSON.parse(JSON.stringify(buildSessionContext(fork.entries))), JSON.parse(JSON.stringify(buildSessionContext(src.entries, at))));
    check(`fork ${file} @${at}: labels`, path.map((e) => fork.sm.getLabel(e.id) ?? null), path.map((e) => src.sm.getLabel(e.id) ?? null));
  }
}
// Label, rename and compaction on copies, read back by pi.
for (const file of files.slice(0, 20)) {
  const copy = join(work, "w-" + file.split("/").pop());
  copyFileSync(file, copy);
  const before = readFileSync(copy);
  const src = load(copy);
  const target = r.pick(src.entries).id;
  const label = r.chance(0.3) ? "" : text(1);
  spawnSync(skein, ["session", "label", copy, target, ...(label ? [label] : [])]);
  spawnSync(skein, ["session", "rename", copy, "  renamed " + text(1) + "  "]);
  const after = load(copy);
  check(`label ${copy}: pi sees it`, after.sm.getLabel(target) ?? "", label);
  const listed = (await SessionManager.list("/", work)).find((x) => x.path === copy);
  check(`rename ${copy}: pi sees the name`, listed?.name, after.sm.getSessionName());
  check(`label/rename ${copy}: earlier bytes unchanged`, readFileSync(copy).subarray(0, before.length).equals(before), true);
  check(`label/rename ${copy}: appended as children of the leaf`, after.entries.slice(-2).map((e) => e.parentId), [src.entries.at(-1).id, after.entries.at(-2).id]);
  // Compaction, extractive: one entry, a child of the old leaf, with pi's plan.
  const keep = r.pick([0, 100, 1000]);
  const leaf = after.entries.at(-1).id;
  const prep = prepareCompaction(after.sm.getBranch(leaf), { enabled: true, reserveTokens: 16384, keepRecentTokens: keep });
  const beforeCompact = readFileSync(copy);
  const res = spawnSync(skein, ["session", "compact", copy, "--summarizer", "extractive", "--keep-tokens", String(keep), "--json"], { encoding: "utf8" });
  if (!prep) {
    check(`compact ${copy}: refused where pi would not compact`, [res.status, readFileSync(copy).equals(beforeCompact)], [1, true]);
    continue;
  }
  const compacted = load(copy);
  const c = compacted.entries.at(-1);
  const { readFiles, modifiedFiles } = computeFileLists(prep.fileOps);
  check(`compact ${copy}: one compaction entry after the leaf, pi's plan`, [res.status, compacted.entries.length - after.entries.length, c.type, c.parentId, c.firstKeptEntryId, c.tokensBefore, c.details], [0, 1, "compaction", leaf, prep.firstKeptEntryId, prep.tokensBefore, { readFiles, modifiedFiles }]);
  // pi writes "No prior history." for a split turn with nothing before it;
  // skein does too, unless a previous summary is there to carry forward.
  // (A split turn whose cut is its own start has no prefix: then pi
  // summarizes the history as usual.)
  const nothingBefore = prep.isSplitTurn && prep.turnPrefixMessages.length > 0 && prep.messagesToSummarize.length === 0 && !prep.previousSummary;
  check(`compact ${copy}: summary in pi's format`, [c.summary.startsWith(nothingBefore ? "No prior history." : "## Goal"), readFiles.length === 0 || c.summary.includes("<read-files>\n" + readFiles.join("\n") + "\n</read-files>")], [true, true]);
  const resumed = buildSessionContext(compacted.entries);
  check(`compact ${copy}: pi resumes from the summary`, [resumed.messages[0].role, resumed.messages[0].summary], ["compactionSummary", c.summary]);
  check(`compact ${copy}: earlier bytes unchanged`, readFileSync(copy).subarray(0, beforeCompact.length).equals(beforeCompact), true);
}
console.log(`${passed} passed, ${failed} failed`);
if (failed === 0) rmSync(work, { recursive: true, force: true });
process.exit(failed ? 1 : 0);
