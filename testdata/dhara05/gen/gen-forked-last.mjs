// Writes the fourth session of sessions/ (README.md) with Dhara v0.5.4's own
// SessionManager, transpiled verbatim.
const RealDate = Date;
let clock = RealDate.parse("2026-05-18T14:02:00.500Z");
class FakeDate extends RealDate {
  constructor(...a) { super(...(a.length ? a : [clock])); }
  static now() { return clock; }
}
globalThis.Date = FakeDate;
const tick = (ms) => { clock += ms; };
crypto.randomUUID = () => "5a1e7c3b-2d9f-4b8a-a6e0-c4d3f2b1e097";
const { SessionManager } = await import("./session-manager.js");
const sm = new SessionManager({ storageDir: process.argv[2] });
// 4. forked last: a regenerated reply appended with an explicit parentId
// (Session.append's second argument: a branch without a marker), then a
// fork made and saved before anything was appended after it.
const s = sm.create({ cwd: "/srv/app", model: { id: "gpt-4o", provider: "openai", thinkingLevel: "low" }, tags: ["demo"] });
tick(900);
const u1 = s.append({ role: "system", content: [{ type: "text", text: "You are terse." }] });
tick(100);
const u2 = s.append({ role: "user", content: [{ type: "text", text: "Name a prime." }, { type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" }, { type: "file", path: "/srv/app/notes.md", language: "markdown" }] });
tick(1200);
const a1 = s.append({ role: "assistant", content: [{ type: "text", text: "7" }] });
tick(9000);
s.append({ role: "assistant", content: [{ type: "text", text: "13" }] }, u2.id);
tick(4000);
s.fork(a1.id, "retry");
