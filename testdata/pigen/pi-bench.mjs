// Times the reference implementation inside Node, for compare.sh:
//   node pi-bench.mjs list STORE     SessionManager.listAll over the store
//                                    (what pi's /resume lists all sessions with)
//   node pi-bench.mjs context FILE   open, buildSessionContext, JSON.stringify
import { mkdtempSync, readFileSync, symlinkSync, writeSync } from "fs";
import { tmpdir } from "os";
import { join, resolve } from "path";
import { SessionManager, buildSessionContext, parseSessionEntries, migrateSessionEntries } from "@mariozechner/pi-coding-agent";

const [cmd, target] = process.argv.slice(2);
let what;
const t0 = process.hrtime.bigint();
if (cmd === "list") {
  // listAll reads $PI_CODING_AGENT_DIR/sessions: point it at the store.
  const agent = mkdtempSync(join(tmpdir(), "pi-agent-"));
  symlinkSync(resolve(target), join(agent, "sessions"));
  process.env.PI_CODING_AGENT_DIR = agent;
  const all = await SessionManager.listAll();
  what = `${all.length} sessions`;
} else {
  // What `SessionManager.open` does to read, without its rewrite of old files.
  const entries = parseSessionEntries(readFileSync(target, "utf8"));
  migrateSessionEntries(entries);
  const ctx = buildSessionContext(entries.filter((e) => e.type !== "session"));
  const out = JSON.stringify(ctx);
  what = `${ctx.messages.length} messages, ${out.length} chars of JSON`;
}
const ms = Number(process.hrtime.bigint() - t0) / 1e6;
writeSync(2, `pi ${cmd}: ${what} in ${ms.toFixed(0)} ms (inside Node)\n`);
