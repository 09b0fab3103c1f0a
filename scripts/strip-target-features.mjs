// Copies a .wasm without its `target_features` custom section.
//
//   node scripts/strip-target-features.mjs IN.wasm OUT.wasm
//
// The section lists the features of every object linked in, and std for wasm32 comes built with
// reference types and multi-value (rustc 1.82+) even though our builds leave reference types out
// (.cargo/config.toml says why: a Node 20 crash). wasm-bindgen takes its features from the
// section when there is one; without it, it looks at what the module has: no externref table
// intrinsics, so JS values cross as indices into a JS-side table and no export returns a
// reference. (Nor does it make multi-value exports: results come back through a slot in memory.)
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
