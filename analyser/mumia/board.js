// Mumia board for `oddsbot serve` (docs/serve.md, Board modules).
// Draws the position JSON of docs/games/mumia.md §14.1: the track as it lies now (START,
// the path tiles, FINISH; §0), the pawns, guardians and mummy on it, the hats (E2, §9), each
// seat's holdings (its stack of tiles bottom first, mummy tokens, action tokens with E4),
// the mummy-token stack and the action-token pile.
// Edits, each one passed to ctx.edit (the page validates it): move a pawn, a guardian or the
// mummy (click it, then a field); put a hat on the picked pawn, or play with or without the
// hats; give the tile of an empty field to a seat (it leaves the track, which closes up)
// or take a tile back out of a seat's holdings; a seat takes the top mummy token, or gives
// one back; the seat to move.

import {activatable, focusButton, refocus, html, narrow,
        style, svg} from "/static/boardkit.js";

const SEAT_COLOUR = ["#d62728", "#1f77b4", "#2ca02c", "#e6b800", "#9467bd", "#ff7f0e"];
const CELL_W = 92, GAP = 6, PITCH = 27, PER_ROW = 3, R = 11.5;

/** A button of this board that keeps the keyboard focus (boardkit's). */
const button = (...args) => focusButton("mu-btn", ...args);

const letter = (seat) => "ABCDEF"[seat];

/** A tile's name for people (§0). */
function tileText(tile) {
  if (tile === "start") return "START";
  if (tile === "finish") return "FINISH";
  if (tile.startsWith("risk")) return `risk ${tile.slice(4)}`;
  return tile;
}

function tileFill(tile) {
  if (tile === "start" || tile === "finish") return "#d9d9d9";
  if (tile.startsWith("-")) return "#f6cfc9";
  if (tile.startsWith("+")) return "#cfe8c8";
  if (tile === "camel") return "#f0d9a0";
  if (tile === "exchange") return "#c8def5";
  return "#e3d0f0";
}

/**
 * The pawns one by one, each {seat, field, hats: [..]}: a hat sits on the first pawn of
 * its seat on its field, the hat of bad luck on the second one when `split` (§14.1).
 */
function pawnsOf(pos) {
  const pawns = [];
  pos.track.forEach((f, field) => {
    for (const seat of f.pawns || []) pawns.push({seat, field, hats: []});
  });
  const hats = pos.hats || {};
  for (const kind of ["luck", "bad"]) {
    if (!hats[kind]) continue;
    const {seat, field} = hats[kind];
    const mine = pawns.filter((p) => p.seat === seat && p.field === field);
    const nth = kind === "bad" && hats.split ? 1 : 0;
    if (mine[nth]) mine[nth].hats.push(kind);
  }
  return pawns;
}

/** The position with the pawns (and so the hats) of `pawns` written back. */
function withPawns(pos, pawns) {
  const next = structuredClone(pos);
  next.track.forEach((f, field) => {
    const here = pawns.filter((p) => p.field === field).map((p) => p.seat)
      .sort((a, b) => a - b);
    if (here.length) f.pawns = here; else delete f.pawns;
  });
  if (next.hats) {
    const wearer = {};
    for (const p of pawns) for (const h of p.hats) wearer[h] = p;
    delete next.hats.split;
    for (const kind of ["luck", "bad"]) {
      if (wearer[kind]) next.hats[kind] = {seat: wearer[kind].seat, field: wearer[kind].field};
    }
    const {luck, bad} = wearer;
    if (luck && bad && luck !== bad && luck.seat === bad.seat && luck.field === bad.field) {
      next.hats.split = true;
    }
  }
  return next;
}

/** Move the picked piece to `field`. */
function moveTo(pos, ctx, field) {
  const pick = ctx.state.pick;
  ctx.state.pick = null;
  if (pick.kind === "pawn") {
    const pawns = pawnsOf(pos);
    const mine = pawns.filter((p) => p.seat === pick.seat && p.field === pick.field);
    if (!mine[pick.nth]) { ctx.edit(pos); return; }
    mine[pick.nth].field = field;
    ctx.edit(withPawns(pos, pawns));
    return;
  }
  const next = structuredClone(pos);
  const from = next.track[pick.field];
  const to = next.track[field];
  if (pick.kind === "mummy") {
    delete from.mummy;
    to.mummy = true;
  } else {
    from.guardians -= 1;
    if (!from.guardians) delete from.guardians;
    to.guardians = (to.guardians || 0) + 1;
  }
  ctx.edit(next);
}

