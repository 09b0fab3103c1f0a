// The task console (mcp-task-core/console) in headless Chromium against a real SDK 1.x server:
// McpServer over Streamable HTTP with sessions, its WasmTaskStore on a real redis-server, the
// console mounted on the same Node HTTP server. Tasks created by two clients (two sessions)
// appear on the page; a status change shows without a reload; a cancel from the page reaches
// the running work; requests without the host's authorization, or with no authorize callback at
// all, are refused (403).
//
// UPDATE_SCREENSHOT=1 writes the page's screenshot to docs/console.png (the README shows it).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { execFileSync } from 'node:child_process';
import { after, before, test } from 'node:test';
import Redis from 'ioredis';
import { z } from 'zod';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CreateTaskResultSchema, GetTaskResultSchema, isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { withChromium } from './helpers/browser.mjs';
import { JS_TESTS_DIR, REPO_ROOT, installPackage } from './helpers/package.mjs';
import { startRedis, until } from './durable/lib.mjs';

const COOKIE = 'console-session=opensesame';
let pkg;
let redis;
let redisClient;
let host;

/** An SDK 1.x server with sessions, its store on Redis, and the console at /console. */
async function startHost() {
  const sdk = await import(pathToFileURL(path.join(pkg.installed, 'adapters/sdk-v1.js')).href);
  const { redisStorage } = await import(pathToFileURL(path.join(pkg.installed, 'storage/redis.js')).href);
  const { taskConsole, sdkOperatorView } = await import(pathToFileURL(path.join(pkg.installed, 'console/console.js')).href);
  const taskStore = new sdk.WasmTaskStore({ storage: redisStorage(redisClient), pollIntervalMs: 200, leaseMs: 3000, defaultTtlMs: 600_000 });
  const view = sdkOperatorView(taskStore);
  const authorizeCalls = [];
  const consoleHandler = taskConsole(view, {
    title: 'demo server',
    authorize: (request) => {
      authorizeCalls.push(request.url);
      return (request.headers.get('cookie') ?? '').split(/;\s*/).includes(COOKIE);
    },
  });
  const aborted = new Set();
  const controllers = new Map();
  taskStore.onTaskCancelled((taskId) => controllers.get(taskId)?.abort());
  /** Gates the test opens: taskId -> resolve. */
  const gates = new Map();

  const buildServer = () => {
    const server = new McpServer(
      { name: 'console-demo', version: '1.0.0' },
      { capabilities: { tools: {}, tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } }, taskStore, defaultTaskPollInterval: 200 },
    );
    const tool = (name, run) =>
      server.experimental.tasks.registerToolTask(name, { inputSchema: { label: z.string() }, execution: { taskSupport: 'required' } }, {
        createTask: async (args, extra) => {
          const task = await extra.taskStore.createTask({ ttl: extra.taskRequestedTtl });
          const controller = new AbortController();
          controllers.set(task.taskId, controller);
          // The request's own store view (scoped to its session), as SDK task tools use it.
          run(task.taskId, args, controller.signal, extra.taskStore).catch(() => {});
          return { task };
        },
        getTask: async (_args, extra) => extra.taskStore.getTask(extra.taskId),
        getTaskResult: async (_args, extra) => extra.taskStore.getTaskResult(extra.taskId),
      });
    // Works in steps (a status message each) until cancelled.
    tool('index_repository', async (id, { label }, signal, store) => {
      for (let step = 1; !signal.aborted; step++) {
        await store.updateTaskStatus(id, 'working', `${label}: indexed ${step * 120} files`);
        await new Promise((resolve) => {
          const t = setTimeout(resolve, 300);
          signal.addEventListener('abort', () => (clearTimeout(t), resolve()), { once: true });
        });
      }
      aborted.add(id);
    });
    // Waits for the test to open its gate, then completes.
    tool('export_report', async (id, { label }, _signal, store) => {
      await store.updateTaskStatus(id, 'working', `${label}: waiting for the exporter`);
      await new Promise((resolve) => gates.set(id, resolve));
      await store.storeTaskResult(id, 'completed', { content: [{ type: 'text', text: `${label}: 3 pages exported` }] });
    });
    return server;
  };

  const sessions = new Map();
  const server = http.createServer(async (req, res) => {
    if (req.url.startsWith('/console')) return consoleHandler.node(req, res);
    try {
      const sid = req.headers['mcp-session-id'];
      if (sid) {
        const transport = sessions.get(sid);
        if (!transport) return res.writeHead(404).end('no session');
        let body;
        if (req.method === 'POST') {
          let text = '';
          for await (const chunk of req) text += chunk;
          body = JSON.parse(text);
        }
        return await transport.handleRequest(req, res, body);
      }
      let text = '';
      for await (const chunk of req) text += chunk;
      const body = JSON.parse(text);
      if (!isInitializeRequest(body)) return res.writeHead(400).end('no session');
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), onsessioninitialized: (id) => sessions.set(id, transport) });
      await buildServer().connect(transport);
      await transport.handleRequest(req, res, body);
    } catch (err) {
      if (!res.headersSent) res.writeHead(500).end(String(err?.message ?? err));
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${server.address().port}`;
  return {
    url,
    taskStore,
    view,
    consoleHandler,
    authorizeCalls,
    aborted,
    gates,
    async close() {
      consoleHandler.close();
      for (const transport of sessions.values()) await transport.close().catch(() => {});
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      taskStore.cleanup();
    },
  };
}

async function connectClient(name) {
  const client = new Client({ name, version: '1.0.0' }, { capabilities: { tasks: { list: {}, cancel: {} } } });
  const transport = new StreamableHTTPClientTransport(new URL(`${host.url}/mcp`));
  await client.connect(transport);
  const call = async (tool, label) => {
    const { task } = await client.request({ method: 'tools/call', params: { name: tool, arguments: { label }, task: { ttl: 120_000 } } }, CreateTaskResultSchema);
    return task.taskId;
  };
  const get = (taskId) => client.request({ method: 'tasks/get', params: { taskId } }, GetTaskResultSchema);
  return { client, sessionId: transport.sessionId, call, get, close: () => client.close() };
}

before(async () => {
  pkg = installPackage();
  redis = await startRedis();
  redisClient = new Redis({ host: '127.0.0.1', port: redis.port, maxRetriesPerRequest: 2 });
  host = await startHost();
});
after(async () => {
  await host?.close();
  redisClient?.disconnect();
  await redis?.stop();
  pkg?.cleanup();
});

test('the package ships mcp-task-core/console (ESM, types)', () => {
  for (const f of ['console/console.js', 'console/console-page.js', 'types/console.d.ts', 'runtime/operator-view.js', 'types/operator-view.d.ts']) assert.ok(pkg.files.includes(f), `${f} in the tarball`);
  assert.deepEqual(pkg.packageJson.exports['./console'], { types: './types/console.d.ts', import: './console/console.js', default: './console/console.js' });
});

test('types: tsc accepts a host of the console (fetch and Node handlers, a view of its own) and refuses a wrong view', () => {
  fs.symlinkSync(path.join(JS_TESTS_DIR, 'node_modules', '@modelcontextprotocol'), path.join(pkg.dir, 'node_modules', '@modelcontextprotocol'));
  fs.symlinkSync(path.join(JS_TESTS_DIR, 'node_modules', 'zod'), path.join(pkg.dir, 'node_modules', 'zod'));
  const check = `import http from 'node:http';
import { WasmTaskStore } from 'mcp-task-core/sdk';
import { TasksExtension } from 'mcp-task-core/server';
import { sdkOperatorView, taskConsole, tasksExtensionOperatorView, type OperatorInputRequest, type OperatorView, type OperatorTask } from 'mcp-task-core/console';
const page = taskConsole(sdkOperatorView(new WasmTaskStore()), { authorize: async (request: Request) => request.headers.get('cookie') === 'ops=1', basePath: '/ops', pollMs: 1000, title: 'ops' });
http.createServer((req, res) => void page.node(req, res));
const answer: Promise<Response> = page.fetch(new Request('http://h/ops/'));
const tasks: OperatorTask[] = [];
const mine: OperatorView = { list: async () => tasks, get: async () => null, cancel: async () => {} };
taskConsole(mine).close();
const sdk2View = tasksExtensionOperatorView(new TasksExtension());
taskConsole(sdk2View, { authorize: () => false }).close();
const pending: Promise<OperatorInputRequest[] | null> = sdk2View.input('t');
const answered: Promise<void> = sdk2View.answer('t', '"r1"', { action: 'accept', content: { name: 'Ada' } });
const answering: OperatorView = { ...mine, input: async () => [{ requestId: '1', method: 'elicitation/create', params: {} }], answer: async () => {} };
taskConsole(answering).close();
void pending, answered;
// @ts-expect-error an answer is a result object
void sdk2View.answer('t', '"r1"', 'yes');
void answer;
// @ts-expect-error a view needs cancel
taskConsole({ list: async () => tasks, get: async () => null });
// @ts-expect-error authorize answers a boolean
taskConsole(mine, { authorize: () => 'yes' });
`;
  fs.writeFileSync(path.join(pkg.dir, 'console-check.mts'), check);
  // --skipLibCheck keeps the run short (the SDK's .d.ts are big) but skips our declaration file
  // too: a copy of it is checked as a source in the same run.
  const decl = fs.readFileSync(path.join(pkg.installed, 'types/console.d.ts'), 'utf8');
  fs.writeFileSync(path.join(pkg.dir, 'console-decl.mts'), decl.replaceAll("'./operator-view.js'", "'./operator-view-decl.mjs'"));
  fs.writeFileSync(path.join(pkg.dir, 'operator-view-decl.mts'), fs.readFileSync(path.join(pkg.installed, 'types/operator-view.d.ts'), 'utf8'));
  const tsc = path.join(JS_TESTS_DIR, 'node_modules', 'typescript', 'bin', 'tsc');
  const args = ['--noEmit', '--strict', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2022', '--lib', 'es2022,dom', '--types', 'node', '--skipLibCheck', '--typeRoots', path.join(JS_TESTS_DIR, 'node_modules', '@types')];
  try {
    execFileSync(process.execPath, [tsc, ...args, 'console-check.mts', 'console-decl.mts', 'operator-view-decl.mts'], { cwd: pkg.dir, encoding: 'utf8', timeout: 60_000 });
  } catch (err) {
    assert.fail(`tsc failed:\n${err.stdout}${err.stderr}`);
  }
});

test('closed by default: without authorize every request is refused; with it, only what it allows', async () => {
  const { taskConsole } = await import(pathToFileURL(path.join(pkg.installed, 'console/console.js')).href);
  const closed = taskConsole(host.view);
  for (const [method, route] of [['GET', '/console/'], ['GET', '/console/events'], ['GET', '/console/tasks'], ['POST', '/console/tasks/x/cancel']]) {
    const res = await closed.fetch(new Request(`http://h${route}`, { method, headers: { cookie: COOKIE, 'content-type': 'application/json' }, body: method === 'POST' ? '{}' : undefined }));
    assert.equal(res.status, 403, `${method} ${route} without authorize`);
    assert.deepEqual(await res.json(), { error: 'Forbidden' });
  }
  // A throwing or non-boolean authorize refuses too.
  for (const authorize of [() => { throw new Error('auth backend down'); }, async () => 'yes', () => 1]) {
    const res = await taskConsole(host.view, { authorize, onerror: () => {} }).fetch(new Request('http://h/console/tasks'));
    assert.equal(res.status, 403);
  }
  // Over HTTP on the host: no cookie, a wrong cookie -> 403 and nothing listed; the right one -> 200.
  const get = (route, cookie) => fetch(`${host.url}${route}`, { headers: cookie ? { cookie } : {} });
  for (const cookie of [undefined, 'console-session=guess']) {
    for (const route of ['/console/', '/console/events', '/console/tasks']) {
      const res = await get(route, cookie);
      assert.equal(res.status, 403, `${route} with cookie ${cookie}`);
      assert.doesNotMatch(await res.text(), /taskId|<html/);
    }
  }
  const cancel = await fetch(`${host.url}/console/tasks/x/cancel`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  assert.equal(cancel.status, 403);
  const page = await get('/console/', COOKIE);
  assert.equal(page.status, 200);
  assert.match(page.headers.get('content-security-policy'), /default-src 'none'/);
  assert.match(await page.text(), /<title>demo server · task console<\/title>/);
  const list = await get('/console/tasks', COOKIE);
  assert.equal(list.status, 200);
  assert.ok(Array.isArray((await list.json()).tasks));
  // With the cookie, a cancel still needs the page's JSON request (no cross-site form post).
  const form = await fetch(`${host.url}/console/tasks/x/cancel`, { method: 'POST', headers: { cookie: COOKIE, 'content-type': 'application/x-www-form-urlencoded' }, body: 'a=1' });
  assert.equal(form.status, 403);
  // SDK 1.x's view has no input/answer: the answer route says so.
  const answer = await fetch(`${host.url}/console/tasks/x/answer`, { method: 'POST', headers: { cookie: COOKIE, 'content-type': 'application/json' }, body: '{"requestId":"1","result":{}}' });
  assert.equal(answer.status, 404);
  assert.match((await answer.json()).error, /does not answer input requests/);
  assert.ok(host.authorizeCalls.length >= 8);
});

