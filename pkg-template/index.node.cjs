'use strict';
// Node, CommonJS (`require` under the "node" condition). The wasm is read and instantiated
// synchronously when ./node-cjs/mcp_task_core.js is first required.
// Note: ESM and CJS entries load separate wasm instances (the usual dual-package hazard):
// objects made by one are not accepted by the other.
const wasm = require('./node-cjs/mcp_task_core.js');
const { objectTaskEngine } = require('./engine.cjs');
const { handleObject, drainOutputs, guardFreed } = require('./extras.cjs');
const { requestorClasses } = require('./requestor.cjs');
const { fillRandom } = require('./node-random.cjs');

wasm.setRandomSource(fillRandom);
guardFreed(wasm.TextTaskEngine);
guardFreed(wasm.TextTaskRequestor);

module.exports = {
  ...wasm,
  /** The engine with plain JS values in and out (see TextTaskEngine for JSON text). */
  TaskEngine: objectTaskEngine(wasm.TextTaskEngine),
  ...requestorClasses(wasm.TextTaskRequestor),
  handleObject,
  drainOutputs,
  /** Resolves at once: on Node the module is ready on require. Kept for a uniform API. */
  init: async function init(_input) {},
};
