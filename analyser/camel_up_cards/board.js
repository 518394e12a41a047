// The Camel Up Cards board: docs/serve.md, Board modules; the position JSON's fields are
// docs/games/camel-up-cards.md §13.1 (what they mean: §6).
// Edits: a camel then a space (or a camel there, or the start card) moves the camel with
// the camels on it on top of that stack (§0; on the start card camels stand side by side,
// at the back of the line-up); a space then a figure button puts the fox or the palm there
// for the picked seat, or back beside the track; a leader stack gives its top card, a
// midfield card goes to the picked seat, a held card goes back; winner and loser cards,
// money, hands, the revealed cards, the seat to move and the phase are inputs.

import {button, clickable, copy, html, moveUnit, narrow, numberInput, pickAndPlace,
  pickedSeat, redraw, seats, selectInput, style, svg, whereIn} from "/static/boardkit.js";

const CAMELS = {W: "#f4f4f4", G: "#2e9e48", O: "#ee8a1f", B: "#2f6fd6", Y: "#f2cf2a"};
const NAMES = {W: "white", G: "green", O: "orange", B: "blue", Y: "yellow"};
const DARK_TEXT = new Set(["W", "O", "Y"]);
const CARDS = Object.keys(CAMELS).flatMap((c) => [`${c}1`, `${c}2`]);
const PER_ROW = 10;  // cells a row; half on a phone
const CELL_W = 96;
const CELL_H = 170;
const CAMEL_H = 24;
const PHASES = [["start", "start (nothing done)"], ["bet", "bet taken"],
                ["race", "race action taken"]];

const CSS = `
.cuc-board .cell { stroke: #8a7444; }
.cuc-board .card-a { fill: #f3e6c4; }
.cuc-board .card-b { fill: #e9d7a8; }
.cuc-board .sand { fill: #e0b77a; }
.cuc-board .start, .cuc-board .finish { fill: #dde6f0; }
.cuc-board .picked { fill: #ffe08a; }
.cuc-board .camel.picked { stroke: #1f5fbf; stroke-width: 4; stroke-dasharray: 7 3; }
.cuc-board .clickable { cursor: pointer; }
.cuc-board .clickable:focus { outline: none; }
.cuc-board .clickable:focus > rect { stroke: #ff9f1a; stroke-width: 5; }
.cuc-board text { font-family: system-ui, sans-serif; pointer-events: none; }
.cuc-panel { display: flex; flex-wrap: wrap; gap: 0.3rem 0.8rem; align-items: center;
  margin: 0.3rem 0; }
.cuc-players { border-collapse: collapse; font-size: 0.85rem; width: 100%; }
.cuc-players th, .cuc-players td { border-bottom: 1px solid #ddd; padding: 2px 4px;
  text-align: left; vertical-align: middle; }
.cuc-players input[type=number] { width: 4.5em; }
.cuc-players select { max-width: 6.5em; }
.cuc-players button { padding: 0 0.3rem; margin: 1px; }
.cuc-facts { font-size: 0.85rem; margin: 0.3rem 0; }
`;

// ---------------------------------------------------------------- geometry

/** The spaces of each track card: [[1, 2], [3], ...] (a sandstorm card has one, §5.4). */
function cardSpaces(pos) {
  const cards = [];
  let space = 1;
  for (const size of pos.track.cards) {
    const spaces = [];
    for (let i = 0; i < size && space <= pos.track.last; i += 1) spaces.push(space++);
    cards.push(spaces);
  }
  return cards;
}

/** Cell i (0 = start card, 1..L spaces, L + 1 finish) in rows of `perRow`, snaking. */
function cellBox(i, perRow) {
  const row = Math.floor(i / perRow);
  const col = row % 2 ? perRow - 1 - (i % perRow) : i % perRow;
  return {x: 8 + col * (CELL_W + 4), y: 8 + row * (CELL_H + 12), w: CELL_W, h: CELL_H};
}

function whereIs(pos, camel) {
  const line = pos.start_line.indexOf(camel);
  if (line >= 0) return {space: 0, index: line};
  return whereIn(pos.stacks, camel);
}

// ---------------------------------------------------------------- edits

/** The camel (with the camels on it) goes on top of `space`'s stack; onto the start card
 * each goes to the back of the line-up; off the start card a camel goes alone (§0). */
