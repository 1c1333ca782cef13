// The table's page: reads everything from the API, draws it, and follows the table live.
// The proof of who is looking travels with every request: a signed link's `k`, or the
// Telegram Mini App's init data (`tg`).
"use strict";

const $ = (id) => document.getElementById(id);
const query = new URLSearchParams(location.search);
const proof = new URLSearchParams();
let table = null;
let shown = null;       // the page data drawn now
let words = {};
let loading = null;     // the read in flight (reads never overlap)
let again = false;      // a newer version was announced during a read

function telegramInitData() {
  const app = window.Telegram && window.Telegram.WebApp;
  if (app && app.initData) return app.initData;
  const hash = new URLSearchParams(location.hash.slice(1));
  return hash.get("tgWebAppData");
}

// Telegram's Mini App events, told the way its clients listen (the page loads no
// script of Telegram's): the mobile apps' proxy, else the web client's frame.
function telegramEvent(type, data) {
  const payload = JSON.stringify(data || {});
  if (window.TelegramWebviewProxy) {
    window.TelegramWebviewProxy.postEvent(type, payload);
  } else if (window.external && "notify" in window.external) {
    window.external.notify(JSON.stringify({ eventType: type, eventData: data || {} }));
  } else if (window.parent !== window) {
    window.parent.postMessage(JSON.stringify({ eventType: type, eventData: data || {} }), "*");
  }
}

function api(path) {
  const qs = proof.toString();
  return `/api${path}${qs ? (path.includes("?") ? "&" : "?") + qs : ""}`;
}

function say(text, alert) {
  const toast = $("toast");
  if (!text) { toast.hidden = true; return; }
  toast.textContent = text;
  toast.className = alert ? "toast alert" : "toast";
  toast.hidden = false;
  clearTimeout(say.timer);
  say.timer = setTimeout(() => { toast.hidden = true; }, alert ? 6000 : 3000);
}

function refusal(body) {
  const lang = (shown && shown.lang) || (navigator.language || "en").slice(0, 2);
  return (body.words && (body.words[lang] || body.words.en)) || body.error || "error";
}

async function readJson(response) {
  try { return await response.json(); } catch (e) { return {}; }
}

async function load() {
  if (loading) { again = true; return loading; }
  loading = (async () => {
    do {
      again = false;
      const response = await fetch(api(`/t/${table}`), { cache: "no-store" })
        .catch(() => null);
      if (!response || !response.ok) {
        if (response) showRefusal(await readJson(response));
        // No server or no Redis for now: the live stream reads again once it opens.
        if (!following && (!response || response.status >= 500)) follow();
        return;
      }
      draw(await readJson(response));
      if (!following) follow();
    } while (again);
  })().finally(() => { loading = null; });
  return loading;
}

function showRefusal(body) {
  const notice = $("notice");
  notice.textContent = refusal(body);
  notice.hidden = false;
}

function button(item, onTap, compact) {
  const b = document.createElement("button");
  b.type = "button";
  b.textContent = compact && item.short ? item.short : item.label;
  if (compact && item.short) { b.className = "short"; b.title = item.label; }
  b.dataset.token = item.token;
  if (item.mark) b.dataset.mark = item.mark;
  if (item.kind === "back") b.className = "back";
  b.addEventListener("click", () => onTap(item, b));
  return b;
}

function drawChoices(box, choices) {
  box.replaceChildren();
  if (!choices) return;
  const labels = Object.fromEntries(choices.groups.map((g) => [g.key, g.label]));
  const folds = new Set(choices.groups.filter((g) => g.fold).map((g) => g.key));
  let group;
  for (const item of choices.items) {
    if (item.group !== group && item.group && labels[item.group]) {
      const h = document.createElement("h3");
      h.textContent = labels[item.group];
      box.append(h);
    }
    group = item.group;
    box.append(button(item, press, folds.has(item.group)));
  }
}

function draw(data) {
  if (replayAt !== null) { shown = data; return; }  // the replay stays on screen
  shown = data;
  words = data.words || words;
  document.documentElement.lang = data.lang;
  document.title = `${data.title} #${data.table}`;
  $("title").textContent = `${data.title} · #${data.table}`;
  $("notice").hidden = true;
  $("table").innerHTML = data.text;  // escaped by the server
  const decision = data.decision;
  $("decision").hidden = !decision;
  if (decision) {
    $("decision-title").textContent = words.your_decision || "";
    $("decision-text").innerHTML = decision.text;
    $("hint").textContent = data.targets && data.targets.length ? words.tap_hint || "" : "";
    drawChoices($("choices"), decision.choices);
  }
  $("lobby").hidden = !data.lobby;
  drawChoices($("lobby"), data.lobby);
  $("status").textContent = data.seat === null ? words.spectator || ""
    : (!decision && data.status === "running" ? words.waiting || "" : "");
  // What a reader (a test, an assistive tool) may wait for: the version drawn.
  document.body.dataset.version = String(data.version);
  drawPicture(data);
  drawLog(data);
  $("replay-open").hidden = data.status !== "running" && data.status !== "finished";
  $("replay-open").textContent = words.replay || "";
  $("replay-close").textContent = words.back || "";
}

