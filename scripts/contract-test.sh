#!/usr/bin/env bash
# The API against its own contract, judged by a tool that is not ours: schemathesis (PyPI) generates requests from
# docs/openapi.yaml and runs every check (server errors, status codes, content types, response schemas and headers,
# schema-valid requests accepted and schema-violating ones refused) against a live `pipeline serve` over a small
# generated store, as a signed-in user. Fixed seed, bounded examples, loopback only; DELETE is left out (it would delete
# the user the rest of the run signs in as — deletion has its own tests). Exit status: schemathesis's.
#
#   scripts/contract-test.sh [--max-examples 25] [--seed 1]
set -euo pipefail
cd "$(dirname "$0")/.."
max_examples=25
seed=1
while (($#)); do
  case "$1" in
    --max-examples) max_examples=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    *) echo "usage: scripts/contract-test.sh [--max-examples N] [--seed N]" >&2; exit 64 ;;
  esac
done

command -v schemathesis >/dev/null 2>&1 || python3 -m pip install --quiet --disable-pip-version-check schemathesis >/dev/null
pipeline=.build/debug/pipeline
[[ -x $pipeline ]] || swift build --product pipeline

work=$(mktemp -d)
server=""
cleanup() { [[ -n $server ]] && kill "$server" 2>/dev/null; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT

export PIPELINE_LOG_LEVEL=error OPENBLAS_NUM_THREADS=1
"$pipeline" generate --users 3 --days 14 --seed 7 --end yesterday --out "$work/inbox" >/dev/null
"$pipeline" nightly --db "$work/db.sqlite" --inbox "$work/inbox" >/dev/null
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
export PIPELINE_JWT_SECRET
PIPELINE_JWT_SECRET=$(python3 -c 'import secrets; print(secrets.token_hex(32))')
PIPELINE_API_HOST=127.0.0.1 PIPELINE_API_PORT=$port "$pipeline" serve --db "$work/db.sqlite" >"$work/serve.log" 2>&1 &
server=$!
python3 - "$port" <<'EOF'
import sys, time, urllib.request
for _ in range(200):
    try:
        urllib.request.urlopen(f"http://127.0.0.1:{sys.argv[1]}/healthz", timeout=1).read()
        break
    except Exception:
        time.sleep(0.1)
EOF

# A token as the apps hold one: the first generated user, issued to their bound device, valid for an hour.
token=$(python3 - "$work/inbox/users" <<'EOF'
import base64, glob, hashlib, hmac, json, os, sys, time
users = []
for path in sorted(glob.glob(os.path.join(sys.argv[1], "*.json"))):
    users += json.load(open(path))["users"]
user = users[0]
def b64(b): return base64.urlsafe_b64encode(b).rstrip(b"=").decode()
claims = {"sub": user["user_id"], "exp": int(time.time()) + 3600, "iat": int(time.time())}
if user.get("bound_device_id"): claims["device"] = user["bound_device_id"]
head = b64(json.dumps({"alg": "HS256", "typ": "JWT"}).encode()) + "." + b64(json.dumps(claims).encode())
mac = hmac.new(os.environ["PIPELINE_JWT_SECRET"].encode(), head.encode(), hashlib.sha256).digest()
print(head + "." + b64(mac))
EOF
)

set +e
schemathesis run docs/openapi.yaml --url "http://127.0.0.1:$port" -H "Authorization: Bearer $token" \
  --checks all --max-examples "$max_examples" --seed "$seed" --exclude-method DELETE --no-color >"$work/report.txt" 2>&1
status=$?
set -e
if ((status != 0)); then cat "$work/report.txt"; tail -20 "$work/serve.log"; fi
grep -iE "stateful|generated|failures? in|passed in" "$work/report.txt" | tail -6
exit "$status"
