// A Redis outage reaches an SDK 1.x client as the store's clear error by default: a server
// built as the README shows (McpServer + WasmTaskStore on redisStorage, no other call) answers a
// task-augmented tools/call with "-32603 Task storage unavailable: ...", not McpServer's
// "-32602 Invalid task creation result: [zod issues]". The package is used as installed (npm
// pack, the SDK beside it as its peer dependency), from ESM and from CommonJS, on a real
// redis-server that is stopped mid-test.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, test } from 'node:test';
import Redis from 'ioredis';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CreateTaskResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { JS_TESTS_DIR, installPackage } from '../helpers/package.mjs';
import { startRedis } from './lib.mjs';

let pkg;
let redis;
before(async () => {
  pkg = installPackage({ prefix: 'mcp-task-core-outage-' });
  // The peer dependency, as the user's project has it.
  fs.mkdirSync(path.join(pkg.dir, 'node_modules', '@modelcontextprotocol'));
  fs.symlinkSync(path.join(JS_TESTS_DIR, 'node_modules', '@modelcontextprotocol', 'sdk'), path.join(pkg.dir, 'node_modules', '@modelcontextprotocol', 'sdk'), 'dir');
  redis = await startRedis();
});
after(async () => {
  await redis?.stop();
  pkg?.cleanup();
});

/** The installed package's `mcp-task-core/sdk` and `mcp-task-core/redis`, from ESM. */
async function esmPackage() {
  const probe = path.join(pkg.dir, 'outage-probe.mjs');
  fs.writeFileSync(probe, "export * from 'mcp-task-core/sdk';\nexport { redisStorage } from 'mcp-task-core/redis';\n");
  return import(pathToFileURL(probe).href);
}

/** The same from CommonJS, with the SDK's CommonJS build (what a CommonJS server loads). */
function cjsPackage() {
  const user = createRequire(path.join(pkg.dir, 'outage-probe.cjs'));
  const sdk = createRequire(import.meta.url);
  return {
    ...user('mcp-task-core/sdk'),
    redisStorage: user('mcp-task-core/redis').redisStorage,
    sdk: {
      Client: sdk('@modelcontextprotocol/sdk/client/index.js').Client,
      InMemoryTransport: sdk('@modelcontextprotocol/sdk/inMemory.js').InMemoryTransport,
      McpServer: sdk('@modelcontextprotocol/sdk/server/mcp.js').McpServer,
      CreateTaskResultSchema: sdk('@modelcontextprotocol/sdk/types.js').CreateTaskResultSchema,
    },
  };
}

/**
 * A README server on Redis and an SDK client: a task is created while Redis is up; Redis is
 * stopped; the next task-augmented call fails. Returns that failure.
 */
async function callDuringOutage({ WasmTaskStore, WasmTaskMessageQueue, redisStorage }, { Client, InMemoryTransport, McpServer, CreateTaskResultSchema }, prefix) {
  const connection = new Redis({ port: redis.port, host: '127.0.0.1' });
  connection.on('error', () => {}); // refused connections while Redis is stopped: expected
  const taskStore = new WasmTaskStore({ storage: redisStorage(connection, { prefix }), storageTimeoutMs: 500 });
  const server = new McpServer(
    { name: 'outage', version: '1.0.0' },
    {
      taskStore,
      taskMessageQueue: new WasmTaskMessageQueue({ taskStore }),
      capabilities: { tools: {}, tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } },
    },
  );
  server.experimental.tasks.registerToolTask(
    'report',
    { description: 'A report made in the background', execution: { taskSupport: 'required' } },
    {
      createTask: async (extra) => ({ task: await extra.taskStore.createTask({ ttl: 60_000 }) }),
      getTask: async (extra) => extra.taskStore.getTask(extra.taskId),
      getTaskResult: async (extra) => extra.taskStore.getTaskResult(extra.taskId),
    },
  );
  const client = new Client({ name: 'outage-client', version: '1.0.0' });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  await client.connect(clientSide);
  const call = () => client.request({ method: 'tools/call', params: { name: 'report', arguments: {}, task: { ttl: 60_000 } } }, CreateTaskResultSchema);
  try {
    assert.equal((await call()).task.status, 'working', 'a task is created while Redis is up');
    await redis.kill();
    try {
      await call();
    } catch (err) {
      return err;
    }
    assert.fail('a task was created with Redis stopped');
  } finally {
    await client.close();
    await server.close();
    taskStore.cleanup();
    connection.disconnect();
    if (redis.child.exitCode !== null || redis.child.signalCode !== null) await redis.start();
  }
}

function assertClearError(err) {
  assert.equal(err.code, -32603, `-32603, got ${err.code}: ${err.message}`);
  assert.match(err.message, /^MCP error -32603: Task storage unavailable: /);
  assert.doesNotMatch(err.message, /Invalid task creation result|expected/);
}

test('ESM: a stopped Redis reaches the client as -32603 "Task storage unavailable" (no extra call on the server)', { timeout: 30_000 }, async () => {
  const err = await callDuringOutage(await esmPackage(), { Client, InMemoryTransport, McpServer, CreateTaskResultSchema }, 'outage-esm:');
  assertClearError(err);
});

test('CommonJS: the same', { timeout: 30_000 }, async () => {
  const { sdk, ...ours } = cjsPackage();
  const err = await callDuringOutage(ours, sdk, 'outage-cjs:');
  assertClearError(err);
});
