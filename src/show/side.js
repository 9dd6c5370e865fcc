// One side of a replay page, the one drawing both pages use (the single page has one side,
// the side-by-side page two): a record's board with an outline where the next piece locks,
// its figures (score or points and lines; a guideline game's attack, combo and back-to-back;
// TETR.IO's solo time, inputs and finesse faults; a family's own, such as an NES game's level
// and speed) and its queue (the next piece; a guideline game's hold and previews).
// A side's element ids are its prefix ("" on the single page, "a-" and "b-" beside each
// other) and a name: `board`, `board-text` (the board as "#"/"." text, the outline's cells in
// its `data-ghost`), one `output` a figure, `hold-letter`, `next-letter`, `previews-letters`.
const W = 10;
const ALPHA = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const DIGIT = {};
for (let i = 0; i < 64; i++) DIGIT[ALPHA[i]] = i;
// Boards: two cells a character, nine kinds a cell (0 empty, 1-7 pieces, 8 starting board).
const BOARD_ALPHA = ALPHA + "!#$%&()*,-.:;=?@^";
const BOARD_DIGIT = {};
for (let i = 0; i < 81; i++) BOARD_DIGIT[BOARD_ALPHA[i]] = i;
// Colour codes 1..7 are the engine's shapes I L J T O S Z, 8 a starting-board cell.
const COLOURS = [null, "#31c7ef", "#ef7921", "#2d5be3", "#ad4d9c", "#f7d308", "#42b642", "#ef2029", "#8c8c8c"];
const LETTERS = " ILJTOSZ";
// Each shape as it spawns, y down, for the hold, next and preview boxes.
const SHAPES = {
  I: [[0, 0], [1, 0], [2, 0], [3, 0]], L: [[2, 0], [0, 1], [1, 1], [2, 1]],
  J: [[0, 0], [0, 1], [1, 1], [2, 1]], T: [[1, 0], [0, 1], [1, 1], [2, 1]],
  O: [[0, 0], [1, 0], [0, 1], [1, 1]], S: [[1, 0], [2, 0], [0, 1], [1, 1]],
  Z: [[0, 0], [1, 0], [1, 1], [2, 1]],
};
const PREVIEWS = 5;

function seconds(ms) {
  return (ms / 1000).toFixed(3) + " s";
}

// A TETR.IO solo game counts score, not points, and sends no attack.
function points(d) {
  return !!d.chains && !d.solo;
}

// The id of a family's own figure (`fig-level`).
function figureId(f) {
  return "fig-" + f.label.replace(/[^A-Za-z0-9]+/g, "-");
}

// The figures side `d` shows, [id, label], in order: only those its family has.
function figureRows(d) {
  const rows = [["piece", "piece"], ["score", points(d) ? "points" : "score"], ["lines", "lines"]];
  for (const f of d.figures || []) rows.push([figureId(f), f.label]);
  if (d.solo) rows.push(["time", "time"], ["inputs", "inputs"], ["faults", "finesse faults"]);
  rows.push(["gain", "last lock"]);
  if (points(d)) rows.push(["attack", "attack"]);
  if (d.chains) rows.push(["combo", "combo"], ["b2b", "back-to-back"]);
  if (d.versus) rows.push(["incoming", "garbage waiting"]);
  return rows;
}

// Adds side `d` to the element `into`: ids prefixed `p`, cells of `size` pixels, the queue's
// of `small`, its name as a heading when `named`.
function addSide(into, d, p, size, small, named) {
  const side = document.createElement("div");
  side.className = "side";
  side.id = p + "side";
  let rows = "";
  for (const [id] of figureRows(d)) {
    rows += `<tr id="${p}row-${id}"><th></th><td><output id="${p}${id}"></output></td></tr>`;
  }
  const box = (id, label, boxes) =>
    `<div class="box"><span class="label">${label}</span><canvas id="${p}${id}" ` +
    `width="${6 * small}" height="${3 * small * boxes}"></canvas><output id="${p}${id}-letter${boxes > 1 ? "s" : ""}"></output></div>`;
  let queue = d.chains ? box("hold", "hold", 1) : "";
  queue += box("next", "next", 1);
  if (d.chains) queue += box("previews", "previews", PREVIEWS);
  side.innerHTML = (named ? `<h2 id="${p}name"></h2>` : "") +
    `<div class="play">` +
    (d.versus ? `<canvas class="meter" id="${p}meter" width="${Math.round(size / 2)}" ` +
      `height="${d.rows * size}" aria-label="the garbage meter"></canvas>` : "") +
    `<canvas class="board" id="${p}board" width="${W * size}" ` +
    `height="${d.rows * size}" aria-label="the board"></canvas>` +
    `<div class="panel"><table class="figures">${rows}</table><div class="queue">${queue}</div></div></div>` +
    `<pre class="board-text" id="${p}board-text"></pre>`;
  into.appendChild(side);
  for (const [id, label] of figureRows(d)) $(p + "row-" + id).firstChild.textContent = label;
  if (named) $(p + "name").textContent = d.name;
}