/** Draw the pieces of one field (pawns with their hats, guardians, the mummy). */
function drawPieces(board, pos, pawns, field, x, y, ctx, redraw) {
  const pieces = [];
  const count = {};
  for (const p of pawns.filter((q) => q.field === field)) {
    count[p.seat] = (count[p.seat] || 0) + 1;
    pieces.push({kind: "pawn", seat: p.seat, nth: count[p.seat] - 1, hats: p.hats});
  }
  for (let g = 0; g < (pos.track[field].guardians || 0); g++) {
    pieces.push({kind: "guardian", nth: g});
  }
  if (pos.track[field].mummy) pieces.push({kind: "mummy"});
  pieces.forEach((piece, i) => {
    const cx = x + 18 + (i % PER_ROW) * PITCH, cy = y + 36 + Math.floor(i / PER_ROW) * PITCH;
    const pick = ctx.state.pick;
    const picked = pick && pick.kind === piece.kind && pick.field === field &&
      (piece.kind === "mummy" || (pick.nth === piece.nth && pick.seat === piece.seat));
    const g = svg("g", {}, board);
    if (picked) {  // a blue ring round the picked piece
      svg("circle", {cx, cy, r: R + 3.5, fill: "none", stroke: "#1a73e8", "stroke-width": 3},
          g);
    }
    const ring = {stroke: "#fff", "stroke-width": 1};
    let name, testid;
    if (piece.kind === "pawn") {
      // hats are rings: gold the hat of luck, black bad luck (both: black outside gold)
      const hat = {luck: "#ffc400", bad: "#111"};
      const worn = piece.hats.length ? {stroke: hat[piece.hats[0]], "stroke-width": 4} : ring;
      svg("circle", {cx, cy, r: R, fill: SEAT_COLOUR[piece.seat], ...worn}, g);
      if (piece.hats.length === 2) {
        svg("circle", {cx, cy, r: R + 3, fill: "none", stroke: hat.bad, "stroke-width": 2.5},
            g);
      }
      const t = svg("text", {x: cx, y: cy + 5, "text-anchor": "middle", "font-size": 14,
                             "font-weight": 700, fill: piece.seat === 3 ? "#000" : "#fff"}, g);
      t.textContent = letter(piece.seat);
      const hats = piece.hats.map((h) => (h === "luck" ? "hat of luck" : "hat of bad luck"));
      name = `pawn ${letter(piece.seat)} ${piece.nth + 1} on field ${field}` +
        (hats.length ? `, wearing the ${hats.join(" and the ")}` : "");
      testid = `pawn-${field}-${letter(piece.seat)}${piece.nth + 1}`;
    } else if (piece.kind === "guardian") {
      svg("rect", {x: cx - 10, y: cy - 10, width: 20, height: 20, rx: 3, fill: "#666",
                   ...ring}, g);
      const t = svg("text", {x: cx, y: cy + 5, "text-anchor": "middle", "font-size": 13,
                             fill: "#fff"}, g);
      t.textContent = "g";
      name = `guardian ${piece.nth + 1} on field ${field}`;
      testid = `guardian-${field}-${piece.nth + 1}`;
    } else {
      svg("rect", {x: cx - 11, y: cy - 11, width: 22, height: 22, rx: 9, fill: "#8b5a2b",
                   ...ring}, g);
      const t = svg("text", {x: cx, y: cy + 5, "text-anchor": "middle", "font-size": 14,
                             "font-weight": 700, fill: "#fff"}, g);
      t.textContent = "M";
      name = `the mummy on field ${field}`;
      testid = "mummy";
    }
    const elsewhere = pick && pick.field !== field;  // a piece on another field: go there
    const label = picked ? `${name}, picked` : elsewhere
      ? `${name}: move the picked piece to field ${field}` : `pick ${name}`;
    activatable(g, label, testid, () => {
      if (elsewhere) { moveTo(pos, ctx, field); return; }
      ctx.state.pick = picked ? null : {...piece, field};
      ctx.state.field = null;
      redraw();
    }, ctx.state);
  });
}

