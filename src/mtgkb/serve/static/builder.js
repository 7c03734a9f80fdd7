// The builder beside the editor: a judge picks the game, the players and
// their teams, the creatures and other permanents with abilities from the
// vocabulary of the rule base (GET /v1/vocabulary), and declares attacks and
// blocks by clicking on the table. Each change is a change of the text, line
// by line (comments, events and questions stay as written); the parsed
// scenario (/v1/facts) then redraws the builder, so the text stays the one
// truth. The builder judges nothing: the answers do.
"use strict";

const PLAYER_NAME = /^[\p{L}_][\p{L}\p{N}_]*$/u;
const SETUP = { game: /^\s*game\s*:/i, option: /^\s*option\s*:/i, players: /^\s*players\s*:/i, active: /^\s*active\s*:/i, team: /^\s*team\s+[^:]+:/i };
const OBJECT_LINE = /^\s*\S+\s+controls\s+(a\s+|an\s+)?(creature|planeswalker|battle|land)\b/i;
const ATTACK_LINE = /^\s*"(?:[^"\\]|\\.)*"\s+attacks\s/i;
const BLOCK_LINE = /^\s*"(?:[^"\\]|\\.)*"\s+blocks\s/i;
const builder = { abilities: [], kind: "creature", name: "", power: "2", toughness: "2", loyalty: "3", controller: null };

function playerWord(name) {
  return PLAYER_NAME.test(name) ? name : quote(name);
}

// ---------------------------------------------------------------- edits of the text

function textLines() {
  const text = editor.value;
  const lines = text.split("\n");
  if (lines.length && lines[lines.length - 1] === "") lines.pop();
  return lines;
}

function writeLines(lines) {
  setText(lines.join("\n") + "\n");
}

function lastIndex(lines, ...patterns) {
  for (let i = lines.length - 1; i >= 0; i--) if (patterns.some((p) => p.test(lines[i]))) return i;
  return -1;
}

