// A fake Gemini API (generativelanguage v1beta) on 127.0.0.1, for Gemini CLI
// to talk to through GOOGLE_GEMINI_BASE_URL. Node's stdlib only. Every
// request is logged whole (method, path, query, the headers that say what the
// agent asked for, body) in the order it arrived.
//
// What to answer is asked of the scenario's `respond(entry, ctx)`, which gets
// the request's purpose and returns a reply:
//   { parts: [part], usage?, finishReason? }   a model turn, where a part is
//       { text } | { text, thought: true } | { functionCall: { name, args } }
//   { status, message }                          an API error answer
// The purpose is "main" (the agent's own turns: :streamGenerateContent),
// "router" (the model router's complexity score), "compress" and
// "compress-verify" (the two requests of a chat compression), "summary" (the
// session's title) or "utility" (any other :generateContent). Sub-agents'
// turns are "main" too: a scenario tells them apart by their prompt.
import { createServer } from "node:http";
import * as seeded from "../seed.mjs";

const defaultUsage = (n) => ({ promptTokenCount: 1000 + n, candidatesTokenCount: 20 + n });

export function startServer({ respond }) {
  const requests = [];
  const replies = [];
  const server = createServer((req, res) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const raw = Buffer.concat(chunks).toString("utf8");
      let body = raw;
      try { body = raw ? JSON.parse(raw) : null; } catch { /* keep the text */ }
      const url = new URL(req.url, "http://127.0.0.1");
      const entry = { seq: requests.length, method: req.method, path: url.pathname, query: url.search || undefined, headers: pickHeaders(req.headers), body };
      requests.push(entry);
      try {
        route(entry, res);
      } catch (e) {
        entry.error = String((e && e.stack) || e);
        send(res, 500, { error: { code: 500, message: String((e && e.message) || e), status: "INTERNAL" } });
      }
    });
  });

  function route(entry, res) {
    const m = /^\/v1beta\/models\/([^/:]+):(streamGenerateContent|generateContent|countTokens)$/.exec(entry.path);
    if (entry.method !== "POST" || !m) {
      entry.unhandled = true;
      return send(res, 404, { error: { code: 404, message: "fake server: " + entry.path, status: "NOT_FOUND" } });
    }
    const [, model, verb] = m;
    entry.model = model;
    if (verb === "countTokens") {
      const n = JSON.stringify(entry.body ?? "").length;
      return send(res, 200, { totalTokens: Math.ceil(n / 4) });
    }
    entry.purpose = verb === "streamGenerateContent" ? "main" : purposeOf(entry.body);
    const r = respond(entry, { requests, replies });
    if (r.status) {
      replies.push({ seq: entry.seq, model, purpose: entry.purpose, status: r.status, message: r.message });
      entry.reply = `error ${r.status}`;
      return send(res, r.status, { error: { code: r.status, message: r.message || "fake server error", status: r.statusName || "INVALID_ARGUMENT" } });
    }
    const parts = r.parts.map((p) => {
      if (p.text !== undefined && !r.verbatim) return { ...p, text: seeded.text(p.text) };
      return p;
    });
    const usage = Object.fromEntries(Object.entries({ ...defaultUsage(entry.seq), ...(r.usage || {}) }).map(([k, v]) => [k, seeded.count(v)]));
    usage.totalTokenCount = (usage.promptTokenCount || 0) + (usage.candidatesTokenCount || 0) + (usage.thoughtsTokenCount || 0) + (usage.toolUsePromptTokenCount || 0);
    const finishReason = r.finishReason || "STOP";
    const modelVersion = r.modelVersion || model;
    const responseId = `resp_${String(entry.seq).padStart(4, "0")}`;
    replies.push({ seq: entry.seq, model, purpose: entry.purpose, responseId, usage });
    entry.reply = responseId;
    if (verb === "generateContent") {
      return send(res, 200, { candidates: [{ content: { role: "model", parts }, finishReason, index: 0 }], usageMetadata: usage, modelVersion, responseId });
    }
    // A stream: one chunk per part, the usage and the finish reason on the
    // last one, as the API sends them.
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    const chunk = (obj) => res.write(`data: ${JSON.stringify(obj)}\r\n\r\n`);
    parts.forEach((p, i) => {
      const last = i === parts.length - 1;
      chunk({ candidates: [{ content: { role: "model", parts: [p] }, index: 0, ...(last ? { finishReason } : {}) }], ...(last ? { usageMetadata: usage } : {}), modelVersion, responseId });
    });
    res.end();
  }

  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      resolve({ port, requests, replies, close: () => new Promise((r) => { server.closeAllConnections?.(); server.close(() => r()); }) });
    });
  });
}

// purposeOf tells the agent's side requests apart by their system
// instruction.
function purposeOf(body) {
  const sys = JSON.stringify(body?.systemInstruction ?? "");
  const last = JSON.stringify(body?.contents?.at(-1) ?? "");
  if (sys.includes("Task Routing AI")) return "router";
  if (last.includes("Critically evaluate the <state_snapshot>")) return "compress-verify";
  if (last.includes("<state_snapshot>")) return "compress";
  if (JSON.stringify(body ?? "").includes("summar")) return "summary";
  return "utility";
}

function pickHeaders(h) {
  // The headers that say what the agent asked for; not the key.
  const out = {};
  for (const k of ["user-agent", "x-goog-api-client", "content-type", "accept"]) if (h[k] !== undefined) out[k] = h[k];
  return out;
}

function send(res, status, obj) {
  const s = JSON.stringify(obj);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(s) });
  res.end(s);
}