function moveCamel(pos, camel, space) {
  const from = whereIs(pos, camel);
  if (!from || from.space === space) return null;
  const next = copy(pos);
  if (from.space === 0) {
    next.start_line.splice(from.index, 1);
    next.stacks[String(space)] = [...(next.stacks[String(space)] ?? []), camel];
  } else if (space === 0) {
    next.start_line.push(...moveUnit(next.stacks, String(from.space), from.index, "0"));
    delete next.stacks["0"];
  } else {
    moveUnit(next.stacks, String(from.space), from.index, String(space));
  }
  return next;
}

function placeFigure(pos, figure, space, holder) {
  return {...copy(pos), [figure]: space ? {space, holder} : "supply"};
}

/** Derived fields go, so validation derives them again from what changed (§13.1). */
function rederived(pos, ...keys) {
  for (const key of keys) delete pos[key];
  return pos;
}

function takeLeader(pos, seat, colour) {
  const top = pos.leader_stacks[colour]?.[0];
  if (top === undefined) return null;
  const next = copy(pos);
  next.leg_cards[seat].leader.push([colour, top]);
  return rederived(next, "leader_stacks");
}

function takeMidfield(pos, seat, colour) {
  const next = copy(pos);
  next.leg_cards[seat].midfield.push(colour);
  return rederived(next, "midfield_available");
}

function giveBack(pos, seat, kind, index) {
  const next = copy(pos);
  next.leg_cards[seat][kind].splice(index, 1);
  return rederived(next, "leader_stacks", "midfield_available");
}

function setFinal(pos, seat, kind, colour) {
  const next = copy(pos);
  next.final_cards[seat][kind] = colour || null;
  return next;
}

function setSeat(pos, key, seat, value) {
  const next = copy(pos);
  next[key][seat] = value;
  return next;
}

function reveal(pos, card) {
  return rederived({...copy(pos), revealed: [...pos.revealed, card]}, "deck_count");
}

function unreveal(pos) {
  return rederived({...copy(pos), revealed: pos.revealed.slice(0, -1)}, "deck_count");
}

// ---------------------------------------------------------------- drawing

function drawCamel(parent, box, camel, slot, picked) {
  const y = box.y + box.h - 8 - (slot + 1) * CAMEL_H;
  svg("rect", {x: box.x + 6, y, width: box.w - 12, height: CAMEL_H - 2, rx: 5,
               fill: CAMELS[camel], stroke: "#333", class: `camel${picked ? " picked" : ""}`},
      parent);
  svg("text", {x: box.x + box.w / 2, y: y + CAMEL_H - 8, "text-anchor": "middle",
               "font-size": 14, fill: DARK_TEXT.has(camel) ? "#222" : "#fff"}, parent,
      NAMES[camel]);
}

function drawFigures(parent, box, pos, space) {
  ["fox", "palm"].filter((f) => pos[f]?.space === space).forEach((figure, i) => {
    const y = box.y + 30 + i * 34;
    svg("rect", {x: box.x + 8, y, width: box.w - 16, height: 28, rx: 14,
                 fill: figure === "fox" ? "#f0a36b" : "#8fd18a", stroke: "#444"}, parent);
    svg("text", {x: box.x + box.w / 2, y: y + 19, "text-anchor": "middle",
                 "font-size": 13}, parent, `${figure} · P${pos[figure].holder}`);
  });
}

function cellClass(pos, space, cardOf, picked) {
  if (picked) return "picked";
  if (space === 0) return "start";
  const card = cardOf.get(space);
  if (pos.track.cards[card] === 1) return "sand";
  return card % 2 ? "card-b" : "card-a";
}

