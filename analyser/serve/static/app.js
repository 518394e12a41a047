// The oddsbot page (docs/serve.md, The page). It names no game: each game's board is
// the ES module its spec names (`/api/games` -> `board`), loaded with import().

const $ = (id) => document.getElementById(id);
const TAB = (crypto.randomUUID ? crypto.randomUUID() : String(Math.random()).slice(2));
const CORE_COLUMNS = ["action", "ev", "se", "method", "gap"];
const DEBOUNCE_MS = 250;

const S = {
  games: [],          // /api/games
  spec: null,         // the picked game's entry
  boards: {},         // game -> its board module (or null)
  boardStates: {},    // game -> the module's ctx.state
  history: [],        // [{pos, notation, move: [action, outcome] | null (a new start)}]
  at: -1,             // index of the shown position in history
  pending: null,      // {action, outcomes: [{outcome, p}]} of the action asked last
  analysis: null,     // AbortController of the running advise/odds/chart chain
  debounce: null,     // the timer of the analysis a position change asked for
  extrasOf: null,     // the history entry the odds panel and chart show
  busy: 0,            // requests in flight (tests wait for 0)
  replay: null,       // {turns: [...], first: history index of turn 1, at: turn index}
};

// ---------------------------------------------------------------- requests

class ApiError extends Error {}

function setBusy(delta) {
  S.busy += delta;
  document.body.dataset.busy = String(S.busy);
}

async function errorOf(response) {
  try {
    const body = await response.json();
    return body.error ?? `HTTP ${response.status}`;
  } catch {
    return `HTTP ${response.status}`;
  }
}

async function post(path, body, signal, tab = TAB) {
  return fetch(path, {
    method: "POST",
    headers: {"Content-Type": "application/json", "X-Oddsbot-Tab": tab},
    body: JSON.stringify(body),
    signal,
  });
}

/** POST JSON, answer the parsed JSON; a refusal throws ApiError with the server's line. */
async function api(path, body, signal) {
  setBusy(1);
  try {
    const response = await post(path, body, signal);
    if (!response.ok) throw new ApiError(await errorOf(response));
    return await response.json();
  } finally {
    setBusy(-1);
  }
}

/** A long computation, streamed (`stream: true`): progress lines, then a result line.
 * `kind` names the computation, so a newer one of that kind replaces the older on the
 * server (X-Oddsbot-Tab) while the page's other panels keep theirs. */
async function streamed(path, body, kind, onProgress, signal) {
  setBusy(1);
  try {
    const response = await post(path, {...body, stream: true}, signal, `${TAB}-${kind}`);
    if (!response.ok) throw new ApiError(await errorOf(response));
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let buffer = "";
    for (;;) {
      const {value, done} = await reader.read();
      buffer += done ? decoder.decode() : decoder.decode(value, {stream: true});
      const lines = buffer.split("\n");
      buffer = done ? "" : lines.pop();
      for (const line of lines) {
        if (!line.trim()) continue;
        const item = JSON.parse(line);
        if (item.progress) onProgress(...item.progress);
        else if ("result" in item) return item.result;
        else if ("error" in item) throw new ApiError(item.error);
      }
      if (done) throw new ApiError("the server ended the answer without a result");
    }
  } finally {
    setBusy(-1);
  }
}

const aborted = (error) => error.name === "AbortError";

function say(text) {
  $("message").textContent = text;
}

/** Run `work`; a refusal goes to #message (one line), anything else too. */
async function guarded(work) {
  try {
    const result = await work();
    return result;
  } catch (error) {
    if (!aborted(error)) say(error.message);
    return undefined;
  }
}

// ---------------------------------------------------------------- numbers and tables

function formatNumber(x) {
  if (Number.isInteger(x)) return String(x);
  const a = Math.abs(x);
  if (a >= 1000) return x.toFixed(0);
  if (a >= 100) return x.toFixed(1);
  return x.toFixed(3);
}

