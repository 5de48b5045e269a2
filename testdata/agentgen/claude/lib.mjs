// The sandbox a scenario runs in: its own HOME and project folder under one
// temporary root, the fake server, and Claude Code's native binary run as a
// user would (`claude -p ... --output-format json`).
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, rmSync, writeFileSync, readFileSync, readdirSync, statSync } from "node:fs";
import { join, dirname, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { startServer } from "./server.mjs";

const here = dirname(fileURLToPath(import.meta.url));
export const claudeBin = join(here, "node_modules", "@anthropic-ai", "claude-code-linux-x64", "claude");
export const PLACEHOLDER = "/sandbox";

// Claude Code names a project's folder after its path, every character that
// is not a letter or a digit turned into "-".
export const projectDirName = (p) => p.replace(/[^A-Za-z0-9]/g, "-");

export class Sandbox {
  constructor(root, name, respond) {
    this.name = name;
    this.root = join(root, name);
    this.home = join(this.root, "home");
    this.project = join(this.root, "project");
    this.respond = respond;
    this.runs = [];
  }

  async open(files = {}) {
    rmSync(this.root, { recursive: true, force: true });
    mkdirSync(this.home, { recursive: true });
    mkdirSync(this.project, { recursive: true });
    mkdirSync(join(this.root, "tmp"), { recursive: true });
    for (const [p, text] of Object.entries(files)) {
      mkdirSync(dirname(join(this.project, p)), { recursive: true });
      writeFileSync(join(this.project, p), text);
    }
    this.server = await startServer({ tag: this.name.replace(/[^a-z0-9]/g, ""), respond: (body, ctx) => this.respond(body, ctx) });
    return this;
  }

  env() {
    return {
      PATH: process.env.PATH,
      HOME: this.home,
      LANG: "C.UTF-8",
      TZ: "UTC",
      SHELL: "/bin/bash",
      // Claude Code keeps task outputs and shell snapshots under
      // $CLAUDE_CODE_TMPDIR/claude-<uid>/ (default /tmp): inside the sandbox.
      CLAUDE_CODE_TMPDIR: join(this.root, "tmp"),
      ANTHROPIC_BASE_URL: `http://127.0.0.1:${this.server.port}`,
      ANTHROPIC_API_KEY: "test",
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
      DISABLE_AUTOUPDATER: "1",
      IS_SANDBOX: "1",
    };
  }

  // Runs claude with args (after -p PROMPT ... the fixed flags); returns the
  // parsed JSON result and the requests the server got meanwhile.
  run(label, prompt, extra = [], { timeoutMs = 120000, allowError = false } = {}) {
    const args = ["-p", prompt, "--output-format", "json", "--permission-mode", "bypassPermissions", ...extra];
    const first = this.server.requests.length;
    const t0 = Date.now();
    return new Promise((resolve, reject) => {
      const p = spawn(claudeBin, args, { cwd: this.project, env: this.env(), stdio: ["ignore", "pipe", "pipe"] });
      let out = "", err = "";
      const timer = setTimeout(() => { p.kill("SIGKILL"); }, timeoutMs);
      p.stdout.on("data", (d) => (out += d));
      p.stderr.on("data", (d) => (err += d));
      p.on("error", reject);
      p.on("close", (code, signal) => {
        clearTimeout(timer);
        let result = null;
        try { result = JSON.parse(out); } catch { /* not JSON */ }
        const requests = this.server.requests.slice(first);
        const run = { label, args: ["claude", ...args], code, signal, ms: Date.now() - t0, result, stdout: result ? undefined : out, stderr: err || undefined, requests: requests.map((r) => r.seq) };
        this.runs.push(run);
        if (!allowError && (code !== 0 || !result || result.is_error)) {
          const e = new Error(`${this.name}/${label}: claude exited ${code}${signal ? " " + signal : ""}: ${err.slice(0, 2000)} ${out.slice(0, 2000)}`);
          e.run = run;
          return reject(e);
        }
        resolve({ ...run, sessionId: result && result.session_id, requests });
      });
    });
  }

  // The first request of a run that carries the main conversation.
  static mainRequest(run) {
    return run.requests.find((r) => r.method === "POST" && r.path === "/v1/messages" && r.purpose === "main");
  }

  sanitize(text) {
    return text.split(this.root).join(PLACEHOLDER).split(projectDirName(this.root)).join(projectDirName(PLACEHOLDER));
  }

  async close() {
    await this.server.close();
  }
}

export const sha = (s) => createHash("sha256").update(s).digest("hex").slice(0, 16);

// Every file under dir, relative paths, sorted.
export function walk(dir, base = dir) {
  let out = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out = out.concat(walk(p, base));
    else out.push(relative(base, p));
  }
  return out;
}

