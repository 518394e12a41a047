// The Camel Up board (camel-up and camel-up-2014): docs/serve.md, Board modules; the position
// JSON's fields are docs/games/camel-up.md §13.1 (what they mean: §3).
// Edits: a camel then a space (or a camel there) moves the camel with the camels on it on
// top of that stack (§5.2); a space then a tile button places, flips or removes the seat's
// spectator tile (§5.4); a die in the pyramid marks it rolled, a rolled one puts it back;
// a ticket stack gives its top ticket to the seat, a held ticket goes back; money, pyramid
// tickets and the seat to move are inputs.

import {button, clickable, copy, html, moveUnit, narrow, numberInput, pickAndPlace,
  pickedSeat, redraw, seats, selectInput, style, svg, whereIn} from "/static/boardkit.js";

const COLOURS = {
  blue: "#2f6fd6", green: "#2e9e48", yellow: "#f2cf2a", red: "#d63a2f", purple: "#8a4bc2",
  white: "#f4f4f4", black: "#222222", orange: "#ee8a1f", grey: "#9a9a9a",
};
const DARK_TEXT = new Set(["yellow", "white", "orange"]);
const SPACES = 16;
const SPACE_W = 110;
const SPACE_H = 200;
const CAMEL_H = 24;
const LEFT = 44;

const CSS = `
.cu-board .space { fill: #f3e6c4; stroke: #b59a5a; }
.cu-board .space.picked { fill: #ffe08a; }
.cu-board .camel.picked { stroke: #1f5fbf; stroke-width: 4; stroke-dasharray: 7 3; }
.cu-board .clickable { cursor: pointer; }
.cu-board .clickable:focus { outline: none; }
.cu-board .clickable:focus > rect, .cu-board rect.clickable:focus { stroke: #ff9f1a;
  stroke-width: 5; }
.cu-board text { font-family: system-ui, sans-serif; pointer-events: none; }
.cu-board .num { font-size: 15px; fill: #6b5a2e; }
.cu-board .rolled { opacity: 0.35; }
.cu-panel { display: flex; flex-wrap: wrap; gap: 0.3rem 0.8rem; align-items: center;
  margin: 0.3rem 0; }
.cu-players { border-collapse: collapse; font-size: 0.85rem; width: 100%; }
.cu-players th, .cu-players td { border-bottom: 1px solid #ddd; padding: 2px 4px;
  text-align: left; vertical-align: middle; }
.cu-players input { width: 4.5em; }
.cu-players button { padding: 0 0.3rem; margin: 1px; }
.cu-swatch { display: inline-block; width: 0.8em; height: 0.8em; border: 1px solid #555;
  vertical-align: middle; margin-right: 2px; }
`;

/** Where a space is drawn: rows of `perRow` spaces, snaking (1-8 left to right on top,
 * 9-16 right to left below; 4 rows of 4 on a phone), so 16 ends beside the finish. */
function spaceBox(space, perRow) {
  const row = Math.floor((space - 1) / perRow);
  const step = (space - 1) % perRow;
  const col = row % 2 ? perRow - 1 - step : step;
  return {x: LEFT + col * (SPACE_W + 6), y: 8 + row * (SPACE_H + 16), w: SPACE_W,
          h: SPACE_H};
}

function stackOf(pos, space) {
  return pos.track[String(space)] ?? [];
}

const whereIs = (pos, camel) => whereIn(pos.track, camel);

// ---------------------------------------------------------------- edits

/** The camel and the camels on it go on top of `space`'s stack (§5.2). */
function moveCamel(pos, camel, space) {
  const from = whereIs(pos, camel);
  if (!from || from.space === space) return null;
  const next = copy(pos);
  moveUnit(next.track, String(from.space), from.index, String(space));
  return next;
}

/** The leg's turns are derived again after an edit that changes them (§13.4). */
function retimed(pos) {
  delete pos.leg_start;
  return pos;
}

function placeTile(pos, seat, space, side) {
  const next = copy(pos);
  next.tiles = (next.tiles ?? []).filter((t) => t.owner !== seat && t.space !== space);
  next.tiles.push({owner: seat, space, side});
  return retimed(next);
}

function flipTile(pos, space) {
  const next = copy(pos);
  const tile = next.tiles.find((t) => t.space === space);
  tile.side = tile.side === "cheer" ? "boo" : "cheer";
  return next;
}