/** A table cell for one JSON value: numbers rounded for reading, exact in data-value. */
function cell(tag, value) {
  const td = document.createElement(tag);
  if (typeof value === "number") {
    td.textContent = formatNumber(value);
    td.dataset.value = String(value);
    td.className = "num";
  } else if (value === null || value === undefined) {
    td.textContent = "";
    td.dataset.value = "null";
  } else if (typeof value === "object") {
    td.textContent = JSON.stringify(value);
  } else {
    td.textContent = String(value);
  }
  return td;
}

/** The columns of rows of JSON objects: `first` ones in order, then the others as met. */
function columnsOf(rows, first = []) {
  const columns = first.filter((c) => rows.some((r) => c in r));
  for (const row of rows) for (const key of Object.keys(row)) {
    if (!columns.includes(key)) columns.push(key);
  }
  return columns;
}

/** Fill a <table> from rows of JSON objects; `onPick(row, index)` makes rows clickable. */
function fillTable(table, rows, first, onPick, label) {
  const columns = columnsOf(rows, first);
  const head = document.createElement("tr");
  for (const c of columns) {
    const th = document.createElement("th");
    th.textContent = c;
    th.scope = "col";
    head.append(th);
  }
  table.tHead.replaceChildren(head);
  const body = table.tBodies[0];
  body.replaceChildren(...rows.map((row, i) => {
    const tr = document.createElement("tr");
    for (const c of columns) tr.append(cell("td", row[c]));
    if (onPick) {
      tr.tabIndex = 0;
      tr.setAttribute("role", "button");
      tr.setAttribute("aria-label", label(row));
      tr.addEventListener("click", () => onPick(row, i));
      tr.addEventListener("keydown", (e) => {
        if (e.key === "Enter" || e.key === " ") {
          e.preventDefault();
          onPick(row, i);
        }
      });
    }
    return tr;
  }));
}

/** Any JSON as nested tables (the odds panel). */
function jsonView(value) {
  if (Array.isArray(value) && value.every((v) => v === null || typeof v !== "object")) {
    const span = document.createElement("span");
    span.className = "num";
    span.textContent = value.map((v) => (typeof v === "number" ? formatNumber(v) : v))
      .join("  ");
    span.dataset.value = JSON.stringify(value);
    return span;
  }
  const flat = (v) => v !== null && typeof v === "object" && !Array.isArray(v)
    && Object.values(v).every((x) => x === null || typeof x !== "object");
  if (Array.isArray(value) && value.length && value.every(flat)) {
    const table = document.createElement("table");
    table.className = "json";
    table.append(document.createElement("thead"), document.createElement("tbody"));
    fillTable(table, value, []);
    return table;
  }
  if (value !== null && typeof value === "object") {
    const table = document.createElement("table");
    table.className = "json";
    for (const [key, v] of Object.entries(value)) {
      const tr = document.createElement("tr");
      const th = document.createElement("th");
      th.textContent = key;
      th.scope = "row";
      const td = document.createElement("td");
      td.append(jsonView(v));
      tr.append(th, td);
      table.append(tr);
    }
    return table;
  }
  const span = cell("span", value);
  return span;
}

function caption(provenance) {
  if (!provenance) return "";
  return Object.entries(provenance)
    .map(([k, v]) => `${k}: ${typeof v === "object" ? JSON.stringify(v) : v}`)
    .join(" · ");
}

// ---------------------------------------------------------------- games and positions

function gameOf(name) {
  return S.games.find((g) => g.name === name);
}

function fillSetup(spec) {
  $("variant").replaceChildren(...Object.entries(spec.variants).map(([id, text]) => {
    const option = new Option(id, id);
    option.title = text;
    return option;
  }));
  $("variant").value = spec.name;
  const [lo, hi] = spec.players;
  const counts = Array.from({length: hi - lo + 1}, (_, i) => lo + i);
  $("players").replaceChildren(...counts.map((n) => new Option(String(n), String(n))));
  $("players").value = String(Math.min(hi, Math.max(lo, 4)));
}

async function boardOf(spec) {
  if (!(spec.name in S.boards)) {
    S.boards[spec.name] = spec.board ? await import(spec.board) : null;
  }
  return S.boards[spec.name];
}

