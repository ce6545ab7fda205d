// The Play page: human or any registered player on each side; the server checks every move.
// Any game (played, loaded, or opened from a link) can be stepped through and reviewed move by move, and any
// position of it explored in side lines, as on a game site's analysis board: a move played while looking at an
// earlier position, or the analysis's or the hint's winning line, starts a side line; the game goes on apart.
'use strict';

const $ = id => document.getElementById(id);
const game = {moves: [], explanations: [], reviews: [], state: null, hint: null, generation: 0, thinking: false,
              view: {line: null, k: 0}, lines: [], shown: null, asked: 0, win: null};
// view: the line shown (null: the game itself, else an index into lines) and how many of its moves.
// lines: the side lines, each {parent, at, moves, label}: it leaves line `parent` (null: the game) after `at` of
// its moves. win: the shortest win the analysis found for the position shown (a side line to step into).

function who(side) { return $('p' + side).value; }
function human(side) { return who(side) === 'human'; }
function notation() { return Q.notation(); }
function cell(c) { return Q.cell(c, notation()); }  // every cell the page prints goes through here
function cells(list) { return list.map(cell).join(' '); }
function movesOf(line) { return line === null ? game.moves : game.lines[line].moves; }
// The moves from the empty board to move k of a line.
function path(line, k) {
  if (line === null) return game.moves.slice(0, k);
  const l = game.lines[line];
  return path(l.parent, l.at).concat(l.moves.slice(0, k));
}
function live() { return game.view.line === null && game.view.k === game.moves.length; }
function explained(i) {  // a move's explanation in the page's notation ('' for none)
  const e = game.explanations[i];
  return !e ? '' : typeof e === 'string' ? e : e[notation()];
}

function describe() {
  const b = game.state.position, n = game.moves.length;
  let text;
  if (b.winner) text = `${b.winner.toUpperCase()} (${who(b.winner)}) wins on ${cells(b.winning_line)} after ${n} moves.`;
  else if (b.draw) text = `Draw: the board is full after ${n} moves.`;
  else text = `${b.to_move.toUpperCase()} (${who(b.to_move)}) to move` + (game.thinking ? ': thinking…' : '');
  return text;
}

const here = (line, k) => game.view.line === line && game.view.k === k;

function entry(i) {
  const side = i % 2 ? 'O' : 'X', r = game.reviews[i];
  const li = Q.el('li', {class: 'step' + (here(null, i + 1) ? ' here' : ''),
                         title: 'show the board after this move', onclick: () => show(null, i + 1)},
                  `${side} ${cell(game.moves[i])}`,
                  Q.el('span', {class: 'expl'}, explained(i) ? ' — ' + explained(i) : ''));
  if (r) {
    const tags = Q.el('span', {class: 'verdicts'}, ' ');
    for (const t of r.tags) tags.append(Q.el('span', {class: 'tag ' + t}, t));
    li.append(tags);
    li.dataset.tags = r.tags.join(' ');
    li.title = r.text;
  }
  return li;
}

// A side line as one line of moves (each a link to its position), with the lines that leave it after each move.
function sideLine(index) {
  const l = game.lines[index], first = path(l.parent, l.at).length;
  const box = Q.el('div', {class: 'variation', 'data-line': index});
  box.append(Q.el('span', {class: 'note'}, l.label + ': '));
  l.moves.forEach((c, i) => {
    const side = (first + i) % 2 ? 'O' : 'X';
    box.append(Q.el('a', {class: 'vmove' + (here(index, i + 1) ? ' here' : ''), href: '#',
                          onclick: ev => { ev.preventDefault(); show(index, i + 1); }},
                    `${first + i + 1}. ${side} ${cell(c)}`), ' ');
    for (const j of branches(index, i + 1)) box.append(sideLine(j));
  });
  box.append(Q.el('button', {class: 'drop', type: 'button', title: 'remove this side line',
                             onclick: () => drop(index)}, '\u00D7'));
  return box;
}
function branches(line, at) {
  return game.lines.map((l, j) => [l, j]).filter(([l]) => l.parent === line && l.at === at).map(([, j]) => j);
}

