#!/usr/bin/env bash
# Vendor KaTeX (math rendering) and iframe-worker (offline search shim) into docs/assets/vendor/.
#
# The site must not load anything from another host when a page is viewed, so the files the
# pages use are copied out of the npm packages and committed. Run this to refresh them:
#
#   scripts/vendor_katex.sh                # the versions pinned below
#   KATEX_VERSION=0.19.1 scripts/vendor_katex.sh
#
# It uses `npm pack` (the ordinary npm client, whatever registry it is configured for), unpacks
# the tarballs in a temporary directory and copies only what the site needs:
#   katex/katex.min.js (run when the site is built: publish/markdown/katex_math.py), katex/katex.min.css,
#   katex/fonts/*.woff2 (the first `src` of every @font-face in katex.min.css is woff2, which
#   every browser the site supports reads, so the .woff and .ttf fallbacks are never requested),
#   katex/LICENSE, iframe-worker/shim.js, iframe-worker/LICENSE, and a README.md in each folder
#   naming the version.
set -euo pipefail

KATEX_VERSION="${KATEX_VERSION:-0.19.1}"
IFRAME_WORKER_VERSION="${IFRAME_WORKER_VERSION:-1.0.4}"

root="$(cd "$(dirname "$0")/.." && pwd)"
dest="$root/docs/assets/vendor"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

command -v npm >/dev/null || { echo "npm is needed: apt-get install -y npm" >&2; exit 1; }

(cd "$tmp" && npm pack --silent "katex@$KATEX_VERSION" "iframe-worker@$IFRAME_WORKER_VERSION" >/dev/null)
mkdir -p "$tmp/katex" "$tmp/iframe-worker"
tar -xzf "$tmp/katex-$KATEX_VERSION.tgz" -C "$tmp/katex"
tar -xzf "$tmp/iframe-worker-$IFRAME_WORKER_VERSION.tgz" -C "$tmp/iframe-worker"
k="$tmp/katex/package"
w="$tmp/iframe-worker/package"

# The CSS must try woff2 first, or the browser would ask for files this script leaves out.
if grep -o '@font-face{[^}]*}' "$k/dist/katex.min.css" | grep -vq 'src:url(fonts/[A-Za-z0-9_-]*\.woff2)'; then
  echo "katex.min.css has an @font-face whose first src is not woff2: vendor the other formats too" >&2
  exit 1
fi

rm -rf "$dest/katex" "$dest/iframe-worker"
mkdir -p "$dest/katex/fonts" "$dest/iframe-worker"
cp "$k/dist/katex.min.js" "$k/dist/katex.min.css" "$dest/katex/"
cp "$k"/dist/fonts/*.woff2 "$dest/katex/fonts/"
cp "$k/LICENSE" "$dest/katex/LICENSE"
cp "$w/shim/index.js" "$dest/iframe-worker/shim.js"
cp "$w/LICENSE" "$dest/iframe-worker/LICENSE"

cat > "$dest/katex/README.md" <<README
# KaTeX $KATEX_VERSION (vendored)

From the npm package \`katex@$KATEX_VERSION\` (MIT, see \`LICENSE\`), copied by
\`scripts/vendor_katex.sh\`; do not edit by hand. \`publish/markdown/katex_math.py\` runs \`katex.min.js\`
when the site is built, to render the math that pymdownx.arithmatex marks up in the pages; the
built site has no copy of it (mkdocs.yml, \`exclude_docs\`). The pages load \`katex.min.css\`
and the fonts their formulas use.

Kept: \`katex.min.js\`, \`katex.min.css\` and \`fonts/*.woff2\`.
Every \`@font-face\` in \`katex.min.css\` lists woff2 first, so browsers never ask for the
\`.woff\`/\`.ttf\` fallbacks, which are left out (the script checks this).

To refresh: change \`KATEX_VERSION\` at the top of \`scripts/vendor_katex.sh\` (or set it in the
environment), run the script (or \`make vendor\`), rebuild and run the browser tests.
README

cat > "$dest/iframe-worker/README.md" <<README
# iframe-worker $IFRAME_WORKER_VERSION (vendored)

From the npm package \`iframe-worker@$IFRAME_WORKER_VERSION\` (MIT, see \`LICENSE\`): \`shim.js\` is
the package's \`shim/index.js\`, copied by \`scripts/vendor_katex.sh\`; do not edit by hand.

Material's offline plugin needs it so that site search works when the offline build is opened
from disk (\`file://\`); it replaces \`Worker\` only on \`file:\` pages. mkdocs.yml lists it under
\`extra.polyfills\` so that the plugin does not add its default, which would load it from a CDN.

To refresh: change \`IFRAME_WORKER_VERSION\` at the top of \`scripts/vendor_katex.sh\` and run it.
README

echo "vendored katex $KATEX_VERSION and iframe-worker $IFRAME_WORKER_VERSION into ${dest#$root/}:"
du -sb "$dest/katex" "$dest/iframe-worker" | sed "s|$root/||"
