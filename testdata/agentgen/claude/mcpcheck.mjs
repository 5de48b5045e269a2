// Claude Code asks skein: Claude Code 2.1.332 itself (print mode, offline
// against server.mjs, the fake Messages API, as gen.mjs runs it) with
// skein added as an MCP server (`--mcp-config`, the server as
// `claude mcp add skein -- skein mcp STORE` would add it) calls
// mcp__skein__search_sessions, then mcp__skein__read_session around the
// hit; both results must stand in Claude Code's session log.
//
//   cd testdata/agentgen/claude && npm ci && ./node22 mcpcheck.mjs --skein BIN
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Sandbox, claudeBin, walk, text, tool } from "./lib.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const skein = args[args.indexOf("--skein") + 1];
if (!args.includes("--skein") || !skein) {
  console.error("usage: mcpcheck.mjs --skein BIN");
  process.exit(2);
}
if (!existsSync(claudeBin)) {
  console.error(`mcpcheck: no Claude Code at ${claudeBin}: run npm ci here`);
  process.exit(1);
}

const problems = [];
const work = mkdtempSync(join(tmpdir(), "skein-mcpcheck-claude-"));
// The model's script: search, then read around the first hit the search
// answered (read from the tool result in the request), then an answer.
const toolResult = (body) => {
  const last = (body.messages || []).at(-1);
  const block = (Array.isArray(last?.content) ? last.content : []).find((b) => b.type === "tool_result");
  if (!block) return "";
  return typeof block.content === "string" ? block.content : (block.content || []).map((c) => c.text || "").join("");
};
// names reports whether read_session's answer (its text or its JSON)
// holds the entry.
const names = (read, entry) => read.includes(`entry ${entry}`) || read.includes(`"entry_id":"${entry}"`);
let step = 0;
let picked;
const respond = (body) => {
  step++;
  if (step === 1) return { content: [text("Let me search your sessions."), tool("mcp__skein__search_sessions", { query: "redis", limit: 3 })] };
  if (step === 2) {
    // Claude Code hands the model the structured output (JSON) where a
    // tool gives one, pi the text: either names the hit.
    const found = toolResult(body);
    let m = /session (\S+) entry (\S+) \(/.exec(found);
    try {
      const hit = JSON.parse(found).hits?.[0];
      if (hit) m = [null, hit.session_id, hit.entry_id];
    } catch { /* the text */ }
    if (!m) {
      problems.push(`search_sessions answered no hit: ${found.slice(0, 400)}`);
      return { content: [text("Nothing found.")] };
    }
    picked = { session: m[1], entry: m[2] };
    return { content: [tool("mcp__skein__read_session", { session: m[1], entry: m[2], before: 2, after: 1, max_chars: 4000 })] };
  }
  if (step === 3) {
    const read = toolResult(body);
    if (!names(read, picked?.entry)) problems.push(`read_session did not answer the entry: ${read.slice(0, 400)}`);
  }
  return { content: [text("We chose Redis for the cache: start it with `docker run redis`.")] };
};

const s = new Sandbox(work, "mcp", respond);
try {
  await s.open();
  const store = join(s.root, "store");
  cpSync(join(here, "..", "..", "pi", "store"), store, { recursive: true });
  const config = join(s.root, "mcp.json");
  writeFileSync(config, JSON.stringify({ mcpServers: { skein: { type: "stdio", command: skein, args: ["mcp", store], env: {} } } }));
  const run = await s.run("ask", "What did we decide about Redis?", ["--mcp-config", config, "--strict-mcp-config"], { allowError: true });
  if (run.code !== 0) problems.push(`claude exited ${run.code}: ${run.stderr || run.stdout || ""}`.slice(0, 600));
  // Claude Code's own log of the session holds both calls' results.
  const projects = join(s.home, ".claude", "projects");
  const logs = walk(projects).filter((p) => p.endsWith(".jsonl") && !p.includes("subagents")).map((p) => join(projects, p));
  const entries = logs.flatMap((p) => readFileSync(p, "utf8").trim().split("\n").map((l) => JSON.parse(l)));
  const uses = new Map();
  const results = new Map();
  for (const e of entries) {
    for (const b of Array.isArray(e.message?.content) ? e.message.content : []) {
      if (b.type === "tool_use") uses.set(b.id, b.name);
      if (b.type === "tool_result") results.set(b.tool_use_id, typeof b.content === "string" ? b.content : (b.content || []).map((c) => c.text || "").join(""));
    }
  }
  const resultOf = (name) => [...uses].filter(([, n]) => n === name).map(([id]) => results.get(id)).find((r) => r !== undefined);
  const search = resultOf("mcp__skein__search_sessions");
  const read = resultOf("mcp__skein__read_session");
  if (!search?.includes("Redis")) problems.push(`the search's result in Claude Code's log: ${String(search).slice(0, 400)}`);
  if (!names(read ?? "", picked?.entry)) problems.push(`the read's result in Claude Code's log: ${String(read).slice(0, 400)}`);
  if (problems.length === 0) console.log(`mcpcheck: Claude Code 2.1.332 called search_sessions and read_session (session ${picked.session}, entry ${picked.entry}); both results are in its log`);
} finally {
  await s.server?.close();
  rmSync(work, { recursive: true, force: true });
}
if (problems.length) {
  for (const p of problems) console.error("mcpcheck: " + p);
  process.exit(1);
}
process.exit(0);
