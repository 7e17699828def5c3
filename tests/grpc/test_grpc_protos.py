"""The committed generated code (pysrc/handeval/v2) matches protos/ — the CI check of
README "gRPC service", run as part of the test suite."""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def test_generated_code_is_current():
    pytest.importorskip("grpc_tools", reason="grpcio-tools (the test extra) generates the code")
    out = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "gen_protos.py"), "--check"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr


def test_proto_documents_the_card_encoding():
    text = (ROOT / "protos" / "handeval" / "v2" / "common.proto").read_text(encoding="utf-8")
    assert "// CARDS." in text and "message Cards" in text


def test_error_reason_enum_mirrors_the_core_reasons():
    """ErrorReason has one value per core reason (handeval.errors.ERROR_REASONS), in the
    core's order, and nothing else but UNSPECIFIED."""
    from handeval.errors import ERROR_REASONS
    from handeval.v2 import common_pb2

    names = [v.name for v in common_pb2.ErrorReason.DESCRIPTOR.values]
    assert names == ["ERROR_REASON_UNSPECIFIED"] + ["ERROR_REASON_" + r.upper() for r in ERROR_REASONS]


def _suffixes(enum) -> list:
    prefix = enum.DESCRIPTOR.values_by_number[0].name[: -len("UNSPECIFIED")]
    return [v.name[len(prefix) :].lower() for v in enum.DESCRIPTOR.values if v.number]


def test_enums_cover_the_closed_sets_of_the_api():
    """Every closed set of the Python API is a proto enum with exactly its names (in
    order where the API's order means something)."""
    from handeval import dachu, shisanshui, tienlen
    from handeval.v2 import dachu_pb2 as dc, shisanshui_pb2 as ssw, tienlen_pb2 as tl

    assert _suffixes(ssw.ShisanshuiCategory) == list(shisanshui.CATEGORIES)
    assert _suffixes(ssw.ShisanshuiSpecialKind) == [row[0] for row in shisanshui.SPECIALS]
    assert _suffixes(tl.TienlenPlayKind) == list(tienlen.KINDS)
    assert _suffixes(tl.TienlenInstantWinKind) == list(tienlen.INSTANT_WINS)
    assert _suffixes(dc.DachuPlayKind) == list(dachu.KINDS)
    assert _suffixes(dc.DachuCallKind) == list(dachu.CALLS)


def test_every_file_declares_the_language_options():
    """go_package, java_package, java_multiple_files and csharp_namespace in every file,
    the same everywhere: protoc --go_out / Java / C# need no mapping from the caller."""
    import re

    for path in sorted((ROOT / "protos" / "handeval" / "v2").glob("*.proto")):
        text = path.read_text(encoding="utf-8")
        assert re.search(r'option go_package = "github.com/handeval/handeval/gen/go/handeval/v2;handevalv2";', text), (
            path
        )
        assert 'option java_package = "io.handeval.v2";' in text, path
        assert "option java_multiple_files = true;" in text, path
        assert 'option csharp_namespace = "Handeval.V2";' in text, path
        assert "package handeval.v2;" in text, path


def test_no_closed_set_travels_as_a_string():
    """No string field whose comment lists choices: closed sets are enums. The string
    fields left are free text, card names and the suit order."""
    from google.protobuf.descriptor import FieldDescriptor

    from handeval.v2 import common_pb2, dachu_pb2, handeval_pb2, shisanshui_pb2, tienlen_pb2

    allowed = {
        "field",
        "message",
        "cards",
        "category_zh",
        "name_zh",
        "suit_order",
        "text",
        "card",
        "last_card",
        "must_contain",
    }
    for module in (common_pb2, dachu_pb2, handeval_pb2, shisanshui_pb2, tienlen_pb2):
        for msg in module.DESCRIPTOR.message_types_by_name.values():
            for f in msg.fields:
                if f.type == FieldDescriptor.TYPE_STRING:
                    assert f.name in allowed, f"{msg.name}.{f.name} is a string"
