// The Play page: human or any registered player on each side; the server checks every move.
'use strict';

const $ = id => document.getElementById(id);
const game = {moves: [], explanations: [], state: null, hint: null, generation: 0, thinking: false};

function who(side) { return $('p' + side).value; }
function human(side) { return who(side) === 'human'; }
function notation() { return $('notation').value; }

function describe() {
  const b = game.state.position, n = game.moves.length;
  if (b.winner) {
    const line = b.winning_line.map(c => Q.cell(c, notation())).join(' ');
    return `${b.winner.toUpperCase()} (${who(b.winner)}) wins on ${line} after ${n} moves.`;
  }
  if (b.draw) return `Draw: the board is full after ${n} moves.`;
  const side = b.to_move;
  return `${side.toUpperCase()} (${who(side)}) to move` + (game.thinking ? ': thinking…' : '');
}

function draw() {
  const b = game.state.position;
  const last = game.moves.length ? game.moves[game.moves.length - 1] : undefined;
  const opts = {last, notation: notation(), marks: {hint: game.hint === null ? [] : [game.hint]},
                onclick: human(b.to_move) && !game.thinking ? clicked : null};
  $('board').replaceChildren($('iso').checked ? Q.iso(b, opts) : Q.board(b, opts));
  $('status').textContent = describe();
  const line = game.state.lines[notation()];
  $('mcdaniel').textContent = line ? '(' + line + ')' : '';
  $('analyse').href = '/analyse?position=' + encodeURIComponent('moves:' + game.moves.join(','));
  $('log').replaceChildren(...game.moves.map((c, i) => {
    const side = i % 2 ? 'o' : 'x';
    return Q.el('li', {}, `${side.toUpperCase()} ${Q.cell(c, notation())}`,
                Q.el('span', {class: 'expl'}, game.explanations[i] ? ' — ' + game.explanations[i][notation()] : ''));
  }));
}

async function update(body, explanation) {
  const state = await Q.api('game', {notation: notation(), ...body});
  if (explanation !== undefined) game.explanations[state.moves.length - 1] = explanation;
  game.explanations.length = state.moves.length;
  game.moves = state.moves;
  game.state = state;
  game.hint = null;
  draw();
}

async function clicked(cell) { await act(() => update({moves: game.moves, move: String(cell), notation: 'index'}, '')); }

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

function restart(body) {
  game.generation++;
  game.thinking = false;
  act(() => update(body));
}

async function main() {
  Q.nav('play');
  const info = await Q.load();
  for (const side of ['x', 'o']) {
    const sel = $('p' + side);
    sel.append(Q.el('option', {value: 'human'}, 'human'));
    for (const p of info.players) sel.append(Q.el('option', {value: p.name, title: p.summary}, p.name));
    sel.value = Q.param(side) || (side === 'x' ? 'human' : 'mcdaniel');
    sel.addEventListener('change', () => { game.generation++; game.thinking = false; draw(); engineTurn(); });
  }
  for (const n of info.notations) $('notation').append(Q.el('option', {value: n}, n));
  $('notation').value = Q.param('notation') || 'index';
  $('notation').addEventListener('change', draw);
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
    const h = await Q.api('hint', {moves: game.moves, notation: notation()});
    $('message').textContent = h.text;
    game.hint = h.length ? h.sequence[0] : null;
    draw();
  }));
  $('save').addEventListener('click', () => {
    const blob = new Blob([game.state.mcdaniel + '\n'], {type: 'text/plain'});
    const a = Q.el('a', {href: URL.createObjectURL(blob), download: 'qubic-game.txt'});
    a.click();
    URL.revokeObjectURL(a.href);
  });
  $('load').addEventListener('change', async ev => {
    const file = ev.target.files[0];
    if (file) restart({text: await file.text()});
    ev.target.value = '';
  });
  $('typed').addEventListener('submit', ev => {
    ev.preventDefault();
    const text = $('move').value, side = game.state.position.to_move;
    if (game.thinking || !human(side)) {
      Q.showError($('message'), new Error(`it is ${side.toUpperCase()}'s turn (${who(side)}), not a human's`));
      return;
    }
    act(async () => { await update({moves: game.moves, move: text}, ''); $('move').value = ''; });
  });
  const start = Q.param('moves');
  restart(start ? {text: start} : {moves: []});
  Q.ready();
}

main();
