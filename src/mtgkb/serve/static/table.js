// The drawing of the table: the players seated around it in turn order (seat
// 1 at the bottom, then clockwise), what each controls in front of them with
// its full name, power and toughness, abilities and counters, the attacks and
// blocks as arrows (illegal ones dashed and crossed), and after `ask outcome`
// the life totals, poison counters, losses and destroyed creatures.
// Clicking a creature, then a player or another creature, declares an attack
// or a block (builder.js).
"use strict";

const SVG = "http://www.w3.org/2000/svg";
const TEAM_COLOURS = ["#5b3fa0", "#0f7b6c", "#b35c00", "#a0325b", "#3a6ea5", "#6a7f1f", "#7a4b2a", "#444"];
// the drawing's size: wide, or tall and narrow on a phone (the players at the
// sides then sit above a column of their permanents)
let W, H, CX, CY, RX, RY, PHONE;
function geometry(phone) {
  PHONE = phone;
  [W, H, RX, RY] = phone ? [440, 660, 150, 250] : [760, 560, 300, 200];
  CX = W / 2;
  CY = H / 2;
}
geometry(false);
const side = (a) => PHONE && Math.abs(Math.cos(a)) > 0.6;

function svg(tag, attrs, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v);
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

// a key handler doing `action` on Enter or Space, as a click would
const pressed = (action) => (event) => {
  if (event.key === "Enter" || event.key === " ") { event.preventDefault(); action(); }
};

// about how wide a text is drawn at `size` px (the page measures nothing)
const widthOf = (text, size) => text.length * size * 0.57;