// where a setup line goes: after the comments at the top, in the order game, players, team, active
function setupIndex(lines, after) {
  const found = lastIndex(lines, ...after.map((k) => SETUP[k]));
  if (found >= 0) return found + 1;
  let i = 0;
  while (i < lines.length && /^\s*(#.*)?$/.test(lines[i])) i++;
  return i;
}

function setSetupLine(key, value) {
  const lines = textLines();
  const at = lines.findIndex((l) => SETUP[key].test(l));
  const line = value ? `${key}: ${value}` : null;
  if (at >= 0) {
    if (line) lines[at] = line; else lines.splice(at, 1);
  } else if (line) {
    const after = { game: [], option: ["game"], players: ["game", "option"], active: ["game", "option", "players", "team"] }[key];
    lines.splice(setupIndex(lines, after), 0, line);
  }
  writeLines(lines);
}

function setPlayers(players) {
  // players: [{name, team}] in seating order
  const lines = textLines().filter((l) => !SETUP.team.test(l));
  const names = players.map((p) => p.name);
  let at = lines.findIndex((l) => SETUP.players.test(l));
  const line = `players: ${names.join(", ")}`;
  if (at >= 0) lines[at] = line;
  else { at = setupIndex(lines, ["game", "option"]); lines.splice(at, 0, line); }
  const teams = new Map();
  for (const p of players) if (p.team) teams.set(p.team, [...(teams.get(p.team) || []), p.name]);
  lines.splice(at + 1, 0, ...[...teams].map(([team, members]) => `team ${team}: ${members.join(", ")}`));
  const active = lines.findIndex((l) => SETUP.active.test(l));
  if (active >= 0 && !names.includes(lines[active].split(":")[1].trim())) lines.splice(active, 1);
  if (active < 0 && names.length) lines.splice(setupIndex(lines, ["game", "players", "team"]), 0, `active: ${names[0]}`);
  writeLines(lines);
}

function insertLine(line, ...places) {
  const lines = textLines();
  let at = -1;
  for (const patterns of places) {
    at = lastIndex(lines, ...patterns);
    if (at >= 0) break;
  }
  lines.splice(at >= 0 ? at + 1 : setupIndex(lines, ["game", "players", "team", "active"]), 0, line);
  writeLines(lines);
}

function removeLines(numbers) {
  const drop = new Set(numbers);
  writeLines(textLines().filter((_, i) => !drop.has(i + 1)));
}

function objectLine(o) {
  const stats = o.kind === "creature" ? ` ${o.power}/${o.toughness}` : o.kind === "planeswalker" ? ` loyalty ${o.loyalty}` : o.kind === "battle" ? ` defense ${o.loyalty}` : "";
  return `${playerWord(o.controller)} controls ${o.kind} ${quote(o.name)}${stats}${o.abilities.length ? " with " + o.abilities.join(", ") : ""}`;
}

function declare(from, to, kind) {
  const facts = state.facts;
  const same = kind === "attack" ? facts.attacks.find((a) => a.attacker === from && a.target === to) : facts.blocks.find((b) => b.blocker === from && b.attacker === to);
  if (same) { removeLines([same.line]); return; } // a second click takes it back
  if (kind === "attack") insertLine(`${quote(from)} attacks ${targetWord(to)}`, [ATTACK_LINE], [OBJECT_LINE]);
  else insertLine(`${quote(from)} blocks ${quote(to)}`, [BLOCK_LINE], [ATTACK_LINE], [OBJECT_LINE]);
}

// a click on the table: a creature, then what it attacks (a player, a
// planeswalker, a battle) or the creature it blocks
function tableClicked(name, kind) {
  if (!state.facts || !editable()) return;
  const objects = new Map(state.facts.objects.map((o) => [o.name, o]));
  const picked = state.picked;
  if (!picked) {
    if (kind === "object" && objects.get(name) && objects.get(name).type === "creature") {
      state.picked = name;
      $("builder-note").textContent = t("picked", { name });
      drawTable(state.facts, state.run);
    }
    return;
  }
  state.picked = null;
  $("builder-note").textContent = "";
  if (name === picked) { drawTable(state.facts, state.run); return; }
  const target = objects.get(name);
  if (kind === "player" || (target && target.type !== "creature")) declare(picked, name, "attack");
  else if (target) declare(picked, name, "block");
}

function editable() {
  return state.facts && state.factsText === editor.value && !state.error;
}

// ---------------------------------------------------------------- the form

const field = (label, control) => el("label", { class: "b-field" }, el("span", {}, label), control);

function playerRows(facts) {
  const players = facts.players.map((p) => ({ name: p.name, team: p.team || "" }));
  const rows = players.map((p, i) => {
    const team = el("input", { type: "text", value: p.team, placeholder: t("team"), "aria-label": `${t("team")} ${p.name}`, list: "b-teams", "data-team-of": p.name, size: "8" });
    team.addEventListener("change", () => { players[i].team = team.value.trim(); setPlayers(players); });
    const remove = el("button", { type: "button", class: "b-remove", title: t("removeWord"), "aria-label": `${t("removeWord")} ${p.name}`,
      onclick: () => setPlayers(players.filter((_, k) => k !== i)) }, "×");
    return el("li", { "data-player": p.name }, el("span", { class: "b-name" }, p.name), team, remove);
  });
  const name = el("input", { type: "text", id: "b-player-name", placeholder: t("playerName"), "aria-label": t("playerName"), size: "10" });
  const add = () => {
    const value = name.value.trim();
    if (!PLAYER_NAME.test(value) || players.some((p) => p.name === value)) { name.classList.add("invalid"); return; }
    setPlayers([...players, { name: value, team: "" }]);
  };
  name.addEventListener("keydown", (event) => { if (event.key === "Enter") { event.preventDefault(); add(); } });
  const teams = el("datalist", { id: "b-teams" }, facts.teams.map((team) => el("option", { value: team.name })));
  return el("fieldset", {}, el("legend", {}, t("players")), el("ul", { class: "b-list" }, rows),
    el("div", { class: "b-add" }, name, el("button", { type: "button", id: "b-add-player", onclick: add }, t("addPlayer"))), teams);
}

function gameRow(facts) {
  const vocabulary = state.vocabulary || { games: [] };
  const game = el("select", { id: "b-game", "aria-label": t("game") },
    el("option", { value: "" }, t("gameDefault")), vocabulary.games.map((g) => el("option", { value: g }, g)));
  game.value = facts.game || "";
  game.addEventListener("change", () => setSetupLine("game", game.value));
  // one option line (`range-of-influence` takes a number: written in the text)
  const options = (vocabulary.options || []).filter((o) => o !== "range-of-influence");
  const option = el("select", { id: "b-option", "aria-label": t("option") },
    el("option", { value: "" }, t("optionNone")), options.map((o) => el("option", { value: o }, o)));
  option.value = (facts.options || [])[0] || "";
  option.addEventListener("change", () => setSetupLine("option", option.value));
  const active = el("select", { id: "b-active", "aria-label": t("active") }, facts.players.map((p) => el("option", { value: p.name }, p.name)));
  active.value = facts.active || "";
  active.addEventListener("change", () => setSetupLine("active", active.value));
  return el("div", { class: "b-row" }, field(t("game"), game), field(t("option"), option), field(t("active"), active));
}

function objectRows(facts) {
  const rows = facts.objects.map((o) => {
    const stats = o.power !== null && o.power !== undefined ? ` ${o.power}/${o.toughness}` : o.loyalty !== null && o.loyalty !== undefined ? ` (${o.loyalty})` : "";
    const removing = () => {
      const lines = [o.line, ...facts.attacks.filter((a) => a.attacker === o.name || a.target === o.name).map((a) => a.line),
        ...facts.blocks.filter((b) => b.blocker === o.name || b.attacker === o.name).map((b) => b.line)];
      removeLines(lines);
    };
    return el("li", { "data-object": o.name }, el("span", { class: "b-owner" }, o.controller + ":"), " ", el("b", {}, o.name), stats,
      (o.written || o.abilities).length ? el("span", { class: "b-abilities" }, " · " + (o.written || o.abilities).join(", ")) : null,
      el("button", { type: "button", class: "b-remove", "aria-label": `${t("removeWord")} ${o.name}`, onclick: removing }, "×"));
  });
  const vocabulary = state.vocabulary || { abilities: [], ability_examples: [], object_kinds: ["creature"] };
  const controller = el("select", { id: "b-controller", "aria-label": t("controller") }, facts.players.map((p) => el("option", { value: p.name }, p.name)));
  if (builder.controller && facts.players.some((p) => p.name === builder.controller)) controller.value = builder.controller;
  controller.addEventListener("change", () => { builder.controller = controller.value; });
  const kind = el("select", { id: "b-kind", "aria-label": t("kind") }, vocabulary.object_kinds.map((k) => el("option", { value: k }, (word("kinds") || {})[k] || k)));
  kind.value = builder.kind;
  const draft = (id, attrs, key) => {
    const input = el("input", { id, ...attrs, value: builder[key] });
    input.addEventListener("input", () => { builder[key] = input.value; input.classList.remove("invalid"); });
    return input;
  };
  const name = draft("b-object-name", { type: "text", placeholder: t("objectName"), "aria-label": t("objectName"), size: "14" }, "name");
  const power = draft("b-power", { type: "number", min: "-99", max: "99", "aria-label": t("power"), title: t("power"), class: "b-num" }, "power");
  const toughness = draft("b-toughness", { type: "number", min: "-99", max: "99", "aria-label": t("toughness"), title: t("toughness"), class: "b-num" }, "toughness");
  const loyalty = draft("b-loyalty", { type: "number", min: "0", max: "99", "aria-label": t("loyalty"), title: t("loyalty"), class: "b-num" }, "loyalty");
  const showStats = () => {
    power.hidden = toughness.hidden = kind.value !== "creature";
    loyalty.hidden = !(kind.value === "planeswalker" || kind.value === "battle");
  };
  kind.addEventListener("change", () => { builder.kind = kind.value; showStats(); });
  showStats();
  const chips = el("span", { class: "b-chips" }, builder.abilities.map((a, i) =>
    el("button", { type: "button", class: "b-chip", title: t("removeWord"), onclick: () => { builder.abilities.splice(i, 1); drawBuilder(); } }, a + " ×")));
  const ability = el("input", { type: "text", id: "b-ability", list: "b-abilities", placeholder: t("abilities"), "aria-label": t("abilities"), size: "14" });
  const addAbility = () => {
    const value = ability.value.trim().replace(/\s+/g, " ");
    if (value && !builder.abilities.includes(value)) builder.abilities.push(value);
    drawBuilder();
    $("b-ability").focus();
  };
  ability.addEventListener("keydown", (event) => { if (event.key === "Enter") { event.preventDefault(); addAbility(); } });
  const list = el("datalist", { id: "b-abilities" }, [...vocabulary.abilities, ...vocabulary.ability_examples].map((a) => el("option", { value: a })));
  const add = () => {
    const value = name.value.trim();
    if (!value || facts.objects.some((o) => o.name === value)) { name.classList.add("invalid"); return; }
    const line = objectLine({ controller: controller.value, kind: kind.value, name: value, power: power.value || 0, toughness: toughness.value || 0, loyalty: loyalty.value || 0, abilities: builder.abilities });
    builder.abilities = [];
    builder.name = "";
    insertLine(line, [OBJECT_LINE], [SETUP.active, SETUP.team, SETUP.players]);
  };
  name.addEventListener("keydown", (event) => { if (event.key === "Enter") { event.preventDefault(); add(); } });
  return el("fieldset", {}, el("legend", {}, t("objects")), el("ul", { class: "b-list" }, rows),
    el("div", { class: "b-add" }, controller, kind, name, power, toughness, loyalty),
    el("div", { class: "b-add" }, ability, el("button", { type: "button", id: "b-add-ability", onclick: addAbility }, t("addAbility")), chips, list),
    el("div", { class: "b-add" }, el("button", { type: "button", id: "b-add-object", onclick: add }, t("addObject"))));
}

function combatRows(facts) {
  const rows = [
    ...facts.attacks.map((a) => ({ text: t("attacksPair", { a: a.attacker, b: a.target }), line: a.line, kind: "attack" })),
    ...facts.blocks.map((b) => ({ text: t("blocksPair", { a: b.blocker, b: b.attacker }), line: b.line, kind: "block" })),
  ].map((d) => el("li", { class: "b-" + d.kind, "data-line": d.line }, d.text,
    el("button", { type: "button", class: "b-remove", "aria-label": `${t("removeWord")} ${d.text}`, onclick: () => removeLines([d.line]) }, "×")));
  return el("fieldset", {}, el("legend", {}, t("combat")),
    rows.length ? el("ul", { class: "b-list" }, rows) : el("p", { class: "hint" }, t("noDeclarations")),
    el("p", { id: "builder-note", class: "hint", "aria-live": "polite" }, state.picked ? t("picked", { name: state.picked }) : ""));
}

function questionRow() {
  const asks = ["ask legal", "ask blocks", "ask fix", "ask explain legal"];
  const resolve = () => {
    if (!textLines().some((l) => /^\s*combat damage\s*$/i.test(l))) insertLine("combat damage", [BLOCK_LINE], [ATTACK_LINE], [OBJECT_LINE]);
    appendQuestion("ask outcome");
  };
  return el("fieldset", {}, el("legend", {}, t("questions")),
    el("div", { class: "b-add" }, asks.map((line) => el("button", { type: "button", class: "b-ask", "data-ask": line, onclick: () => appendQuestion(line) }, line)),
      el("button", { type: "button", id: "b-resolve", class: "b-ask", onclick: resolve }, t("resolve"))));
}

// The setup lines as the text writes them, for a text the parser refuses
// (no players yet, one player): the builder can still add players and teams.
function textSetup() {
  const lines = textLines();
  const value = (re) => {
    const line = lines.find((l) => re.test(l));
    return line ? line.slice(line.indexOf(":") + 1).split("#")[0].trim() : "";
  };
  const teams = lines.filter((l) => SETUP.team.test(l)).map((l) => {
    const [, name, members] = /^\s*team\s+([^:]+):(.*)$/i.exec(l);
    return { name: name.trim(), members: members.split("#")[0].split(",").map((m) => m.trim()).filter(Boolean) };
  });
  const teamOf = (name) => (teams.find((team) => team.members.includes(name)) || {}).name || null;
  const names = value(SETUP.players).split(",").map((n) => n.trim()).filter(Boolean);
  return { game: value(SETUP.game) || null, options: [value(SETUP.option)].filter(Boolean), active: value(SETUP.active) || null, teams,
    players: names.map((name, i) => ({ name, seat: i + 1, team: teamOf(name) })), objects: [], attacks: [], blocks: [] };
}

function newScenario() {
  state.picked = null;
  setText("");
}

function drawBuilder() {
  const box = $("builder");
  if (!box) return;
  const focused = document.activeElement && document.activeElement.id;
  box.replaceChildren(el("div", { class: "b-row" }, el("p", { class: "hint" }, t("builderHint")),
    el("button", { type: "button", id: "b-new", onclick: newScenario }, t("newScenario"))));
  const ready = editable();
  const setup = ready ? state.facts : textSetup();
  if (state.picked && !setup.objects.some((o) => o.name === state.picked)) state.picked = null;
  box.append(gameRow(setup), playerRows(setup));
  if (!ready) {
    if (editor.value.trim()) box.append(el("p", { class: "hint bad", id: "builder-blocked" }, t("fixFirst")));
  } else if (setup.players.length) box.append(objectRows(setup), combatRows(setup), questionRow());
  if (focused && $(focused) && box.contains($(focused))) $(focused).focus();
}
