// The Analyse page: threats, the forced win per engine with timings, and the force-graph explorer.
'use strict';

const $ = id => document.getElementById(id);
const notation = () => $('notation').value;
const cells = list => list.map(c => Q.cell(c, notation())).join(' ') || 'none';

async function analyse() {
  const position = $('position').value;
  Q.showError($('message'), null);
  history.replaceState(null, '', '?position=' + encodeURIComponent(position));
  try {
    const [b, t] = await Promise.all([Q.api('show', {position}), Q.api('threats', {position})]);
    $('board').replaceChildren(Q.board(b, {notation: notation()}));
    $('threats').replaceChildren(Q.el('tr', {}, Q.el('th', {}, ''), Q.el('th', {}, 'threat cells'),
                                      Q.el('th', {}, 'forcing moves'), Q.el('th', {}, 'major cells')));
    for (const s of ['x', 'o']) {
      $('threats').append(Q.el('tr', {}, Q.el('th', {}, s.toUpperCase()), Q.el('td', {}, cells(t[s].threats)),
                                Q.el('td', {}, cells(t[s].forcing_moves)), Q.el('td', {}, cells(t[s].major_cells))));
    }
  } catch (err) { Q.showError($('message'), err); return; }
  const body = $('wins').querySelector('tbody');
  body.replaceChildren();
  await Promise.all(['asp', 'prolog', 'native'].map(async engine => {
    const row = Q.el('tr', {'data-engine': engine}, Q.el('td', {}, engine), Q.el('td', {}, 'searching…'));
    body.append(row);
    const start = performance.now();
    try {
      const w = await Q.api('win', {position, engine});
      const answer = w.length ? `${w.attacker.toUpperCase()} wins in ${w.length}`
                              : `${w.attacker.toUpperCase()} has no forced win`;
      row.replaceChildren(Q.el('td', {}, engine), Q.el('td', {class: 'answer'}, answer),
        Q.el('td', {}, w.length ? Q.cell(w.sequence[0], notation()) : ''), Q.el('td', {}, cells(w.sequence)),
        Q.el('td', {}, (w.seconds * 1000).toFixed(2) + ' ms'),
        Q.el('td', {}, (performance.now() - start).toFixed(0) + ' ms'));
    } catch (err) {
      row.replaceChildren(Q.el('td', {}, engine), Q.el('td', {class: 'error', colspan: 5}, err.message));
    }
  }));
}

// ---------------------------------------------------------------- the force-graph explorer

const G = {data: null, nodes: new Map(), children: new Map(), parents: new Map(), expanded: new Set(), hover: null};

async function grow() {
  Q.showError($('gsummary'), null);
  $('gsummary').textContent = 'growing…';
  try {
    const data = await Q.api('tree', {position: $('position').value, engine: $('engine').value, merge: $('merge').value,
                                      only_winning: $('winning').checked, max_nodes: Number($('maxnodes').value) || 2000});
    G.data = data;
    G.nodes = new Map(data.nodes.map(n => [n.id, n]));
    G.children = new Map(data.nodes.map(n => [n.id, []]));
    G.parents = new Map(data.nodes.map(n => [n.id, 0]));
    for (const e of data.edges) { G.children.get(e.source).push(e); G.parents.set(e.target, G.parents.get(e.target) + 1); }
    G.expanded = new Set([0]);
    $('gsummary').textContent = `${data.summary} [${data.engine}, ${data.seconds.toFixed(2)} s]`;
    $('gsummary').dataset.treeNodes = data.tree_nodes;
    $('gsummary').dataset.graphNodes = data.graph_nodes;
    render(true);
    hover(0);
  } catch (err) { Q.showError($('gsummary'), err); }
}

// Visible nodes: the root and the children of expanded nodes, placed as a tidy tree of first discovery.
function layout() {
  const place = new Map(), spanning = new Map([[0, []]]), order = [0];
  for (let i = 0; i < order.length; i++) {
    const id = order[i];
    if (!G.expanded.has(id)) continue;
    for (const e of G.children.get(id)) {
      if (!spanning.has(e.target)) { spanning.set(e.target, []); spanning.get(id).push(e.target); order.push(e.target); }
    }
  }
  let slot = 0;
  const depthOf = new Map([[0, 0]]);
  (function walk(id) {
    const kids = spanning.get(id);
    for (const k of kids) { depthOf.set(k, depthOf.get(id) + 1); walk(k); }
    const x = kids.length ? (place.get(kids[0])[0] + place.get(kids[kids.length - 1])[0]) / 2 : slot++ * 70;
    place.set(id, [x, depthOf.get(id) * 70]);
  })(0);
  return place;
}

