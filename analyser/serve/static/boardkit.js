// What every board module (docs/serve.md, Board modules) needs, written once: SVG and HTML
// elements, keyboard-usable clickable things, inputs that edit, and a redraw that keeps
// the keyboard focus on the same control. Boards import it as "/static/boardkit.js".

const SVG_NS = "http://www.w3.org/2000/svg";

/** An SVG element with attributes, appended to `parent` when given. */
export function svg(tag, attrs = {}, parent = null, text = null) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v !== null && v !== undefined) el.setAttribute(k, v);
  }
  if (text !== null) el.textContent = text;
  parent?.append(el);
  return el;
}

/** An HTML element with attributes, appended to `parent` when given. */
export function html(tag, attrs = {}, parent = null, text = null) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v !== null && v !== undefined) el.setAttribute(k, v);
  }
  if (text !== null) el.textContent = text;
  parent?.append(el);
  return el;
}

/** Make an SVG element a button: focusable, named, Enter/Space/click run `act`. */
export function clickable(el, label, testid, act) {
  el.setAttribute("tabindex", "0");
  el.setAttribute("role", "button");
  el.setAttribute("aria-label", label);
  el.dataset.testid = testid;
  el.classList.add("clickable");
  el.addEventListener("click", (e) => {
    e.stopPropagation();
    act();
  });
  el.addEventListener("keydown", (e) => {
    if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      e.stopPropagation();
      act();
    }
  });
  return el;
}

/** An HTML button. */
export function button(text, testid, act, parent = null, {disabled = false, label} = {}) {
  const b = html("button", {type: "button", "data-testid": testid, "aria-label": label},
                 parent, text);
  b.disabled = disabled;
  b.addEventListener("click", act);
  return b;
}

/** A labelled number input; a changed, whole value goes to `change(value)`. */
export function numberInput(text, value, testid, change, parent, {min = 0, max} = {}) {
  const label = html("label", {}, parent, `${text} `);
  const input = html("input", {type: "number", min, max, step: 1, value,
                               "data-testid": testid}, label);
  input.addEventListener("change", () => {
    if (input.value.trim() !== "") change(Number(input.value));
  });
  return input;
}

/** A labelled select of [value, text] pairs. */
export function selectInput(text, options, value, testid, change, parent) {
  const label = html("label", {}, parent, `${text} `);
  const select = html("select", {"data-testid": testid}, label);
  for (const [v, t] of options) select.append(new Option(t, String(v)));
  select.value = String(value);
  select.addEventListener("change", () => change(select.value));
  return select;
}

/** Redraw the board into `root` (emptied first), keeping the keyboard focus on the
 * control with the same data-testid, if it is still there. */
export function redraw(root, draw) {
  const focused = root.contains(document.activeElement)
    ? document.activeElement.dataset?.testid : null;
  root.replaceChildren();
  draw();
  if (focused) root.querySelector(`[data-testid="${CSS.escape(focused)}"]`)?.focus();
}

/** An edit that keeps the keyboard focus through the re-render it brings: remembers the
 * control's data-testid in `state.focus`; `refocus` (at the end of `render`) focuses it
 * again. */
export function keepingFocus(state, testid, act) {
  return () => {
    state.focus = testid;
    act();
  };
}

/** An SVG control (`clickable`) whose edit keeps the keyboard focus (`keepingFocus`). */
export function activatable(node, label, testid, act, state) {
  return clickable(node, label, testid, keepingFocus(state, testid, act));
}

/** An HTML `button` of class `cls` whose edit keeps the keyboard focus (`keepingFocus`). */
export function focusButton(cls, parent, text, label, testid, act, state, enabled = true) {
  const node = button(text, testid, keepingFocus(state, testid, act), parent,
                      {disabled: !enabled, label});
  node.classList.add(cls);
  return node;
}

/** Focus the control `keepingFocus` remembered, if the new board still has it. */
export function refocus(root, state) {
  const focus = state.focus;
  state.focus = null;
  const again = focus && root.querySelector(`[data-testid="${CSS.escape(focus)}"]`);
  if (again) again.focus({preventScroll: true});
}

/** Where `item` stands in `stacks` ({space: [bottom, ..., top]}): {space, index}, or null. */
export function whereIn(stacks, item) {
  for (const [space, stack] of Object.entries(stacks)) {
    const index = stack.indexOf(item);
    if (index >= 0) return {space: Number(space), index};
  }
  return null;
}

/** A deep copy of a position to edit. */
export const copy = (pos) => structuredClone(pos);

/** Seats 0..n-1 as [seat, "player <name>"] options. */
export const seats = (n, name = String) =>
  Array.from({length: n}, (_, i) => [i, `player ${name(i)}`]);

/** The board stylesheet once per page (boards share one look). */
export function style(css, id) {
  if (document.getElementById(id)) return;
  html("style", {id}, document.head, css);
}

/** Stacks as {key: [bottom, ..., top]}: the piece at `index` of stack `from` and the
 * pieces on it go on top of stack `to` (the key is dropped when its stack empties). */
export function moveUnit(stacks, from, index, to) {
  const unit = stacks[from].splice(index);
  if (!stacks[from].length) delete stacks[from];
  stacks[to] = [...(stacks[to] ?? []), ...unit];
  return unit;
}

const WATCHED = new WeakMap();  // root -> {narrow, again}: the board's redraw on a resize

/** Whether the board's root is narrower than `limit` px (a phone): boards lay out for it.
 * When the width crosses `limit`, `again()` redraws the board, while `root` still shows
 * the game `game` (the page keeps it in root.dataset.game). */
export function narrow(root, limit, game, again) {
  const now = root.clientWidth > 0 && root.clientWidth < limit;
  const watched = WATCHED.get(root);
  if (watched) {
    Object.assign(watched, {narrow: now, limit, game, again});
    return now;
  }
  const entry = {narrow: now, limit, game, again};
  WATCHED.set(root, entry);
  new ResizeObserver(() => {
    const n = root.clientWidth > 0 && root.clientWidth < entry.limit;
    if (n !== entry.narrow && root.dataset.game === entry.game) {
      entry.narrow = n;
      entry.again();
    }
  }).observe(root);
  return now;
}

/** "Pick a piece, then a place": the click handlers of a board where a piece moves by a
 * click on it and one on a space (or on a piece standing there). The pick is kept in
 * ctx.state.piece (a picked space, with no piece, in ctx.state.space); `spaceOf(piece)`
 * says where a piece stands; `move(piece, space)` is the edited position, or null when
 * nothing moves. `ctx.rerender()` redraws the board with the new pick. */
export function pickAndPlace(ctx, spaceOf, move) {
  const onSpace = (space) => {
    const piece = ctx.state.piece;
    if (piece) {
      ctx.state.piece = null;
      const next = move(piece, space);
      if (next) ctx.edit(next);
      else ctx.rerender();
      return;
    }
    ctx.state.space = ctx.state.space === space ? null : space;
    ctx.rerender();
  };
  const onPiece = (piece, space) => {
    const picked = ctx.state.piece;
    if (picked && picked !== piece && spaceOf(picked) !== space) {
      onSpace(space);
      return;
    }
    ctx.state.piece = picked === piece ? null : piece;
    ctx.state.space = null;
    ctx.rerender();
  };
  return {onSpace, onPiece};
}

/** The seat an edit is for: the one picked in ctx.state.seat, else the seat to move. */
export function pickedSeat(pos, ctx) {
  const seat = ctx.state.seat;
  return Number.isInteger(seat) && seat < pos.players ? seat : pos.to_move;
}
