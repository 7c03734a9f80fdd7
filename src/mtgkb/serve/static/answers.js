// The answer cards of the judges' page: each answer as sentences a judge can
// read aloud (the words are app.js's WORDS), its rules as links to their
// paraphrase, and the next questions one click away.
"use strict";

// ---------------------------------------------------------------- rules

// The rule index's paraphrase of a rule, in the page's language (asked once each).
const PARAPHRASES = new Map();
function paraphraseOf(number) {
  const key = `${state.lang} ${number}`;
  if (!PARAPHRASES.has(key)) {
    PARAPHRASES.set(key, api(`/v1/rules/${encodeURIComponent(number)}?lang=${state.lang}`)
      .then((response) => response.json())
      .then((body) => body.paraphrase || body.message || "?")
      .catch(() => "?"));
  }
  return PARAPHRASES.get(key);
}

// A rule as a link to its paraphrase: shown beside the page on a click, and
// as the link's title once asked (hovering asks it).
function ruleChip(number) {
  const link = el("a", { class: "rule", href: `/v1/rules/${encodeURIComponent(number)}?lang=${state.lang}`, "data-rule": number }, number);
  link.addEventListener("click", (event) => { event.preventDefault(); showRule(number); });
  link.addEventListener("mouseenter", () => paraphraseOf(number).then((p) => { link.title = `${number}: ${p}`; }), { once: true });
  return link;
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
  box.dataset.rule = number;
  box.hidden = false;
  clearTimeout(showRule.timer);
  showRule.timer = setTimeout(() => { box.hidden = true; }, 12000);
}
$("rule-info").addEventListener("click", () => { $("rule-info").hidden = true; });

function rulesOf(numbers) {
  const out = [];
  numbers.forEach((n, i) => { if (i) out.push(" "); out.push(ruleChip(n)); });
  return out;
}

// ---------------------------------------------------------------- follow-ups

