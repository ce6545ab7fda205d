// The Verify page: POST /api/verify answers with server-sent events (progress, then the result).
'use strict';

const $ = id => document.getElementById(id);
const RULES = {win: '(1) win now', block: '(2) block a three', dictionary: '(3) dictionary move',
               strategy: '(3) strategy move', forced: '(4) forced win'};
const bars = new Map();

function progress({phase, done, total}) {
  if (!bars.has(phase)) {
    const bar = Q.el('progress', {max: 1, value: 0, 'data-phase': phase});
    const label = Q.el('span', {class: 'note'});
    $('phases').append(Q.el('div', {class: 'controls'}, Q.el('span', {style: 'width: 100px'}, phase), bar, label));
    bars.set(phase, [bar, label]);
  }
  const [bar, label] = bars.get(phase);
  bar.max = Math.max(total, 1);
  bar.value = done;
  label.textContent = `${done.toLocaleString()} / ${total.toLocaleString()}`;
}

function figures(rows) {
  $('figures').replaceChildren(...rows.map(([k, v]) => Q.el('tr', {}, Q.el('th', {}, k), Q.el('td', {}, v))));
}

function byRule(r) {
  return Object.entries(r.by_rule).map(([k, n]) => [RULES[k], n.toLocaleString()]);
}

// The result ends every phase: a refutation stops the search early, so the bars jump to their end.
function finish(r) {
  for (const [bar, label] of bars.values()) {
    if (bar.value < bar.max) label.textContent += ` — stopped: ${r.verdict}`;
    bar.value = bar.max;
  }
}

let last = null;  // the last result, drawn again in another notation
function result(r) {
  last = r;
  finish(r);
  $('verdict').textContent = r.verdict.toUpperCase();
  $('verdict').className = 'verdict ' + (r.verdict === 'verified' ? 'good' : 'bad');
  if (r.source !== undefined) return judgement(r);
  const rows = [['positions up to symmetry (attacker to move)', r.positions.toLocaleString()],
                ['after its move', r.defender_positions.toLocaleString()],
                ...byRule(r),
                ['longest forced sequence needed', r.longest_forced + ' moves'],
                ['dictionary entries', r.entries.toLocaleString()],
                ['time', `${r.seconds} s on ${r.jobs} core(s) [${r.engine}]`]];
  if (r.failure_count) rows.push(['failures', r.failure_count.toLocaleString()]);
  figures(rows);
  $('failures').replaceChildren(...r.failures.map(f => Q.el('div', {class: 'panel failure'},
    Q.el('div', {}, `${f.position || '(empty board)'}: ${f.reason}`),
    Q.el('div', {class: 'note'}, 'moves from the root: ' + (Q.cells(f.moves) || '(none)')),
    Q.board(f.board, {size: 18}))));
}

// A strategy's verdict: its figures, and for a refutation the game that beats it, ending on its board.
function judgement(r) {
  const rows = [['strategy', r.source], ['side', r.side.toUpperCase()], ['root', r.root || '(empty board)'],
                ['positions up to symmetry (strategy to move)', r.positions.toLocaleString()],
                ['after its move', r.defender_positions.toLocaleString()], ...byRule(r),
                ['strategic positions (its own moves)', r.strategic_positions.toLocaleString()],
                ['time', `${r.seconds} s`]];
  if (r.verdict === 'unknown') rows.push(['stopped by', r.stopped], ['opponent choices left open', r.open.toLocaleString()]);
  figures(rows);
  const f = r.refutation;
  if (!f) return;
  const outcome = f.result === 'draw' ? 'a draw' : f.result === 'no move' ? 'the strategy has no move'
    : `${f.result.toUpperCase()} wins`;
  $('refutation').replaceChildren(Q.el('div', {class: 'panel failure'},
    Q.el('div', {}, `${outcome} after ${f.length} moves` +
      (r.shortest_proven ? ' (the shortest game)' : ' (the shortest game found)') + `: ${f.reason}`),
    Q.el('div', {class: 'note game'}, 'game: ' + Q.line(f.moves)),
    Q.el('a', {href: Q.href('/play', {x: 'human', o: 'human', moves: f.mcdaniel})},
         'replay and review it on the Play page'),
    Q.board(f.board, {size: 18})));
}

async function run(ev) {
  ev.preventDefault();
  bars.clear();
  last = null;
  $('phases').replaceChildren();
  $('figures').replaceChildren();
  $('failures').replaceChildren();
  $('refutation').replaceChildren();
  $('verdict').textContent = 'verifying…';
  $('verdict').className = 'verdict';
  const what = document.querySelector('input[name=what]:checked').value;
  const body = what === 'shipped' ? {dictionary: $('shipped').value}
    : what === 'strategy' ? {strategy: $('strategy').value} : {text: $('text').value};
  if ($('root').value.trim()) {
    body.root = $('root').value.trim();
    await Q.adopt(body.root).catch(() => {});  // a root the server cannot read is reported below
  }
  $('go').disabled = true;
  try {
    const r = await fetch('/api/verify', {method: 'POST', headers: {'Content-Type': 'application/json'},
                                          body: JSON.stringify(body)});
    if (!r.ok) throw new Error((await r.json()).error);
    const reader = r.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    for (;;) {
      const {value, done} = await reader.read();
      if (done) break;
      buffer += value;
      let end;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const event = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const kind = /^event: (.*)$/m.exec(event)[1], data = JSON.parse(/^data: (.*)$/m.exec(event)[1]);
        if (kind === 'progress') progress(data);
        else if (kind === 'result') result(data);
        else if (kind === 'error') throw new Error(data.error);
      }
    }
  } catch (err) {
    $('verdict').textContent = err.message;
    $('verdict').className = 'verdict error';
  } finally { $('go').disabled = false; }
}

// The pasted example: McDaniel's trap as a one-entry dictionary. The entry is in Patashnik's format, whose cells
// are always 0..63; the header says the move in the reader's notation too.
const TRAP = {line: [0, 1, 21, 51, 26, 3], root: 'xo1o17x4x24o', move: 16};
let example = '';
function writeExample() {
  if ($('text').value !== example) return;  // the reader's own text stays
  const {line, root, move} = TRAP, named = Q.cell(move);
  example = `McDaniel's plane-17 trap, after ${Q.line(line)}: X plays ${named}, then forces.\n` +
    (named === String(move) ? '' : `Patashnik's format numbers cells 0..63: the entry writes ${named} as ${move}.\n`) +
    `root: ${root}\n-----\n${root} ${move}\n`;
  $('text').value = example;
}

async function main() {
  Q.nav('verify');
  const info = await Q.load();
  writeExample();
  Q.onNotation(() => { writeExample(); if (last) result(last); });
  for (const d of info.dictionaries) $('shipped').append(Q.el('option', {value: d}, d));
  for (const s of info.strategies) $('strategy').append(Q.el('option', {value: s}, s));
  $('strategy').addEventListener('change', () => { document.querySelector('input[value=strategy]').checked = true; });
  $('shipped').addEventListener('change', () => { document.querySelector('input[value=shipped]').checked = true; });
  const asked = Q.param('strategy');
  if (info.strategies.includes(asked)) {
    $('strategy').value = asked;
    document.querySelector('input[value=strategy]').checked = true;
  }
  $('text').addEventListener('input', () => { document.querySelector('input[value=text]').checked = true; });
  $('form').addEventListener('submit', run);
  Q.ready();
}

main();
