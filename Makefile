# make demo / make test work on a fresh Debian machine: they install what is missing.
VENV    := .venv
PY      := $(VENV)/bin/python
STAMP   := $(VENV)/.installed
SYSDEPS := $(VENV)/.sysdeps
SOURCES := pyproject.toml setup.py $(wildcard solvers/*.c solvers/*.h)

export QUBIC_REQUIRE_NATIVE := 1

.PHONY: setup demo test test-all bench docs wheel-check claims-doc clean

setup: $(STAMP)

# SWI-Prolog (for pyswip), Graphviz (for pictures), tmux (the terminal-game test) and Chromium (the
# browser tests, driven by Playwright: no browser is downloaded) come from Debian's packages.
$(SYSDEPS): Makefile
	@if ! command -v swipl >/dev/null || ! command -v dot >/dev/null || ! command -v tmux >/dev/null \
	    || ! command -v chromium >/dev/null; then \
	  echo "installing swi-prolog-nox, graphviz, tmux and chromium"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq swi-prolog-nox graphviz tmux \
	    chromium >/dev/null; \
	fi
	@mkdir -p $(VENV) && touch $@

$(STAMP): $(SYSDEPS) $(SOURCES)
	@test -x $(PY) || python3 -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[test,docs]'
	@touch $@

demo: setup
	$(PY) examples/demo.py

test: setup wheel-check
	$(PY) -m pytest -q

test-all: setup wheel-check
	$(PY) -m pytest -q -m ''

bench: setup
	$(PY) -m qubic_logic.bench

# The documentation site (user guide, design, API reference from the docstrings), built offline
# into site/; strict: a broken link or reference fails the build.
docs: setup
	NO_MKDOCS_2_WARNING=1 $(VENV)/bin/mkdocs build --strict --quiet --site-dir site

# A non-editable install from a built wheel, in a fresh venv, answers queries from the command line.
wheel-check: setup
	@rm -rf build/wheel-check && mkdir -p build/wheel-check
	$(PY) -m build -q --wheel --outdir build/wheel-check . >/dev/null
	python3 -m venv build/wheel-check/venv
	build/wheel-check/venv/bin/pip install -q build/wheel-check/*.whl
	cd build/wheel-check && venv/bin/python -c "import qubic_logic as q, pathlib; \
	  assert 'wheel-check/venv' in q.__file__ and q.CORE_NAME == 'native', (q.__file__, q.CORE_NAME)" \
	  && venv/bin/python -c "from qubic_logic.server.app import STATIC; assert (STATIC / 'play.html').is_file(), STATIC" \
	  && venv/bin/qubic --version && venv/bin/qubic win 1-2,22-52,27-4 --engine native \
	  && venv/bin/qubic win 1-2,22-52,27-4 --engine asp --max-length 6 \
	  && venv/bin/qubic book show moves:0 | grep -q 'O to move LOSES'

# The seeds' claims recomputed: regenerate docs/claims.md, atomically.
claims-doc: setup
	$(VENV)/bin/qubic claims --format markdown > docs/claims.md.tmp && mv docs/claims.md.tmp docs/claims.md

clean:
	rm -rf $(VENV) build *.egg-info qubic_logic/*.so
