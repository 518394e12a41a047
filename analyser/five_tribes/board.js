// Five Tribes board for `oddsbot serve` (docs/serve.md, Board modules).
// Draws the position JSON of docs/games/five-tribes.md §18.1: the 5 x 6 Sultanate (each
// tile's type and VP, its meeples by colour, the camel of its owner, palms and palaces),
// the bid order and turn order tracks (§5), each player's gold (or secret gold, §14.13),
// camels left, Viziers, Elders, merchandise, Fakirs and djinns, the face-up resource row
// (the market) and djinns, and the discard piles.
// Edits, each one passed to ctx.edit (the page validates it): pick a tile, then add or
// remove meeples of a colour, set or clear the camel owner (the owner's camels left follow),
// add or remove palms and palaces; change a player's gold, Viziers, Elders, Fakirs and
// merchandise.

import {activatable, focusButton, refocus, html, style, svg} from "/static/boardkit.js";

const TILES = {
  "oasis": {name: "Oasis", fill: "#cfe6b8", blue: false},
  "small-market": {name: "Small market", fill: "#f6dcae", blue: false},
  "large-market": {name: "Large market", fill: "#efc58a", blue: false},
  "village": {name: "Village", fill: "#c9d8ea", blue: true},
  "sacred-place": {name: "Sacred place", fill: "#ddd0ee", blue: true},
};
const MEEPLES = [
  ["Y", "Vizier", "#f2c500"], ["W", "Elder", "#ffffff"], ["B", "Builder", "#2f6fd0"],
  ["G", "Merchant", "#2e9a44"], ["R", "Assassin", "#cc2a22"],
];
const SEAT_COLOUR = ["#d2691e", "#6a3d9a", "#1b9e77", "#e7298a"];
const GOODS = ["ivory", "jewels", "gold", "papyrus", "silk", "spice", "fish", "wheat",
               "pottery"];
const HELD = [["viziers", "Vizier"], ["elders", "Elder"], ["fakirs", "Fakir"]];
const TURN_SPACES = ["18", "12", "8", "5", "3", "1", "0"];
const CELL = 116, GAP = 6;

/** A button of this board that keeps the keyboard focus (boardkit's). */
const button = (...args) => focusButton("ft-btn", ...args);

/** A count with − and + buttons; `change(delta)` makes the edit. */
function stepper(parent, text, what, testid, value, change, state, min = 0) {
  const row = html("div", {class: "ft-step"}, parent);
  html("span", {class: "ft-step-name"}, row, text);
  button(row, "−", `one ${what} less`, `${testid}-minus`, () => change(-1), state,
         value > min);
  html("span", {class: "ft-num", "data-testid": testid}, row, String(value));
  button(row, "+", `one ${what} more`, `${testid}-plus`, () => change(1), state);
  return row;
}

const count = (meeples, colour) => [...meeples].filter((m) => m === colour).length;

/** Meeples in the order oddsbot writes them (Y W B G R). */
const sortMeeples = (meeples) => [...meeples]
  .sort((a, b) => "YWBGR".indexOf(a) - "YWBGR".indexOf(b)).join("");

/** How a tile is read aloud. */
function tileLabel(cell, r, c) {
  const parts = [`tile r${r}c${c}`, `${TILES[cell.tile].name} ${cell.vp}`];
  const m = MEEPLES.filter(([k]) => count(cell.meeples, k))
    .map(([k, name]) => `${count(cell.meeples, k)} ${name}`);
  parts.push(m.length ? m.join(" ") : "no meeples");
  if (cell.owner !== null && cell.owner !== undefined) {
    parts.push(`camel of player ${cell.owner}`);
  }
  if (cell.palms) parts.push(`${cell.palms} palm${cell.palms > 1 ? "s" : ""}`);
  if (cell.palaces) parts.push(`${cell.palaces} palace${cell.palaces > 1 ? "s" : ""}`);
  return parts.join(", ");
}

