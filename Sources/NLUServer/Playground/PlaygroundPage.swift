/// The playground served at `GET /`: one static page (HTML, CSS and JavaScript inline, nothing
/// fetched from elsewhere) that calls the server's own JSON routes — type a sentence and see its
/// intent ranking and entities highlighted, ask a question over a pasted text, compare two
/// sentences when an embedding model is served, and talk with the dialogue when one is served (through
/// `/conversations/{id}/messages`: the bot's texts and buttons, a new conversation, the state's context and
/// slots after each turn). Every text from an answer reaches the page escaped (`escapeHTML`) or as
/// `textContent`, never as markup.
enum PlaygroundPage {
    static let html = #"""
<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>NLUKit playground</title>
<style>
  body { font: 15px/1.45 system-ui, sans-serif; margin: 0 auto; max-width: 860px; padding: 1.2em; color: #1d2330; }
  h1 { font-size: 1.4em; margin: 0 0 .2em; } h2 { font-size: 1.1em; margin: 0 0 .6em; }
  section { border: 1px solid #d8dce6; border-radius: 8px; padding: 1em; margin: 1em 0; }
  input[type=text], textarea { width: 100%; box-sizing: border-box; font: inherit; padding: .45em; border: 1px solid #b9c0cf; border-radius: 5px; }
  textarea { min-height: 6em; }
  button { font: inherit; padding: .4em 1.1em; margin-top: .5em; border: 0; border-radius: 5px; background: #2f5fd0; color: white; cursor: pointer; }
  button:disabled { background: #9aa6c4; cursor: default; }
  .row { display: flex; align-items: center; gap: .6em; margin: .15em 0; }
  .label { width: 13em; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
  .bar { height: .8em; background: #2f5fd0; border-radius: 3px; }
  .muted { color: #6b7385; font-size: .9em; }
  .error { color: #b3261e; }
  mark { background: #ffe28a; border-radius: 3px; padding: 0 .1em; }
  mark small { color: #7a5a00; margin-left: .2em; }
  .headline { font-size: 1.15em; margin: .6em 0 .3em; }
  .chat-log { border: 1px solid #e3e6ee; border-radius: 6px; padding: .6em; min-height: 6em; max-height: 26em; overflow-y: auto; background: #fafbfd; }
  .bubble { margin: .3em 0; padding: .35em .7em; border-radius: 12px; max-width: 80%; width: fit-content; white-space: pre-wrap; }
  .bubble.user { margin-left: auto; background: #2f5fd0; color: white; }
  .bubble.bot { background: #e8ebf3; }
  .bubble .muted { display: block; }
  .bubble.user .muted { color: #dbe3fa; }
  .chat-buttons button { margin: .2em .3em .2em 0; padding: .2em .8em; background: white; color: #2f5fd0; border: 1px solid #2f5fd0; }
  .chat-row { display: flex; gap: .5em; align-items: center; }
  .chat-row button { margin-top: 0; }
  table.chat-context { border-collapse: collapse; margin: .4em 0; font-size: .92em; }
  table.chat-context td { border-top: 1px solid #e3e6ee; padding: .15em .6em .15em 0; vertical-align: top; }
  pre { white-space: pre-wrap; word-break: break-word; font-size: .85em; background: #f4f5f8; padding: .5em; border-radius: 5px; }
</style>
</head>
<body>
<h1>NLUKit playground</h1>
<div class="muted" id="served">Loading what this server serves…</div>
<p class="muted">Token (only if the server was started with one): <input type="text" id="token" style="width: 16em" autocomplete="off"></p>

<section id="intents">
  <h2>Intent and entities <span class="muted">POST /model/parse</span></h2>
  <input type="text" id="parse-text" value="turn the radio on" aria-label="sentence">
  <button id="parse-button">Parse</button>
  <div id="parse-result" aria-live="polite"></div>
</section>

<section id="chat" hidden>
  <h2>Conversation <span class="muted">POST /conversations/{id}/messages</span></h2>
  <div class="muted">Conversation <code id="chat-id"></code></div>
  <div class="chat-log" id="chat-log" aria-live="polite"></div>
  <div class="chat-row">
    <input type="text" id="chat-text" value="" placeholder="Say something to the bot" aria-label="message">
    <button id="chat-send">Send</button>
    <button id="chat-new" title="Forget this conversation (DELETE /conversations/{id}) and start another">New conversation</button>
  </div>
  <div id="chat-error" aria-live="polite"></div>
  <h2 style="margin-top:.8em">State <span class="muted">after the last turn</span></h2>
  <div id="chat-state"><p class="muted">No turn yet.</p></div>
</section>

<section id="qa">
  <h2>Question answering <span class="muted">POST /question-answering</span></h2>
  <input type="text" id="qa-question" value="Who went to Paris?" aria-label="question">
  <textarea id="qa-context" aria-label="text">Alice went to Paris on Monday with her friend Bob.</textarea>
  <button id="qa-button">Ask</button>
  <div id="qa-result" aria-live="polite"></div>
</section>

<section id="compare">
  <h2>Compare two sentences <span class="muted">POST /embed</span></h2>
  <input type="text" id="compare-a" value="How do I reset my password?" aria-label="first sentence">
  <input type="text" id="compare-b" value="I forgot my login credentials" aria-label="second sentence" style="margin-top:.4em">
  <button id="compare-button">Compare</button>
  <div id="compare-result" aria-live="polite"></div>
</section>

<script>
"use strict";
const $ = (id) => document.getElementById(id);
const tokenInput = $("token");
tokenInput.value = localStorage.getItem("nlukit-token") || "";
tokenInput.addEventListener("change", () => { localStorage.setItem("nlukit-token", tokenInput.value); loadStatus(); });

function escapeHTML(text) {
  return text.replace(/[&<>"']/g, (c) => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"}[c]));
}

async function call(method, path, body) {
  const headers = {"Content-Type": "application/json"};
  if (tokenInput.value) headers["Authorization"] = "Bearer " + tokenInput.value;
  const response = await fetch(path, {method, headers, body: body === undefined ? undefined : JSON.stringify(body)});
  const payload = await response.json().catch(() => ({error: "bad_response", message: "not JSON"}));
  if (!response.ok) throw new Error((payload.message || payload.error || response.statusText) + " (" + response.status + ")");
  return payload;
}

function percent(value) { return (value * 100).toFixed(1) + "%"; }

// Offsets from the server count Unicode scalars (as Python does), so the text is split by code points.
function highlight(text, spans) {
  const chars = Array.from(text);
  let html = "", at = 0;
  for (const span of [...spans].sort((a, b) => a.start - b.start)) {
    if (span.start < at || span.end > chars.length) continue;
    html += escapeHTML(chars.slice(at, span.start).join(""));
    html += "<mark>" + escapeHTML(chars.slice(span.start, span.end).join("")) +
            (span.label ? "<small>" + escapeHTML(span.label) + "</small>" : "") + "</mark>";
    at = span.end;
  }
  return html + escapeHTML(chars.slice(at).join(""));
}

function ranking(rows) {
  return rows.map((row) =>
    '<div class="row"><span class="label">' + escapeHTML(row.name) + '</span>' +
    '<span class="bar" style="width:' + Math.max(1, Math.round(row.confidence * 300)) + 'px"></span>' +
    '<span class="muted">' + percent(row.confidence) + '</span></div>').join("");
}

function fail(element, error) {
  element.dataset.state = "error";
  element.innerHTML = '<p class="error">' + escapeHTML(String(error.message || error)) + '</p>';
}

async function parse() {
  const result = $("parse-result");
  result.dataset.state = "loading";
  try {
    const answer = await call("POST", "/model/parse", {text: $("parse-text").value});
    const entities = answer.entities.map((e) => ({start: e.start, end: e.end, label: e.entity + (e.role ? ":" + e.role : "")}));
    result.dataset.intent = answer.intent.name === null ? "" : answer.intent.name;
    result.innerHTML =
      '<p class="headline">Intent: <strong id="parse-intent">' + escapeHTML(answer.intent.name === null ? "no intent" : answer.intent.name) +
      '</strong> <span class="muted">' + percent(answer.intent.confidence) + '</span></p>' +
      '<p id="parse-entities">' + highlight(answer.text, entities) + '</p>' +
      (answer.entities.length ? "" : '<p class="muted">No entities.</p>') +
      (answer.warnings || []).map((w) => '<p class="error warning">' + escapeHTML(w) + '</p>').join("") +
      ranking(answer.intent_ranking);
    result.dataset.state = "done";
  } catch (error) { fail(result, error); }
}

async function ask() {
  const result = $("qa-result");
  result.dataset.state = "loading";
  const context = $("qa-context").value;
  try {
    let answers = await call("POST", "/question-answering", {question: $("qa-question").value, context, top_k: 3});
    if (!Array.isArray(answers)) answers = [answers];
    result.innerHTML = answers.length === 0 ? '<p class="muted">No answer.</p>' :
      '<p class="headline">Answer: <strong id="qa-answer">' + escapeHTML(answers[0].answer) + '</strong> <span class="muted">' +
      percent(answers[0].score) + '</span></p><p>' + highlight(context, [{start: answers[0].start, end: answers[0].end}]) + '</p>' +
      answers.slice(1).map((a) => '<div class="muted">also: ' + escapeHTML(a.answer) + ' (' + percent(a.score) + ')</div>').join("");
    result.dataset.state = "done";
  } catch (error) { fail(result, error); }
}

async function compare() {
  const result = $("compare-result");
  result.dataset.state = "loading";
  try {
    const vectors = await call("POST", "/embed", {inputs: [$("compare-a").value, $("compare-b").value], normalize: true});
    const dot = vectors[0].reduce((sum, x, i) => sum + x * vectors[1][i], 0);
    result.innerHTML = '<p class="headline">Cosine similarity: <strong id="compare-score">' + dot.toFixed(3) + '</strong></p>';
    result.dataset.state = "done";
  } catch (error) { fail(result, error); }
}

// The conversation panel: one conversation id per page (a new one on "New conversation"); every text the
// bot or the state holds is put in the page as textContent, never parsed as HTML.
let chatID = "";
let chatBusy = false;

function newChatID() {
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  return "playground-" + Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function chatBubble(kind, text, note) {
  const bubble = element("div", "bubble " + kind, text);
  if (note) bubble.appendChild(element("small", "muted", note));
  $("chat-log").appendChild(bubble);
  $("chat-log").scrollTop = $("chat-log").scrollHeight;
  return bubble;
}

// One bot response as the conversation API gives it (DialogueOutput's JSON).
function chatResponse(response) {
  switch (response.type) {
  case "text":
    return chatBubble("bot", response.text);
  case "options": {
    const bubble = chatBubble("bot", response.title || "");
    if (response.description) bubble.appendChild(element("small", "muted", response.description));
    const buttons = element("div", "chat-buttons");
    for (const option of response.options || []) {
      const button = element("button", "", option.label);
      button.title = option.value;
      button.addEventListener("click", () => chatSend(option.value));
      buttons.appendChild(button);
    }
    bubble.appendChild(buttons);
    return bubble;
  }
  case "image":
    // Shown as its address, not loaded: the page fetches nothing from elsewhere.
    return chatBubble("bot", "[image] " + (response.title ? response.title + ": " : "") + response.source);
  case "pause":
    return chatBubble("bot", "…", "pause of " + response.milliseconds + " ms");
  default: {
    const bubble = chatBubble("bot", "", "payload for the app");
    bubble.appendChild(element("pre", "", JSON.stringify(response.payload === undefined ? response : response.payload, null, 1)));
    return bubble;
  }
  }
}

function describePosition(position) {
  if (!position) return "at the root nodes";
  if (position.slot) return "filling slot " + position.slot.slot + " of " + position.slot.frame;
  if (position.confirmation) return "asking to confirm " + position.confirmation.frame;
  if (position.children) return "after node " + position.children.node;
  if (position.jumpTarget) return "at node " + position.jumpTarget.node;
  return JSON.stringify(position);
}

function chatState(state, warnings) {
  const panel = $("chat-state");
  panel.replaceChildren();
  const where = state.tracker && state.tracker.activeLoop ? "form " + state.tracker.activeLoop + " active" : describePosition(state.position);
  panel.appendChild(element("p", "", "Turn " + state.turn + ", " + where + "."));
  const names = Object.keys(state.context || {}).sort();
  if (names.length === 0) {
    panel.appendChild(element("p", "muted", "No context variables or slots set."));
  } else {
    const table = element("table", "chat-context");
    table.id = "chat-context";
    for (const name of names) {
      const row = element("tr");
      row.appendChild(element("td", "", name));
      row.appendChild(element("td", "", JSON.stringify(state.context[name])));
      table.appendChild(row);
    }
    panel.appendChild(table);
  }
  for (const warning of warnings || []) panel.appendChild(element("p", "error warning", warning));
  const raw = element("details");
  raw.appendChild(element("summary", "muted", "The whole state (JSON)"));
  raw.appendChild(element("pre", "", JSON.stringify(state, null, 1)));
  panel.appendChild(raw);
}

async function chatSend(text) {
  if (chatBusy) return;
  chatBusy = true;
  $("chat-send").disabled = true;
  const log = $("chat-log");
  log.dataset.state = "loading";
  $("chat-error").replaceChildren();
  const mine = text === "" ? null : chatBubble("user", text);
  try {
    const answer = await call("POST", "/conversations/" + chatID + "/messages", {text});
    const best = answer.message.intents && answer.message.intents[0];
    if (mine && best) mine.appendChild(element("small", "muted", "#" + best.intent + " " + percent(best.confidence) +
      (answer.message.entities || []).map((e) => " @" + e.entity + ":" + e.value).join("")));
    for (const response of answer.responses) chatResponse(response);
    if (answer.responses.length === 0) chatBubble("bot", "", "(no response)");
    chatState(answer.state, answer.warnings);
    log.dataset.turns = String(answer.state.turn);
    log.dataset.state = "done";
  } catch (error) {
    log.dataset.state = "error";
    $("chat-error").appendChild(element("p", "error", String(error.message || error)));
  } finally {
    chatBusy = false;
    $("chat-send").disabled = false;
  }
}

async function chatNew() {
  // The old conversation is forgotten on the server (404 when it never started: nothing to forget).
  if (chatID) await call("DELETE", "/conversations/" + chatID).catch(() => {});
  chatID = newChatID();
  $("chat-id").textContent = chatID;
  $("chat-log").replaceChildren();
  $("chat-state").replaceChildren(element("p", "muted", "No turn yet."));
  await chatSend("");   // the opening turn: the dialogue's welcome
}

function chatSubmit() {
  const text = $("chat-text").value;
  if (text.trim() === "") return;
  $("chat-text").value = "";
  return chatSend(text);
}

async function loadStatus() {
  try {
    const status = await call("GET", "/status");
    const tasks = status.models.map((m) => m.task);
    $("served").textContent = "NLUKit " + status.version + " serving: " +
      status.models.map((m) => m.task + " (" + m.detail + ")").join(", ");
    $("parse-button").disabled = !tasks.includes("intents");
    $("qa-button").disabled = !tasks.includes("question-answering");
    $("compare-button").disabled = !tasks.includes("embeddings");
    $("chat").hidden = !tasks.includes("dialogue");
  } catch (error) {
    $("served").textContent = "Could not read /status: " + error.message;
  }
}

$("parse-button").addEventListener("click", parse);
$("parse-text").addEventListener("keydown", (event) => { if (event.key === "Enter") parse(); });
$("qa-button").addEventListener("click", ask);
$("compare-button").addEventListener("click", compare);
$("chat-send").addEventListener("click", chatSubmit);
$("chat-text").addEventListener("keydown", (event) => { if (event.key === "Enter") chatSubmit(); });
$("chat-new").addEventListener("click", chatNew);
// A link can carry a sentence (?text=...): it is parsed on load, as if typed and submitted; and messages for
// the bot (?say=...&say=...): a conversation starts on load and they are sent one after the other.
const parameters = new URLSearchParams(location.search);
const shared = parameters.get("text");
const said = parameters.getAll("say");
if (shared) { $("parse-text").value = shared; }
loadStatus().then(async () => {
  if (shared) parse();
  if ($("chat").hidden) return;
  await chatNew();
  for (const text of said) await chatSend(text);
});
</script>
</body>
</html>
"""#
}