/** The track as one SVG, a row of fields wrapping at the root's width. */
function drawTrack(root, pos, ctx, redraw, small) {
  const wide = Math.max(5, Math.min(12, Math.floor((root.clientWidth || 900) / 100)));
  const cols = small ? 4 : wide;
  const rows = Math.ceil(pos.track.length / cols);
  const pieces = pos.track.map((f) => (f.pawns || []).length + (f.guardians || 0) +
                                      (f.mummy ? 1 : 0));
  const tops = [GAP];  // each row of cells as high as its most crowded field needs
  for (let r = 0; r < rows; r++) {
    const most = Math.max(PER_ROW * 2, ...pieces.slice(r * cols, (r + 1) * cols));
    tops.push(tops[r] + 30 + Math.ceil(most / PER_ROW) * PITCH + GAP);
  }
  const width = cols * (CELL_W + GAP) + GAP;
  const board = svg("svg", {viewBox: `0 0 ${width} ${tops[rows]}`, class: "mu-svg",
                            role: "group", "aria-label": "Mumia track"}, root);
  const pawns = pawnsOf(pos);
  pos.track.forEach((f, i) => {
    const row = Math.floor(i / cols);
    const x = GAP + (i % cols) * (CELL_W + GAP), y = tops[row];
    const cell = svg("g", {}, board);
    const chosen = ctx.state.field === i;
    svg("rect", {x, y, width: CELL_W, height: tops[row + 1] - y - GAP, rx: 7,
                 fill: tileFill(f.tile),
                 stroke: chosen ? "#111" : "#999", "stroke-width": chosen ? 3 : 1}, cell);
    const num = svg("text", {x: x + 5, y: y + 14, "font-size": 11, fill: "#555"}, cell);
    num.textContent = i;
    const name = svg("text", {x: x + CELL_W - 6, y: y + 17, "text-anchor": "end",
                              "font-size": f.tile.length > 3 ? 13 : 17, "font-weight": 700,
                              fill: f.tile.startsWith("-") ? "#a3120b" : "#222"}, cell);
    name.textContent = tileText(f.tile);
    const pick = ctx.state.pick;
    const label = pick ? `field ${i} (${tileText(f.tile)}): move the picked piece here`
      : `field ${i}, ${tileText(f.tile)}${chosen ? ", chosen" : ""}`;
    activatable(cell, label, `field-${i}`, () => {
      if (ctx.state.pick) { moveTo(pos, ctx, i); return; }
      ctx.state.field = chosen ? null : i;
      redraw();
    }, ctx.state);
    drawPieces(board, pos, pawns, i, x, y, ctx, redraw);
  });
}

/** The picked piece or chosen field, and what can be done with it. */
function drawPick(panel, pos, ctx, redraw) {
  const box = html("fieldset", {class: "mu-pick"}, panel);
  html("legend", {}, box, "Picked");
  const {pick, field} = ctx.state;
  if (pick) {
    const what = pick.kind === "pawn" ? `pawn ${letter(pick.seat)} ${pick.nth + 1}`
      : pick.kind;
    html("div", {}, box, `${what} on field ${pick.field}: click a field to move it there.`);
    if (pick.kind === "pawn" && pos.hats) {
      for (const [kind, text] of [["luck", "hat of luck"], ["bad", "hat of bad luck"]]) {
        button(box, `put on the ${text}`, `put the ${text} on the picked pawn`, `hat-${kind}`,
               () => {
                 const pawns = pawnsOf(pos);
                 for (const p of pawns) p.hats = p.hats.filter((h) => h !== kind);
                 pawns.filter((p) => p.seat === pick.seat && p.field === pick.field)[pick.nth]
                   .hats.push(kind);
                 ctx.state.pick = null;
                 ctx.edit(withPawns(pos, pawns));
               }, ctx.state);
      }
    }
    button(box, "drop pick", "drop the picked piece", "unpick", () => {
      ctx.state.pick = null;
      redraw();
    }, ctx.state);
  } else if (field !== null && field !== undefined && pos.track[field]) {
    const tile = pos.track[field].tile;
    html("div", {}, box, `field ${field}: ${tileText(tile)}. Give its tile to:`);
    const row = html("div", {class: "mu-row"}, box);
    for (let s = 0; s < pos.players; s++) {
      button(row, letter(s),
             `give the tile ${tileText(tile)} of field ${field} to ${letter(s)}`,
             `take-${letter(s)}`, () => {
               ctx.state.field = null;
               ctx.edit(collect(pos, field, s));
             }, ctx.state);
    }
  } else {
    html("div", {}, box, "Click a pawn, guardian or the mummy, then a field to move it; " +
                         "click a field to give its tile to a seat.");
  }
}

