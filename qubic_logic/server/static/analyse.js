// The Analyse page: threats, the forced win per engine with timings, and the force-graph explorer.
'use strict';

const $ = id => document.getElementById(id);
const cells = list => Q.cells(list) || 'none';

// What the server said of the position (cells 0..63): drawn again, never asked again, when the notation changes.
const A = {asked: 0, board: null, threats: null, wins: new Map()};
const ENGINES = ['asp', 'prolog', 'native'];

async function analyse() {
  const position = $('position').value, asked = ++A.asked;
  Q.showError($('message'), null);
  history.replaceState(null, '', '?position=' + encodeURIComponent(position));
  A.board = A.threats = null;
  A.wins = new Map();
  try {
    [A.board, A.threats] = await Promise.all([Q.api('show', {position}), Q.api('threats', {position})]);
  } catch (err) { if (asked === A.asked) Q.showError($('message'), err); return; }
  if (asked !== A.asked) return;
  drawPosition();
  await Promise.all(ENGINES.map(async engine => {
    const start = performance.now();
    try {
      const w = await Q.api('win', {position, engine});
      if (asked === A.asked) A.wins.set(engine, {...w, round: performance.now() - start});
    } catch (err) { if (asked === A.asked) A.wins.set(engine, {error: err.message}); }
    if (asked === A.asked) drawWins();
  }));
}

function drawPosition() {
  if (!A.board) return;
  const t = A.threats;
  $('board').replaceChildren(Q.board(A.board));
  $('threats').replaceChildren(Q.el('tr', {}, Q.el('th', {}, ''), Q.el('th', {}, 'threat cells'),
                                    Q.el('th', {}, 'forcing moves'), Q.el('th', {}, 'major cells')));
  for (const s of ['x', 'o']) {
    $('threats').append(Q.el('tr', {}, Q.el('th', {}, s.toUpperCase()), Q.el('td', {}, cells(t[s].threats)),
                              Q.el('td', {}, cells(t[s].forcing_moves)), Q.el('td', {}, cells(t[s].major_cells))));
  }
  drawWins();
}

function drawWins() {
  $('wins').querySelector('tbody').replaceChildren(...ENGINES.map(engine => {
    const w = A.wins.get(engine), row = Q.el('tr', {'data-engine': engine}, Q.el('td', {}, engine));
    if (!w) row.append(Q.el('td', {colspan: 4}, 'searching…'));
    else if (w.error) row.append(Q.el('td', {class: 'error', colspan: 4}, w.error));
    else {
      const answer = w.length ? `${w.attacker.toUpperCase()} wins in ${w.length}`
                              : `${w.attacker.toUpperCase()} has no forced win`;
      row.append(Q.el('td', {class: 'answer'}, answer), Q.el('td', {}, w.length ? Q.cell(w.sequence[0]) : ''),
                 Q.el('td', {}, cells(w.sequence)),
                 Q.el('td', {class: 'time'}, (w.seconds * 1000).toFixed(2) + ' ms',
                      Q.el('span', {class: 'round'}, w.round.toFixed(0) + ' ms')));
    }
    return row;
  }));
}

// ---------------------------------------------------------------- the force-graph explorer
// The server grows the graph and lays out the boxes the page asks for (Graphviz dot); the page draws them,
// keeps the user's zoom and pan, and keeps a clicked node where it was when the drawing changes.

const G = {data: null, nodes: new Map(), children: new Map(), expanded: new Set(), partial: new Map(), laid: null, seq: 0,
           heights: new Map(),
           selected: null, line: [], at: 0, timer: null, pv: []};
const BOX = {w: 118, line: 13, cell: 5, gap: 5};

