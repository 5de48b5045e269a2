// Writes skein's Copilot CLI fixtures with Copilot CLI 1.0.102 itself: the
// native binary of its npm package's linux-x64 build, run as `copilot -p` in
// a sandbox (HOME, COPILOT_HOME, XDG_CACHE_HOME and the project under one
// temporary folder), its BYOK provider pointed at server.mjs, a fake OpenAI
// Chat Completions API that answers from each scenario's script and logs
// every request. Per scenario, fixtures/<name>/ gets:
//   copilot-home/session-state/<uuid>/...  the session folders as Copilot
//                            wrote them (sandbox paths replaced by /sandbox;
//                            its lock files and SQLite files left out)
//   resume-request.json      the body of the first request of the last resume
//   usage.json               the usage the fake server reported, per request
//   steps.json               each run: its arguments, exit status, the
//                            requests it made and each events.jsonl's line
//                            count after it (a test cuts the file there to
//                            get it as the resume read it)
// Run: npm ci && node gen.mjs [scenario...]
import { spawn } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync, readFileSync, readdirSync, appendFileSync, existsSync, statSync } from "node:fs";
import { join, dirname, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { outDir } from "../seed.mjs";
import { start } from "./server.mjs";
import { scenarios } from "./scenarios.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const copilot = join(here, "node_modules", "@github", "copilot-linux-x64", "copilot");
const scratch = "/tmp/skein-agentgen-copilot";
const placeholder = "/sandbox";

if (!existsSync(copilot)) {
  console.error(`gen: no ${copilot}: run npm ci in ${here}`);
  process.exit(1);
}
const only = process.argv.slice(2);
const unknown = only.filter((n) => !scenarios.some((s) => s.name === n));
if (unknown.length) {
  console.error(`gen: no scenario ${unknown.join(", ")} (have: ${scenarios.map((s) => s.name).join(", ")})`);
  process.exit(2);
}

// The binary unpacks its JavaScript and native runtime (about 230 MB) into
// $XDG_CACHE_HOME/copilot/pkg on first run; one cache serves every scenario.
const cache = join(scratch, "cache");
mkdirSync(cache, { recursive: true });

let failed = 0;
for (const sc of scenarios) {
  if (only.length && !only.includes(sc.name)) continue;
  const t0 = Date.now();
  try {
    await runScenario(sc);
    console.log(`${sc.name}: ok (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
  } catch (e) {
    failed++;
    console.error(`${sc.name}: FAILED: ${e.message}`);
  }
}
process.exit(failed ? 1 : 0);

async function runScenario(sc) {
  const root = join(scratch, sc.name);
  rmSync(root, { recursive: true, force: true });
  const dirs = { home: join(root, "home"), copilot: join(root, "copilot"), proj: join(root, "proj"), tmp: join(root, "tmp") };
  for (const d of Object.values(dirs)) mkdirSync(d, { recursive: true });
  for (const [p, content] of Object.entries(sc.files ?? {})) {
    mkdirSync(dirname(join(dirs.proj, p)), { recursive: true });
    writeFileSync(join(dirs.proj, p), content);
  }
  const replies = [];
  const log = join(root, "requests.jsonl");
  const requests = [];
  const server = await start(replies, (r) => {
    requests.push(r);
    appendFileSync(log, JSON.stringify(r) + "\n");
  });
  const env = {
    PATH: "/usr/local/bin:/usr/bin:/bin",
    HOME: dirs.home,
    COPILOT_HOME: dirs.copilot,
    XDG_CACHE_HOME: cache,
    TMPDIR: dirs.tmp,
    COPILOT_PROVIDER_BASE_URL: `http://127.0.0.1:${server.port}/v1`,
    COPILOT_PROVIDER_TYPE: "openai",
    COPILOT_PROVIDER_API_KEY: "test",
    COPILOT_MODEL: "gpt-fake",
    COPILOT_OFFLINE: "true",
    COPILOT_AUTO_UPDATE: "false",
    TERM: "dumb",
    LANG: "C.UTF-8",
    TZ: "UTC",
    NO_COLOR: "1",
    ...(sc.env ?? {}),
  };
  const steps = [];
  let id = null;
  const known = new Set();
  try {
    for (const [i, st] of sc.steps.entries()) {
      replies.length = 0;
      // "$PROJ" in a scripted call's arguments is the project's real path.
      replies.push(...JSON.parse(JSON.stringify(st.replies).split("$PROJ").join(dirs.proj)));
      const first = requests.length;
      if (st.resume && !id) throw new Error(`step ${i}: no session to resume yet`);
      const args = [...(st.resume ? [`--resume=${id}`] : []), "--allow-all-tools", "--no-auto-update", ...(st.args ?? []), "-p", st.prompt];
      const { code, stdout, stderr } = await run(copilot, args, { cwd: dirs.proj, env });
      writeFileSync(join(root, `step${i}.stdout`), stdout);
      writeFileSync(join(root, `step${i}.stderr`), stderr);
      const left = replies.filter((r) => !r.optional);
      if (left.length) throw new Error(`step ${i}: ${left.length} scripted replies left unused (exit ${code}); see ${root}/step${i}.stdout`);
      const made = requests.slice(first);
      if (made.some((r) => r.reply?.unscripted)) throw new Error(`step ${i}: an unscripted request; see ${log}`);
      if ((code !== 0) !== Boolean(st.fails)) throw new Error(`step ${i}: exit ${code}; see ${root}/step${i}.stdout`);
      const sessions = listSessions(dirs.copilot);
      const fresh = sessions.filter((s) => !known.has(s));
      fresh.forEach((s) => known.add(s));
      if (!st.resume) {
        if (fresh.length !== 1) throw new Error(`step ${i} started ${fresh.length} sessions`);
        id = fresh[0];
      } else if (fresh.length) throw new Error(`step ${i}: a resume started ${fresh.length} new sessions`);
      steps.push({
        args: args.map((a) => sanitize(a, root)),
        exit: code,
        requests: made.map((r) => r.n),
        events: Object.fromEntries(sessions.map((s) => [s, lines(join(dirs.copilot, "session-state", s, "events.jsonl"))])),
      });
    }
  } finally {
    await server.close();
  }
  const out = join(outDir("copilot", join(here, "fixtures")), sc.name);
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const state = join(dirs.copilot, "session-state");
  for (const f of listFiles(state).filter((f) => !/\.(lock|db|db-wal|db-shm)$/.test(f) && !relative(state, f).startsWith("."))) {
    const to = join(out, "copilot-home", "session-state", relative(state, f));
    mkdirSync(dirname(to), { recursive: true });
    writeFileSync(to, sanitize(readFileSync(f, "utf8"), root));
  }
  const resumes = sc.steps.map((st, i) => (st.resume ? steps[i].requests[0] : null)).filter((n) => n != null);
  resumes.forEach((n, k) => {
    const name = k === resumes.length - 1 ? "resume-request.json" : `resume-${k + 1}-request.json`;
    writeFileSync(join(out, name), sanitize(JSON.stringify(requests[n - 1].body, null, 2), root) + "\n");
  });
  const used = requests.filter((r) => r.reply && r.reply !== "404").map((r) => ({
    request: r.n,
    agent: r.agent,
    interaction: r.headers["x-interaction-type"] ?? null,
    step: steps.findIndex((s) => s.requests.includes(r.n)),
    response: r.reply.status ? { status: r.reply.status } : { id: `chatcmpl-${String(r.n).padStart(4, "0")}` },
    usage: r.reply.usage ?? null,
  }));
  writeFileSync(join(out, "usage.json"), JSON.stringify(used, null, 2) + "\n");
  writeFileSync(join(out, "steps.json"), JSON.stringify({ scenario: sc.name, about: sc.about, session: id, steps }, null, 2) + "\n");
}

function sanitize(s, root) {
  return s.split(root).join(placeholder);
}

function lines(f) {
  return existsSync(f) ? readFileSync(f, "utf8").split("\n").filter(Boolean).length : 0;
}

function listFiles(dir) {
  const out = [];
  if (!existsSync(dir)) return out;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...listFiles(p));
    else if (e.isFile()) out.push(p);
  }
  return out.sort();
}

// listSessions is the session folders under COPILOT_HOME/session-state: one
// per session, named by its id.
function listSessions(home) {
  const s = join(home, "session-state");
  if (!existsSync(s)) return [];
  return readdirSync(s).filter((n) => !n.startsWith(".") && statSync(join(s, n)).isDirectory()).sort();
}

function run(cmd, args, opts) {
  return new Promise((resolve, reject) => {
    const p = spawn(cmd, args, { ...opts, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "", stderr = "";
    p.stdout.on("data", (c) => (stdout += c));
    p.stderr.on("data", (c) => (stderr += c));
    const timer = setTimeout(() => p.kill("SIGKILL"), 120_000);
    p.on("error", reject);
    p.on("close", (code) => { clearTimeout(timer); resolve({ code, stdout, stderr }); });
  });
}
