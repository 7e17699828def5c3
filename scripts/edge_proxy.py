"""The front proxy (deploy/proxy/nginx.conf, nginx from Debian's packages) in front of
`handeval serve` on loopback (harness/edge.py), and the HTTP/2 attacks of issue 38 aimed
through it (harness/attacks.py), by hand:

    python scripts/edge_proxy.py check                 # nginx -t: the shipped config, as shipped and as run here
    python scripts/edge_proxy.py run [--tls] [-- FLAGS] # handeval serve + the proxy, until Ctrl-C
    python scripts/edge_proxy.py configmap              # writes deploy/k8s/proxy-config.yaml from the config
    python scripts/edge_proxy.py attack NAME TARGET [--seconds S]  # one attack, in a process of its own
"""

from __future__ import annotations

import argparse
import ipaddress
import signal
import sys
import tempfile
import threading
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the checkout's root: harness/
from handeval.load.target import free_port
from harness.attacks import PROXY_ATTACKS, host_port
from harness.edge import (
    CONFIG,
    CONFIGMAP,
    ROOT,
    SHIPPED_PORTS,
    Edge,
    check_config,
    configmap_text,
    make_certificate,
    nginx_binary,
    nginx_version,
    render,
)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0], epilog="extra `handeval serve` flags go after --")
    p.add_argument("what", choices=("check", "run", "configmap", "attack"))
    p.add_argument("name", nargs="?", help="attack: which (" + ", ".join(n for n, _, _ in PROXY_ATTACKS) + ")")
    p.add_argument("target", nargs="?", help="attack: the proxy, host:port on loopback")
    p.add_argument("--seconds", type=float, default=60.0, help="attack: stop after this long at most (or at SIGTERM)")
    p.add_argument("--tls", action="store_true", help="run: TLS at the proxy (a self-signed certificate)")
    argv = sys.argv[1:]
    serve_args = argv[argv.index("--") + 1 :] if "--" in argv else []
    a = p.parse_args(argv[: len(argv) - len(serve_args) - (1 if "--" in argv else 0)])
    if a.what == "attack":
        # the attacker in a process of its own (as a real one is on another machine): its
        # CPU and GIL are not the probing client's
        attack = {n: f for n, f, _ in PROXY_ATTACKS}[a.name]
        if not ipaddress.ip_address(host_port(a.target)[0]).is_loopback:
            raise SystemExit(f"{a.target}: not a loopback address")
        stop = threading.Event()
        signal.signal(signal.SIGTERM, lambda *_: stop.set())
        timer = threading.Timer(a.seconds, stop.set)
        timer.daemon = True
        timer.start()
        attack(a.target, stop)
        return 0
    if a.what == "configmap":
        CONFIGMAP.write_text(configmap_text())
        print(f"wrote {CONFIGMAP.relative_to(ROOT)}")
        return 0
    binary = nginx_binary()
    if binary is None:
        print("nginx is not installed: apt-get install nginx (Debian 12: 1.22.1)", file=sys.stderr)
        return 2
    if a.what == "check":
        with tempfile.TemporaryDirectory() as d:
            rendered = Path(d) / "nginx.conf"
            status = 0
            for label, text in (
                ("shipped", CONFIG.read_text().replace("/tmp/", f"{d}/")),
                ("as run here", render({k: free_port() for k in SHIPPED_PORTS}, Path(d))),
                (
                    "as run here, TLS",
                    render({k: free_port() for k in SHIPPED_PORTS}, Path(d), make_certificate(Path(d))),
                ),
            ):
                rendered.write_text(text)
                r = check_config(binary, rendered)
                print(f"nginx {nginx_version(binary)} -t ({label}): {'ok' if r.returncode == 0 else 'FAILED'}")
                if r.returncode:
                    print(r.stderr, file=sys.stderr)
                    status = 1
            return status
    with tempfile.TemporaryDirectory() as d:
        edge = Edge(Path(d), *serve_args, tls=a.tls)
        try:
            print(f"proxy: {edge.target}{' (TLS)' if a.tls else ''}, probes: {edge.probe_target}, "
                  f"metrics: {edge.metrics_url}; server: {edge.server_target}. Ctrl-C stops both.", flush=True)  # fmt: skip
            signal.sigwait({signal.SIGINT, signal.SIGTERM})
        finally:
            edge.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
