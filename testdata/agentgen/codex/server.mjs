// A fake OpenAI Responses API for Codex: POST /v1/responses answered from a
// script, as server-sent events (response.created, response.output_item.added,
// the text and reasoning deltas, response.output_item.done, then
// response.completed with the usage the script chose), or with an HTTP error
// or a response.failed event. Every request is logged, body and all.
// Node's stdlib only.
import http from "node:http";
import * as seeded from "../seed.mjs";

// Reply specs the scenarios use. Items are Responses API output items; the
// server adds ids where they are missing.
export const say = (text) => ({ type: "message", role: "assistant", content: [{ type: "output_text", text, annotations: [] }] });
export const call = (call_id, cmd, extra = {}) => ({ type: "function_call", name: "exec_command", call_id, arguments: JSON.stringify({ cmd, ...extra }) });
export const think = (summary, text) => ({
  type: "reasoning",
  summary: summary ? [{ type: "summary_text", text: summary }] : [],
  ...(text ? { content: [{ type: "reasoning_text", text }] } : {}),
  encrypted_content: "gAAAAfake-encrypted-" + Buffer.from(summary || text || "").toString("base64").slice(0, 24),
});
export const usage = (input, cached, output, reasoning = 0) => ({
  input_tokens: input,
  input_tokens_details: { cached_tokens: cached },
  output_tokens: output,
  output_tokens_details: { reasoning_tokens: reasoning },
  total_tokens: input + output,
});

// start serves replies in order: each request to /v1/responses takes the
// next one meant for its agent (a reply's agent: "root", the default, or
// "sub" for any sub-agent), and items may be a function of the request body
// (to answer with an id Codex chose, such as a spawned agent's). A reply is { items, usage } (a completed response), { status,
// error } (an HTTP error with an OpenAI error body), or { failed, items,
// usage } (items, then response.failed with that error). onRequest gets
// { n, method, url, headers, body } for every request, whatever its path.
export function start(replies, onRequest) {
  let n = 0;
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      n++;
      const raw = Buffer.concat(chunks).toString("utf8");
      let body = raw;
      try { body = JSON.parse(raw); } catch {}
      const headers = { ...req.headers };
      delete headers.authorization;
      const r = { n, method: req.method, url: req.url, headers, body };
      if (req.method !== "POST" || !req.url.endsWith("/responses")) {
        onRequest({ ...r, reply: "404" });
        res.writeHead(404, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: { message: "not found", type: "invalid_request_error", code: null, param: null } }));
        return;
      }
      const agent = agentOf(headers);
      const at = replies.findIndex((x) => (x.agent ?? "root") === (agent === "/root" ? "root" : "sub"));
      let reply = at >= 0 ? replies.splice(at, 1)[0] : { items: [say("(the script has no reply for this request)")], usage: usage(1, 0, 1), unscripted: true };
      if (typeof reply.items === "function") reply = { ...reply, items: reply.items(body) };
      if (seeded.seed != null && !reply.unscripted) reply = vary(reply);
      onRequest({ ...r, agent: agent === "/root" ? "root" : "sub", reply });
      answer(res, reply, n);
    });
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve({ port: server.address().port, close: () => new Promise((r) => server.close(r)) })));
}

// agentOf tells the session's own agent from a sub-agent: Codex sends the
// root session's id as session-id and the requesting agent's thread as
// thread-id (agent_name in x-codex-turn-metadata is "/root" for both with
// multi_agent_v1).
function agentOf(headers) {
  return !headers["thread-id"] || headers["thread-id"] === headers["session-id"] ? "/root" : "sub";
}