/** One tile of the Sultanate at (x, y). */
function drawTile(board, pos, r, c, x, y, ctx, redraw) {
  const cell = pos.board[r][c];
  const kind = TILES[cell.tile];
  const sel = ctx.state.tile;
  const picked = sel && sel[0] === r && sel[1] === c;
  const g = svg("g", {}, board);
  svg("rect", {x, y, width: CELL, height: CELL, rx: 8, fill: kind.fill,
               stroke: picked ? "#111" : "#8c7a5b", "stroke-width": picked ? 4 : 1.2}, g);
  svg("circle", {cx: x + 17, cy: y + 17, r: 14, fill: kind.blue ? "#2457a6" : "#b3261e"}, g);
  const vp = svg("text", {x: x + 17, y: y + 23, "text-anchor": "middle", "font-size": 17,
                          "font-weight": 700, fill: "#fff"}, g);
  vp.textContent = cell.vp;
  const name = svg("text", {x: x + 35, y: y + 22, "font-size": 11, fill: "#333"}, g);
  name.textContent = kind.name;
  // meeples in two columns on the left, the camel, palms and palaces in the right one
  MEEPLES.filter(([k]) => count(cell.meeples, k)).forEach(([k, , fill], i) => {
    const mx = x + 13 + (i % 2) * 38, my = y + 46 + Math.floor(i / 2) * 24;
    svg("path", {d: `M${mx - 8} ${my + 10} L${mx - 6} ${my - 1} ` +
                    `A7 7 0 1 1 ${mx + 6} ${my - 1} L${mx + 8} ${my + 10} Z`,
                 fill, stroke: "#333", "stroke-width": 1}, g);
    const n = svg("text", {x: mx + 11, y: my + 9, "font-size": 17, "font-weight": 700,
                           fill: "#222"}, g);
    n.textContent = count(cell.meeples, k);
  });
  const rx = x + 84;
  if (cell.owner !== null && cell.owner !== undefined) {
    svg("rect", {x: rx - 4, y: y + 36, width: 32, height: 22, rx: 5,
                 fill: SEAT_COLOUR[cell.owner], stroke: "#222"}, g);
    const t = svg("text", {x: rx + 12, y: y + 53, "text-anchor": "middle", "font-size": 15,
                           "font-weight": 700, fill: "#fff"}, g);
    t.textContent = `P${cell.owner}`;
  }
  if (cell.palms) {
    svg("path", {d: `M${rx + 2} ${y + 86} l0 -12 m0 0 l-6 -4 m6 4 l6 -4 m-6 4 l0 -7`,
                 stroke: "#1c6b2a", "stroke-width": 3, fill: "none"}, g);
    const t = svg("text", {x: rx + 11, y: y + 84, "font-size": 16, "font-weight": 700}, g);
    t.textContent = cell.palms;
  }
  if (cell.palaces) {
    svg("path", {d: `M${rx - 4} ${y + 108} l0 -10 l6 -6 l6 6 l0 10 z`, fill: "#fafafa",
                 stroke: "#555"}, g);
    const t = svg("text", {x: rx + 11, y: y + 107, "font-size": 16, "font-weight": 700}, g);
    t.textContent = cell.palaces;
  }
  const label = `${tileLabel(cell, r, c)}${picked ? ", picked" : ""}`;
  activatable(g, label, `tile-${r}-${c}`, () => {
    ctx.state.tile = picked ? null : [r, c];
    redraw();
  }, ctx.state);
}

/** The Sultanate as one SVG (5 rows of 6 tiles; §2). */
function drawBoard(root, pos, ctx, redraw) {
  const width = 6 * (CELL + GAP) + GAP, height = 5 * (CELL + GAP) + GAP;
  const board = svg("svg", {viewBox: `0 0 ${width} ${height}`, class: "ft-svg",
                            role: "group", "aria-label": "The Sultanate"}, root);
  pos.board.forEach((row, r) => row.forEach((_, c) => {
    drawTile(board, pos, r, c, GAP + c * (CELL + GAP), GAP + r * (CELL + GAP), ctx, redraw);
  }));
}

/** The position with tile (r, c) changed by `change(cell, next)`. */
function editTile(pos, r, c, change) {
  const next = structuredClone(pos);
  change(next.board[r][c], next);
  return next;
}

/** The picked tile's meeples, camel, palms and palaces. */
function drawTilePanel(panel, pos, ctx) {
  const box = html("fieldset", {class: "ft-tile"}, panel);
  const sel = ctx.state.tile;
  const cell = sel && pos.board[sel[0]] && pos.board[sel[0]][sel[1]];
  html("legend", {}, box, cell ? `Tile r${sel[0]}c${sel[1]}: ${TILES[cell.tile].name} ` +
       `${cell.vp}` : "Tile");
  if (!cell) {
    html("div", {}, box, "Click a tile to change its meeples, camel, palms or palaces.");
    return;
  }
  const [r, c] = sel;
  const grid = html("div", {class: "ft-grid"}, box);
  for (const [k, name] of MEEPLES) {
    stepper(grid, `${name}s (${k})`, `${name} on r${r}c${c}`, `meeple-${k}`,
            count(cell.meeples, k), (delta) => ctx.edit(editTile(pos, r, c, (t) => {
              t.meeples = delta > 0 ? sortMeeples(t.meeples + k)
                : t.meeples.replace(k, "");
            })), ctx.state);
  }
  for (const [key, what] of [["palms", "palm"], ["palaces", "palace"]]) {
    stepper(grid, `${what[0].toUpperCase()}${what.slice(1)}s`, `${what} on r${r}c${c}`,
            key === "palms" ? "palm" : "palace", cell[key] || 0,
            (delta) => ctx.edit(editTile(pos, r, c, (t) => {
              t[key] = (t[key] || 0) + delta;
            })),
            ctx.state);
  }
  const owners = html("div", {class: "ft-row", role: "group", "aria-label": "camel owner"},
                      box);
  html("span", {}, owners, "Camel:");
  const owner = cell.owner === undefined ? null : cell.owner;
  [null, ...pos.players.map((_, p) => p)].forEach((p) => {
    const b = button(owners, p === null ? "none" : `P${p}`,
                     p === null ? `no camel on r${r}c${c}`
                       : `camel of player ${p} on r${r}c${c}`,
                     p === null ? "owner-none" : `owner-${p}`,
                     () => ctx.edit(editTile(pos, r, c, (t, next) => setOwner(t, next, p))),
                     ctx.state);
    b.setAttribute("aria-pressed", String(owner === p));
  });
}

