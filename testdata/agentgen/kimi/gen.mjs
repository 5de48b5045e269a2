// Writes skein's Kimi Code fixtures with Kimi Code 2.1.0 itself: its npm
// package run as `kimi -p PROMPT --output-format stream-json` in a sandbox
// (HOME, KIMI_CODE_HOME and the project under one temporary folder),
// pointed at server.mjs, a fake OpenAI Chat Completions API that answers
// from each scenario's script and logs every request. Per scenario,
// fixtures/<name>/ gets:
//   kimi-home/sessions/...   the session folders as Kimi Code wrote them
//                            (wire.jsonl per agent, state.json; sandbox
//                            paths replaced by /sandbox, nothing else
//                            touched; logs/ left out)
//   resume-request.json      the body of the first request of the last resume
//                            (resume-<i>-request.json for earlier ones)
//   usage.json               the usage the fake server reported, per request
//   steps.json               each run: its arguments, exit status, session id,
//                            the requests it made, and each wire file's line
//                            count after it (so a test can cut a file where a
//                            resume began)
//   requests.jsonl           every request (tools cut to their names)
// Run: npm ci && ./node22 gen.mjs [scenario...]
import { spawn } from "node:child_process";
import { outDir } from "../seed.mjs";
import { mkdirSync, rmSync, writeFileSync, readFileSync, readdirSync, appendFileSync, existsSync } from "node:fs";
import { join, dirname, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { start } from "./server.mjs";
import { scenarios } from "./scenarios.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const kimiJs = join(here, "node_modules", "@moonshot-ai", "kimi-code", "dist", "main.mjs");
const scratch = process.env.AGENTGEN_TMP ?? "/tmp/skein-agentgen-kimi";
const placeholder = "/sandbox";

if (!existsSync(kimiJs)) {
  console.error(`gen: no ${kimiJs}: run npm ci in ${here}`);
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
  const dirs = { home: join(root, "home"), kimi: join(root, "kimi"), proj: join(root, "proj"), tmp: join(root, "tmp") };
  for (const d of Object.values(dirs)) mkdirSync(d, { recursive: true });
  for (const [p, content] of Object.entries(sc.files ?? {})) {
    mkdirSync(dirname(join(dirs.proj, p)), { recursive: true });
    writeFileSync(join(dirs.proj, p), content);
  }
  const replies = [];
  const log = join(root, "requests.jsonl");
  const requests = [];
  const server = await start(
    replies,
    (r) => {
      requests.push(r);
      appendFileSync(log, JSON.stringify(r) + "\n");
    },
    dirs.proj,
  );
  const env = {
    PATH: "/usr/local/bin:/usr/bin:/bin",
    HOME: dirs.home,
    KIMI_CODE_HOME: dirs.kimi,
    TMPDIR: dirs.tmp,
    KIMI_MODEL_BASE_URL: `http://127.0.0.1:${server.port}/v1`,
    KIMI_MODEL_API_KEY: "test",
    KIMI_MODEL_PROVIDER_TYPE: "openai",
    KIMI_MODEL_NAME: "kimi-fake",
    KIMI_CODE_NO_AUTO_UPDATE: "1",
    TERM: "dumb",
    LANG: "C.UTF-8",
    TZ: "UTC",
    NO_COLOR: "1",
    SHELL: "/bin/bash",
  };
  const steps = [];
  let session = null;
  try {
    for (const [i, st] of sc.steps.entries()) {
      replies.length = 0;
      replies.push(...st.replies);
      const first = requests.length;
      const resume = st.resume === "continue" ? ["--continue"] : st.resume ? ["--session", session] : [];
      const args = ["-p", st.prompt, ...resume, "--output-format", "stream-json"];
      const { code, stdout, stderr } = await run(join(here, "node22"), [kimiJs, ...args], { cwd: dirs.proj, env });
      writeFileSync(join(root, `step${i}.stdout`), stdout);
      writeFileSync(join(root, `step${i}.stderr`), stderr);
      if (replies.length) throw new Error(`step ${i}: ${replies.length} scripted replies left unused (exit ${code}); see ${root}/step${i}.stderr`);
      const made = requests.slice(first);
      if (made.some((r) => r.reply?.unscripted)) throw new Error(`step ${i}: an unscripted request; see ${log}`);
      if ((code !== 0) !== Boolean(st.fails)) throw new Error(`step ${i}: exit ${code}; see ${root}/step${i}.stderr`);
      const id = sessionOf(stdout);
      if (!st.resume) session = id;
      else if (id && id !== session) throw new Error(`step ${i}: resumed into ${id}, not ${session}`);
      steps.push({
        args: args.map((a) => sanitize(a, root)),
        exit: code,
        session: id,
        requests: made.map((r) => r.n),
        who: made.map((r) => r.who),
        wires: Object.fromEntries(listWires(dirs.kimi).map((f) => [sanitize(relative(dirs.kimi, f), root), readFileSync(f, "utf8").split("\n").filter(Boolean).length])),
      });
    }
  } finally {
    await server.close();
  }
  const out = join(outDir("kimi", join(here, "fixtures")), sc.name);
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  for (const f of listSessionFiles(dirs.kimi)) {
    const to = join(out, "kimi-home", sanitize(relative(dirs.kimi, f), root));
    mkdirSync(dirname(to), { recursive: true });
    writeFileSync(to, sanitize(readFileSync(f, "utf8"), root));
  }
  const at = sc.steps.map((st, i) => (st.resume ? steps[i].requests[0] : null)).filter((n) => n != null);
  at.forEach((n, k) => {
    const name = k === at.length - 1 ? "resume-request.json" : `resume-${k + 1}-request.json`;
    writeFileSync(join(out, name), sanitize(JSON.stringify(requests[n - 1].body, null, 2), root) + "\n");
  });
  const used = requests
    .filter((r) => r.reply && r.reply !== "404")
    .map((r) => ({
      request: r.n,
      who: r.who,
      step: steps.findIndex((s) => s.requests.includes(r.n)),
      response: r.reply.status ? { status: r.reply.status } : { id: r.reply.id },
      usage: r.reply.usage ?? null,
    }));
  writeFileSync(join(out, "usage.json"), JSON.stringify(used, null, 2) + "\n");
  writeFileSync(join(out, "steps.json"), JSON.stringify({ scenario: sc.name, about: sc.about, steps }, null, 2) + "\n");
  const short = requests.map((r) => ({ ...r, body: r.body?.tools ? { ...r.body, tools: r.body.tools.map((t) => t.function?.name ?? t.type) } : r.body }));
  writeFileSync(join(out, "requests.jsonl"), short.map((r) => sanitize(JSON.stringify(r), root)).join("\n") + "\n");
}

// sessionOf is the session id of a run's stream-json output (its
// session.resume_hint line).
function sessionOf(stdout) {
  for (const line of stdout.split("\n")) {
    try {
      const e = JSON.parse(line);
      if (e.type === "session.resume_hint") return e.session_id;
    } catch {}
  }
  return null;
}

// sanitize replaces the sandbox root by /sandbox. The workdir bucket's
// hash (wd_proj_<sha256 of the cwd>) stays the hash of the real path.
function sanitize(s, root) {
  return s.split(root).join(placeholder);
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

// listSessionFiles is every file of the sessions' folders but their logs.
function listSessionFiles(home) {
  return listFiles(join(home, "sessions")).filter((f) => !/\/logs\/|\/\.index-(dirty|cache)\//.test(f));
}

// listWires is every agent's wire file.
function listWires(home) {
  return listSessionFiles(home).filter((f) => f.endsWith("/wire.jsonl"));
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
