'use strict';
// `mcp-task-core/receiver` on Node (CommonJS): the receiver-only build, instantiated
// synchronously when ./receiver-node-cjs/mcp_task_core_receiver.js is first required.
const { TextTaskEngine, setRandomSource, freshBindings } = require('./receiver-node-cjs/mcp_task_core_receiver.js');
const { objectTaskEngine } = require('./engine.cjs');
const { handleObject, drainOutputs, guardFreed, freshInstances } = require('./extras.cjs');
const { fillRandom } = require('./node-random.cjs');

setRandomSource(fillRandom);
guardFreed(TextTaskEngine);

module.exports = {
  TextTaskEngine,
  setRandomSource,
  /** The engine with plain JS values in and out (see TextTaskEngine for JSON text). */
  TaskEngine: objectTaskEngine(TextTaskEngine),
  handleObject,
  drainOutputs,
  /** Resolves at once: on Node the module is ready on require. Kept for a uniform API. */
  init: async function init(_input) {},
  freshInstance: freshInstances(freshBindings),
};
