// Kingdom Run board for `oddsbot serve` (docs/serve.md, Board modules).
// Draws the position JSON of docs/games/kingdom-run.md §12.1: the track of layout §2 (its
// boards, lakes and score tokens), every runner (clan + number, asleep face §6.5), the
// podium, crossed and out runners (§7), each player's clan and victory tokens, the roll,
// the re-roll state and the dice used this turn (§4), whose turn it is.
// Edits, each one passed to ctx.edit (the page validates it): move a runner (click it, then
// a space or a podium place), wake/put to sleep the picked runner, give a victory token
// from one player to another, set each die of the roll, roll/unroll, re-roll taken or not,
// and the player to move.

import {activatable, focusButton, refocus, html, narrow,
        style, svg} from "/static/boardkit.js";

const FACES = ["scatter", "catchup", "bath", "steal", "sleepwake", "copy"];
const FACE_TEXT = {scatter: "Scatter", catchup: "Catch-up", bath: "Bath", steal: "Steal",
                   sleepwake: "Sleep/Wake", copy: "Copy"};
const FACE_GLYPH = {scatter: "S", catchup: "C", bath: "B", steal: "T", sleepwake: "Z",
                    copy: "Y"};
const CLANS = {K: "Knights", W: "Wizards", F: "Forest folk", G: "Gnomes"};
const CLAN_COLOUR = {K: "#5b6f86", W: "#7b4fb0", F: "#2e8b3a", G: "#c0661f"};
const DEFAULTS = {layout: "4/6:3/6:3/6:3/4", zone_values: "1,2,3,4,5",
                  podium_values: "13,10,8,6,5,4,3,2", capacity: "4",
                  die_faces: FACES.join(","), dice: "4"};
const CELL_W = 62, CELL_H = 86, GAP = 6;

/** A button of this board that keeps the keyboard focus (boardkit's). */
const button = (...args) => focusButton("kr-btn", ...args);

/** The rule parameters the board needs: the position's, else the defaults (§11). */
function rules(pos) {
  const r = {...DEFAULTS, ...(pos.rules || {})};
  const boards = r.layout.split("/").map((b) => {
    const [size, lakes] = b.split(":");
    return {size: +size, lakes: lakes ? lakes.split(",").map(Number) : []};
  });
  return {boards, zones: r.zone_values.split(",").map(Number),
          podium: r.podium_values.split(",").map(Number), capacity: +r.capacity,
          faces: [...new Set(r.die_faces.split(","))], dice: +r.dice};
}

/** Spaces of the track: {index, board, lake, token (zone value on a board's first)}. */
function spaces(rl) {
  const out = [];
  rl.boards.forEach((b, bi) => {
    for (let i = 0; i < b.size; i++) {
      out.push({index: out.length, board: bi, lake: b.lakes.includes(i),
                token: i === 0 ? rl.zones[bi] : null});
    }
  });
  return out;
}

/** Where a runner is: "track", "podium", "crossed" or "out". */
function locate(pos, runner) {
  for (const [space, list] of Object.entries(pos.track)) {
    if (list.includes(runner)) return {where: "track", space: +space};
  }
  if ((pos.podium || []).includes(runner)) return {where: "podium"};
  if ((pos.crossed || []).some((c) => c.runner === runner)) return {where: "crossed"};
  return {where: "out"};
}

/** The position with `runner` taken from wherever it is (a deep copy). */
function without(pos, runner) {
  const next = structuredClone(pos);
  for (const space of Object.keys(next.track)) {
    next.track[space] = next.track[space].filter((r) => r !== runner);
    if (!next.track[space].length) delete next.track[space];
  }
  next.podium = (next.podium || []).filter((r) => r !== runner);
  next.crossed = (next.crossed || []).filter((c) => c.runner !== runner);
  next.out = (next.out || []).filter((r) => r !== runner);
  return next;
}

function runnerOrder(a, b) {
  const clan = (r) => "KWFG".indexOf(r[0]);
  return clan(a) - clan(b) || a.slice(1) - b.slice(1);
}

