// Writes skein's Gemini CLI 0.61.0 fixtures with Gemini CLI itself (npm
// @google/gemini-cli@0.61.0, run by this machine's node) in headless mode,
// `gemini -p PROMPT -o json --approval-mode yolo --skip-trust -m MODEL`, in a
// sandbox (HOME, GEMINI_CLI_HOME and the project under one temporary folder)
// against the fake Gemini API of server.mjs, which answers from each
// scenario's script and logs every request.
//
// Per scenario, into fixtures/<scenario>/:
//   home/.gemini/tmp/<project>/...  the session files as Gemini CLI wrote them
//                         (chats/session-*.jsonl, sub-agents'
//                         chats/<parent id>/<id>.jsonl, .project_root), and
//                         home/.gemini/projects.json; the sandbox root
//                         replaced by /sandbox in names and contents
//   resume-request.json   the body of the first main request the agent sent
//                         when it last resumed the session
//   requests.jsonl        every request of the scenario, in order (`tools`
//                         and the system instruction cut to a hash;
//                         resume-request.json has them whole)
//   usage.json            the usage the fake server reported, per reply,
//                         with the request's purpose (main, router, compress)
//   runs.json             each command: its arguments, exit status, session
//                         id, the requests it made and the file's line count
//                         after it
//
// Run: npm ci && node gen.mjs [scenario...]   (all scenarios when none is named)
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { outDir } from "../seed.mjs";
import { startServer } from "./server.mjs";
import { scenarios } from "./scenarios.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const geminiJs = join(here, "node_modules", "@google", "gemini-cli", "bundle", "gemini.js");
const fixtures = outDir("gemini", join(here, "fixtures"));
const scratch = process.env.AGENTGEN_TMP_GEMINI || "/tmp/skein-agentgen-gemini";
const placeholder = "/sandbox";
export const model = "gemini-2.5-pro";

if (!existsSync(geminiJs)) {
  console.error(`gen: no ${geminiJs}: run npm ci in ${here}`);
  process.exit(1);
}

async function runScenario(name) {
  const sc = scenarios[name];
  const root = join(scratch, name);
  rmSync(root, { recursive: true, force: true });
  const home = join(root, "home");
  const project = join(root, "proj");
  for (const d of [home, project, join(root, "tmp"), join(home, ".gemini")]) mkdirSync(d, { recursive: true });
  for (const [p, content] of Object.entries(sc.files ?? {})) {
    mkdirSync(dirname(join(project, p)), { recursive: true });
    writeFileSync(join(project, p), content);
  }
  // The settings a user with an API key has, less what would reach the
  // network: no update check, no usage statistics.
  writeFileSync(join(home, ".gemini", "settings.json"), JSON.stringify({
    security: { auth: { selectedType: "gemini-api-key" } },
    general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
    privacy: { usageStatisticsEnabled: false },
    ...(sc.settings ?? {}),
  }, null, 2) + "\n");
  const server = await startServer({ respond: sc.respond });
  const env = {
    PATH: "/usr/local/bin:/usr/bin:/bin",
    HOME: home,
    GEMINI_CLI_HOME: home,
    TMPDIR: join(root, "tmp"),
    GOOGLE_GEMINI_BASE_URL: `http://127.0.0.1:${server.port}`,
    GEMINI_API_KEY: "test",
    TERM: "dumb",
    LANG: "C.UTF-8",
    TZ: "UTC",
    NO_COLOR: "1",
    CI: "1",
    GEMINI_CLI_NO_RELAUNCH: "true",
  };
  const runs = [];
  const t0 = Date.now();
  const s = {
    project,
    // run is one headless gemini command; it fails unless the agent exited
    // 0 (or the step allows a failure).
    async run(label, prompt, args = [], { allowError = false } = {}) {
      const first = server.requests.length;
      const argv = [geminiJs, "-p", prompt, "-o", "json", "--approval-mode", "yolo", "--skip-trust", "-m", model, ...args];
      const t = Date.now();
      const { code, stdout, stderr } = await run(process.execPath, argv, { cwd: project, env });
      writeFileSync(join(root, `${label}.stdout`), stdout);
      writeFileSync(join(root, `${label}.stderr`), stderr);
      let result = null;
      try { result = JSON.parse(stdout.slice(stdout.indexOf("{"))); } catch { /* not JSON */ }
      const made = server.requests.slice(first);
      const r = { label, args: argv.slice(1).map((a) => sanitize(a, root)), code, ms: Date.now() - t, sessionId: result?.session_id ?? null, requests: made.map((q) => q.seq), error: result?.error ?? null, lines: lineCounts(home) };
      runs.push(r);
      if (code !== 0 && !allowError) throw new Error(`${label}: exit ${code}; see ${root}/${label}.stderr`);
      const stray = made.filter((q) => q.unhandled || q.unscripted);
      if (stray.length) throw new Error(`${label}: unscripted requests ${stray.map((q) => `${q.seq} ${q.purpose ?? q.path}`).join(", ")}; see ${root}`);
      return { ...r, made };
    },
  };
  let marks, failure;
  try {
    marks = await sc.steps(s);
  } catch (e) {
    failure = e;
  } finally {
    await server.close();
  }
  const out = join(fixtures, name);
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const put = (rel, text) => {
    const p = join(out, sanitize(rel, root));
    mkdirSync(dirname(p), { recursive: true });
    writeFileSync(p, sanitize(text, root));
  };
  // The store: projects.json and the project's folder under tmp (its chats
  // and .project_root); not settings.json, which gen wrote.
  const dot = join(home, ".gemini");
  for (const rel of walk(dot).filter((p) => p === "projects.json" || p.startsWith("tmp/"))) put(join("home", ".gemini", rel), readFileSync(join(dot, rel), "utf8"));
  put("requests.jsonl", server.requests.map((r) => JSON.stringify(cut(r)) + "\n").join(""));
  if (marks?.resume) {
    const main = marks.resume.made.find((q) => q.purpose === "main");
    if (main) put("resume-request.json", JSON.stringify(main.body, null, 2) + "\n");
  }
  if (marks?.resume1) {
    const main = marks.resume1.made.find((q) => q.purpose === "main");
    if (main) put("resume-1-request.json", JSON.stringify(main.body, null, 2) + "\n");
  }
  if (marks?.compress) {
    const req = marks.compress.made.find((q) => q.purpose === "compress");
    if (req) put("compress-request.json", JSON.stringify(req.body, null, 2) + "\n");
  }
  put("usage.json", JSON.stringify(server.replies, null, 2) + "\n");
  put("runs.json", JSON.stringify({ scenario: name, about: sc.about, runs }, null, 2) + "\n");
  const secs = ((Date.now() - t0) / 1000).toFixed(1);
  if (failure) {
    console.error(`${name}: FAILED after ${secs} s: ${failure.message}`);
    return false;
  }
  console.log(`${name}: ${runs.length} runs, ${server.requests.length} requests, ${secs} s`);
  return true;
}