function draw() {
  const s = game.shown, b = s.position, n = s.moves.length, {line, k} = game.view;
  const last = n ? s.moves[n - 1] : undefined;
  const playable = !b.over && !game.thinking && (!live() || human(b.to_move));
  const opts = {last, notation: notation(), marks: {hint: game.hint === null || !live() ? [] : [game.hint]},
                onclick: playable ? clicked : null};
  if (document.body.classList.contains('present')) Object.assign(opts, {columns: 2, size: presentCell(), font: 16});
  $('board').replaceChildren($('iso').checked ? Q.iso(b, opts) : Q.board(b, opts));
  $('board').dataset.shown = n;
  $('board').dataset.line = line === null ? 'game' : line;
  $('status').textContent = describe();
  $('where').textContent = line !== null ? `side line: move ${n}, ${k} of its ${movesOf(line).length}`
    : live() ? `move ${n} of ${game.moves.length}` : `showing move ${n} of ${game.moves.length}`;
  $('first').disabled = n === 0;
  $('prev').disabled = n === 0;
  $('next').disabled = k >= movesOf(line).length;
  $('last').disabled = live();
  $('togame').hidden = line === null;
  const mcdaniel = game.state.lines[notation()];
  $('mcdaniel').textContent = mcdaniel ? '(' + mcdaniel + ')' : '';
  $('analyse').href = Q.href('/analyse', {position: 'moves:' + s.moves.join(',')});
  const items = [];
  for (const j of branches(null, 0)) items.push(Q.el('li', {class: 'lines'}, sideLine(j)));
  game.moves.forEach((c, i) => {
    items.push(entry(i));
    for (const j of branches(null, i + 1)) items.push(Q.el('li', {class: 'lines'}, sideLine(j)));
  });
  $('log').replaceChildren(...items);
  if (line === null && !live()) {
    const i = n - 1, r = game.reviews[i];
    $('message').textContent = n === 0 ? 'The empty board.' : `Move ${n}: ` +
      (r ? r.text : `${i % 2 ? 'O' : 'X'} ${cell(game.moves[i])}`) +
      (explained(i) ? ` (${explained(i)})` : '');
  } else if (line !== null) {
    $('message').textContent = `A side line: ${game.lines[line].label}. The game goes on apart; “Back to the game” returns to it.`;
  }
}

// The present mode's cell size: the board two levels by two, as tall as the screen allows (64 px or more).
function presentCell() { return Math.max(64, Math.min(96, Math.floor((innerHeight - 250) / 8.4))); }

// The analysis panel: the few things that matter. One sentence (the server's: it agrees with the hint), each
// side's threats and shortest forced win, and the mover's checks, five at most and then how many more.
async function analyse() {
  const asked = ++game.asked, s = game.shown;
  try {
    const a = await Q.api('analysis', {moves: s.moves});
    if (asked !== game.asked) return;
    const mover = a.to_move, mine = a[mover];
    const win = w => w.win_length === null ? 'none' :
      `in ${w.win_length}${w.plane ? ' (plane ' + w.plane + ')' : ''}: ${cells(w.win)}`;
    const row = (name, f) => Q.el('tr', {}, Q.el('th', {}, name), Q.el('td', {}, f(a.x)), Q.el('td', {}, f(a.o)));
    const table = Q.el('table', {},
      Q.el('tr', {}, Q.el('th', {}, ''), Q.el('th', {}, 'X'), Q.el('th', {}, 'O')),
      row('threats (a move completes four)', w => cells(w.threats) || '—'),
      row(`shortest forced win${a.over ? '' : ' (as if to move)'}`, win));
    const parts = [Q.el('p', {class: 'verdict-line', id: 'analysis-note'}, a.verdicts[notation()])];
    game.win = !a.over && mine.win_length ? mine.win : null;
    if (game.win) {
      parts.push(Q.el('button', {type: 'button', id: 'stepwin', onclick: () => act(() => enter(game.win, 'the shortest win'))},
                      `Step through ${mover.toUpperCase()}'s win \u25B8`));
    }
    parts.push(table);
    if (!a.over && mine.checks.length) {
      const shown = mine.checks.slice(0, 5).map(k => `${cell(k.move)} (in ${k.length})`).join(', ');
      const more = mine.checks.length - 5;
      parts.push(Q.el('p', {class: 'checks', id: 'checks'},
        Q.el('b', {}, `${mover.toUpperCase()}'s checks`), ' (moves that threaten a forced win): ' + shown,
        more > 0 ? ` and ${more} more` : ''));
    }
    $('analysis-of').textContent = game.view.line === null ? `after move ${s.moves.length}`
      : `after move ${s.moves.length} of a side line`;
    $('analysis').replaceChildren(...parts);
  } catch (err) { if (asked === game.asked) Q.showError($('analysis'), err); }
}

