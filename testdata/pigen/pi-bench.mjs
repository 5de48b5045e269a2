// Times the reference implementation inside Node, for compare.sh:
//   node pi-bench.mjs list STORE     SessionManager.list over every folder
//   node pi-bench.mjs context FILE   open, buildSessionContext, JSON.stringify
import { readdirSync, readFileSync, statSync, writeSync } from "fs";
import { join } from "path";
import { SessionManager, buildSessionContext, parseSessionEntries, migrateSessionEntries } from "@mariozechner/pi-coding-agent";

const [cmd, target] = process.argv.slice(2);
const t0 = process.hrtime.bigint();
let what;
if (cmd === "list") {
  const dirs = readdirSync(target).map((d) => join(target, d)).filter((d) => statSync(d).isDirectory());
  const all = [];
  for (const dir of dirs) all.push(...(await SessionManager.list("/", dir)));
  all.sort((a, b) => b.modified.getTime() - a.modified.getTime());
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
