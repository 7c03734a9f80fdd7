// The judges' page: an editor, the answers beside it, a drawing of the table.
// Everything comes from the mtgkb server that serves this file (no network).
"use strict";

// A server that other machines can reach asks for its token (mtgkb serve
// --token): it comes in the address the server prints (#token=...), is kept
// for this tab only, and leaves the address at once (links copied carry none).
const TOKEN = (() => {
  const match = /^#token=([^&]*)$/.exec(location.hash);
  if (match) {
    try { sessionStorage.setItem("mtgkb-token", decodeURIComponent(match[1])); } catch (e) { /* private mode */ }
    history.replaceState(null, "", location.pathname + location.search);
    try { return decodeURIComponent(match[1]); } catch (e) { return null; }
  }
  try { return sessionStorage.getItem("mtgkb-token"); } catch (e) { return null; }
})();

function api(path, options = {}) {
  const headers = { ...(options.headers || {}) };
  if (TOKEN) headers.authorization = "Bearer " + TOKEN;
  return fetch(path, { ...options, headers });
}

const WORDS = {
  en: {
    tagline: "Magic: The Gathering rules questions, answered from the Comprehensive Rules",
    language: "Language", share: "Copy link", copied: "Link copied", examples: "Examples:",
    scenario: "Scenario", table: "Table", answers: "Answers", attack: "attack", block: "block",
    illegalKey: "illegal",
    hint: "The answers follow the text as you type. Questions such as ask can and ask fix can be added from the answers.",
    legal: "legal", illegal: "illegal", yes: "yes", no: "no",
    answering: "answering…", answered: "answered in {ms} ms", timeout: "stopped: {msg}",
    noAnswers: "No questions yet: add a line such as “ask legal”.",
    whyBlock: "why can't {a} block {b}?", whyAttack: "why can't {a} attack {b}?",
    fix: "closest legal play (ask fix)", rules: "rules", because: "because",
    repeated: "explained above", fact: "fact", forbiddenBy: "forbidden by",
    errorAt: "line {line}, column {column}", noPlayers: "no players yet",
    more: "+{n} more", unreachable: "the server did not answer: {msg}",
    notModelled: "not modelled: {n} ({p})",
  },
  it: {
    tagline: "Domande sulle regole di Magic: The Gathering, con le risposte delle Regole Complete",
    language: "Lingua", share: "Copia il link", copied: "Link copiato", examples: "Esempi:",
    scenario: "Scenario", table: "Tavolo", answers: "Risposte", attack: "attacco", block: "blocco",
    illegalKey: "illegale",
    hint: "Le risposte seguono il testo mentre scrivi. Domande come ask can e ask fix si aggiungono dalle risposte.",
    legal: "legale", illegal: "illegale", yes: "sì", no: "no",
    answering: "sto rispondendo…", answered: "risposto in {ms} ms", timeout: "fermato: {msg}",
    noAnswers: "Nessuna domanda: aggiungi una riga come “ask legal”.",
    whyBlock: "perché {a} non può bloccare {b}?", whyAttack: "perché {a} non può attaccare {b}?",
    fix: "la giocata legale più vicina (ask fix)", rules: "regole", because: "perché",
    repeated: "spiegato sopra", fact: "fatto", forbiddenBy: "vietato da",
    errorAt: "riga {line}, colonna {column}", noPlayers: "ancora nessun giocatore",
    more: "altri {n}", unreachable: "il server non ha risposto: {msg}",
    notModelled: "non modellata: {n} ({p})",
  },
};

const $ = (id) => document.getElementById(id);
const editor = $("editor");
const gutter = $("gutter");
const state = { lang: "en", seq: 0, timer: null, facts: null, run: null };

function t(key, values) {
  let text = (WORDS[state.lang] || WORDS.en)[key] || WORDS.en[key] || key;
  // one pass, so that a name such as "{b}" stays a name
  return text.replace(/\{(\w+)\}/g, (m, k) => (values && k in values ? String(values[k]) : m));
}

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") node.className = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

function translatePage() {
  document.documentElement.lang = state.lang;
  for (const node of document.querySelectorAll("[data-t]")) node.textContent = t(node.dataset.t);
}

// ---------------------------------------------------------------- the editor