/** Draw one runner disc at (x, y); clicking it picks it. */
function drawRunner(g, pos, runner, x, y, ctx, redraw) {
  const asleep = (pos.asleep || []).includes(runner);
  const picked = ctx.state.runner === runner;
  const node = svg("g", {class: "kr-runner"}, g);
  svg("circle", {cx: x, cy: y, r: 13, fill: asleep ? "#fff" : CLAN_COLOUR[runner[0]],
                 stroke: picked ? "#ffd400" : CLAN_COLOUR[runner[0]],
                 "stroke-width": picked ? 4 : 2,
                 "stroke-dasharray": asleep && !picked ? "3 2" : "none"}, node);
  const text = svg("text", {x, y: y + 4, "text-anchor": "middle", "font-size": 11,
                            "font-weight": 700,
                            fill: asleep ? CLAN_COLOUR[runner[0]] : "#fff"}, node);
  text.textContent = asleep ? runner.toLowerCase() : runner;
  const at = locate(pos, runner);
  const where = at.where === "track" ? `on space ${at.space}` : at.where === "podium"
    ? `on podium place ${pos.podium.indexOf(runner) + 1}` : at.where;
  const name = `${CLANS[runner[0]]} runner ${runner}${asleep ? ", asleep" : ""}, ${where}`;
  const elsewhere = ctx.state.runner && !picked && at.where === "track";  // go to its space
  const label = picked ? `${name}, picked` : elsewhere
    ? `${name}: move ${ctx.state.runner} to space ${at.space}` : `pick ${name}`;
  activatable(node, label, `runner-${runner}`, () => {
    if (elsewhere) { moveTo(pos, ctx, at.space); return; }
    ctx.state.runner = picked ? null : runner;
    redraw();
  }, ctx.state);
}

/** Move the picked runner onto a space (awake there unless it was asleep on the track). */
function moveTo(pos, ctx, space) {
  const runner = ctx.state.runner;
  if (!runner) return;
  const from = locate(pos, runner);
  const next = without(pos, runner);
  next.track[space] = [...(next.track[space] || []), runner].sort(runnerOrder);
  if (from.where !== "track") next.asleep = (next.asleep || []).filter((r) => r !== runner);
  ctx.state.runner = null;
  ctx.edit(sortTrack(next));
}

/** The track's spaces in ascending order, as oddsbot writes them. */
function sortTrack(pos) {
  const track = {};
  for (const k of Object.keys(pos.track).map(Number).sort((a, b) => a - b)) {
    track[k] = pos.track[k];
  }
  return {...pos, track};
}

function toPodium(pos, ctx, place) {
  const runner = ctx.state.runner;
  if (!runner) return;
  const next = without(pos, runner);
  next.asleep = (next.asleep || []).filter((r) => r !== runner);
  next.podium.splice(Math.min(place, next.podium.length), 0, runner);
  ctx.state.runner = null;
  ctx.edit(next);
}

