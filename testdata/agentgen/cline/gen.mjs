// Writes skein's Cline fixtures with Cline CLI 3.0.65 itself (npm `cline`,
// whose @cline/cli-linux-x64 is a compiled Bun binary), run in a sandbox
// (HOME, the project and TMPDIR under one temporary folder) against
// server.mjs, a fake OpenAI Chat Completions API that answers from each
// scenario's script and logs every request. The provider is set with
// `cline auth -p openai-compatible -b URL`; a session starts with
// `cline --json PROMPT` and is resumed through `cline --acp` (session/load,
// then session/prompt), the CLI's one non-interactive resume. Per scenario,
// fixtures/<name>/ gets:
//   cline-home/data/sessions/<id>/...  the session folder as Cline wrote it
//                            (sandbox paths replaced by /sandbox; nothing else)
//   resume-request.json      the body of the first request of the last resume
//                            (resume-<i>-request.json for earlier ones)
//   usage.json               the usage the fake server reported, per request
//   steps.json               each run: its arguments, exit status, session id,
//                            the requests it made, and each messages file's
//                            message count after it (so a test can cut a
//                            file where a resume began)
//   requests.jsonl           every request (tools cut to their names)
// Run: npm ci && node gen.mjs [scenario...]
import { spawn } from "node:child_process";
import { outDir } from "../seed.mjs";
import { mkdirSync, rmSync, writeFileSync, readFileSync, readdirSync, appendFileSync, existsSync } from "node:fs";
import { join, dirname, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { start } from "./server.mjs";
import { scenarios } from "./scenarios.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const clineBin = join(here, "node_modules", "@cline", "cli-linux-x64", "bin", "cline");
const scratch = process.env.AGENTGEN_TMP ?? "/tmp/skein-agentgen-cline";
const placeholder = "/sandbox";
const model = "fake-model";

if (!existsSync(clineBin)) {
  console.error(`gen: no ${clineBin}: run npm ci in ${here}`);
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
  const clineDir = join(dirs.home, ".cline");
  const sessionsDir = join(clineDir, "data", "sessions");
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
  // CLINE_SESSION_BACKEND_MODE=local: no hub daemon (the default "auto"
  // starts a detached one that outlives the run). CLINE_API_KEY,
  // CLINE_PROVIDER and CLINE_MODEL are what --acp mode reads instead of a
  // sign-in.
  const env = {
    PATH: "/usr/local/bin:/usr/bin:/bin",
    HOME: dirs.home,
    TMPDIR: dirs.tmp,
    CLINE_SESSION_BACKEND_MODE: "local",
    CLINE_API_KEY: "test",
    CLINE_PROVIDER: "openai-compatible",
    CLINE_MODEL: model,
    TERM: "dumb",
    LANG: "C.UTF-8",
    TZ: "UTC",
    NO_COLOR: "1",
    SHELL: "/bin/bash",
  };
  const steps = [];
  let session = null;
  try {
    const auth = await run(clineBin, ["auth", "-p", "openai-compatible", "-b", `http://127.0.0.1:${server.port}/v1`, "-k", "test", "-m", model], { cwd: dirs.proj, env });
    if (auth.code !== 0) throw new Error(`cline auth: exit ${auth.code}: ${auth.stderr}`);
    for (const [i, st] of sc.steps.entries()) {
      replies.length = 0;
      replies.push(...st.replies);
      const first = requests.length;
      const before = new Set(existsSync(sessionsDir) ? readdirSync(sessionsDir) : []);
      let r, args;
      if (!st.resume) {
        args = ["--json", st.prompt];
        r = await run(clineBin, args, { cwd: dirs.proj, env });
      } else {
        args = ["--acp", "--auto-approve", "true"];
        r = await acp(clineBin, args, { cwd: dirs.proj, env }, session, st.prompt);
      }
      writeFileSync(join(root, `step${i}.stdout`), r.stdout);
      writeFileSync(join(root, `step${i}.stderr`), r.stderr);
      if (replies.length) throw new Error(`step ${i}: ${replies.length} scripted replies left unused (exit ${r.code}); see ${root}/step${i}.stderr`);
      const made = requests.slice(first);
      if (made.some((q) => q.reply?.unscripted)) throw new Error(`step ${i}: an unscripted request; see ${log}`);
      if ((r.code !== 0) !== Boolean(st.fails)) throw new Error(`step ${i}: exit ${r.code}; see ${root}/step${i}.stderr`);
      if (!st.resume) {
        const fresh = readdirSync(sessionsDir).filter((d) => !before.has(d));
        if (fresh.length !== 1) throw new Error(`step ${i}: ${fresh.length} new session folders`);
        session = fresh[0];
      }
      steps.push({
        args: args.map((a) => sanitize(a, root)),
        exit: r.code,
        session,
        requests: made.map((q) => q.n),
        who: made.map((q) => q.who),
        messages: Object.fromEntries(listFiles(sessionsDir).filter((f) => f.endsWith(".messages.json")).map((f) => [relative(sessionsDir, f), JSON.parse(readFileSync(f, "utf8")).messages.length])),
      });
    }
  } finally {
    await server.close();
  }
  const out = join(outDir("cline", join(here, "fixtures")), sc.name);
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  for (const f of listFiles(sessionsDir)) {
    const to = join(out, "cline-home", "data", "sessions", relative(sessionsDir, f));
    mkdirSync(dirname(to), { recursive: true });
    writeFileSync(to, sanitize(readFileSync(f, "utf8"), root));
  }
  const at = sc.steps.map((st, i) => (st.resume ? steps[i].requests[0] : null)).filter((n) => n != null);
  at.forEach((n, k) => {
    const name = k === at.length - 1 ? "resume-request.json" : `resume-${k + 1}-request.json`;
    writeFileSync(join(out, name), sanitize(JSON.stringify(requests[n - 1].body, null, 2), root) + "\n");
  });
  const used = requests
    .filter((q) => q.reply && q.reply !== "404")
    .map((q) => ({
      request: q.n,
      who: q.who,
      step: steps.findIndex((s) => s.requests.includes(q.n)),
      response: q.reply.status ? { status: q.reply.status } : { id: q.reply.id },
      usage: q.reply.usage ?? null,
    }));
  writeFileSync(join(out, "usage.json"), JSON.stringify(used, null, 2) + "\n");
  writeFileSync(join(out, "steps.json"), JSON.stringify({ scenario: sc.name, about: sc.about, steps }, null, 2) + "\n");
  const short = requests.map((q) => ({ ...q, body: q.body?.tools ? { ...q.body, tools: q.body.tools.map((t) => t.function?.name ?? t.type) } : q.body }));
  writeFileSync(join(out, "requests.jsonl"), short.map((q) => sanitize(JSON.stringify(q), root)).join("\n") + "\n");
}

// sanitize replaces the sandbox root by /sandbox.
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

// acp resumes session id with prompt over the Agent Client Protocol
// (newline-delimited JSON-RPC on stdio): initialize, session/load (which
// replays the history as session/update notifications), the model set
// (a loaded session starts on the provider's default model otherwise),
// session/prompt; a permission asked is allowed. The exit is 0 when the
// prompt ended its turn.
function acp(cmd, args, opts, id, prompt) {
  return new Promise((resolve, reject) => {
    const p = spawn(cmd, args, { ...opts, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "",
      stderr = "",
      buf = "",
      n = 0,
      ok = false;
    const waiting = new Map();
    const write = (m) => p.stdin.write(JSON.stringify({ jsonrpc: "2.0", ...m }) + "\n");
    const send = (method, params) =>
      new Promise((res, rej) => {
        const i = ++n;
        waiting.set(i, (m) => (m.error ? rej(new Error(`${method}: ${JSON.stringify(m.error)}`)) : res(m.result)));
        write({ id: i, method, params });
      });
    p.stdout.on("data", (c) => {
      stdout += c;
      buf += c;
      let k;
      while ((k = buf.indexOf("\n")) >= 0) {
        const line = buf.slice(0, k);
        buf = buf.slice(k + 1);
        if (!line.trim()) continue;
        let m;
        try {
          m = JSON.parse(line);
        } catch {
          continue;
        }
        if (m.id != null && m.method) {
          if (m.method === "session/request_permission") {
            const opt = m.params.options.find((o) => o.kind.startsWith("allow")) ?? m.params.options[0];
            write({ id: m.id, result: { outcome: { outcome: "selected", optionId: opt.optionId } } });
          } else write({ id: m.id, error: { code: -32601, message: "not supported" } });
        } else if (m.id != null && waiting.has(m.id)) {
          waiting.get(m.id)(m);
          waiting.delete(m.id);
        }
      }
    });
    p.stderr.on("data", (c) => (stderr += c));
    const timer = setTimeout(() => p.kill("SIGKILL"), 180_000);
    p.on("error", reject);
    p.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code: ok ? 0 : code || 1, stdout, stderr });
    });
    (async () => {
      try {
        await send("initialize", { protocolVersion: 1, clientCapabilities: {} });
        await send("session/load", { sessionId: id, cwd: opts.cwd, mcpServers: [] });
        await send("session/set_model", { sessionId: id, modelId: model });
        const r = await send("session/prompt", { sessionId: id, prompt: [{ type: "text", text: prompt }] });
        ok = r?.stopReason === "end_turn";
        if (!ok) stderr += `\nacp: stopReason ${r?.stopReason}\n`;
      } catch (e) {
        stderr += `\nacp: ${e.message}\n`;
      }
      p.stdin.end();
      setTimeout(() => p.kill("SIGTERM"), 1500);
    })();
  });
}
