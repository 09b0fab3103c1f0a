// The task console as a Worker route (workerd, via Miniflare): the fetch handler over a
// WasmTaskStore's operator view, its event stream read from Node through the Worker, a cancel,
// and the 403 of a request the Worker's authorize refuses.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { installPackage } from './helpers/package.mjs';
import { withWorkerd } from './helpers/workerd.mjs';

let pkg;
before(() => {
  pkg = installPackage({ prefix: 'mcp-task-core-console-workerd-' });
});
after(() => pkg?.cleanup());

// POST /make creates a task in session "s1" (as the SDK would, for a tools/call of "crawl");
// everything under /console is the console.
const WORKER = `
import { WasmTaskStore } from './adapters/sdk-v1.js';
import { sdkOperatorView, taskConsole } from './console/console.js';
const store = new WasmTaskStore();
const tasksPage = taskConsole(sdkOperatorView(store), { authorize: (request) => request.headers.get('cookie') === 'ops=1', pollMs: 100 });
export default {
  async fetch(request) {
    const url = new URL(request.url);
    if (url.pathname === '/make') {
      const task = await store.createTask({ ttl: 60000 }, 1, { method: 'tools/call', params: { name: 'crawl' } }, 's1');
      return Response.json(task);
    }
    return tasksPage.fetch(request);
  },
};
`;

test('workerd: the console is a Worker route (page, live event stream, cancel, 403)', { timeout: 60_000 }, async () => {
  await withWorkerd({ script: WORKER, pkgDir: pkg.installed }, async (url) => {
    const at = (route, init = {}) => fetch(new URL(route, url), { ...init, headers: { cookie: 'ops=1', ...init.headers } });
    assert.equal((await fetch(new URL('/console/', url))).status, 403);
    assert.equal((await fetch(new URL('/console/events', url), { headers: { cookie: 'ops=2' } })).status, 403);
    const page = await at('/console/');
    assert.equal(page.status, 200);
    assert.match(await page.text(), /<title>Tasks · task console<\/title>/);

    const controller = new AbortController();
    const stream = await at('/console/events', { signal: controller.signal });
    assert.equal(stream.status, 200);
    const reader = stream.body.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    const until = async (pattern) => {
      const end = Date.now() + 5_000;
      while (!pattern.test(text)) {
        assert.ok(Date.now() < end, `no ${pattern} in the stream: ${text}`);
        const { value, done } = await reader.read();
        assert.equal(done, false, 'the stream ended');
        text += value;
      }
    };
    await until(/event: snapshot\ndata: \{"tasks":\[\]\}/);
    const task = await (await at('/make', { method: 'POST' })).json();
    await until(new RegExp(`event: task\\ndata: \\{"taskId":"${task.taskId}","status":"working".*"tool":"crawl","context":"s1"`));
    const cancel = await at(`/console/tasks/${task.taskId}/cancel`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    assert.equal(cancel.status, 200, await cancel.clone().text());
    await until(new RegExp(`event: task\\ndata: \\{"taskId":"${task.taskId}","status":"cancelled","statusMessage":"Cancelled by an operator"`));
    controller.abort();
  });
});
