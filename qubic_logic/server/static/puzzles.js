// The Puzzles page: the server generates puzzles and judges every move; the page only shows,
// and remembers in this browser (localStorage) which puzzles were solved and the daily streak.
// A puzzle whose winning moves were shown is not counted as solved, and a daily one shown ends the streak.
'use strict';

const $ = id => document.getElementById(id);
const P = {puzzles: [], current: null, steps: [], marks: {}, done: false, said: null, log: []};
// steps: [{board, left, solutions}] — the position before each of the solver's moves; the last is the current one.
// said: what the verdict line says, as a function of the notation; log: the moves so far, the same way.
const SOLVED = 'qubic-logic.solved', DAILY = 'qubic-logic.daily', SHOWN = 'qubic-logic.shown';

function remembered(key) {
  try { return JSON.parse(localStorage.getItem(key)) || {}; } catch (err) { return {}; }
}
function remember(key, name, value) {
  const all = remembered(key);
  all[name] = value;
  localStorage.setItem(key, JSON.stringify(all));
}
function today() { return new Date().toLocaleDateString('en-CA'); }  // YYYY-MM-DD, the local date

// Consecutive days with the daily puzzle solved, ending today (or yesterday, if today's is still open; none
// if today's winning moves were shown).
function streak() {
  const days = remembered(DAILY), d = new Date();
  if (remembered(SHOWN)[today()]) return 0;
  if (days[d.toLocaleDateString('en-CA')] !== true) d.setDate(d.getDate() - 1);
  let n = 0;
  while (days[d.toLocaleDateString('en-CA')] === true) { n++; d.setDate(d.getDate() - 1); }
  return n;
}
const shown = q => !!remembered(SHOWN)[q.date || q.position];  // its winning moves were shown

function record() {
  const solved = Object.keys(remembered(SOLVED)).length, s = streak();
  $('record').textContent = `Solved in this browser: ${solved} puzzle${solved === 1 ? '' : 's'} · ` +
    `daily streak: ${s} day${s === 1 ? '' : 's'}` + (remembered(DAILY)[today()] ? ' · today\'s puzzle solved ✓' : '');
}

function step() { return P.steps[P.steps.length - 1]; }
function cell(c) { return Q.cell(c); }  // every cell the page prints goes through here

function draw() {
  const s = step();
  const onclick = P.done || s.wrong ? null : answer;
  $('board').replaceChildren(Q.board(s.board, {onclick, last: s.last, marks: P.marks}));
  $('board').dataset.position = s.board.qubic;
  $('board').dataset.left = s.left;
  $('retry').disabled = !s.wrong;
  $('verdict').textContent = P.said ? P.said.text() : '';
  $('verdict').className = 'status fixed-verdict ' + (P.said ? P.said.cls : '');
  $('log').replaceChildren(...P.log.map(([text, cls]) => Q.el('li', {class: cls}, text())));
}

// text: a function giving the words in the notation of the moment
function log(text, cls) { P.log.push([text, cls || '']); }

function label(q, i) {
  const solved = remembered(SOLVED)[q.position] ? ' ✓' : '';
  const n = q.solutions.length;
  return `${q.date ? 'Daily ' + q.date : (i + 1) + '.'} ${q.title} · ${q.grade} · ${n} winning first move${n > 1 ? 's' : ''}${solved}`;
}

function buttons() {
  $('list').replaceChildren(...P.puzzles.map((q, i) => Q.el('button', {
    class: 'puzzle' + (q === P.current ? ' on' : ''), onclick: () => choose(i)}, label(q, i))));
}

async function choose(i) {
  const q = P.puzzles[i];
  const board = q.board || await Q.api('show', {position: q.position});
  P.current = q;
  P.steps = [{board, left: q.length, solutions: q.solutions}];
  P.marks = {};
  P.done = false;
  P.log = [];
  $('title').textContent = q.title + (q.date ? ` — the puzzle of ${q.date}` : '');
  verdict(() => remembered(SOLVED)[q.position] ? 'You have solved this one before.'
    : shown(q) ? 'Its winning moves were shown: solving it now does not count.' : '', '');
  buttons();
  draw();
}

