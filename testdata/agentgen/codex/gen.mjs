// Writes skein's Codex fixtures with Codex 0.171.0 itself: the native binary
// of the npm package, run as `codex exec` in a sandbox (HOME, CODEX_HOME and
// the project under one temporary folder), its model provider pointed at
// server.mjs, a fake Responses API that answers from each scenario's script
// and logs every request. Per scenario, fixtures/<name>/ gets:
//   codex-home/sessions/...  the rollouts as Codex wrote them (sandbox paths
//                            replaced by /sandbox; nothing else touched)
//   resume-request.json      the body of the first request of the last resume
//                            (resume-<i>-request.json for earlier ones;
//                            fork-request.json likewise for `exec fork`)
//   compaction-request.json  the request that asked for a compaction summary
//   usage.json               the usage the fake server reported, per request
//   steps.json               each run: its arguments, exit status, the
//                            requests it made and the rollout's line count
//                            after it (so a test can cut the file where a
//                            resume began)
// Run: npm ci && node gen.mjs [scenario...]
import { spawn } from "node:child_process";
import { outDir } from "../seed.mjs";
import { mkdirSync, rmSync, writeFileSync, readFileSync, readdirSync, appendFileSync, existsSync } from "node:fs";
import { join, dirname, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { start } from "./server.mjs";
import { scenarios } from "./scenarios.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const codexJs = join(here, "node_modules", "@openai", "codex", "bin", "codex.js");
const scratch = "/tmp/skein-agentgen-codex";
const placeholder = "/sandbox";

if (!existsSync(codexJs)) {
  console.error(`gen: no ${codexJs}: run npm ci in ${here}`);
  process.exit(1);
}
const only = process.argv.slice(2);
const unknown = only.filter((n) => !scenarios.some((s) => s.name === n));
if (unknown.length) {
  console.error(`gen: no scenario ${unknown.join(", ")} (have: ${scenarios.map((s) => s.name).join(", ")})`);
  process.exit(2);
}

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
  const dirs = { home: join(root, "home"), codex: join(root, "codex"), proj: join(root, "proj"), tmp: join(root, "tmp") };
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
  writeFileSync(join(dirs.codex, "config.toml"), config(server.port, sc.config ?? "", sc.provider ?? {}));
  const env = {
    PATH: "/usr/local/bin:/usr/bin:/bin",
    HOME: dirs.home,
    CODEX_HOME: dirs.codex,
    TMPDIR: dirs.tmp,
    FAKE_API_KEY: "test",
    TERM: "dumb",
    LANG: "C.UTF-8",
    TZ: "UTC",
    NO_COLOR: "1",
    RUST_LOG: "error",
  };
  const steps = [];
  const ids = {}; // session name (step.as, default "main") -> id
  const known = new Set();
  try {
    for (const [i, st] of sc.steps.entries()) {
      replies.length = 0;
      replies.push(...st.replies);
      const first = requests.length;
      const sub = st.resume ? ["resume", ids[st.resume]] : st.fork ? ["fork", ids[st.fork]] : [];
      if (sub.length && !sub[1]) throw new Error(`step ${i}: no session ${st.resume ?? st.fork} yet`);
      const args = ["exec", "--skip-git-repo-check", ...sub, ...(st.args ?? []), st.prompt];
      const { code, stdout, stderr } = await run(process.execPath, [codexJs, ...args], { cwd: dirs.proj, env });
      writeFileSync(join(root, `step${i}.stdout`), stdout);
      writeFileSync(join(root, `step${i}.stderr`), stderr);
      if (replies.length) throw new Error(`step ${i}: ${replies.length} scripted replies left unused (exit ${code}); see ${root}/step${i}.stderr`);
      const made = requests.slice(first);
      if (made.some((r) => r.reply?.unscripted)) throw new Error(`step ${i}: an unscripted request; see ${log}`);
      if ((code !== 0) !== Boolean(st.fails)) throw new Error(`step ${i}: exit ${code}; see ${root}/step${i}.stderr`);
      const rollouts = listRollouts(dirs.codex);
      const fresh = rollouts.filter((f) => !known.has(f));
      fresh.forEach((f) => known.add(f));
      // A sub-agent writes a rollout of its own (parent_thread_id in its
      // session_meta); the session a step starts is the one without.
      const metas = fresh.map((f) => JSON.parse(readFileSync(f, "utf8").split("\n")[0]).payload);
      const own = metas.filter((m) => !m.parent_thread_id);
      if (metas.length > own.length && !sc.subagents) throw new Error(`step ${i}: an unexpected sub-agent rollout`);
      if (!st.resume) {
        if (own.length !== 1) throw new Error(`step ${i} started ${own.length} sessions`);
        ids[st.as ?? "main"] = own[0].id;
      } else if (own.length) throw new Error(`step ${i}: a resume started ${own.length} new sessions`);
      steps.push({
        session: st.resume ?? st.as ?? "main",
        ...(st.fork ? { from: st.fork } : {}),
        args: args.map((a) => sanitize(a, root)),
        exit: code,
        requests: made.map((r) => r.n),
        rollouts: Object.fromEntries(rollouts.map((f) => [relative(dirs.codex, f), readFileSync(f, "utf8").split("\n").filter(Boolean).length])),
      });
    }
  } finally {
    await server.close();
  }
  const out = join(outDir("codex", join(here, "fixtures")), sc.name);
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  for (const f of listFiles(dirs.codex).filter((f) => /^(sessions\/|archived_sessions\/|session_index\.jsonl$|history\.jsonl$)/.test(relative(dirs.codex, f)))) {
    const to = join(out, "codex-home", relative(dirs.codex, f));
    mkdirSync(dirname(to), { recursive: true });
    writeFileSync(to, sanitize(readFileSync(f, "utf8"), root));
  }
  for (const kind of ["resume", "fork"]) {
    const at = sc.steps.map((st, i) => (st[kind] ? steps[i].requests[0] : null)).filter((n) => n != null);
    at.forEach((n, k) => {
      const name = k === at.length - 1 ? `${kind}-request.json` : `${kind}-${k + 1}-request.json`;
      writeFileSync(join(out, name), sanitize(JSON.stringify(requests[n - 1].body, null, 2), root) + "\n");
    });
  }
  const compactions = requests.filter((r) => kindOf(r) === "compaction");
  compactions.forEach((r, k) => {
    const name = k === compactions.length - 1 ? "compaction-request.json" : `compaction-${k + 1}-request.json`;
    writeFileSync(join(out, name), sanitize(JSON.stringify(r.body, null, 2), root) + "\n");
  });
  const used = requests.filter((r) => r.reply && r.reply !== "404").map((r) => ({
    request: r.n,
    kind: kindOf(r),
    agent: r.agent,
    thread: r.headers["thread-id"] ?? null,
    step: steps.findIndex((s) => s.requests.includes(r.n)),
    response: r.reply.status ? { status: r.reply.status } : { id: `resp_${String(r.n).padStart(4, "0")}`, status: r.reply.failed ? "failed" : "completed" },
    usage: r.reply.usage ?? null,
  }));
  writeFileSync(join(out, "usage.json"), JSON.stringify(used, null, 2) + "\n");
  writeFileSync(join(out, "steps.json"), JSON.stringify({ scenario: sc.name, about: sc.about, steps }, null, 2) + "\n");
}

function config(port, extra, provider) {
  const p = { request_max_retries: 0, stream_max_retries: 0, ...provider };
  return `model = "gpt-fake"
model_provider = "fake"
approval_policy = "never"
sandbox_mode = "danger-full-access"
${extra}
[model_providers.fake]
name = "Fake"
base_url = "http://127.0.0.1:${port}/v1"
env_key = "FAKE_API_KEY"
wire_api = "responses"
request_max_retries = ${p.request_max_retries}
stream_max_retries = ${p.stream_max_retries}
`;
}

// kindOf is the request_kind Codex puts in its x-codex-turn-metadata header:
// "turn", or "compaction" for the request that asks for a summary.
function kindOf(r) {
  try {
    return JSON.parse(r.headers["x-codex-turn-metadata"]).request_kind ?? null;
  } catch {
    return null;
  }
}

function sanitize(s, root) {
  return s.split(root).join(placeholder);
}

function listFiles(dir) {
  const out = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...listFiles(p));
    else out.push(p);
  }
  return out.sort();
}

function listRollouts(codexHome) {
  const s = join(codexHome, "sessions");
  return existsSync(s) ? listFiles(s).filter((f) => f.endsWith(".jsonl")) : [];
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
