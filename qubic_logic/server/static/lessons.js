// The Lessons page: the list of lessons, or one lesson (?name=...) — its text, then exercises on the board,
// every move judged by the server's engines. Solved exercises are remembered in this browser. The text, the
// boards and the verdicts name cells in the reader's notation (the menu's).
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
  const state = {board: ex.board, left: ex.moves || 1, last: undefined, marks: {}, done: false, said: null};
  // said: the last verdict, its explanation in every notation
  const box = Q.el('div', {class: 'panel exercise', 'data-exercise': i});
  const title = Q.el('div', {class: 'status'});
  const boardDiv = Q.el('div', {class: 'exboard'});
  const verdict = Q.el('div', {class: 'status fixed-verdict verdict-line'});
  const again = Q.el('button', {onclick: () => { Object.assign(state, {board: ex.board, left: ex.moves || 1,
    last: undefined, marks: {}, done: false, said: null}); draw(); }}, 'Start over');
  box.append(title, boardDiv, verdict, Q.el('div', {class: 'controls'}, again));

  function draw() {
    title.textContent = `Exercise ${i + 1}: ${ex.prompt}` + (remembered()[key] ? ' ✓' : '');
    const big = document.body.classList.contains('present') ? {columns: 2, size: 72, font: 16} : {};
    boardDiv.replaceChildren(Q.board(state.board, {onclick: state.done ? null : move, last: state.last,
                                                   marks: state.marks, ...big}));
    boardDiv.dataset.position = state.board.qubic;
    boardDiv.dataset.left = state.left;
    const a = state.said, text = a && a.explanations[Q.notation()];
    verdict.textContent = !a ? '' : a.verdict === 'wrong' ? `Not this one: ${text}. Try again.`
      : a.verdict === 'continue' ? `${text}. ${a.left} to go.` : `Solved! ${text}.`;
    verdict.className = 'status fixed-verdict verdict-line' + (!a ? '' : a.verdict === 'wrong' ? ' bad' : ' good');
  }

  async function move(c) {
    try {
      const a = await Q.api('lessons/answer', {lesson: lesson.name, exercise: i, position: state.board.qubic,
                                               left: state.left, move: String(c), notation: 'index'});
      state.marks = {};
      state.said = a;
      if (a.verdict === 'wrong') {
        if (a.reply !== null) state.marks = {refute: [a.reply]};
      } else if (a.verdict === 'continue') {
        state.board = a.board; state.left = a.left; state.last = a.reply;
      } else {
        state.board = a.board; state.last = c; state.done = true;
        remember(key);
      }
      draw();
    } catch (err) { Q.showError(verdict, err); }
  }

  // The exercise's prompt in another notation (the lesson was asked for again); its board and verdict follow.
  box.relabel = written => { ex.prompt = written.prompt; draw(); };
  box.redraw = draw;  // present mode: larger
  draw();
  return box;
}

async function fetchLesson(name) {
  return Q.api(`lessons/${encodeURIComponent(name)}?notation=${Q.notation()}`);
}

async function show(name) {
  const lesson = await fetchLesson(name);
  document.title = lesson.title + ' — qubic-logic';
  $('title').textContent = lesson.title;
  $('source').textContent = 'From: ' + lesson.source;
  $('text').replaceChildren(...lesson.paragraphs.map(paragraph));
  const boxes = lesson.exercises.map((ex, i) => exercise(lesson, ex, i));
  redrawBoards = () => boxes.forEach(box => box.redraw());
  $('exercises').replaceChildren(Q.el('h2', {}, 'Your turn'), ...boxes);
  Q.onNotation(async () => {  // the text again in the new notation; the exercises keep where they are
    try {
      const again = await fetchLesson(name);
      $('text').replaceChildren(...again.paragraphs.map(paragraph));
      boxes.forEach((box, i) => box.relabel(again.exercises[i]));
    } catch (err) { Q.showError($('message'), err); }
  });
  const {lessons} = await Q.api('lessons');
  const at = lessons.findIndex(l => l.name === name), next = lessons[at + 1];
  $('more').replaceChildren(Q.el('a', {href: '/lessons'}, 'All lessons'),
    ...(next ? [' · next: ', Q.el('a', {href: '/lessons?name=' + next.name}, next.title)] : []));
}

let redrawBoards = () => {};

async function main() {
  Q.nav('lessons');
  Q.presentMode(() => redrawBoards());
  await Q.load();
  try {
    const name = Q.param('name');
    await (name ? show(name) : index());
  } catch (err) { Q.showError($('message'), err); }
}

main();