test('chromium: tasks of two sessions appear live, a status change shows without reload, a cancel from the page stops the work', { timeout: 60_000 }, async () => {
  const alice = await connectClient('alice');
  const bob = await connectClient('bob');
  try {
    await withChromium(async (page) => {
      await page.setViewportSize({ width: 1180, height: 560 });
      await page.context().addCookies([{ name: 'console-session', value: 'opensesame', url: host.url }]);
      const nav = [];
      page.on('framenavigated', (frame) => frame === page.mainFrame() && nav.push(frame.url()));
      await page.goto(`${host.url}/console`);
      assert.equal(new URL(page.url()).pathname, '/console/', 'redirected to the page');
      assert.equal(await page.locator('h1').innerText(), 'demo server');
      await page.waitForSelector('#conn[data-state=live]');
      await page.evaluate(() => (window.sameDocument = true));
      const row = (id) => page.locator(`tr[data-task-id="${id}"]`);

      // Created by clients after the page opened: they appear, with tool and session.
      const indexing = await alice.call('index_repository', 'mcp-task-core');
      const exporting = await bob.call('export_report', 'Q3 report');
      const other = await alice.call('export_report', 'weekly digest');
      await row(indexing).waitFor();
      await row(exporting).waitFor();
      await row(other).waitFor();
      const cells = async (id) => (await row(id).locator('td').allInnerTexts()).map((s) => s.trim());
      const first = await cells(indexing);
      assert.equal(first[1], 'index_repository');
      assert.equal(first[2], alice.sessionId.slice(0, 8) + '…');
      assert.equal(await row(indexing).locator('td').nth(2).getAttribute('title'), alice.sessionId);
      assert.equal(await row(exporting).locator('td').nth(2).getAttribute('title'), bob.sessionId);
      assert.match(first[5], /^\d+:\d\d$/, 'a TTL countdown');
      // The status messages of the running work follow without a reload.
      await until(async () => /indexed 360 files/.test((await cells(indexing))[4]), 'the third status message of index_repository').catch(async (err) => {
        err.message += ` (row: ${JSON.stringify(await cells(indexing))}; listed: ${JSON.stringify(await host.view.list())})`;
        throw err;
      });

      // A status change: the work completes; the row turns completed, the result shows.
      await until(() => host.gates.has(exporting), 'export_report waiting');
      host.gates.get(exporting)();
      await page.waitForSelector(`tr[data-task-id="${exporting}"][data-status=completed]`);
      await row(exporting).locator('button.id').click();
      await page.waitForSelector('#detail-body pre.outcome');
      assert.match(await page.locator('#detail-body pre.outcome').innerText(), /Q3 report: 3 pages exported/);
      // The timeline: working (with its status message), then completed.
      const timeline = await page.locator('#detail-body ol.timeline li').allInnerTexts();
      assert.match(timeline.at(-2), /working Q3 report: waiting for the exporter$/);
      assert.match(timeline.at(-1), /completed$/);
      assert.equal((await bob.get(exporting)).status, 'completed');

      // Cancel from the page: the work's AbortSignal fires, the client sees cancelled.
      assert.equal(host.aborted.has(indexing), false);
      // By keyboard: the focus stays on the button while the row updates under it.
      const cancelButton = row(indexing).getByRole('button', { name: `Cancel task ${indexing}` });
      await cancelButton.focus();
      const message = (await cells(indexing))[4];
      await until(async () => (await cells(indexing))[4] !== message, 'a status message while the button has the focus');
      assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), `Cancel task ${indexing}`);
      await page.keyboard.press('Enter');
      await page.waitForSelector(`tr[data-task-id="${indexing}"][data-status=cancelled]`);
      await until(() => host.aborted.has(indexing), 'the work of the cancelled task to stop');
      const seen = await alice.get(indexing);
      assert.equal(seen.status, 'cancelled');
      assert.equal(seen.statusMessage, 'Cancelled from the task console');
      assert.match(await page.locator('#announce').innerText(), /Cancel sent|cancelled/);

      // Filters: by status, then by context (the session).
      await page.selectOption('#f-status', 'completed');
      assert.deepEqual(await page.locator('tbody tr').evaluateAll((rows) => rows.map((r) => r.dataset.taskId)), [exporting]);
      await page.selectOption('#f-status', '');
      await page.selectOption('#f-context', alice.sessionId);
      assert.deepEqual((await page.locator('tbody tr').evaluateAll((rows) => rows.map((r) => r.dataset.taskId))).sort(), [indexing, other].sort());
      await page.selectOption('#f-context', '');
      await page.selectOption('#f-tool', 'export_report');
      assert.deepEqual((await page.locator('tbody tr').evaluateAll((rows) => rows.map((r) => r.dataset.taskId))).sort(), [exporting, other].sort());
      await page.selectOption('#f-tool', '');

      // All of it in one document: no reload, no navigation after the first.
      assert.equal(await page.evaluate(() => window.sameDocument), true);
      assert.equal(nav.length, 1, nav.join(', '));

      const shot = process.env.UPDATE_SCREENSHOT ? path.join(REPO_ROOT, 'docs', 'console.png') : path.join(os.tmpdir(), `console-${process.pid}.png`);
      fs.mkdirSync(path.dirname(shot), { recursive: true });
      await row(exporting).locator('button.id').click();
      await page.screenshot({ path: shot });
      assert.deepEqual([...fs.readFileSync(shot).subarray(1, 4)], [0x50, 0x4e, 0x47]);
      if (!process.env.UPDATE_SCREENSHOT) fs.rmSync(shot);
    });
  } finally {
    for (const id of host.gates.keys()) host.gates.get(id)();
    await alice.close();
    await bob.close();
  }
});
