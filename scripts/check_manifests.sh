#!/usr/bin/env bash
# The deployment's checks (a step of .ci/run): kubernetes-validate --strict over every
# manifest under deploy/k8s (the API schemas of Kubernetes 1.30, the oldest version the
# manifests need: preStop `sleep`; and of the newest the tool knows; offline, shipped in
# the package), then the Pod Security "restricted" profile, control by control, and the
# rest of tests/deploy (no offline checker of the profile exists on PyPI or in Debian, see
# that file), then `nginx -t` over the proxy's config (deploy/proxy/nginx.conf) when nginx
# is installed (.ci/run installs it). kubernetes-validate has no schema for the Prometheus
# operator's ServiceMonitor: it warns, and tests/deploy checks what that file must match.
# Installs the pinned kubernetes-validate into this Python when it is missing (a few
# seconds; it depends on jsonschema and PyYAML only).
set -euo pipefail
cd "$(dirname "$0")/.."
version=1.37.0
if [ "$(python3 -c 'import importlib.metadata as m; print(m.version("kubernetes-validate"))' 2>/dev/null)" != "$version" ]; then
    python3 -m pip install --quiet --disable-pip-version-check "kubernetes-validate==$version"
fi
mapfile -t manifests < <(find deploy/k8s -name '*.yaml' | sort)
for k8s in 1.30.0 "$version"; do
    echo "kubernetes-validate --strict -k $k8s: ${#manifests[@]} files"
    python3 -m kubernetes_validate --strict --quiet -k "$k8s" "${manifests[@]}"
done
python3 -m pytest -q -p no:cacheprovider tests/deploy
if command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ]; then
    python3 scripts/edge_proxy.py check
else
    echo "nginx is not installed: the proxy's config is not checked (apt-get install nginx)"
fi
