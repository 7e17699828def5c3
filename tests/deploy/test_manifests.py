"""The deployment files of deploy/: every pod template under deploy/k8s passes the Pod
Security Standards' "restricted" profile, checked here control by control; the rest of
what an operator relies on (native gRPC probes, topology spread, pinned images, the
ServiceMonitor's match, the proxy's ConfigMap equal to deploy/proxy/nginx.conf, the build
context's ignore files).

Why a checker here: no tool on PyPI or in Debian checks the profile offline (the
admission controller that enforces it runs in a cluster's API server; kubernetes-validate
checks the schemas only, which CI runs beside this: .ci/run, scripts/check_manifests.sh).
The controls and their allowed values are those of the Kubernetes documentation,
"Pod Security Standards" (Baseline, then Restricted, which includes it), as of
Kubernetes 1.34; each function below is one control, named as there. Each is also shown
to fail on a pod that breaks it (``test_each_control_refuses_what_it_forbids``)."""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Callable, Dict, Iterator, List, Tuple

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
K8S = ROOT / "deploy" / "k8s"
POD_KINDS = {"Pod", "Deployment", "StatefulSet", "DaemonSet", "ReplicaSet", "Job", "CronJob"}


def documents() -> List[Tuple[str, dict]]:
    out = []
    for path in sorted(K8S.rglob("*.yaml")):
        for doc in yaml.safe_load_all(path.read_text()):
            if doc:
                out.append((f"{path.relative_to(ROOT)}:{doc['kind']}/{doc['metadata']['name']}", doc))
    return out


def pod_spec(doc: dict) -> dict:
    if doc["kind"] == "Pod":
        return doc["spec"]
    if doc["kind"] == "CronJob":
        return doc["spec"]["jobTemplate"]["spec"]["template"]["spec"]
    return doc["spec"]["template"]["spec"]


def pod_annotations(doc: dict) -> dict:
    meta = doc["metadata"] if doc["kind"] == "Pod" else doc["spec"]["template"].get("metadata", {})
    return meta.get("annotations") or {}


def containers(spec: dict) -> Iterator[Tuple[str, dict]]:
    for field in ("containers", "initContainers", "ephemeralContainers"):
        for c in spec.get(field) or []:
            yield f"{field}[{c['name']}]", c


def sc(c: dict) -> dict:
    return c.get("securityContext") or {}


# ---- Baseline


def host_process(doc, spec) -> List[str]:
    """HostProcess: windowsOptions.hostProcess unset or false (pod and containers)."""
    bad = []
    if (spec.get("securityContext") or {}).get("windowsOptions", {}).get("hostProcess"):
        bad.append("spec.securityContext.windowsOptions.hostProcess")
    bad += [
        f"{n}.securityContext.windowsOptions.hostProcess"
        for n, c in containers(spec)
        if sc(c).get("windowsOptions", {}).get("hostProcess")
    ]
    return bad  # fmt: skip


def host_namespaces(doc, spec) -> List[str]:
    """Host Namespaces: hostNetwork, hostPID, hostIPC unset or false."""
    return [f"spec.{k}" for k in ("hostNetwork", "hostPID", "hostIPC") if spec.get(k)]


def privileged_containers(doc, spec) -> List[str]:
    """Privileged Containers: securityContext.privileged unset or false."""
    return [f"{n}.securityContext.privileged" for n, c in containers(spec) if sc(c).get("privileged")]


BASELINE_CAPABILITIES = {
    "AUDIT_WRITE", "CHOWN", "DAC_OVERRIDE", "FOWNER", "FSETID", "KILL", "MKNOD", "NET_BIND_SERVICE",
    "SETFCAP", "SETGID", "SETPCAP", "SETUID", "SYS_CHROOT",
}  # fmt: skip


def capabilities_baseline(doc, spec) -> List[str]:
    """Capabilities (Baseline): capabilities.add only from the default set."""
    return [
        f"{n}.securityContext.capabilities.add: {cap}"
        for n, c in containers(spec)
        for cap in (sc(c).get("capabilities") or {}).get("add") or []
        if cap not in BASELINE_CAPABILITIES
    ]


def host_path_volumes(doc, spec) -> List[str]:
    """HostPath Volumes: none."""
    return [f"spec.volumes[{v['name']}].hostPath" for v in spec.get("volumes") or [] if "hostPath" in v]


