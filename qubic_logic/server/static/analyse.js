// The Analyse page: threats, the forced win per engine with timings, and the force-graph explorer.
'use strict';

const $ = id => document.getElementById(id);
const cells = list => Q.cells(list) || 'none';

// What the server said of the position (cells 0..63): drawn again, never asked again, when the notation changes.
const A = {asked: 0, board: null, threats: null, wins: new Map()};
const ENGINES = ['asp', 'prolog', 'native'];

async function analyse() {
  const position = $('position').value, asked = ++A.asked;
  Q.showError($('message'), null);
  history.replaceState(null, '', '?position=' + encodeURIComponent(position));
  A.board = A.threats = null;
  A.wins = new Map();
  try {
    [A.board, A.threats] = await Promise.all([Q.api('show', {position}), Q.api('threats', {position})]);
  } catch (err) { if (asked === A.asked) Q.showError($('message'), err); return; }
  if (asked !== A.asked) return;
  drawPosition();
  await Promise.all(ENGINES.map(async engine => {
    const start = performance.now();
    try {
      const w = await Q.api('win', {position, engine});
      if (asked === A.asked) A.wins.set(engine, {...w, round: performance.now() - start});
    } catch (err) { if (asked === A.asked) A.wins.set(engine, {error: err.message}); }
    if (asked === A.asked) drawWins();
  }));
}

function drawPosition() {
  if (!A.board) return;
  const t = A.threats;
  $('board').replaceChildren(Q.board(A.board));
  $('threats').replaceChildren(Q.el('tr', {}, Q.el('th', {}, ''), Q.el('th', {}, 'threat cells'),
                                    Q.el('th', {}, 'forcing moves'), Q.el('th', {}, 'major cells')));
  for (const s of ['x', 'o']) {
    $('threats').append(Q.el('tr', {}, Q.el('th', {}, s.toUpperCase()), Q.el('td', {}, cells(t[s].threats)),
                              Q.el('td', {}, cells(t[s].forcing_moves)), Q.el('td', {}, cells(t[s].major_cells))));
  }
  drawWins();
}

function drawWins() {
  $('wins').querySelector('tbody').replaceChildren(...ENGINES.map(engine => {
    const w = A.wins.get(engine), row = Q.el('tr', {'data-engine': engine}, Q.el('td', {}, engine));
    if (!w) row.append(Q.el('td', {colspan: 4}, 'searching…'));
    else if (w.error) row.append(Q.el('td', {class: 'error', colspan: 4}, w.error));
    else {
      const answer = w.length ? `${w.attacker.toUpperCase()} wins in ${w.length}`
                              : `${w.attacker.toUpperCase()} has no forced win`;
      row.append(Q.el('td', {class: 'answer'}, answer), Q.el('td', {}, w.length ? Q.cell(w.sequence[0]) : ''),
                 Q.el('td', {}, cells(w.sequence)),
                 Q.el('td', {class: 'time'}, (w.seconds * 1000).toFixed(2) + ' ms',
                      Q.el('span', {class: 'round'}, w.round.toFixed(0) + ' ms')));
    }
    return row;
  }));
}

// ---------------------------------------------------------------- the force graph
// The server grows the graph; the explorer (forcegraph.js, shared with the offline page) lays it out and draws it.

let grown = null;  // the graph on show, for its summary in another notation

async function grow() {
  Q.showError($('gsummary'), null);
  $('gsummary').textContent = 'growing…';
  try {
    const data = await Q.api('tree', {position: $('position').value, engine: $('engine').value, merge: $('merge').value,
                                      only_winning: $('winning').checked, fold: $('fold').checked,
                                      max_nodes: Number($('maxnodes').value) || 2000});
    grown = data;
    summarise();
    const s = $('gsummary');
    s.dataset.treeNodes = data.tree_nodes;
    s.dataset.graphNodes = data.graph_nodes;
    s.dataset.foldedNodes = data.folded_nodes ?? '';
    FG.show(data);
  } catch (err) { Q.showError($('gsummary'), err); }
}

function summarise() {
  if (grown) $('gsummary').textContent = `${grown.summaries[Q.notation()]} [${grown.engine}, ${grown.seconds.toFixed(2)} s]`;
}

async function main() {
  Q.nav('analyse');
  Q.presentMode(() => FG.redraw());
  await Q.load();
  $('legend').append(Q.legend());
  FG.mount($('explorer'));
  const asked = Q.param('position');
  $('position').value = asked || $('position').value;
  let read = $('position').value;  // the text last analysed: only new text brings its notation
  if (asked && !Q.param('notation')) await Q.adopt(asked).catch(() => {});  // a bad position is reported below
  $('form').addEventListener('submit', async ev => {
    ev.preventDefault();
    if ($('position').value !== read) {
      read = $('position').value;
      await Q.adopt(read).catch(() => {});
    }
    analyse();
    grow();
  });
  Q.onNotation(() => { drawPosition(); summarise(); FG.renotate(); });
  $('grow').addEventListener('click', () => grow().then(() => document.querySelector('.fg-bar').scrollIntoView()));
  $('fold').addEventListener('change', grow);
  analyse();
  grow();
}

main();
