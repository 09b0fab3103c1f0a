#!/usr/bin/env bash
# Build the npm package in pkg/ from the crate's wasm32 cdylib.
#
#   scripts/build-pkg.sh [CRATE_DIR]      (CRATE_DIR defaults to the repo root)
#
# Env:
#   PKG_DIR=path   output folder (default: <repo>/pkg; wiped and rebuilt)
#   WASM_OPT=0     skip wasm-opt (faster local iteration; never for releases)
#
# Layout produced (ready for `npm pack pkg/`):
#   pkg/package.json, README.md and the module folders (core/, runtime/, storage/, adapters/,
#                   client/, console/, types/)  copied from pkg-template/
#   pkg/entries/    the wasm entry points, generated from scripts/package-table.mjs, which also
#                   writes the *.cjs twins, the *.d.cts copies and package.json's exports
#   pkg/node-cjs/   wasm-bindgen --target nodejs                      (+ {"type":"commonjs"})
#   pkg/node-esm/   wasm-bindgen --target experimental-nodejs-module
#   pkg/web/        wasm-bindgen --target web        (browsers; workerd via initSync({ module }))
#   pkg/requestor-node-esm/, pkg/requestor-web/   the same for the requestor-only build
#                   (cargo --no-default-features --features requestor): `mcp-task-core/requestor`
#   pkg/receiver-node-cjs/, pkg/receiver-node-esm/, pkg/receiver-web/   the receiver-only build
#                   (--features receiver): `mcp-task-core/receiver` and the server adapters
# Each .wasm is shipped once, in web/, requestor-web/ and receiver-web/; the Node glue loads those.
# Each glue is one module: its inline JS snippets are folded in (scripts/bundle-glue.mjs).
# Run scripts/setup.sh first (wasm32 target, wasm-bindgen CLI, js-tests/node_modules for wasm-opt).
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

start=$SECONDS
[ -d "${1:-$REPO_ROOT}" ] || die "no such crate dir: $1"
crate_dir="$(cd "${1:-$REPO_ROOT}" && pwd)"
pkg_dir="${PKG_DIR:-$REPO_ROOT/pkg}"
template_dir="$REPO_ROOT/pkg-template"
wasm_opt="$JS_TESTS_DIR/node_modules/.bin/wasm-opt"
[ -f "$crate_dir/Cargo.toml" ] || die "no Cargo.toml in $crate_dir"

# wasm-bindgen CLI and crate must match exactly, or the generated glue is wrong.
want_wb="$(wasm_bindgen_lock_version "$crate_dir")"
have_wb="$(wasm_bindgen_cli_version)"
[ "$have_wb" = "$want_wb" ] ||
  die "wasm-bindgen CLI is ${have_wb:-not installed}, Cargo.lock wants $want_wb: run scripts/setup.sh"
if [ "${WASM_OPT:-1}" != 0 ] && [ ! -x "$wasm_opt" ]; then
  die "wasm-opt (npm binaryen) missing at $wasm_opt: run scripts/setup.sh"
fi

# Target dir, lib name and version from cargo (handles workspaces and CARGO_TARGET_DIR).
read -r target_dir lib_name crate_version < <(
  cd "$crate_dir" && cargo metadata --no-deps --format-version 1 | node -e '
    let s = ""; process.stdin.on("data", (d) => (s += d)).on("end", () => {
      const m = JSON.parse(s);
      const manifest = require("path").join(process.argv[1], "Cargo.toml");
      const p = m.packages.find((p) => p.manifest_path === manifest) ?? m.packages[0];
      const lib = p.targets.find((t) => t.kind.includes("cdylib"));
      if (!lib) { console.error("crate " + p.name + " has no cdylib target"); process.exit(1); }
      console.log(m.target_directory, lib.name.replace(/-/g, "_"), p.version);
    });' "$crate_dir"
)
[ -n "${lib_name:-}" ] || die "could not read cargo metadata for $crate_dir"

log "cargo build --lib --release --target wasm32-unknown-unknown ($crate_dir)"
(cd "$crate_dir" && cargo build --lib --release --target wasm32-unknown-unknown)
input_wasm="$target_dir/wasm32-unknown-unknown/release/$lib_name.wasm"
[ -f "$input_wasm" ] || die "expected $input_wasm"
# The requestor-only build: other features and its own profile (opt-level "z"; Cargo.toml), so
# it has its own output folder and neither build invalidates the other's cache.
log "cargo build --lib --profile release-requestor --target wasm32-unknown-unknown --no-default-features --features requestor"
(cd "$crate_dir" && cargo build --lib --profile release-requestor --target wasm32-unknown-unknown --no-default-features --features requestor)
requestor_wasm="$target_dir/wasm32-unknown-unknown/release-requestor/$lib_name.wasm"
[ -f "$requestor_wasm" ] || die "expected $requestor_wasm"
# The receiver-only build: the server side (the SDK and Durable Object adapters use it).
log "cargo build --lib --profile release-receiver --target wasm32-unknown-unknown --no-default-features --features receiver"
(cd "$crate_dir" && cargo build --lib --profile release-receiver --target wasm32-unknown-unknown --no-default-features --features receiver)
receiver_wasm="$target_dir/wasm32-unknown-unknown/release-receiver/$lib_name.wasm"
[ -f "$receiver_wasm" ] || die "expected $receiver_wasm"

