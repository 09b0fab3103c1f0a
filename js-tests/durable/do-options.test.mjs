// TaskEngineObject (mcp-task-core/durable-object) refuses options it would otherwise drop or
// pass on silently, in workerd through Miniflare: an engineOptions() with a `store` (the class
// sets its own, so it was replaced without a word), an unknown engine option (the engine's own
// check), a leaseMs() that is not a positive integer. Each object's start fails with a
// TypeError that names the option; a well-formed object answers.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { Miniflare } from 'miniflare';
import { installPackage } from '../helpers/package.mjs';
import { collectModules, DEFAULT_COMPATIBILITY_DATE, uniqueModules } from '../helpers/workerd.mjs';

const WORKER = `
import { TaskEngineObject, routeToTaskObject } from 'mcp-task-core/durable-object';

export class Good extends TaskEngineObject {
  engineOptions() { return { tools: { quick: 'optional' } }; }
}
export class WithStorage extends TaskEngineObject {
  engineOptions() { return { storage: { leaseMs: 5000 } }; }
}
export class Typo extends TaskEngineObject {
  engineOptions() { return { tolls: { quick: 'optional' } }; }
}
export class ZeroLease extends TaskEngineObject {
  leaseMs() { return 0; }
}

export default {
  async fetch(request, env) {
    const binding = new URL(request.url).pathname.slice(1);
    try {
      return await routeToTaskObject(request, env[binding]);
    } catch (err) {
      return new Response(String(err && err.message), { status: 500 });
    }
  },
};
`;

let pkg;
let mf;
let url;
before(async () => {
  pkg = installPackage({ prefix: 'mcp-task-core-do-options-' });
  const root = pkg.installed;
  let entry = pkg.packageJson.exports['./durable-object'];
  while (entry && typeof entry === 'object') entry = entry.workerd ?? entry.import ?? entry.default;
  let receiver = pkg.packageJson.exports['./receiver'];
  while (receiver && typeof receiver === 'object') receiver = receiver.workerd ?? receiver.import ?? receiver.default;
  const doFile = path.resolve(root, entry);
  const receiverFile = path.resolve(root, receiver);
  mf = new Miniflare({
    host: '127.0.0.1',
    port: 0,
    compatibilityDate: DEFAULT_COMPATIBILITY_DATE,
    modulesRoot: root,
    modules: [
      { type: 'ESModule', path: path.join(root, '__worker__.mjs'), contents: WORKER },
      { type: 'ESModule', path: path.join(root, 'mcp-task-core/durable-object'), contents: `export * from '../${path.relative(root, doFile)}';\n` },
      { type: 'ESModule', path: path.join(root, 'mcp-task-core/receiver'), contents: `export * from '../${path.relative(root, receiverFile)}';\n` },
      ...uniqueModules([...collectModules(doFile, root), ...collectModules(receiverFile, root)]),
    ],
    durableObjects: Object.fromEntries(['Good', 'WithStorage', 'Typo', 'ZeroLease'].map((c) => [c, { className: c, useSQLite: true }])),
  });
  url = await mf.ready;
  assert.ok(fs.existsSync(doFile));
});
after(async () => {
  await mf?.dispose();
  pkg?.cleanup();
});

async function ping(binding) {
  const res = await fetch(new URL(`/${binding}`, url), {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-tenant': 't' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tasks/list', params: {} }),
  });
  return { status: res.status, text: await res.text() };
}

test('a well-formed TaskEngineObject answers', { timeout: 60_000 }, async () => {
  const { status, text } = await ping('Good');
  assert.equal(status, 200, text);
  assert.deepEqual(JSON.parse(text).result.tasks, []);
});

test('engineOptions().storage is refused: the class sets the storage', { timeout: 60_000 }, async () => {
  const { status, text } = await ping('WithStorage');
  assert.equal(status, 500);
  assert.match(text, /engineOptions\(\)\.storage is set by TaskEngineObject/);
});

test('an unknown engine option is refused by name, with the known ones', { timeout: 60_000 }, async () => {
  const { status, text } = await ping('Typo');
  assert.equal(status, 500);
  assert.match(text, /options\.tolls is not an option \(known here: .*\btools\b/);
});

test('leaseMs() must be a positive integer', { timeout: 60_000 }, async () => {
  const { status, text } = await ping('ZeroLease');
  assert.equal(status, 500);
  assert.match(text, /leaseMs\(\) must return a positive integer number of milliseconds, got 0/);
});
