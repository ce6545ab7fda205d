"""Reading a docs/ page's examples: the console blocks marked ``<!-- example: NAME -->``."""

from __future__ import annotations

import re


def console_examples(text: str) -> dict[str, list[tuple[str, str]]]:
    """Example name -> [(command, output shown)], from the page's marked console blocks.

    >>> console_examples("<!-- example: a -->\\n```console\\n$ qubic show empty\\nboard\\n```")
    {'a': [('qubic show empty', 'board\\n')]}
    """
    found = {}
    for name, block in re.findall(r"<!-- example: ([\w-]+) -->\n```console\n(.*?)```", text, re.DOTALL):
        runs: list[tuple[str, str]] = []
        for line in block.splitlines():
            if line.startswith("$ "):
                runs.append((line[2:], ""))
            else:
                runs[-1] = (runs[-1][0], runs[-1][1] + line + "\n")
        found[name] = runs
    return found