async function grow() {
  Q.showError($('gsummary'), null);
  $('gsummary').textContent = 'growing…';
  stopAutoplay();
  try {
    const data = await Q.api('tree', {position: $('position').value, engine: $('engine').value, merge: $('merge').value,
                                      only_winning: $('winning').checked, fold: $('fold').checked,
                                      max_nodes: Number($('maxnodes').value) || 2000});
    G.data = data;
    G.laid = null;  // the old drawing is of another graph
    G.nodes = new Map(data.nodes.map(n => [n.id, n]));
    G.children = new Map(data.nodes.map(n => [n.id, []]));
    G.edge = new Map();
    for (const e of data.edges) { G.children.get(e.source).push(e); G.edge.set(e.source + '>' + e.target, e); }
    G.pv = data.principal_variation;
    openOnLine();
    const s = $('gsummary');
    summarise();
    s.dataset.treeNodes = data.tree_nodes;
    s.dataset.graphNodes = data.graph_nodes;
    s.dataset.foldedNodes = data.folded_nodes ?? '';
    G.selected = null;
    await draw({fit: 'opening'});
    select(0);
  } catch (err) { Q.showError($('gsummary'), err); }
}

function summarise() {
  const d = G.data;
  $('gsummary').textContent = `${d.summaries[Q.notation()]} [${d.engine}, ${d.seconds.toFixed(2)} s]`;
}

// The opening view: the principal variation with its branch points; on a narrow screen only the line itself,
// each node of it saying how many positions its other branches hold.
function openOnLine() {
  G.expanded = new Set(G.data.opening);
  G.partial = new Map();
  if ($('graph').clientWidth < 600 && G.data.opening.length < G.nodes.size) {
    G.pv.slice(0, -1).forEach((id, i) => G.partial.set(id, G.pv[i + 1]));
  }
}

// A node's children on show: all of an expanded node's, the one on the line of a partly open node.
function shownChildren(id) {
  if (!G.expanded.has(id)) return [];
  const kids = G.children.get(id);
  return G.partial.has(id) ? kids.filter(e => e.target === G.partial.get(id)) : kids;
}

function shownNodes() {
  const seen = new Set([0]), stack = [0];
  while (stack.length) {
    for (const e of shownChildren(stack.pop())) if (!seen.has(e.target)) { seen.add(e.target); stack.push(e.target); }
  }
  return seen;
}

function hiddenBelow(id, shown) {
  const seen = new Set(), stack = [id];
  while (stack.length) {
    for (const e of G.children.get(stack.pop())) if (!seen.has(e.target)) { seen.add(e.target); stack.push(e.target); }
  }
  let n = 0;
  for (const k of seen) if (!shown.has(k)) n++;
  return n;
}

const sideOf = s => s.toUpperCase();
// The moves of a step ("X 16 · O 31"), the first by ``mover``; the root's empty step says who is to move.
function stepText(step, mover) {
  if (!step.length) return `${sideOf(G.data.attacker)} to move`;
  let side = mover;
  return step.map(c => { const t = `${sideOf(side)} ${Q.cell(c)}`; side = side === 'x' ? 'o' : 'x'; return t; })
    .join(' · ');
}
// The moves from node a to its child b: the edge's own (where lines meet, a node's box shows the step from
// its first parent, which need not be the one on the line).
const stepOf = (a, b) => G.edge.get(a + '>' + b).step;
// A box's step: the one from its parent on the selected line, else the one from its first parent.
function boxStep(id) {
  const i = G.line.indexOf(id), n = G.nodes.get(id);
  return i > 0 ? stepText(stepOf(G.line[i - 1], id), G.nodes.get(G.line[i - 1]).to_move) : stepText(n.step, n.mover);
}
function valueText(n) {
  if (n.role === 'end') return 'four in a row';
  if (n.status === 'win') return `${sideOf(G.data.attacker)} wins in ${n.length}`;
  return n.status === 'fail' ? 'no win' : 'cut off';
}
function boxHeight(hidden) { return 2 * BOX.line + 4 * BOX.cell + 12 + (hidden ? BOX.line : 0); }