def host_ports(doc, spec) -> List[str]:
    """Host Ports: hostPort unset or 0."""
    return [f"{n}.ports[{p.get('name', p['containerPort'])}].hostPort" for n, c in containers(spec) for p in c.get("ports") or [] if p.get("hostPort")]  # fmt: skip


def apparmor(doc, spec) -> List[str]:
    """AppArmor: unset, RuntimeDefault or Localhost (field or the older annotations)."""
    bad = []
    profiles = [("spec.securityContext", spec.get("securityContext") or {})] + [(f"{n}.securityContext", sc(c)) for n, c in containers(spec)]  # fmt: skip
    for where, ctx in profiles:
        t = (ctx.get("appArmorProfile") or {}).get("type")
        if t not in (None, "RuntimeDefault", "Localhost"):
            bad.append(f"{where}.appArmorProfile.type: {t}")
    for key, value in pod_annotations(doc).items():
        if key.startswith("container.apparmor.security.beta.kubernetes.io/"):
            if not (value == "runtime/default" or value.startswith("localhost/")):
                bad.append(f"annotation {key}: {value}")
    return bad


SELINUX_TYPES = {None, "", "container_t", "container_init_t", "container_kvm_t", "container_engine_t"}


def selinux(doc, spec) -> List[str]:
    """SELinux: seLinuxOptions.type unset or one of the container types; user and role unset."""
    bad = []
    ctxs = [("spec.securityContext", spec.get("securityContext") or {})] + [(f"{n}.securityContext", sc(c)) for n, c in containers(spec)]  # fmt: skip
    for where, ctx in ctxs:
        opts = ctx.get("seLinuxOptions") or {}
        if opts.get("type") not in SELINUX_TYPES:
            bad.append(f"{where}.seLinuxOptions.type")
        bad += [f"{where}.seLinuxOptions.{k}" for k in ("user", "role") if opts.get(k)]
    return bad


def proc_mount(doc, spec) -> List[str]:
    """/proc Mount Type: procMount unset or Default."""
    return [f"{n}.securityContext.procMount" for n, c in containers(spec) if sc(c).get("procMount") not in (None, "Default")]  # fmt: skip


def seccomp_baseline(doc, spec) -> List[str]:
    """Seccomp (Baseline): no profile Unconfined."""
    ctxs = [("spec.securityContext", spec.get("securityContext") or {})] + [(f"{n}.securityContext", sc(c)) for n, c in containers(spec)]  # fmt: skip
    return [f"{w}.seccompProfile.type: Unconfined" for w, ctx in ctxs if (ctx.get("seccompProfile") or {}).get("type") == "Unconfined"]  # fmt: skip


SAFE_SYSCTLS = {
    "kernel.shm_rmid_forced", "net.ipv4.ip_local_port_range", "net.ipv4.ip_unprivileged_port_start",
    "net.ipv4.tcp_syncookies", "net.ipv4.ping_group_range", "net.ipv4.ip_local_reserved_ports",
    "net.ipv4.tcp_keepalive_time", "net.ipv4.tcp_fin_timeout", "net.ipv4.tcp_keepalive_intvl",
    "net.ipv4.tcp_keepalive_probes",
}  # fmt: skip


def sysctls(doc, spec) -> List[str]:
    """Sysctls: only the safe set."""
    return [f"sysctl {s['name']}" for s in (spec.get("securityContext") or {}).get("sysctls") or [] if s["name"] not in SAFE_SYSCTLS]  # fmt: skip


# ---- Restricted (adds to Baseline)

RESTRICTED_VOLUMES = {"configMap", "csi", "downwardAPI", "emptyDir", "ephemeral", "persistentVolumeClaim", "projected", "secret"}  # fmt: skip


def volume_types(doc, spec) -> List[str]:
    """Volume Types: only configMap, csi, downwardAPI, emptyDir, ephemeral,
    persistentVolumeClaim, projected, secret."""
    return [f"spec.volumes[{v['name']}]: {k}" for v in spec.get("volumes") or [] for k in v if k != "name" and k not in RESTRICTED_VOLUMES]  # fmt: skip


def privilege_escalation(doc, spec) -> List[str]:
    """Privilege Escalation: allowPrivilegeEscalation false in every container."""
    return [f"{n}.securityContext.allowPrivilegeEscalation" for n, c in containers(spec) if sc(c).get("allowPrivilegeEscalation") is not False]  # fmt: skip


