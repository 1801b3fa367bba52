#!/usr/bin/env bash
# Makes Docs/operator-page.png (the screenshot on Docs/Operations.md): `webimage serve` (the debug build) in front of a local
# origin of two corpus images, about a hundred requests, then headless chromium on the operator page with its
# builder filled. Uses fixed loopback ports 18930-18932.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
bin=$root/.build/debug/webimage
work=$(mktemp -d)
cp $root/Tests/Corpus/webp/peak.png $root/Tests/Corpus/webp/bryce.webp $work/
( cd $work && exec python3 -m http.server 18931 --bind 127.0.0.1 >/dev/null 2>&1 ) & origin=$!
$bin serve --bind 127.0.0.1:18930 --metrics-bind 127.0.0.1:18932 --key 736563726574 --salt 68656c6c6f \
  --operator-signing --allow-private-sources --cache-dir $work/cache --no-access-log > $work/out 2> $work/err & serve=$!
trap 'kill $serve $origin; rm -rf $work' EXIT
sleep 3
sign() { python3 - "$1" <<'PY'
import hmac, hashlib, base64, sys
key=bytes.fromhex("736563726574"); salt=bytes.fromhex("68656c6c6f")
p=sys.argv[1]
d=hmac.new(key, salt+p.encode(), hashlib.sha256).digest()
print("/"+base64.urlsafe_b64encode(d).decode().rstrip("=")+p)
PY
}
src_png="http%3A%2F%2F127.0.0.1%3A18931%2Fpeak.png"; src_webp="http%3A%2F%2F127.0.0.1%3A18931%2Fbryce.webp"
for round in 1 2 3 4 5 6 7 8; do
  for opts in "rs:fit:300:200" "rs:fill:160:160/g:sm" "w:640/q:70" "rs:fill:${round}0:${round}0" "blur:2/w:400"; do
    for src in $src_png $src_webp; do
      curl -s -o /dev/null "http://127.0.0.1:18930$(sign "/$opts/plain/$src")"
    done
  done
  curl -s -o /dev/null "http://127.0.0.1:18930/bad/w:10/plain/$src_png"
  curl -s -o /dev/null "http://127.0.0.1:18930$(sign "/w:10/plain/http%3A%2F%2F127.0.0.1%3A18931%2Fmissing.jpg")"
  sleep 2
done
( while true; do for opts in "w:300" "rs:fill:160:160/g:sm" "w:640/q:70"; do curl -s -o /dev/null "http://127.0.0.1:18930$(sign "/$opts/plain/$src_png")"; done; curl -s -o /dev/null "http://127.0.0.1:18930/bad/w:10/plain/$src_png"; sleep 0.3; done ) & load=$!
sleep 4
chromium --headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage --hide-scrollbars --user-data-dir=$work/profile \
  --virtual-time-budget=6000 --window-size=1280,2160 --screenshot=$root/Docs/operator-page.png \
  "http://127.0.0.1:18932/#build?source=http%3A%2F%2F127.0.0.1%3A18931%2Fbryce.webp&resize=fill&width=360&height=240&gravity=sm&format=webp" 2>/dev/null
kill $load