// Lay out what is shown (server: dot) and draw it. keep: a node id that stays where it is on screen;
// fit: 'opening' shows the principal variation at full size; otherwise the view is left as it is.
async function draw({keep = null, fit = null} = {}) {
  const svg = $('graph'), shown = shownNodes(), hidden = currentHidden();
  const edges = [];
  for (const id of shown) for (const e of shownChildren(id)) if (shown.has(e.target)) edges.push([id, e.target]);
  const before = keep !== null && G.laid?.nodes[keep] ? onScreen(keep) : null;
  const seq = ++G.seq, start = performance.now();
  G.heights = new Map([...shown].map(id => [id, boxHeight(hidden.get(id))]));
  const laid = await Q.api('layout', {nodes: [...shown].map(id => [id, BOX.w, G.heights.get(id)]), edges});
  if (seq !== G.seq) return;  // a newer drawing is on its way
  G.laid = laid;
  paint(shown, hidden);
  if (fit === 'opening' || !svg.getAttribute('viewBox')) openingView();
  else if (before) {
    const [x, y] = laid.nodes[keep], [, , w, h] = viewBox();
    setViewBox(x - before[0], y - G.heights.get(keep) / 2 - before[1], w, h);
  }
  svg.dataset.visible = shown.size;
  svg.dataset.drawMs = (performance.now() - start).toFixed(0);
}

function paint(shown, hidden) {
  const svg = $('graph'), edges = Q.svg('g'), nodes = Q.svg('g'), onLine = new Set(G.line);
  for (const e of G.laid.edges) {
    const data = G.edge.get(e.source + '>' + e.target);
    const lined = onLine.has(e.source) && onLine.has(e.target) && G.line.indexOf(e.target) === G.line.indexOf(e.source) + 1;
    edges.append(Q.svg('path', {d: e.d, class: `gedge ${data.kind}${data.best ? ' best' : ''}${lined ? ' online' : ''}`,
                                'data-source': e.source, 'data-target': e.target}));
  }
  for (const id of shown) {
    const n = G.nodes.get(id), [cx, cy] = G.laid.nodes[id], more = G.children.get(id).length;
    const h = boxHeight(hidden.get(id)), w = BOX.w;
    const cls = ['gnode', n.status, n.merged ? 'merged' : '', n.role === 'end' ? 'end' : '',
                 hidden.has(id) ? 'collapsed' : '', onLine.has(id) ? 'online' : '', id === G.selected ? 'hover' : ''];
    const g = Q.svg('g', {class: cls.filter(Boolean).join(' '), 'data-id': id, transform: `translate(${cx - w / 2},${cy - h / 2})`});
    g.append(Q.svg('rect', {width: w, height: h, class: 'box'}));
    const line = (text, y, cls, x = w / 2) => { const t = Q.svg('text', {x, y, class: cls}); t.textContent = text; g.append(t); };
    line(boxStep(id), BOX.line, 'step');
    line(valueText(n), 2 * BOX.line, 'value');
    g.append(miniBoard(n, (w - (16 * BOX.cell + 3 * BOX.gap)) / 2, 2 * BOX.line + 5));
    if (hidden.has(id)) line(`+${hidden.get(id)} position${hidden.get(id) > 1 ? 's' : ''}`, h - 4, 'more');
    if (more) line(G.expanded.has(id) && !G.partial.has(id) ? '−' : '+', BOX.line, 'toggle', w - 7);
    const title = Q.svg('title');
    title.textContent = `after ${boxStep(id)}: ${n.caption.split(': ').slice(1).join(': ')}`;
    g.append(title);
    g.addEventListener('pointerenter', ev => { if (ev.pointerType === 'mouse') select(id); });
    g.addEventListener('click', () => { if (G.selected !== id) select(id); else toggle(id); });
    nodes.append(g);
  }
  svg.replaceChildren(edges, nodes);
}

function miniBoard(n, x0, y0) {
  const g = Q.svg('g', {class: 'mini', transform: `translate(${x0},${y0})`}), C = BOX.cell, step = new Set(n.step);
  for (let z = 0; z < 4; z++) {
    const lx = z * (4 * C + BOX.gap);
    g.append(Q.svg('rect', {x: lx, y: 0, width: 4 * C, height: 4 * C, class: 'lv'}));
    for (let c = 16 * z; c < 16 * z + 16; c++) {
      const cls = n.win.includes(c) ? 'w' : n.x.includes(c) ? 'x' : n.o.includes(c) ? 'o'
        : n.xt.includes(c) ? 'tx' : n.ot.includes(c) ? 'to' : null;
      if (!cls && !step.has(c)) continue;
      g.append(Q.svg('rect', {x: lx + (c % 4) * C, y: ((c >> 2) % 4) * C, width: C, height: C,
                              class: `${cls || ''}${step.has(c) ? ' st' : ''}`}));
    }
  }
  return g;
}