function quote(name) {
  return '"' + name.replace(/\\/g, "\\\\").replace(/"/g, '\\"') + '"';
}

function targetWord(target) {
  const players = state.facts ? state.facts.players.map((p) => p.name) : [];
  return players.includes(target) && /^[A-Za-z][A-Za-z0-9_'-]*$/.test(target) ? target : quote(target);
}

function askButton(line, label) {
  return el("button", { class: "ask-more", type: "button", "data-ask": line, onclick: () => appendQuestion(line) }, label);
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
    buttons.push(askButton(`ask can ${quote(block.blocker)} block ${quote(block.attacker)}`, t("whyBlock", { a: block.blocker, b: block.attacker })));
  }
  const attack = facts.attacks.find((a) => a.attacker === subject);
  if (attack && !block) {
    buttons.push(askButton(`ask can ${quote(attack.attacker)} attack ${targetWord(attack.target)}`, t("whyAttack", { a: attack.attacker, b: attack.target })));
  }
  return buttons;
}

function fixButton() {
  return askButton("ask fix", t("fix"));
}

// ---------------------------------------------------------------- pieces of cards

const sentence = (text, cls) => el("p", { class: "sentence" + (cls ? " " + cls : "") }, text);
const items = (list) => el("ul", { class: "items" }, list.map((x) => el("li", {}, x)));

// a broken rule and its message; with `asked` (the questions offered so far
// in the card), the "why" question about it, once per card
function violationLine(v, asked = null) {
  if (typeof v !== "object" || v === null) return el("div", { class: "violation" }, String(v));
  const ups = asked ? followUps(v).filter((b) => !asked.has(b.dataset.ask) && asked.add(b.dataset.ask)) : [];
  return el("div", { class: "violation" }, v.rule ? ruleChip(v.rule) : null, " ", v.message || "",
    ups.length ? el("div", { class: "follow-ups" }, ups) : null);
}

// "3 legal ways" ("One legal way" where a sentence starts with it)
function waysOf(count, start) {
  const key = (count === 1 ? "wayOne" : "wayMany") + (start ? "" : "Lower");
  return t(key, { n: count });
}

const countersOf = (n) => (n === 1 ? t("counterOne") : t("counterMany", { n }));

function atLeastOf(answer) {
  return answer.complete === false ? t("atLeast") : "";
}

function pairText(key, a, b) {
  return t(key, { a, b: Array.isArray(b) ? joined(b) : b });
}

// a numbered list of declarations, "no creature attacks" for the empty one
function declarationList(answer, pairKey, emptyKey) {
  const list = (answer.assignments || []).map((one) => {
    const pairs = Object.entries(one);
    return pairs.length ? pairs.map(([a, b]) => pairText(pairKey, a, b)).join("; ") : t(emptyKey);
  });
  return [el("ol", { class: "items" }, list.map((x) => el("li", {}, x))), ...leftOut(answer, list.length)];
}

// where --max-models or a limit cut a listing: how many it leaves out (or,
// with the key `inAll`, how many there are in all), and why a count is a
// lower bound where the answer says so
function leftOut(answer, listed, inAll) {
  const out = [];
  const count = answer.count || 0;
  if (count > listed) out.push(sentence(inAll ? t(inAll, { n: count }) : t("notListed", { n: count - listed }), "muted"));
  if (answer.reason) out.push(sentence(answer.reason, "muted"));
  return out;
}

// ---------------------------------------------------------------- each kind of answer

const SAY = {
  legal(answer) {
    if (answer.legal) return [sentence(t("legalYes"))];
    // one "why" button for each play, however many rules it breaks
    const asked = new Set();
    const out = [sentence(t("legalNo")), ...(answer.violations || []).map((v) => violationLine(v, asked))];
    out.push(el("div", { class: "follow-ups" }, fixButton()));
    return out;
  },
  defending(answer) {
    const players = answer.players || [];
    return [sentence(players.length ? t("defendingSome", { players: joined(players) }) : t("defendingNone"))];
  },
  "attack-targets"(answer) {
    const targets = answer.targets || [];
    return [sentence(targets.length ? t("targetsSome", { creature: answer.creature, targets: joined(targets, "or") }) : t("targetsNone", { creature: answer.creature }))];
  },
  attacks(answer) {
    return [sentence(t("attacksCount", { ways: waysOf(answer.count, true), atLeast: atLeastOf(answer) })), ...declarationList(answer, "attacksPair", "noAttack")];
  },
  blocks(answer) {
    const values = { ways: waysOf(answer.count, false), atLeast: atLeastOf(answer) };
    let lead;
    if (answer.defender) lead = t("blocksCountFor", { ...values, defender: answer.defender });
    else if (answer.defenders && answer.defenders.length) lead = t("blocksCountOf", { ...values, defenders: joined(answer.defenders) });
    else lead = t("blocksCount", { ...values, ways: waysOf(answer.count, true) });
    // (805.10d: each declaration listed is the defender's part of the team's)
    const part = answer.teammates && answer.teammates.length
      ? [sentence(t("blocksTeamPart", { defender: answer.defender, teammates: joined(answer.teammates) }))]
      : [];
    return [sentence(lead), ...part, ...declarationList(answer, "blocksPair", "noBlock")];
  },
  order(answer) {
    const orders = answer.orders || [];
    const lead = (word("orderLead") || {})[answer.ask] || "";
    const out = [];
    if (!orders.length || (orders.length === 1 && !orders[0].length)) return [sentence(t("nothingPending"))];
    const line = (o) => (Array.isArray(o) ? o.join(" → ") : String(o));
    if (orders.length === 1) out.push(sentence(t("orderOne", { lead, order: line(orders[0]) })));
    else out.push(sentence(t("orderMany", { lead, n: orders.length })), items(orders.map(line)));
    for (const [player, seqs] of Object.entries(answer.choice_orders || {})) {
      out.push(sentence(t("chooses", { player, what: seqs.map((s) => s.join(" → ")).join(t("or")) })));
    }
    for (const [player, by] of Object.entries(answer.made_by || {})) out.push(sentence(t("makesChoices", { by, player })));
    // (an order of the players counts once for each order of their several choices)
    return [...out, ...leftOut(answer, orders.length, answer.ask === "order" ? "ordersInAll" : null)];
  },
  knowledge(answer) {
    return [items(Object.entries(answer.known || {}).map(([player, who]) =>
      who.length ? t("knows", { player, who: joined(who) }) : t("knowsNone", { player })))];
  },
  outcome(answer) {
    const lines = [];
    for (const [player, n] of Object.entries(answer.life || {})) lines.push(t("life", { player, n }));
    for (const [team, n] of Object.entries(answer.team_life || {})) lines.push(t("teamLife", { team, n }));
    for (const [player, n] of Object.entries(answer.poison || {})) if (n) lines.push(t("poison", { player, counters: countersOf(n) }));
    for (const [team, n] of Object.entries(answer.team_poison || {})) if (n) lines.push(t("teamPoison", { team, counters: countersOf(n) }));
    for (const [player, sources] of Object.entries(answer.commander_damage || {})) {
      for (const [source, n] of Object.entries(sources)) lines.push(t("commanderDamage", { player, n, source }));
    }
    const lost = answer.lost || [];
    lines.push(lost.length ? t("lostSome", { players: joined(lost) }) : t("lostNone"));
    for (const [source, n] of Object.entries(answer.triggers || {})) lines.push(n === 1 ? t("triggeredOnce", { source }) : t("triggered", { source, n }));
    if ("destroyed" in answer) lines.push(answer.destroyed.length ? t("destroyedSome", { objects: joined(answer.destroyed) }) : t("destroyedNone"));
    const out = [items(lines)];
    if (answer.illegal_play) {
      const broken = [...new Set((answer.violations || []).map((v) => v.rule))].sort();
      out.push(sentence(t("illegalPlay", { rules: broken.join(", ") }), "warning"));
    }
    return out;
  },
  actions(answer) {
    const kinds = word("actionKinds") || {};
    const may = (answer.may || []).map((k) => kinds[k] || k);
    const out = [sentence(may.length ? t("actionsSome", { player: answer.player, kinds: joined(may) }) : t("actionsNone", { player: answer.player }))];
    for (const [player, by] of Object.entries(answer.made_by || {})) out.push(sentence(t("makesPlays", { by, player })));
    return out;
  },
  assignments(answer) {
    const list = (answer.assignments || []).map((one) => {
      const parts = Object.entries(one).map(([to, n]) => t("damageTo", { n, to }));
      return parts.length ? joined(parts) : t("noDamage");
    });
    return [sentence(t("assignmentsCount", { creature: answer.creature, ways: waysOf(answer.count, false), atLeast: atLeastOf(answer) })),
      el("ol", { class: "items" }, list.map((x) => el("li", {}, x))), ...leftOut(answer, list.length)];
  },
  pay(answer) {
    const values = { player: answer.player, n: answer.amount };
    if (answer.can === null || answer.can === undefined) return [sentence(t("payUnknown", values))];
    return [sentence(t(answer.can ? "canPay" : "cannotPay", values))];
  },
  can(answer) {
    const play = Array.isArray(answer.play) ? answer.play.join("; ") : answer.play;
    if (answer.can) return [sentence(t("canYes", { play }))];
    const out = [sentence(t("canNo", { play })), ...(answer.violations || []).map((v) => violationLine(v))];
    // the rules that forbid it, where the violations do not name them all
    const named = new Set((answer.violations || []).map((v) => v.rule));
    const more = (answer.forbidden_by || []).filter((r) => !named.has(r));
    if (more.length) out.push(el("p", { class: "sentence" }, t("forbiddenBy", { rules: "" }), rulesOf(answer.forbidden_by)));
    return out;
  },
  fix(answer) {
    if (answer.legal) return [sentence(t("fixLegal"))];
    if (answer.changes === null || answer.changes === undefined) return [sentence(t("fixNone"))];
    const n = answer.changes.length;
    const changes = n === 1 ? t("changeOne") : t("changeMany", { n });
    const others = answer.complete === false ? t("othersMore", { count: answer.count }) : answer.count > 1 ? t("othersSome", { count: answer.count }) : "";
    const out = [sentence(t("fixChanges", { changes, others }))];
    const lines = [];
    for (const what of answer.choices || []) lines.push(t("fixChoice", { what }));
    for (const change of answer.changes) {
      if ("change" in change) lines.push(t("fixChange", { what: change.change, to: change.to }));
      else if ("remove" in change) lines.push(t("fixRemove", { what: change.remove }));
      else if ("add" in change) lines.push(t("fixAdd", { what: change.add }));
      else lines.push(Object.entries(change).map(([k, v]) => `${k} ${v}`).join(", "));
    }
    out.push(items(lines));
    if (answer.remaining && answer.remaining.length) {
      out.push(sentence(t("remaining"), "warning"), ...answer.remaining.map((v) => violationLine(v)));
    }
    return out;
  },
  explain(answer) {
    const out = [sentence(answer.question ? t("explainOf", { question: answer.question.replace(/-/g, " ") }) : t("explainAll"))];
    if (answer.tree && answer.tree.length) out.push(el("div", { class: "tree" }, renderTree(answer.tree, 0)));
    if (answer.truncated) out.push(sentence(t("cut"), "muted"));
    return out;
  },
};
for (const ask of ["block-order", "damage-order", "stack"]) SAY[ask] = SAY.order;

function forbiddenLine(forbidden) {
  const rules = forbidden.rules || [];
  if (!rules.length) return null;
  const objects = forbidden.objects || [];
  const [before, after] = t(objects.length ? "forbiddenOf" : "forbiddenBy", { rules: "\u0000", objects: joined(objects) }).split("\u0000");
  return el("div", { class: "says forbidden" }, before, rulesOf(rules), after);
}

function renderTree(nodes, depth) {
  return nodes.map((node) => {
    const chips = rulesOf([node.rule, ...(node.also || [])].filter(Boolean));
    const tags = [];
    if (node.fact) tags.push(el("span", { class: "tag" }, `(${t("fact")})`));
    if (node.repeated) tags.push(el("span", { class: "tag" }, `(${t("repeated")})`));
    if (node.folded) tags.push(el("span", { class: "tag" }, `(${t("folded", { n: node.folded })})`));
    if (node.note) tags.push(el("span", { class: "tag note" }, `(${node.note})`));
    const children = node.because || [];
    const extra = [];
    if (node.says && !node.repeated) extra.push(el("div", { class: "says" }, node.says));
    if (node.forbidden_by) extra.push(forbiddenLine(node.forbidden_by));
    if (node.truncated) extra.push(el("div", { class: "says" }, t("cut")));
    const label = [node.conclusion, " ", chips, " ", tags];
    if (!children.length && !extra.filter(Boolean).length) return el("div", { class: "leaf" }, label);
    const details = el("details", { class: "node" }, el("summary", {}, label), extra, renderTree(children, depth + 1));
    if (depth === 0) details.open = true;
    return details;
  });
}

// A rule the answer does not model (kb/not_modelled.lp, a house rule): one line each.
function unmodelledLine(number) {
  const line = el("div", { class: "unmodelled", "data-rule": number }, t("notModelled", { n: number, p: "…" }));
  paraphraseOf(number).then((p) => { line.textContent = t("notModelled", { n: number, p }); });
  return line;
}

function questionText(answer, index) {
  // the question as the file writes it (the parsed scenario gives its line)
  const questions = (state.facts && state.facts.questions) || [];
  const asked = questions.length === state.answerCount ? questions[index] : null;
  const lines = state.lines || [];
  if (asked && asked.line && lines[asked.line - 1]) {
    const written = lines[asked.line - 1].split("#")[0].trim();
    if (/^ask\b/.test(written)) return written;
  }
  return "ask " + answer.ask.replace(/-/g, " ");
}

function renderAnswer(answer, index) {
  const head = el("h3", {}, el("code", {}, questionText(answer, index)));
  const box = el("div", { class: "answer", "data-ask": answer.ask }, head);
  if (typeof answer.legal === "boolean" && answer.ask === "legal") {
    head.append(el("span", { class: "verdict " + (answer.legal ? "ok" : "bad") }, answer.legal ? t("legal") : t("illegal")));
  }
  if (typeof answer.can === "boolean") {
    head.append(el("span", { class: "verdict " + (answer.can ? "ok" : "bad") }, answer.can ? t("yes") : t("no")));
  }
  const unanswered = (answer.inconsistent || []).some((i) => i.no_answer_set);
  if (answer.supported === false) box.append(sentence(answer.message || t("notSupported"), "warning"));
  else if (SAY[answer.ask] && !unanswered) box.append(...SAY[answer.ask](answer));
  for (const item of answer.inconsistent || []) {
    box.append(sentence(item.no_answer_set ? t("noAnswerSet") : t("inconsistent", { atom: item.atom, of: item.of, values: (item.values || []).join(", ") }), "warning"));
  }
  for (const number of answer.unmodelled || []) box.append(unmodelledLine(number));
  if (answer.rules && answer.rules.length) box.append(el("div", { class: "rules-line" }, t("rules") + " ", rulesOf(answer.rules)));
  return box;
}

function renderAnswers(answers, verdict) {
  const list = $("answers");
  list.replaceChildren();
  state.answerCount = answers.length;
  if (!answers.length) {
    list.append(el("p", { class: "hint" }, t("noAnswers")));
    if (verdict && verdict.legal === false) list.append(renderAnswer(verdict, -1));
    return;
  }
  answers.forEach((answer, index) => list.append(renderAnswer(answer, index)));
}
