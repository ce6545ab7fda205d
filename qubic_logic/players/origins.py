"""Where each player comes from: the document it reproduces and its year, for menus and docs.

>>> ORIGINS['mcdaniel']
'McDaniel, M.S. thesis, Oklahoma State University, 1975'
>>> from qubic_logic.players import player_names
>>> sorted(set(player_names()) - set(ORIGINS))
[]
"""

ORIGINS: dict[str, str] = {
    "random": "baseline: uniformly random moves",
    "greedy": "baseline: win, block, else the most open lines",
    "hp67": "Stein, HP-67 program 02925D (HP Users' Library, undated)",
    "citrenbaum-pdp4": "Citrenbaum, M.S. thesis, Case Institute of Technology, 1965: the PDP-4 program (ch. 4)",
    "citrenbaum-1107": "Citrenbaum, M.S. thesis, Case Institute of Technology, 1965: the UNIVAC 1107 program (ch. 6-7)",
    "citrenbaum-general": "Citrenbaum, M.S. thesis, Case Institute of Technology, 1965: the general strategy (ch. 8)",
    "doake": "Doake, M.Sc. thesis, St Andrews, 1972: Score 4, a program that learns",
    "mcdaniel": "McDaniel, M.S. thesis, Oklahoma State University, 1975",
    "mccarthy": "McCarthy, LISP programs for searching, 1979",
    "patashnik": "Patashnik, strategy dictionary, 1977 (Mathematics Magazine, 1980)",
    "solver": "this project: forced-win search, Patashnik's dictionary, αβ",
}