// Show the board after k moves of a line (null: the game; its full length: the game as it stands).
async function show(line, k) {
  const moves = movesOf(line);
  if (k < 0 && line !== null) return show(game.lines[line].parent, game.lines[line].at);  // back out of it
  k = Math.max(0, Math.min(k, moves.length));
  game.view = {line, k};
  game.shown = live() ? game.state : await Q.api('game', {moves: path(line, k), notation: notation()});
  Q.showError($('message'), null);
  if (live()) $('message').textContent = '';
  draw();
  analyse();
}

// A side line from the position shown: `moves` played from there (checked by the server), then its first move shown.
async function enter(moves, label) {
  const {line, k} = game.view, base = path(line, k);
  await Q.api('game', {moves: base.concat(moves)});  // every move legal, or the error says which is not
  const same = game.lines.findIndex(l => l.parent === line && l.at === k && l.moves.join() === moves.join());
  if (same >= 0) return show(same, 1);
  game.lines.push({parent: line, at: k, moves: [...moves], label});
  return show(game.lines.length - 1, 1);
}

function drop(index) {
  const gone = new Set([index]);
  for (let grew = true; grew;) {  // and every line that leaves it
    grew = false;
    game.lines.forEach((l, j) => { if (gone.has(l.parent) && !gone.has(j)) { gone.add(j); grew = true; } });
  }
  const kept = game.lines.map((l, j) => j).filter(j => !gone.has(j)), renumber = new Map(kept.map((j, i) => [j, i]));
  game.lines = kept.map(j => ({...game.lines[j], parent: game.lines[j].parent === null ? null : renumber.get(game.lines[j].parent)}));
  if (game.view.line !== null && gone.has(game.view.line)) return show(null, game.moves.length);
  if (game.view.line !== null) game.view.line = renumber.get(game.view.line);
  draw();
}

async function update(body, explanation) {
  const state = await Q.api('game', {notation: notation(), ...body});
  if (explanation !== undefined) game.explanations[state.moves.length - 1] = explanation;
  game.explanations.length = state.moves.length;
  let same = 0;
  while (same < state.moves.length && state.moves[same] === game.moves[same]) same++;
  game.reviews.length = Math.min(game.reviews.length, same);  // a review holds for the moves it saw
  if (game.reviews.length < state.moves.length) $('summary').textContent = '';
  const following = live();
  game.moves = state.moves;
  game.state = state;
  game.hint = null;
  // side lines that leave the game where it still stands are kept, with the lines that leave them
  const kept = new Set();
  game.lines.forEach((l, j) => { if (l.parent === null ? l.at <= same : kept.has(l.parent)) kept.add(j); });
  if (kept.size < game.lines.length) {
    const order = [...kept], renumber = new Map(order.map((j, i) => [j, i]));
    game.lines = order.map(j => ({...game.lines[j], parent: game.lines[j].parent === null ? null : renumber.get(game.lines[j].parent)}));
    if (game.view.line !== null) game.view = renumber.has(game.view.line) ? {...game.view, line: renumber.get(game.view.line)} : {line: null, k: 0};
  }
  if (following || (game.view.line === null && game.view.k > same)) {
    game.view = {line: null, k: state.moves.length};
    game.shown = state;
    draw();
    analyse();
  } else draw();  // the person looks at a side line or back in the game: the view stays
}