def running_as_non_root(doc, spec) -> List[str]:
    """Running as Non-root: runAsNonRoot true on the pod, or on every container; no
    container sets it false."""
    pod = (spec.get("securityContext") or {}).get("runAsNonRoot")
    bad = [f"{n}.securityContext.runAsNonRoot" for n, c in containers(spec) if sc(c).get("runAsNonRoot") is False]
    if pod is not True:
        bad += [
            f"{n}.securityContext.runAsNonRoot" for n, c in containers(spec) if sc(c).get("runAsNonRoot") is not True
        ]
    return bad


def running_as_non_root_user(doc, spec) -> List[str]:
    """Running as Non-root user: runAsUser unset or not 0 (pod and containers)."""
    bad = ["spec.securityContext.runAsUser"] if (spec.get("securityContext") or {}).get("runAsUser") == 0 else []
    return bad + [f"{n}.securityContext.runAsUser" for n, c in containers(spec) if sc(c).get("runAsUser") == 0]


def seccomp_restricted(doc, spec) -> List[str]:
    """Seccomp (Restricted): RuntimeDefault or Localhost on the pod, or on every container;
    none Unconfined."""
    pod = (spec.get("securityContext") or {}).get("seccompProfile", {}).get("type")
    bad = seccomp_baseline(doc, spec)
    if pod not in ("RuntimeDefault", "Localhost"):
        bad += [f"{n}.securityContext.seccompProfile" for n, c in containers(spec) if (sc(c).get("seccompProfile") or {}).get("type") not in ("RuntimeDefault", "Localhost")]  # fmt: skip
    return bad


def capabilities_restricted(doc, spec) -> List[str]:
    """Capabilities (Restricted): every container drops ALL and adds at most
    NET_BIND_SERVICE."""
    bad = []
    for n, c in containers(spec):
        caps = sc(c).get("capabilities") or {}
        if "ALL" not in (caps.get("drop") or []):
            bad.append(f"{n}.securityContext.capabilities.drop lacks ALL")
        bad += [f"{n}.securityContext.capabilities.add: {a}" for a in caps.get("add") or [] if a != "NET_BIND_SERVICE"]
    return bad


CONTROLS: Dict[str, Callable[[dict, dict], List[str]]] = {
    "HostProcess": host_process,
    "Host Namespaces": host_namespaces,
    "Privileged Containers": privileged_containers,
    "Capabilities (Baseline)": capabilities_baseline,
    "HostPath Volumes": host_path_volumes,
    "Host Ports": host_ports,
    "AppArmor": apparmor,
    "SELinux": selinux,
    "/proc Mount Type": proc_mount,
    "Seccomp (Baseline)": seccomp_baseline,
    "Sysctls": sysctls,
    "Volume Types": volume_types,
    "Privilege Escalation": privilege_escalation,
    "Running as Non-root": running_as_non_root,
    "Running as Non-root user": running_as_non_root_user,
    "Seccomp (Restricted)": seccomp_restricted,
    "Capabilities (Restricted)": capabilities_restricted,
}

PODS = [(name, doc) for name, doc in documents() if doc["kind"] in POD_KINDS]


def test_there_are_pod_templates_to_check():
    names = [n for n, _ in PODS]
    assert any("deployment.yaml:Deployment/handeval" in n for n in names), names


@pytest.mark.parametrize("control", list(CONTROLS))
@pytest.mark.parametrize("name,doc", PODS, ids=[n for n, _ in PODS])
def test_restricted_profile(name, doc, control):
    assert CONTROLS[control](doc, pod_spec(doc)) == [], f"{name} fails Pod Security restricted: {control}"


GOOD_CONTAINER = {
    "name": "c",
    "image": "x:1",
    "securityContext": {"allowPrivilegeEscalation": False, "capabilities": {"drop": ["ALL"]}},
}
GOOD_POD = {
    "kind": "Pod",
    "metadata": {"name": "p"},
    "spec": {
        "securityContext": {"runAsNonRoot": True, "seccompProfile": {"type": "RuntimeDefault"}},
        "containers": [GOOD_CONTAINER],
        "volumes": [{"name": "v", "emptyDir": {}}],
    },
}


