// The Analyse page: threats, the forced win per engine with timings, and the force-graph explorer.
'use strict';

const $ = id => document.getElementById(id);
const notation = () => $('notation').value;
const cells = list => list.map(c => Q.cell(c, notation())).join(' ') || 'none';

async function analyse() {
  const position = $('position').value;
  Q.showError($('message'), null);
  history.replaceState(null, '', '?position=' + encodeURIComponent(position));
  try {
    const [b, t] = await Promise.all([Q.api('show', {position}), Q.api('threats', {position})]);
    $('board').replaceChildren(Q.board(b, {notation: notation()}));
    $('threats').replaceChildren(Q.el('tr', {}, Q.el('th', {}, ''), Q.el('th', {}, 'threat cells'),
                                      Q.el('th', {}, 'forcing moves'), Q.el('th', {}, 'major cells')));
    for (const s of ['x', 'o']) {
      $('threats').append(Q.el('tr', {}, Q.el('th', {}, s.toUpperCase()), Q.el('td', {}, cells(t[s].threats)),
                                Q.el('td', {}, cells(t[s].forcing_moves)), Q.el('td', {}, cells(t[s].major_cells))));
    }
  } catch (err) { Q.showError($('message'), err); return; }
  const body = $('wins').querySelector('tbody');
  body.replaceChildren();
  await Promise.all(['asp', 'prolog', 'native'].map(async engine => {
    const row = Q.el('tr', {'data-engine': engine}, Q.el('td', {}, engine), Q.el('td', {}, 'searching…'));
    body.append(row);
    const start = performance.now();
    try {
      const w = await Q.api('win', {position, engine});
      const answer = w.length ? `${w.attacker.toUpperCase()} wins in ${w.length}`
                              : `${w.attacker.toUpperCase()} has no forced win`;
      row.replaceChildren(Q.el('td', {}, engine), Q.el('td', {class: 'answer'}, answer),
        Q.el('td', {}, w.length ? Q.cell(w.sequence[0], notation()) : ''), Q.el('td', {}, cells(w.sequence)),
        Q.el('td', {}, (w.seconds * 1000).toFixed(2) + ' ms'),
        Q.el('td', {}, (performance.now() - start).toFixed(0) + ' ms'));
    } catch (err) {
      row.replaceChildren(Q.el('td', {}, engine), Q.el('td', {class: 'error', colspan: 5}, err.message));
    }
  }));
}

// ---------------------------------------------------------------- the force graph
// The server grows the graph; the explorer (forcegraph.js, shared with the offline page) lays it out and draws it.

async function grow() {
  Q.showError($('gsummary'), null);
  $('gsummary').textContent = 'growing…';
  try {
    const data = await Q.api('tree', {position: $('position').value, engine: $('engine').value, merge: $('merge').value,
                                      only_winning: $('winning').checked, fold: $('fold').checked,
                                      max_nodes: Number($('maxnodes').value) || 2000});
    const s = $('gsummary');
    s.textContent = `${data.summaries[notation()] || data.summary} [${data.engine}, ${data.seconds.toFixed(2)} s]`;
    s.dataset.treeNodes = data.tree_nodes;
    s.dataset.graphNodes = data.graph_nodes;
    s.dataset.foldedNodes = data.folded_nodes ?? '';
    FG.show(data);
  } catch (err) { Q.showError($('gsummary'), err); }
}

async function main() {
  Q.nav('analyse');
  Q.presentMode(() => FG.redraw());
  const info = await Q.load();
  for (const n of info.notations) $('notation').append(Q.el('option', {value: n}, n));
  $('legend').append(Q.legend());
  FG.mount($('explorer'));
  FG.notation = notation;
  $('position').value = Q.param('position') || $('position').value;
  $('form').addEventListener('submit', ev => { ev.preventDefault(); analyse(); grow(); });
  $('notation').addEventListener('change', () => { analyse(); FG.redraw(); });
  $('grow').addEventListener('click', () => grow().then(() => document.querySelector('.fg-bar').scrollIntoView()));
  $('fold').addEventListener('change', grow);
  analyse();
  grow();
}

main();
