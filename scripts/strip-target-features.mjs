// Copies a .wasm without its `target_features` custom section.
//
//   node scripts/strip-target-features.mjs IN.wasm OUT.wasm
//
// wasm-bindgen turns every export into a multi-value function when that section lists
// "multivalue" (rustc lists it for wasm32 since 1.82). Node 20's V8 (11.3) can crash the
// process ("Fatal error ... unreachable code" in Deoptimizer::DoComputeBuiltinContinuation)
// when optimised JS that inlined a call to such an export is deoptimised while the call runs.
// Without the section, wasm-bindgen returns through memory (one i32 result at most) and still
// finds reference types from the module's externref table exports.
import { readFileSync, writeFileSync } from 'node:fs';

const [input, output] = process.argv.slice(2);
if (!input || !output) {
  console.error('usage: strip-target-features.mjs IN.wasm OUT.wasm');
  process.exit(2);
}
const bytes = readFileSync(input);
if (bytes.readUInt32BE(0) !== 0x0061736d) throw new Error(`${input} is not a wasm module`);

/** LEB128 unsigned at `at`: [value, next offset]. */
function leb(at) {
  let value = 0;
  let shift = 0;
  for (;;) {
    const byte = bytes[at++];
    value += (byte & 0x7f) * 2 ** shift;
    if (byte < 0x80) return [value, at];
    shift += 7;
  }
}

const kept = [bytes.subarray(0, 8)];
let removed = 0;
for (let at = 8; at < bytes.length; ) {
  const start = at;
  const id = bytes[at++];
  const [size, body] = leb(at);
  const end = body + size;
  if (end > bytes.length) throw new Error(`${input}: section at ${start} runs past the end`);
  let drop = false;
  if (id === 0) {
    const [nameLength, nameAt] = leb(body);
    drop = bytes.toString('utf8', nameAt, nameAt + nameLength) === 'target_features';
  }
  if (drop) removed++;
  else kept.push(bytes.subarray(start, end));
  at = end;
}
writeFileSync(output, Buffer.concat(kept));
if (removed !== 1) console.error(`note: ${input} had ${removed} target_features sections`);