function removeTile(pos, space) {
  const next = copy(pos);
  next.tiles = next.tiles.filter((t) => t.space !== space);
  return retimed(next);
}

/** A die goes out of the pyramid (rolled) or back in; pyramid tickets are derived again. */
function toggleDie(pos, die) {
  const next = copy(pos);
  next.pyramid = next.pyramid.includes(die)
    ? next.pyramid.filter((d) => d !== die)
    : [...next.pyramid, die];
  delete next.pyramid_tickets;
  return retimed(next);
}

function takeTicket(pos, seat, colour) {
  const top = pos.ticket_stacks[colour]?.[0];
  if (top === undefined) return null;
  const next = copy(pos);
  next.leg_tickets[seat].push([colour, top]);
  delete next.ticket_stacks;
  return retimed(next);
}

function returnTicket(pos, seat, index) {
  const next = copy(pos);
  next.leg_tickets[seat].splice(index, 1);
  delete next.ticket_stacks;
  return retimed(next);
}

function setSeatValue(pos, key, seat, value) {
  const next = copy(pos);
  next[key][seat] = value;
  return key === "pyramid_tickets" ? retimed(next) : next;
}

// ---------------------------------------------------------------- drawing

function allDice(pos) {
  const racing = Object.keys(pos.ticket_stacks);
  return pos.variant === "camel-up-2014" ? racing : [...racing, "grey"];
}

function drawFinish(root, rows) {
  const h = rows * (SPACE_H + 16) - 16;
  for (let i = 0; i < h / 12; i += 1) {
    svg("rect", {x: 8 + (i % 2) * 12, y: 8 + i * 12, width: 12, height: 12,
                 fill: "#222"}, root);
    svg("rect", {x: 8 + ((i + 1) % 2) * 12, y: 8 + i * 12, width: 12, height: 12,
                 fill: "#fff", stroke: "#222", "stroke-width": 0.5}, root);
  }
  svg("text", {x: 20, y: 8 + h / 2, "text-anchor": "middle", "font-size": 13,
               transform: `rotate(-90 20 ${8 + h / 2})`, fill: "#b00", stroke: "#fff",
               "stroke-width": 4, "paint-order": "stroke", "font-weight": 700}, root,
      "finish (after 16)");
}

function drawTile(g, box, tile, name) {
  const cheer = tile.side === "cheer";
  svg("rect", {x: box.x + 8, y: box.y + box.h - 46, width: box.w - 16, height: 38, rx: 6,
               fill: cheer ? "#cdebc4" : "#f3c4c0", stroke: "#555"}, g);
  svg("text", {x: box.x + box.w / 2, y: box.y + box.h - 22, "text-anchor": "middle",
               "font-size": 15}, g,
      `${cheer ? "+1 cheer" : "−1 boo"} · P${name(tile.owner)}`);
}

function drawCamel(g, box, camel, index, picked) {
  const y = box.y + box.h - 8 - (index + 1) * CAMEL_H;
  svg("rect", {x: box.x + 6, y, width: box.w - 12, height: CAMEL_H - 2, rx: 5,
               fill: COLOURS[camel], stroke: "#333", class: `camel${picked ? " picked" : ""}`},
      g);
  svg("text", {x: box.x + box.w / 2, y: y + CAMEL_H - 8, "text-anchor": "middle",
               "font-size": 14, fill: DARK_TEXT.has(camel) ? "#222" : "#fff"}, g, camel);
}

function drawTrack(root, pos, ctx, name) {
  const picked = ctx.state.piece;
  const tiles = new Map((pos.tiles ?? []).map((t) => [t.space, t]));
  for (let space = 1; space <= SPACES; space += 1) {
    const box = spaceBox(space, ctx.perRow);
    const stack = stackOf(pos, space);
    const tile = tiles.get(space);
    const g = svg("g", {}, root);
    const what = stack.length ? stack.join(", ") + " (bottom up)"
      : tile ? `${tile.side} tile of player ${name(tile.owner)}` : "empty";
    clickable(g, `space ${space}: ${what}`, `space-${space}`,
              () => ctx.clicks.onSpace(space));
    svg("rect", {x: box.x, y: box.y, width: box.w, height: box.h, rx: 8,
                 class: `space${ctx.state.space === space ? " picked" : ""}`}, g);
    svg("text", {x: box.x + 6, y: box.y + 18, class: "num"}, g, String(space));
    if (tile) drawTile(g, box, tile, name);
    stack.forEach((camel, i) => {
      const cg = svg("g", {}, root);
      drawCamel(cg, box, camel, i, picked === camel);
      const label = picked && picked !== camel && whereIs(pos, picked)?.space !== space
        ? `move the ${picked} camel onto space ${space}`
        : `${camel} camel on space ${space}, ${i + 1} from the bottom`;
      clickable(cg, label, `camel-${camel}`, () => ctx.clicks.onPiece(camel, space));
    });
  }
}