/** The position as the page holds it: validate's JSON and notation. */
async function canonical(position) {
  const [pos, notation] = await Promise.all([
    api("/api/validate", {position}),
    api("/api/validate", {position, format: "notation"}),
  ]);
  return {pos, notation: notation.notation, player: notation.player};
}

const current = () => S.history[S.at];

/** A new start (a loaded, dealt or edited position) or a move: goes after the shown one. */
function push(entry) {
  S.history.splice(S.at + 1);
  S.history.push(entry);
  S.at = S.history.length - 1;
  return show();
}

async function newGame() {
  say("");
  const spec = S.spec;
  const body = {game: spec.name, players: Number($("players").value),
                variant: $("variant").value};
  if ($("seed").value !== "") body.seed = Number($("seed").value);
  await guarded(async () => {
    const fresh = await canonical(await api("/api/new", body));
    closeReplay();
    await push({...fresh, move: null});
  });
}

async function loadNotation() {
  say("");
  const text = $("notation").value.trim();
  await guarded(async () => {
    const loaded = await canonical(text);
    await selectGame(loaded.pos.game, false);
    closeReplay();
    await push({...loaded, move: null});
  });
}

/** ctx.edit: an edited position is validated; refused, the old one stays. */
async function edit(newPos) {
  say("");
  await guarded(async () => push({...await canonical(newPos), move: null}));
}

async function renderBoard() {
  const root = $("board");
  const entry = current();
  const module = await boardOf(S.spec);
  root.replaceChildren();
  if (!entry) return;
  if (!module) {
    const p = document.createElement("p");
    p.className = "caption";
    p.textContent = `${S.spec.title} has no board yet: edit the notation.`;
    root.append(p);
    return;
  }
  S.boardStates[S.spec.name] ??= {};
  root.dataset.game = S.spec.name;
  const ctx = {
    edit,
    state: S.boardStates[S.spec.name],
    players: entry.pos.players,
    variant: entry.pos.variant ?? $("variant").value,
    game: S.spec.name,
  };
  module.render(root, entry.pos, ctx);
}

async function show() {
  const entry = current();
  $("notation").value = entry ? entry.notation : "";
  $("to-move").textContent = entry?.player === undefined ? ""
    : `player ${entry.player} to move`;
  $("undo").disabled = S.at <= 0;
  $("redo").disabled = S.at >= S.history.length - 1;
  clearPending();
  await guarded(renderBoard);
  markReplayTurn();
  analyse();
}

// ---------------------------------------------------------------- analysis

function progressOn(show) {
  $("progress").hidden = !show;
  $("cancel").hidden = !show;
  if (show) {
    $("progress").removeAttribute("value");
  }
}

function onProgress(done, planned) {
  $("progress").max = Math.max(planned, 1);
  $("progress").value = done;
}

/** After every position change (once changes pause for DEBOUNCE_MS, so a run of edits
 * starts one computation): advise, then, while their panel is open, odds and the chart.
 * A newer change aborts the older chain (and its fetches, which cancels them). */
function analyse(extra = {}) {
  S.analysis?.abort();
  S.analysis = null;
  if (S.debounce) {
    clearTimeout(S.debounce);
    setBusy(-1);
  }
  $("ev-table").dataset.state = "loading";
  setBusy(1);
  S.debounce = setTimeout(() => {
    S.debounce = null;
    setBusy(-1);
    runAnalysis(extra);
  }, DEBOUNCE_MS);
}

async function runAnalysis(extra) {
  const control = new AbortController();
  S.analysis = control;
  const entry = current();
  const table = $("ev-table");
  if (!entry) return;
  progressOn(true);
  try {
    const advice = await streamed("/api/advise", {position: entry.pos, ...extra}, "advise",
                                  onProgress, control.signal);
    fillTable(table, advice.actions, CORE_COLUMNS, (row) => chooseAction(row.action),
              (row) => `play ${row.action}`);
    for (const [i, tr] of [...table.tBodies[0].rows].entries()) {
      tr.dataset.action = advice.actions[i].action;
    }
    $("provenance").textContent = caption(advice.provenance);
    table.dataset.state = "ready";
    progressOn(false);
    await extras(entry, control.signal);
  } catch (error) {
    if (aborted(error)) return;
    if (table.dataset.state === "loading") {  // a position advise does not value (an
      table.dataset.state = "error";          // opponent's turn as one seat sees it, ...)
      table.tHead.replaceChildren();
      table.tBodies[0].replaceChildren();
      $("provenance").textContent = `no EV table here: ${error.message}. To play along, `
        + "type the action taken into Action.";
    }
  } finally {
    if (S.analysis === control) {
      progressOn(false);
      S.analysis = null;
    }
  }
}

