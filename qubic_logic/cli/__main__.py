"""``python -m qubic_logic.cli`` runs the ``qubic`` command."""

import sys

from . import main

sys.exit(main())
