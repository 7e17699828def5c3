#!/usr/bin/env bash
# The Go client of examples/go/ plays one whole game of each game against `handeval serve`
# (a game server in another language runs whole games over the gRPC contract).
#
#   1. installs Debian's Go toolchain, protoc, the Go protobuf/gRPC generators and
#      libraries when missing (apt-get, offline of any Go module proxy);
#   2. generates the Go code of protos/handeval/* into a temporary GOPATH (nothing
#      generated is committed; the protos' go_package names the import path);
#   3. builds examples/go in GOPATH mode (GO111MODULE=off) over /usr/share/gocode;
#   4. starts `handeval serve` (this Python's) on a free loopback port, waits for its
#      health check, plays each game with the client (the trick games with more seeds)
#      and checks its exit status;
#      the server is stopped on any exit.
# Then, unless JAVA_EXAMPLE=0, the Java client examples/java/Shisanshui.java plays a game
# of 十三水 against the same server, built from Debian's grpc-java the same way
# (default-jdk-headless, libgrpc-java, protobuf-compiler-grpc-java-plugin, ...).
#
# golang-github-golang-protobuf-1-5-dev is named on purpose: without it apt satisfies
# github.com/golang/protobuf with 1.3, and the generated code compiles but panics on
# the first call. GOPATH mode is what Debian's packaged Go libraries support.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
T0=$(date +%s)

PKGS="golang-go protobuf-compiler protoc-gen-go protoc-gen-go-grpc golang-google-grpc-dev
golang-google-protobuf-dev golang-google-genproto-dev golang-github-golang-protobuf-1-5-dev"
JAVA=${JAVA_EXAMPLE:-1}
# grpc-java's runtime: grpc, protobuf, netty, guava, perfmark, gson, javax.annotation.
JAVA_PKGS="default-jdk-headless libgrpc-java protobuf-compiler-grpc-java-plugin libprotobuf-java
libnetty-java libguava-java libperfmark-java libgoogle-gson-java libgeronimo-annotation-1.3-spec-java
liberror-prone-java"
[ "$JAVA" = 0 ] || PKGS="$PKGS $JAVA_PKGS"
missing=""
for p in $PKGS; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
    SUDO=""
    [ "$(id -u)" = 0 ] || SUDO="sudo -n"
    echo "go examples: installing$missing"
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -qq
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi
T1=$(date +%s)

TMP=$(mktemp -d)
SERVER_PID=""
cleanup() {
    if [ -n "$SERVER_PID" ] && kill -0 "$SERVER_PID" 2>/dev/null; then
        kill "$SERVER_PID" 2>/dev/null || true
        wait "$SERVER_PID" 2>/dev/null || true
    fi
    rm -rf "$TMP"
}
trap cleanup EXIT

# Generate: import paths come from each file's go_package; a file without one (older
# protos) is mapped to handeval.io/gen/<its directory>.
mkdir -p "$TMP/gopath/src" "$TMP/bin"
mapping=""
for f in $(cd protos && ls handeval/*/*.proto); do
    if ! grep -q '^option go_package' "protos/$f"; then
        d=$(dirname "$f")
        mapping="$mapping,M$f=handeval.io/gen/$d;$(echo "$d" | tr -d /)"
    fi
done
(cd protos && protoc -I . \
    --go_out="$TMP/gopath/src" --go_opt="paths=import$mapping" \
    --go-grpc_out="$TMP/gopath/src" --go-grpc_opt="paths=import$mapping" \
    handeval/*/*.proto)

# Build (CGO_ENABLED=0: no C compiler needed). The build cache (GOCACHE, by default
# ~/.cache/go-build) makes later runs fast.
(cd examples/go && CGO_ENABLED=0 GO111MODULE=off GOPATH="$TMP/gopath:/usr/share/gocode" \
    go build -o "$TMP/bin/handeval-go" .)
T2=$(date +%s)