function unpackBoard(d, i) {
  const s = d.boards[i], cells = new Array(W * d.rows);
  for (let j = 0; j < s.length; j++) {
    const v = BOARD_DIGIT[s[j]];
    cells[2 * j] = v % 9;
    cells[2 * j + 1] = (v - v % 9) / 9;
  }
  return cells;
}

// The cells of lock i as canvas rows (0 the top drawn row); rows above it come out negative.
function lockCells(d, i) {
  const out = [];
  for (let j = 0; j < 4; j++) {
    const v = DIGIT[d.cells[8 * i + 2 * j]] + 64 * DIGIT[d.cells[8 * i + 2 * j + 1]];
    out.push([v % W, d.rows - 1 - Math.floor(v / W)]);
  }
  return out;
}

function square(ctx, x, y, size, colour) {
  ctx.fillStyle = colour;
  ctx.fillRect(x * size + 1, y * size + 1, size - 2, size - 2);
  ctx.fillStyle = "rgba(255,255,255,0.18)";
  ctx.fillRect(x * size + 1, y * size + 1, size - 2, Math.max(2, size / 9));
}

// Draws `letter` in cells of `size` centred in a box of `height` pixels from `top` of `ctx`.
function mini(ctx, letter, top, height, size) {
  const piece = SHAPES[letter];
  if (!piece) return;
  const w = Math.max(...piece.map((c) => c[0])) + 1, h = Math.max(...piece.map((c) => c[1])) + 1;
  const ox = (ctx.canvas.width / size - w) / 2, oy = top / size + (height / size - h) / 2;
  for (const [x, y] of piece) square(ctx, x + ox, y + oy, size, COLOURS[LETTERS.indexOf(letter)]);
}

// Draws side `d` after `n` pieces on its canvas, with the outline of lock `n`; returns the
// board as "#"/"." text, top row first, and the outline's cells as "x,y" (y the text's row).
function drawBoard(d, p, n, size) {
  const ctx = $(p + "board").getContext("2d"), H = d.rows, last = d.boards.length - 1;
  ctx.clearRect(0, 0, W * size, H * size);
  ctx.strokeStyle = "#1c1f26";
  for (let x = 1; x < W; x++) { ctx.beginPath(); ctx.moveTo(x * size, 0); ctx.lineTo(x * size, H * size); ctx.stroke(); }
  for (let y = 1; y < H; y++) { ctx.beginPath(); ctx.moveTo(0, y * size); ctx.lineTo(W * size, y * size); ctx.stroke(); }
  if (H > d.visible) {
    ctx.strokeStyle = "#8b93a3";
    ctx.setLineDash([6, 4]);
    ctx.beginPath(); ctx.moveTo(0, (H - d.visible) * size); ctx.lineTo(W * size, (H - d.visible) * size); ctx.stroke();
    ctx.setLineDash([]);
  }
  const cells = unpackBoard(d, n);
  let text = "";
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const c = cells[y * W + x];
      if (c) square(ctx, x, y, size, COLOURS[c]);
      text += c ? "#" : ".";
    }
    text += "\n";
  }
  const ghost = [];
  if (n < last) {
    ctx.strokeStyle = COLOURS[LETTERS.indexOf(d.pieces[n])];
    ctx.lineWidth = 2;
    for (const [x, y] of lockCells(d, n)) {
      if (y < 0) continue;
      ctx.strokeRect(x * size + 3, y * size + 3, size - 6, size - 6);
      ghost.push(x + "," + y);
    }
    ctx.lineWidth = 1;
  }
  return [text, ghost.join(" ")];
}

