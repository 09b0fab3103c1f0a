// Headless Chromium: the package's browser build (exports condition "browser"), loaded in a
// page served from 127.0.0.1, `await init()`, the shared lifecycle run in the page; the
// transcript comes back to Node, which validates every emitted message against the schema.
// Also loads examples/browser/index.html and validates the exchange it prints.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { withChromium } from './helpers/browser.mjs';
import { checkLifecycle } from './helpers/checked.mjs';
import { REPO_ROOT, installPackage } from './helpers/package.mjs';
import { ExchangeValidator } from './helpers/schema.mjs';

let pkg;
before(() => {
  pkg = installPackage();
});
after(() => pkg?.cleanup());

test('chromium: browser build, lifecycle in the page, and the browser example', { timeout: 120_000 }, async () => {
  const entry = pkg.packageJson.exports['.'].browser;
  assert.equal(typeof entry, 'string', 'exports["."].browser');
  const importMap = { imports: { 'mcp-task-core': entry.replace(/^\.\//, '/node_modules/mcp-task-core/') } };
  const html = `<!doctype html><meta charset="utf-8"><title>lifecycle</title>
<script type="importmap">${JSON.stringify(importMap)}</script>`;
  const { lifecycle, example, wasmRequests } = await withChromium(
    async (page, baseUrl) => {
      const wasmRequests = [];
      page.on('response', (res) => {
        if (res.url().endsWith('.wasm')) wasmRequests.push({ url: res.url(), type: res.headers()['content-type'], status: res.status() });
      });
      await page.goto(`${baseUrl}/lifecycle.html`);
      const lifecycle = await page.evaluate(async () => {
        const mod = await import('mcp-task-core');
        // Used before init(): an error that says what to do, with a code.
        const attempt = (fn) => {
          try {
            fn();
            return null;
          } catch (err) {
            return { code: err.code, message: err.message };
          }
        };
        const early = attempt(() => new mod.TextTaskEngine());
        const earlyObject = attempt(() => new mod.TaskEngine());
        const initResult = await mod.init();
        const again = await mod.init(); // idempotent
        const { runLifecycle } = await import('/helpers/scenario.mjs');
        const result = runLifecycle(mod);
        const freedEngine = new mod.TextTaskEngine();
        freedEngine.free();
        const freed = attempt(() => freedEngine.handle('{}'))?.code;
        const objectEngine = new mod.TaskEngine();
        const objectReply = objectEngine.handle({ jsonrpc: '2.0', id: 1, method: 'tasks/list' }, 'page');
        objectEngine.free();
        const freedObject = attempt(() => objectEngine.handle({ jsonrpc: '2.0', id: 2, method: 'ping' }));
        return { ...result, early, earlyObject, freed, freedObject, objectReply, initResult: initResult ?? null, again: again ?? null, exports: Object.keys(mod).sort() };
      });
      // The example page, with its import map pointing at ../../pkg/.
      await page.goto(`${baseUrl}/examples/browser/index.html`);
      await page.waitForFunction(() => document.body.dataset.status, null, { timeout: 20_000 });
      const example = await page.evaluate(() => ({
        status: document.body.dataset.status,
        log: document.getElementById('log').textContent,
        exchange: window.exchange,
      }));
      return { lifecycle, example, wasmRequests };
    },
    {
      mounts: {
        '/node_modules/mcp-task-core/': pkg.installed,
        '/pkg/': pkg.installed,
        '/helpers/': path.join(REPO_ROOT, 'js-tests', 'helpers'),
        '/examples/browser/': path.join(REPO_ROOT, 'examples', 'browser'),
      },
      files: { '/lifecycle.html': html },
    },
  );

  // The lifecycle in the page.
  assert.equal(lifecycle.early?.code, 'not_initialized');
  assert.match(lifecycle.early.message, /await init\(\)/);
  assert.equal(lifecycle.freed, 'freed');
  // The same guards for the object-mode class, which works once init() resolved.
  assert.equal(lifecycle.earlyObject?.code, 'not_initialized');
  assert.match(lifecycle.earlyObject.message, /new TaskEngine\(\).*await init\(\)/);
  assert.deepEqual(lifecycle.objectReply, { jsonrpc: '2.0', id: 1, result: { tasks: [] } });
  assert.equal(lifecycle.freedObject?.code, 'freed');
  assert.match(lifecycle.freedObject.message, /This TaskEngine was freed/);
  assert.equal(lifecycle.initResult, null);
  assert.equal(lifecycle.again, null);
  for (const name of ['TaskEngine', 'TextTaskEngine', 'drainOutputs', 'handleObject', 'init']) assert.ok(lifecycle.exports.includes(name), name);
  const validator = await checkLifecycle(lifecycle);
  assert.ok(validator.total >= 25);
  assert.ok(wasmRequests.length >= 1, 'the .wasm was fetched');
  for (const r of wasmRequests) {
    assert.equal(r.status, 200);
    assert.equal(r.type, 'application/wasm');
    assert.ok(new URL(r.url).hostname === '127.0.0.1');
  }

  // The example.
  assert.equal(example.status, 'done', example.log);
  const v = new ExchangeValidator().replay(example.exchange);
  for (const def of ['CreateTaskResult', 'GetTaskResult', 'ElicitRequest', 'GetTaskPayloadResult', 'CallToolResult', 'ListTasksResult', 'TaskStatusNotification']) {
    assert.ok(v.counts[def] > 0, `example: no ${def}`);
  }
  assert.match(example.log, /client → server {2}\{"jsonrpc":"2.0","id":1,"method":"tools\/call"/);
  assert.match(example.log, /Paris: 18°C, sunny/);
  assert.match(example.log, /on the stream of request 3/);
});