export const readJSONL = (p) => readFileSync(p, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l));

// Scripted replies: a queue for the main conversation, and per-marker queues
// for the requests a sub-agent or a compaction makes (told apart by what
// their messages say).
export function script(main, { byMarker = {} } = {}) {
  const queues = { main: [...main], ...Object.fromEntries(Object.entries(byMarker).map(([k, v]) => [k, [...v]])) };
  return (body) => {
    const text = JSON.stringify((body.messages || [])[0] || "");
    for (const marker of Object.keys(byMarker)) {
      if (text.includes(marker) && queues[marker].length) return { purpose: marker, ...queues[marker].shift() };
    }
    if (isCompaction(body)) return { purpose: "compact", content: [{ type: "text", text: "<summary>The user asked for a greeting file; hello.txt was written with the word hello. Nothing else is pending.</summary>" }], usage: { input_tokens: 900, output_tokens: 40 } };
    if (!queues.main.length) return { purpose: "extra", content: [{ type: "text", text: "(the fake server's script ran out)" }] };
    return { purpose: "main", ...queues.main.shift() };
  };
}

export function isCompaction(body) {
  const msgs = body.messages || [];
  const last = msgs[msgs.length - 1];
  const s = JSON.stringify(last || "");
  return /summary of the conversation|summarize the conversation|create a detailed summary/i.test(s);
}

export const text = (t) => ({ type: "text", text: t });
export const thinking = (t) => ({ type: "thinking", thinking: t });
export const tool = (name, input) => ({ type: "tool_use", name, input });

// Claude Code 2.1.332 logs each request it sends as an `api-request` entry:
// `base` (the id of an earlier api-request), `keep` (how many of its messages
// this one keeps) and `tail` (the hashes of the rest), a hash being the
// sha256 of the message as JSON with its keys sorted and cache_control left
// out (`api-request-blob` entries hold the messages no transcript entry
// holds). Returns, per request the server got, the id of the api-request
// entry whose hash list equals its messages', or null.
const sortKeys = (v) => (Array.isArray(v) ? v.map(sortKeys) : v && typeof v === "object" ? Object.fromEntries(Object.keys(v).sort().filter((k) => k !== "cache_control").map((k) => [k, sortKeys(v[k])])) : v);
export const messageHash = (m) => createHash("sha256").update(JSON.stringify(sortKeys(m))).digest("hex");
// The logged form of a message and the one on the wire may differ in one
// way: a content string on the one side is one text block on the other.
const wrap = (m) => (typeof m.content === "string" ? { ...m, content: [{ type: "text", text: m.content }] } : m);
export function matchRequestLog(entries, requests) {
  const byId = new Map();
  const lists = [];
  for (const e of entries) {
    if (e.type !== "api-request") continue;
    const base = e.base ? byId.get(e.base) : [];
    const list = [...(base || []).slice(0, e.keep || 0), ...e.tail];
    byId.set(e.id, list);
    lists.push([e.id, list.join(",")]);
  }
  return requests.map((r) => {
    const hashes = (r.body.messages || []).map((m) => {
      const h = messageHash(m), w = messageHash(wrap(m));
      return lists.some(([, l]) => l.includes(h)) ? h : w;
    });
    const hit = lists.find(([, l]) => l === hashes.join(","));
    if (hit) return { id: hit[0] };
    // No whole match: which of its messages some logged request holds.
    const known = new Set(lists.flatMap(([, l]) => l.split(",")));
    return { id: null, messagesFound: hashes.map((h) => known.has(h)) };
  });
}
