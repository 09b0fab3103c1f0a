// Requesters we did not write, and ours, against the durable SDK 2.x runtime: examples/sdk2-server
// with REDIS_URL (TasksExtension on Redis), run from a scratch project next to the packed
// package. The official requester (@modelcontextprotocol/ext-tasks, examples/sdk2-client) runs
// its whole script (input, cancel while waiting, errors, on 2026-07-28 and 2025-11-25), then
// TaskClient runs a task with input to its result; every task they made is in Redis.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import Redis from 'ioredis';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { JS_TESTS_DIR, REPO_ROOT } from '../helpers/package.mjs';
import { installWithSdk2, listeningUrl, runNode } from '../sdk2/harness.mjs';
import { startRedis } from './lib.mjs';

let pkg;
let mod;
let redis;
let server;
before(async () => {
  redis = await startRedis();
  pkg = installWithSdk2('mcp-task-core-durable-clients-');
  fs.symlinkSync(path.join(JS_TESTS_DIR, 'node_modules', 'ioredis'), path.join(pkg.dir, 'node_modules', 'ioredis'), 'dir');
  for (const [from, to] of [['sdk2-server', 'server.mjs'], ['sdk2-client', 'client.mjs']]) {
    fs.copyFileSync(path.join(REPO_ROOT, 'examples', from, to), path.join(pkg.dir, to));
  }
  mod = await pkg.importEsm();
  server = run('server.mjs', { PORT: '0', STEP_MS: '30', TIME_SCALE: '0.2', REDIS_URL: `redis://127.0.0.1:${redis.port}` });
  server.url = await listeningUrl(server);
});
after(async () => {
  if (server) {
    server.child.kill('SIGTERM');
    await server.exit;
  }
  pkg?.cleanup();
  await redis?.stop();
});

const run = (file, env) => runNode(pkg.dir, file, env);

/** The task IDs Redis holds. */
async function storedTaskIds() {
  const admin = new Redis({ host: '127.0.0.1', port: redis.port });
  try {
    return new Set((await admin.keys('mcp-task:t:*')).map((key) => key.slice('mcp-task:t:'.length)));
  } finally {
    admin.disconnect();
  }
}

test('ext-tasks (the official requester) runs its whole script against the SDK 2.x server on Redis', { timeout: 60_000 }, async () => {
  const client = run('client.mjs', { MCP_URL: server.url });
  const { code } = await client.exit;
  assert.equal(code, 0, `client failed:\n${client.out}\n--- server ---\n${server.out}`);
  assert.match(client.out, /All checks passed\./);
  assert.match(client.out, /<= completed: "2-day packed plan for Lisbon ready"/);
  assert.match(client.out, /<= cancelled/);
  assert.doesNotMatch(server.out, /error:/, 'errors the server reported');
  // The tasks it ran live in Redis.
  const stored = await storedTaskIds();
  const seen = [...client.out.matchAll(/task ([0-9a-f]{8})/g)].map((m) => m[1]);
  assert.ok(seen.length > 0, client.out);
  for (const prefix of seen) assert.ok([...stored].some((id) => id.startsWith(prefix)), `task ${prefix}… in Redis`);
});

test('TaskClient runs a task with input to its result against the SDK 2.x server on Redis', { timeout: 30_000 }, async () => {
  const client = new mod.TaskClient(new StreamableHTTPClientTransport(new URL(server.url)), { capabilities: { elicitation: { form: {} } }, requestor: { pollFloorMs: 10 } });
  try {
    assert.equal(await client.connect(), '2026-07-28');
    const asked = [];
    const done = await client.callTool('confirm_delete', { filename: 'c.txt' }, {
      task: true,
      onInputRequest: (request) => {
        asked.push(request.params.message);
        return { action: 'accept', content: { confirm: true } };
      },
    });
    assert.equal(done.status, 'completed');
    assert.equal(done.result.content[0].text, 'deleted c.txt');
    assert.deepEqual(asked, ['Delete c.txt?']);
    assert.ok((await storedTaskIds()).has(done.taskId), 'the task is in Redis');
  } finally {
    await client.close();
  }
});