/** Where a row of pyramid dice or ticket stacks starts: beside its title, or below it
 * on a phone. */
function rowStart(ctx, y) {
  return ctx.perRow === 4 ? {x: LEFT, y: y + 26, step: 92} : {x: LEFT + 250, y, step: 110};
}

function drawPyramid(root, pos, ctx, top) {
  svg("text", {x: LEFT, y: top + 20, "font-size": 16}, root, "Pyramid: dice in / rolled");
  const {x: x0, y} = rowStart(ctx, top);
  allDice(pos).forEach((die, i) => {
    const inside = pos.pyramid.includes(die);
    const x = x0 + i * 60;
    const g = svg("g", {class: inside ? "" : "rolled"}, root);
    svg("rect", {x, y, width: 42, height: 42, rx: 6, fill: COLOURS[die], stroke: "#333"}, g);
    svg("text", {x: x + 21, y: y + 57, "text-anchor": "middle", "font-size": 12}, g,
        inside ? "in" : "rolled");
    clickable(g, `${die} die ${inside ? "in the pyramid: mark it rolled"
      : "rolled: put it back in the pyramid"}`, `die-${die}`,
    () => ctx.edit(toggleDie(pos, die)));
  });
}

function drawTickets(root, pos, ctx, top) {
  svg("text", {x: LEFT, y: top + 20, "font-size": 16}, root, "Leg tickets: top, left");
  const {x: x0, y, step} = rowStart(ctx, top);
  Object.entries(pos.ticket_stacks).forEach(([colour, stack], i) => {
    const x = x0 + i * step;
    const w = step - 12;
    const g = svg("g", {}, root);
    svg("rect", {x, y, width: w, height: 40, rx: 6, fill: COLOURS[colour],
                 stroke: "#333", opacity: stack.length ? 1 : 0.3}, g);
    svg("text", {x: x + w / 2, y: y + 27, "text-anchor": "middle", "font-size": 20,
                 fill: DARK_TEXT.has(colour) ? "#222" : "#fff"}, g,
        stack.length ? String(stack[0]) : "–");
    svg("text", {x: x + w / 2, y: y + 56, "text-anchor": "middle", "font-size": 12}, g,
        stack.length ? `left: ${stack.join(" ")}` : "none left");
    if (stack.length) {
      const seat = pickedSeat(pos, ctx);
      clickable(g, `take the ${colour} ticket ${stack[0]} for player ${seat}`,
                `stack-${colour}`, () => ctx.edit(takeTicket(pos, seat, colour)));
    }
  });
}

// ---------------------------------------------------------------- HTML panels

function toolPanel(root, pos, ctx, name) {
  const panel = html("div", {class: "cu-panel"}, root);
  const seat = pickedSeat(pos, ctx);
  selectInput("Seat for tickets and tiles", seats(pos.players, name), seat, "seat",
              (v) => { ctx.state.seat = Number(v); ctx.rerender(); }, panel);
  selectInput("To move", seats(pos.players, name), pos.to_move, "to-move",
              (v) => ctx.edit(retimed({...copy(pos), to_move: Number(v)})), panel);
  const space = ctx.state.space;
  const tile = (pos.tiles ?? []).find((t) => t.space === space);
  const text = ctx.state.piece ? `${ctx.state.piece} camel picked: click a space`
    : space ? `space ${space} picked` : "pick a camel or a space";
  html("span", {"aria-live": "polite", "data-testid": "pick"}, panel, text);
  const none = !space;
  button("Cheer tile", "tile-cheer", () => ctx.edit(placeTile(pos, seat, space, "cheer")),
         panel, {disabled: none});
  button("Boo tile", "tile-boo", () => ctx.edit(placeTile(pos, seat, space, "boo")),
         panel, {disabled: none});
  button("Flip tile", "tile-flip", () => ctx.edit(flipTile(pos, space)), panel,
         {disabled: !tile});
  button("Remove tile", "tile-remove", () => ctx.edit(removeTile(pos, space)), panel,
         {disabled: !tile});
  button("Drop pick", "unpick", () => {
    ctx.state.piece = null;
    ctx.state.space = null;
    ctx.rerender();
  }, panel, {disabled: !ctx.state.piece && !space});
}

