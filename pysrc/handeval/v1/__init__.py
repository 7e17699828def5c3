"""Generated gRPC code of protos/handeval/v1 (package ``handeval.v1``).

Do not edit the *_pb2*.py files: edit the .proto files and run
``python scripts/gen_protos.py``.
"""