function drawGutter(errorLine) {
  const count = editor.value.split("\n").length;
  gutter.replaceChildren();
  for (let i = 1; i <= count; i++) {
    const span = el("span", i === errorLine ? { class: "err", id: "error-line" } : {}, String(i));
    gutter.append(span, "\n");
  }
  gutter.scrollTop = editor.scrollTop;
}

editor.addEventListener("scroll", () => { gutter.scrollTop = editor.scrollTop; });
editor.addEventListener("input", () => { drawGutter(null); schedule(); });

function setText(text) {
  editor.value = text;
  drawGutter(null);
  schedule(0);
}

function appendQuestion(line) {
  let text = editor.value;
  if (text && !text.endsWith("\n")) text += "\n";
  if (!text.split("\n").includes(line)) text += line + "\n";
  setText(text);
  editor.scrollTop = editor.scrollHeight;
}

function schedule(delay = 350) {
  clearTimeout(state.timer);
  state.timer = setTimeout(update, delay);
}

function showError(body) {
  const box = $("error");
  if (!body) { box.hidden = true; box.textContent = ""; drawGutter(null); return; }
  box.hidden = false;
  const where = body.line ? t("errorAt", body) + "\n" : "";
  box.textContent = where + (body.error || body.message || "");
  box.dataset.line = body.line || "";
  drawGutter(body.line || null);
  box.onclick = () => goToLine(body.line, body.column);
}

function goToLine(line, column) {
  if (!line) return;
  const lines = editor.value.split("\n");
  let at = 0;
  for (let i = 0; i < line - 1 && i < lines.length; i++) at += lines[i].length + 1;
  at += Math.max(0, (column || 1) - 1);
  editor.focus();
  editor.setSelectionRange(at, at);
}

// ---------------------------------------------------------------- talking to mtgkb

async function post(path, scenario) {
  const response = await api(path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ scenario, lang: state.lang }),
  });
  let body = null;
  try { body = await response.json(); } catch (e) { body = { error: String(e) }; }
  return { status: response.status, body };
}

const ASK_LINE = /^[ \t]*ask\b.*$/gm;

async function update() {
  const text = editor.value;
  const seq = ++state.seq;
  saveHash(text);
  $("status").textContent = t("answering");
  // the drawing marks illegal declarations: the verdict on the declared play
  // is asked on its own, so that the user's own questions stay as written
  const judged = text.replace(ASK_LINE, "") + "\nask legal\n";
  const started = performance.now();
  let run, facts, legal;
  try {
    [run, facts, legal] = await Promise.all([post("/v1/run", text), post("/v1/facts", text), post("/v1/run", judged)]);
  } catch (err) {
    if (seq === state.seq) $("status").textContent = t("unreachable", { msg: String(err) });
    return;
  }
  if (seq !== state.seq) return; // a newer text is on its way
  const ms = Math.round(performance.now() - started);
  state.facts = facts.status === 200 ? facts.body.scenario : null;
  if (run.status === 200 || (run.status === 500 && run.body.answers)) {
    showError(null);
    const answers = run.body.answers || [];
    const verdict = legal.status === 200 ? legal.body.answers[legal.body.answers.length - 1] : null;
    state.run = { answers, verdict };
    $("status").textContent = t("answered", { ms });
    renderAnswers(answers, verdict);
  } else {
    state.run = null;
    if (run.status === 422 || run.status === 400 || run.status === 413) {
      showError(run.body);
      $("status").textContent = "";
    } else {
      showError(null);
      $("status").textContent = t("timeout", { msg: run.body.message || run.status });
    }
    $("answers").replaceChildren();
  }
  drawTable(state.facts, state.run ? state.run.verdict : null);
  document.body.dataset.answered = String(seq);
}

// ---------------------------------------------------------------- answers

function ruleChip(number) {
  return el("button", { class: "rule", type: "button", "data-rule": number, onclick: () => showRule(number) }, number);
}

async function showRule(number) {
  const box = $("rule-info");
  const response = await api(`/v1/rules/${encodeURIComponent(number)}?lang=${state.lang}`);
  const body = await response.json();
  box.replaceChildren(
    el("strong", {}, number + " "),
    body.paraphrase || body.message || "",
    body.encoded_at ? el("small", {}, (body.encoded_at || []).join(", ")) : null,
  );
  box.hidden = false;
  clearTimeout(showRule.timer);
  showRule.timer = setTimeout(() => { box.hidden = true; }, 8000);
}
$("rule-info").addEventListener("click", () => { $("rule-info").hidden = true; });