/** Put player p's camel on tile t (null: none); the camels left follow (§18.1). */
function setOwner(t, next, p) {
  const old = t.owner === undefined ? null : t.owner;
  if (old === p) return;
  const camels = (seat, delta) => {
    if (seat !== null && typeof next.players[seat].camels === "number") {
      next.players[seat].camels += delta;
    }
  };
  camels(old, 1);
  camels(p, -1);
  t.owner = p;
}

/** A readable gold: a number, or the secret interval (§14.13). */
function goldText(gold) {
  if (gold === null) return "secret (0–100)";
  if (Array.isArray(gold)) return `secret (${gold[0]}–${gold[1]})`;
  return `${gold} GC`;
}

/** The position with player p changed by `change(player)`. */
function editPlayer(pos, p, change) {
  const next = structuredClone(pos);
  change(next.players[p]);
  return next;
}

/** Each player: gold, camels, Viziers, Elders, Fakirs, merchandise, djinns. */
function drawPlayers(panel, pos, ctx) {
  const box = html("fieldset", {class: "ft-players"}, panel);
  html("legend", {}, box, "Players");
  pos.players.forEach((pl, p) => {
    const card = html("div", {class: "ft-player", "data-testid": `player-${p}`}, box);
    const head = html("div", {class: "ft-row"}, card);
    html("span", {class: "ft-swatch", style: `background:${SEAT_COLOUR[p]}`}, head);
    html("strong", {}, head, `Player ${p}${pos.to_move === p ? " — to move" : ""}`);
    html("span", {class: "ft-note"}, head, `${pl.camels} camels left`);
    const grid = html("div", {class: "ft-grid"}, card);
    if (typeof pl.gold === "number") {
      const row = stepper(grid, "Gold", `GC for player ${p}`, `gold-${p}`, pl.gold,
                          (d) => ctx.edit(editPlayer(pos, p, (q) => { q.gold += d; })),
                          ctx.state);
      button(row, "+5", `5 GC more for player ${p}`, `gold-${p}-plus5`,
             () => ctx.edit(editPlayer(pos, p, (q) => { q.gold += 5; })), ctx.state);
    } else {
      html("div", {class: "ft-step", "data-testid": `gold-${p}`}, grid,
           `Gold: ${goldText(pl.gold)}`);
    }
    for (const [key, what] of HELD) {
      stepper(grid, `${what}s`, `${what} held by player ${p}`, `${key}-${p}`, pl[key] || 0,
              (d) => ctx.edit(editPlayer(pos, p, (q) => { q[key] = (q[key] || 0) + d; })),
              ctx.state);
    }
    const goods = pl.goods || {};
    for (const good of GOODS.filter((g) => goods[g])) {
      stepper(grid, good, `${good} held by player ${p}`, `goods-${good}-${p}`, goods[good],
              (d) => ctx.edit(editPlayer(pos, p, (q) => {
                q.goods[good] += d;
                if (!q.goods[good]) delete q.goods[good];
              })), ctx.state);
    }
    const add = html("div", {class: "ft-row"}, card);
    const pick = html("select", {"aria-label": `merchandise to give player ${p}`,
                                 "data-testid": `goods-pick-${p}`}, add);
    for (const good of GOODS) html("option", {value: good}, pick, good);
    button(add, "+ card", `give player ${p} one card of the chosen merchandise`,
           `goods-add-${p}`, () => ctx.edit(editPlayer(pos, p, (q) => {
             const goods = q.goods || {};
             q.goods = {...goods, [pick.value]: (goods[pick.value] || 0) + 1};
           })), ctx.state);
    const used = pl.djinns_used || [];
    html("div", {class: "ft-note"}, card, `Djinns: ${(pl.djinns || [])
      .map((d) => (used.includes(d) ? `${d} (used)` : d)).join(", ") || "none"}`);
  });
}