function answer(res, reply, n) {
  if (reply.status) {
    res.writeHead(reply.status, { "content-type": "application/json" });
    res.end(JSON.stringify({ error: reply.error }));
    return;
  }
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  let seq = 0;
  const send = (type, o) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: seq++, ...o })}\n\n`);
  const id = `resp_${String(n).padStart(4, "0")}`;
  const base = { id, object: "response", status: "in_progress", model: "gpt-fake", output: [] };
  send("response.created", { response: base });
  send("response.in_progress", { response: base });
  const output = [];
  (reply.items ?? []).forEach((it, i) => {
    const prefix = { message: "msg", function_call: "fc", reasoning: "rs" }[it.type] ?? "item";
    const item = { id: `${prefix}_${String(n).padStart(4, "0")}_${i}`, ...it };
    if (item.type === "function_call") item.status = "completed";
    output.push(item);
    const empty = item.type === "message" ? { ...item, content: [], status: "in_progress" } : item.type === "reasoning" ? { ...item, summary: [], content: undefined } : { ...item, arguments: "" };
    send("response.output_item.added", { output_index: i, item: empty });
    if (item.type === "message") {
      item.content.forEach((c, ci) => {
        send("response.content_part.added", { output_index: i, item_id: item.id, content_index: ci, part: { ...c, text: "" } });
        for (const delta of pieces(c.text)) send("response.output_text.delta", { output_index: i, item_id: item.id, content_index: ci, delta });
        send("response.output_text.done", { output_index: i, item_id: item.id, content_index: ci, text: c.text });
        send("response.content_part.done", { output_index: i, item_id: item.id, content_index: ci, part: c });
      });
    } else if (item.type === "reasoning") {
      item.summary.forEach((s, si) => {
        send("response.reasoning_summary_part.added", { output_index: i, item_id: item.id, summary_index: si, part: { type: "summary_text", text: "" } });
        for (const delta of pieces(s.text)) send("response.reasoning_summary_text.delta", { output_index: i, item_id: item.id, summary_index: si, delta });
        send("response.reasoning_summary_text.done", { output_index: i, item_id: item.id, summary_index: si, text: s.text });
        send("response.reasoning_summary_part.done", { output_index: i, item_id: item.id, summary_index: si, part: s });
      });
      (item.content ?? []).forEach((c, ci) => {
        for (const delta of pieces(c.text)) send("response.reasoning_text.delta", { output_index: i, item_id: item.id, content_index: ci, delta });
        send("response.reasoning_text.done", { output_index: i, item_id: item.id, content_index: ci, text: c.text });
      });
    } else if (item.type === "function_call") {
      send("response.function_call_arguments.delta", { output_index: i, item_id: item.id, delta: item.arguments });
      send("response.function_call_arguments.done", { output_index: i, item_id: item.id, arguments: item.arguments });
    }
    send("response.output_item.done", { output_index: i, item });
  });
  if (reply.failed) {
    send("response.failed", { response: { ...base, status: "failed", output, error: reply.failed, usage: reply.usage ?? null } });
  } else {
    send("response.completed", { response: { ...base, status: "completed", output, usage: reply.usage } });
  }
  res.end();
}

// pieces splits a text into a few deltas, as a model streams it.
function pieces(text) {
  const words = text.split(/(?<= )/);
  const out = [];
  for (let i = 0; i < words.length; i += 4) out.push(words.slice(i, i + 4).join(""));
  return out.length ? out : [""];
}

// vary is a reply as a fresh seed changes it (../seed.mjs): a word added to
// each text the model says, its usage figures moved (the cached tokens kept
// below the input, the total their sum).
function vary(reply) {
  const items = reply.items?.map((it) => (it.type === "message" ? { ...it, content: it.content.map((c) => (c.type === "output_text" ? { ...c, text: seeded.text(c.text) } : c)) } : it));
  const u = reply.usage;
  if (!u) return { ...reply, items };
  const input = seeded.count(u.input_tokens);
  const cached = Math.min(seeded.count(u.input_tokens_details?.cached_tokens ?? 0), input);
  return { ...reply, items, usage: usage(input, cached, seeded.count(u.output_tokens), seeded.count(u.output_tokens_details?.reasoning_tokens ?? 0)) };
}
