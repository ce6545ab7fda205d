// The Play page: human or any registered player on each side; the server checks every move.
// Any game (played, loaded, or opened from a link) can be stepped through and reviewed move by move.
'use strict';

const $ = id => document.getElementById(id);
const game = {moves: [], explanations: [], reviews: [], state: null, hint: null, generation: 0, thinking: false,
              view: null, shown: null, asked: 0};
// view: null while the game as it stands is shown, else the number of moves shown (stepping back).

function who(side) { return $('p' + side).value; }
function human(side) { return who(side) === 'human'; }
function notation() { return Q.notation(); }
function cell(c) { return Q.cell(c, notation()); }  // every cell the page prints goes through here
function cells(list) { return list.map(cell).join(' '); }
function live() { return game.view === null; }
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

function entry(i) {
  const side = i % 2 ? 'O' : 'X', r = game.reviews[i];
  const li = Q.el('li', {class: 'step' + (game.shown.moves.length === i + 1 ? ' here' : ''),
                         title: 'show the board after this move', onclick: () => show(i + 1)},
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

function draw() {
  const s = game.shown, b = s.position, n = s.moves.length;
  const last = n ? s.moves[n - 1] : undefined;
  const playable = live() && human(b.to_move) && !game.thinking;
  const opts = {last, notation: notation(), marks: {hint: game.hint === null || !live() ? [] : [game.hint]},
                onclick: playable ? clicked : null};
  $('board').replaceChildren($('iso').checked ? Q.iso(b, opts) : Q.board(b, opts));
  $('board').dataset.shown = n;
  $('status').textContent = describe();
  $('where').textContent = live() ? `move ${n} of ${game.moves.length}` : `showing move ${n} of ${game.moves.length}`;
  $('first').disabled = $('prev').disabled = n === 0;
  $('next').disabled = $('last').disabled = live();
  const line = game.state.lines[notation()];
  $('mcdaniel').textContent = line ? '(' + line + ')' : '';
  $('analyse').href = Q.href('/analyse', {position: 'moves:' + s.moves.join(',')});
  $('log').replaceChildren(...game.moves.map((c, i) => entry(i)));
  if (!live()) {
    const i = n - 1, r = game.reviews[i];
    $('message').textContent = n === 0 ? 'The empty board.' : `Move ${n}: ` +
      (r ? r.text : `${i % 2 ? 'O' : 'X'} ${cell(game.moves[i])}`) +
      (explained(i) ? ` (${explained(i)})` : '');
  }
}

// The analysis panel: both sides' threats, forcing moves, forced wins, the mover's checks, the defences.
async function analyse() {
  const asked = ++game.asked, s = game.shown;
  try {
    const a = await Q.api('analysis', {moves: s.moves});
    if (asked !== game.asked) return;
    const win = w => w.win_length === null ? 'none' :
      `in ${w.win_length}${w.plane ? ' (plane ' + w.plane + ')' : ''}: ${cells(w.win)}`;
    const row = (name, f) => Q.el('tr', {}, Q.el('th', {}, name), Q.el('td', {}, f(a.x)), Q.el('td', {}, f(a.o)));
    const mover = a.to_move;
    const table = Q.el('table', {},
      Q.el('tr', {}, Q.el('th', {}, ''), Q.el('th', {}, 'X'), Q.el('th', {}, 'O')),
      row('threats (completes four)', w => cells(w.threats) || '—'),
      row('forcing moves (make a three)', w => cells(w.forcing_moves) || '—'),
      row(`shortest forced win${a.over ? '' : ' (as if to move)'}`, win),
      row('checks (threaten a forced win)', w => w.side !== mover ? '' :
        w.checks.map(k => `${cell(k.move)} (${k.length})`).join(' ') || '—'));
    const them = a[mover === 'x' ? 'o' : 'x'];
    const notes = [];
    if (a.over) notes.push('The game is over.');
    else if (a[mover].win_length) notes.push(`${mover.toUpperCase()} to move wins by force in ${a[mover].win_length}: play ${cell(a[mover].win[0])}.`);
    else if (them.win_length) {
      notes.push(a.defences.length
        ? `${mover.toUpperCase()} must stop ${them.side.toUpperCase()}'s forced win in ${them.win_length}: ` +
          `${cells(a.defences)} ${a.defences.length > 1 ? 'do' : 'does'}.`
        : `${them.side.toUpperCase()} wins by force whatever ${mover.toUpperCase()} plays.`);
    }
    $('analysis-of').textContent = `after move ${s.moves.length}`;
    $('analysis').replaceChildren(table, Q.el('p', {class: 'note', id: 'analysis-note'}, notes.join(' ')));
  } catch (err) { if (asked === game.asked) Q.showError($('analysis'), err); }
}

// Show the board after the first k moves (k = the game's length: the game as it stands).
async function show(k) {
  k = Math.max(0, Math.min(k, game.moves.length));
  if (k === game.moves.length) { game.view = null; game.shown = game.state; }
  else {
    const s = await Q.api('game', {moves: game.moves.slice(0, k), notation: notation()});
    game.view = k;
    game.shown = s;
  }
  Q.showError($('message'), null);
  if (live()) $('message').textContent = '';
  draw();
  analyse();
}

async function update(body, explanation) {
  const state = await Q.api('game', {notation: notation(), ...body});
  if (explanation !== undefined) game.explanations[state.moves.length - 1] = explanation;
  game.explanations.length = state.moves.length;
  let same = 0;
  while (same < state.moves.length && state.moves[same] === game.moves[same]) same++;
  game.reviews.length = Math.min(game.reviews.length, same);  // a review holds for the moves it saw
  if (game.reviews.length < state.moves.length) $('summary').textContent = '';
  game.moves = state.moves;
  game.state = game.shown = state;
  game.view = null;
  game.hint = null;
  draw();
  analyse();
}

async function clicked(c) { await act(() => update({moves: game.moves, move: String(c), notation: 'index'}, '')); }

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

async function main() {
  Q.nav('play');
  const info = await Q.load();
  for (const side of ['x', 'o']) {
    const sel = $('p' + side);
    players(sel, info);
    sel.value = Q.param(side) || (side === 'x' ? 'human' : 'mcdaniel');
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
    if (!live()) await show(game.moves.length);
    const h = await Q.api('hint', {moves: game.moves, notation: notation()});
    game.hint = h.length ? h.sequence[0] : h.threat_length && h.defences.length ? h.defences[0] : null;
    draw();
    $('message').textContent = h.text;
  }));
  $('review').addEventListener('click', () => act(review));
  for (const [id, step] of [['first', () => 0], ['prev', n => n - 1], ['next', n => n + 1],
                            ['last', () => game.moves.length]]) {
    $(id).addEventListener('click', () => act(() => show(step(game.shown.moves.length))));
  }
  document.addEventListener('keydown', ev => {
    if (ev.target.closest('input, select, textarea')) return;
    if (ev.key === 'ArrowLeft') act(() => show(game.shown.moves.length - 1));
    if (ev.key === 'ArrowRight') act(() => show(game.shown.moves.length + 1));
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
