// Times the reference implementation (pi 1.6.0) inside Node 22, for compare.sh:
//   ./node22 pi-bench.mjs list STORE     SessionManager.listAll over the store
//                                        (what pi's /resume lists all sessions with)
//   ./node22 pi-bench.mjs context FILE   SessionManager.open, buildSessionContext,
//                                        JSON.stringify: what pi does to resume
//                                        a session (FILE is pi-written, so open
//                                        has nothing to repair or migrate and
//                                        does not write)
import { mkdtempSync, rmSync, symlinkSync, writeSync } from "fs";
import { tmpdir } from "os";
import { join, resolve } from "path";
import { SessionManager } from "@earendil-works/pi-coding-agent";

const [cmd, target] = process.argv.slice(2);
let what;
let agent;
if (cmd === "list") {
  // listAll reads the folders in $PI_CODING_AGENT_DIR/sessions: point it at the store.
  agent = mkdtempSync(join(tmpdir(), "pi-agent-"));
  symlinkSync(resolve(target), join(agent, "sessions"));
  process.env.PI_CODING_AGENT_DIR = agent;
}
const t0 = process.hrtime.bigint();
if (cmd === "list") {
  const all = await SessionManager.listAll();
  what = `${all.length} sessions`;
} else {
  const sm = SessionManager.open(target);
  const ctx = sm.buildSessionContext();
  const out = JSON.stringify(ctx);
  what = `${ctx.messages.length} messages, ${out.length} chars of JSON`;
}
const ms = Number(process.hrtime.bigint() - t0) / 1e6;
if (agent) rmSync(agent, { recursive: true, force: true }); // the link only, not the store
writeSync(2, `pi ${cmd}: ${what} in ${ms.toFixed(0)} ms (inside Node ${process.versions.node})\n`);