# wasm-bindgen reads the module's features from its target_features section, which std's
# objects fill with reference types; without the section it sees the module as built (see
# strip-target-features.mjs and .cargo/config.toml).
stripped_dir="$target_dir/wasm32-unknown-unknown/bindgen-input"
mkdir -p "$stripped_dir"
for name in release requestor receiver; do
  case $name in
    release) src="$input_wasm" ;;
    requestor) src="$requestor_wasm" ;;
    receiver) src="$receiver_wasm" ;;
  esac
  node "$REPO_ROOT/scripts/strip-target-features.mjs" "$src" "$stripped_dir/$name.wasm"
done
input_wasm="$stripped_dir/release.wasm"
requestor_wasm="$stripped_dir/requestor.wasm"
receiver_wasm="$stripped_dir/receiver.wasm"

rm -rf "$pkg_dir"
mkdir -p "$pkg_dir"
for pair in node-cjs:nodejs node-esm:experimental-nodejs-module web:web; do
  out="${pair%%:*}" target="${pair#*:}"
  log "wasm-bindgen --target $target -> ${pkg_dir#"$REPO_ROOT"/}/$out"
  wasm-bindgen "$input_wasm" --out-dir "$pkg_dir/$out" --target "$target" --out-name mcp_task_core
done
for pair in requestor-node-esm:experimental-nodejs-module requestor-web:web; do
  out="${pair%%:*}" target="${pair#*:}"
  log "wasm-bindgen --target $target -> ${pkg_dir#"$REPO_ROOT"/}/$out (requestor-only)"
  wasm-bindgen "$requestor_wasm" --out-dir "$pkg_dir/$out" --target "$target" --out-name mcp_task_core_requestor
done
for pair in receiver-node-cjs:nodejs receiver-node-esm:experimental-nodejs-module receiver-web:web; do
  out="${pair%%:*}" target="${pair#*:}"
  log "wasm-bindgen --target $target -> ${pkg_dir#"$REPO_ROOT"/}/$out (receiver-only)"
  wasm-bindgen "$receiver_wasm" --out-dir "$pkg_dir/$out" --target "$target" --out-name mcp_task_core_receiver
done

# The _bg.wasm files of one build are byte-identical: ship one (web/, requestor-web/) and point
# the Node glue at it, so the package holds each module once. Each rewrite must hit exactly one line.
for f in "$pkg_dir"/node-cjs/mcp_task_core_bg.wasm "$pkg_dir"/node-esm/mcp_task_core_bg.wasm; do
  cmp -s "$f" "$pkg_dir/web/mcp_task_core_bg.wasm" || die "$f differs from web/: cannot share one .wasm"
  rm "$f"
done
f="$pkg_dir/requestor-node-esm/mcp_task_core_requestor_bg.wasm"
cmp -s "$f" "$pkg_dir/requestor-web/mcp_task_core_requestor_bg.wasm" || die "$f differs from requestor-web/: cannot share one .wasm"
rm "$f"
for f in "$pkg_dir"/receiver-node-cjs/mcp_task_core_receiver_bg.wasm "$pkg_dir"/receiver-node-esm/mcp_task_core_receiver_bg.wasm; do
  cmp -s "$f" "$pkg_dir/receiver-web/mcp_task_core_receiver_bg.wasm" || die "$f differs from receiver-web/: cannot share one .wasm"
  rm "$f"