def _bad(path: str, value) -> dict:
    """GOOD_POD with ``value`` at ``path`` (dots; c = the container)."""
    import copy

    pod = copy.deepcopy(GOOD_POD)
    keys = path.split(".")
    node = pod
    for k in keys[:-1]:
        node = node["spec"]["containers"][0] if k == "c" else node.setdefault(k, {})
    node[keys[-1]] = value
    return pod


#: For each control, a pod that breaks it and nothing else.
BREAKS = {
    "HostProcess": _bad("c.securityContext.windowsOptions", {"hostProcess": True}),
    "Host Namespaces": _bad("spec.hostPID", True),
    "Privileged Containers": _bad("c.securityContext.privileged", True),
    "Capabilities (Baseline)": _bad("c.securityContext.capabilities", {"drop": ["ALL"], "add": ["SYS_ADMIN"]}),
    "HostPath Volumes": _bad("spec.volumes", [{"name": "h", "hostPath": {"path": "/"}}]),
    "Host Ports": _bad("c.ports", [{"containerPort": 80, "hostPort": 80}]),
    "AppArmor": _bad("c.securityContext.appArmorProfile", {"type": "Unconfined"}),
    "SELinux": _bad("c.securityContext.seLinuxOptions", {"type": "spc_t"}),
    "/proc Mount Type": _bad("c.securityContext.procMount", "Unmasked"),
    "Seccomp (Baseline)": _bad("c.securityContext.seccompProfile", {"type": "Unconfined"}),
    "Sysctls": _bad("spec.securityContext.sysctls", [{"name": "kernel.msgmax", "value": "1"}]),
    "Volume Types": _bad("spec.volumes", [{"name": "n", "nfs": {"server": "s", "path": "/"}}]),
    "Privilege Escalation": _bad("c.securityContext.allowPrivilegeEscalation", True),
    "Running as Non-root": _bad("spec.securityContext.runAsNonRoot", False),
    "Running as Non-root user": _bad("c.securityContext.runAsUser", 0),
    "Seccomp (Restricted)": _bad("spec.securityContext.seccompProfile", {"type": "Unconfined"}),
    "Capabilities (Restricted)": _bad("c.securityContext.capabilities", {"drop": ["NET_RAW"]}),
}


def test_each_control_refuses_what_it_forbids():
    """The checker can fail: the good pod passes every control, and each broken pod fails
    its own control (and the profile as a whole)."""
    assert set(BREAKS) == set(CONTROLS)
    assert {c: f(GOOD_POD, GOOD_POD["spec"]) for c, f in CONTROLS.items()} == {c: [] for c in CONTROLS}
    for control, pod in BREAKS.items():
        assert CONTROLS[control](pod, pod["spec"]), f"{control} let its breaking pod through"


def test_the_old_deployment_failed_the_profile():
    """The manifest before issue 38 (no allowPrivilegeEscalation, no capability drop, no
    seccomp profile) fails exactly those controls."""
    old = yaml.safe_load(
        """
kind: Deployment
metadata: {name: handeval}
spec:
  template:
    spec:
      securityContext: {runAsNonRoot: true, runAsUser: 10001}
      containers:
        - {name: handeval, image: "handeval:latest"}
"""
    )
    failed = {c for c, f in CONTROLS.items() if f(old, pod_spec(old))}
    assert failed == {"Privilege Escalation", "Seccomp (Restricted)", "Capabilities (Restricted)"}


# ---- beyond the profile


def _deployment() -> dict:
    return next(doc for name, doc in PODS if name.endswith("Deployment/handeval"))


@pytest.mark.parametrize("name,doc", PODS, ids=[n for n, _ in PODS])
def test_images_are_pinned(name, doc):
    for n, c in containers(pod_spec(doc)):
        image = c["image"]
        tag = image.rpartition("/")[2].partition(":")[2] if "@" not in image else "digest"
        assert tag and tag != "latest", f"{name} {n}: image {image!r} is not pinned to a version"


def test_probes_are_native_grpc_and_no_exec():
    spec = pod_spec(_deployment())
    for n, c in containers(spec):
        for probe in ("readinessProbe", "livenessProbe", "startupProbe"):
            assert "exec" not in (c.get(probe) or {}), f"{n}.{probe} is an exec probe"
    server = next(c for n, c in containers(spec) if c["name"] == "handeval")
    ports = {p["containerPort"] for _, c in containers(spec) for p in c.get("ports") or []}
    for probe in ("readinessProbe", "livenessProbe"):
        assert "grpc" in server[probe], f"the server's {probe} is not a gRPC probe"
        assert server[probe]["grpc"]["port"] in ports
    # the probe port of the proxy passes Health/Check only (deploy/proxy/nginx.conf)
    conf = (ROOT / "deploy" / "proxy" / "nginx.conf").read_text()
    probe_server = re.search(r"listen 8081 http2;(.*?)\n    }\n", conf, re.S).group(1)
    assert re.findall(r"location (.*?) \{", probe_server) == ["= /grpc.health.v1.Health/Check", "/"]
    assert "return 404;" in probe_server