function render(fit) {
  const svg = $('graph'), place = layout();
  svg.replaceChildren();
  const edges = Q.svg('g'), nodes = Q.svg('g');
  for (const [id, [x, y]] of place) {
    if (!G.expanded.has(id)) continue;
    for (const e of G.children.get(id)) {
      if (!place.has(e.target)) continue;
      const [tx, ty] = place.get(e.target);
      edges.append(Q.svg('path', {d: `M${x},${y + 12}C${x},${y + 40} ${tx},${ty - 40} ${tx},${ty - 12}`,
                                  class: `gedge ${e.kind}${e.best ? ' best' : ''}`}));
      const label = Q.svg('text', {x: (x + tx) / 2, y: (y + ty) / 2 + 3, class: 'elabel'});
      label.textContent = Q.cell(e.move, notation());
      edges.append(label);
    }
  }
  for (const [id, [x, y]] of place) {
    const n = G.nodes.get(id), more = G.children.get(id).length;
    const g = Q.svg('g', {class: `gnode ${n.status}${G.parents.get(id) > 1 ? ' merged' : ''}`, 'data-id': id,
                          transform: `translate(${x},${y})`});
    g.append(Q.svg('rect', {x: -30, y: -12, width: 60, height: 24}));
    const t = Q.svg('text', {y: 4});
    const mover = n.to_move === 'x' ? 'O' : 'X';
    const who = n.move === null ? 'root' : `${mover} ${Q.cell(n.move, notation())}`;
    t.textContent = who + (more ? (G.expanded.has(id) ? ' −' : ' +') : '');
    const title = Q.svg('title');
    title.textContent = n.caption;
    g.append(t, title);
    g.addEventListener('mouseenter', () => hover(id));
    g.addEventListener('click', () => toggle(id));
    nodes.append(g);
  }
  svg.append(edges, nodes);
  svg.dataset.visible = place.size;
  if (fit || !svg.getAttribute('viewBox')) fitView();
}

function fitView() {
  const svg = $('graph'), box = svg.getBBox();
  const pad = 30, w = Math.max(box.width + 2 * pad, 800), h = Math.max(box.height + 2 * pad, 480);
  svg.setAttribute('viewBox', `${box.x + box.width / 2 - w / 2} ${box.y - pad} ${w} ${h}`);
}

// Wheel zooms about the pointer, dragging the background pans: both move the viewBox.
function zoomAndPan(svg) {
  const box = () => svg.getAttribute('viewBox').split(' ').map(Number);
  const scale = () => box()[2] / svg.clientWidth;
  svg.addEventListener('wheel', ev => {
    ev.preventDefault();
    const [x, y, w, h] = box(), f = ev.deltaY > 0 ? 1.2 : 1 / 1.2, r = svg.getBoundingClientRect();
    const px = x + (ev.clientX - r.left) * scale(), py = y + (ev.clientY - r.top) * (h / svg.clientHeight);
    svg.setAttribute('viewBox', `${px - (px - x) * f} ${py - (py - y) * f} ${w * f} ${h * f}`);
  }, {passive: false});
  let drag = null;
  svg.addEventListener('pointerdown', ev => { if (!ev.target.closest('.gnode')) drag = [ev.clientX, ev.clientY]; });
  svg.addEventListener('pointerup', () => { drag = null; });
  svg.addEventListener('pointerleave', () => { drag = null; });
  svg.addEventListener('pointermove', ev => {
    if (!drag) return;
    const [x, y, w, h] = box(), s = scale();
    svg.setAttribute('viewBox', `${x - (ev.clientX - drag[0]) * s} ${y - (ev.clientY - drag[1]) * s} ${w} ${h}`);
    drag = [ev.clientX, ev.clientY];
  });
}

function toggle(id) {
  if (!G.children.get(id).length) return;
  if (G.expanded.has(id)) G.expanded.delete(id); else G.expanded.add(id);
  render(true);
}

function hover(id) {
  const n = G.nodes.get(id);
  if (!n) return;
  document.querySelectorAll('#graph .gnode.hover').forEach(g => g.classList.remove('hover'));
  const g = document.querySelector(`#graph .gnode[data-id="${id}"]`);
  if (g) g.classList.add('hover');
  $('nodecap').textContent = n.caption;
  const b = {x: n.x, o: n.o, threats: {x: n.xt, o: n.ot}, winning_line: n.win, over: true};
  $('nodeboard').replaceChildren(Q.board(b, {notation: notation(), last: n.move ?? undefined, size: 18}));
  $('nodepath').textContent = `${n.status}${n.reason ? ' (' + n.reason + ')' : ''}; depth ${n.depth}` +
    (n.tree_nodes > 1 ? `; ${n.tree_nodes} tree nodes merged here` : '');
}

async function main() {
  Q.nav('analyse');
  const info = await Q.load();
  for (const n of info.notations) $('notation').append(Q.el('option', {value: n}, n));
  $('legend').append(Q.legend());
  $('position').value = Q.param('position') || $('position').value;
  $('form').addEventListener('submit', ev => { ev.preventDefault(); analyse(); grow(); });
  $('notation').addEventListener('change', () => { analyse(); if (G.data) render(false); });
  $('grow').addEventListener('click', grow);
  $('fit').addEventListener('click', fitView);
  zoomAndPan($('graph'));
  $('expandall').addEventListener('click', () => {
    for (const id of G.nodes.keys()) if (G.expanded.size < 400) G.expanded.add(id);
    render(true);
  });
  $('collapse').addEventListener('click', () => { G.expanded = new Set([0]); render(true); });
  analyse();
  grow();
}

main();
