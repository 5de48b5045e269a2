// What gen.mjs does for OpenCode and ../kilo/gen.mjs for Kilo CLI, its fork:
// run the agent's native binary as `<bin> run --format json PROMPT` in a
// sandbox (HOME, the XDG folders, the config folder and the project under
// one temporary folder), pointed at server.mjs, a fake OpenAI Chat
// Completions API (the @ai-sdk/openai-compatible provider of the agent's
// config) that answers from each scenario's script and logs every request,
// and write per scenario, into fixtures/<name>/:
//   <dir>/<db>               the database the agent wrote, its WAL
//                            checkpointed, with the sandbox path replaced by
//                            /sandbox (through sqlite3's .dump and a reload:
//                            the rows are the agent's, the pages sqlite3's)
//   <dir>/<db minus .db>.sql the same as SQL text, to read and diff
//   resume-request.json      the body of the first request of the last resume
//   usage.json               the usage the fake server reported, per request
//   steps.json               each run: its arguments, exit status, session
//                            id, the requests it made
//   requests.jsonl           every request (tools cut to their names)
// The agents differ only in what `agent` below says: their binary, their
// config file's name, their environment and where their database is.
import { spawn, execFileSync } from "node:child_process";
import { outDir } from "../seed.mjs";
import { mkdirSync, rmSync, writeFileSync, appendFileSync, existsSync } from "node:fs";
import { join, dirname } from "node:path";
import { start } from "./server.mjs";

const placeholder = "/sandbox";

// generate runs the scenarios process.argv names (all when none) and exits.
// agent: { name (fixtures go to outDir(name)), here (its folder), bin,
// scratch (the sandboxes' folder), scenarios, configFile (its name in the
// config folder), env(dirs, data) (the agent's environment: dirs.home,
// dirs.cfg, dirs.proj, dirs.tmp; data is $XDG_DATA_HOME), db(data) (where
// the agent's database is), dbDir (the fixture's folder for it), whoOf
// (server.mjs's by default), timeout (ms a run may take, 180 s by
// default) }.
export async function generate(agent) {
  if (!existsSync(agent.bin)) {
    console.error(`gen: no ${agent.bin}: run npm ci in ${agent.here}`);
    process.exit(1);
  }
  const { scenarios } = agent;
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
      await runScenario(agent, sc);
      console.log(`${sc.name}: ok (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
    } catch (e) {
      failed++;
      console.error(`${sc.name}: FAILED: ${e.message}`);
    }
  }
  console.log(`gen: ${((Date.now() - t00) / 1000).toFixed(0)} s`);
  process.exit(failed ? 1 : 0);
}

// config is the agent's config file: the fake provider, its one model for
// the session and for titles, every permission granted.
function config(port) {
  return {
    $schema: "https://opencode.ai/config.json",
    provider: {
      fake: {
        npm: "@ai-sdk/openai-compatible",
        name: "Fake",
        options: { baseURL: `http://127.0.0.1:${port}/v1`, apiKey: "test" },
        models: { "fake-model": { name: "Fake Model", reasoning: true } },
      },
    },
    model: "fake/fake-model",
    small_model: "fake/fake-model",
    autoupdate: false,
    share: "disabled",
    permission: { "*": "allow" },
  };
}

async function runScenario(agent, sc) {
  const root = join(agent.scratch, sc.name);
  rmSync(root, { recursive: true, force: true });
  const dirs = { home: join(root, "home"), cfg: join(root, "cfg"), proj: join(root, "proj"), tmp: join(root, "tmp") };
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
    agent.whoOf,
  );
  writeFileSync(join(dirs.cfg, agent.configFile), JSON.stringify(config(server.port), null, 2) + "\n");
  const data = join(dirs.home, ".local", "share");
  const env = {
    PATH: "/usr/local/bin:/usr/bin:/bin",
    HOME: dirs.home,
    XDG_DATA_HOME: data,
    XDG_CONFIG_HOME: join(dirs.home, ".config"),
    XDG_CACHE_HOME: join(dirs.home, ".cache"),
    XDG_STATE_HOME: join(dirs.home, ".local", "state"),
    TMPDIR: dirs.tmp,
    TERM: "dumb",
    LANG: "C.UTF-8",
    TZ: "UTC",
    NO_COLOR: "1",
    SHELL: "/bin/bash",
    ...agent.env(dirs, data),
  };
  const steps = [];
  let session = null;
  try {
    for (const [i, st] of sc.steps.entries()) {
      replies.length = 0;
      replies.push(...st.replies);
      const first = requests.length;
      const resume = st.resume === "continue" ? ["--continue"] : st.resume ? ["--session", session] : [];
      const args = ["run", "--format", "json", ...resume, st.prompt];
      const { code, stdout, stderr } = await run(agent.bin, args, { cwd: dirs.proj, env }, agent.timeout ?? 180_000);
      writeFileSync(join(root, `step${i}.stdout`), stdout);
      writeFileSync(join(root, `step${i}.stderr`), stderr);
      if (replies.length) throw new Error(`step ${i}: ${replies.length} scripted replies left unused (exit ${code}); see ${root}/step${i}.stderr`);
      const made = requests.slice(first);
      if (made.some((r) => r.reply?.unscripted)) throw new Error(`step ${i}: an unscripted request; see ${log}`);
      if ((code !== 0) !== Boolean(st.fails)) throw new Error(`step ${i}: exit ${code}; see ${root}/step${i}.stderr`);
      const id = sessionOf(stdout);
      if (!st.resume) session = id;
      else if (id && id !== session) throw new Error(`step ${i}: resumed into ${id}, not ${session}`);
      steps.push({ args: args.map((a) => sanitize(a, root)), exit: code, session: id, requests: made.map((r) => r.n), who: made.map((r) => r.who) });
    }
  } finally {
    await server.close();
  }
  const out = join(outDir(agent.name, join(agent.here, "fixtures")), sc.name);
  rmSync(out, { recursive: true, force: true });
  mkdirSync(join(out, agent.dbDir), { recursive: true });
  const db = agent.db(data);
  const base = db.split("/").at(-1);
  const dump = sanitize(execFileSync("sqlite3", [db, ".dump"], { encoding: "utf8", maxBuffer: 1 << 28 }), root);
  writeFileSync(join(out, agent.dbDir, base.replace(/\.db$/, ".sql")), dump);
  execFileSync("sqlite3", [join(out, agent.dbDir, base)], { input: dump + "\nPRAGMA journal_mode=wal;\n", stdio: ["pipe", "ignore", "inherit"] });
  const at = sc.steps.map((st, i) => (st.resume ? steps[i].requests.find((n) => requests[n - 1].who === "main") : null)).filter((n) => n != null);
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

// sessionOf is the session id of a run's --format json events.
function sessionOf(stdout) {
  for (const line of stdout.split("\n")) {
    try {
      const e = JSON.parse(line);
      if (e.sessionID) return e.sessionID;
    } catch {}
  }
  return null;
}

// sanitize replaces the sandbox root by /sandbox, and its form without the
// leading slash (session.path) by sandbox.
function sanitize(s, root) {
  return s.split(root).join(placeholder).split(root.slice(1)).join(placeholder.slice(1));
}

function run(cmd, args, opts, timeout) {
  return new Promise((resolve, reject) => {
    const p = spawn(cmd, args, { ...opts, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "",
      stderr = "";
    p.stdout.on("data", (c) => (stdout += c));
    p.stderr.on("data", (c) => (stderr += c));
    const timer = setTimeout(() => p.kill("SIGKILL"), timeout);
    p.on("error", reject);
    p.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
