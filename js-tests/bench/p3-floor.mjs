// P3 floor — where the bytes of the receiver and requestor-only .wasm go, and how small each
// would be with no JSON and no formatting code at all.
//
// Each build's wasm as scripts/build-pkg.sh hands it to wasm-bindgen
// (target/wasm32-unknown-unknown/bindgen-input/) goes through wasm-bindgen --keep-debug and the
// package's wasm-opt flags plus -g: the shipped module with its function names. From it:
// - `breakdown`: code bytes per group of functions (by name, as twiggy's `top` counts them) and
//   the data segments;
// - `floor`: every function of serde, serde_json and core::fmt (number and float formatting,
//   Display and Debug impls) emptied to `unreachable`, then wasm-opt again (which drops what
//   only they reached), gzip -9. Code of theirs inlined into our functions stays, so the floor
//   is an upper bound on what a module without them would weigh, and any replacement
//   parser adds to it: if the floor is over budget, no JSON layer meets the budget.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import binaryen from 'binaryen';
import { functionSizes } from '../helpers/wasm-exports.mjs';
import { JS_TESTS_DIR, REPO_ROOT } from './lib.mjs';

const INPUTS = path.join(REPO_ROOT, 'target/wasm32-unknown-unknown/bindgen-input');
const WASM_OPT = path.join(JS_TESTS_DIR, 'node_modules/.bin/wasm-opt');
const FLAGS = fs.readFileSync(path.join(REPO_ROOT, 'scripts/wasm-opt-flags'), 'utf8').trim().split(/\s+/);

/** The functions the floor empties: the JSON layer and core's formatting. */
export const JSON_AND_FORMATTING = /serde|zmij|core::fmt|core\[[0-9a-f]+\]::fmt|flt2dec|escape_debug|as core(\[[0-9a-f]+\])?::fmt::(Display|Debug|LowerHex)>::fmt|Expected>::fmt/;

/** Groups for the breakdown, first match wins. */
const GROUPS = [
  ['serde / serde_json', /serde|zmij/],
  ['core::fmt and float formatting', /fmt|flt2dec|escape_debug|bignum/],
  ['engine', /mcp_task_core::engine/],
  ['protocol', /mcp_task_core::protocol/],
  ['requestor', /mcp_task_core::requestor/],
  ['task table, cursors, status', /mcp_task_core::core/],
  ['wasm layer (non-exported)', /mcp_task_core::wasm|wasm_bindgen|js_sys/],
  ['rest of mcp_task_core', /mcp_task_core/],
  ['BTreeMap', /btree/],
  ['hashbrown, hashing', /hashbrown|hash/i],
  ['dlmalloc', /dlmalloc/],
  ['core / alloc', /./],
];

/** The receiver's floor module, kept for P4's Node floor (p4-cold.mjs). */
export const FLOOR_RECEIVER_WASM = path.join(REPO_ROOT, 'target/bench-floor/receiver.wasm');

const gzip = (bytes) => zlib.gzipSync(bytes, { level: 9 }).length;

/** @param {string} build receiver | requestor */
function measure(build, tmp) {
  const input = path.join(INPUTS, `${build}.wasm`);
  execFileSync('wasm-bindgen', [input, '--out-dir', tmp, '--target', 'web', '--keep-debug', '--out-name', build], { stdio: 'pipe' });
  const named = path.join(tmp, `${build}-named.wasm`);
  execFileSync(WASM_OPT, [path.join(tmp, `${build}_bg.wasm`), '-o', named, '-g', ...FLAGS], { stdio: 'pipe' });
  const shippedLike = path.join(tmp, `${build}-shipped.wasm`);
  execFileSync(WASM_OPT, [named, '-o', shippedLike, ...FLAGS], { stdio: 'pipe' });

  const { functions, dataBytes } = functionSizes(fs.readFileSync(named));
  const groups = new Map([['exported functions (bodies inlined)', 0], ...GROUPS.map(([g]) => [g, 0]), ['data segments', dataBytes]]);
  for (const f of functions) {
    const group = f.exported ? 'exported functions (bodies inlined)' : GROUPS.find(([, re]) => re.test(f.name))[0];
    groups.set(group, groups.get(group) + f.size);
  }

  binaryen.setDebugInfo(true);
  const mod = binaryen.readBinary(fs.readFileSync(named));
  let emptied = 0;
  for (let i = 0; i < mod.getNumFunctions(); i++) {
    const f = mod.getFunctionByIndex(i);
    const info = binaryen.getFunctionInfo(f);
    if (info.module || !JSON_AND_FORMATTING.test(info.name)) continue;
    binaryen.Function.setBody(f, mod.unreachable());
    emptied++;
  }
  const stubbed = path.join(tmp, `${build}-stubbed.wasm`);
  fs.writeFileSync(stubbed, mod.emitBinary());
  mod.dispose();
  const floor = path.join(tmp, `${build}-floor.wasm`);
  execFileSync(WASM_OPT, [stubbed, '-o', floor, ...FLAGS], { stdio: 'pipe' });
  const shipped = fs.readFileSync(shippedLike);
  const floorBytes = fs.readFileSync(floor);
  if (build === 'receiver') {
    fs.mkdirSync(path.dirname(FLOOR_RECEIVER_WASM), { recursive: true });
    fs.writeFileSync(FLOOR_RECEIVER_WASM, floorBytes);
  }
  return {
    shipped: { raw: shipped.length, gzip: gzip(shipped) },
    floor: { raw: floorBytes.length, gzip: gzip(floorBytes), emptiedFunctions: emptied },
    breakdown: Object.fromEntries([...groups].sort((a, b) => b[1] - a[1])),
  };
}

/** Null when the bindgen inputs are missing (the package was not built by this checkout). */
export function benchSizeFloor() {
  fs.rmSync(FLOOR_RECEIVER_WASM, { force: true });
  if (!fs.existsSync(path.join(INPUTS, 'receiver.wasm'))) return null;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-task-core-floor-'));
  try {
    return { receiver: measure('receiver', tmp), requestor: measure('requestor', tmp) };
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}
