"""Generated gRPC code of protos/handeval/v2 (package ``handeval.v2``).

Do not edit the *_pb2*.py files: edit the .proto files and run
``python scripts/gen_protos.py``.
"""
