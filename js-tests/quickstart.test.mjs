// examples/quickstart, run as a new user runs it: the three files are copied into a scratch
// project where the packed package is installed (the SDKs and zod of js-tests beside it).
// - sdk-server-and-client.mjs runs to its end; its printed lifecycle is checked.
// - engine-loop.mjs is spawned and driven over stdio; every message it sends is schema-validated.
// - browser/main.js is bundled with esbuild and opened in headless Chromium against
//   examples/sdk-server (SDK 1.x) and examples/sdk2-server (SDK 2.x): a call shows its progress
//   and result, and Cancel on a second call ends with the server holding the task cancelled.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { after, before, test } from 'node:test';
import esbuild from 'esbuild';
import { withChromium } from './helpers/browser.mjs';
import { RELATED_TASK } from './helpers/checked.mjs';
import { JS_TESTS_DIR, REPO_ROOT, installPackage } from './helpers/package.mjs';
import { ExchangeValidator, assertValid } from './helpers/schema.mjs';
import { startSdkServer } from './requestor/sdk-server.mjs';
import { modernClient } from './sdk2/harness.mjs';

const QUICKSTART = path.join(REPO_ROOT, 'examples', 'quickstart');
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let pkg;
let sdk1;
let sdk2;

/** Starts examples/sdk2-server from the scratch project; resolves to { url, stop }. */
async function startSdk2Server() {
  fs.copyFileSync(path.join(REPO_ROOT, 'examples', 'sdk2-server', 'server.mjs'), path.join(pkg.dir, 'sdk2-server.mjs'));
  const child = spawn(process.execPath, ['sdk2-server.mjs'], { cwd: pkg.dir, env: { ...process.env, PORT: '0', STEP_MS: '40' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stderr.on('data', (d) => (output += d));
  const url = await new Promise((resolve, reject) => {
    child.stdout.on('data', (d) => {
      output += d;
      const m = /listening on (http:\S+)/.exec(output);
      if (m) resolve(m[1]);
    });
    child.on('exit', (code) => reject(new Error(`examples/sdk2-server exited (${code}):\n${output}`)));
  });
  const exited = new Promise((resolve) => child.on('exit', resolve));
  return { url, stop: () => (child.kill('SIGTERM'), exited) };
}

before(async () => {
  pkg = installPackage({ prefix: 'mcp-task-core-quickstart-' });
  for (const dep of ['@modelcontextprotocol', 'zod']) {
    fs.symlinkSync(path.join(JS_TESTS_DIR, 'node_modules', dep), path.join(pkg.dir, 'node_modules', dep), 'dir');
  }
  fs.cpSync(QUICKSTART, pkg.dir, { recursive: true });
  await bundlePage();
  sdk1 = await startSdkServer(pkg, { stepMs: 100 });
  sdk2 = await startSdk2Server();
});

after(async () => {
  await sdk1?.stop();
  await sdk2?.stop();
  pkg?.cleanup();
});

/** Runs `node file` in the scratch project to its end: { code, stdout, stderr }. */
function runScript(file) {
  const child = spawn(process.execPath, [file], { cwd: pkg.dir, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stdout, stderr })));
}

test('quickstart/sdk-server-and-client.mjs: an SDK 1.x McpServer on WasmTaskStore, a TaskClient calling its tool as a task', { timeout: 30_000 }, async () => {
  const { code, stdout, stderr } = await runScript('sdk-server-and-client.mjs');
  assert.equal(code, 0, `exit code; stderr:\n${stderr}`);
  const lines = stdout.trim().split('\n');
  assert.equal(lines[0], 'protocol 2025-11-25');
  const [created, taskId] = lines[1].split(' ');
  assert.equal(created, 'created');
  assert.match(taskId, UUID);
  const statuses = lines.slice(2, -1);
  assert.ok(statuses.length >= 2, `status lines:\n${stdout}`);
  for (const line of statuses) assert.match(line, /^status (working read [1-5] of 5 words|completed ?)$/);
  assert.ok(statuses.some((line) => line.startsWith('status working read')), 'a status message of the work');
  assert.equal(statuses.at(-1).trim(), 'status completed');
  assert.equal(lines.at(-1), 'finished completed 5 words');
});

test('quickstart/engine-loop.mjs: a bare TaskEngine loop serves a task over stdio', { timeout: 30_000 }, async () => {
  const child = spawn(process.execPath, ['engine-loop.mjs'], { cwd: pkg.dir, stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const exited = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const v = new ExchangeValidator();
  const send = (message) => {
    const line = JSON.stringify(message);
    v.incoming(line);
    child.stdin.write(line + '\n');
  };
  // The next message; `type`: the schema of a result the example answers itself (not the engine).
  const receive = async (type) => {
    const { value, done } = await lines.next();
    assert.equal(done, false, `the server closed its output; stderr:\n${stderr}`);
    const message = JSON.parse(value);
    if (type) assertValid(type, message.result, type);
    else v.outgoing(value);
    return message;
  };
  try {
    send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'test', version: '0' } } });
    assert.deepEqual((await receive('InitializeResult')).result.capabilities.tasks, { list: {}, cancel: {}, requests: { tools: { call: {} } } });
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    assert.equal((await receive('ListToolsResult')).result.tools[0].execution.taskSupport, 'required');

    send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'shout', arguments: { text: 'tasks' }, task: { ttl: 60_000 } } });
    const created = await receive();
    assert.equal(created.id, 3);
    assert.equal(created.result.task.status, 'working');
    const { taskId } = created.result.task;
    const working = await receive();
    assert.equal(working.method, 'notifications/tasks/status');
    assert.deepEqual([working.params.taskId, working.params.status, working.params.statusMessage], [taskId, 'working', 'shouting']);

    send({ jsonrpc: '2.0', id: 4, method: 'tasks/result', params: { taskId } }); // waits for the work
    const completed = await receive();
    assert.deepEqual([completed.method, completed.params.status], ['notifications/tasks/status', 'completed']);
    const result = await receive();
    assert.equal(result.id, 4);
    assert.deepEqual(result.result.content, [{ type: 'text', text: 'TASKS' }]);
    assert.deepEqual(result.result._meta[RELATED_TASK], { taskId });

    send({ jsonrpc: '2.0', id: 5, method: 'tasks/get', params: { taskId: 'no-such-task' } });
    assert.equal((await receive()).error.code, -32602);
    assert.equal(v.counts.CreateTaskResult, 1);
    assert.equal(v.counts.CallToolResult, 1);
  } finally {
    child.stdin.end();
  }
  assert.equal(await exited, 0, `exits on EOF; stderr:\n${stderr}`);
});