done
node -e '
  const fs = require("fs");
  const rewrite = (file, from, to) => {
    const text = fs.readFileSync(file, "utf8");
    const n = text.split(from).length - 1;
    if (n !== 1) { console.error(`${file}: expected one ${from}, found ${n}`); process.exit(1); }
    fs.writeFileSync(file, text.replace(from, to));
  };
  const dir = process.argv[1];
  rewrite(`${dir}/node-cjs/mcp_task_core.js`, "`${__dirname}/mcp_task_core_bg.wasm`", "`${__dirname}/../web/mcp_task_core_bg.wasm`");
  rewrite(`${dir}/node-esm/mcp_task_core.js`, "new URL(\x27mcp_task_core_bg.wasm\x27, import.meta.url)", "new URL(\x27../web/mcp_task_core_bg.wasm\x27, import.meta.url)");
  rewrite(`${dir}/requestor-node-esm/mcp_task_core_requestor.js`, "new URL(\x27mcp_task_core_requestor_bg.wasm\x27, import.meta.url)",
    "new URL(\x27../requestor-web/mcp_task_core_requestor_bg.wasm\x27, import.meta.url)");
  rewrite(`${dir}/receiver-node-cjs/mcp_task_core_receiver.js`, "`${__dirname}/mcp_task_core_receiver_bg.wasm`",
    "`${__dirname}/../receiver-web/mcp_task_core_receiver_bg.wasm`");
  rewrite(`${dir}/receiver-node-esm/mcp_task_core_receiver.js`, "new URL(\x27mcp_task_core_receiver_bg.wasm\x27, import.meta.url)",
    "new URL(\x27../receiver-web/mcp_task_core_receiver_bg.wasm\x27, import.meta.url)");
' "$pkg_dir"

# wasm-opt must run after wasm-bindgen (bindgen reads descriptor functions and custom sections
# that -Oz would rewrite). npm binaryen, never Debian's. Flags in scripts/wasm-opt-flags:
# --low-memory-unused: rustc links the stack first, so the lowest 1 KiB is the far end of a
# 1 MiB stack and never addressed; binaryen then folds constant offsets into loads and stores
# (about 1% smaller gzipped). --converge runs the passes again until the module stops
# shrinking: 0.25% (about 320 B gzipped on the receiver, ~10 s per module). -O3 and --strip-*
# measured within 0.2%.
wasm_files=("$pkg_dir/web/mcp_task_core_bg.wasm" "$pkg_dir/requestor-web/mcp_task_core_requestor_bg.wasm"
  "$pkg_dir/receiver-web/mcp_task_core_receiver_bg.wasm")
for wasm_file in "${wasm_files[@]}"; do
  if [ "${WASM_OPT:-1}" != 0 ]; then
    log "wasm-opt ${WASM_OPT_FLAGS[*]} ${wasm_file#"$REPO_ROOT"/}"
    "$wasm_opt" "$wasm_file" -o "$wasm_file.opt" "${WASM_OPT_FLAGS[@]}"
    mv "$wasm_file.opt" "$wasm_file"
  else
    log "WASM_OPT=0: skipping wasm-opt"
  fi
done

# Package files. pkg-template/README.md is the npm README; the repo's README (and licences)
# are used only where the template has none.
cp -R "$template_dir/." "$pkg_dir/"
printf '{\n  "type": "commonjs"\n}\n' >"$pkg_dir/node-cjs/package.json"
printf '{\n  "type": "commonjs"\n}\n' >"$pkg_dir/receiver-node-cjs/package.json"
printf '{\n  "type": "module"\n}\n' >"$pkg_dir/node-esm/package.json"
for f in README.md LICENSE LICENSE-MIT LICENSE-APACHE; do
  if [ -f "$REPO_ROOT/$f" ] && [ ! -f "$pkg_dir/$f" ]; then cp "$REPO_ROOT/$f" "$pkg_dir/"; fi
done
# Each wasm-bindgen glue module takes in its inline JS snippets (fewer modules to load).
node "$REPO_ROOT/scripts/bundle-glue.mjs" "$pkg_dir"
# From the package's one table: the entry points (entries/, each one file with the modules it
# imports), the CommonJS twins and .d.cts copies (one source each), and package.json's exports.
node "$REPO_ROOT/scripts/package-table.mjs" "$pkg_dir"
# The npm version follows the crate version.
node -e '
  const fs = require("fs"), f = process.argv[1];
  const p = JSON.parse(fs.readFileSync(f, "utf8"));
  p.version = process.argv[2];
  fs.writeFileSync(f, JSON.stringify(p, null, 2) + "\n");
' "$pkg_dir/package.json" "$crate_version"

# Sizes (raw / gzip -9 / brotli), as loro reports them.
node -e '
  const fs = require("fs"), zlib = require("zlib");
  for (const file of process.argv.slice(1)) {
    const b = fs.readFileSync(file);
    const gz = zlib.gzipSync(b, { level: 9 }).length;
    const br = zlib.brotliCompressSync(b, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
    const kb = (n) => (n / 1024).toFixed(1) + " KiB";
    console.error(`==> ${require("path").basename(file)}: ${b.length} B (${kb(b.length)}) raw, ${gz} B (${kb(gz)}) gzip -9, ${br} B (${kb(br)}) brotli`);
  }
' "${wasm_files[@]}"
log "pkg ready: $pkg_dir (version $crate_version) in $((SECONDS - start)) s"