// The game's log: read when opened, and again at each new version while it is open.
let logVersion = null;

async function drawLog(data) {
  const box = $("log");
  box.hidden = data.status !== "running" && data.status !== "finished";
  $("log-title").textContent = words.log || "";
  if (!box.open || box.hidden || logVersion === data.version) return;
  const response = await fetch(api(`/t/${table}/log`), { cache: "no-store" })
    .catch(() => null);
  if (!response) return;  // no server for now: read again with the next version
  const body = await readJson(response);
  if (!response.ok) { say(refusal(body), true); return; }
  logVersion = body.version;
  $("log-text").innerHTML = body.text;  // escaped by the server
  document.body.dataset.log = String(body.version);
}
$("log").addEventListener("toggle", () => { if (shown) drawLog(shown); });

// The replay: the table's story step by step, from the log.
let replayAt = null;   // the step shown, or null when the live table is shown
let replayTotal = 0;

async function showStep(n) {
  const response = await fetch(api(`/t/${table}/replay/${n}`));
  const body = await readJson(response);
  if (!response.ok) { say(refusal(body), true); return; }
  replayAt = body.step;
  replayTotal = body.total;
  $("replay-text").innerHTML = body.text;  // escaped by the server
  $("step-label").textContent = (words.step || "{n}/{total}")
    .replace("{n}", body.step).replace("{total}", body.total);
  const img = $("replay-picture");
  if (body.picture) {
    const picture = await fetch(api(`/t/${table}/replay/${body.step}/picture`));
    if (picture.ok && replayAt === body.step) {
      if (img.dataset.url) URL.revokeObjectURL(img.dataset.url);
      img.dataset.url = URL.createObjectURL(await picture.blob());
      img.src = img.dataset.url;
      img.hidden = false;
    }
  }
  document.body.dataset.step = String(body.step);
  document.body.dataset.stepVersion = String(body.version);
}

function replayMode(on) {
  $("replay").hidden = !on;
  for (const id of ["table", "board", "decision", "lobby", "status", "log", "replay-open"]) {
    if (on) $(id).dataset.wasHidden = $(id).hidden ? "1" : "";
    $(id).hidden = on ? true : $(id).dataset.wasHidden === "1";
  }
  if (!on) { replayAt = null; delete document.body.dataset.step; load(); }
}

$("replay-open").addEventListener("click", async () => {
  replayMode(true);
  await showStep(0);
  // The number of steps is known from the first answer: start at the latest.
  if (replayTotal > 0) await showStep(replayTotal);
});
$("replay-close").addEventListener("click", () => replayMode(false));
$("step-first").addEventListener("click", () => showStep(0));
$("step-prev").addEventListener("click", () => showStep(Math.max(0, (replayAt || 0) - 1)));
$("step-next").addEventListener("click", () => showStep(Math.min(replayTotal, (replayAt || 0) + 1)));
$("step-last").addEventListener("click", () => showStep(replayTotal));

async function drawPicture(data) {
  const board = $("board");
  if (!data.picture) { board.hidden = true; return; }
  const img = $("picture");
  const version = data.version;
  const response = await fetch(api(`/t/${data.table}/picture?v=${version}`));
  if (!response.ok || shown.version !== version) return;
  const blob = await response.blob();
  if (img.dataset.url) URL.revokeObjectURL(img.dataset.url);
  img.dataset.url = URL.createObjectURL(blob);
  img.dataset.version = String(version);
  img.onload = () => {
    drawTargets(data, img);
    document.body.dataset.picture = String(version);
  };
  img.src = img.dataset.url;
  board.hidden = false;
}

