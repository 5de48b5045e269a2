// A fake Anthropic Messages API on 127.0.0.1, for Factory Droid to talk to
// (a custom model with provider "anthropic"; also its Factory API base URL,
// telemetry and app URLs, which it is pointed at so that nothing leaves the
// machine: those requests are logged and answered 404 or {}).
// Taken from ../claude/server.mjs.
// Node's stdlib only. Every request is logged whole (method, path, headers
// the agent chose, body) in the order it arrived; what to answer to a
// POST /v1/messages is asked of the scenario's `respond(body, ctx)`, which
// returns a reply: { content: [blocks], stop_reason?, usage? } (or
// { status, error } for an API error answer) where a block
// is { type: "text", text } | { type: "thinking", thinking, signature? } |
// { type: "tool_use", name, input, id? }. Ids are made from a counter, so a
// rerun of the same scenario hands out the same message and tool ids.
import { createServer } from "node:http";
import * as seeded from "../seed.mjs";

const defaultUsage = (n) => ({
  input_tokens: 100 + n,
  output_tokens: 20 + n,
  cache_creation_input_tokens: 0,
  cache_read_input_tokens: 0,
});

export function startServer({ tag, respond }) {
  const requests = [];
  const replies = [];
  let messages = 0;
  let tools = 0;
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
        entry.error = String(e && e.stack || e);
        send(res, 500, { type: "error", error: { type: "api_error", message: String(e && e.message || e) } });
      }
    });
  });

  function route(entry, res) {
    const { method, path, body } = entry;
    if (method === "POST" && path === "/v1/messages/count_tokens") {
      const n = JSON.stringify(body ?? "").length;
      return send(res, 200, { input_tokens: Math.ceil(n / 4) });
    }
    if (method === "POST" && path === "/v1/messages") {
      const n = messages++;
      const ctx = { n, tag, requests, replies };
      const r = respond(body, ctx);
      entry.purpose = r.purpose || "main";
      if (r.status) {
        // A scripted API error: the status and the API's error body.
        const error = r.error || { type: "api_error", message: "fake server error" };
        replies.push({ seq: entry.seq, status: r.status, purpose: entry.purpose, error });
        entry.reply = `error ${r.status}`;
        return send(res, r.status, { type: "error", error });
      }
      const id = `msg_${tag}_${String(n).padStart(3, "0")}`;
      const content = r.content.map((b) => {
        if (b.type === "tool_use") return { type: "tool_use", id: b.id || `toolu_${tag}_${String(tools++).padStart(3, "0")}`, name: b.name, input: b.input };
        if (b.type === "thinking") return { type: "thinking", thinking: seeded.text(b.thinking), signature: b.signature || `sig_${tag}_${n}` };
        if (b.type === "text" && entry.purpose !== "compact") return { ...b, text: seeded.text(b.text) };
        return b;
      });
      const stop_reason = r.stop_reason || (content.some((b) => b.type === "tool_use") ? "tool_use" : "end_turn");
      const usage = Object.fromEntries(Object.entries({ ...defaultUsage(n), ...(r.usage || {}) }).map(([k, v]) => [k, seeded.count(v)]));
      const model = body && body.model || "claude-sonnet-4-6";
      replies.push({ seq: entry.seq, id, model, purpose: entry.purpose, stop_reason, usage });
      entry.reply = id;
      if (body && body.stream) return stream(res, { id, model, content, stop_reason, usage });
      return send(res, 200, { id, type: "message", role: "assistant", model, content, stop_reason, stop_sequence: null, usage });
    }
    // Anything else: logged, answered with an empty object or a 404 the agent
    // can live with.
    entry.unhandled = true;
    if (method === "GET" || method === "HEAD") return send(res, 404, { type: "error", error: { type: "not_found_error", message: "fake server: " + path } });
    return send(res, 200, {});
  }

  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      resolve({ port, requests, replies, close: () => new Promise((r) => { server.closeAllConnections?.(); server.close(() => r()); }) });
    });
  });
}

function pickHeaders(h) {
  // The headers that say what the agent asked for; not the key.
  const out = {};
  for (const k of ["anthropic-version", "anthropic-beta", "user-agent", "x-app", "content-type", "accept"]) if (h[k] !== undefined) out[k] = h[k];
  return out;
}

function send(res, status, obj) {
  const s = JSON.stringify(obj);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(s), "request-id": "req_fake" });
  res.end(s);
}

function stream(res, { id, model, content, stop_reason, usage }) {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", "request-id": "req_fake" });
  const ev = (type, data) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
  ev("message_start", { message: { id, type: "message", role: "assistant", model, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: usage.input_tokens, cache_creation_input_tokens: usage.cache_creation_input_tokens, cache_read_input_tokens: usage.cache_read_input_tokens, output_tokens: 1 } } });
  content.forEach((b, index) => {
    if (b.type === "text") {
      ev("content_block_start", { index, content_block: { type: "text", text: "" } });
      for (const part of halves(b.text)) ev("content_block_delta", { index, delta: { type: "text_delta", text: part } });
    } else if (b.type === "thinking") {
      ev("content_block_start", { index, content_block: { type: "thinking", thinking: "", signature: "" } });
      for (const part of halves(b.thinking)) ev("content_block_delta", { index, delta: { type: "thinking_delta", thinking: part } });
      ev("content_block_delta", { index, delta: { type: "signature_delta", signature: b.signature } });
    } else if (b.type === "tool_use") {
      ev("content_block_start", { index, content_block: { type: "tool_use", id: b.id, name: b.name, input: {} } });
      for (const part of halves(JSON.stringify(b.input))) ev("content_block_delta", { index, delta: { type: "input_json_delta", partial_json: part } });
    } else {
      throw new Error("fake server: unknown block " + b.type);
    }
    ev("content_block_stop", { index });
  });
  ev("message_delta", { delta: { stop_reason, stop_sequence: null }, usage: { output_tokens: usage.output_tokens, input_tokens: usage.input_tokens, cache_creation_input_tokens: usage.cache_creation_input_tokens, cache_read_input_tokens: usage.cache_read_input_tokens } });
  ev("message_stop", {});
  res.end();
}

function halves(s) {
  if (s.length < 2) return [s];
  const m = Math.floor(s.length / 2);
  return [s.slice(0, m), s.slice(m)];
}
