"""`handeval serve` fails cleanly — one line on stderr naming what is wrong, exit code 2,
no traceback — on every bad setting and start-up failure, and a malformed
HANDEVAL_* variable never breaks another subcommand."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys

import pytest

from grpc_fixtures import ServerProcess, free_port, make_cert

EXIT_STARTUP = 2


def run(*args, env=None, timeout=60):
    base = {k: v for k, v in os.environ.items() if not k.startswith("HANDEVAL_")}
    return subprocess.run(
        [sys.executable, "-m", "handeval", *args],
        capture_output=True,
        text=True,
        env=dict(base, **(env or {})),
        timeout=timeout,
    )


def assert_one_line_failure(p, *needles):
    lines = [line for line in p.stderr.splitlines() if line.strip()]
    assert p.returncode == EXIT_STARTUP, (p.returncode, p.stderr)
    assert len(lines) == 1, p.stderr
    assert lines[0].startswith("handeval serve: "), lines
    for n in needles:
        assert n in lines[0], (n, lines[0])
    assert "Traceback" not in p.stderr and p.stdout == ""


@pytest.fixture
def listening():
    """A socket listening on a free loopback port (the port "in use")."""
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    s.listen()
    yield s.getsockname()[1]
    s.close()


@pytest.mark.parametrize("port", ["99999", "0", "-1", "65536", "abc", "5e4"])
def test_port_outside_range(port):
    assert_one_line_failure(run("serve", "--port", port), "--port", repr(port))


@pytest.mark.parametrize("workers", ["1", "2"])
def test_port_in_use(listening, workers):
    p = run("serve", "--port", str(listening), "--workers", workers)
    assert_one_line_failure(p, f"127.0.0.1:{listening}", "already in use")


def test_port_in_use_by_another_handeval(tmp_path):
    """A second `handeval serve --workers 2` on the port of a running one must not share
    it silently (its workers set SO_REUSEPORT, so their own bind would succeed)."""
    first = ServerProcess(tmp_path, "--workers", "2", metrics=False)
    try:
        first.wait_serving()
        assert_one_line_failure(run("serve", "--port", str(first.port), "--workers", "2"), "already in use")
        assert_one_line_failure(run("serve", "--port", str(first.port)), "already in use")
    finally:
        assert first.terminate() == 0


def test_unresolvable_host():
    assert_one_line_failure(
        run("serve", "--host", "no-such-host.invalid", "--port", str(free_port())),
        "--host",
        "no-such-host.invalid",
        "cannot resolve",
    )


def test_address_of_another_machine():
    # 192.0.2.0/24 is TEST-NET-1 (RFC 5737): never an address of this machine. Nothing is sent.
    assert_one_line_failure(run("serve", "--host", "192.0.2.1", "--port", str(free_port())), "192.0.2.1")


def test_missing_tls_file(tmp_path):
    key = tmp_path / "key.pem"
    key.write_text("-----BEGIN PRIVATE KEY-----\n")
    missing = str(tmp_path / "nope.pem")
    assert_one_line_failure(
        run("serve", "--tls-cert", missing, "--tls-key", str(key)), "--tls-cert", missing, "No such file"
    )
    assert_one_line_failure(
        run("serve", env={"HANDEVAL_TLS_KEY": missing, "HANDEVAL_TLS_CERT": str(key)}),
        "HANDEVAL_TLS_KEY",
        "No such file",
    )


def test_tls_files_that_are_no_certificate_or_key(tmp_path):
    bad = tmp_path / "bad.pem"
    bad.write_text("garbage\n")
    assert_one_line_failure(run("serve", "--tls-cert", str(bad), "--tls-key", str(bad)), "--tls-cert", "not a PEM")
    assert_one_line_failure(run("serve", "--tls-cert", str(bad), "--tls-key", str(bad), "--workers", "2"), "not a PEM")
    if shutil.which("openssl") is None:
        return
    # a.pem/a.key (self-signed) and b.key, a key a.pem does not belong to
    make_cert(tmp_path, "a", "b")
    a, b = str(tmp_path / "a.pem"), str(tmp_path / "b.key")
    assert_one_line_failure(run("serve", "--tls-cert", a, "--tls-key", b), "private key does not belong")
    assert_one_line_failure(
        run("serve", "--tls-cert", a, "--tls-key", str(tmp_path / "a.key"), "--tls-client-ca", str(bad)),
        "--tls-client-ca",
        "not PEM",
    )


@pytest.mark.parametrize("workers", ["1", "2"])
def test_metrics_port_in_use(listening, workers):
    p = run("serve", "--port", str(free_port()), "--metrics-port", str(listening), "--workers", workers)
    assert_one_line_failure(p, "--metrics-port", f"127.0.0.1:{listening}", "in use")


def test_metrics_port_is_the_grpc_port():
    port = str(free_port())
    assert_one_line_failure(run("serve", "--port", port, "--metrics-port", port), "--metrics-port")


@pytest.mark.parametrize(
    "name,value",
    [
        ("PORT", "abc"),
        ("PORT", "99999"),
        ("WORKERS", "two"),
        ("WORKERS", "0"),
        ("GRACE", "soon"),
        ("GRACE", "-1"),
        ("GRACE", "nan"),
        ("MAX_BATCH", "1.5"),
        ("METRICS_PORT", "x"),
        ("LOG_LEVEL", "loud"),
        ("MAX_CONNECTIONS", "-3"),
        ("MAX_CONNECTION_AGE", "inf"),
        ("SHUTDOWN_DELAY", "-0.5"),
    ],
)
def test_malformed_environment_value(name, value):
    env = {f"HANDEVAL_{name}": value}
    assert_one_line_failure(run("serve", env=env), f"HANDEVAL_{name}={value!r}")
    # ... and every other command still works, --help included
    h = run("--help", env=env)
    assert h.returncode == 0 and "serve" in h.stdout, h.stderr
    h = run("serve", "--help", env=env)
    assert h.returncode == 0 and "HANDEVAL_PORT" in h.stdout, h.stderr
    c = run("classify", "As Ks Qs", env=env)
    assert c.returncode == 0 and "high_card" in c.stdout, (c.stdout, c.stderr)


@pytest.mark.parametrize(
    "args,needle",
    [
        (["--grace", "-1"], "--grace '-1'"),
        (["--shutdown-delay", "-2"], "--shutdown-delay"),
        (["--log-level", "loud"], "unknown log level"),
        (["--workers", "0"], "--workers"),
        (["--max-connections", "x"], "--max-connections"),
        (["--tls-cert", __file__], "--tls-cert and --tls-key go together"),
    ],
)
def test_bad_flag(args, needle):
    assert_one_line_failure(run("serve", *args), needle)


def test_a_flag_beats_a_malformed_environment_value(listening):
    """HANDEVAL_PORT=abc is not read when --port is given: the settings are accepted and
    the start fails only on the port in use."""
    assert_one_line_failure(run("serve", "--port", str(listening), env={"HANDEVAL_PORT": "abc"}), "already in use")