def test_replicas_spread_over_nodes_and_zones():
    spec = pod_spec(_deployment())
    keys = {t["topologyKey"]: t for t in spec["topologySpreadConstraints"]}
    assert keys["kubernetes.io/hostname"]["whenUnsatisfiable"] == "DoNotSchedule"
    assert "topology.kubernetes.io/zone" in keys
    labels = _deployment()["spec"]["template"]["metadata"]["labels"]
    for t in keys.values():
        assert t["maxSkew"] == 1 and t["labelSelector"]["matchLabels"].items() <= labels.items()


def test_server_listens_on_loopback_behind_the_proxy():
    spec = pod_spec(_deployment())
    server = next(c for c in spec["containers"] if c["name"] == "handeval")
    env = {e["name"]: e.get("value") for e in server["env"]}
    assert env["HANDEVAL_HOST"] == "127.0.0.1"
    conf = (ROOT / "deploy" / "proxy" / "nginx.conf").read_text()
    assert f"server 127.0.0.1:{env['HANDEVAL_PORT']} " in conf
    assert f"proxy_pass http://127.0.0.1:{env['HANDEVAL_METRICS_PORT']};" in conf
    proxy = next(c for c in spec["containers"] if c["name"] == "proxy")
    assert {p["name"]: p["containerPort"] for p in proxy["ports"]} == {"grpc": 50051, "probe": 8081, "metrics": 9100}
    # the proxy keeps proxying while the server drains: its preStop outlasts the drain
    drain = float(env["HANDEVAL_SHUTDOWN_DELAY"]) + float(env["HANDEVAL_GRACE"])
    assert proxy["lifecycle"]["preStop"]["sleep"]["seconds"] >= drain
    assert pod_spec(_deployment())["terminationGracePeriodSeconds"] > proxy["lifecycle"]["preStop"]["sleep"]["seconds"]


def test_service_monitor_scrapes_the_service_metrics_port():
    docs = dict(documents())
    monitor = next(d for n, d in docs.items() if n.endswith("ServiceMonitor/handeval"))
    service = next(d for n, d in docs.items() if n.endswith("Service/handeval") and d["kind"] == "Service")
    assert monitor["spec"]["selector"]["matchLabels"].items() <= service["metadata"]["labels"].items()
    names = {p["name"] for p in service["spec"]["ports"]}
    for endpoint in monitor["spec"]["endpoints"]:
        assert endpoint["port"] in names
    annotations = pod_annotations(_deployment())
    metrics = next(p for p in service["spec"]["ports"] if p["name"] == "metrics")
    assert annotations["prometheus.io/port"] == str(metrics["port"])


def test_proxy_configmap_is_the_config():
    """deploy/k8s/proxy-config.yaml carries deploy/proxy/nginx.conf byte for byte
    (regenerate: python scripts/edge_proxy.py configmap)."""
    cm = next(d for n, d in documents() if n.endswith("ConfigMap/handeval-proxy"))
    assert cm["data"]["nginx.conf"] == (ROOT / "deploy" / "proxy" / "nginx.conf").read_text()
    volumes = {v["name"]: v for v in pod_spec(_deployment())["volumes"]}
    assert volumes["proxy-config"]["configMap"]["name"] == cm["metadata"]["name"]


def test_build_context_leaves_out_outputs_and_environments():
    """The root .dockerignore (the classic builder's) and deploy/Dockerfile.dockerignore
    (BuildKit's) are the same and leave out target/, virtualenvs, caches and .git."""
    root = (ROOT / ".dockerignore").read_text()
    assert root == (ROOT / "deploy" / "Dockerfile.dockerignore").read_text()
    entries = {line.strip() for line in root.splitlines() if line.strip() and not line.startswith("#")}
    assert {"target/", ".venv/", ".git/", "**/__pycache__/", "dist/"} <= entries


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-q"]))
