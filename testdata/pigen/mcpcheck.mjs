// A real agent asks skein: pi 1.6.0's own agent loop (createAgentSession,
// its scripted faux model) with skein added as an MCP server the way a user
// adds it (`pi mcp add skein --exposure direct -- skein mcp STORE`, pi's own
// command, which writes ~/.pi/agent/mcp.json), and pi's own MCP client (its
// built-in extension, createMcpExtension) connecting to `skein mcp` over
// stdio. The model calls search_sessions, then read_session around the hit
// it was given; the results must stand in pi's session log.
//
//   testdata/pigen/node22 testdata/pigen/mcpcheck.mjs --skein BIN
//
// --cwd: the harness's agent works in /home/dev/webapp, which need not
// exist here, and a stdio server is started in the session's folder.
// Exposure `direct` declares skein's tools to the model as
// mcp__skein__<tool>, so that the faux model can call them by name (pi's
// default, codemode, reaches them from a script instead).
import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Agent, VirtualMachine, call, text, reply, fauxText } from "./lib.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const skein = args[args.indexOf("--skein") + 1];
if (!args.includes("--skein") || !skein) {
  console.error("usage: mcpcheck.mjs --skein BIN");
  process.exit(2);
}
const { createMcpExtension } = await import("@earendil-works/pi-coding-agent");

const work = mkdtempSync(join(tmpdir(), "skein-mcpcheck-"));
const problems = [];
try {
  // The sessions skein serves: the pi fixtures, copied (skein's index and
  // caches go under the temporary home).
  const store = join(work, "store");
  cpSync(join(here, "..", "pi", "store"), store, { recursive: true });
  const home = join(work, "home");
  const agentDir = join(home, ".pi", "agent");
  const env = { ...process.env, HOME: home, PI_CODING_AGENT_DIR: agentDir, XDG_CACHE_HOME: "" };
  // pi's own command adds the server.
  const cli = join(here, "node_modules", "@earendil-works", "pi-coding-agent", "dist", "bundle", "cli.js");
  execFileSync(process.execPath, [cli, "mcp", "add", "skein", "--exposure", "direct", "--cwd", work, "--", skein, "mcp", store], { env, stdio: ["ignore", "pipe", "inherit"] });
  const config = JSON.parse(readFileSync(join(agentDir, "mcp.json"), "utf8"));
  if (config.mcpServers?.skein?.command !== skein) problems.push(`pi mcp add wrote ${JSON.stringify(config)}`);

  const cwd = "/home/dev/webapp";
  const vm = new VirtualMachine(cwd);
  const a = await Agent.open({ home, cwd, vm, extensions: [createMcpExtension()] });
  // As pi's modes start a session: its extensions get session_start, on
  // which the MCP extension reads mcp.json and connects (the first prompt
  // waits for a server whose tools are direct).
  const notes = [];
  const ui = new Proxy({ notify: (m, kind) => notes.push(`${kind}: ${m}`) }, { get: (t, k) => t[k] ?? (() => undefined) });
  await a.session.bindExtensions({ uiContext: ui, onError: (e) => problems.push(`extension: ${e.error ?? e}`) });
  // The second call names the session and entry the first answered: the
  // model reads them from the search's result in its context.
  const lastResult = (context) => {
    const m = context.messages.filter((m) => m.role === "toolResult").at(-1);
    return (m?.content ?? []).map((c) => c.text ?? "").join("");
  };
  let picked;
  await a.say("What did we decide about Redis?", [
    call("mcp__skein__search_sessions", { query: "redis", limit: 3 }),
    (context) => {
      const found = lastResult(context);
      const m = /session (\S+) entry (\S+) \(/.exec(found);
      if (!m) {
        problems.push(`search_sessions answered no hit: ${found.slice(0, 400)}`);
        return reply([fauxText("Nothing found.")])();
      }
      picked = { session: m[1], entry: m[2] };
      return call("mcp__skein__read_session", { session: m[1], entry: m[2], before: 2, after: 1, max_chars: 4000 })();
    },
    (context) => {
      const read = lastResult(context);
      if (!read.includes(`entry ${picked?.entry}`)) problems.push(`read_session did not answer the entry: ${read.slice(0, 400)}`);
      return text("We chose Redis for the cache: start it with `docker run redis`.")();
    },
  ], { lenient: true });
  const tools = a.session.getActiveToolNames();
  for (const t of ["mcp__skein__search_sessions", "mcp__skein__read_session", "mcp__skein__list_sessions", "mcp__skein__session_stats", "mcp__skein__label_entry"]) {
    if (!tools.includes(t)) problems.push(`pi does not declare ${t}: ${tools.join(", ")}`);
  }
  if (notes.length) problems.push(...notes.map((n) => `pi said ${n}`));
  // pi's session log holds both calls and their results.
  const lines = readFileSync(a.file, "utf8").trim().split("\n").map((l) => JSON.parse(l));
  const results = lines.filter((e) => e.type === "message" && e.message.role === "toolResult");
  const byTool = Object.fromEntries(results.map((e) => [e.message.toolName, e.message]));
  const search = byTool["mcp__skein__search_sessions"];
  const read = byTool["mcp__skein__read_session"];
  const textOf = (m) => (m?.content ?? []).map((c) => c.text ?? "").join("");
  if (!search || search.isError || !textOf(search).includes("Redis")) problems.push(`the search's result in pi's log: ${JSON.stringify(search)?.slice(0, 400)}`);
  if (!read || read.isError || !textOf(read).includes(`entry ${picked?.entry}`)) problems.push(`the read's result in pi's log: ${JSON.stringify(read)?.slice(0, 400)}`);
  await a.session.dispose?.();
  if (problems.length === 0) {
    console.log(`mcpcheck: pi 1.6.0 called search_sessions and read_session (session ${picked.session}, entry ${picked.entry}); both results are in ${a.file.replace(work, "$TMP")}`);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
if (problems.length) {
  for (const p of problems) console.error("mcpcheck: " + p);
  process.exit(1);
}
process.exit(0);