/** The track, podium and waiting runners as one SVG scaled to the root's width. */
function drawTrack(root, pos, ctx, redraw, small) {
  const rl = rules(pos);
  const all = spaces(rl);
  const wide = Math.max(8, Math.min(13, Math.floor((root.clientWidth || 900) / 62)));
  const cols = small ? 6 : wide;
  const rows = Math.ceil(all.length / cols);
  const podiumCols = small ? 4 : 8;
  const podiumRows = Math.ceil(rl.podium.length / podiumCols);
  const width = cols * (CELL_W + GAP) + GAP;
  const trackH = rows * (CELL_H + GAP);
  const height = trackH + 34 + podiumRows * (CELL_H / 1.6 + GAP) + 52;
  const board = svg("svg", {viewBox: `0 0 ${width} ${height}`, class: "kr-svg",
                            role: "group", "aria-label": "Kingdom Run track"}, root);
  all.forEach((sp) => {
    const x = GAP + (sp.index % cols) * (CELL_W + GAP);
    const y = GAP + Math.floor(sp.index / cols) * (CELL_H + GAP);
    const cell = svg("g", {}, board);
    const last = sp.board === rl.boards.length - 1;
    const what = [sp.lake ? "lake" : "space", sp.index, sp.board === 0 ? "(START board)" :
                  last ? "(FINISH board)" : `(board ${sp.board})`];
    svg("rect", {x, y, width: CELL_W, height: CELL_H, rx: 6,
                 fill: sp.lake ? "#9fd3f2" : ["#f3e7c9", "#e9dcb5"][sp.board % 2],
                 stroke: sp.board === 0 || last ? "#8a6d2b" : "#b59b5c"}, cell);
    const num = svg("text", {x: x + 5, y: y + 14, "font-size": 12, fill: "#333"}, cell);
    num.textContent = sp.index;
    if (sp.token !== null) {
      svg("circle", {cx: x + CELL_W - 12, cy: y + 11, r: 9, fill: "#e6b422",
                     stroke: "#7a5a00"}, cell);
      const t = svg("text", {x: x + CELL_W - 12, y: y + 15, "text-anchor": "middle",
                             "font-size": 11, "font-weight": 700}, cell);
      t.textContent = sp.token;
    }
    const move = ctx.state.runner ? `: move ${ctx.state.runner} here` : "";
    activatable(cell, `${what.join(" ")}${move}`, `space-${sp.index}`,
                () => moveTo(pos, ctx, sp.index), ctx.state);
    (pos.track[sp.index] || []).forEach((r, i) => {
      drawRunner(board, pos, r, x + 17 + (i % 2) * 28, y + 36 + Math.floor(i / 2) * 30,
                 ctx, redraw);
    });
  });
  const py = trackH + 30;
  const heading = svg("text", {x: GAP, y: py - 8, "font-size": 14, "font-weight": 700}, board);
  heading.textContent = "Finish line → podium";
  rl.podium.forEach((points, i) => {
    const x = GAP + (i % podiumCols) * (CELL_W + GAP);
    const y = py + Math.floor(i / podiumCols) * (CELL_H / 1.6 + GAP);
    const cell = svg("g", {}, board);
    svg("rect", {x, y, width: CELL_W, height: CELL_H / 1.6, rx: 6, fill: "#fbe9a8",
                 stroke: "#a08020"}, cell);
    const t = svg("text", {x: x + 5, y: y + 14, "font-size": 11}, cell);
    t.textContent = `${i + 1}. ${points}`;
    activatable(cell, `podium place ${i + 1} (${points} points)`, `podium-${i}`,
                () => toPodium(pos, ctx, i), ctx.state);
    const r = (pos.podium || [])[i];
    if (r) drawRunner(board, pos, r, x + CELL_W / 2, y + 34, ctx, redraw);
  });
  const wy = py + podiumRows * (CELL_H / 1.6 + GAP) + 28;
  const waiting = [...(pos.crossed || []).map((c) => [c.runner, "crossed"]),
                   ...(pos.out || []).map((r) => [r, "out"])];
  const label = svg("text", {x: GAP, y: wy, "font-size": 13}, board);
  label.textContent = waiting.length ? "Crossed, waiting / out:"
    : "No runner waiting for a place";
  waiting.forEach(([r, kind], i) => {
    drawRunner(board, pos, r, 190 + i * 64, wy - 4, ctx, redraw);
    const k = svg("text", {x: 206 + i * 64, y: wy, "font-size": 10}, board);
    k.textContent = kind;
  });
}