function viewBox() { return $('graph').getAttribute('viewBox').split(' ').map(Number); }
function setViewBox(x, y, w, h) { $('graph').setAttribute('viewBox', `${x} ${y} ${w} ${h}`); }
// Where a node's top centre is in the view (drawing units from the view's corner).
function onScreen(id) {
  const [x, y] = G.laid.nodes[id], [vx, vy] = viewBox();
  return [x - vx, y - G.heights.get(id) / 2 - vy];
}

function boundsOf(ids) {
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (const id of ids) {
    const [x, y] = G.laid.nodes[id] || [];
    if (x === undefined) continue;
    x0 = Math.min(x0, x - BOX.w / 2); x1 = Math.max(x1, x + BOX.w / 2);
    const h = G.heights.get(id) / 2;
    y0 = Math.min(y0, y - h); y1 = Math.max(y1, y + h);
  }
  return [x0, y0, x1, y1];
}

// Show a box of the drawing whole, at full size when it fits (text stays readable), else scaled to fit.
function showBox([x0, y0, x1, y1], pad = 16) {
  const svg = $('graph'), W = svg.clientWidth, H = svg.clientHeight;
  const scale = Math.max(1, (x1 - x0 + 2 * pad) / W, (y1 - y0 + 2 * pad) / H);
  const w = W * scale, h = H * scale;
  setViewBox((x0 + x1) / 2 - w / 2, Math.min(y0 - pad, (y0 + y1) / 2 - h / 2), w, h);
}
function openingView() { showBox(boundsOf(G.pv.filter(id => G.laid.nodes[id]))); }
function fitView() { showBox([0, 0, G.laid.width, G.laid.height]); }

function zoomBy(f, [px, py] = []) {
  const [x, y, w, h] = viewBox();
  if (px === undefined) { px = x + w / 2; py = y + h / 2; }
  setViewBox(px - (px - x) * f, py - (py - y) * f, w * f, h * f);
}

// The wheel or a pinch zooms about the pointer, dragging the background pans: both move the viewBox.
function zoomAndPan(svg) {
  const scale = () => viewBox()[2] / svg.clientWidth;
  const at = ev => { const r = svg.getBoundingClientRect(), [x, y] = viewBox(), s = scale();
                     return [x + (ev.clientX - r.left) * s, y + (ev.clientY - r.top) * s]; };
  svg.addEventListener('wheel', ev => { ev.preventDefault(); zoomBy(ev.deltaY > 0 ? 1.2 : 1 / 1.2, at(ev)); },
                       {passive: false});
  const down = new Map();
  let spread = null;
  svg.addEventListener('pointerdown', ev => {
    if (ev.target.closest('.gnode') && ev.pointerType === 'mouse') return;
    down.set(ev.pointerId, [ev.clientX, ev.clientY]);
  });
  const up = ev => { down.delete(ev.pointerId); spread = null; };
  for (const name of ['pointerup', 'pointercancel', 'pointerleave']) svg.addEventListener(name, up);
  svg.addEventListener('pointermove', ev => {
    if (!down.has(ev.pointerId)) return;
    const last = down.get(ev.pointerId);
    down.set(ev.pointerId, [ev.clientX, ev.clientY]);
    if (down.size === 2) {
      const [a, b] = [...down.values()], d = Math.hypot(a[0] - b[0], a[1] - b[1]);
      if (spread) zoomBy(spread / d, at({clientX: (a[0] + b[0]) / 2, clientY: (a[1] + b[1]) / 2}));
      spread = d;
      return;
    }
    const [x, y, w, h] = viewBox(), s = scale();
    setViewBox(x - (ev.clientX - last[0]) * s, y - (ev.clientY - last[1]) * s, w, h);
  });
}

function toggle(id) {
  if (!G.children.get(id).length) return;
  if (G.partial.has(id)) G.partial.delete(id);
  else if (G.expanded.has(id)) G.expanded.delete(id); else G.expanded.add(id);
  draw({keep: id});
}

// ------------------------------------------------ the selected node, its line, stepping through it