// `text` in lines of at most `max` characters, broken at spaces
function wrapped(text, max) {
  const lines = [];
  let line = "";
  for (const part of text.split(" ")) {
    if (line && (line + " " + part).length > max) { lines.push(line); line = part; } else line = line ? line + " " + part : part;
  }
  if (line) lines.push(line);
  return lines.length ? lines : [""];
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

function outcomeOf(run) {
  const found = ((run && run.answers) || []).filter((a) => a.ask === "outcome" && a.life);
  return found.length ? found[found.length - 1] : null;
}

// The lines of an object's card: its name, what it is, its abilities.
function cardOf(obj, destroyed, narrow) {
  const max = narrow ? 18 : 24;
  const lines = wrapped(obj.name, max).map((text) => ({ text, cls: "name" }));
  const kinds = word("kinds") || {};
  let stats = "";
  if (obj.power !== null && obj.power !== undefined) stats = `${obj.power}/${obj.toughness}`;
  if (obj.type !== "creature") stats = [kinds[obj.type] || obj.type, obj.loyalty !== null && obj.loyalty !== undefined ? `${t("loyalty")} ${obj.loyalty}` : "", obj.defense !== null && obj.defense !== undefined ? `${obj.defense}` : "", stats].filter(Boolean).join(" · ");
  if (stats) lines.push({ text: stats, cls: "stats" });
  const abilities = (obj.written && obj.written.length === obj.abilities.length ? obj.written : obj.abilities).join(", ");
  if (abilities) for (const text of wrapped(abilities, max + 4)) lines.push({ text, cls: "abilities" });
  if (destroyed) lines.push({ text: t("destroyedMark"), cls: "destroyed-mark" });
  const w = Math.min(narrow ? 124 : 170, Math.max(76, ...lines.map((l) => widthOf(l.text, l.cls === "name" ? 11 : 10) + 14)));
  return { lines, w, h: 8 + 12.5 * lines.length };
}

function message(root, text, cls) {
  root.append(svg("foreignObject", { x: 20, y: H / 2 - 80, width: W - 40, height: 160 },
    el("div", { class: "table-message " + (cls || "") }, text)));
}

function drawTable(facts, run) {
  const root = $("table");
  geometry($("drawing").clientWidth > 0 && $("drawing").clientWidth < 560);
  root.setAttribute("viewBox", `0 0 ${W} ${H}`);
  root.replaceChildren();
  root.append(svg("defs", {},
    ["attack", "block", "illegal"].map((kind) => svg("marker", { id: "head-" + kind, viewBox: "0 0 10 10", refX: "9", refY: "5", markerWidth: "7", markerHeight: "7", orient: "auto-start-reverse" },
      svg("path", { d: "M0,0 L10,5 L0,10 z", class: "head " + kind })))));
  $("legend-outcome").hidden = true;
  if (!facts) {
    if (!editor.value.replace(/#.*$/gm, "").trim()) {
      root.dataset.state = "empty";
      message(root, t("noPlayers"));
    } else if (state.error) {
      root.dataset.state = "error";
      message(root, state.error.line ? t("tableError", state.error) : t("tableErrorNoLine"), "bad");
    } else root.dataset.state = "empty";
    return;
  }
  if (!facts.players.length) {
    root.dataset.state = "empty";
    message(root, t("noPlayers"));
    return;
  }
  root.dataset.state = "drawn";
  const verdict = run ? run.verdict : null;
  const outcome = outcomeOf(run);
  const destroyed = new Set(outcome ? outcome.destroyed || [] : []);
  const players = facts.players;
  const n = players.length;
  const narrow = n > 4 || PHONE;
  const teams = facts.teams.map((team) => team.name);
  const colour = (player) => (player.team ? TEAM_COLOURS[teams.indexOf(player.team) % TEAM_COLOURS.length] : TEAM_COLOURS[(player.seat - 1) % TEAM_COLOURS.length]);
  root.append(svg("ellipse", { cx: CX, cy: CY, rx: RX, ry: RY, class: "felt" }));
  const angle = (i) => Math.PI / 2 + (2 * Math.PI * i) / n; // seat 1 at the bottom, then clockwise
  const where = new Map(); // a player's or an object's name -> its box {x, y, w, h}
  const badges = players.map((player, i) => {
    const a = angle(i);
    const life = outcome && outcome.life && player.name in outcome.life;
    const w = Math.max(84, widthOf(player.name, 13) + 34);
    const h = life ? 40 : 26;
    const x = Math.min(W - w / 2 - 4, Math.max(w / 2 + 4, CX + (RX + 42) * Math.cos(a)));
    const y = Math.min(H - h / 2 - 14, Math.max(h / 2 + 4, CY + (RY + 44) * Math.sin(a)));
    const box = { x, y, w, h };
    where.set(player.name, box);
    return box;
  });
  // each player's objects in front of them, along the table's edge, sorted
  // by where their arrows go so that the arrows fan out instead of crossing
  const cards = new Map(facts.objects.map((o) => [o.name, cardOf(o, destroyed.has(o.name), narrow)]));
  const aims = new Map();
  for (const a of facts.attacks) aims.set(a.attacker, a.target);
  for (const b of facts.blocks) aims.set(b.blocker, b.attacker);
  const blocked = new Set(facts.blocks.map((b) => b.attacker));
  const owner = new Map(facts.objects.map((o) => [o.name, o.controller]));
  const hidden = [];
  const layout = (pass) => {
    players.forEach((player, i) => {
      const a = angle(i);
      const column = side(a);
      const tx = column ? 0 : -Math.sin(a), ty = column ? 1 : Math.cos(a);
      const own = facts.objects.filter((o) => o.controller === player.name);
      const perRow = column ? 4 : narrow ? 2 : n === 2 ? 4 : n === 3 ? 3 : Math.abs(ty) > Math.abs(tx) ? 3 : 4;
      const rows = (n <= 3 || PHONE) && !column ? 2 : 1;
      const reach = 0.66 + 0.04 * Math.abs(ty); // the side zones sit further out
      const widest = Math.max(0, ...own.map((o) => cards.get(o.name).w));
      const zone = column
        ? { x: Math.min(W - widest / 2 - 4, Math.max(widest / 2 + 4, CX + RX * 0.92 * Math.cos(a))), y: CY + RY * 0.45 * Math.sin(a) + 30 }
        : { x: CX + RX * reach * Math.cos(a), y: CY + RY * reach * Math.sin(a) };
      const key = (o) => {
        const aim = aims.get(o.name);
        if (aim === undefined) return 0;
        const to = pass === 0 ? where.get(aim) && !owner.has(aim) ? where.get(aim) : where.get(owner.get(aim)) : where.get(aim);
        if (!to) return 0;
        const along = (to.x - zone.x) * tx + (to.y - zone.y) * ty;
        // of the attackers aimed the same way, the blocked ones nearer their blockers
        return along + (blocked.has(o.name) ? Math.sign(along) * 0.5 : 0);
      };
      const sorted = own.map((o, k) => [key(o), k, o]).sort((p, q) => p[0] - q[0] || p[1] - q[1]).map((p) => p[2]);
      // where not all fit, those that attack or block first
      const kept = new Set([...own.filter((o) => aims.has(o.name)), ...own.filter((o) => !aims.has(o.name))].slice(0, perRow * rows));
      const shown = sorted.filter((o) => kept.has(o));
      if (pass === 1 && own.length > shown.length) hidden.push({ player, a, left: own.length - shown.length });
      for (let row = 0; row * perRow < shown.length; row++) {
        const inRow = shown.slice(row * perRow, (row + 1) * perRow);
        const maxW = Math.max(...inRow.map((o) => cards.get(o.name).w));
        const maxH = Math.max(...inRow.map((o) => cards.get(o.name).h));
        const step = Math.abs(tx) * (maxW + 10) + Math.abs(ty) * (maxH + 8);
        const r = reach - row * 0.3;
        inRow.forEach((o, k) => {
          const pos = k - (inRow.length - 1) / 2;
          const card = cards.get(o.name);
          const base = column ? zone : { x: CX + RX * r * Math.cos(a), y: CY + RY * r * Math.sin(a) };
          where.set(o.name, { x: base.x + tx * pos * step, y: base.y + ty * pos * step, w: card.w, h: card.h });
        });
      }
      if (column) {
        // the player sits above the column of their permanents
        const badge = badges[i];
        const top = Math.min(zone.y, ...shown.map((o) => where.get(o.name).y - where.get(o.name).h / 2));
        badge.x = Math.min(W - badge.w / 2 - 4, Math.max(badge.w / 2 + 4, zone.x));
        badge.y = Math.max(badge.h / 2 + 4, top - badge.h / 2 - (player.team ? 18 : 8));
      }
      for (const o of own.slice(0).filter((o) => !shown.includes(o))) where.delete(o.name);
    });
  };
  layout(0);
  layout(1); // again, with the attackers where the first pass put them
  const layer = { objects: svg("g", { class: "objects" }), arrows: svg("g", { class: "arrows" }), players: svg("g", { class: "players" }) };
  const picked = state.picked;
  for (const obj of facts.objects) {
    const box = where.get(obj.name);
    if (!box) continue;
    const card = cards.get(obj.name);
    const classes = ["obj", obj.type, destroyed.has(obj.name) ? "destroyed" : "", picked === obj.name ? "picked" : ""].filter(Boolean).join(" ");
    const group = svg("g", { class: classes, "data-object": obj.name, "data-destroyed": destroyed.has(obj.name) ? "true" : "false", tabindex: "0", role: "button",
      onclick: () => tableClicked(obj.name, "object"), onkeydown: pressed(() => tableClicked(obj.name, "object")) },
      svg("title", {}, [obj.name, obj.power !== null && obj.power !== undefined ? `${obj.power}/${obj.toughness}` : obj.type, ...(obj.written || obj.abilities)].join(", ")),
      svg("rect", { x: box.x - card.w / 2, y: box.y - card.h / 2, width: card.w, height: card.h, rx: 5 }));
    card.lines.forEach((line, k) => {
      group.append(svg("text", { x: box.x, y: box.y - card.h / 2 + 14 + k * 12.5, "text-anchor": "middle", class: line.cls }, line.text));
    });
    if (destroyed.has(obj.name)) group.append(svg("line", { x1: box.x - card.w / 2 + 4, y1: box.y + card.h / 2 - 4, x2: box.x + card.w / 2 - 4, y2: box.y - card.h / 2 + 4, class: "strike" }));
    layer.objects.append(group);
  }
  for (const { player, a, left } of hidden) {
    layer.objects.append(svg("text", { x: CX + RX * 0.3 * Math.cos(a), y: CY + RY * 0.3 * Math.sin(a), "text-anchor": "middle", class: "more" }, t("more", { n: left })));
  }
  players.forEach((player, i) => {
    const box = badges[i];
    const lost = outcome && (outcome.lost || []).includes(player.name);
    const life = outcome && outcome.life ? outcome.life[player.name] : undefined;
    const poison = outcome && outcome.poison ? outcome.poison[player.name] : 0;
    const active = player.name === facts.active;
    const group = svg("g", { class: "player" + (active ? " active" : "") + (lost ? " lost" : ""), "data-player": player.name, "data-seat": player.seat, "data-team": player.team || "", "data-colour": colour(player),
      tabindex: "0", role: "button", onclick: () => tableClicked(player.name, "player"), onkeydown: pressed(() => tableClicked(player.name, "player")) },
      svg("title", {}, `${player.name} (seat ${player.seat}${player.team ? ", " + player.team : ""})`),
      svg("rect", { x: box.x - box.w / 2, y: box.y - box.h / 2, width: box.w, height: box.h, rx: 13, stroke: colour(player) }),
      svg("text", { x: box.x, y: box.y - box.h / 2 + 17, "text-anchor": "middle", class: "name", fill: colour(player) }, (active ? "▶ " : "") + player.name));
    if (life !== undefined) {
      const parts = [`♥ ${life}`];
      if (poison) parts.push(`☠ ${poison}`);
      if (lost) parts.push(t("lostMark"));
      group.append(svg("text", { x: box.x, y: box.y + box.h / 2 - 7, "text-anchor": "middle", class: "life" + (lost ? " lost" : ""), "data-life": life }, parts.join("  ")));
    }
    if (player.team) {
      const teamLife = outcome && outcome.team_life && player.team in outcome.team_life ? ` ♥ ${outcome.team_life[player.team]}` : "";
      group.append(svg("text", { x: box.x, y: box.y + box.h / 2 + 11, "text-anchor": "middle", class: "team", fill: colour(player) }, player.team + teamLife));
    }
    layer.players.append(group);
  });
  if (outcome) $("legend-outcome").hidden = false;
  const bad = illegalOf(facts, verdict);
  const arrow = (from, to, kind, illegal, label, line) => {
    const p = where.get(from), q = where.get(to);
    if (!p || !q) return;
    const dx = q.x - p.x, dy = q.y - p.y;
    const len = Math.hypot(dx, dy) || 1;
    const cut = (box) => Math.min(box.w / 2 / (Math.abs(dx / len) || 1e-9), box.h / 2 / (Math.abs(dy / len) || 1e-9)) + 3;
    const x1 = p.x + (dx / len) * cut(p), y1 = p.y + (dy / len) * cut(p);
    const x2 = q.x - (dx / len) * cut(q), y2 = q.y - (dy / len) * cut(q);
    const bend = (kind === "block" ? -1 : 1) * Math.min(22, len / 8);
    const mx = (x1 + x2) / 2 - (dy / len) * bend, my = (y1 + y2) / 2 + (dx / len) * bend;
    const cls = `arrow ${kind}${illegal ? " illegal" : ""}`;
    layer.arrows.append(svg("path", { class: cls, d: `M${x1.toFixed(1)},${y1.toFixed(1)} Q${mx.toFixed(1)},${my.toFixed(1)} ${x2.toFixed(1)},${y2.toFixed(1)}`, "marker-end": `url(#head-${illegal ? "illegal" : kind})`,
      "data-from": from, "data-to": to, "data-kind": kind, "data-illegal": illegal ? "true" : "false", "data-line": line || "" }, svg("title", {}, label)));
    if (illegal) layer.arrows.append(svg("text", { class: "cross", x: mx, y: my + 5, "text-anchor": "middle" }, "✗"));
  };
  for (const a of facts.attacks) arrow(a.attacker, a.target, "attack", bad.attacks.has(a.attacker + "\u0000" + a.target), `${a.attacker} → ${a.target}`, a.line);
  for (const b of facts.blocks) arrow(b.blocker, b.attacker, "block", bad.blocks.has(b.blocker + "\u0000" + b.attacker), `${b.blocker} ⊣ ${b.attacker}`, b.line);
  root.append(layer.objects, layer.arrows, layer.players);
}
