#!/usr/bin/env python3
"""Generate the Python gRPC code of protos/handeval/v2/*.proto into pysrc/handeval/v2/.

The generated *_pb2.py, *_pb2.pyi and *_pb2_grpc.py are committed, so installing
handeval needs no protoc. CI runs ``python scripts/gen_protos.py --check``, which
regenerates into a temporary directory and fails if the committed files differ (a
.proto edited without regenerating). Needs grpcio-tools (the ``test`` extra).
"""

from __future__ import annotations

import argparse
import filecmp
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PROTO_ROOT = ROOT / "protos"
PROTO_DIR = PROTO_ROOT / "handeval" / "v2"
OUT_ROOT = ROOT / "pysrc"
OUT_DIR = OUT_ROOT / "handeval" / "v2"
GENERATED = ("_pb2.py", "_pb2.pyi", "_pb2_grpc.py")

INIT = '''"""Generated gRPC code of protos/handeval/v2 (package ``handeval.v2``).

Do not edit the *_pb2*.py files: edit the .proto files and run
``python scripts/gen_protos.py``.
"""
'''


def generate(out_root: Path) -> None:
    import grpc_tools
    from grpc_tools import protoc

    protos = sorted(str(p.relative_to(PROTO_ROOT)) for p in PROTO_DIR.glob("*.proto"))
    include = str(Path(grpc_tools.__file__).parent / "_proto")
    args = [
        "grpc_tools.protoc",
        f"-I{PROTO_ROOT}",
        f"-I{include}",
        f"--python_out={out_root}",
        f"--pyi_out={out_root}",
        f"--grpc_python_out={out_root}",
        *protos,
    ]
    # protoc reads paths relative to the include root; run from it for stable output.
    cwd = os.getcwd()
    os.chdir(PROTO_ROOT)
    try:
        rc = protoc.main(args)
    finally:
        os.chdir(cwd)
    if rc != 0:
        raise SystemExit(f"protoc failed with exit code {rc}")
    (out_root / "handeval" / "v2" / "__init__.py").write_text(INIT)


def generated_files(d: Path):
    return sorted(p.name for p in d.iterdir() if p.name.endswith(GENERATED) or p.name == "__init__.py")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="fail if the committed code is stale")
    args = ap.parse_args(argv)
    if not args.check:
        for name in generated_files(OUT_DIR) if OUT_DIR.exists() else ():
            if name != "__init__.py":
                (OUT_DIR / name).unlink()
        OUT_DIR.mkdir(parents=True, exist_ok=True)
        generate(OUT_ROOT)
        print(f"generated {', '.join(generated_files(OUT_DIR))} in {OUT_DIR.relative_to(ROOT)}")
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        tmp_root = Path(tmp)
        (tmp_root / "handeval" / "v2").mkdir(parents=True)
        generate(tmp_root)
        fresh_dir = tmp_root / "handeval" / "v2"
        fresh = generated_files(fresh_dir)
        have = generated_files(OUT_DIR) if OUT_DIR.exists() else []
        stale = sorted(set(fresh) ^ set(have))
        stale += [n for n in fresh if n in have and not filecmp.cmp(fresh_dir / n, OUT_DIR / n, shallow=False)]
        if stale:
            print(
                "generated gRPC code is stale (run: python scripts/gen_protos.py): " + ", ".join(sorted(set(stale))),
                file=sys.stderr,
            )
            return 1
    print("generated gRPC code is current")
    return 0


if __name__ == "__main__":
    sys.exit(main())
