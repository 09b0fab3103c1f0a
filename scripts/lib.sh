# Shared helpers for scripts/*.sh (sourced, not executed).
# shellcheck shell=bash

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
JS_TESTS_DIR="$REPO_ROOT/js-tests"

# cargo-installed tools (wasm-bindgen) live here; rustup may not have put it on PATH.
CARGO_BIN_DIR="${CARGO_HOME:-$HOME/.cargo}/bin"
case ":$PATH:" in
  *":$CARGO_BIN_DIR:"*) ;;
  *) export PATH="$CARGO_BIN_DIR:$PATH" ;;
esac

# The wasm-opt flags of every shipped .wasm (scripts/wasm-opt-flags, also read by the bench).
read -r -a WASM_OPT_FLAGS <"$REPO_ROOT/scripts/wasm-opt-flags"

log() { printf '==> %s\n' "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# Find the Cargo.lock that governs crate dir $1 (the crate's own, or a workspace root above it).
find_cargo_lock() {
  local dir
  dir="$(cd "$1" && pwd)"
  while [ "$dir" != "/" ]; do
    if [ -f "$dir/Cargo.lock" ]; then
      printf '%s\n' "$dir/Cargo.lock"
      return 0
    fi
    dir="$(dirname "$dir")"
  done
  return 1
}

# Print the version of the `wasm-bindgen` crate locked for crate dir $1.
wasm_bindgen_lock_version() {
  local crate_dir="$1" lock versions count
  if ! lock="$(find_cargo_lock "$crate_dir")"; then
    log "no Cargo.lock yet for $crate_dir: resolving dependencies (cargo generate-lockfile)"
    (cd "$crate_dir" && cargo generate-lockfile --quiet) >&2
    lock="$(find_cargo_lock "$crate_dir")" || die "could not create Cargo.lock for $crate_dir"
  fi
  versions="$(awk '
    /^\[\[package\]\]/ { name = "" }
    /^name = "wasm-bindgen"$/ { name = "wasm-bindgen"; next }
    name == "wasm-bindgen" && /^version = / { gsub(/"/, "", $3); print $3; name = "" }
  ' "$lock" | sort -u)"
  count="$(printf '%s' "$versions" | grep -c . || true)"
  [ "$count" = 1 ] || die "expected exactly one wasm-bindgen version in $lock, found ${count}: ${versions//$'\n'/ }"
  printf '%s\n' "$versions"
}

# Print the installed wasm-bindgen CLI version, or nothing.
wasm_bindgen_cli_version() {
  command -v wasm-bindgen >/dev/null 2>&1 || return 0
  wasm-bindgen --version 2>/dev/null | awk '{ print $2 }'
}

# Add the wasm32 target when the toolchain lacks it (the wasm build, the wasm32 clippy and tests).
ensure_wasm32_target() {
  if [ -d "$(rustc --print sysroot)/lib/rustlib/wasm32-unknown-unknown" ]; then
    log "rust target wasm32-unknown-unknown: present"
  else
    command -v rustup >/dev/null || die "rust target wasm32-unknown-unknown missing and no rustup to add it"
    log "rust target wasm32-unknown-unknown: installing"
    rustup target add wasm32-unknown-unknown
  fi
}
