// Loads a file with Dhara's own import and prints head, path and the
// messages agent-loop.ts's buildMessages makes of it.
import { readFileSync } from "node:fs";
const { createSession } = await import("./session.js");
const s = createSession({ cwd: "" });
s.import(readFileSync(process.argv[2], "utf-8"));
const path = s.getPath();
const msgs = [];
for (const id of path) { const e = s.getEntry(id); if (!e || e.type !== "entry") continue;
  if (["system","user","assistant","tool_result"].includes(e.role)) msgs.push(id); }
console.log(JSON.stringify({ head: s.getHead()?.id ?? null, path, context: msgs, meta: s.meta }));
