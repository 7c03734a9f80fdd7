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

// The page's words and the sentences of its answer cards, in English and
// Italian. A sentence names its values {like_this}; the server's own messages
// (violations, explanations) come in the chosen language already.
const WORDS = {
  en: {
    tagline: "Magic: The Gathering rules questions, answered from the Comprehensive Rules",
    language: "Language", share: "Copy link", copied: "Link copied: it opens this scenario", examples: "Examples:",
    scenario: "Scenario", table: "Table", answers: "Answers", attack: "attack", block: "block",
    illegalKey: "illegal", builder: "Builder", text: "Text",
    hint: "The answers follow the text as you type. The builder writes the text for you; questions such as ask can and ask fix can be added from the answers.",
    legal: "legal", illegal: "illegal", yes: "yes", no: "no",
    answering: "answering…", answered: "answered in {ms} ms", timeout: "stopped: {msg}",
    noAnswers: "No questions yet: add a line such as “ask legal”.",
    whyBlock: "why can't {a} block {b}?", whyAttack: "why can't {a} attack {b}?",
    fix: "closest legal play (ask fix)", rules: "Rules:", because: "because",
    repeated: "explained above", fact: "fact", forbiddenBy: "forbidden by {rules}",
    forbiddenOf: "forbidden by {rules} (the play of {objects})",
    errorAt: "line {line}, column {column}", noPlayers: "No players yet: add them in the builder or write “players: Ann, Ben”.",
    tableError: "The scenario has an error at line {line}: see the editor.",
    tableErrorNoLine: "The scenario has an error: see the editor.",
    more: "+{n} more", unreachable: "the server did not answer: {msg}",
    notModelled: "not modelled: {n} ({p})",
    // the sentences of the answers
    legalYes: "The declared play is legal.",
    legalNo: "The declared play is illegal:",
    defendingSome: "Defending players: {players}.", defendingNone: "No player is defending.",
    targetsSome: "{creature} can attack {targets}.", targetsNone: "{creature} can attack nothing.",
    or: " or ", and: " and ", list: ", ",
    attacksCount: "{ways} to declare attacks{atLeast}:", wayOne: "One legal way", wayMany: "{n} legal ways", wayOneLower: "one legal way", wayManyLower: "{n} legal ways",
    blocksCountFor: "{defender} has {ways} to declare blocks{atLeast}:",
    blocksCountOf: "{defenders} have {ways} to declare blocks{atLeast}:",
    blocksCount: "{ways} to declare blocks{atLeast}:",
    blocksTeamPart: "Each is {defender}'s part of a legal declaration of the team: the blocks of {teammates}, made with it, are not shown (805.10d).",
    atLeast: " (at least: the count stopped at the model cap)",
    noAttack: "no creature attacks", noBlock: "no creature blocks",
    attacksPair: "{a} attacks {b}", blocksPair: "{a} blocks {b}",
    notListed: "… and {n} more, not listed",
    ordersInAll: "{n} orders in all, each order of the players counted with each order of their choices",
    nothingPending: "Nothing is pending.",
    orderOne: "{lead}: {order}.", orderMany: "{lead}, one of these {n}:",
    orderLead: { order: "The order in which the players make their choices", "block-order": "The order in which the defending players declare their blocks",
      "damage-order": "The order in which the players assign combat damage", stack: "The order in which the triggered abilities are put on the stack" },
    chooses: "{player} chooses {what}.", makesChoices: "{by} makes {player}'s choices.", makesPlays: "{by} makes {player}'s plays.",
    knows: "{player} knows the choices of {who}.", knowsNone: "{player} knows no one's choices.",
    life: "{player} has {n} life.", teamLife: "Team {team} has {n} life.",
    lostNone: "Nobody has lost the game.", lostSome: "{players} lost the game.",
    triggeredOnce: "{source} triggered once.", triggered: "{source} triggered {n} times.",
    poison: "{player} has {counters}.", teamPoison: "Team {team} has {counters}.", counterOne: "one poison counter", counterMany: "{n} poison counters",
    commanderDamage: "{player} has taken {n} combat damage from the commander {source}.",
    destroyedSome: "Destroyed: {objects}.", destroyedNone: "No creature was destroyed.",
    illegalPlay: "Warning: the declared play is illegal ({rules}); the outcome is what would happen anyway.",
    actionsSome: "{player} may now: {kinds}.", actionsNone: "{player} may do nothing now.",
    actionKinds: { instant: "cast an instant", flash: "cast a spell with flash", ability: "activate an ability",
      "sorcery-speed ability": "activate an ability at sorcery speed", sorcery: "cast a sorcery", land: "play a land" },
    assignmentsCount: "{creature} can assign its combat damage in {ways}{atLeast}:",
    noDamage: "no combat damage", damageTo: "{n} to {to}",
    canPay: "{player} can pay {n} life.", cannotPay: "{player} can't pay {n} life.", payUnknown: "Whether {player} can pay {n} life: no answer.",
    canYes: "Yes: “{play}” is allowed.", canNo: "No: “{play}” is not allowed:",
    fixLegal: "The declared play is legal: nothing to change.",
    fixNone: "No legal declaration keeps the file's bands.",
    fixChanges: "The closest legal play makes {changes}{others}:",
    changeOne: "one change", changeMany: "{n} changes",
    othersSome: "; {count} declarations are equally close, this is one of them", othersMore: "; at least {count} declarations are equally close, this is one of them",
    fixRemove: "Remove “{what}”.", fixAdd: "Add “{what}”.", fixChange: "Change “{what}” to “{to}”.",
    fixChoice: "Choose (the file leaves it open): {what}.",
    remaining: "Still illegal, whatever the attacks, blocks and targets:",
    explainOf: "Why, for “ask {question}”:", explainAll: "Why:",
    cut: "The explanation was cut: it is bounded.", folded: "{n} unchanged steps left out",
    notSupported: "Not supported yet.",
    inconsistent: "The rule base contradicts itself: {atom} of {of} is {values}.",
    noAnswerSet: "The rule base has no answer set for this file.",
    noneWord: "nobody", nothingWord: "nothing",
    // the builder
    newScenario: "New scenario",
    builderHint: "Build the scenario here; the text is written for you. Click a creature on the table, then the player or planeswalker it attacks, or the attacker it blocks.",
    game: "Game", gameDefault: "(by the number of players)", option: "option", optionNone: "(none)", players: "Players", addPlayer: "+ player",
    playerName: "name", team: "team", active: "active player", removeWord: "remove",
    objects: "Creatures and permanents", addObject: "+ add", objectName: "name", controller: "controller",
    kind: "kind", power: "power", toughness: "toughness", loyalty: "loyalty", abilities: "abilities",
    addAbility: "+ ability", combat: "Attacks and blocks", noDeclarations: "None yet: click on the table.",
    picked: "{name} picked: now click what it attacks or blocks.",
    questions: "Questions", resolve: "+ combat damage and ask outcome", fixFirst: "The text has an error: add players here or fix the text to build the rest.",
    kinds: { creature: "creature", planeswalker: "planeswalker", battle: "battle", land: "land" },
    outcomeShown: "after ask outcome", lostMark: "lost", destroyedMark: "destroyed",
  },
  it: {
    tagline: "Domande sulle regole di Magic: The Gathering, con le risposte delle Regole Complete",
    language: "Lingua", share: "Copia il link", copied: "Link copiato: apre questo scenario", examples: "Esempi:",
    scenario: "Scenario", table: "Tavolo", answers: "Risposte", attack: "attacco", block: "blocco",
    illegalKey: "illegale", builder: "Costruttore", text: "Testo",
    hint: "Le risposte seguono il testo mentre scrivi. Il costruttore scrive il testo per te; domande come ask can e ask fix si aggiungono dalle risposte.",
    legal: "legale", illegal: "illegale", yes: "sì", no: "no",
    answering: "sto rispondendo…", answered: "risposto in {ms} ms", timeout: "fermato: {msg}",
    noAnswers: "Nessuna domanda: aggiungi una riga come “ask legal”.",
    whyBlock: "perché {a} non può bloccare {b}?", whyAttack: "perché {a} non può attaccare {b}?",
    fix: "la giocata legale più vicina (ask fix)", rules: "Regole:", because: "perché",
    repeated: "spiegato sopra", fact: "fatto", forbiddenBy: "vietato da {rules}",
    forbiddenOf: "vietato da {rules} (la giocata di {objects})",
    errorAt: "riga {line}, colonna {column}", noPlayers: "Ancora nessun giocatore: aggiungili nel costruttore o scrivi “players: Ann, Ben”.",
    tableError: "Lo scenario ha un errore alla riga {line}: vedi l'editor.",
    tableErrorNoLine: "Lo scenario ha un errore: vedi l'editor.",
    more: "altri {n}", unreachable: "il server non ha risposto: {msg}",
    notModelled: "non modellata: {n} ({p})",
    legalYes: "La giocata dichiarata è legale.",
    legalNo: "La giocata dichiarata è illegale:",
    defendingSome: "Giocatori in difesa: {players}.", defendingNone: "Nessun giocatore è in difesa.",
    targetsSome: "{creature} può attaccare {targets}.", targetsNone: "{creature} non può attaccare niente.",
    or: " o ", and: " e ", list: ", ",
    attacksCount: "{ways} di dichiarare gli attacchi{atLeast}:", wayOne: "Un modo legale", wayMany: "{n} modi legali", wayOneLower: "un modo legale", wayManyLower: "{n} modi legali",
    blocksCountFor: "{defender} ha {ways} di dichiarare i blocchi{atLeast}:",
    blocksCountOf: "{defenders} hanno {ways} di dichiarare i blocchi{atLeast}:",
    blocksCount: "{ways} di dichiarare i blocchi{atLeast}:",
    blocksTeamPart: "Ognuna è la parte di {defender} di una dichiarazione legale della squadra: i blocchi di {teammates}, fatti insieme, non sono mostrati (805.10d).",
    atLeast: " (almeno: il conteggio si è fermato al limite di modelli)",
    noAttack: "nessuna creatura attacca", noBlock: "nessuna creatura blocca",
    attacksPair: "{a} attacca {b}", blocksPair: "{a} blocca {b}",
    notListed: "… e altri {n}, non elencati",
    ordersInAll: "{n} ordini in tutto, ogni ordine dei giocatori contato con ogni ordine delle loro scelte",
    nothingPending: "Nulla è in sospeso.",
    orderOne: "{lead}: {order}.", orderMany: "{lead}, uno di questi {n}:",
    orderLead: { order: "L'ordine in cui i giocatori fanno le loro scelte", "block-order": "L'ordine in cui i giocatori in difesa dichiarano i blocchi",
      "damage-order": "L'ordine in cui i giocatori assegnano il danno da combattimento", stack: "L'ordine in cui le abilità innescate vengono messe in pila" },
    chooses: "{player} sceglie {what}.", makesChoices: "{by} fa le scelte di {player}.", makesPlays: "{by} fa le giocate di {player}.",
    knows: "{player} conosce le scelte di {who}.", knowsNone: "{player} non conosce le scelte di nessuno.",
    life: "{player} ha {n} punti vita.", teamLife: "La squadra {team} ha {n} punti vita.",
    lostNone: "Nessuno ha perso la partita.", lostSome: "{players}: ha perso la partita.",
    triggeredOnce: "{source} si è innescato una volta.", triggered: "{source} si è innescato {n} volte.",
    poison: "{player} ha {counters}.", teamPoison: "La squadra {team} ha {counters}.", counterOne: "un segnalino veleno", counterMany: "{n} segnalini veleno",
    commanderDamage: "{player} ha subito {n} danni da combattimento dal comandante {source}.",
    destroyedSome: "Distrutte: {objects}.", destroyedNone: "Nessuna creatura è stata distrutta.",
    illegalPlay: "Attenzione: la giocata dichiarata è illegale ({rules}); l'esito è quello che accadrebbe comunque.",
    actionsSome: "{player} ora può: {kinds}.", actionsNone: "{player} ora non può fare niente.",
    actionKinds: { instant: "lanciare un istantaneo", flash: "lanciare una magia con lampo", ability: "attivare un'abilità",
      "sorcery-speed ability": "attivare un'abilità a velocità stregoneria", sorcery: "lanciare una stregoneria", land: "giocare una terra" },
    assignmentsCount: "{creature} può assegnare il suo danno da combattimento in {ways}{atLeast}:",
    noDamage: "nessun danno da combattimento", damageTo: "{n} a {to}",
    canPay: "{player} può pagare {n} punti vita.", cannotPay: "{player} non può pagare {n} punti vita.", payUnknown: "Se {player} possa pagare {n} punti vita: nessuna risposta.",
    canYes: "Sì: “{play}” è permesso.", canNo: "No: “{play}” non è permesso:",
    fixLegal: "La giocata dichiarata è legale: nulla da cambiare.",
    fixNone: "Nessuna dichiarazione legale mantiene le bande del file.",
    fixChanges: "La giocata legale più vicina fa {changes}{others}:",
    changeOne: "una modifica", changeMany: "{n} modifiche",
    othersSome: "; {count} dichiarazioni sono ugualmente vicine, questa è una di esse", othersMore: "; almeno {count} dichiarazioni sono ugualmente vicine, questa è una di esse",
    fixRemove: "Togli “{what}”.", fixAdd: "Aggiungi “{what}”.", fixChange: "Cambia “{what}” in “{to}”.",
    fixChoice: "Scegli (il file lo lascia aperto): {what}.",
    remaining: "Resta illegale, qualunque siano attacchi, blocchi e bersagli:",
    explainOf: "Perché, per “ask {question}”:", explainAll: "Perché:",
    cut: "La spiegazione è stata tagliata: ha un limite.", folded: "{n} passi invariati omessi",
    notSupported: "Non ancora supportato.",
    inconsistent: "La base di regole si contraddice: {atom} di {of} vale {values}.",
    noAnswerSet: "La base di regole non ha alcun answer set per questo file.",
    noneWord: "nessuno", nothingWord: "niente",
    newScenario: "Nuovo scenario",
    builderHint: "Costruisci qui lo scenario; il testo viene scritto per te. Fai clic su una creatura sul tavolo, poi sul giocatore o planeswalker che attacca, o sull'attaccante che blocca.",
    game: "Partita", gameDefault: "(secondo il numero di giocatori)", option: "opzione", optionNone: "(nessuna)", players: "Giocatori", addPlayer: "+ giocatore",
    playerName: "nome", team: "squadra", active: "giocatore attivo", removeWord: "togli",
    objects: "Creature e permanenti", addObject: "+ aggiungi", objectName: "nome", controller: "controllore",
    kind: "tipo", power: "forza", toughness: "costituzione", loyalty: "fedeltà", abilities: "abilità",
    addAbility: "+ abilità", combat: "Attacchi e blocchi", noDeclarations: "Ancora nessuno: fai clic sul tavolo.",
    picked: "{name} scelta: ora fai clic su ciò che attacca o blocca.",
    questions: "Domande", resolve: "+ danno da combattimento e ask outcome", fixFirst: "Il testo ha un errore: aggiungi qui i giocatori o correggi il testo per costruire il resto.",
    kinds: { creature: "creatura", planeswalker: "planeswalker", battle: "battaglia", land: "terra" },
    outcomeShown: "dopo ask outcome", lostMark: "ha perso", destroyedMark: "distrutta",
  },
};