/** main.js bundled as a user would (esbuild, the .wasm as a file), beside index.html. */
function bundlePage() {
  const dir = path.join(pkg.dir, 'browser');
  return esbuild.build({
    entryPoints: [path.join(dir, 'main.js')],
    outdir: path.join(dir, 'dist'),
    bundle: true,
    format: 'esm',
    platform: 'browser',
    loader: { '.wasm': 'file' },
    logLevel: 'silent',
  });
}

/**
 * Opens the page against `serverUrl` (passed through the static server, so the page reaches it
 * same-origin), runs `first` to its result, then `second` and clicks Cancel once its task exists.
 * Returns the log lines, the progress bar and the second task's id.
 */
async function drivePage(serverUrl, first, second) {
  return withChromium(
    async (page, baseUrl) => {
      const logLines = () => page.$$eval('#log li', (items) => items.map((li) => li.textContent));
      // Waits until the log's lines satisfy `test` (source of a function of the lines), showing them if never.
      const waitForLog = (test) =>
        page.waitForFunction((src) => new Function('lines', `return (${src})(lines)`)([...document.querySelectorAll('#log li')].map((li) => li.textContent)), test.toString()).catch(async (err) => {
          err.message += `\n--- page log ---\n${(await logLines()).join('\n')}`;
          throw err;
        });
      await page.goto(`${baseUrl}/index.html?server=${encodeURIComponent(`${baseUrl}/mcp`)}`);
      await page.waitForSelector('#run:not([disabled])');
      const protocol = await page.$eval('#protocol', (o) => o.value);

      await page.fill('#tool', first.tool);
      await page.fill('#args', JSON.stringify(first.args));
      await page.click('#run');
      await waitForLog((lines) => lines.some((line) => /^(result|error|cancelled)/.test(line)));
      const firstLog = await logLines();
      const progress = await page.$eval('#progress', (p) => ({ value: p.value, max: p.max }));

      await page.fill('#tool', second.tool);
      await page.fill('#args', JSON.stringify(second.args));
      await page.click('#run');
      await waitForLog((lines) => lines.filter((line) => line.endsWith(' created')).length === 2);
      await page.click('#cancel');
      await waitForLog((lines) => lines.some((line) => line.startsWith('server: task')));
      const secondLog = (await logLines()).slice(firstLog.length);
      const taskId = /^task (\S+) created$/.exec(secondLog.find((line) => line.endsWith(' created')))[1];
      return { protocol, firstLog, progress, secondLog, taskId };
    },
    { mounts: { '/': path.join(pkg.dir, 'browser') }, proxies: { '/mcp': new URL(serverUrl).origin } },
  );
}

