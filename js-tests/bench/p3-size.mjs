// P3 — size: the receiver-only .wasm (`mcp-task-core/receiver`: servers and the adapters), the main
// entry's (both roles), and the requestor-only one (`mcp-task-core/requestor`) (raw and gzip -9;
// brotli for reference) and the JS glue.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { PKG_DIR } from './lib.mjs';

function sizes(files) {
  const buf = Buffer.concat(files.map((f) => fs.readFileSync(path.join(PKG_DIR, f))));
  return {
    files,
    raw: buf.length,
    gzip: zlib.gzipSync(buf, { level: 9 }).length,
    brotli: zlib.brotliCompressSync(buf, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
  };
}

/** Budget of the requestor-only .wasm, gzip -9: a browser client that only polls tasks. */
export const REQUESTOR_BUDGET = 40 * 1024;
const REQUESTOR_WASM = 'requestor-web/mcp_task_core_requestor_bg.wasm';
const RECEIVER_WASM = 'receiver-web/mcp_task_core_receiver_bg.wasm';

export function benchSize() {
  const wasm = sizes(['web/mcp_task_core_bg.wasm']);
  // Older layouts shipped a copy per build; now the Node glue loads web/'s copy.
  const copies = ['node-esm', 'node-cjs'].map((d) => path.join(PKG_DIR, d, 'mcp_task_core_bg.wasm')).filter((f) => fs.existsSync(f));
  const same = copies.every((f) => fs.readFileSync(f).equals(fs.readFileSync(path.join(PKG_DIR, 'web/mcp_task_core_bg.wasm'))));
  return {
    wasm,
    wasmFilesInPackage: 1 + copies.length,
    wasmIdenticalAcrossBuilds: same,
    // What a browser / workerd bundle loads besides the .wasm: the entry, the glue, the shared core modules.
    glueWeb: sizes(['entries/index.browser.js', 'web/mcp_task_core.js', 'core/bindings.js', 'core/errors.js', 'core/engine.js']),
    // What `import 'mcp-task-core'` loads in Node.
    glueNodeEsm: sizes(['entries/index.node.mjs', 'node-esm/mcp_task_core.js', 'core/bindings.js', 'core/errors.js', 'core/engine.js']),
    // The requestor-only build (`mcp-task-core/requestor`): its .wasm and what a browser loads besides.
    requestorWasm: fs.existsSync(path.join(PKG_DIR, REQUESTOR_WASM)) ? sizes([REQUESTOR_WASM]) : null,
    requestorGlueWeb: fs.existsSync(path.join(PKG_DIR, REQUESTOR_WASM))
      ? sizes(['entries/requestor.browser.js', 'requestor-web/mcp_task_core_requestor.js', 'client/requestor.js', 'client/task-client.js', 'core/bindings.js', 'core/errors.js', 'core/engine.js'])
      : null,
    // The receiver-only build (`mcp-task-core/receiver`, and the SDK / Durable Object adapters).
    receiverWasm: sizes([RECEIVER_WASM]),
    receiverGlueWeb: sizes(['entries/receiver.browser.js', 'receiver-web/mcp_task_core_receiver.js', 'core/bindings.js', 'core/errors.js', 'core/engine.js']),
    // The SDK adapter (mcp-task-core/sdk), on top of the above.
    sdkAdapter: fs.existsSync(path.join(PKG_DIR, 'adapters/sdk-v1.js')) ? sizes(['adapters/sdk-v1.js']) : null,
  };
}
