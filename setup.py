"""Build the native bitboard core (solvers/*.c) into qubic_logic._native.

A build failure leaves the pure-Python fallback in charge, unless
QUBIC_REQUIRE_NATIVE=1 (set by the Makefile) makes it fatal.
"""

import os
import platform

from setuptools import Extension, find_packages, setup
from setuptools.command.build_ext import build_ext

FLAGS = ["-O3", "-std=c11", "-Wall"]
if platform.machine() in ("x86_64", "AMD64"):
    FLAGS.append("-mpopcnt")


class OptionalBuildExt(build_ext):
    def build_extension(self, ext):
        try:
            super().build_extension(ext)
        except Exception as exc:  # a compiler is not required to use the package
            if os.environ.get("QUBIC_REQUIRE_NATIVE") == "1":
                raise
            print(f"warning: native core not built ({exc}); the Python fallback will be used")
            self.extensions.remove(ext)


CORE = ["solvers/qubic_core.c"]

setup(
    # every subpackage of qubic_logic, and rules/ shipped as qubic_logic.rules
    packages=find_packages(include=["qubic_logic", "qubic_logic.*"]) + ["qubic_logic.rules"],
    ext_modules=[
        Extension(
            "qubic_logic._native",
            sources=CORE + ["solvers/native_module.c"],
            include_dirs=["solvers"],
            extra_compile_args=FLAGS,
        ),
        Extension(
            "qubic_logic._verify",
            sources=CORE + ["solvers/verify.c", "solvers/verify_module.c"],
            include_dirs=["solvers"],
            extra_compile_args=FLAGS,
        ),
        Extension(
            "qubic_logic._dfpn",
            sources=CORE + ["solvers/verify.c", "solvers/dfpn.c", "solvers/dfpn_module.c"],
            include_dirs=["solvers"],
            extra_compile_args=FLAGS,
        ),
        Extension(
            "qubic_logic._doake",
            sources=["solvers/doake.c", "solvers/doake_module.c"],
            include_dirs=["solvers"],
            extra_compile_args=FLAGS,
        ),
    ],
    cmdclass={"build_ext": OptionalBuildExt},
)
