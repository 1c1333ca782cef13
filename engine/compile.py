"""The command that compiles the engines (:mod:`engine.compiled`).

    python -m engine.compile build    compile this source unless built; prints the folder
    python -m engine.compile status   the build this source needs, and whether it is used
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Sequence

from engine.compiled import active, build, build_dir, built_modules


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``build`` or ``status``; 1 when the build failed (the engines then run
    their source), 2 for anything else."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args == ["build"]:
        try:
            print(build())
        except (subprocess.CalledProcessError, OSError) as exc:
            detail = getattr(exc, "stderr", b"") or b""
            print(f"engines not compiled, running their source: {exc}\n"
                  f"{detail.decode(errors='replace')[-2000:]}", file=sys.stderr)
            return 1
        return 0
    if args == ["status"]:
        folder = build_dir()
        print(json.dumps({"build": str(folder), "built": bool(built_modules(folder)),
                          "active": active()}))
        return 0
    print("usage: python -m engine.compile build|status", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
