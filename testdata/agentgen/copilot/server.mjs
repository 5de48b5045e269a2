// A fake OpenAI Chat Completions server for Copilot CLI (BYOK, provider type
// "openai", wire API "completions"): POST /v1/chat/completions answered from
// a scenario's scripted replies, streamed as chat.completion.chunk events.
// Every request is handed to onRequest (method, url, headers less
// authorization, body, the reply it got). Node's standard library only.
//
// A reply is one of:
//   {text, reasoning, calls: [{name, args}], usage, agent}
//       a completion: reasoning streamed as delta.reasoning_content (the
//       field DeepSeek and vLLM use), then the text, then the tool calls
//       (ids call_<request>_<i>), then a final chunk with the usage
//   {status, error, agent}  an HTTP error with an OpenAI error body
// agent is "root" (the default), "sub" or "compact": a request whose
// x-interaction-type is conversation-subagent takes the next reply scripted
// for "sub", conversation-compaction the next for "compact", any other the
// next for "root", so that a sub-agent or a background compaction running
// beside the main loop gets its own script whatever the order of their
// requests. delay (seconds) holds a reply back, so that a background
// compaction can finish before the turn that started it.
import http from "node:http";
import { text as vary, count } from "../seed.mjs";

export async function start(replies, onRequest) {
  let n = 0;
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      n++;
      const raw = Buffer.concat(chunks).toString("utf8");
      let body = null;
      try {
        body = raw ? JSON.parse(raw) : null;
      } catch {
        body = raw;
      }
      const headers = { ...req.headers };
      delete headers.authorization;
      const kind = headers["x-interaction-type"] ?? "";
      const agent = kind === "conversation-compaction" ? "compact" : /subagent/.test(kind) || headers["x-initiator"] === "sub-agent" ? "sub" : "root";
      const record = { n, method: req.method, url: req.url, agent, headers, body };
      if (req.method !== "POST" || !req.url.endsWith("/chat/completions")) {
        record.reply = "404";
        onRequest(record);
        res.writeHead(404, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: { message: `no route ${req.method} ${req.url}`, type: "not_found" } }));
        return;
      }
      const i = replies.findIndex((r) => (r.agent ?? "root") === agent);
      const reply = i >= 0 ? replies.splice(i, 1)[0] : { unscripted: true, text: "(unscripted)" };
      const sent = { ...reply, usage: reply.usage ? Object.fromEntries(Object.entries(reply.usage).map(([k, v]) => [k, count(v)])) : undefined };
      if (sent.text) sent.text = vary(sent.text);
      record.reply = sent;
      onRequest(record);
      if (sent.status) {
        res.writeHead(sent.status, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: { message: sent.error ?? "fake error", type: "invalid_request_error", code: null } }));
        return;
      }
      setTimeout(() => answer(res, n, body?.model ?? "gpt-fake", sent), (sent.delay ?? 0) * 1000);
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: server.address().port,
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(resolve); }),
  };
}

function answer(res, n, model, r) {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  const id = `chatcmpl-${String(n).padStart(4, "0")}`;
  const chunk = (delta, finish = null) =>
    res.write(`data: ${JSON.stringify({ id, object: "chat.completion.chunk", created: 1796500000 + n, model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`);
  chunk({ role: "assistant", content: "" });
  if (r.reasoning) for (const part of split(r.reasoning)) chunk({ reasoning_content: part });
  if (r.text) for (const part of split(r.text)) chunk({ content: part });
  (r.calls ?? []).forEach((c, i) => {
    const args = typeof c.args === "string" ? c.args : JSON.stringify(c.args);
    chunk({ tool_calls: [{ index: i, id: `call_${String(n).padStart(4, "0")}_${i}`, type: "function", function: { name: c.name, arguments: "" } }] });
    chunk({ tool_calls: [{ index: i, function: { arguments: args } }] });
  });
  chunk({}, r.calls?.length ? "tool_calls" : "stop");
  const u = r.usage ?? {};
  const usage = { prompt_tokens: u.input ?? 0, completion_tokens: u.output ?? 0, total_tokens: (u.input ?? 0) + (u.output ?? 0) };
  if (u.cached) usage.prompt_tokens_details = { cached_tokens: u.cached };
  if (u.reasoning) usage.completion_tokens_details = { reasoning_tokens: u.reasoning };
  res.write(`data: ${JSON.stringify({ id, object: "chat.completion.chunk", created: 1796500000 + n, model, choices: [], usage })}\n\n`);
  res.end("data: [DONE]\n\n");
}

// split cuts a text in two deltas, so that the agent joins streamed parts.
function split(s) {
  const at = Math.floor(s.length / 2);
  return at ? [s.slice(0, at), s.slice(at)] : [s];
}
