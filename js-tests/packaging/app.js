// The page each bundler builds: load the package's wasm, create an engine, answer a
// task-augmented tools/call and a tasks/get, and show both replies. The test reads them from
// #replies once <body data-status> is set.
import { init, TaskEngine } from 'mcp-task-core';

// A reply may come back as JSON text or as an object: accept both.
const parse = (reply) => (typeof reply === 'string' ? JSON.parse(reply) : reply);

/** @param {string} [wasm] where the .wasm is, for bundlers that do not resolve it themselves */
export async function start(wasm) {
  try {
    await init(wasm);
    const engine = new TaskEngine({ tools: { summarize: 'optional' } });
    const call = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'summarize', arguments: {}, task: { ttl: 60000 } } };
    const created = parse(engine.handle(JSON.stringify(call)));
    const get = { jsonrpc: '2.0', id: 2, method: 'tasks/get', params: { taskId: created.result?.task?.taskId } };
    const got = parse(engine.handle(JSON.stringify(get)));
    document.getElementById('replies').textContent = JSON.stringify([created, got], null, 2);
    document.body.dataset.status = 'answered';
  } catch (err) {
    document.getElementById('replies').textContent = String(err?.stack ?? err);
    document.body.dataset.status = 'failed';
  }
}
