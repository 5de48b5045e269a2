// Prints a fixture in short: each session file's entries (type, uuid,
// parent, what they hold) and the messages of resume-request.json.
// Run: ./node22 show.mjs fixtures/<scenario>
import { readFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import { walk, readJSONL } from "./lib.mjs";

const dir = process.argv[2];
const short = (u) => (u ? u.slice(0, 8) : "-");
const blocks = (c) => (typeof c === "string" ? JSON.stringify(c.slice(0, 60)) : c.map((b) => b.type + (b.id || b.tool_use_id ? ":" + (b.id || b.tool_use_id).slice(-3) : "") + (b.is_error ? "!" : "") + (b.type === "text" ? " " + JSON.stringify(b.text.slice(0, 50)) : b.type === "tool_result" ? " " + JSON.stringify(String(typeof b.content === "string" ? b.content : JSON.stringify(b.content)).slice(0, 50)) : b.type === "thinking" ? " " + JSON.stringify(b.thinking.slice(0, 40)) : b.type === "tool_use" ? " " + b.name : "")).join(" | "));
for (const rel of walk(join(dir, "home"))) {
  if (!rel.endsWith(".jsonl")) { console.log(`== ${rel}`); continue; }
  console.log(`== ${rel}`);
  for (const e of readJSONL(join(dir, "home", rel))) {
    const what = e.message ? `${e.message.id ? e.message.id.slice(-3) + " " : ""}${blocks(e.message.content)}` : e.attachment ? `[${e.attachment.type}]` : e.subtype ? `(${e.subtype})` : "";
    const flags = [e.isSidechain && "side", e.agentId && "agent=" + e.agentId.slice(0, 8), e.isCompactSummary && "compactSummary", e.logicalParentUuid && "logicalParent=" + short(e.logicalParentUuid), e.isMeta && "meta", e.sessionId && "s=" + short(e.sessionId)].filter(Boolean).join(" ");
    console.log(`${e.type.padEnd(18)} ${short(e.uuid)} <- ${short(e.parentUuid)}  ${what}  ${flags}`);
  }
}
const rr = join(dir, "resume-request.json");
if (existsSync(rr)) {
  console.log("== resume-request.json");
  for (const m of JSON.parse(readFileSync(rr, "utf8")).messages) console.log(`${m.role.padEnd(10)} ${blocks(m.content)}`);
}