// Draws the queue after `n` pieces: hold, the next piece, the previews.
function drawQueue(d, p, n, size) {
  const queue = n < d.next.length ? d.next[n] : "";
  const clear = (id) => {
    const ctx = $(p + id).getContext("2d");
    ctx.clearRect(0, 0, ctx.canvas.width, ctx.canvas.height);
    return ctx;
  };
  const next = clear("next");
  if (queue.length > 0) {
    mini(next, queue[0], 0, next.canvas.height, size);
    $(p + "next-letter").textContent = queue[0];
  } else {
    $(p + "next-letter").textContent = "game over: " + d.end;
  }
  if (!d.chains) return;
  const hold = clear("hold");
  mini(hold, d.chains.hold[n], 0, hold.canvas.height, size);
  $(p + "hold-letter").textContent = d.chains.hold[n];
  const previews = clear("previews"), box = previews.canvas.height / PREVIEWS;
  for (let i = 1; i < queue.length; i++) mini(previews, queue[i], (i - 1) * box, box, size);
  $(p + "previews-letters").textContent = queue.slice(1);
}

// Draws side `d` (ids prefixed `p`) after `n` pieces, or after its last if it has fewer.
function drawSide(d, p, n, size, small) {
  const last = d.boards.length - 1;
  n = Math.min(n, last);
  const [text, ghost] = drawBoard(d, p, n, size);
  $(p + "board-text").textContent = text;
  $(p + "board-text").dataset.ghost = ghost;
  drawQueue(d, p, n, small);
  $(p + "piece").textContent = n + " / " + last;
  $(p + "piece").dataset.k = n;
  $(p + "score").textContent = d.score[n];
  $(p + "lines").textContent = d.lines[n];
  for (const f of d.figures || []) $(p + figureId(f)).textContent = f.values[n];
  if (d.solo) {
    // A record of placements has no keys (and without lock times no time): "\u2013".
    const known = (v) => (v ? v[n] : "\u2013");
    $(p + "time").textContent = d.solo.time ? seconds(d.solo.time[n]) : "\u2013";
    if (d.solo.time) $(p + "time").dataset.ms = d.solo.time[n];
    $(p + "inputs").textContent = known(d.solo.inputs);
    $(p + "faults").textContent = known(d.solo.faults);
  }
  let gain = n > 0 ? "+" + d.gain[n - 1] : "\u2013";
  if (n > 0 && points(d)) gain += ", " + d.chains.lock_attack[n - 1] + " attack";
  $(p + "gain").textContent = gain;
  if (d.chains) {
    if (points(d)) $(p + "attack").textContent = d.chains.attack[n];
    $(p + "combo").textContent = d.chains.combo[n];
    $(p + "b2b").textContent = d.chains.back_to_back[n] ? "on" : "off";
  }
  $(p + "side").classList.toggle("done", n === last);
}

// A versus side's state at game frame `t`: the last of its boards begun by then, and the
// garbage rows waiting after that frame.
function versusAt(d, t) {
  const last = (list, key) => {
    let lo = 0, hi = list.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (key(list[mid]) <= t) lo = mid; else hi = mid - 1;
    }
    return lo;
  };
  return [last(d.versus.frames, (f) => f), d.versus.meter[last(d.versus.meter, (m) => m[0])][1]];
}

// Draws a versus side's garbage meter: `rows` red cells up from the bottom (at most the
// drawn rows), the count in its figure.
function drawMeter(d, p, rows, size) {
  const ctx = $(p + "meter").getContext("2d"), H = d.rows, w = ctx.canvas.width;
  ctx.clearRect(0, 0, w, H * size);
  for (let y = 0; y < Math.min(rows, H); y++) {
    ctx.fillStyle = "#e0323c";
    ctx.fillRect(1, (H - 1 - y) * size + 1, w - 2, size - 2);
  }
  $(p + "meter").dataset.rows = rows;
  $(p + "incoming").textContent = rows;
}

// Side `d`'s end in words: pieces, lines and its family's figures.
function summary(d) {
  const n = d.boards.length - 1;
  let s = d.name + ": " + n + (n === 1 ? " piece, " : " pieces, ");
  s += (points(d) ? "points " : "score ") + d.score[n];
  if (points(d)) s += ", attack " + d.chains.attack[n];
  s += ", lines " + d.lines[n];
  for (const f of d.figures || []) s += ", " + f.label + " " + f.values[n];
  if (d.solo && d.solo.time) s += ", " + seconds(d.solo.time[n]);
  if (d.solo && d.solo.inputs) s += ", " + d.solo.inputs[n] + " inputs, " + d.solo.faults[n] + " faults";
  return s;
}