function drawTrack(root, pos, ctx) {
  const cardOf = new Map();
  cardSpaces(pos).forEach((spaces, card) => spaces.forEach((s) => cardOf.set(s, card)));
  const last = pos.track.last;
  for (let space = 0; space <= last; space += 1) {
    const box = cellBox(space, ctx.perRow);
    const camels = space === 0 ? [...pos.start_line].reverse() : pos.stacks[String(space)]
      ?? [];
    const g = svg("g", {}, root);
    const name = space === 0 ? "start card" : `space ${space}`;
    const what = space === 0 ? `line-up ${pos.start_line.join(" ") || "empty"} (first ahead)`
      : camels.length ? `${camels.join(" ")} (bottom up)` : "no camel";
    clickable(g, `${name}: ${what}`, `space-${space}`, () => ctx.clicks.onSpace(space));
    svg("rect", {x: box.x, y: box.y, width: box.w, height: box.h, rx: 8,
                 class: `cell ${cellClass(pos, space, cardOf, ctx.state.space === space)}`},
        g);
    const label = space === 0 ? "start"
      : `${space}${pos.track.cards[cardOf.get(space)] === 1 ? " sandstorm" : ""}`;
    svg("text", {x: box.x + 6, y: box.y + 18, "font-size": 14, fill: "#6b5a2e"}, g, label);
    if (!space) {
      svg("text", {x: box.x + 6, y: box.y + 34, "font-size": 11, fill: "#6b5a2e"}, g,
          "1st on top");
    }
    if (space) drawFigures(g, box, pos, space);
    camels.forEach((camel, slot) => {
      const cg = svg("g", {}, root);
      drawCamel(cg, box, camel, slot, ctx.state.piece === camel);
      clickable(cg, `${NAMES[camel]} camel on the ${name}`, `camel-${camel}`,
                () => ctx.clicks.onPiece(camel, space));
    });
  }
  const box = cellBox(last + 1, ctx.perRow);
  svg("rect", {x: box.x, y: box.y, width: box.w, height: box.h, rx: 8,
               class: "cell finish"}, root);
  svg("text", {x: box.x + box.w / 2, y: box.y + box.h / 2, "text-anchor": "middle",
               "font-size": 15}, root, "finish");
}

// ---------------------------------------------------------------- HTML panels

function toolPanel(root, pos, ctx) {
  const panel = html("div", {class: "cuc-panel"}, root);
  const seat = pickedSeat(pos, ctx);
  selectInput("Seat for cards and figures", seats(pos.players), seat, "seat",
              (v) => { ctx.state.seat = Number(v); ctx.rerender(); }, panel);
  selectInput("To move", seats(pos.players), pos.to_move, "to-move",
              (v) => ctx.edit({...copy(pos), to_move: Number(v)}), panel);
  selectInput("Phase", PHASES, pos.phase, "phase",
              (v) => ctx.edit({...copy(pos), phase: v}), panel);
  const space = ctx.state.space;
  const text = ctx.state.piece ? `${NAMES[ctx.state.piece]} camel picked: click a space`
    : space ? `space ${space} picked` : "pick a camel or a space";
  html("span", {"aria-live": "polite", "data-testid": "pick"}, panel, text);
  for (const figure of ["fox", "palm"]) {
    button(`${figure} here`, `${figure}-place`,
           () => ctx.edit(placeFigure(pos, figure, space, seat)), panel,
           {disabled: !space, label: `put the ${figure} on the picked space for the seat`});
    button(`${figure} to supply`, `${figure}-supply`,
           () => ctx.edit(placeFigure(pos, figure, null)), panel,
           {disabled: pos[figure] === "supply" || pos[figure] === null});
  }
  button("Drop pick", "unpick", () => {
    ctx.state.piece = null;
    ctx.state.space = null;
    ctx.rerender();
  }, panel, {disabled: !ctx.state.piece && !space});
}

function betPanel(root, pos, ctx) {
  const panel = html("div", {class: "cuc-panel"}, root);
  html("span", {}, panel, "Leader cards (top) / midfield:");
  for (const colour of Object.keys(CAMELS)) {
    const stack = pos.leader_stacks[colour] ?? [];
    button(stack.length ? `${NAMES[colour]} ${stack[0]}` : `${NAMES[colour]} –`,
           `leader-${colour}`, () => ctx.edit(takeLeader(pos, pickedSeat(pos, ctx), colour)),
           panel, {disabled: !stack.length,
                   label: `take the ${NAMES[colour]} leader card ${stack[0] ?? ""}`
                     + ` (left: ${stack.join(" ") || "none"})`});
    button(`${NAMES[colour]} mid`, `midfield-${colour}`,
           () => ctx.edit(takeMidfield(pos, pickedSeat(pos, ctx), colour)), panel,
           {disabled: !pos.midfield_available[colour],
            label: `take the ${NAMES[colour]} midfield card`});
  }
  const deck = html("div", {class: "cuc-panel"}, root);
  html("span", {}, deck, `Race deck: ${pos.deck_count} left · revealed: `
    + `${pos.revealed.join(" ") || "none"}`);
  const pick = selectInput("reveal", CARDS.map((c) => [c, c]), CARDS[0], "reveal-card",
                           () => null, deck);
  button("Reveal", "reveal", () => ctx.edit(reveal(pos, pick.value)), deck);
  button("Take back last", "unreveal", () => ctx.edit(unreveal(pos)), deck,
         {disabled: !pos.revealed.length});
}