/** The odds panel and the position chart of `entry`, while their panel is open. */
async function extras(entry, signal) {
  if (!$("odds-panel").open || S.extrasOf === entry) return;
  await odds(entry, signal);
  await chart(entry, signal);
  S.extrasOf = entry;
}

/** The panel opened: its odds and chart, unless a computation is running (it will). */
function onExtrasOpen() {
  if (!$("odds-panel").open || S.analysis || S.debounce || !current()) return;
  const control = new AbortController();
  S.analysis = control;
  extras(current(), control.signal).catch(() => null).finally(() => {
    if (S.analysis === control) S.analysis = null;
  });
}

async function odds(entry, signal) {
  const panel = $("odds");
  try {
    const result = await streamed("/api/odds", {position: entry.pos}, "odds", onProgress,
                                  signal);
    panel.replaceChildren(jsonView(result));
  } catch (error) {
    if (aborted(error)) throw error;
    panel.textContent = error.message;  // e.g. a game without odds: not an edit's error
  }
}

async function chart(entry, signal) {
  const img = $("chart");
  if (!S.spec.capabilities.includes("position charts")) {
    img.hidden = true;
    return;
  }
  setBusy(1);
  try {
    const response = await post("/api/chart", {position: entry.pos}, signal, `${TAB}-chart`);
    if (!response.ok) throw new ApiError(await errorOf(response));
    if (img.src.startsWith("blob:")) URL.revokeObjectURL(img.src);
    img.src = URL.createObjectURL(await response.blob());
    img.hidden = false;
  } catch (error) {
    if (aborted(error)) throw error;
    img.hidden = true;
  } finally {
    setBusy(-1);
  }
}

function cancel() {
  if (S.debounce) {
    clearTimeout(S.debounce);
    S.debounce = null;
    setBusy(-1);
  }
  S.analysis?.abort();
  S.analysis = null;
  progressOn(false);
  if ($("ev-table").dataset.state === "loading") $("ev-table").dataset.state = "cancelled";
}

// ---------------------------------------------------------------- play along

function clearPending() {
  S.pending = null;
  $("outcome-label").hidden = true;
  $("roll").hidden = true;
  $("outcome").replaceChildren();
  $("outcome-typed").value = "";
}

/** Ask the action's chance outcomes; list them in #outcome when it has any. */
async function askOutcomes(action) {
  const answer = await api("/api/outcomes", {position: current().pos, action});
  S.pending = {action, outcomes: answer.outcomes};
  $("outcome").replaceChildren(...answer.outcomes.map(({outcome, p}) =>
    new Option(`${outcome} (${(100 * p).toFixed(1)}%)`, outcome)));
  $("outcome-label").hidden = answer.outcomes.length === 0;
  $("roll").hidden = answer.outcomes.length === 0;
  return answer.outcomes;
}

async function applyMove(action, outcome) {
  const answer = await api("/api/apply", {position: current().pos, action, outcome});
  await push({pos: answer.position, notation: answer.notation, player: answer.player,
              move: [action, outcome]});
}

/** A row clicked: its outcomes, or, without chance, the move itself. */
async function chooseAction(action) {
  say("");
  $("action").value = action;
  await guarded(async () => {
    if ((await askOutcomes(action)).length === 0) await applyMove(action, null);
  });
}

/** #play: the typed action, with the outcome typed in #outcome-typed (where there are
 * too many to list: a Five Tribes refill, a Camel Up Cards deal) or else picked in
 * #outcome once they are listed. */