function pathTo(id) {
  const from = new Map([[0, null]]), queue = [0];
  for (let i = 0; i < queue.length && !from.has(id); i++) {
    for (const e of G.children.get(queue[i])) if (!from.has(e.target)) { from.set(e.target, queue[i]); queue.push(e.target); }
  }
  const path = [];
  for (let k = id; k !== null && k !== undefined; k = from.get(k)) path.unshift(k);
  return path;
}

// The line through a node: the principal variation for a node on it; else the way to the node, then the
// attacker's fastest win against the longest defence.
function lineThrough(id) {
  if (G.pv.includes(id)) return [...G.pv];
  const line = pathTo(id);
  for (let n = G.nodes.get(id); n.status === 'win';) {
    const wins = G.children.get(n.id).map(e => G.nodes.get(e.target)).filter(c => c.status === 'win');
    if (!wins.length) break;
    const sign = n.role === 'attacker' ? 1 : -1;
    n = wins.reduce((a, b) => (sign * (b.length - a.length) < 0 || (b.length === a.length && b.id < a.id) ? b : a));
    line.push(n.id);
  }
  return line;
}

function select(id) {
  G.selected = id;
  G.line = lineThrough(id);
  G.at = G.line.indexOf(id);
  for (const g of document.querySelectorAll('#graph .gnode')) {
    g.classList.toggle('hover', Number(g.dataset.id) === id);
    g.classList.toggle('online', G.line.includes(Number(g.dataset.id)));
    g.querySelector('text.step').textContent = boxStep(Number(g.dataset.id));
  }
  for (const p of document.querySelectorAll('#graph .gedge')) {
    const a = G.line.indexOf(Number(p.dataset.source));
    p.classList.toggle('online', a >= 0 && G.line[a + 1] === Number(p.dataset.target));
  }
  showStep();
}

function showStep() {
  const id = G.line[G.at], n = G.nodes.get(id);
  const parent = G.at ? G.line[G.at - 1] : null, e = parent === null ? null : G.edge.get(parent + '>' + id);
  const step = e ? e.step : [], mover = e ? G.nodes.get(parent).to_move : null;
  const A = sideOf(G.data.attacker), D = A === 'X' ? 'O' : 'X', cell = c => Q.cell(c);
  const byAttacker = mover === G.data.attacker;  // a folded step after a double threat starts with the block
  const marks = {stepmove: step.filter((c, i) => (i === 0) === byAttacker), forced: step.filter((c, i) => (i === 0) !== byAttacker),
                 dbl: []};
  let note = G.at ? '' : `${A} to move. `;
  if (e) {
    const [move, reply] = step;
    if (e.kind === 'double') {
      marks.dbl = (A === 'X' ? n.xt : n.ot);
      note = `${A} ${cell(move)} makes a double threat (${marks.dbl.map(cell).join(', ')}): ${D} can block only one.`;
    } else if (e.kind === 'complete') note = `${A} ${cell(move)} completes four in a row.`;
    else if (e.kind === 'block') {
      note = reply === undefined ? `${D} ${cell(move)} blocks one threat.`
        : `${D} ${cell(move)} blocks one threat; ${A} ${cell(reply)} completes four in a row.`;
    } else {
      const what = e.kind === 'counter' ? `blocks ${D}'s threat` : 'threatens four in a row';
      note = `${A} ${cell(move)} ${what}` + (reply === undefined ? '.' : ` at ${cell(reply)}; ${D} ${cell(reply)} is forced.`);
    }
  }
  $('nodecap').textContent = `after ${stepText(step, mover)}: ${valueText(n)}`;
  const b = {x: n.x, o: n.o, threats: {x: n.xt, o: n.ot}, winning_line: n.win, over: true};
  $('nodeboard').replaceChildren(Q.board(b, {marks, size: 22}));
  $('nodeboard').dataset.node = id;
  $('stepinfo').textContent = `step ${G.at} of ${G.line.length - 1}`;
  $('stepnote').textContent = note + (n.status === 'win' || n.role === 'end' ? '' : ` ${n.status === 'fail' ? 'No forced win' : 'Cut off'}: ${n.reason}.`);
  $('back').disabled = G.at === 0;
  $('forward').disabled = G.at >= G.line.length - 1;
  const moves = G.line.slice(1, G.at + 1).flatMap((k, i) => stepOf(G.line[i], k));
  $('nodepath').textContent = `moves from the root: ${moves.map(cell).join(' ') || '(none)'}` +
    (n.tree_nodes > 1 ? `; ${n.tree_nodes} lines of play meet here` : '');
  $('nodepath').dataset.moves = moves.join(' ');
  $('nodepath').dataset.nodes = G.line.slice(0, G.at + 1).join(' ');
}