// A click on the board: a move in the game when it stands on the person's turn, else a move of a side line.
async function clicked(c) {
  if (live()) return act(() => update({moves: game.moves, move: String(c), notation: 'index'}, ''));
  const {line, k} = game.view, moves = movesOf(line);
  if (line !== null && k === moves.length) {  // the end of a side line: it grows
    return act(async () => {
      await Q.api('game', {moves: path(line, k).concat([c])});
      moves.push(c);
      return show(line, k + 1);
    });
  }
  if (moves[k] === c) return act(() => show(line, k + 1));  // the move the line plays next
  return act(() => enter([c], 'your line'));
}

async function act(fn) {
  Q.showError($('message'), null);
  try { await fn(); } catch (err) { Q.showError($('message'), err); }
  engineTurn();
}

// Let the players move while it is their turn; a new game, undo or load starts a new generation.
async function engineTurn() {
  const generation = game.generation;
  while (game.generation === generation && !game.state.position.over && !human(game.state.position.to_move)) {
    const side = game.state.position.to_move;
    game.thinking = true; draw();
    try {
      const r = await Q.api('reply', {moves: game.moves, player: who(side), notation: notation()});
      if (game.generation !== generation) return;
      const pause = human(side === 'x' ? 'o' : 'x') ? 0 : Number($('delay').value);
      if (pause) await new Promise(ok => setTimeout(ok, pause));
      if (game.generation !== generation) return;
      game.thinking = false;
      const said = Object.fromEntries(Object.entries(r.explanations).map(([n, text]) => [n, `${r.player}: ${text}`]));
      await update({moves: game.moves, move: String(r.move), notation: 'index'}, said);
    } catch (err) {
      game.thinking = false; Q.showError($('message'), err); draw(); return;
    }
  }
  game.thinking = false;
}

async function review() {
  const r = await Q.api('review', {moves: game.moves, notation: notation()});
  game.reviews = r.moves;
  const s = r.summary;
  $('summary').textContent = ['x', 'o'].map(side =>
    `${side.toUpperCase()}: ${s[side].missed} missed, ${s[side].allowed} allowed`).join('; ');
  draw();
}

function restart(body, reviewing) {
  game.generation++;
  game.thinking = false;
  game.reviews = [];
  $('summary').textContent = '';
  act(async () => { await update(body); if (reviewing && game.moves.length) await review(); });
}

// The opponents by measured strength (the shipped ratings), weakest first, each with its origin.
function players(sel, info) {
  sel.append(Q.el('option', {value: 'human'}, 'human'));
  const known = Object.fromEntries(info.players.map(p => [p.name, p]));
  const rated = info.ratings.ratings.filter(r => known[r.name]).sort((a, b) => a.elo - b.elo);
  const option = (p, label) => Q.el('option', {value: p.name, title: `${p.origin} — ${p.summary}`}, label);
  for (const g of info.ratings.groups) {
    const members = rated.filter(r => r.group === g.name);
    if (members.length) sel.append(Q.el('optgroup', {label: g.name},
      ...members.map(r => option(known[r.name], `${r.name} (${Math.round(r.elo)})`))));
  }
  const unrated = info.players.filter(p => !rated.some(r => r.name === p.name));
  if (unrated.length) sel.append(Q.el('optgroup', {label: 'unrated'}, ...unrated.map(p => option(p, p.name))));
}

function origins(info) {
  const said = [];
  for (const side of ['x', 'o']) {
    const p = info.players.find(q => q.name === who(side));
    const r = info.ratings.ratings.find(q => q.name === who(side));
    if (p) said.push(`${side.toUpperCase()}: ${p.name} — ${p.origin}` +
      (r ? `; rated ${Math.round(r.elo)} (95%: ${Math.round(r.low)}–${Math.round(r.high)}), ${r.group}` : ''));
  }
  $('origin').textContent = said.join(' · ');
}

