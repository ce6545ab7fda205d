// The force-graph explorer of the Analyse page and of the offline page `qubic tree -o tree.html`: one script,
// so that both draw the same. It lays out the positions on show (each step one rank lower, a parent centred over
// its children), draws each as a box with its step, its value and a mini board, zooms and pans, opens and closes
// nodes, and steps through the selected node's line on a board. A page mounts it in an element and hands it a
// graph (the JSON of POST /api/tree, or the offline page's copy of it); cells are written in Q.notation().
'use strict';

const FG = (() => {
  const G = {data: null, nodes: new Map(), children: new Map(), edge: new Map(), expanded: new Set(),
             partial: new Map(), laid: null, heights: new Map(), selected: null, line: [], at: 0, timer: null, pv: []};
  const $ = id => document.getElementById(id);
  // Box metrics in drawing units (CSS pixels at zoom 1): text, mini-board cells, the step board's cells.
  const SIZES = {normal: {w: 118, line: 13, cell: 5, gap: 5, board: 22},
                 present: {w: 178, line: 20, cell: 7, gap: 7, board: 64}};
  const MIN_ZOOM = 0.2;  // "Fit" shows a larger drawing at this zoom, around the selected node
  const presenting = () => document.body.classList.contains('present');
  const BOX = () => SIZES[presenting() ? 'present' : 'normal'];

  // ------------------------------------------------------------------------------------------ the markup
  function mount(where) {
    const button = (id, text, title) => Q.el('button', {id, type: 'button', title}, text);
    where.replaceChildren(
      Q.el('div', {class: 'fg-bar controls'},
        button('fit', 'Fit', 'show every drawn node'), button('zoomin', '+', 'zoom in'),
        button('zoomout', '\u2212', 'zoom out'),
        button('opening', 'Principal variation', 'the principal variation and its branch points'),
        button('expandall', 'Expand all', 'open every node'), button('collapse', 'Collapse', 'close every node')),
      Q.el('div', {class: 'fg-main'},
        Q.svg('svg', {id: 'graph', class: 'fg-draw'}),
        Q.el('div', {class: 'panel fg-panel'},
          Q.el('div', {id: 'nodecap', class: 'status'}), Q.el('div', {id: 'nodeboard'}),
          Q.el('div', {class: 'controls fg-steps'},
            button('back', '\u25C0 back', 'one step back'), button('forward', 'forward \u25B6', 'one step forward'),
            button('autoplay', 'autoplay'), Q.el('span', {id: 'stepinfo', class: 'note'})),
          Q.el('div', {id: 'stepnote', class: 'note'}),
          Q.el('p', {class: 'legend'}, 'Outlined in green: the attacker\'s move; in orange: the defender\'s forced ' +
                   'reply; purple cells: the threats of a double threat.'),
          Q.el('div', {id: 'nodepath', class: 'note'}))),
      legend());
    $('fit').addEventListener('click', fitView);
    $('zoomin').addEventListener('click', () => zoomBy(1 / 1.25));
    $('zoomout').addEventListener('click', () => zoomBy(1.25));
    $('opening').addEventListener('click', () => {  // the principal variation, the stepper back at its start
      stopAutoplay();
      openOnLine();
      G.selected = null;
      draw({fit: 'opening'});
      select(0);
    });
    $('expandall').addEventListener('click', () => {
      G.partial = new Map();
      for (const id of G.nodes.keys()) if (G.expanded.size < 400) G.expanded.add(id);
      draw();
      showBox([0, 0, G.laid.width, G.laid.height]);  // all of it, however small: none cut off
    });
    $('collapse').addEventListener('click', () => { G.expanded = new Set([0]); G.partial = new Map(); draw({keep: 0}); });
    $('back').addEventListener('click', () => { stopAutoplay(); stepBy(-1); });
    $('forward').addEventListener('click', () => { stopAutoplay(); stepBy(1); });
    $('autoplay').addEventListener('click', autoplay);
    zoomAndPan($('graph'));
  }

  // The key, drawn with the drawing's own classes: its colours are the drawing's.
  function legend() {
    const box = cls => { const s = Q.svg('svg', {class: 'fg-draw fg-key', width: 16, height: 12});
                         const g = Q.svg('g', {class: 'gnode ' + cls});
                         g.append(Q.svg('rect', {class: 'box', x: 1, y: 1, width: 14, height: 10}));
                         s.append(g); return s; };
    const edge = cls => { const s = Q.svg('svg', {class: 'fg-draw fg-key', width: 28, height: 12});
                          s.append(Q.svg('path', {class: 'gedge ' + cls, d: 'M2,6H26'})); return s; };
    const cell = cls => { const s = Q.svg('svg', {class: 'fg-draw fg-key', width: 12, height: 12});
                          const g = Q.svg('g', {class: 'mini'});
                          g.append(Q.svg('rect', {class: cls, x: 1, y: 1, width: 10, height: 10})); s.append(g); return s; };
    return Q.el('div', {class: 'fg-legend', id: 'glegend'},
      box('win'), ' forced win ', box('fail'), ' no win ', box('cut'), ' cut off ', box('merged win'),
      ' several lines meet ', box('end win'), ' four in a row · ',
      edge('best'), ' shortest win ', edge('forcing'), ' threat ', edge('double'), ' double threat ',
      edge('counter'), ' blocks a threat ', edge('block'), ' defender\'s choice of block · mini boards, levels 1\u20134 ' +
      'left to right: ', cell('x'), ' X ', cell('o'), ' O ', cell('tx'), ' X threat cell ', cell('to'),
      ' O threat cell ', cell('w'), ' four in a row ', cell('st'), ' the step\'s moves · tap or point at a node to ' +
      'see it, tap it again to open or close it; the wheel or a pinch zooms, dragging pans');
  }

  // ----------------------------------------------------------------------------------- the graph on show
  function show(data) {
    stopAutoplay();
    G.data = data;
    G.laid = null;  // the old drawing is of another graph
    G.nodes = new Map(data.nodes.map(n => [n.id, n]));
    G.children = new Map(data.nodes.map(n => [n.id, []]));
    G.edge = new Map();
    for (const e of data.edges) { G.children.get(e.source).push(e); G.edge.set(e.source + '>' + e.target, e); }
    G.pv = data.principal_variation;
    $('graph').removeAttribute('viewBox');
    openOnLine();
    G.selected = null;
    draw({fit: 'opening'});
    select(0);
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

  // What each node with children not on show hides.
  function currentHidden() {
    const shown = shownNodes(), hidden = new Map();
    for (const id of shown) {
      const kids = G.children.get(id);
      if (kids.length && (!G.expanded.has(id) || G.partial.has(id))) hidden.set(id, hiddenBelow(id, shown));
    }
    return hidden;
  }

  const sideOf = s => s.toUpperCase();
  // The moves of a step ("X 16 · O 31"), the first by ``mover``; the root's empty step says who is to move.
  function stepText(step, mover) {
    if (!step.length) return `${sideOf(G.data.attacker)} to move`;
    let side = mover;
    return step.map(c => { const t = `${sideOf(side)} ${Q.cell(c)}`; side = side === 'x' ? 'o' : 'x'; return t; })
      .join(' \u00B7 ');
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
  function boxHeight(hidden) { const B = BOX(); return 2 * B.line + 4 * B.cell + 12 + (hidden ? B.line : 0); }

  // -------------------------------------------------------------------------------------------- the layout
  // A layered tidy tree: a node's rank is its longest path from the root (every edge goes down), each node sits
  // under the first parent that reaches it, children left to right in the graph's order, each subtree as close
  // to its left neighbour as their outlines allow, a parent centred over its first and last child. Further
  // parents (transpositions merged) are joined by edges alone. Returns centres, edge curves and the size.
  function layout(root, boxes, edges, {nodesep = 14, ranksep = 28, margin = 4} = {}) {
    const out = new Map([...boxes.keys()].map(id => [id, []])), waiting = new Map([...boxes.keys()].map(id => [id, 0]));
    for (const [a, b] of edges) { out.get(a).push(b); waiting.set(b, waiting.get(b) + 1); }
    const rank = new Map([[root, 0]]), ready = [root];
    for (let i = 0; i < ready.length; i++) {
      for (const c of out.get(ready[i])) {
        rank.set(c, Math.max(rank.get(c) ?? 0, rank.get(ready[i]) + 1));
        waiting.set(c, waiting.get(c) - 1);
        if (!waiting.get(c)) ready.push(c);
      }
    }
    const kids = new Map(), order = [root], seen = new Set([root]);
    for (let i = 0; i < order.length; i++) {
      kids.set(order[i], []);
      for (const c of out.get(order[i])) if (!seen.has(c)) { seen.add(c); kids.get(order[i]).push(c); order.push(c); }
    }
    const offset = new Map();
    // The outline of a subtree: for each rank, its leftmost and rightmost extent, relative to its root.
    function place(n) {
      const [w] = boxes.get(n), positions = [];
      let outline = null;
      for (const c of kids.get(n)) {
        const sub = place(c);
        let x = 0;
        if (outline) {
          x = positions[positions.length - 1];
          for (const [r, [left]] of sub) if (outline.has(r)) x = Math.max(x, outline.get(r)[1] - left + nodesep);
        } else outline = new Map();
        for (const [r, [left, right]] of sub) {
          const was = outline.get(r);
          outline.set(r, was ? [Math.min(was[0], left + x), Math.max(was[1], right + x)] : [left + x, right + x]);
        }
        positions.push(x);
      }
      const mid = positions.length ? (positions[0] + positions[positions.length - 1]) / 2 : 0;
      kids.get(n).forEach((c, i) => offset.set(c, positions[i] - mid));
      const mine = new Map([[rank.get(n), [-w / 2, w / 2]]]);
      for (const [r, [left, right]] of outline || []) {
        const was = mine.get(r);
        mine.set(r, was ? [Math.min(was[0], left - mid), Math.max(was[1], right - mid)] : [left - mid, right - mid]);
      }
      return mine;
    }
    place(root);
    const x = new Map([[root, 0]]);
    for (const n of order) for (const c of kids.get(n)) x.set(c, x.get(n) + offset.get(c));
    let left = Infinity, right = -Infinity;
    for (const n of order) { left = Math.min(left, x.get(n) - boxes.get(n)[0] / 2); right = Math.max(right, x.get(n) + boxes.get(n)[0] / 2); }
    const tallest = [];
    for (const n of order) tallest[rank.get(n)] = Math.max(tallest[rank.get(n)] || 0, boxes.get(n)[1]);
    const top = [margin];
    for (let r = 1; r < tallest.length; r++) top[r] = top[r - 1] + (tallest[r - 1] || 0) + ranksep;
    const nodes = {}, ends = new Map();
    for (const n of order) {
      const cx = x.get(n) - left + margin, y0 = top[rank.get(n)], h = boxes.get(n)[1];
      nodes[n] = [Math.round(cx * 10) / 10, Math.round((y0 + h / 2) * 10) / 10];
      ends.set(n, [cx, y0, y0 + h]);
    }
    const curves = edges.map(([a, b]) => {
      const [x1, , y1] = ends.get(a), [x2, y2] = ends.get(b), ym = (y1 + y2) / 2, f = v => v.toFixed(1);
      return {source: a, target: b, d: `M${f(x1)},${f(y1)}C${f(x1)},${f(ym)} ${f(x2)},${f(ym)} ${f(x2)},${f(y2)}`};
    });
    const last = tallest.length - 1;
    return {nodes, edges: curves, width: right - left + 2 * margin, height: top[last] + tallest[last] + margin};
  }

  // Lay out what is shown and draw it. keep: a node id that stays where it is on screen;
  // fit: 'opening' shows the principal variation at full size; otherwise the view is left as it is.
  function draw({keep = null, fit = null} = {}) {
    const svg = $('graph'), shown = shownNodes(), hidden = currentHidden();
    const edges = [];
    for (const id of shown) for (const e of shownChildren(id)) if (shown.has(e.target)) edges.push([id, e.target]);
    const before = keep !== null && G.laid?.nodes[keep] ? onScreen(keep) : null;
    const start = performance.now();
    G.heights = new Map([...shown].map(id => [id, boxHeight(hidden.get(id))]));
    G.laid = layout(0, new Map([...shown].map(id => [id, [BOX().w, G.heights.get(id)]])), edges);
    paint(shown, hidden);
    if (fit === 'opening' || !svg.getAttribute('viewBox')) openingView();
    else if (before) {
      const [x, y] = G.laid.nodes[keep], [, , w, h] = viewBox();
      setViewBox(x - before[0], y - G.heights.get(keep) / 2 - before[1], w, h);
    }
    svg.dataset.visible = shown.size;
    svg.dataset.drawMs = (performance.now() - start).toFixed(0);
  }

  function paint(shown, hidden) {
    const svg = $('graph'), edges = Q.svg('g'), nodes = Q.svg('g'), onLine = new Set(G.line), B = BOX();
    for (const e of G.laid.edges) {
      const data = G.edge.get(e.source + '>' + e.target);
      const lined = onLine.has(e.source) && onLine.has(e.target) && G.line.indexOf(e.target) === G.line.indexOf(e.source) + 1;
      edges.append(Q.svg('path', {d: e.d, class: `gedge ${data.kind}${data.best ? ' best' : ''}${lined ? ' online' : ''}`,
                                  'data-source': e.source, 'data-target': e.target}));
    }
    for (const id of shown) {
      const n = G.nodes.get(id), [cx, cy] = G.laid.nodes[id], more = G.children.get(id).length;
      const h = boxHeight(hidden.get(id)), w = B.w;
      const cls = ['gnode', n.status, n.merged ? 'merged' : '', n.role === 'end' ? 'end' : '',
                   hidden.has(id) ? 'collapsed' : '', onLine.has(id) ? 'online' : '', id === G.selected ? 'hover' : ''];
      const g = Q.svg('g', {class: cls.filter(Boolean).join(' '), 'data-id': id, transform: `translate(${cx - w / 2},${cy - h / 2})`});
      g.append(Q.svg('rect', {width: w, height: h, class: 'box'}));
      const line = (text, y, cls, x = w / 2) => { const t = Q.svg('text', {x, y, class: cls}); t.textContent = text; g.append(t); };
      line(boxStep(id), B.line, 'step');
      line(valueText(n), 2 * B.line, 'value');
      g.append(miniBoard(n, (w - (16 * B.cell + 3 * B.gap)) / 2, 2 * B.line + 5));
      if (hidden.has(id)) line(`+${hidden.get(id)} position${hidden.get(id) > 1 ? 's' : ''}`, h - 4, 'more');
      if (more) line(G.expanded.has(id) && !G.partial.has(id) ? '\u2212' : '+', B.line, 'toggle', w - 8);
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
    const B = BOX(), g = Q.svg('g', {class: 'mini', transform: `translate(${x0},${y0})`}), C = B.cell, step = new Set(n.step);
    for (let z = 0; z < 4; z++) {
      const lx = z * (4 * C + B.gap);
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

  // ----------------------------------------------------------------------------------- zoom, pan, fit
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
      x0 = Math.min(x0, x - BOX().w / 2); x1 = Math.max(x1, x + BOX().w / 2);
      const h = G.heights.get(id) / 2;
      y0 = Math.min(y0, y - h); y1 = Math.max(y1, y + h);
    }
    return [x0, y0, x1, y1];
  }

  // Show a box of the drawing whole, at full size when it fits (text stays readable), else scaled to fit;
  // in present mode always at full size, from its top (the text stays large; the rest is a drag away).
  function showBox([x0, y0, x1, y1], pad = 16) {
    const svg = $('graph'), W = svg.clientWidth, H = svg.clientHeight;
    const scale = presenting() ? 1 : Math.max(1, (x1 - x0 + 2 * pad) / W, (y1 - y0 + 2 * pad) / H);
    const w = W * scale, h = H * scale;
    setViewBox((x0 + x1) / 2 - w / 2, Math.min(y0 - pad, (y0 + y1) / 2 - h / 2), w, h);
  }
  function openingView() { showBox(boundsOf(G.pv.filter(id => G.laid.nodes[id]))); }
  // Everything drawn; a drawing too large to see whole at MIN_ZOOM is shown at that zoom from its top,
  // around the selected node (drag to see the rest).
  function fitView(pad = 16) {
    const svg = $('graph'), W = svg.clientWidth, H = svg.clientHeight;
    const {width, height} = G.laid;
    if (Math.max((width + 2 * pad) / W, (height + 2 * pad) / H) <= 1 / MIN_ZOOM) {
      showBox([0, 0, width, height], pad);
      return;
    }
    const w = W / MIN_ZOOM, h = H / MIN_ZOOM, [x] = G.laid.nodes[G.selected] || G.laid.nodes[0];
    setViewBox(Math.max(-pad, Math.min(x - w / 2, width + pad - w)), -pad, w, h);
  }

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
    const big = presenting() ? {columns: 2, font: 16} : {};
    $('nodeboard').replaceChildren(Q.board(b, {marks, size: BOX().board, ...big}));
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
    inView(id);
    return true;
  }

  // Pan (never zoom) so that a node is in view.
  function inView(id, pad = 16) {
    if (!G.laid.nodes[id]) return;
    const [x, y] = G.laid.nodes[id], h = G.heights.get(id) / 2, w = BOX().w / 2, [vx, vy, vw, vh] = viewBox();
    const nx = x - w < vx ? x - w - pad : x + w > vx + vw ? x + w + pad - vw : vx;
    const ny = y - h < vy ? y - h - pad : y + h > vy + vh ? y + h + pad - vh : vy;
    if (nx !== vx || ny !== vy) setViewBox(nx, ny, vw, vh);
  }
  function stopAutoplay() { clearInterval(G.timer); G.timer = null; if ($('autoplay')) $('autoplay').textContent = 'autoplay'; }
  function autoplay() {
    if (G.timer) return stopAutoplay();
    if (G.at >= G.line.length - 1) { G.at = 0; showStep(); }
    $('autoplay').textContent = 'stop';
    G.timer = setInterval(() => { if (!stepBy(1)) stopAutoplay(); }, 1200);
  }

  // Cells written anew in another notation: the drawing stays as it is.
  function renotate() {
    if (!G.data || !G.laid) return;
    paint(shownNodes(), currentHidden());
    if (G.selected !== null) showStep();
  }

  // The boxes and boards resized (present mode on or off): the view opened again on the principal
  // variation (on a narrow graph, the line alone), at full size; the node selected stays selected.
  function redraw() {
    if (!G.data) return;
    const was = G.selected, at = G.at;
    openOnLine();
    draw({fit: 'opening'});
    const id = G.laid.nodes[was] ? was : 0;
    select(id);
    if (id === was && at !== G.at && G.line[at] !== undefined && G.laid.nodes[G.line[at]]) { G.at = at; showStep(); }
    inView(G.line[G.at]);
  }

  return {mount, show, redraw, renotate, layout, state: G};
})();