/** The position after seat `s` takes the tile of `field` (the track closes up, §0). */
function collect(pos, field, s) {
  const next = structuredClone(pos);
  const [gone] = next.track.splice(field, 1);
  next.collected[s].push(gone.tile);
  for (const kind of ["luck", "bad"]) {
    const hat = next.hats && next.hats[kind];
    if (hat && hat.field > field) hat.field -= 1;
  }
  return next;
}

/** The mummy-token stack, and a seat taking its top token or giving one back (§5.2). */
function takeToken(pos, s) {
  const next = structuredClone(pos);
  next.mummy_taken[s].push(next.mummy_tokens.shift());
  if (!next.mummy_tokens.length) next.track.forEach((f) => delete f.mummy);
  return next;
}

function returnToken(pos, s, i) {
  const next = structuredClone(pos);
  const [value] = next.mummy_taken[s].splice(i, 1);
  if (!next.mummy_tokens.length) next.track[0].mummy = true;
  next.mummy_tokens.unshift(value);
  return next;
}

/** Each seat: to move, its stack of tiles, mummy tokens, hats and action tokens. */
function drawSeats(panel, pos, ctx) {
  const box = html("fieldset", {class: "mu-seats"}, panel);
  html("legend", {}, box, "Players");
  const tokens = pos.mummy_tokens || [];
  html("div", {class: "mu-note", "data-testid": "mummy-stack"}, box, tokens.length
    ? `Mummy tokens left (top first): ${tokens.join(", ")}` : "The mummy has left the game.");
  const pawns = pawnsOf(pos);
  for (let s = 0; s < pos.players; s++) {
    const head = html("div", {class: "mu-row"}, box);
    html("span", {class: "mu-swatch", style: `background:${SEAT_COLOUR[s]}`}, head);
    const mover = pos.to_move === s;
    html("strong", {}, head, `${letter(s)}${mover ? " — to move" : ""}`);
    if (!mover) {
      button(head, "to move", `make ${letter(s)} the player to move`, `to-move-${letter(s)}`,
             () => ctx.edit({...pos, to_move: s}), ctx.state);
    }
    if (tokens.length) {
      button(head, `takes mummy ${tokens[0]}`,
             `${letter(s)} takes the top mummy token, ${tokens[0]}`,
             `mummy-token-${letter(s)}`, () => ctx.edit(takeToken(pos, s)), ctx.state);
    }
    const held = html("div", {class: "mu-row mu-indent", "data-testid": `held-${letter(s)}`},
                      box);
    html("span", {class: "mu-note"}, held, "tiles:");
    if (!pos.collected[s].length) html("span", {class: "mu-note"}, held, "none");
    pos.collected[s].forEach((tile, i) => {
      const chip = button(held, tileText(tile), `take the tile ${tileText(tile)} out of ` +
                          `${letter(s)}'s holdings`, `held-${letter(s)}-${i}`, () => {
        const next = structuredClone(pos);
        next.collected[s].splice(i, 1);
        ctx.edit(next);
      }, ctx.state);
      chip.classList.add("mu-chip");
      chip.style.background = tileFill(tile);
    });
    const extra = html("div", {class: "mu-row mu-indent"}, box);
    (pos.mummy_taken[s] || []).forEach((value, i) => {
      button(extra, `mummy ${value}`, `${letter(s)} gives the mummy token ${value} back`,
             `mummy-back-${letter(s)}-${i}`, () => ctx.edit(returnToken(pos, s, i)),
             ctx.state);
    });
    const worn = pawns.filter((p) => p.seat === s).flatMap((p) => p.hats.map((h) =>
      `${h === "luck" ? "hat of luck" : "hat of bad luck"} (field ${p.field}` +
      `${p.field === pos.track.length - 1 ? ", locked" : ""})`));
    if (worn.length) html("span", {class: "mu-note"}, extra, worn.join("; "));
    const hand = pos.action_tokens ? pos.action_tokens.hands[s] : null;
    if (hand) {
      html("span", {class: "mu-note"}, extra, `action tokens: ${hand.join(", ") || "none"}`);
    }
  }
  if (pos.action_tokens) {
    html("div", {class: "mu-note"}, box, `Action-token pile (top first): ` +
         `${pos.action_tokens.pile.join(", ") || "empty"}`);
  }
}

