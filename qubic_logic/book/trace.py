"""The root's proof and disproof numbers over a search, for the replies a book searches: a CSV and a plot.

``python -m qubic_logic.book.trace OUT.png [POSITION ...] [--time-limit S] [--csv FILE]``
solves each position (default: the replies to X's weak opening that one
df-pn search leaves open, 12, 22 and 26, and two it settles, 7 and 2) with
:func:`~qubic_logic.proof.solve.solve`, one after the other, sampling the
root's numbers about four times a second, and draws proof number and
disproof number against nodes (log scales): a settled search's proof number
falls to 0; an open one's shows whether it was still falling. The CSV holds
every sample (position, seconds, nodes, proof number, disproof number).

>>> trace = run_trace('patashnik:x2x16o4o', time_limit=10)
>>> trace.status, trace.samples[-1][2]      # won: the last sample is the proven root
('won', 0)
"""

from __future__ import annotations

import argparse
import csv
import io
import sys
import time
from dataclasses import dataclass, field

from ..errors import QubicError
from ..notation import parse_position
from ..saving import check_writable, write_atomically
from ..proof.solve import solve

SETTLED = 2**29  # numbers from here up stand for infinity
DEFAULT_POSITIONS = ("moves:1,12", "moves:1,22", "moves:1,26", "moves:1,7", "moves:1,2")


@dataclass
class Trace:
    """One search's samples ``(seconds, nodes, proof number, disproof number)`` and how it ended."""

    position: str
    status: str = "unknown"
    nodes: int = 0
    seconds: float = 0.0
    size: int = 0
    samples: list[tuple[float, int, int, int]] = field(default_factory=list)


def run_trace(text: str, time_limit: float | None = None, memory_limit: float = 3000) -> Trace:
    """Solve ``text``, recording the root's numbers as the search reports them."""
    trace = Trace(text)
    start = time.monotonic()

    def sample(nodes: int, pn: int, dn: int) -> None:
        trace.samples.append((time.monotonic() - start, nodes, pn, dn))

    r = solve(parse_position(text), time_limit=time_limit, memory_limit=memory_limit, progress=sample)
    trace.status, trace.nodes, trace.seconds, trace.size = r.status, r.nodes, r.seconds, r.strategy_size
    final = (0, r.disproof_number) if r.status == "won" else (r.proof_number, r.disproof_number)
    trace.samples.append((r.seconds, r.nodes, *(min(v, 2**31) for v in final)))
    return trace


def traces_from_csv(path: str) -> list[Trace]:
    """The traces a :func:`csv_text` file holds (to draw them again); the last sample of each is its end."""
    traces: dict[str, Trace] = {}
    try:
        with open(path, newline="", encoding="utf-8") as f:
            for row in csv.DictReader(f):
                t = traces.setdefault(row["position"], Trace(row["position"]))
                t.samples.append((float(row["seconds"]), int(row["nodes"]), int(row["proof_number"]),
                                  int(row["disproof_number"])))
    except (OSError, KeyError, ValueError) as exc:
        raise QubicError(f"cannot read samples from {path} ({exc}); expected a CSV this command wrote") from None
    for t in traces.values():
        t.seconds, t.nodes = t.samples[-1][0], t.samples[-1][1]
        t.status = "won" if t.samples[-1][2] == 0 else "unknown"
    return list(traces.values())


def csv_text(traces: list[Trace]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["position", "seconds", "nodes", "proof_number", "disproof_number"])
    for t in traces:
        for s, n, pn, dn in t.samples:
            writer.writerow([t.position, f"{s:.2f}", n, pn, dn])
    return out.getvalue()


TITLE = ("The root's numbers during each search (a proof: the proof number falls to 0)\n"
         "(df-pn updates the root when a search below one of its moves returns)")


def plot(traces: list[Trace], path: str, title: str = TITLE) -> None:
    """Proof and disproof numbers against nodes, one colour per position (written atomically)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (top, bottom) = plt.subplots(2, 1, figsize=(9, 7), sharex=True)
    for t in traces:
        nodes = [max(n, 1) for _, n, _, _ in t.samples]
        label = f"{t.position}: {t.status}, {t.nodes:,} nodes, {t.seconds:,.0f} s"
        line, = top.plot(nodes, [max(pn, 0.5) for _, _, pn, _ in t.samples], label=label)
        unsettled = [(n, dn) for n, (_, _, _, dn) in zip(nodes, t.samples) if dn < SETTLED]  # (a proof's is infinite)
        bottom.plot([n for n, _ in unsettled], [max(dn, 0.5) for _, dn in unsettled], color=line.get_color())
    top.set_ylabel("root proof number")
    bottom.set_ylabel("root disproof number")
    bottom.set_xlabel("nodes")
    for axis in (top, bottom):
        axis.set_xscale("log")
        axis.set_yscale("log")
        axis.grid(True, which="major", alpha=0.3)
    top.legend(fontsize=8, loc="lower left")
    top.set_title(title, fontsize=10)
    fig.tight_layout()
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=110)
    plt.close(fig)
    write_atomically(path, buffer.getvalue())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m qubic_logic.book.trace", description=__doc__.split("\n\n")[0])
    parser.add_argument("output", metavar="OUT.png")
    parser.add_argument("positions", nargs="*", metavar="POSITION", default=list(DEFAULT_POSITIONS))
    parser.add_argument("--time-limit", type=float, default=240.0, metavar="S", help="seconds per search (240)")
    parser.add_argument("--memory-limit", type=float, default=3000.0, metavar="MB")
    parser.add_argument("--csv", default=None, metavar="FILE", help="also write every sample here")
    parser.add_argument("--from-csv", default=None, metavar="FILE",
                        help="draw the samples of an earlier run's --csv instead of searching")
    args = parser.parse_args(argv)
    try:
        check_writable(args.output)
        if args.from_csv:
            plot(traces_from_csv(args.from_csv), args.output)
            print(f"plot written to {args.output}")
            return 0
        if args.csv:
            check_writable(args.csv)
        traces = []
        for text in args.positions:
            t = run_trace(text, args.time_limit, args.memory_limit)
            traces.append(t)
            last = t.samples[-1]
            print(f"{text}: {t.status}, {t.nodes:,} nodes, {t.seconds:,.1f} s, proof size {t.size:,}, "
                  f"root proof number {last[2]:,}, disproof number {last[3]:,}", flush=True)
        plot(traces, args.output)
        if args.csv:
            write_atomically(args.csv, csv_text(traces))
    except QubicError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(f"plot written to {args.output}" + (f", samples to {args.csv}" if args.csv else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
