// Shared by every page: the API, cell names, boards (four levels, or an isometric cube), the menu.
// No game logic here: the server (the library) says what is legal, what threatens and what wins.
'use strict';

const Q = {
  info: null,

  async api(path, body) {
    const r = await fetch('/api/' + path, body === undefined ? {} : {
      method: 'POST', headers: {'Content-Type': 'application/json'}, body: JSON.stringify(body)});
    const data = await r.json().catch(() => ({error: 'the server answered ' + r.status}));
    if (!r.ok) throw new Error(data.error || ('HTTP ' + r.status));
    return data;
  },

  async load() {
    if (!Q.info) Q.info = await Q.api('info');
    return Q.info;
  },

  cell(c, notation) { return Q.info.cells[notation || 'index'][c]; },

  el(tag, attrs, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === 'class') e.className = v; else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
      else e.setAttribute(k, v);
    }
    for (const c of children) e.append(c);
    return e;
  },

  svg(tag, attrs) {
    const e = document.createElementNS('http://www.w3.org/2000/svg', tag);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
    return e;
  },

  // The class names of a cell: mark, threat, last move, winning line, extra marks (hint, refutation).
  cellClasses(b, c, opts) {
    const cls = ['cell'];
    if (b.x.includes(c)) cls.push('x'); else if (b.o.includes(c)) cls.push('o');
    else {
      if (b.threats.x.includes(c)) cls.push('tx');
      if (b.threats.o.includes(c)) cls.push('to');
      if (opts.clickable) cls.push('free');
    }
    if (b.winning_line.includes(c)) cls.push('won');
    if (c === opts.last) cls.push('last');
    for (const [name, cells] of Object.entries(opts.marks || {})) if (cells.includes(c)) cls.push(name);
    return cls.join(' ');
  },

  mark(g, b, c, cx, cy, r) {
    if (b.x.includes(c)) {
      g.append(Q.svg('path', {d: `M${cx - r},${cy - r}L${cx + r},${cy + r}M${cx + r},${cy - r}L${cx - r},${cy + r}`,
                              class: 'xmark'}));
    } else if (b.o.includes(c)) {
      g.append(Q.svg('circle', {cx, cy, r, class: 'omark'}));
    }
  },

  // Four levels side by side (level 1, z = 0, on the left), or two by two on a phone (opts.columns, default
  // 2 below 700 px: cells stay big enough to tap). opts: onclick(cell), last, marks, notation, size, columns.
  board(b, opts = {}) {
    const S = opts.size || 30, GAP = S / 2, TOP = 16, COLS = opts.columns || (innerWidth < 700 ? 2 : 4);
    const W = COLS * 4 * S + (COLS - 1) * GAP, ROW = TOP + 4 * S + GAP, H = (4 / COLS) * ROW - GAP;
    const root = Q.svg('svg', {viewBox: `-1 -1 ${W + 2} ${H + 2}`, class: 'board', width: W + 2, height: H + 2});
    const at = z => [(z % COLS) * (4 * S + GAP), Math.floor(z / COLS) * ROW];
    for (let z = 0; z < 4; z++) {
      const t = Q.svg('text', {x: at(z)[0] + 2 * S, y: at(z)[1] + 11, class: 'level'});
      t.textContent = 'level ' + (z + 1);
      root.append(t);
    }
    for (let c = 0; c < 64; c++) {
      const x = c % 4, y = (c >> 2) % 4, z = c >> 4;
      const px = at(z)[0] + x * S, py = at(z)[1] + TOP + y * S;
      const g = Q.svg('g', {class: Q.cellClasses(b, c, {...opts, clickable: !!opts.onclick && !b.over}),
                            'data-cell': c});
      const title = Q.svg('title');
      title.textContent = Q.cell(c, opts.notation);
      g.append(title, Q.svg('rect', {x: px, y: py, width: S, height: S}));
      Q.mark(g, b, c, px + S / 2, py + S / 2, S * 0.3);
      if (opts.onclick) g.addEventListener('click', () => opts.onclick(c));
      root.append(g);
    }
    return root;
  },

  // The cube in isometric projection: level 1 at the bottom, each level a rhombus of 16 cells.
  iso(b, opts = {}) {
    const S = opts.size || 30, H = S / 2, LEVEL = 4 * S + 10;
    const W = 8 * S + 64, HEIGHT = 3 * LEVEL + 4 * S + 8;
    const root = Q.svg('svg', {viewBox: `${-4 * S - 2} -4 ${W} ${HEIGHT}`, class: 'board iso', width: W, height: HEIGHT});
    const at = (x, y, z) => [(x - y) * S, (x + y) * H + (3 - z) * LEVEL];
    for (let z = 3; z >= 0; z--) {
      const corners = [at(0, 0, z), at(4, 0, z), at(4, 4, z), at(0, 4, z)];
      root.append(Q.svg('polygon', {points: corners.map(p => p.join(',')).join(' '), class: 'isolevel'}));
      const [lx, ly] = at(4, 0, z);
      const t = Q.svg('text', {x: lx + 6, y: ly + 4, class: 'level', 'text-anchor': 'start'});
      t.textContent = 'level ' + (z + 1);
      root.append(t);
      for (let y = 0; y < 4; y++) for (let x = 0; x < 4; x++) {
        const c = x + 4 * y + 16 * z;
        const g = Q.svg('g', {class: Q.cellClasses(b, c, {...opts, clickable: !!opts.onclick && !b.over}),
                              'data-cell': c});
        const title = Q.svg('title');
        title.textContent = Q.cell(c, opts.notation);
        const pts = [at(x, y, z), at(x + 1, y, z), at(x + 1, y + 1, z), at(x, y + 1, z)];
        g.append(title, Q.svg('polygon', {points: pts.map(p => p.join(',')).join(' ')}));
        const [cx, cy] = at(x + 0.5, y + 0.5, z);
        Q.mark(g, b, c, cx, cy, H * 0.6);
        if (opts.onclick) g.addEventListener('click', () => opts.onclick(c));
        root.append(g);
      }
    }
    return root;
  },

  legend() {
    return Q.el('p', {class: 'legend'},
      Q.el('span', {class: 'sw tx'}), ' X threat cell ', Q.el('span', {class: 'sw to'}), ' O threat cell ',
      Q.el('span', {class: 'sw won'}), ' four in a row ', Q.el('span', {class: 'sw last'}), ' last move');
  },

  nav(active) {
    const pages = [['play', 'Play'], ['puzzles', 'Puzzles'], ['lessons', 'Lessons'], ['analyse', 'Analyse'],
                   ['verify', 'Verify']];
    const bar = Q.el('nav', {}, Q.el('a', {href: '/', class: active === 'home' ? 'brand on' : 'brand'}, 'qubic-logic'));
    for (const [href, name] of pages) bar.append(Q.el('a', {href: '/' + href, class: href === active ? 'on' : ''}, name));
    bar.append(Q.el('a', {href: '/api', class: active === 'api' ? 'api on' : 'api'}, 'API'));
    document.body.prepend(bar);
  },

  param(name) { return new URLSearchParams(location.search).get(name); },

  // The page's controls (<fieldset id="controls" disabled>) wait for their handlers: a file or a submit
  // in the first moments would otherwise be lost.
  ready() { document.getElementById('controls').disabled = false; },

  showError(where, err) {
    where.textContent = err ? String(err.message || err) : '';
    where.classList.toggle('error', !!err);
  },
};