/** Players: clan, victory tokens (give one to another player), whose turn. */
function drawPlayers(panel, pos, ctx) {
  const box = html("fieldset", {class: "kr-players"}, panel);
  html("legend", {}, box, "Players");
  pos.clans.forEach((clan, p) => {
    const head = html("div", {class: "kr-row"}, box);
    const mover = pos.to_move === p;
    html("span", {class: "kr-swatch", style: `background:${CLAN_COLOUR[clan]}`}, head);
    html("strong", {}, head, `p${p + 1} ${CLANS[clan]}${mover ? " — to move" : ""}`);
    html("span", {class: "kr-tokens", "data-testid": `tokens-${p}`}, head,
         `${pos.tokens[p]} victory token${pos.tokens[p] === 1 ? "" : "s"}`);
    const row = html("div", {class: "kr-row kr-indent"}, box);
    if (!mover) {
      button(row, "to move", `make p${p + 1} the player to move`, `to-move-${p}`,
             () => ctx.edit({...pos, to_move: p}), ctx.state);
    }
    const to = html("select", {"aria-label": `p${p + 1} gives a victory token to`,
                               "data-testid": `token-to-${p}`}, row);
    pos.clans.forEach((_, q) => {
      if (q !== p) html("option", {value: q}, to, `to p${q + 1}`);
    });
    button(row, "give 1", `p${p + 1} gives one victory token`, `token-give-${p}`, () => {
      const tokens = [...pos.tokens];
      tokens[p] -= 1;
      tokens[+to.value] += 1;
      ctx.edit({...pos, tokens});
    }, ctx.state);
  });
  html("div", {class: "kr-note"}, box, "Key: blue spaces are lakes; a gold disc is a " +
       "board's score token (its zone value); a white runner named in lower case is asleep.");
  const changed = Object.entries(pos.rules || {}).map(([k, v]) => `${k}=${v}`);
  if (changed.length) html("div", {class: "kr-note"}, box, `Rules: ${changed.join(", ")}`);
  const neutral = Object.keys(CLANS).filter((c) => !pos.clans.includes(c));
  if (neutral.length) {
    html("div", {class: "kr-note"}, box,
         `Neutral: ${neutral.map((c) => CLANS[c]).join(", ")}`);
  }
}

/** The roll: each die (click to change its face), rolled or not, re-roll, dice used. */
function drawRoll(panel, pos, ctx) {
  const rl = rules(pos);
  const box = html("fieldset", {class: "kr-roll"}, panel);
  html("legend", {}, box, "Roll");
  if (!pos.roll) {
    html("div", {}, box, "Not rolled yet.");
    button(box, "set a roll", "set a roll of the dice", "roll-set", () => ctx.edit({
      ...pos, roll: Array.from({length: rl.dice}, (_, i) => rl.faces[i % rl.faces.length]),
    }), ctx.state);
    return;
  }
  const dice = html("div", {class: "kr-dice"}, box);
  const used = [...(pos.used || [])].map((u) => (u.startsWith("copy:") ? "copy" : u));
  pos.roll.forEach((face, i) => {
    const spent = used.indexOf(face);
    if (spent >= 0) used.splice(spent, 1);
    const next = rl.faces[(rl.faces.indexOf(face) + 1) % rl.faces.length];
    const said = `die ${i + 1} shows ${FACE_TEXT[face] || face}` +
      `${spent >= 0 ? ", used" : ""}: change it to ${FACE_TEXT[next] || next}`;
    const die = button(dice, `${FACE_GLYPH[face] || "?"} ${FACE_TEXT[face] || face}`, said,
                       `die-${i}`, () => {
                         const roll = [...pos.roll];
                         roll[i] = next;
                         roll.sort((a, b) => FACES.indexOf(a) - FACES.indexOf(b));
                         ctx.edit({...pos, roll});
                       }, ctx.state);
    die.classList.add("kr-die");
    if (spent >= 0) die.classList.add("kr-used");
  });
  const row = html("div", {class: "kr-row"}, box);
  html("span", {}, row, pos.rerolled ? "Re-roll taken (or given up)." : "Re-roll still open.");
  button(row, pos.rerolled ? "re-roll open" : "re-roll taken",
         pos.rerolled ? "mark the re-roll as still open" : "mark the re-roll as taken",
         "rerolled", () => ctx.edit({...pos, rerolled: !pos.rerolled}), ctx.state);
  button(row, "unroll", "clear the roll (before rolling)", "roll-clear",
         () => ctx.edit({...pos, roll: null, rerolled: false, used: [], crossed: []}),
         ctx.state);
  if ((pos.used || []).length) {
    html("div", {"data-testid": "used"}, box,
         `Used this turn: ${pos.used.map((u) => u.replace("copy:", "Copy as ")).join(", ")}`);
  }
}

