'use strict';
// Node, CommonJS: `require('mcp-task-core')` from a scratch project (npm pack of pkg/), and
// the same lifecycle as the ESM test, validated against the schema.
const assert = require('node:assert/strict');
const { after, before, test } = require('node:test');

let helpers; // the ESM test helpers, loaded with import()
let pkg;
let cjs;

before(async () => {
  const [packageHelper, checked, scenario] = await Promise.all([
    import('./helpers/package.mjs'),
    import('./helpers/checked.mjs'),
    import('./helpers/scenario.mjs'),
  ]);
  helpers = { ...packageHelper, ...checked, ...scenario };
  pkg = helpers.installPackage();
  cjs = pkg.requireCjs();
});
after(() => pkg && pkg.cleanup());

test('require() resolves the CommonJS build and exports the whole surface', async () => {
  const resolved = require.resolve('mcp-task-core', { paths: [pkg.dir] });
  assert.equal(require('node:path').basename(resolved), 'index.node.cjs');
  for (const name of ['TaskEngine', 'TextTaskEngine', 'drainOutputs', 'handleObject', 'init']) assert.equal(typeof cjs[name], 'function', name);
  assert.equal(await cjs.init(), undefined);
  const e = new cjs.TextTaskEngine();
  assert.equal(typeof e.capabilitiesJson(), 'string');
  e.free();
  // The object-mode class over the CommonJS build's TextTaskEngine, guarded the same way.
  const o = new cjs.TaskEngine();
  assert.ok(o.textEngine instanceof cjs.TextTaskEngine);
  assert.deepEqual(o.handle({ jsonrpc: '2.0', id: 'l', method: 'tasks/list' }, 's'), { jsonrpc: '2.0', id: 'l', result: { tasks: [] } });
  o.free();
  helpers.assertEngineError(() => o.pollOutput(), 'freed');
});

test('full lifecycle through the CommonJS build', async () => {
  const validator = await helpers.checkLifecycle(helpers.runLifecycle(cjs));
  assert.ok(validator.total >= 25);
});

test('errors carry codes; wrong types are TypeErrors', () => {
  const e = new cjs.TextTaskEngine();
  helpers.assertEngineError(() => e.complete('nope', '{}'), 'unknown_task');
  helpers.assertEngineError(() => e.handle(42), 'invalid_argument', { type: TypeError });
  helpers.assertEngineError(() => new cjs.TextTaskEngine({ pageSize: 0 }), 'invalid_options');
  e.free();
});

test('the ESM and CJS builds are separate instances (dual package)', async () => {
  const esm = await pkg.importEsm();
  assert.notEqual(esm.TextTaskEngine, cjs.TextTaskEngine);
  // Each works on its own.
  const { ExchangeValidator } = await import('./helpers/schema.mjs');
  for (const mod of [esm, cjs]) {
    const e = new mod.TextTaskEngine({ tools: { t: 'optional' } });
    const v = new ExchangeValidator();
    const request = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 't', task: {} } };
    v.incoming(JSON.stringify(request));
    const reply = mod.handleObject(e, request, 'c');
    v.outgoing(JSON.stringify(reply));
    assert.equal(v.counts.CreateTaskResult, 1);
    assert.equal(reply.result.task.status, 'working');
    assert.equal(mod.drainOutputs(e).length, 1);
    e.free();
  }
});
