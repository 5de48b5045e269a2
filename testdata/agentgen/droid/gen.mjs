// Writes skein's Factory Droid fixtures with Droid itself: its native binary
// (npm @factory/cli-linux-x64) run as `droid exec PROMPT [-s ID] -m
// custom:fake --auto high -o json` in a sandbox (HOME and the project under
// one temporary folder), pointed at server.mjs, a fake Anthropic Messages
// API (the custom model's provider "anthropic") that answers from each
// scenario's script (scenarios.mjs) and logs every request. Per scenario,
// fixtures/<name>/ gets:
//   home/.factory/sessions/... the sessions as Droid wrote them (<slug>/<id>.jsonl
//                              and .settings.json; sandbox paths replaced by
//                              /sandbox, its folder-name form by -sandbox-;
//                              nothing else touched)
//   resume-request.json        the body of the first request of the last resume
//                              (resume-<i>-request.json for earlier ones)
//   usage.json                 the usage the fake server reported, per reply
//   steps.json                 each run: its arguments, exit status, session id,
//                              the requests it made, each session file's line
//                              count after it
//   requests.jsonl             every request (tools cut to their names)
// Run: npm ci && node gen.mjs [scenario...]
import { spawn } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync, readFileSync, readdirSync, appendFileSync, existsSync } from "node:fs";
import { join, dirname, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { outDir } from "../seed.mjs";
import { startServer } from "./server.mjs";
import { scenarios } from "./scenarios.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const droid = join(here, "node_modules", "@factory", "cli-linux-x64", "bin", "droid");
const scratch = process.env.AGENTGEN_TMP ?? "/tmp/skein-agentgen-droid";
const placeholder = "/sandbox";

if (!existsSync(droid)) {
  console.error(`gen: no ${droid}: run npm ci in ${here}`);
  process.exit(1);
}
const only = process.argv.slice(2);
const unknown = only.filter((n) => !scenarios.some((s) => s.name === n));
if (unknown.length) {
  console.error(`gen: no scenario ${unknown.join(", ")} (have: ${scenarios.map((s) => s.name).join(", ")})`);
  process.exit(2);
}

let failed = 0;
const t00 = Date.now();
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
console.log(`gen: ${((Date.now() - t00) / 1000).toFixed(0)} s`);
process.exit(failed ? 1 : 0);

async function runScenario(sc) {
  const root = join(scratch, sc.name);
  rmSync(root, { recursive: true, force: true });
  const dirs = { home: join(root, "home"), proj: join(root, "proj"), tmp: join(root, "tmp") };
  for (const d of Object.values(dirs)) mkdirSync(d, { recursive: true });
  for (const [p, content] of Object.entries(sc.files ?? {})) {
    mkdirSync(dirname(join(dirs.proj, p)), { recursive: true });
    writeFileSync(join(dirs.proj, p), content);
  }
  const queue = [...sc.replies];
  const server = await startServer({
    tag: sc.name,
    respond: () => {
      const r = queue.shift();
      if (!r) return { status: 500, error: { type: "api_error", message: "fake server: no scripted reply left" }, purpose: "unscripted" };
      return typeof r.content === "function" ? { ...r, content: r.content(dirs.proj) } : r;
    },
  });
  const base = `http://127.0.0.1:${server.port}`;
  const model = { model: "claude-fake", id: "custom:fake", displayName: "Fake", baseUrl: base, apiKey: "test", provider: "anthropic", maxOutputTokens: 4096 };
  if (sc.thinking) Object.assign(model, { enableThinking: true, thinkingMaxTokens: 2048 });
  mkdirSync(join(dirs.home, ".factory"), { recursive: true });
  writeFileSync(join(dirs.home, ".factory", "settings.json"), JSON.stringify({ customModels: [model] }, null, 2) + "\n");
  const env = {
    PATH: "/usr/local/bin:/usr/bin:/bin",
    HOME: dirs.home,
    TMPDIR: dirs.tmp,
    FACTORY_API_KEY: "fk-test",
    // Factory's own services, pointed at the fake server (logged, answered
    // 404): without these Droid asks api.factory.ai and telemetry.factory.ai.
    FACTORY_API_BASE_URL: base,
    FACTORY_APP_BASE_URL: base,
    FACTORY_TELEMETRY_INGEST_BASE_URL: base,
    FACTORY_DROID_AUTO_UPDATE_ENABLED: "false",
    TERM: "dumb",
    LANG: "C.UTF-8",
    TZ: "UTC",
    NO_COLOR: "1",
    SHELL: "/bin/bash",
  };
  const log = join(root, "requests.jsonl");
  const steps = [];
  let session = null;
  try {
    for (const [i, st] of sc.steps.entries()) {
      const first = server.requests.length;
      const args = ["exec", st.prompt, ...(st.resume ? ["-s", session] : []), "-m", "custom:fake", "--auto", "high", "-o", "json"];
      const { code, stdout, stderr } = await run(droid, args, { cwd: dirs.proj, env });
      writeFileSync(join(root, `step${i}.stdout`), stdout);
      writeFileSync(join(root, `step${i}.stderr`), stderr);
      const made = server.requests.slice(first);
      if ((code !== 0) !== Boolean(st.fails)) throw new Error(`step ${i}: exit ${code}; see ${root}/step${i}.stderr`);
      const id = sessionOf(stdout) ?? (st.resume ? session : null);
      if (!st.resume) session = id;
      else if (id && id !== session) throw new Error(`step ${i}: continued into ${id}, not ${session}`);
      steps.push({
        args: args.map((a) => sanitize(a, root)),
        exit: code,
        session: id,
        requests: made.filter((r) => r.path === "/v1/messages").map((r) => r.seq),
        files: Object.fromEntries(listSessions(dirs.home).filter((f) => f.endsWith(".jsonl")).map((f) => [sanitize(relative(dirs.home, f), root), readFileSync(f, "utf8").split("\n").filter(Boolean).length])),
      });
    }
  } finally {
    for (const r of server.requests) appendFileSync(log, JSON.stringify(r) + "\n");
    await server.close();
  }
  if (queue.length) throw new Error(`${queue.length} scripted replies left unused; see ${log}`);
  if (server.requests.some((r) => r.purpose === "unscripted")) throw new Error(`an unscripted request; see ${log}`);
  const out = join(outDir("droid", join(here, "fixtures")), sc.name);
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  for (const f of listSessions(dirs.home)) {
    const to = join(out, "home", sanitize(relative(dirs.home, f), root));
    mkdirSync(dirname(to), { recursive: true });
    writeFileSync(to, sanitize(readFileSync(f, "utf8"), root));
  }
  const at = sc.steps.map((st, i) => (st.resume ? steps[i].requests[0] : null)).filter((n) => n != null);
  at.forEach((n, k) => {
    const name = k === at.length - 1 ? "resume-request.json" : `resume-${k + 1}-request.json`;
    writeFileSync(join(out, name), sanitize(JSON.stringify(server.requests[n].body, null, 2), root) + "\n");
  });
  const used = server.replies.map((r) => ({
    request: r.seq,
    step: steps.findIndex((s) => s.requests.includes(r.seq)),
    response: r.status ? { status: r.status } : { id: r.id },
    model: r.model,
    usage: r.usage ?? null,
  }));
  writeFileSync(join(out, "usage.json"), JSON.stringify(used, null, 2) + "\n");
  writeFileSync(join(out, "steps.json"), JSON.stringify({ scenario: sc.name, about: sc.about, steps }, null, 2) + "\n");
  const short = server.requests.map((r) => ({ ...r, body: r.body?.tools ? { ...r.body, tools: r.body.tools.map((t) => t.name ?? t.type) } : r.body }));
  writeFileSync(join(out, "requests.jsonl"), short.map((r) => sanitize(JSON.stringify(r), root)).join("\n") + "\n");
}

// sessionOf is the session id of a run's `-o json` result.
function sessionOf(stdout) {
  try {
    return JSON.parse(stdout.trim().split("\n").pop()).session_id ?? null;
  } catch {
    return null;
  }
}

// sanitize replaces the sandbox root by /sandbox, and its folder-name form
// (each "/" as "-", as Droid names a project's folder) by -sandbox.
function sanitize(s, root) {
  return s.split(root).join(placeholder).split(root.replace(/\//g, "-")).join(placeholder.replace(/\//g, "-"));
}

function listFiles(dir) {
  const out = [];
  if (!existsSync(dir)) return out;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...listFiles(p));
    else out.push(p);
  }
  return out.sort();
}

// listSessions is every file under ~/.factory/sessions but the .bak copies
// Droid keeps of a settings file.
function listSessions(home) {
  return listFiles(join(home, ".factory", "sessions")).filter((f) => !f.endsWith(".bak"));
}

function run(cmd, args, opts) {
  return new Promise((resolve, reject) => {
    const p = spawn(cmd, args, { ...opts, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "",
      stderr = "";
    p.stdout.on("data", (c) => (stdout += c));
    p.stderr.on("data", (c) => (stderr += c));
    const timer = setTimeout(() => p.kill("SIGKILL"), 180_000);
    p.on("error", reject);
    p.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