/** The picked runner: its place, and waking it or putting it to sleep. */
function drawPick(panel, pos, ctx, redraw) {
  const box = html("fieldset", {class: "kr-pick"}, panel);
  html("legend", {}, box, "Picked runner");
  const runner = ctx.state.runner;
  if (!runner) {
    html("div", {}, box, "Click a runner, then a space or a podium place to move it.");
    return;
  }
  const at = locate(pos, runner);
  const asleep = (pos.asleep || []).includes(runner);
  const where = at.where === "track" ? `space ${at.space}${asleep ? ", asleep" : ""}`
    : at.where;
  html("div", {}, box,
       `${runner} (${CLANS[runner[0]]}): ${where}. Click a space or a podium place.`);
  if (at.where === "track") {
    button(box, asleep ? "wake" : "sleep",
           asleep ? `wake ${runner}` : `put ${runner} to sleep`, "sleep", () => {
             const rest = (pos.asleep || []).filter((r) => r !== runner);
             ctx.edit({...pos, asleep: asleep ? rest : [...rest, runner].sort(runnerOrder)});
           }, ctx.state);
  }
  button(box, "drop pick", "drop the picked runner", "unpick", () => {
    ctx.state.runner = null;
    redraw();
  }, ctx.state);
}

const PHONE = 560;  // px: a board narrower than this is on a phone
const STYLE = `
.kr-board{display:flex;flex-wrap:wrap;gap:12px;align-items:flex-start}
.kr-svg{width:100%;height:auto;display:block}
.kr-track{flex:1 1 560px;min-width:0}
.kr-panel{
flex:1 1 300px;max-width:420px;display:flex;flex-direction:column;gap:8px;min-width:0}
.kr-panel fieldset{border:1px solid #bbb;border-radius:6px;margin:0;padding:6px 8px}
.kr-row{display:flex;flex-wrap:wrap;gap:6px;align-items:center;margin:3px 0}
.kr-swatch{width:14px;height:14px;border-radius:50%;display:inline-block}
.kr-btn{font:inherit;padding:4px 8px;min-height:32px;cursor:pointer}
.kr-die{min-width:92px}.kr-used{opacity:.55;text-decoration:line-through}
.kr-dice{display:flex;flex-wrap:wrap;gap:6px}
.kr-indent{margin-left:20px}
.kr-note{font-size:.9em;color:#555}
.kr-board [role=button]{cursor:pointer}
.kr-board [role=button]:focus{outline:none}
.kr-board [role=button]:focus-visible text{stroke:none}
.kr-board [role=button]:focus-visible>rect,.kr-board [role=button]:focus-visible>circle{
stroke:#1a73e8;stroke-width:4}
.kr-board button:focus-visible,.kr-board select:focus-visible{
outline:3px solid #1a73e8;outline-offset:2px}
`;

/** Draw the board for `pos` into `root` (docs/serve.md, Board modules). */
export function render(root, pos, ctx) {
  const redraw = () => render(root, pos, ctx);
  root.replaceChildren();
  style(STYLE, "kr-board-style");
  const wrap = html("div", {class: "kr-board"}, root);
  const track = html("div", {class: "kr-track"}, wrap);
  const panel = html("div", {class: "kr-panel"}, wrap);
  // a phone lays the track out in rows of 6; crossing the width redraws (boardkit)
  drawTrack(track, pos, ctx, redraw, narrow(root, PHONE, ctx.game, redraw));
  drawPick(panel, pos, ctx, redraw);
  drawRoll(panel, pos, ctx);
  drawPlayers(panel, pos, ctx);
  refocus(root, ctx.state);
}