# Serve on a free loopback port; the client waits for the health check (no fixed sleep).
PORT=$("$PYTHON" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$PYTHON" -m handeval serve --host 127.0.0.1 --port "$PORT" >"$TMP/serve.log" 2>&1 &
SERVER_PID=$!
ADDR="127.0.0.1:$PORT"
"$TMP/bin/handeval-go" -addr "$ADDR" -timeout 60s wait &
WAIT_PID=$!
# Whichever ends first: the health check (ready) or the server (it could not start).
wait -n "$WAIT_PID" "$SERVER_PID" || true
if kill -0 "$WAIT_PID" 2>/dev/null || ! wait "$WAIT_PID" || ! kill -0 "$SERVER_PID" 2>/dev/null; then
    kill "$WAIT_PID" 2>/dev/null || true
    echo "go examples: the server did not become ready" >&2
    cat "$TMP/serve.log" >&2
    exit 1
fi

passed=0
failed=0
# Each game once with its whole output; then the trick games with more seeds (quiet
# unless one fails), chosen so that the run meets every phase: chops by a connected seat
# (越式13张 seed 11) and by the 托管 seat on its suggestion (66), declarations by the 托管
# seat (打儲 16, 39), the calling and timeouts.
seed=${GO_EXAMPLES_SEED:-1}
more_tienlen=${GO_EXAMPLES_TIENLEN_SEEDS:-2 3 4 5 6 11 66}
more_dachu=${GO_EXAMPLES_DACHU_SEEDS:-2 3 4 5 16 39}
for game in shisanshui tienlen dachu; do
    echo "== $game"
    if "$TMP/bin/handeval-go" -addr "$ADDR" -seed "$seed" "$game"; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        echo "go examples: $game FAILED" >&2
    fi
done
for game in tienlen dachu; do
    more=$more_tienlen
    [ "$game" = dachu ] && more=$more_dachu
    for s in $more; do
        if "$TMP/bin/handeval-go" -addr "$ADDR" -seed "$s" "$game" >"$TMP/game.log" 2>&1; then
            passed=$((passed + 1))
            echo "== $game -seed $s: $(grep -E '^game over' "$TMP/game.log" | head -1)"
        else
            failed=$((failed + 1))
            cat "$TMP/game.log" >&2
            echo "go examples: $game -seed $s FAILED" >&2
        fi
    done
done
T3=$(date +%s)
if [ "$failed" -ne 0 ]; then
    echo "--- server log" >&2
    tail -n 40 "$TMP/serve.log" >&2
fi
echo "go examples: install $((T1 - T0))s, generate+build $((T2 - T1))s, games $((T3 - T2))s"
echo "go examples: $passed passed, $failed failed"

java_failed=0
if [ "$JAVA" != 0 ]; then
    echo "== java shisanshui"
    J=/usr/share/java
    CP=""
    for j in grpc-api grpc-core grpc-netty grpc-protobuf grpc-protobuf-lite grpc-stub grpc-context \
        protobuf guava perfmark-api gson error_prone_annotations geronimo-annotation-1.3-spec \
        netty-buffer netty-codec netty-codec-http netty-codec-http2 netty-codec-socks netty-common \
        netty-handler netty-handler-proxy netty-resolver netty-transport; do
        CP="$CP:$J/$j.jar"
    done
    mkdir -p "$TMP/java/gen" "$TMP/java/classes"
    # javac with C1 only: the build is short-lived, the optimising JIT only slows it.
    if (cd protos && protoc -I . --java_out="$TMP/java/gen" --grpc-java_out="$TMP/java/gen" \
            --plugin=protoc-gen-grpc-java=/usr/bin/grpc_java_plugin handeval/*/*.proto) &&
        javac -J-XX:TieredStopAtLevel=1 -J-XX:+UseSerialGC -nowarn -encoding UTF-8 -proc:none \
            -d "$TMP/java/classes" -cp "${CP#:}" -sourcepath "$TMP/java/gen" examples/java/Shisanshui.java &&
        java -XX:TieredStopAtLevel=1 -cp "$TMP/java/classes$CP" Shisanshui "$ADDR" "${GO_EXAMPLES_SEED:-1}"; then
        echo "java example: 1 passed, 0 failed"
    else
        java_failed=1
        echo "java example: 0 passed, 1 failed"
    fi
    echo "java example: $(($(date +%s) - T3))s"
fi
[ "$failed" -eq 0 ] && [ "$java_failed" -eq 0 ]
