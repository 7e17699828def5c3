"""The committed generated code (pysrc/handeval/v1) matches protos/ — the CI check of
README "gRPC service", run as part of the test suite."""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def test_generated_code_is_current():
    pytest.importorskip("grpc_tools", reason="grpcio-tools (the test extra) generates the code")
    out = subprocess.run([sys.executable, str(ROOT / "scripts" / "gen_protos.py"), "--check"],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr


def test_proto_documents_the_card_encoding():
    text = (ROOT / "protos" / "handeval" / "v1" / "common.proto").read_text(encoding="utf-8")
    assert "CARD ENCODING" in text and '"As Td 3h"' in text