function stepBy(d) {
  const at = Math.max(0, Math.min(G.line.length - 1, G.at + d));
  if (at === G.at) return false;
  G.at = at;
  const id = G.line[at], way = G.line.slice(0, at);
  if (way.some((k, i) => !shownChildren(k).some(e => e.target === G.line[i + 1]))) {
    // open the way to it (a node where lines meet may be drawn under another parent); the drawing marks
    // the line and the selected node
    for (const k of way) { G.expanded.add(k); G.partial.delete(k); }
    draw({keep: G.line[at - 1]});
  } else {
    for (const g of document.querySelectorAll('#graph .gnode')) g.classList.toggle('hover', Number(g.dataset.id) === id);
  }
  G.selected = id;
  showStep();
  return true;
}
function stopAutoplay() { clearInterval(G.timer); G.timer = null; $('autoplay').textContent = 'autoplay'; }
function autoplay() {
  if (G.timer) return stopAutoplay();
  if (G.at >= G.line.length - 1) { G.at = 0; showStep(); }
  $('autoplay').textContent = 'stop';
  G.timer = setInterval(() => { if (!stepBy(1)) stopAutoplay(); }, 1200);
}

async function main() {
  Q.nav('analyse');
  await Q.load();
  $('legend').append(Q.legend());
  const asked = Q.param('position');
  $('position').value = asked || $('position').value;
  let read = $('position').value;  // the text last analysed: only new text brings its notation
  if (asked && !Q.param('notation')) await Q.adopt(asked).catch(() => {});  // a bad position is reported below
  $('form').addEventListener('submit', async ev => {
    ev.preventDefault();
    if ($('position').value !== read) {
      read = $('position').value;
      await Q.adopt(read).catch(() => {});
    }
    analyse();
    grow();
  });
  Q.onNotation(() => {
    drawPosition();
    if (G.data && G.laid) { summarise(); paint(shownNodes(), currentHidden()); if (G.selected !== null) showStep(); }
  });
  $('grow').addEventListener('click', () => grow().then(() => document.querySelector('.fg-bar').scrollIntoView()));
  $('fold').addEventListener('change', grow);
  $('fit').addEventListener('click', fitView);
  $('zoomin').addEventListener('click', () => zoomBy(1 / 1.25));
  $('zoomout').addEventListener('click', () => zoomBy(1.25));
  $('opening').addEventListener('click', async () => {  // the principal variation, the stepper back at its start
    stopAutoplay();
    openOnLine();
    G.selected = null;
    await draw({fit: 'opening'});
    select(0);
  });
  zoomAndPan($('graph'));
  $('expandall').addEventListener('click', () => {
    G.partial = new Map();
    for (const id of G.nodes.keys()) if (G.expanded.size < 400) G.expanded.add(id);
    draw({keep: G.selected ?? 0});
  });
  $('collapse').addEventListener('click', () => { G.expanded = new Set([0]); G.partial = new Map(); draw({keep: 0}); });
  $('back').addEventListener('click', () => { stopAutoplay(); stepBy(-1); });
  $('forward').addEventListener('click', () => { stopAutoplay(); stepBy(1); });
  $('autoplay').addEventListener('click', autoplay);
  analyse();
  grow();
}

// What each node with children not on show hides.
function currentHidden() {
  const shown = shownNodes(), hidden = new Map();
  for (const id of shown) {
    const kids = G.children.get(id);
    if (kids.length && (!G.expanded.has(id) || G.partial.has(id))) hidden.set(id, hiddenBelow(id, shown));
  }
  return hidden;
}

main();