// cut shortens what every request repeats: the tools and the system
// instruction become a hash (resume-request.json keeps them whole).
function cut(r) {
  const b = r.body;
  if (!b || typeof b !== "object") return r;
  const body = { ...b };
  if (body.tools) body.tools = { sha256_16: sha(JSON.stringify(body.tools)), names: body.tools.flatMap((t) => (t.functionDeclarations ?? []).map((f) => f.name)) };
  if (body.systemInstruction) body.systemInstruction = { sha256_16: sha(JSON.stringify(body.systemInstruction)) };
  return { ...r, body };
}

const sha = (s) => createHash("sha256").update(s).digest("hex").slice(0, 16);

function sanitize(s, root) {
  return s.split(root).join(placeholder);
}

function walk(dir, base = dir) {
  if (!existsSync(dir)) return [];
  const out = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...walk(p, base));
    else out.push(relative(base, p));
  }
  return out.sort();
}

// lineCounts is each session file's line count, keyed by its path under
// ~/.gemini/tmp: a test cuts a file there to see it as a resume read it.
function lineCounts(home) {
  const tmp = join(home, ".gemini", "tmp");
  return Object.fromEntries(walk(tmp).filter((p) => p.endsWith(".jsonl")).map((p) => [p, readFileSync(join(tmp, p), "utf8").split("\n").filter(Boolean).length]));
}

function run(cmd, args, opts) {
  return new Promise((resolve, reject) => {
    const p = spawn(cmd, args, { ...opts, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "", stderr = "";
    p.stdout.on("data", (c) => (stdout += c));
    p.stderr.on("data", (c) => (stderr += c));
    const timer = setTimeout(() => p.kill("SIGKILL"), 180_000);
    p.on("error", reject);
    p.on("close", (code) => { clearTimeout(timer); resolve({ code, stdout, stderr }); });
  });
}

const wanted = process.argv.slice(2);
for (const w of wanted) if (!scenarios[w]) throw new Error(`no scenario ${w}; there are ${Object.keys(scenarios).join(", ")}`);
let ok = true;
const t0 = Date.now();
for (const name of wanted.length ? wanted : Object.keys(scenarios)) ok = (await runScenario(name)) && ok;
console.log(`${((Date.now() - t0) / 1000).toFixed(1)} s`);
process.exit(ok ? 0 : 1);
