// The Puzzles page: the server generates puzzles and judges every move; the page only shows.
'use strict';

const $ = id => document.getElementById(id);
const P = {puzzles: [], current: null, steps: [], marks: {}, done: false};
// steps: [{board, left}] — the position before each of the solver's moves; the last is the current one.

function step() { return P.steps[P.steps.length - 1]; }

function draw() {
  const s = step();
  const onclick = P.done || s.wrong ? null : answer;
  $('board').replaceChildren(Q.board(s.board, {onclick, last: s.last, marks: P.marks}));
  $('board').dataset.position = s.board.qubic;
  $('board').dataset.left = s.left;
  $('retry').disabled = !s.wrong;
}

function log(text, cls) { $('log').append(Q.el('li', {class: cls || ''}, text)); }

async function choose(i) {
  const q = P.puzzles[i];
  document.querySelectorAll('button.puzzle').forEach((b, k) => b.classList.toggle('on', k === i));
  const board = await Q.api('show', {position: q.position});
  P.current = q;
  P.steps = [{board, left: q.length}];
  P.marks = {};
  P.done = false;
  $('title').textContent = q.title;
  $('verdict').textContent = '';
  $('verdict').className = 'status';
  $('log').replaceChildren();
  draw();
}

async function answer(cell) {
  const s = step();
  try {
    const a = await Q.api('puzzles/answer', {position: s.board.qubic, left: s.left, move: String(cell)});
    const side = s.board.to_move.toUpperCase();
    P.marks = {};
    if (a.verdict === 'wrong') {
      P.steps.push({board: a.board, left: s.left, last: cell, wrong: true});
      if (a.reply !== null) P.marks = {refute: [a.reply]};
      $('verdict').textContent = 'Not this one: ' + a.explanation;
      $('verdict').className = 'status bad';
      log(`${side} ${Q.cell(cell)}: wrong. ${a.explanation}`, 'bad');
    } else if (a.verdict === 'continue') {
      P.steps.push({board: a.board, left: a.left, last: a.reply});
      $('verdict').textContent = `${a.explanation}. ${a.left} to go.`;
      $('verdict').className = 'status good';
      log(`${side} ${Q.cell(cell)}; forced reply ${Q.cell(a.reply)}`);
    } else {
      P.steps.push({board: a.board, left: 0, last: cell});
      P.done = true;
      $('verdict').textContent = 'Solved! ' + a.explanation;
      $('verdict').className = 'status good';
      log(`${side} ${Q.cell(cell)}: four in a row`, 'good');
    }
    draw();
  } catch (err) { Q.showError($('verdict'), err); }
}

function list(puzzles) {
  P.puzzles = puzzles;
  $('list').replaceChildren(...puzzles.map((q, i) => Q.el('button', {class: 'puzzle', onclick: () => choose(i)},
    `${i + 1}. ${q.title} · ${q.grade} · ${q.solutions.length} winning first move${q.solutions.length > 1 ? 's' : ''}`)));
  if (puzzles.length) choose(0);
  else $('message').textContent = 'no puzzles found: widen the lengths or change the seed';
}

async function generate() {
  Q.showError($('message'), null);
  $('message').textContent = 'playing games for puzzles…';
  try {
    const r = await Q.api('puzzles', {seed: Number($('seed').value), count: Number($('count').value),
                                     min_length: Number($('min').value), max_length: Number($('max').value),
                                     source: $('source').value});
    $('message').textContent = '';
    list(r.puzzles);
  } catch (err) { Q.showError($('message'), err); }
}

async function main() {
  Q.nav('puzzles');
  await Q.load();
  $('form').addEventListener('submit', ev => { ev.preventDefault(); generate(); });
  $('retry').addEventListener('click', () => { if (step().wrong) { P.steps.pop(); P.marks = {}; $('verdict').textContent = ''; draw(); } });
  $('restart').addEventListener('click', () => { if (P.current) choose(P.puzzles.indexOf(P.current)); });
  $('reveal').addEventListener('click', () => {
    if (P.current && P.steps.length === 1) { P.marks = {hint: P.current.solutions}; draw(); }
  });
  $('load').addEventListener('change', async ev => {
    const file = ev.target.files[0];
    ev.target.value = '';
    if (!file) return;
    try { list(JSON.parse(await file.text()).puzzles || []); } catch (err) { Q.showError($('message'), err); }
  });
  generate();
  Q.ready();
}

main();
