// Random bytes (task IDs, cursor keys) come from `setRandomSource`'s source, by default
// `crypto.getRandomValues`; the Node entry points read /dev/urandom instead and never touch
// `globalThis.crypto` (its first use loads node:crypto, which slows the first request).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { after, before, test } from 'node:test';
import { installPackage } from './helpers/package.mjs';

let pkg;
let mod;

before(async () => {
  pkg = installPackage();
  mod = await pkg.importEsm();
});
after(() => pkg?.cleanup());

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const CALL = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'slow', arguments: {}, task: { ttl: 60_000 } } };

function createTask() {
  const engine = new mod.TaskEngine({ tools: { slow: 'required' } });
  try {
    return engine.handle(CALL, 'ctx');
  } finally {
    engine.free();
  }
}

test('task IDs are drawn from the installed source, and undefined restores the default', () => {
  try {
    mod.setRandomSource((bytes) => bytes.fill(0xab));
    // UUID v4: version nibble 4, variant bits 10; every other bit from the source.
    assert.equal(createTask().result.task.taskId, 'abababab-abab-4bab-abab-abababababab');
  } finally {
    mod.setRandomSource(undefined);
  }
  const [a, b] = [createTask().result.task.taskId, createTask().result.task.taskId];
  assert.match(a, UUID_V4);
  assert.notEqual(a, b);
  assert.notEqual(a, 'abababab-abab-4bab-abab-abababababab');
});

test('a source that throws refuses the task with an error reply; nothing is created', () => {
  const engine = new mod.TaskEngine({ tools: { slow: 'required' } });
  try {
    mod.setRandomSource(() => {
      throw new Error('no entropy here');
    });
    const reply = engine.handle(CALL, 'ctx');
    assert.equal(reply.result, undefined);
    assert.equal(typeof reply.error.code, 'number');
    assert.match(reply.error.message, /\S/);
    mod.setRandomSource(undefined);
    assert.equal(engine.handle({ jsonrpc: '2.0', id: 2, method: 'tasks/list', params: {} }, 'ctx').result.tasks.length, 0);
    assert.match(engine.handle({ ...CALL, id: 3 }, 'ctx').result.task.taskId, UUID_V4);
  } finally {
    mod.setRandomSource(undefined);
    engine.free();
  }
});

for (const entry of ['esm', 'cjs']) {
  test(`the Node ${entry} entry makes task IDs without globalThis.crypto`, () => {
    const load =
      entry === 'esm'
        ? `const mod = await import(${JSON.stringify(pkg.installed + '/entries/index.node.mjs')});`
        : `const mod = (await import('node:module')).createRequire(import.meta.url)(${JSON.stringify(pkg.installed + '/entries/index.node.cjs')});`;
    const script = `
      Object.defineProperty(globalThis, 'crypto', { get() { throw new Error('globalThis.crypto was used'); } });
      ${load}
      const ids = [];
      for (let i = 0; i < 2; i++) {
        const engine = new mod.TextTaskEngine({ tools: { slow: 'required' } });
        ids.push(JSON.parse(engine.handle(${JSON.stringify(JSON.stringify(CALL))}, 'ctx')).result.task.taskId);
      }
      console.log(JSON.stringify(ids));`;
    const ids = JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }));
    assert.equal(ids.length, 2);
    for (const id of ids) assert.match(id, UUID_V4);
    assert.notEqual(ids[0], ids[1]);
  });
}