async function play() {
  say("");
  const action = $("action").value.trim();
  const typed = $("outcome-typed").value.trim();
  if (!action) {
    say("type an action to play (as advise and moves print it)");
    return;
  }
  await guarded(async () => {
    if (typed) {
      await applyMove(action, typed);
    } else if (S.pending?.action === action && S.pending.outcomes.length) {
      await applyMove(action, $("outcome").value);
    } else if ((await askOutcomes(action)).length === 0) {
      await applyMove(action, null);
    }
  });
}

/** #roll: an outcome at random by its probability. */
async function roll() {
  const pending = S.pending;
  if (!pending?.outcomes.length) return;
  const [u] = crypto.getRandomValues(new Uint32Array(1));
  let x = u / 2 ** 32;
  let pick = pending.outcomes[pending.outcomes.length - 1].outcome;
  for (const {outcome, p} of pending.outcomes) {
    if (x < p) {
      pick = outcome;
      break;
    }
    x -= p;
  }
  $("outcome").value = pick;
  await guarded(() => applyMove(pending.action, pick));
}

function step(delta) {
  const to = S.at + delta;
  if (to < 0 || to >= S.history.length) return;
  S.at = to;
  show();
}

/** The record of the shown game: from the last new start up to the shown position. */
function recordBody() {
  let start = S.at;
  while (start > 0 && S.history[start].move) start -= 1;
  return {start: S.history[start].pos,
          moves: S.history.slice(start + 1, S.at + 1).map((e) => e.move)};
}

async function saveRecord() {
  say("");
  if (!current()) return;
  await guarded(async () => {
    const {record} = await api("/api/record", recordBody());
    const link = document.createElement("a");
    link.href = URL.createObjectURL(new Blob([record], {type: "text/plain"}));
    link.download = "game.record";
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 10000);
  });
}

// ---------------------------------------------------------------- replay

function closeReplay() {
  S.replay?.control.abort();
  S.replay = null;
  $("replay").hidden = true;
}

async function openRecord(file) {
  say("");
  const text = await file.text();
  await guarded(async () => {
    const {start, notation, moves} = await api("/api/record/moves", {record: text});
    await selectGame(start.game, false);
    closeReplay();
    const first = S.history.length;
    S.history.push({pos: start, notation, move: null});
    let pos = start;
    for (const move of moves) {
      const answer = await api("/api/apply", {position: pos, action: move[0],
                                              outcome: move[1]});
      pos = answer.position;
      S.history.push({pos, notation: answer.notation, player: answer.player, move});
    }
    S.at = first;
    const control = new AbortController();
    S.replay = {turns: [], first, at: 0, control};
    $("replay").hidden = false;
    $("replay-table").tBodies[0].replaceChildren();
    $("replay-chart").replaceChildren();
    $("replay-caption").textContent = "annotating the record…";
    $("replay").dataset.state = "loading";
    await show();
    annotate(text, control);
  });
}

async function annotate(text, control) {
  try {
    const result = await streamed("/api/replay", {record: text}, "replay", onProgress,
                                  control.signal);
    if (S.replay?.control !== control) return;
    S.replay.turns = result.turns;
    fillTable($("replay-table"), result.turns, ["turn", "player", "action"],
              (_, i) => goToTurn(i), (row) => `show turn ${row.turn}`);
    $("replay-chart").replaceChildren(replayChart(result.turns));
    $("replay-caption").textContent = caption(result.provenance);
    $("replay").dataset.state = "ready";
    markReplayTurn();
  } catch (error) {
    if (aborted(error)) return;
    $("replay-caption").textContent = error.message;
    $("replay").dataset.state = "error";
  }
}

function goToTurn(index) {
  const replay = S.replay;
  if (!replay) return;
  const last = S.history.length - 1 - replay.first;  // the position after the last move
  replay.at = Math.min(Math.max(index, 0), last);
  S.at = replay.first + replay.at;
  show();
}