function quote(name) {
  return '"' + name.replace(/\\/g, "\\\\").replace(/"/g, '\\"') + '"';
}

function targetWord(target) {
  const players = state.facts ? state.facts.players.map((p) => p.name) : [];
  return players.includes(target) && /^[A-Za-z][A-Za-z0-9_'-]*$/.test(target) ? target : quote(target);
}

// The questions a judge may ask next about one violation.
function followUps(violation) {
  const buttons = [];
  const objects = violation.objects || [];
  const facts = state.facts;
  if (!facts || !objects.length) return buttons;
  const subject = objects[0];
  const block = facts.blocks.find((b) => b.blocker === subject && (objects.length < 2 || objects.includes(b.attacker)));
  if (block) {
    const line = `ask can ${quote(block.blocker)} block ${quote(block.attacker)}`;
    buttons.push(el("button", { class: "ask-more", type: "button", "data-ask": line, onclick: () => appendQuestion(line) },
      t("whyBlock", { a: block.blocker, b: block.attacker })));
  }
  const attack = facts.attacks.find((a) => a.attacker === subject);
  if (attack && !block) {
    const line = `ask can ${quote(attack.attacker)} attack ${targetWord(attack.target)}`;
    buttons.push(el("button", { class: "ask-more", type: "button", "data-ask": line, onclick: () => appendQuestion(line) },
      t("whyAttack", { a: attack.attacker, b: attack.target })));
  }
  return buttons;
}

function fixButton() {
  const line = "ask fix";
  return el("button", { class: "ask-more", type: "button", "data-ask": line, onclick: () => appendQuestion(line) }, t("fix"));
}

function renderValue(value) {
  if (Array.isArray(value)) {
    if (value.every((v) => typeof v !== "object" || v === null)) return value.join(", ");
    return el("ul", { class: "plain" }, value.map((v) => el("li", {}, renderValue(v))));
  }
  if (value && typeof value === "object") {
    const keys = Object.keys(value);
    if (!keys.length) return "—";
    return el("ul", { class: "plain" }, keys.map((k) => el("li", {}, `${k}: `, renderValue(value[k]))));
  }
  if (value === true) return t("yes");
  if (value === false) return t("no");
  return String(value);
}

function renderOrders(orders) {
  return el("ul", { class: "plain" }, orders.map((o) => el("li", {}, Array.isArray(o) ? o.join(" → ") : renderValue(o))));
}

function renderTree(nodes, depth) {
  return nodes.map((node) => {
    const chips = [node.rule, ...(node.also || [])].filter(Boolean).map(ruleChip);
    const tags = [];
    if (node.fact) tags.push(el("span", { class: "tag" }, `(${t("fact")})`));
    if (node.repeated) tags.push(el("span", { class: "tag" }, `(${t("repeated")})`));
    const children = node.because || [];
    const extra = [];
    if (node.says) extra.push(el("div", { class: "says" }, node.says));
    if (node.forbidden_by) {
      extra.push(el("div", { class: "says" }, `${t("forbiddenBy")} `, node.forbidden_by.rules.map(ruleChip),
        node.forbidden_by.objects && node.forbidden_by.objects.length ? ` (${node.forbidden_by.objects.join(", ")})` : ""));
    }
    if (!children.length && !extra.length) return el("div", { class: "leaf" }, node.conclusion, " ", chips, tags);
    const details = el("details", { class: "node" }, el("summary", {}, node.conclusion, " ", chips, tags), extra, renderTree(children, depth + 1));
    if (depth === 0) details.open = true;
    return details;
  });
}

const SHOWN = new Set(["ask", "rules", "violations", "legal", "tree", "orders", "can", "forbidden_by", "assignments", "unmodelled"]);

// The rule index's paraphrase of a rule, in the page's language (asked once each).
const PARAPHRASES = new Map();
function paraphraseOf(number) {
  const key = `${state.lang} ${number}`;
  if (!PARAPHRASES.has(key)) {
    PARAPHRASES.set(key, api(`/v1/rules/${encodeURIComponent(number)}?lang=${state.lang}`)
      .then((response) => response.json())
      .then((body) => body.paraphrase || "?")
      .catch(() => "?"));
  }
  return PARAPHRASES.get(key);
}

// A rule the answer does not model (kb/not_modelled.lp, a house rule): one line each.
function unmodelledLine(number) {
  const line = el("div", { class: "unmodelled", "data-rule": number }, t("notModelled", { n: number, p: "…" }));
  paraphraseOf(number).then((p) => { line.textContent = t("notModelled", { n: number, p }); });
  return line;
}

function renderAnswer(answer, verdict) {
  const head = el("h3", {}, el("code", {}, "ask " + answer.ask));
  const box = el("div", { class: "answer", "data-ask": answer.ask }, head);
  if (typeof answer.legal === "boolean") {
    head.append(el("span", { class: "verdict " + (answer.legal ? "ok" : "bad") }, answer.legal ? t("legal") : t("illegal")));
  }
  if (typeof answer.can === "boolean") {
    head.append(el("span", { class: "verdict " + (answer.can ? "ok" : "bad") }, answer.can ? t("yes") : t("no")));
  }
  for (const v of answer.violations || []) {
    if (typeof v !== "object") { box.append(el("div", { class: "violation" }, String(v))); continue; }
    box.append(el("div", { class: "violation" }, v.rule ? ruleChip(v.rule) : null, " ", v.message || "", el("div", {}, followUps(v))));
  }
  if (answer.ask === "legal" && answer.legal === false) box.append(fixButton());
  if (answer.forbidden_by) box.append(el("div", { class: "field" }, el("b", {}, t("forbiddenBy") + ": "), [].concat(answer.forbidden_by).map((r) => typeof r === "string" ? ruleChip(r) : renderValue(r))));
  if (answer.orders) box.append(renderOrders(answer.orders));
  if (answer.assignments) {
    box.append(el("ul", { class: "plain" }, answer.assignments.map((one) => {
      const pairs = Object.entries(one).map(([b, a]) => `${b} ⊣ ${[].concat(a).join(", ")}`);
      return el("li", {}, pairs.length ? pairs.join("; ") : "∅");
    })));
  }
  for (const [key, value] of Object.entries(answer)) {
    if (SHOWN.has(key)) continue;
    box.append(el("div", { class: "field" }, el("b", {}, key + ": "), renderValue(value)));
  }
  if (answer.tree) box.append(el("div", { class: "tree" }, renderTree(answer.tree, 0)));
  for (const number of answer.unmodelled || []) box.append(unmodelledLine(number));
  if (answer.rules && answer.rules.length) box.append(el("div", { class: "rules-line" }, t("rules") + ": ", answer.rules.map(ruleChip)));
  return box;
}

function renderAnswers(answers, verdict) {
  const list = $("answers");
  list.replaceChildren();
  if (!answers.length) {
    list.append(el("p", { class: "hint" }, t("noAnswers")));
    if (verdict && verdict.legal === false) list.append(renderAnswer(verdict));
    return;
  }
  for (const answer of answers) list.append(renderAnswer(answer, verdict));
}

// ---------------------------------------------------------------- the drawing

const SVG = "http://www.w3.org/2000/svg";
const TEAM_COLOURS = ["#5b3fa0", "#0f7b6c", "#b35c00", "#a0325b", "#3a6ea5", "#6a7f1f", "#7a4b2a", "#444"];

function svg(tag, attrs, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  for (const child of children.flat()) {
    if (child === null || child === undefined) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

function short(name, size) {
  return name.length > size ? name.slice(0, size - 1) + "…" : name;
}

function illegalOf(facts, verdict) {
  const attacks = new Set();
  const blocks = new Set();
  if (!verdict || verdict.legal !== false) return { attacks, blocks };
  for (const v of verdict.violations || []) {
    const objects = v.objects || [];
    if (!objects.length) continue;
    const subject = objects[0];
    for (const b of facts.blocks) {
      if (b.blocker === subject && (objects.length < 2 || objects.includes(b.attacker))) blocks.add(b.blocker + "\u0000" + b.attacker);
    }
    for (const a of facts.attacks) {
      if (a.attacker === subject && !facts.blocks.some((b) => b.blocker === subject)) attacks.add(a.attacker + "\u0000" + a.target);
    }
  }
  return { attacks, blocks };
}

function drawTable(facts, verdict) {
  const root = $("table");
  root.replaceChildren();
  const defs = svg("defs", {},
    ["attack", "block", "illegal"].map((kind) => svg("marker", { id: "head-" + kind, viewBox: "0 0 10 10", refX: "9", refY: "5", markerWidth: "7", markerHeight: "7", orient: "auto-start-reverse" },
      svg("path", { d: "M0,0 L10,5 L0,10 z", fill: kind === "attack" ? "#c46a00" : kind === "block" ? "#1f5fbf" : "#b3261e" }))));
  root.append(defs);
  if (!facts || !facts.players.length) {
    root.append(svg("text", { x: 320, y: 230, "text-anchor": "middle", fill: "#6b6b70" }, t("noPlayers")));
    return;
  }
  const W = 640, H = 460, cx = W / 2, cy = H / 2;
  const players = facts.players;
  const n = players.length;
  const teams = facts.teams.map((team) => team.name);
  const colour = (player) => (player.team ? TEAM_COLOURS[teams.indexOf(player.team) % TEAM_COLOURS.length] : TEAM_COLOURS[(player.seat - 1) % TEAM_COLOURS.length]);
  root.append(svg("ellipse", { cx, cy, rx: 250, ry: 170, fill: "#f1efe6", stroke: "#d9d6cc" }));
  const where = new Map(); // a player's or an object's name -> its centre
  const angle = (i) => Math.PI / 2 + (2 * Math.PI * i) / n; // seat 1 at the bottom, then clockwise
  const layer = { objects: svg("g", {}), arrows: svg("g", {}), players: svg("g", {}) };
  players.forEach((player, i) => {
    const a = angle(i);
    const x = cx + 272 * Math.cos(a);
    const y = cy + 192 * Math.sin(a);
    where.set(player.name, { x, y, w: 96, h: 30 });
    const group = svg("g", { class: "player" + (player.name === facts.active ? " active" : ""), "data-player": player.name, "data-seat": player.seat, "data-team": player.team || "", "data-colour": colour(player) },
      svg("title", {}, `${player.name} (seat ${player.seat}${player.team ? ", " + player.team : ""})`),
      svg("rect", { x: x - 48, y: y - 15, width: 96, height: 30, rx: 15, fill: "#fff", stroke: colour(player) }),
      svg("text", { x, y: y + 5, "text-anchor": "middle", "font-size": 13, "font-weight": player.name === facts.active ? 700 : 500, fill: colour(player) },
        (player.name === facts.active ? "▶ " : "") + short(player.name, 11)));
    if (player.team) group.append(svg("text", { x, y: y + 27, "text-anchor": "middle", "font-size": 10, fill: colour(player) }, short(player.team, 16)));
    layer.players.append(group);
    // the player's objects, in rows between the player and the centre
    const own = facts.objects.filter((o) => o.controller === player.name);
    const perRow = n > 4 ? 3 : 5;
    const shown = own.slice(0, perRow * 2);
    shown.forEach((obj, k) => {
      const row = Math.floor(k / perRow);
      const inRow = Math.min(perRow, shown.length - row * perRow);
      const pos = (k % perRow) - (inRow - 1) / 2;
      const r = 0.56 - row * 0.22;
      const tx = -Math.sin(a), ty = Math.cos(a); // along the table's edge
      const ox = cx + 272 * r * Math.cos(a) + tx * pos * 98;
      const oy = cy + 192 * r * Math.sin(a) + ty * pos * 32;
      where.set(obj.name, { x: ox, y: oy, w: 94, h: 24 });
      const stats = obj.power !== null && obj.power !== undefined ? ` ${obj.power}/${obj.toughness}` : obj.loyalty !== null && obj.loyalty !== undefined ? ` [${obj.loyalty}]` : "";
      layer.objects.append(svg("g", { class: "obj " + obj.type, "data-object": obj.name },
        svg("title", {}, `${obj.name} (${obj.type}${stats}${obj.abilities.length ? ", " + obj.abilities.join(", ") : ""}), ${player.name}`),
        svg("rect", { x: ox - 47, y: oy - 12, width: 94, height: 24, rx: 4 }),
        svg("text", { x: ox, y: oy + 4, "text-anchor": "middle", "font-size": 10 }, short(obj.name, 15 - stats.length) + stats)));
    });
    if (own.length > shown.length) {
      const ox = cx + 272 * 0.22 * Math.cos(a), oy = cy + 192 * 0.22 * Math.sin(a);
      layer.objects.append(svg("text", { x: ox, y: oy, "text-anchor": "middle", "font-size": 10, fill: "#6b6b70" }, t("more", { n: own.length - shown.length })));
    }
  });
  const bad = illegalOf(facts, verdict);
  const arrow = (from, to, kind, illegal, label) => {
    const p = where.get(from), q = where.get(to);
    if (!p || !q) return;
    const dx = q.x - p.x, dy = q.y - p.y;
    const len = Math.hypot(dx, dy) || 1;
    const cut = (box) => Math.min(box.w / 2 / (Math.abs(dx / len) || 1e-9), box.h / 2 / (Math.abs(dy / len) || 1e-9)) + 3;
    const x1 = p.x + (dx / len) * cut(p), y1 = p.y + (dy / len) * cut(p);
    const x2 = q.x - (dx / len) * cut(q), y2 = q.y - (dy / len) * cut(q);
    const bend = kind === "block" ? -18 : 18;
    const mx = (x1 + x2) / 2 - (dy / len) * bend, my = (y1 + y2) / 2 + (dx / len) * bend;
    const cls = `arrow ${kind}${illegal ? " illegal" : ""}`;
    const path = svg("path", { class: cls, d: `M${x1},${y1} Q${mx},${my} ${x2},${y2}`, "marker-end": `url(#head-${illegal ? "illegal" : kind})`, "data-from": from, "data-to": to, "data-kind": kind, "data-illegal": illegal ? "true" : "false" },
      svg("title", {}, label));
    layer.arrows.append(path);
    if (illegal) layer.arrows.append(svg("text", { class: "cross", x: mx, y: my + 5, "text-anchor": "middle", "font-size": 16 }, "✗"));
  };
  for (const a of facts.attacks) arrow(a.attacker, a.target, "attack", bad.attacks.has(a.attacker + "\u0000" + a.target), `${a.attacker} → ${a.target}`);
  for (const b of facts.blocks) arrow(b.blocker, b.attacker, "block", bad.blocks.has(b.blocker + "\u0000" + b.attacker), `${b.blocker} ⊣ ${b.attacker}`);
  root.append(layer.objects, layer.arrows, layer.players);
}

// ---------------------------------------------------------------- the link

function saveHash(text) {
  const hash = "#scenario=" + encodeURIComponent(text);
  if (location.hash !== hash) history.replaceState(null, "", hash);
}

function fromHash() {
  const match = /^#scenario=(.*)$/s.exec(location.hash);
  if (!match) return null;
  try { return decodeURIComponent(match[1]); } catch (e) { return null; }
}

window.addEventListener("hashchange", () => {
  const text = fromHash();
  if (text !== null && text !== editor.value) setText(text);
});

$("share").addEventListener("click", async () => {
  try { await navigator.clipboard.writeText(location.href); $("status").textContent = t("copied"); } catch (e) { /* no clipboard here */ }
});

$("lang").addEventListener("change", (event) => {
  state.lang = event.target.value;
  try { localStorage.setItem("mtgkb-lang", state.lang); } catch (e) { /* private mode */ }
  translatePage();
  schedule(0);
});

async function loadExamples() {
  const nav = $("examples");
  try {
    const list = await (await api("/v1/examples")).json();
    for (const example of list) {
      nav.append(el("button", { type: "button", title: example.title, "data-example": example.name, onclick: () => setText(example.text) },
        example.name.replace(/^\d+_/, "").replace(/_/g, " ")));
    }
    return list;
  } catch (e) { return []; }
}

async function start() {
  try { state.lang = localStorage.getItem("mtgkb-lang") || "en"; } catch (e) { /* private mode */ }
  if (!WORDS[state.lang]) state.lang = "en";
  $("lang").value = state.lang;
  translatePage();
  const examples = await loadExamples();
  const text = fromHash();
  if (text !== null) setText(text);
  else if (examples.length) setText(examples.find((e) => e.name.startsWith("03")) ? examples.find((e) => e.name.startsWith("03")).text : examples[0].text);
  else setText("players: Ann, Ben\nask legal\n");
}

start();