/** The expansions in play, and the hats (E2) switched on or off. */
function drawGame(panel, pos, ctx) {
  const box = html("fieldset", {class: "mu-game"}, panel);
  html("legend", {}, box, "Game");
  const exp = pos.expansions || [];
  const row = html("div", {class: "mu-row"}, box);
  html("span", {}, row, `${pos.players} players; expansions: ${exp.join(", ") || "none"}`);
  const on = exp.includes("e2");
  button(row, on ? "no hats" : "hats",
         on ? "play without the hats (E2)" : "play with the hats (E2)", "hats-toggle", () => {
           const next = structuredClone(pos);
           if (on) {
             next.expansions = exp.filter((e) => e !== "e2");
             delete next.hats;
           } else {
             next.expansions = [...exp, "e2"].sort();
             const firstOf = (s) => next.track.findIndex((f) => (f.pawns || []).includes(s));
             const bad = (pos.to_move + 1) % pos.players;
             next.hats = {luck: {seat: pos.to_move, field: firstOf(pos.to_move)},
                          bad: {seat: bad, field: firstOf(bad)}};
           }
           ctx.edit(next);
         }, ctx.state);
  html("div", {class: "mu-note"}, box, "Key: circles are pawns (seat letter), g a guardian, " +
       "M the mummy; a gold ring round a pawn is the hat of luck, a black one bad luck.");
  if (pos.rules && Object.keys(pos.rules).length) {
    html("div", {class: "mu-note"}, box, `rules: ${Object.entries(pos.rules)
      .map(([k, v]) => `${k}=${v}`).join(" ")}`);
  }
}

const PHONE = 560;  // px: a board narrower than this is on a phone
const STYLE = `
.mu-board{display:flex;flex-wrap:wrap;gap:12px;align-items:flex-start}
.mu-svg{width:100%;height:auto;display:block}
.mu-track{flex:1 1 560px;min-width:0}
.mu-panel{
flex:1 1 300px;max-width:440px;display:flex;flex-direction:column;gap:8px;min-width:0}
.mu-panel fieldset{border:1px solid #bbb;border-radius:6px;margin:0;padding:6px 8px}
.mu-row{display:flex;flex-wrap:wrap;gap:5px;align-items:center;margin:3px 0}
.mu-indent{margin-left:20px}
.mu-swatch{width:14px;height:14px;border-radius:50%;display:inline-block}
.mu-btn{font:inherit;padding:3px 8px;min-height:30px;cursor:pointer}
.mu-chip{border:1px solid #999;border-radius:4px;min-width:34px}
.mu-note{font-size:.9em;color:#444}
.mu-board [role=button]{cursor:pointer}
.mu-board [role=button]:focus{outline:none}
.mu-board [role=button]:focus-visible text{stroke:none}
.mu-board [role=button]:focus-visible>rect,.mu-board [role=button]:focus-visible>circle{
stroke:#1a73e8;stroke-width:4}
.mu-board button:focus-visible{outline:3px solid #1a73e8;outline-offset:2px}
`;

/** Draw the board for `pos` into `root` (docs/serve.md, Board modules). */
export function render(root, pos, ctx) {
  const redraw = () => render(root, pos, ctx);
  root.replaceChildren();
  style(STYLE, "mu-board-style");
  const wrap = html("div", {class: "mu-board"}, root);
  const track = html("div", {class: "mu-track"}, wrap);
  const panel = html("div", {class: "mu-panel"}, wrap);
  // a phone lays the track out in rows of 4; crossing the width redraws (boardkit)
  drawTrack(track, pos, ctx, redraw, narrow(root, PHONE, ctx.game, redraw));
  drawPick(panel, pos, ctx, redraw);
  drawSeats(panel, pos, ctx);
  drawGame(panel, pos, ctx);
  refocus(root, ctx.state);
}