/** Bid order and turn order tracks, the phase, the market and the djinns on display. */
function drawTable(panel, pos) {
  const box = html("fieldset", {class: "ft-table"}, panel);
  html("legend", {}, box, "Tracks and market");
  const seat = (s) => `P${s}`;
  html("div", {"data-testid": "bid-track"}, box,
       `Bid order (front first): ${(pos.bid_track || []).map(seat).join(", ") || "empty"}`);
  const turn = pos.turn_track || {};
  const spaces = TURN_SPACES.flatMap((cost) => {
    const at = turn[cost];
    if (at === undefined) return [];
    return (Array.isArray(at) ? at : [at]).map((s) => `${cost}: ${seat(s)}`);
  });
  html("div", {"data-testid": "turn-track"}, box,
       `Turn order (spaces 18 12 8 5 3 1 0 0 0): ${spaces.join(", ") || "empty"}`);
  html("div", {}, box, `Phase: ${pos.phase}; player ${pos.to_move} to move.`);
  const market = html("div", {class: "ft-row", "data-testid": "market"}, box);
  html("span", {}, market, "Market (front first):");
  (pos.resources || []).forEach((card) => {
    html("span", {class: `ft-card${card === "fakir" ? " ft-fakir" : ""}`}, market, card);
  });
  html("div", {"data-testid": "djinns"}, box,
       `Djinns on display: ${(pos.djinns || []).join(", ") || "none"}`);
  const rules = Object.entries(pos.rules || {}).map(([k, v]) => `${k}=${v}`);
  if (rules.length) html("div", {class: "ft-note"}, box, `Rules: ${rules.join(", ")}`);
  const rd = pos.resource_discard || [], dd = pos.djinn_discard || [];
  if (rd.length || dd.length) {
    html("div", {class: "ft-note"}, box, `Discarded: ${rd.length} resource cards ` +
         `(${rd.join(", ") || "none"}); djinns ${dd.join(", ") || "none"}`);
  }
}

const STYLE = `
.ft-board{display:flex;flex-wrap:wrap;gap:12px;align-items:flex-start}
.ft-svg{width:100%;height:auto;display:block}
.ft-sultanate{flex:1 1 520px;min-width:0}
.ft-panel{
flex:1 1 300px;max-width:480px;display:flex;flex-direction:column;gap:8px;min-width:0}
.ft-panel fieldset{border:1px solid #bbb;border-radius:6px;margin:0;padding:6px 8px}
.ft-row{display:flex;flex-wrap:wrap;gap:5px;align-items:center;margin:3px 0}
.ft-grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(190px,1fr));gap:2px 10px}
.ft-step{display:flex;gap:4px;align-items:center}
.ft-step-name{flex:1}
.ft-num{min-width:2.2em;text-align:center;font-variant-numeric:tabular-nums}
.ft-player{border-top:1px solid #ddd;padding-top:4px;margin-top:4px}
.ft-swatch{width:14px;height:14px;border-radius:3px;display:inline-block}
.ft-btn{font:inherit;padding:2px 8px;min-height:30px;min-width:30px;cursor:pointer}
.ft-btn[aria-pressed=true]{background:#333;color:#fff}
.ft-card{
border:1px solid #b9975b;background:#fff6df;border-radius:4px;padding:1px 5px;font-size:.9em}
.ft-fakir{background:#eee;border-color:#777}
.ft-note{font-size:.9em;color:#444}
.ft-board [role=button]{cursor:pointer}
.ft-board [role=button]:focus{outline:none}
.ft-board [role=button]:focus-visible text{stroke:none}
.ft-board [role=button]:focus-visible>rect{stroke:#1a73e8;stroke-width:5}
.ft-board button:focus-visible,.ft-board select:focus-visible{
outline:3px solid #1a73e8;outline-offset:2px}
`;

/** Draw the board for `pos` into `root` (docs/serve.md, Board modules). */
export function render(root, pos, ctx) {
  const redraw = () => render(root, pos, ctx);
  root.replaceChildren();
  style(STYLE, "ft-board-style");
  const wrap = html("div", {class: "ft-board"}, root);
  const sultanate = html("div", {class: "ft-sultanate"}, wrap);
  const panel = html("div", {class: "ft-panel"}, wrap);
  drawBoard(sultanate, pos, ctx, redraw);
  drawTilePanel(panel, pos, ctx);
  drawTable(panel, pos);
  drawPlayers(panel, pos, ctx);
  refocus(root, ctx.state);
}