// text: a function giving the verdict in the notation of the moment
function verdict(text, cls) { P.said = {text, cls}; }
// The server's explanation of an answer, in the notation of the moment.
const told = a => () => a.explanations[Q.notation()];

async function answer(c) {
  const s = step();
  try {
    const a = await Q.api('puzzles/answer', {position: s.board.qubic, left: s.left, move: String(c)});
    const side = s.board.to_move.toUpperCase(), why = told(a);
    P.marks = {};
    if (a.verdict === 'wrong') {
      P.steps.push({board: a.board, left: s.left, last: c, wrong: true, solutions: s.solutions});
      if (a.reply !== null) P.marks = {refute: [a.reply]};
      verdict(() => 'Not this one: ' + why(), 'bad');
      log(() => `${side} ${cell(c)}: wrong. ${why()}`, 'bad');
    } else if (a.verdict === 'continue') {
      P.steps.push({board: a.board, left: a.left, last: a.reply, solutions: a.solutions});
      verdict(() => `${why()}. ${a.left} to go.`, 'good');
      log(() => `${side} ${cell(c)}; forced reply ${cell(a.reply)}`);
    } else {
      P.steps.push({board: a.board, left: 0, last: c, solutions: []});
      P.done = true;
      const q = P.current;
      if (shown(q)) verdict(() => `Solved, with the winning moves shown: not counted. ${why()}.`, 'good');
      else {
        verdict(() => `Solved! ${why()}.`, 'good');
        remember(SOLVED, q.position, today());
        if (q.date) remember(DAILY, q.date, true);
      }
      log(() => `${side} ${cell(c)}: four in a row`, 'good');
      record();
      buttons();
    }
    draw();
  } catch (err) { Q.showError($('verdict'), err); }
}

function list(puzzles) {
  P.puzzles = puzzles;
  P.current = null;
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

async function daily() {
  Q.showError($('message'), null);
  try {
    const date = Q.param('date') || today();
    list([await Q.api('puzzles/daily?date=' + encodeURIComponent(date))]);
  } catch (err) { Q.showError($('message'), err); }
}

async function main() {
  Q.nav('puzzles');
  await Q.load();
  record();
  Q.onNotation(() => { if (P.current) draw(); });
  $('form').addEventListener('submit', ev => { ev.preventDefault(); generate(); });
  $('daily').addEventListener('click', daily);
  $('retry').addEventListener('click', () => {
    if (step().wrong) { P.steps.pop(); P.marks = {}; verdict(() => '', ''); draw(); }
  });
  $('restart').addEventListener('click', () => { if (P.current) choose(P.puzzles.indexOf(P.current)); });
  $('reveal').addEventListener('click', () => {
    if (!P.current || P.done) return;
    const s = step(), here = s.wrong ? P.steps[P.steps.length - 2] : s, q = P.current;
    if (s.wrong) P.steps.pop();
    P.marks = {hint: here.solutions};
    const unsolved = !remembered(SOLVED)[q.position];  // a puzzle solved before stays solved
    if (unsolved) remember(SHOWN, q.date || q.position, today());
    const n = here.solutions.length;
    verdict(() => `Winning move${n > 1 ? 's' : ''}: ${Q.cells(here.solutions)} (marked green)` +
      (unsolved ? `. Shown, so solving it does not count${q.date ? ', and the daily streak ends' : ''}.` : '.'), '');
    record();
    draw();
  });
  $('load').addEventListener('change', async ev => {
    const file = ev.target.files[0];
    ev.target.value = '';
    if (!file) return;
    try { list(JSON.parse(await file.text()).puzzles || []); } catch (err) { Q.showError($('message'), err); }
  });
  if (Q.param('seed')) { $('seed').value = Q.param('seed'); generate(); } else daily();
  Q.ready();
}

main();