function markReplayTurn() {
  const replay = S.replay;
  if (!replay) return;
  replay.at = Math.max(0, S.at - replay.first);
  const turn = replay.turns[replay.at];
  $("turn-label").textContent = turn ? `turn ${turn.turn}`
    : replay.at === S.history.length - 1 - replay.first ? "after the last move"
      : `move ${replay.at + 1}`;
  for (const [i, tr] of [...$("replay-table").tBodies[0].rows].entries()) {
    tr.classList.toggle("current", i === replay.at);
  }
}

const SVG = "http://www.w3.org/2000/svg";

function svg(tag, attrs, parent) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  parent?.append(el);
  return el;
}

/** Win probability per turn (the mover's, where the replay has it), else EV lost. */
function replayChart(turns) {
  const key = ["win", "win_p"].find((k) => turns.some((t) => typeof t[k] === "number"))
    ?? "ev_lost";
  const values = turns.map((t) => (typeof t[key] === "number" ? t[key] : 0));
  const top = key === "ev_lost" ? Math.max(...values, 1e-9) : 1;
  const w = 600;
  const h = 160;
  const root = svg("svg", {viewBox: `0 0 ${w} ${h + 20}`, role: "img",
                           "aria-label": `${key} per turn`, class: "replay-chart"});
  svg("line", {x1: 0, y1: h, x2: w, y2: h, class: "axis"}, root);
  const x = (i) => (turns.length > 1 ? (i * w) / (turns.length - 1) : w / 2);
  const y = (v) => h - (v / top) * (h - 10);
  if (key === "ev_lost") {
    const bar = Math.max(w / Math.max(turns.length, 1) - 1, 1);
    values.forEach((v, i) => svg("rect", {
      x: (i * w) / turns.length, y: y(v), width: bar, height: h - y(v),
      class: `seat-${turns[i].player}`}, root));
  } else {
    svg("polyline", {points: values.map((v, i) => `${x(i)},${y(v)}`).join(" "),
                     class: "line"}, root);
  }
  const label = svg("text", {x: 4, y: h + 16, class: "chart-label"}, root);
  label.textContent = `${key} per turn (max ${formatNumber(top)})`;
  return root;
}

// ---------------------------------------------------------------- wiring

async function selectGame(name, fresh = true) {
  const spec = gameOf(name);
  if (!spec) throw new ApiError(`unknown game ${name}`);
  const changed = S.spec?.name !== spec.name;
  S.spec = spec;
  $("game").value = name;
  if (changed) fillSetup(spec);
  if (fresh) await newGame();
}

async function start() {
  document.body.dataset.busy = "0";
  const response = await fetch("/api/games");
  S.games = await response.json();
  $("game").replaceChildren(...S.games.map((g) => new Option(g.title, g.name)));
  $("game").addEventListener("change", () => guarded(() => selectGame($("game").value)));
  $("new").addEventListener("click", newGame);
  $("load").addEventListener("click", loadNotation);
  $("play").addEventListener("click", play);
  $("action").addEventListener("keydown", (e) => {
    if (e.key === "Enter") play();
  });
  $("roll").addEventListener("click", roll);
  $("undo").addEventListener("click", () => step(-1));
  $("redo").addEventListener("click", () => step(1));
  $("save-record").addEventListener("click", saveRecord);
  $("open-record").addEventListener("change", (e) => {
    const [file] = e.target.files;
    if (file) openRecord(file);
    e.target.value = "";
  });
  $("rollouts").addEventListener("click", () => {
    say("");
    analyse({rollouts: Number($("rollouts-n").value) || 1});
  });
  $("cancel").addEventListener("click", cancel);
  $("odds-panel").addEventListener("toggle", onExtrasOpen);
  $("turn-prev").addEventListener("click", () => goToTurn((S.replay?.at ?? 0) - 1));
  $("turn-next").addEventListener("click", () => goToTurn((S.replay?.at ?? 0) + 1));
  window.oddsbot = {
    position: () => current()?.pos ?? null,
    notation: () => current()?.notation ?? null,
    history: () => S.history.slice(0, S.at + 1),
  };
  if (S.games.length) await guarded(() => selectGame(S.games[0].name));
  document.body.dataset.ready = "1";
}

start();