function drawTargets(data, img) {
  const layer = $("targets");
  layer.replaceChildren();
  layer.onclick = null;
  const choices = data.decision && data.decision.choices;
  if (!choices || !data.targets) return;
  const byMark = new Map(choices.items.filter((c) => c.mark).map((c) => [c.mark, c]));
  const sx = 100 / img.naturalWidth, sy = 100 / img.naturalHeight;
  const placed = [];
  for (const target of data.targets) {
    const items = target.numbers.map((n) => byMark.get(n)).filter(Boolean);
    if (!items.length) continue;
    const [x0, y0, x1, y1] = target.box;
    const b = document.createElement("button");
    b.type = "button";
    b.className = "target";
    b.title = items.map((c) => c.label).join(" / ");
    b.setAttribute("aria-label", b.title);
    b.dataset.numbers = target.numbers.join(",");
    Object.assign(b.style, { left: `${x0 * sx}%`, top: `${y0 * sy}%`,
      width: `${(x1 - x0) * sx}%`, height: `${(y1 - y0) * sy}%` });
    layer.append(b);
    placed.push({ box: target.box, items, button: b });
  }
  // Places may overlap (a twin tile's two squares, each also a square of its own): a
  // tap stands for every place under the finger, not only the one drawn on top.
  layer.onclick = (event) => {
    const hit = event.target.closest("button.target");
    if (!hit) return;
    let under;
    if (event.detail === 0) {  // the keyboard: the focused place alone
      under = placed.filter((p) => p.button === hit);
    } else {
      const rect = layer.getBoundingClientRect();
      const x = (event.clientX - rect.left) / rect.width * img.naturalWidth;
      const y = (event.clientY - rect.top) / rect.height * img.naturalHeight;
      under = placed.filter(({ box: [x0, y0, x1, y1] }) => x >= x0 && x < x1 && y >= y0 && y < y1);
      if (!under.length) under = placed.filter((p) => p.button === hit);
    }
    const items = [...new Set(under.flatMap((p) => p.items))];
    if (items.length === 1) { press(items[0]); return; }
    // Several options at this place: pick them out among the buttons to choose one.
    const tokens = new Set(items.map((c) => c.token));
    for (const el of $("choices").querySelectorAll("button")) {
      el.classList.toggle("picked", tokens.has(el.dataset.token));
    }
    $("choices").scrollIntoView({ behavior: "smooth", block: "center" });
  };
}

async function press(item) {
  document.body.dataset.busy = "1";
  for (const el of document.querySelectorAll(".choices button, #targets button")) el.disabled = true;
  try {
    const response = await fetch(api(`/t/${table}/press`), {
      method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ token: item.token }),
    });
    const body = await readJson(response);
    if (!response.ok) say(refusal(body), true);
    else say(body.answer, body.alert);
  } catch (e) {
    say(words.live_lost || "…", true);
  }
  await load();
  delete document.body.dataset.busy;
}

// The live stream. The browser opens it again by itself after a network error only; an
// answer like 502 or 503 (a worker restarting, Redis away) would close it for good. So
// after any error the page reads the table afresh itself, waiting longer each time in a
// row, and that read opens the stream again: a move made meanwhile shows.
const RETRY_FIRST_MS = 500;
const RETRY_MOST_MS = 10000;
let retryMs = 0;        // the wait before the next opening; 0 while the stream is open
let following = false;  // the stream is open (or opening)

function follow() {
  following = true;
  const source = new EventSource(api(`/t/${table}/live`));
  source.onopen = () => { retryMs = 0; };
  source.addEventListener("version", (event) => {
    $("live").classList.add("on");
    // A notice still up (storage away when the page last read) goes with a fresh read.
    if (!shown || Number(event.data) !== shown.version || !$("notice").hidden) load();
  });
  source.onerror = () => {
    $("live").classList.remove("on");
    source.close();
    following = false;
    retryMs = Math.min(RETRY_MOST_MS, retryMs ? retryMs * 2 : RETRY_FIRST_MS);
    // The read afresh follows again as it ends: at once when it is drawn, or after
    // another wait while the server or Redis is still away. Refused (the link expired
    // meanwhile, the table was closed to spectators), it says why and asks no more.
    setTimeout(load, retryMs);
  };
}

async function start() {
  const init = telegramInitData();
  if (init) proof.set("tg", init);
  else if (query.get("k")) proof.set("k", query.get("k"));
  const path = location.pathname.match(/^\/t\/([A-Za-z0-9_-]+)/);
  if (path) table = path[1];
  else {
    const response = await fetch(api("/me"));
    const body = await readJson(response);
    if (!response.ok || !body.table) { showRefusal(body); return; }
    table = body.table;
  }
  if (init) {
    telegramEvent("web_app_ready");
    telegramEvent("web_app_expand");  // a board wants the whole height
  }
  await load();
}

start();
