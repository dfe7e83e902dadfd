#!/usr/bin/env bash
# Scale-out test (not in the default suite: ~30 s): two `nlu serve` replicas behind nginx on loopback,
# wrk load through nginx, one replica killed (SIGKILL) mid-run; passes when wrk saw zero failed
# requests (nginx retries a request whose replica died on the other one) and both replicas served.
# Needs: nginx and wrk (Debian packages). The nginx config it writes is the one docs/deploy.md explains.
#
# Usage: bash scripts/scale-out-test.sh [--duration S]
set -euo pipefail
cd "$(dirname "$0")/.."
duration=12
[ "${1:-}" = "--duration" ] && duration="$2"
for tool in nginx wrk curl; do
  command -v "$tool" >/dev/null || { echo "$tool is missing: apt-get install $tool" >&2; exit 1; }
done

bash scripts/install-deps.sh
source scripts/blas-env.sh
swift build -c release --product nlu >&2
nlu=".build/release/nlu"
work=$(mktemp -d)
chmod 755 "$work"
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  [ -f "$work/nginx.pid" ] && kill "$(cat "$work/nginx.pid")" 2>/dev/null || true
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'; }
wait_ready() { for _ in $(seq 1 100); do curl -sf "http://127.0.0.1:$1/health" >/dev/null 2>&1 && return 0; sleep 0.1; done; return 1; }

"$nlu" intents import Samples/intents/car-dashboard.json -o "$work/car.json" >/dev/null
"$nlu" intents train "$work/car.json" -o "$work/car.nlumodel" >/dev/null 2>&1

ports=()
for replica in 1 2; do
  port=$(free_port)
  "$nlu" serve --intents "$work/car.nlumodel" --port "$port" --workers 1 2>"$work/replica$replica.log" &
  pids+=($!)
  ports+=("$port")
  wait_ready "$port" || { cat "$work/replica$replica.log" >&2; exit 1; }
done

front=$(free_port)
mkdir -p "$work/tmp" && chmod 777 "$work/tmp"
cat > "$work/nginx.conf" <<NGINX
worker_processes 1;
pid $work/nginx.pid;
error_log $work/nginx-error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path $work/tmp/body;
  proxy_temp_path $work/tmp/proxy;
  fastcgi_temp_path $work/tmp/fastcgi;
  uwsgi_temp_path $work/tmp/uwsgi;
  scgi_temp_path $work/tmp/scgi;
  upstream nlu {
    server 127.0.0.1:${ports[0]} max_fails=1 fail_timeout=10s;
    server 127.0.0.1:${ports[1]} max_fails=1 fail_timeout=10s;
    keepalive 32;
  }
  server {
    listen 127.0.0.1:$front;
    client_max_body_size 1m;
    location / {
      proxy_pass http://nlu;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      # A replica that dies mid-request: retry on the other, POSTs included (parsing is idempotent).
      proxy_next_upstream error timeout http_502 http_503 non_idempotent;
      proxy_next_upstream_tries 2;
      proxy_connect_timeout 1s;
    }
  }
}
NGINX
nginx -c "$work/nginx.conf" -e "$work/nginx-error.log"
wait_ready "$front" || { cat "$work/nginx-error.log" >&2; exit 1; }

cat > "$work/parse.lua" <<'LUA'
local texts = {"turn the radio on", "will it snow tonight", "turn on the wipers", "play some music"}
local i = 0
request = function()
  i = i % #texts + 1
  return wrk.format("POST", "/model/parse", {["Content-Type"] = "application/json"}, '{"text": "' .. texts[i] .. '"}')
end
LUA

echo "replicas on ${ports[*]}, nginx on $front; wrk for ${duration}s, replica 1 (pid ${pids[0]}) killed at $((duration / 3))s"
wrk -t2 -c32 -d"${duration}s" -s "$work/parse.lua" "http://127.0.0.1:$front" > "$work/wrk.txt" &
wrk_pid=$!
sleep $((duration / 3))
kill -KILL "${pids[0]}"
echo "killed replica 1"
wait "$wrk_pid"
cat "$work/wrk.txt"

served1=$(grep -c 'path=/model/parse' "$work/replica1.log" || true)
served2=$(grep -c 'path=/model/parse' "$work/replica2.log" || true)
failed=0
if grep -q "Non-2xx" "$work/wrk.txt"; then failed=$(grep "Non-2xx" "$work/wrk.txt" | awk '{print $NF}'); fi
socket=$(grep "Socket errors" "$work/wrk.txt" | grep -o '[0-9]\+' | paste -sd+ | bc 2>/dev/null || echo 0)
total=$(grep "requests in" "$work/wrk.txt" | awk '{print $1}')
echo "requests: $total through nginx; replica 1 answered $served1 before it was killed, replica 2 $served2; failed: $failed non-2xx, ${socket:-0} socket errors"
if [ "$failed" = 0 ] && [ "${socket:-0}" = 0 ] && [ "$served1" -gt 0 ] && [ "$served2" -gt 0 ]; then
  echo "scale-out: PASS (zero failed requests with a replica killed mid-run)"
else
  echo "scale-out: FAIL" >&2
  tail -5 "$work/nginx-error.log" >&2
  exit 1
fi