// The opponent of a first game: the weakest rated player that plays to win (blocks and completes), not at random.
function firstOpponent(info) {
  const rated = info.ratings.ratings.filter(r => info.players.some(p => p.name === r.name)).sort((a, b) => a.elo - b.elo);
  return (rated.find(r => r.group !== info.ratings.groups[0].name) || rated[0]).name;
}

async function main() {
  Q.nav('play');
  Q.presentMode(() => { if (game.state) draw(); });
  const info = await Q.load();
  for (const side of ['x', 'o']) {
    const sel = $('p' + side);
    players(sel, info);
    sel.value = Q.param(side) || (side === 'x' ? 'human' : firstOpponent(info));
    sel.addEventListener('change', () => {
      origins(info); game.generation++; game.thinking = false; draw(); engineTurn();
    });
  }
  origins(info);
  Q.onNotation(() => {
    if (game.reviews.length) review(); else draw();
    analyse();
  });
  $('iso').addEventListener('change', draw);
  $('legend').append(Q.legend());
  $('new').addEventListener('click', () => restart({moves: []}));
  $('undo').addEventListener('click', () => {
    if (!game.moves.length) return;
    const moves = game.moves.slice(0, -1);  // back to a human's turn (with no human: one move)
    while ((human('x') || human('o')) && moves.length && !human(moves.length % 2 ? 'o' : 'x')) moves.pop();
    game.generation++;
    game.thinking = false;
    act(() => update({moves}));
  });
  $('hint').addEventListener('click', () => act(async () => {
    if (!live()) await show(null, game.moves.length);
    const h = await Q.api('hint', {moves: game.moves, notation: notation()});
    game.hint = h.length ? h.sequence[0] : h.threat_length && h.defences.length ? h.defences[0] : null;
    draw();
    $('message').replaceChildren(h.text + ' ');
    if (h.length) {  // the winning line, to step through as a side line
      $('message').append(Q.el('button', {type: 'button', id: 'stephint',
        onclick: () => act(() => enter(h.sequence, "the hint's line"))}, 'Step through it \u25B8'));
    }
  }));
  $('review').addEventListener('click', () => act(review));
  const back = () => {  // one move back; from a side line's first move, to where it leaves its line
    const {line, k} = game.view;
    return line !== null && k <= 1 ? show(game.lines[line].parent, game.lines[line].at) : show(line, k - 1);
  };
  const steps = {first: () => show(null, 0), prev: back, next: () => show(game.view.line, game.view.k + 1),
                 last: () => show(null, game.moves.length), togame: () => show(null, game.moves.length)};
  for (const [id, step] of Object.entries(steps)) $(id).addEventListener('click', () => act(step));
  document.addEventListener('keydown', ev => {
    if (ev.target.closest('input, select, textarea')) return;
    if (ev.key === 'ArrowLeft') act(steps.prev);
    if (ev.key === 'ArrowRight') act(steps.next);
  });
  $('save').addEventListener('click', () => {
    const blob = new Blob([game.state.mcdaniel + '\n'], {type: 'text/plain'});
    const a = Q.el('a', {href: URL.createObjectURL(blob), download: 'qubic-game.txt'});
    a.click();
    URL.revokeObjectURL(a.href);
  });
  $('load').addEventListener('change', async ev => {
    const file = ev.target.files[0];
    if (!file) return;
    const text = await file.text();
    await Q.adopt(text).catch(() => {});  // a game the server cannot read is reported by the restart
    restart({text}, true);
    ev.target.value = '';
  });
  $('typed').addEventListener('submit', ev => {
    ev.preventDefault();
    const text = $('move').value, side = game.state.position.to_move;
    if (game.thinking || !human(side)) {
      Q.showError($('message'), new Error(`it is ${side.toUpperCase()}'s turn (${who(side)}), not a human's`));
      return;
    }
    act(async () => {
      await Q.adopt(text);
      await update({moves: game.moves, move: text}, '');
      $('move').value = '';
    });
  });
  const start = Q.param('moves');
  if (start && !Q.param('notation')) await Q.adopt(start).catch(() => {});
  restart(start ? {text: start} : {moves: []}, !!start);
  Q.ready();
}

main();