function deckText(deck, name) {
  if (!deck?.length) return "none";
  return deck.map((c) => `P${name(c.owner)} ${c.colour ?? "?"}`).join(", ");
}

function playerTable(root, pos, ctx, name) {
  const table = html("table", {class: "cu-players"},
                     html("div", {style: "overflow-x: auto"}, root));
  const head = html("tr", {}, html("thead", {}, table));
  const partners = Array.isArray(pos.partnership);
  for (const h of ["seat", "money (EP)", "leg tickets (click: give back)", "pyramid",
                   "finish hand", ...(partners ? ["partner"] : [])]) {
    html("th", {scope: "col"}, head, h);
  }
  const body = html("tbody", {}, table);
  for (let seat = 0; seat < pos.players; seat += 1) {
    const tr = html("tr", {}, body);
    const marks = [seat === pos.to_move ? "to move" : "",
                   seat === pos.leg_start ? "leg start" : ""].filter(Boolean).join(", ");
    html("th", {scope: "row"}, tr, `P${name(seat)}${marks ? ` (${marks})` : ""}`);
    numberInput("", pos.money[seat], `money-${seat}`,
                (v) => ctx.edit(setSeatValue(pos, "money", seat, v)), html("td", {}, tr));
    const tickets = html("td", {}, tr);
    pos.leg_tickets[seat].forEach(([colour, value], i) => {
      const b = button(`${colour} ${value}`, `ticket-${seat}-${i}`,
                       () => ctx.edit(returnTicket(pos, seat, i)), tickets,
                       {label: `give back player ${name(seat)}'s ${colour} ${value}`});
      b.prepend(html("span", {class: "cu-swatch", style: `background:${COLOURS[colour]}`}));
    });
    numberInput("", pos.pyramid_tickets[seat], `pyramid-${seat}`,
                (v) => ctx.edit(setSeatValue(pos, "pyramid_tickets", seat, v)),
                html("td", {}, tr), {max: 5});
    const hand = pos.finish_hand?.[seat];
    html("td", {}, tr, hand === null || hand === undefined ? "hidden" : hand.join(" "));
    if (partners) {
      const p = pos.partnership[seat];
      html("td", {}, tr, p === null ? "available" : `P${name(p)}`);
    }
  }
  const decks = html("p", {class: "cu-panel"}, root);
  decks.textContent = `Winner deck: ${deckText(pos.winner_deck, name)} · Loser deck: `
    + `${deckText(pos.loser_deck, name)} · rules: ${JSON.stringify(pos.rules ?? {})}`
    + ` · ${pos.status}`;
}

// ---------------------------------------------------------------- the module

export function render(root, pos, ctx) {
  style(CSS, "cu-board-style");
  const name = String;  // Camel Up names seats 0.. as in to=0 (face.player_name)
  const again = () => render(root, pos, ctx);
  const perRow = narrow(root, 560, ctx.game, again) ? 4 : 8;
  const own = {...ctx, rerender: again, perRow};
  own.clicks = pickAndPlace(own, (camel) => whereIs(pos, camel)?.space,
                           (camel, space) => moveCamel(pos, camel, space));
  redraw(root, () => {
    const rows = SPACES / perRow;
    const top = rows * (SPACE_H + 16) + 10;
    const panels = perRow === 4 ? 190 : 135;
    const board = svg("svg", {viewBox: `0 0 ${LEFT + perRow * (SPACE_W + 6)} ${top + panels}`,
                              class: "cu-board", role: "group",
                              "aria-label": `Camel Up track, ${pos.variant}`}, root);
    drawFinish(board, rows);
    drawTrack(board, pos, own, name);
    drawPyramid(board, pos, own, top);
    drawTickets(board, pos, own, top + panels / 2 + 5);
    toolPanel(root, pos, own, name);
    playerTable(root, pos, own, name);
  });
}
