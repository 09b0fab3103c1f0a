// examples/node-stdio: spawns the stdio server (copied into a scratch project where the
// packed package is installed, as a user would run it) and drives one task through it:
// initialize, tools/list, a task-augmented tools/call, tasks/get, a tasks/result that waits
// for the 1 s of work, tasks/list. Every message the server sends is schema-validated.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { after, before, test } from 'node:test';
import { RELATED_TASK } from './helpers/checked.mjs';
import { REPO_ROOT, installPackage } from './helpers/package.mjs';
import { ExchangeValidator, assertValid } from './helpers/schema.mjs';

let pkg;
before(() => {
  pkg = installPackage();
  fs.copyFileSync(path.join(REPO_ROOT, 'examples', 'node-stdio', 'server.mjs'), path.join(pkg.dir, 'server.mjs'));
});
after(() => pkg?.cleanup());

test('examples/node-stdio serves one task over stdio', { timeout: 30_000 }, async () => {
  const child = spawn(process.execPath, ['server.mjs'], { cwd: pkg.dir, stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  const inbox = [];
  let wake = null;
  createInterface({ input: child.stdout }).on('line', (line) => {
    inbox.push({ at: Date.now(), line });
    wake?.();
  });
  const v = new ExchangeValidator();
  const send = (msg) => {
    const line = JSON.stringify(msg);
    v.incoming(line);
    child.stdin.write(line + '\n');
  };
  // The next message from the server matching `pred` (others stay queued).
  const receive = async (pred, what, timeoutMs) => {
    const deadline = Date.now() + (timeoutMs ?? 5000);
    for (;;) {
      const i = inbox.findIndex((m) => pred(JSON.parse(m.line)));
      if (i >= 0) {
        const [{ at, line }] = inbox.splice(i, 1);
        return { at, line, msg: JSON.parse(line) };
      }
      if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}; stderr: ${stderr}`);
      await new Promise((resolve) => {
        wake = resolve;
        setTimeout(resolve, 50);
      });
    }
  };
  const byId = (id) => (m) => m.id === id && !('method' in m);

  try {
    // Plain MCP, answered by the example's own code.
    send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'test', version: '0' } } });
    const init = (await receive(byId(1), 'initialize')).msg;
    assertValid('InitializeResult', init.result, 'initialize');
    assert.deepEqual(init.result.capabilities.tasks, { list: {}, cancel: {}, requests: { tools: { call: {} } } });
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    const tools = (await receive(byId(2), 'tools/list')).msg;
    assertValid('ListToolsResult', tools.result, 'tools/list');
    assert.equal(tools.result.tools[0].execution.taskSupport, 'optional');

    // The task.
    const t0 = Date.now();
    send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'slow_echo', arguments: { text: 'hello' }, task: { ttl: 60_000 } } });
    const created = await receive(byId(3), 'CreateTaskResult');
    v.outgoing(created.line);
    assert.ok(created.at - t0 < 900, `CreateTaskResult came at once (${created.at - t0} ms)`);
    const { taskId } = created.msg.result.task;
    send({ jsonrpc: '2.0', id: 4, method: 'tasks/get', params: { taskId } });
    const got = await receive(byId(4), 'tasks/get');
    v.outgoing(got.line);
    assert.equal(got.msg.result.status, 'working');
    send({ jsonrpc: '2.0', id: 5, method: 'tasks/result', params: { taskId } });
    const status = await receive((m) => m.method === 'notifications/tasks/status', 'status notification', 5000);
    v.outgoing(status.line);
    assert.equal(status.msg.params.status, 'completed');
    const result = await receive(byId(5), 'tasks/result', 5000);
    v.outgoing(result.line);
    assert.ok(result.at - t0 >= 900, `tasks/result waited for the work (${result.at - t0} ms)`);
    assert.deepEqual(result.msg.result.content, [{ type: 'text', text: 'echo: hello' }]);
    assert.deepEqual(result.msg.result._meta[RELATED_TASK], { taskId });
    send({ jsonrpc: '2.0', id: 6, method: 'tasks/list' });
    const list = await receive(byId(6), 'tasks/list');
    v.outgoing(list.line);
    assert.deepEqual(list.msg.result.tasks.map((t) => [t.taskId, t.status]), [[taskId, 'completed']]);
    send({ jsonrpc: '2.0', id: 7, method: 'tasks/get', params: { taskId: 'nope' } });
    v.outgoing((await receive(byId(7), 'tasks/get error')).line);
    assert.deepEqual(inbox, [], 'no unexpected messages');
    assert.ok(v.counts.CreateTaskResult === 1 && v.counts.CallToolResult === 1 && v.counts.TaskStatusNotification === 1);
  } finally {
    child.stdin.end();
  }
  const { code } = await exited;
  assert.equal(code, 0, `the server exits cleanly on EOF; stderr: ${stderr}`);
});
