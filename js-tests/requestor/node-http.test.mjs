// The requestor role in Node: mcp-task-core's TaskRequestor (through the small fetch-based
// client in examples/http-requestor) against the official SDK 1.x server of examples/sdk-server
// over Streamable HTTP on 127.0.0.1. No SDK on this side.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { installPackage } from '../helpers/package.mjs';
import { McpHttpClient } from '../../examples/http-requestor/mcp-http.js';
import { startSdkServer } from './sdk-server.mjs';

let pkg;
let mcp;
let server;
let client;

before(async () => {
  pkg = installPackage();
  mcp = await pkg.importEsm();
  server = await startSdkServer(pkg);
  client = new McpHttpClient(mcp, server.url);
  await client.connect();
});

after(async () => {
  client?.close();
  await server?.stop();
  pkg?.cleanup();
});

const text = (outcome) => outcome.response.result?.content?.[0]?.text;

test('the server declares tool tasks; the decision follows taskSupport', () => {
  assert.deepEqual(Object.keys(client.capabilities.tasks.requests), ['tools']);
  const caps = JSON.stringify(client.capabilities);
  assert.equal(mcp.shouldAugment(caps, 'tools/call', 'required', false).augment, true);
  assert.equal(mcp.shouldAugment(caps, 'tools/call', 'optional', false).augment, false);
  assert.equal(mcp.shouldAugment(caps, 'tools/call', 'forbidden', true).augment, false);
  assert.equal(mcp.shouldAugment(caps, 'tools/call', undefined, true).augment, false);
});

test('a required-task tool runs as a task, polled to completion', async () => {
  const outcome = await client.callTool('process_files', { files: 3 });
  assert.equal(outcome.kind, 'task');
  assert.equal(outcome.status, 'completed');
  assert.equal(text(outcome), 'Processed 3 files');
  assert.equal(outcome.response.result._meta['io.modelcontextprotocol/related-task'].taskId, outcome.taskId);
});

test('elicitation mid-task reaches the requestor and the answer reaches the tool', async () => {
  const asked = [];
  const outcome = await client.callTool('book_table', { restaurant: 'Chez Rust' }, {
    onInput: (request) => {
      asked.push(request);
      return { action: 'accept', content: { name: 'Ferris', partySize: 4 } };
    },
  });
  assert.equal(asked.length, 1);
  assert.equal(asked[0].method, 'elicitation/create');
  assert.equal(asked[0].params._meta['io.modelcontextprotocol/related-task'].taskId, outcome.taskId);
  assert.equal(outcome.status, 'completed');
  assert.match(text(outcome), /Table for 4 at Chez Rust, under "Ferris"/);
});

test('a tool error fails the task and the tool result is handed over as is', async () => {
  const outcome = await client.callTool('read_config', { path: '/etc/nope' });
  assert.equal(outcome.status, 'failed');
  assert.equal(outcome.response.result.isError, true);
  assert.match(text(outcome), /no such file/);
});

test('a JSON-RPC error is handed over exactly as tasks/result returned it', async () => {
  const outcome = await client.callTool('charge_card', { amount: 12 });
  assert.equal(outcome.status, 'failed');
  assert.equal(outcome.response.error.code, -32010);
  assert.deepEqual(outcome.response.error.data, { reason: 'insufficient_funds', retryable: false });
});

test('optional and forbidden tools are called plainly when the host prefers', async () => {
  const plain = await client.callTool('word_count', { text: 'one two three' }, { preferTask: false });
  assert.equal(plain.kind, 'plain');
  assert.equal(plain.response.result.content[0].text, '3 words');
  const asTask = await client.callTool('word_count', { text: 'one two' });
  assert.equal(asTask.kind, 'task');
  assert.equal(text(asTask), '2 words');
  const echo = await client.callTool('echo', { text: 'hi' });
  assert.equal(echo.kind, 'plain');
  assert.equal(echo.response.result.content[0].text, 'hi');
});

test('list and cancel through the requestor', async () => {
  const started = client.callTool('process_files', { files: 50 });
  const created = await client.next('created');
  const cancelled = client.next('cancelAnswered');
  const finished = client.next('finished');
  client.requestor.cancel(created.taskId);
  client.pump();
  assert.equal(JSON.parse((await cancelled).response).result.status, 'cancelled');
  assert.deepEqual(await started, { kind: 'cancelled', taskId: created.taskId });
  // It ends like every task, with a terminal `finished`; then it is no longer polled.
  assert.equal((await finished).status, 'cancelled');
  assert.equal(client.requestor.tracked().includes(created.taskId), false, 'no more polling of a cancelled task');
  const listed = client.next('listed');
  client.requestor.list();
  client.pump();
  const tasks = JSON.parse((await listed).tasks);
  assert.ok(tasks.length >= 6, `every task of this session, over several pages of 4: ${tasks.length}`);
  assert.ok(tasks.some((t) => t.taskId === created.taskId && t.status === 'cancelled'));
});
