// Shared by every page: the API, cell names, boards (four levels, or an isometric cube), the menu.
// No game logic here: the server (the library) says what is legal, what threatens and what wins.
//
// One numbering for a person: the cell notation chosen in the menu (or given as ?notation=, or the one a
// typed position or game names its cells in) is kept in this browser and names every cell on every page;
// McDaniel's 1..64 until the person chooses. Q.cell, Q.cells and Q.line write cells in it; the server
// sends cells as 0..63, and text with cells in it in every notation.
'use strict';

const NOTATION_KEY = 'qubic-logic.notation';
const NOTATION_NAMES = {number: 'McDaniel', index: 'index', lrc: 'level-row-column', hp67: 'HP-67'};

const Q = {
  info: null,
  loading: null,
  chosen: null,  // the notation in use, once read
  notations: Object.keys(NOTATION_NAMES),

  async api(path, body) {
    const r = await fetch('/api/' + path, body === undefined ? {} : {
      method: 'POST', headers: {'Content-Type': 'application/json'}, body: JSON.stringify(body)});
    const data = await r.json().catch(() => ({error: 'the server answered ' + r.status}));
    if (!r.ok) throw new Error(data.error || ('HTTP ' + r.status));
    return data;
  },

  async load() {
    Q.loading = Q.loading || Q.api('info').then(info => { Q.info = info; Q.fillNotations(); return info; });
    return Q.loading;
  },

  // ------------------------------------------------------------ the person's cell notation

  // The notation in use: ?notation= in the address, else the one kept in this browser, else McDaniel's.
  notation() {
    if (!Q.chosen) {
      const asked = Q.param('notation');
      let kept = null;
      try { kept = localStorage.getItem(NOTATION_KEY); } catch (err) { /* storage refused: the default */ }
      Q.chosen = [asked, kept].find(n => Q.notations.includes(n)) || 'number';
    }
    return Q.chosen;
  },

  // Choose a notation: kept in this browser, shown in the menu, and every listener redraws in it.
  setNotation(n) {
    if (!Q.notations.includes(n) || n === Q.notation()) return;
    Q.chosen = n;
    try { localStorage.setItem(NOTATION_KEY, n); } catch (err) { /* kept for this page only */ }
    if (Q.param('notation')) {  // the address no longer says otherwise
      const url = new URL(location.href);
      url.searchParams.delete('notation');
      history.replaceState(null, '', url);
    }
    const menu = document.getElementById('notation');
    if (menu) menu.value = n;
    document.dispatchEvent(new CustomEvent('qubic-notation', {detail: n}));
  },

  onNotation(fn) { document.addEventListener('qubic-notation', () => fn(Q.notation())); },

  // A position or game the person typed (or a link brought) that names its cells in a notation (McDaniel's
  // pairs, moves:, .zyx or level-row-column digits) makes that notation theirs; the server reads the text.
  async adopt(text) {
    if (!text || !text.trim()) return;
    const {notation} = await Q.api('notation', {text});
    if (notation) Q.setNotation(notation);
  },

  // A link to another page of the site that keeps the person's notation, whatever its text names.
  href(path, params) {
    return path + '?' + new URLSearchParams({...params, notation: Q.notation()});
  },

  fillNotations() {
    const menu = document.getElementById('notation');
    if (!menu || menu.options.length) return;
    for (const n of Q.notations) {
      const names = Q.info.cells[n];
      menu.append(Q.el('option', {value: n}, `${names[0]}..${names[63]} (${NOTATION_NAMES[n]})`));
    }
    menu.value = Q.notation();
  },

  cell(c, notation) { return Q.info.cells[notation || Q.notation()][c]; },
  cells(list, notation) { return list.map(c => Q.cell(c, notation)).join(' '); },
  // A line of moves from the empty board: McDaniel's X-O pairs in his numbering, else cells with spaces.
  line(moves, notation) {
    const n = notation || Q.notation();
    if (n !== 'number') return Q.cells(moves, n);
    const pairs = [];
    for (let i = 0; i < moves.length; i += 2) pairs.push(moves.slice(i, i + 2).map(c => Q.cell(c, n)).join('-'));
    return pairs.join(',');
  },

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

  // The names of a level's rows and columns in a notation: lrc/hp67 write level, row, column (1..4);
  // index/number name a row by its first cell and a column by what it adds.
  axes(z, notation) {
    if (notation === 'lrc' || notation === 'hp67') { const n = ['1', '2', '3', '4']; return {rows: n, cols: n}; }
    const first = notation === 'number' ? 1 : 0;
    return {rows: [0, 1, 2, 3].map(y => String(16 * z + 4 * y + first)), cols: ['+0', '+1', '+2', '+3']};
  },

  // Four levels side by side (level 1, z = 0, on the left), or two by two on a phone (opts.columns, default
  // 2 below 700 px: cells stay big enough to tap), rows and columns named in the notation.
  // opts: onclick(cell), last, marks, notation, size, columns, font (of the names, in pixels).
  board(b, opts = {}) {
    const notation = opts.notation || Q.notation();
    const COLS = opts.columns || (innerWidth < 700 ? 2 : 4), narrow = COLS < 4;  // narrow: tight margins
    const S = opts.size || 30, GAP = narrow ? 4 : S / 2;
    const font = opts.font || (narrow ? 9 : Math.max(9, Math.min(11, S * 0.4)));  // opts.font: present mode
    // room for the widest row name (a digit is under 0.64 em wide), at a distance of PAD from the level
    const widest = Math.max(...[0, 1, 2, 3].flatMap(z => Q.axes(z, notation).rows.map(r => r.length)));
    const PAD = narrow ? 2 : 3, LEFT = Math.max(narrow ? 0 : S * 0.7, PAD + 1 + 0.64 * font * widest);
    const BLOCK = LEFT + 4 * S, TOP = opts.font ? 2 * font + 8 : 28;
    const W = COLS * BLOCK + (COLS - 1) * GAP, ROW = TOP + 4 * S + GAP, H = (4 / COLS) * ROW - GAP;
    const root = Q.svg('svg', {viewBox: `-1 -1 ${W + 2} ${H + 2}`, class: 'board', width: W + 2, height: H + 2});
    const at = z => [(z % COLS) * (BLOCK + GAP) + LEFT, Math.floor(z / COLS) * ROW];
    const label = (x, y, text, cls) => {
      const t = Q.svg('text', {x, y, class: cls, 'font-size': font});
      t.textContent = text;
      root.append(t);
    };
    for (let z = 0; z < 4; z++) {
      const [x0, y0] = at(z), names = Q.axes(z, notation);
      label(x0 + 2 * S, y0 + (opts.font ? font + 1 : 11), 'level ' + (z + 1), 'level');
      names.cols.forEach((name, x) => label(x0 + x * S + S / 2, y0 + TOP - 4, name, 'axis'));
      names.rows.forEach((name, y) => label(x0 - PAD, y0 + TOP + y * S + S / 2 + font / 3, name, 'axis row'));
    }
    for (let c = 0; c < 64; c++) {
      const x = c % 4, y = (c >> 2) % 4, z = c >> 4;
      const px = at(z)[0] + x * S, py = at(z)[1] + TOP + y * S;
      const g = Q.svg('g', {class: Q.cellClasses(b, c, {...opts, clickable: !!opts.onclick && !b.over}),
                            'data-cell': c});
      const title = Q.svg('title');
      title.textContent = Q.cell(c, notation);
      g.append(title, Q.svg('rect', {x: px, y: py, width: S, height: S}));
      Q.mark(g, b, c, px + S / 2, py + S / 2, S * 0.3);
      if (opts.onclick) g.addEventListener('click', () => opts.onclick(c));
      root.append(g);
    }
    return root;
  },

  // The cube in isometric projection: level 1 at the bottom, each level a rhombus of 16 cells,
  // its columns named along the back-right edge and its rows along the back-left edge.
  iso(b, opts = {}) {
    const notation = opts.notation || Q.notation();
    const S = opts.size || 30, H = S / 2, LEVEL = 4 * S + 10;
    const W = 8 * S + 96, HEIGHT = 3 * LEVEL + 4 * S + 8;
    const root = Q.svg('svg', {viewBox: `${-4 * S - 30} -14 ${W} ${HEIGHT + 10}`, class: 'board iso', width: W,
                               height: HEIGHT + 10});
    const at = (x, y, z) => [(x - y) * S, (x + y) * H + (3 - z) * LEVEL];
    for (let z = 3; z >= 0; z--) {
      const corners = [at(0, 0, z), at(4, 0, z), at(4, 4, z), at(0, 4, z)];
      root.append(Q.svg('polygon', {points: corners.map(p => p.join(',')).join(' '), class: 'isolevel'}));
      const [lx, ly] = at(4, 0, z);
      const t = Q.svg('text', {x: lx + 6, y: ly + 4, class: 'level', 'text-anchor': 'start'});
      t.textContent = 'level ' + (z + 1);
      root.append(t);
      const names = Q.axes(z, notation);
      for (let i = 0; i < 4; i++) {
        const [cx, cy] = at(i + 0.5, -0.35, z), [rx, ry] = at(-0.35, i + 0.5, z);
        const col = Q.svg('text', {x: cx + 3, y: cy, class: 'axis', 'font-size': 9});
        col.textContent = names.cols[i];
        const row = Q.svg('text', {x: rx - 3, y: ry + 3, class: 'axis row', 'font-size': 9});
        row.textContent = names.rows[i];
        root.append(col, row);
      }
      for (let y = 0; y < 4; y++) for (let x = 0; x < 4; x++) {
        const c = x + 4 * y + 16 * z;
        const g = Q.svg('g', {class: Q.cellClasses(b, c, {...opts, clickable: !!opts.onclick && !b.over}),
                              'data-cell': c});
        const title = Q.svg('title');
        title.textContent = Q.cell(c, notation);
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

  // The menu of every page (the 404 page's too), with the cell notation the person reads every cell in.
  nav(active) {
    const pages = [['play', 'Play'], ['puzzles', 'Puzzles'], ['lessons', 'Lessons'], ['analyse', 'Analyse'],
                   ['verify', 'Verify']];
    const bar = Q.el('nav', {}, Q.el('a', {href: '/', class: active === 'home' ? 'brand on' : 'brand'}, 'qubic-logic'));
    for (const [href, name] of pages) bar.append(Q.el('a', {href: '/' + href, class: href === active ? 'on' : ''}, name));
    const menu = Q.el('select', {id: 'notation', title: 'how every page names the cells; kept in this browser',
                                 onchange: ev => Q.setNotation(ev.target.value)});
    bar.append(Q.el('label', {class: 'cells'}, 'cells ', menu),
               Q.el('a', {href: '/api', class: active === 'api' ? 'api on' : 'api'}, 'API'));
    document.body.prepend(bar);
    const asked = Q.param('notation');
    if (Q.notations.includes(asked)) try { localStorage.setItem(NOTATION_KEY, asked); } catch (err) { /* page only */ }
    Q.load().catch(() => {});  // fills the menu (a page without the server still shows its text)
  },

  param(name) { return new URLSearchParams(location.search).get(name); },

  // Present mode, for a projector: a "Present" switch in the menu (and ?present=1, Escape to leave) that
  // gives the page the class "present" (its own rules in style.css) and tells the page to redraw.
  presentMode(redraw) {
    const on = () => document.body.classList.contains('present');
    const button = Q.el('button', {type: 'button', id: 'present', class: 'present-switch',
                                   title: 'big boards and text for a projector (Escape leaves)'}, 'Present');
    const set = value => {
      document.body.classList.toggle('present', value);
      button.textContent = value ? 'Leave present mode' : 'Present';
      button.setAttribute('aria-pressed', String(value));
      const url = new URL(location.href);
      if (value) url.searchParams.set('present', '1'); else url.searchParams.delete('present');
      history.replaceState(null, '', url);
      redraw();
    };
    button.addEventListener('click', () => set(!on()));
    document.addEventListener('keydown', ev => { if (ev.key === 'Escape' && on()) set(false); });
    const cells = document.querySelector('nav label.cells');
    if (cells) cells.before(button); else document.body.append(button);  // the menu's, or a page's own
    if (Q.param('present') === '1') document.body.classList.add('present');
    button.textContent = on() ? 'Leave present mode' : 'Present';
  },

  // The page's controls (<fieldset id="controls" disabled>) wait for their handlers: a file or a submit
  // in the first moments would otherwise be lost.
  ready() { document.getElementById('controls').disabled = false; },

  showError(where, err) {
    where.textContent = err ? String(err.message || err) : '';
    where.classList.toggle('error', !!err);
  },
};