test('Chromium: the quickstart page over the SDK 2.x StreamableHTTPClientTransport against examples/sdk-server (SDK 1.x)', { timeout: 90_000 }, async () => {
  const { protocol, firstLog, progress, secondLog, taskId } = await drivePage(
    sdk1.url,
    { tool: 'process_files', args: { files: 5 } },
    { tool: 'process_files', args: { files: 100 } },
  );
  assert.equal(protocol, '2025-11-25');
  assert.match(firstLog[0], /^task \S+ created$/);
  // Progress notifications, in order, and the bar at the last of them.
  const steps = firstLog.filter((line) => line.startsWith('progress')).map((line) => Number(/^progress (\d)\/5 \(file \1\)$/.exec(line)?.[1]));
  assert.ok(steps.length >= 1 && steps.every((n, i) => n >= 1 && (i === 0 || n > steps[i - 1])), firstLog.join('\n'));
  assert.deepEqual(progress, { value: steps.at(-1), max: 5 });
  assert.ok(firstLog.some((line) => /^working: processed [1-5]\/5 files$/.test(line)), firstLog.join('\n'));
  assert.equal(firstLog.at(-1), 'result (completed): Processed 5 files');

  assert.ok(secondLog.includes('cancelled'), secondLog.join('\n'));
  assert.ok(secondLog.includes(`server: task ${taskId} cancelled`), secondLog.join('\n'));
  // The server's own log: the work noticed the cancel and stopped.
  for (let i = 0; !sdk1.logs.join('').includes(`task ${taskId.slice(0, 8)}: cancelled by the client`); i++) {
    assert.ok(i < 20_000, `the server never saw the cancel:\n${sdk1.logs.join('')}`);
    await new Promise((r) => setTimeout(r, 1));
  }
});

test('Chromium: the quickstart page over the SDK 2.x StreamableHTTPClientTransport against examples/sdk2-server (tasks extension)', { timeout: 90_000 }, async () => {
  const { protocol, firstLog, secondLog, taskId } = await drivePage(
    sdk2.url,
    { tool: 'slow_compute', args: { seconds: 1, label: 'sum' } },
    { tool: 'slow_compute', args: { seconds: 60 } },
  );
  assert.equal(protocol, '2026-07-28');
  assert.match(firstLog[0], /^task \S+ created$/);
  // The tasks extension has no progress notifications: its status messages show the progress.
  assert.ok(firstLog.includes('working: computing sum for 1 s'), firstLog.join('\n'));
  assert.equal(firstLog.at(-1), 'result (completed): computed sum after 1 s');

  assert.ok(secondLog.includes('cancelled'), secondLog.join('\n'));
  assert.ok(secondLog.includes(`server: task ${taskId} cancelled`), secondLog.join('\n'));
  // Asked independently of the page: tasks/get on the server.
  const task = await modernClient({ fetch: (request) => fetch(request) }, { url: sdk2.url }).result('tasks/get', { taskId });
  assert.equal(task.status, 'cancelled');
});