function legCards(cell, pos, ctx, seat) {
  const held = pos.leg_cards[seat];
  held.leader.forEach(([colour, value], i) => button(
    `${NAMES[colour]} ${value}`, `held-leader-${seat}-${i}`,
    () => ctx.edit(giveBack(pos, seat, "leader", i)), cell,
    {label: `give back player ${seat}'s ${NAMES[colour]} ${value} leader card`}));
  held.midfield.forEach((colour, i) => button(
    `${NAMES[colour]} mid`, `held-midfield-${seat}-${i}`,
    () => ctx.edit(giveBack(pos, seat, "midfield", i)), cell,
    {label: `give back player ${seat}'s ${NAMES[colour]} midfield card`}));
}

function playerTable(root, pos, ctx) {
  const table = html("table", {class: "cuc-players"},
                     html("div", {style: "overflow-x: auto"}, root));
  const head = html("tr", {}, html("thead", {}, table));
  for (const h of ["seat", "money", "hand card", "blue card", "leg cards (click: give back)",
                   "winner", "loser"]) {
    html("th", {scope: "col"}, head, h);
  }
  const body = html("tbody", {}, table);
  const colours = [["", "–"], ...Object.entries(NAMES)];
  for (let seat = 0; seat < pos.players; seat += 1) {
    const tr = html("tr", {}, body);
    const marks = [seat === pos.to_move ? "to move" : "",
                   seat === pos.viewer ? "viewer" : ""].filter(Boolean).join(", ");
    html("th", {scope: "row"}, tr, `P${seat}${marks ? ` (${marks})` : ""}`);
    numberInput("", pos.money[seat], `money-${seat}`,
                (v) => ctx.edit(setSeat(pos, "money", seat, v)), html("td", {}, tr),
                {min: 1});
    const hand = html("td", {}, tr);
    const box = html("input", {type: "checkbox", "data-testid": `hand-${seat}`,
                               "aria-label": `player ${seat} holds a hand card`}, hand);
    box.checked = pos.hands[seat];
    box.addEventListener("change", () => ctx.edit(setSeat(pos, "hands", seat, box.checked)));
    html("td", {}, tr, pos.blue_cards?.[seat] ?? "–");
    legCards(html("td", {}, tr), pos, ctx, seat);
    for (const kind of ["winner", "loser"]) {
      selectInput("", colours, pos.final_cards[seat][kind] ?? "", `${kind}-${seat}`,
                  (v) => ctx.edit(setFinal(pos, seat, kind, v)), html("td", {}, tr));
    }
  }
}

function facts(root, pos) {
  const own = pos.own_cards ?? {};
  const played = pos.played_hand_cards.map((p) => `P${p.player} ${p.card}`).join(", ");
  html("p", {class: "cuc-facts"}, root,
       `Leg ${pos.leg} · ${pos.status} · viewer P${pos.viewer}'s cards: dealt `
       + `${(own.dealt ?? []).join(" ")}; discarded ${(own.discarded ?? []).join(" ")};`
       + ` into the deck ${(own.deck ?? []).join(" ")}; hand ${own.hand ?? "played"}`
       + ` · hand cards played: ${played || "none"} · track: last space ${pos.track.last},`
       + ` cards ${pos.track.cards.join(" ")} · setup ${JSON.stringify(pos.setup)}`
       + ` · ages (youngest first) ${pos.ages.join(" ")}`);
}

// ---------------------------------------------------------------- the module

export function render(root, pos, ctx) {
  style(CSS, "cuc-board-style");
  const again = () => render(root, pos, ctx);
  const perRow = narrow(root, 560, ctx.game, again) ? PER_ROW / 2 : PER_ROW;
  const own = {...ctx, rerender: again, perRow};
  own.clicks = pickAndPlace(own, (camel) => whereIs(pos, camel)?.space,
                           (camel, space) => moveCamel(pos, camel, space));
  redraw(root, () => {
    const cells = pos.track.last + 2;
    const rows = Math.ceil(cells / perRow);
    const board = svg("svg", {viewBox: `0 0 ${16 + perRow * (CELL_W + 4)} `
                                + `${16 + rows * (CELL_H + 12)}`,
                              class: "cuc-board", role: "group",
                              "aria-label": "Camel Up Cards track"}, root);
    drawTrack(board, pos, own);
    toolPanel(root, pos, own);
    betPanel(root, pos, own);
    playerTable(root, pos, own);
    facts(root, pos);
  });
}
