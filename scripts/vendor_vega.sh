#!/usr/bin/env bash
# Re-vendors Vega into static/vendor/vega/: the pinned browser builds and their licences, so
# that nothing is fetched from a CDN or npm at run time or in CI. Needs Node 20+ and npm.
#
#   scripts/vendor_vega.sh            # the pinned versions below
#   VEGA=6.4.1 scripts/vendor_vega.sh # try another version, then commit what it wrote
set -euo pipefail

VEGA=${VEGA:-6.4.0}
VEGA_LITE=${VEGA_LITE:-6.5.0}
VEGA_EMBED=${VEGA_EMBED:-7.3.0}
VEGA_INTERPRETER=${VEGA_INTERPRETER:-2.3.2}
# vega-interpreter 2 ships only an ES module that imports vega-util; esbuild bundles it into a
# classic script that adds vega.expressionInterpreter next to vega.min.js.
ESBUILD=${ESBUILD:-0.28.2}

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
DEST="$ROOT/static/vendor/vega"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

cd "$WORK"
npm pack --silent "vega@$VEGA" "vega-lite@$VEGA_LITE" "vega-embed@$VEGA_EMBED" >/dev/null
for name in vega vega-lite vega-embed; do
  mkdir -p "$name" && tar -xzf "$name"-[0-9]*.tgz -C "$name"
done

# The interpreter is bundled with the vega-util its package.json asks for (no lockfile
# drift: the versions actually installed are printed below).
mkdir bundle && cd bundle
npm init -y >/dev/null
npm install --silent --no-audit --no-fund "vega-interpreter@$VEGA_INTERPRETER" "esbuild@$ESBUILD"
cat > entry.js <<'JS'
import { expressionInterpreter } from "vega-interpreter";

// vega.min.js defines window.vega; the CSP-safe interpreter joins it as in Vega's own docs.
window.vega.expressionInterpreter = expressionInterpreter;
JS
npx --no-install esbuild entry.js --bundle --minify --format=iife --target=es2020 \
  --legal-comments=none --outfile=vega-interpreter.min.js >/dev/null 2>&1
cd "$WORK"

mkdir -p "$DEST"
rm -f "$DEST"/*.js "$DEST"/*LICENSE* "$DEST"/VERSIONS.txt
cp vega/package/build/vega.min.js "$DEST/vega.min.js"
cp vega-lite/package/build/vega-lite.min.js "$DEST/vega-lite.min.js"
cp vega-embed/package/build/vega-embed.min.js "$DEST/vega-embed.min.js"
cp bundle/vega-interpreter.min.js "$DEST/vega-interpreter.min.js"
cp vega/package/LICENSE "$DEST/vega.LICENSE"
cp vega-lite/package/LICENSE "$DEST/vega-lite.LICENSE"
cp vega-embed/package/LICENSE "$DEST/vega-embed.LICENSE"
cp bundle/node_modules/vega-interpreter/LICENSE "$DEST/vega-interpreter.LICENSE"
cp bundle/node_modules/vega-util/LICENSE "$DEST/vega-util.LICENSE"

version() { node -p "require('$1/package.json').version"; }
{
  echo "# Written by scripts/vendor_vega.sh; do not edit by hand."
  echo "vega $(version "$WORK/vega/package")"
  echo "vega-lite $(version "$WORK/vega-lite/package")"
  echo "vega-embed $(version "$WORK/vega-embed/package")"
  echo "vega-interpreter $(version "$WORK/bundle/node_modules/vega-interpreter") (bundled with vega-util $(version "$WORK/bundle/node_modules/vega-util"), esbuild $(version "$WORK/bundle/node_modules/esbuild"))"
  echo
  echo "# sha256"
  (cd "$DEST" && sha256sum vega.min.js vega-lite.min.js vega-embed.min.js vega-interpreter.min.js)
} > "$DEST/VERSIONS.txt"
cat "$DEST/VERSIONS.txt"