const $ = (id) => document.getElementById(id);
const editor = $("editor");
const gutter = $("gutter");
const state = { lang: "en", seq: 0, timer: null, facts: null, factsText: null, run: null, error: null, vocabulary: null };

function word(key) {
  const words = WORDS[state.lang] || WORDS.en;
  return key in words ? words[key] : WORDS.en[key];
}

function t(key, values) {
  const text = word(key);
  if (typeof text !== "string") return key;
  // one pass, so that a name such as "{b}" stays a name
  return text.replace(/\{(\w+)\}/g, (m, k) => (values && k in values ? String(values[k]) : m));
}

// "A, B and C" in the page's language
function joined(items, last = "and") {
  const list = items.map(String);
  if (list.length < 2) return list.join("");
  return list.slice(0, -1).join(t("list")) + t(last) + list[list.length - 1];
}

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") node.className = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v);
  }
  for (const child of children.flat(Infinity)) {
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
  state.error = body;
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
  state.factsText = facts.status === 200 ? text : null;
  state.lines = text.split("\n");
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
  drawTable(state.facts, state.run);
  drawBuilder();
  document.body.dataset.answered = String(seq);
}

// ---------------------------------------------------------------- the link

// The scenario travels in the address's fragment (never sent to a server):
// `#z=` the text deflated and base64url-encoded where the browser can
// compress (CompressionStream), else `#scenario=` the text itself. Both are read.
function base64url(bytes) {
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function unbase64url(text) {
  const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

async function squeezed(text, direction) {
  const Stream = direction === "in" ? CompressionStream : DecompressionStream;
  const source = direction === "in" ? new TextEncoder().encode(text) : unbase64url(text);
  const stream = new Blob([source]).stream().pipeThrough(new Stream("deflate-raw"));
  const bytes = new Uint8Array(await new Response(stream).arrayBuffer());
  return direction === "in" ? base64url(bytes) : new TextDecoder().decode(bytes);
}

const COMPRESSING = typeof CompressionStream === "function" && typeof DecompressionStream === "function";

async function linkOf(text) {
  if (COMPRESSING) {
    try { return "#z=" + (await squeezed(text, "in")); } catch (e) { /* fall back to the text */ }
  }
  return "#scenario=" + encodeURIComponent(text);
}

async function saveHash(text) {
  const hash = await linkOf(text);
  if (editor.value !== text) return; // a newer text has its own link
  state.hash = hash;
  if (location.hash !== hash) history.replaceState(null, "", location.pathname + location.search + hash);
}

async function fromHash() {
  const plain = /^#scenario=(.*)$/s.exec(location.hash);
  if (plain) {
    try { return decodeURIComponent(plain[1]); } catch (e) { return null; }
  }
  const packed = /^#z=([A-Za-z0-9_-]*)$/.exec(location.hash);
  if (packed && COMPRESSING) {
    try { return await squeezed(packed[1], "out"); } catch (e) { return null; }
  }
  return null;
}

window.addEventListener("hashchange", async () => {
  if (location.hash === state.hash) return;
  const text = await fromHash();
  if (text !== null && text !== editor.value) setText(text);
});

$("share").addEventListener("click", async () => {
  const url = location.origin + location.pathname + (await linkOf(editor.value));
  $("share").dataset.link = url;
  try { await navigator.clipboard.writeText(url); } catch (e) { /* no clipboard here: the link is in the address bar */ }
  $("status").textContent = t("copied");
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

async function loadVocabulary() {
  try { state.vocabulary = await (await api("/v1/vocabulary")).json(); } catch (e) { state.vocabulary = null; }
}

async function start() {
  try { state.lang = localStorage.getItem("mtgkb-lang") || "en"; } catch (e) { /* private mode */ }
  if (!WORDS[state.lang]) state.lang = "en";
  $("lang").value = state.lang;
  translatePage();
  const [examples] = await Promise.all([loadExamples(), loadVocabulary()]);
  const text = await fromHash();
  const first = examples.find((e) => e.name.startsWith("03")) || examples[0];
  if (text !== null) setText(text);
  else if (first) setText(first.text);
  else setText("players: Ann, Ben\nask legal\n");
}

// the other scripts of the page (answers.js, table.js, builder.js) are read by now
document.addEventListener("DOMContentLoaded", start);
