// The Lessons page: the list of lessons, or one lesson (?name=...) — its text, then exercises on the board,
// every move judged by the server's engines. Solved exercises are remembered in this browser. An exercise names
// cells in the notation its position is written in (McDaniel's 1..64 for his games), as its text does.
'use strict';

const $ = id => document.getElementById(id);
const DONE = 'qubic-logic.lessons';

function remembered() { try { return JSON.parse(localStorage.getItem(DONE)) || {}; } catch (err) { return {}; } }
function remember(key) { const all = remembered(); all[key] = true; localStorage.setItem(DONE, JSON.stringify(all)); }

// Text with *emphasis*, **strong** and `code` marks, built as elements (never as HTML).
function paragraph(text) {
  const p = Q.el('p', {});
  for (const part of text.split(/(\*\*[^*]+\*\*|\*[^*]+\*|`[^`]+`)/)) {
    if (part.startsWith('**')) p.append(Q.el('b', {}, part.slice(2, -2)));
    else if (part.startsWith('*') && part.length > 1) p.append(Q.el('em', {}, part.slice(1, -1)));
    else if (part.startsWith('`')) p.append(Q.el('code', {}, part.slice(1, -1)));
    else p.append(part);
  }
  return p;
}

async function index() {
  const {lessons} = await Q.api('lessons');
  const done = remembered();
  $('text').replaceChildren(
    paragraph('Short lessons drawn from the documents of computer Qubic, each ending in positions you solve ' +
              'on the board. The engines check every move. A teacher adds a lesson by adding a JSON file to ' +
              '`qubic_logic/data/lessons/`.'),
    Q.el('div', {class: 'cards'}, ...lessons.map(l => Q.el('a', {class: 'card', href: '/lessons?name=' + l.name},
      Q.el('b', {}, l.title + (Object.keys(done).some(k => k.startsWith(l.name + '/')) ? ' ✓' : '')),
      Q.el('span', {}, l.summary), Q.el('span', {class: 'note'}, ' — ' + l.source)))));
}

function exercise(lesson, ex, i) {
  const key = `${lesson.name}/${i}`;
  const state = {board: ex.board, left: ex.moves || 1, last: undefined, marks: {}, done: false};
  const box = Q.el('div', {class: 'panel exercise', 'data-exercise': i});
  const title = Q.el('div', {class: 'status'}, `Exercise ${i + 1}: ${ex.prompt}` + (remembered()[key] ? ' ✓' : ''));
  const boardDiv = Q.el('div', {class: 'exboard'});
  const verdict = Q.el('div', {class: 'status fixed-verdict verdict-line'});
  const again = Q.el('button', {onclick: () => { Object.assign(state, {board: ex.board, left: ex.moves || 1,
    last: undefined, marks: {}, done: false}); verdict.textContent = ''; draw(); }}, 'Start over');
  box.append(title, boardDiv, verdict, Q.el('div', {class: 'controls'}, again));

  function draw() {
    boardDiv.replaceChildren(Q.board(state.board, {onclick: state.done ? null : move, last: state.last, marks: state.marks,
                                                   notation: ex.notation}));
    boardDiv.dataset.position = state.board.qubic;
    boardDiv.dataset.left = state.left;
  }

  async function move(c) {
    try {
      const a = await Q.api('lessons/answer', {lesson: lesson.name, exercise: i, position: state.board.qubic,
                                               left: state.left, move: Q.cell(c, ex.notation), notation: ex.notation});
      state.marks = {};
      if (a.verdict === 'wrong') {
        verdict.textContent = 'Not this one: ' + a.explanation + '. Try again.';
        verdict.className = 'status fixed-verdict verdict-line bad';
        if (a.reply !== null) state.marks = {refute: [a.reply]};
        state.marks.hint = [];
      } else if (a.verdict === 'continue') {
        state.board = a.board; state.left = a.left; state.last = a.reply;
        verdict.textContent = `${a.explanation}. ${a.left} to go.`;
        verdict.className = 'status fixed-verdict verdict-line good';
      } else {
        state.board = a.board; state.last = c; state.done = true;
        verdict.textContent = `Solved! ${a.explanation}.`;
        verdict.className = 'status fixed-verdict verdict-line good';
        title.textContent = `Exercise ${i + 1}: ${ex.prompt} ✓`;
        remember(key);
      }
      draw();
    } catch (err) { Q.showError(verdict, err); }
  }

  draw();
  return box;
}

async function show(name) {
  const lesson = await Q.api('lessons/' + encodeURIComponent(name));
  document.title = lesson.title + ' — qubic-logic';
  $('title').textContent = lesson.title;
  $('source').textContent = 'From: ' + lesson.source;
  $('text').replaceChildren(...lesson.paragraphs.map(paragraph));
  $('exercises').replaceChildren(Q.el('h2', {}, 'Your turn'),
                                 ...lesson.exercises.map((ex, i) => exercise(lesson, ex, i)));
  const {lessons} = await Q.api('lessons');
  const at = lessons.findIndex(l => l.name === name), next = lessons[at + 1];
  $('more').replaceChildren(Q.el('a', {href: '/lessons'}, 'All lessons'),
    ...(next ? [' · next: ', Q.el('a', {href: '/lessons?name=' + next.name}, next.title)] : []));
}

async function main() {
  Q.nav('lessons');
  await Q.load();
  try {
    const name = Q.param('name');
    await (name ? show(name) : index());
  } catch (err) { Q.showError($('message'), err); }
}

main();
