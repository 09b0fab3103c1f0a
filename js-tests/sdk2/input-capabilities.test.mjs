// A task asks only for input its client declared it can give (mrtr.mdx: "Servers MUST NOT send
// an `inputRequests` that the client has not declared support for in its capabilities"), with
// the official SDK 2.x client (`@modelcontextprotocol/client` 2.4, and on 2026-07-28 the official
// requester `@modelcontextprotocol/ext-tasks` over it) against mcp-task-core/server on an SDK 2.4
// server, in process. Without the declaration, `task.elicit()` / `createMessage()` /
// `requireInput()` reject with a -32021 TaskProtocolError the tool can catch (nothing reaches the
// client), and the task ends as the tool decides; with it, the input goes through. 2026-07-28:
// the tools/call's own declaration governs; 2025-11-25: the session's initialize capabilities.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { assertValidIn } from '../helpers/schema.mjs';
import { installWithSdk2, modernClient, sessionful, terminal, waitFor } from './harness.mjs';

let pkg;
let mod;
let sdk;
let client2;
let extTasks;
let z;

before(async () => {
  pkg = installWithSdk2('mcp-task-core-input-caps-');
  mod = await pkg.importServer();
  sdk = await import('@modelcontextprotocol/server');
  client2 = await import('@modelcontextprotocol/client');
  extTasks = await import('@modelcontextprotocol/ext-tasks/client');
  z = await import('zod');
});
after(() => pkg?.cleanup());

const URL_ = new URL('http://127.0.0.1/mcp');
const CLIENT_INFO = { name: 'input-capabilities-test', version: '1.0.0' };
const FORM = { mode: 'form', message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } };
const text = (value) => ({ content: [{ type: 'text', text: value }] });

/**
 * A server whose task tools ask for input: `ask` catches a refusal and completes without the
 * answer; `ask_or_fail` lets it propagate (the task fails with it). `log` records what the tools
 * saw. 2026-07-28 requests go to createMcpHandler, 2025-11-25 ones to sessionful transports (as
 * examples/sdk2-server routes them: a 2025-11-25 answer must reach the same server instance).
 */
function setup() {
  const tasks = new mod.TasksExtension({ engineOptions: { pollIntervalMs: 20 } });
  const log = [];
  const factory = () => {
    const server = new sdk.McpServer({ name: 'input-capabilities', version: '1.0.0' });
    tasks.install(server);
    tasks.registerTool(server, 'ask', { taskSupport: 'required', inputSchema: z.object({ mode: z.string().optional() }) }, async ({ mode }, task) => {
      const params = mode === 'url' ? { mode: 'url', message: 'Sign in', url: 'https://example.com/login', elicitationId: 'e1' } : FORM;
      try {
        const answer = await task.elicit(params);
        log.push({ taskId: task.taskId, answer });
        return text(`Hello, ${answer.content?.name}!`);
      } catch (err) {
        log.push({ taskId: task.taskId, refused: { name: err.name, code: err.code, message: err.message, data: err.data } });
        return text('went on without a name');
      }
    });
    tasks.registerTool(server, 'ask_or_fail', { taskSupport: 'required', inputSchema: z.object({}) }, async (_args, task) => {
      const answer = await task.elicit(FORM);
      return text(`Hello, ${answer.content?.name}!`);
    });
    return server;
  };
  const modern = tasks.withTaskListen(sdk.createMcpHandler(factory, { legacy: 'reject' }));
  const legacy = sessionful(sdk, factory);
  const sessions = legacy.sessions;
  const handler = { fetch: async (request, options) => ((await sdk.isLegacyRequest(request)) ? legacy.fetch(request) : modern.fetch(request, options)) };
  const close = async () => {
    tasks.close();
    await Promise.all([...sessions.values()].map((t) => t.close().catch(() => {})));
  };
  return { tasks, handler, log, close };
}

/** The handler as the client's `fetch`: every request goes to it in process. */
const inProcess = (handler) => async (input, init) => handler.fetch(new Request(input, init));

/**
 * The official 2026-07-28 requester: the SDK 2.x `Client` pinned to 2026-07-28 with ext-tasks
 * over it, declaring `capabilities` on every request. ext-tasks sends task traffic through a
 * host-owned raw path (the SDK `Client` refuses `resultType: "task"`): here, the same handler.
 */
async function modernRequester(handler, capabilities, onInputRequest) {
  const client = new client2.Client(CLIENT_INFO, { capabilities, versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(new client2.StreamableHTTPClientTransport(URL_, { fetch: inProcess(handler) }));
  const { tools } = await client.listTools();
  const declarations = new Map(tools.map((tool) => [tool.name, extTasks.toolDeclarationFromMcpTool(tool)]));
  const raw = modernClient(handler);
  const rawDispatch = async (request) => {
    const reply = await raw.call(request.method, request.params, { meta: request.params?._meta ?? {} });
    return reply.error !== undefined ? { kind: 'error', error: reply.error } : { kind: 'result', result: reply.result };
  };
  const session = extTasks.createTaskSessionFromClient(client, {
    endpointId: 'input-capabilities',
    tools: { currentTool: (name) => declarations.get(name) },
    onInputRequest,
    rawDispatch,
    v2RequestFraming: { protocolVersion: '2026-07-28', clientInfo: CLIENT_INFO, clientCapabilities: capabilities },
  });
  const run = async (name, args) => {
    const execution = await session.callTool(name, args, { task: { preference: 'prefer' } });
    assert.equal(execution.kind, 'task', `${name} runs as a task`);
    const statuses = [];
    const { outcome } = await execution.settle({ onEvent: (event) => event.type === 'task' && statuses.push(event.task.status) });
    return { taskId: execution.handle.taskId, outcome, statuses };
  };
  return { client, run, raw };
}

test('2026-07-28, ext-tasks on the SDK 2.x Client: elicit() without the elicitation declaration rejects with -32021, the tool decides the outcome', { timeout: 60_000 }, async () => {
  const { handler, log, close } = setup();
  const asked = [];
  const onInputRequest = async (request) => {
    asked.push(request);
    return { action: 'accept', content: { name: 'Ada' } };
  };
  try {
    // Declares the tasks extension (ext-tasks adds it) and nothing else.
    const bare = await modernRequester(handler, {}, onInputRequest);
    const caught = await bare.run('ask', {});
    assert.equal(caught.outcome.status, 'completed', JSON.stringify(caught.outcome));
    assert.equal(caught.outcome.result.content[0].text, 'went on without a name');
    assert.ok(!caught.statuses.includes('input_required'), `never input_required: ${caught.statuses}`);
    const { refused } = log.find((e) => e.taskId === caught.taskId);
    assert.equal(refused.name, 'TaskProtocolError');
    assert.equal(refused.code, -32021);
    assert.deepEqual(refused.data, { requiredCapabilities: { elicitation: { form: {} } } });
    assert.match(refused.message, /did not declare the capability 'elicitation\.form'/);
    assertValidIn('2026-07-28', 'MissingRequiredClientCapabilityError', { jsonrpc: '2.0', id: 1, error: { code: refused.code, message: refused.message, data: refused.data } });

    // Thrown on, the refusal fails the task with that JSON-RPC error.
    const failed = await bare.run('ask_or_fail', {});
    assert.equal(failed.outcome.status, 'failed', JSON.stringify(failed.outcome));
    assert.equal(failed.outcome.error.code, -32021);
    assert.deepEqual(failed.outcome.error.data, { requiredCapabilities: { elicitation: { form: {} } } });
    const stored = await bare.raw.result('tasks/get', { taskId: failed.taskId });
    assertValidIn('extension', 'GetTaskResult', stored);
    assert.equal(stored.error.code, -32021);
    assert.deepEqual(asked, [], 'the client was never asked');
    await bare.client.close();

    // The same calls from a client that declares form elicitation: the input goes through.
    const declaring = await modernRequester(handler, { elicitation: { form: {} } }, onInputRequest);
    const answered = await declaring.run('ask', {});
    assert.equal(answered.outcome.status, 'completed', JSON.stringify(answered.outcome));
    assert.equal(answered.outcome.result.content[0].text, 'Hello, Ada!');
    assert.deepEqual(log.find((e) => e.taskId === answered.taskId).answer, { action: 'accept', content: { name: 'Ada' } });
    assert.equal(asked.length, 1);
    assert.equal((await declaring.run('ask_or_fail', {})).outcome.result.content[0].text, 'Hello, Ada!');
    // A mode it did not declare is still refused.
    const url = await declaring.run('ask', { mode: 'url' });
    assert.equal(url.outcome.result.content[0].text, 'went on without a name');
    assert.deepEqual(log.find((e) => e.taskId === url.taskId).refused.data, { requiredCapabilities: { elicitation: { url: {} } } });
    assert.equal(asked.length, 2, 'no url elicitation reached the client');
    await declaring.client.close();
  } finally {
    await close();
  }
});

test('2026-07-28: createMessage and a TaskHandle.requireInput are judged on the creating tools/call', async () => {
  const tasks = new mod.TasksExtension({ engineOptions: { pollIntervalMs: 20 } });
  const seen = [];
  const handler = sdk.createMcpHandler(() => {
    const server = new sdk.McpServer({ name: 'input-capabilities', version: '1.0.0' });
    tasks.install(server);
    tasks.registerTool(server, 'sample', { taskSupport: 'required', inputSchema: z.object({}) }, async (_args, task) => {
      const reason = await task.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: 'Hi' } }], maxTokens: 5 }).then(
        () => 'sent',
        (err) => `${err.code} ${JSON.stringify(err.data)}`,
      );
      seen.push(reason);
      return text(reason);
    });
    // create(ctx) from a plain tool, then the handle asks for input.
    server.registerTool('later', { inputSchema: z.object({}) }, async (_args, ctx) => {
      const created = tasks.create(ctx);
      const handle = tasks.handle(created.taskId);
      handle.requireInput('roots/list', {}).then(
        () => handle.complete(text('roots listed')),
        (err) => handle.fail(err),
      );
      return created;
    });
    return server;
  });
  const client = modernClient(handler);
  try {
    const start = async (name, capabilities) => {
      const reply = await client.call('tools/call', { name, arguments: {} }, { capabilities });
      assert.equal(reply.error, undefined, JSON.stringify(reply.error));
      return reply.result.taskId;
    };
    const call = async (name, capabilities) => waitFor(client, await start(name, capabilities), terminal);
    const refused = await call('sample', {});
    assert.equal(refused.result.content[0].text, '-32021 {"requiredCapabilities":{"sampling":{}}}');
    // Declared: the request is listed in inputRequests and answered through tasks/update.
    const taskId = await start('sample', { sampling: {} });
    const waiting = await waitFor(client, taskId, (t) => t.status === 'input_required');
    const [[key, request]] = Object.entries(waiting.inputRequests);
    assert.equal(request.method, 'sampling/createMessage');
    const answer = { role: 'assistant', content: { type: 'text', text: 'Hello' }, model: 'm', stopReason: 'endTurn' };
    await client.result('tasks/update', { taskId, inputResponses: { [key]: answer } }, { capabilities: { sampling: {} } });
    assert.equal((await waitFor(client, taskId, terminal)).result.content[0].text, 'sent');
    assert.deepEqual(seen, ['-32021 {"requiredCapabilities":{"sampling":{}}}', 'sent']);
    const failed = await call('later', { elicitation: {} });
    assertValidIn('extension', 'GetTaskResult', failed);
    assert.equal(failed.status, 'failed');
    assert.equal(failed.error.code, -32021);
    assert.deepEqual(failed.error.data, { requiredCapabilities: { roots: {} } });
  } finally {
    tasks.close();
  }
});

test('2025-11-25, the SDK 2.x Client: the session initialize capabilities govern', { timeout: 60_000 }, async () => {
  const { handler, log, close } = setup();
  const ANY = { '~standard': { version: 1, vendor: 'test', validate: (value) => ({ value }) } };
  const connect = async (capabilities) => {
    const client = new client2.Client(CLIENT_INFO, { capabilities, versionNegotiation: { mode: 'legacy' } });
    if (capabilities.elicitation) client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { name: 'Grace' } }));
    await client.connect(new client2.StreamableHTTPClientTransport(URL_, { fetch: inProcess(handler) }));
    const run = async (name) => {
      const created = await client.request({ method: 'tools/call', params: { name, arguments: {}, task: { ttl: 60_000 } } }, ANY);
      // tasks/result waits for the outcome; an input request of the task travels on its stream.
      const result = await client.request({ method: 'tasks/result', params: { taskId: created.task.taskId } }, ANY);
      return { taskId: created.task.taskId, result };
    };
    return { client, run };
  };
  try {
    const bare = await connect({});
    const caught = await bare.run('ask');
    assert.equal(caught.result.content[0].text, 'went on without a name');
    assert.deepEqual(log.find((e) => e.taskId === caught.taskId).refused.data, { requiredCapabilities: { elicitation: { form: {} } } });
    await assert.rejects(bare.run('ask_or_fail'), (err) => err.code === -32021 && err.data?.requiredCapabilities?.elicitation !== undefined);
    await bare.client.close();

    const declaring = await connect({ elicitation: { form: {} } });
    const answered = await declaring.run('ask');
    assert.equal(answered.result.content[0].text, 'Hello, Grace!');
    await declaring.client.close();
  } finally {
    await close();
  }
});

test('the engine: handle takes a 2025-11-25 session\'s clientCapabilities; requestInput throws capability_not_declared with requiredCapabilities', async () => {
  const { TextTaskEngine } = await pkg.importEsm();
  const engine = new TextTaskEngine({ tools: { slow: 'required' } });
  const call = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'slow', task: { ttl: 60_000 } } });
  const start = (inbound) => JSON.parse(engine.handle(call, 's', inbound)).result.task.taskId;
  const taskId = start({ dialect: '2025-11-25', clientCapabilities: { sampling: {} } });
  const err = (() => {
    try {
      engine.requestInput(taskId, 'elicitation/create', JSON.stringify({ mode: 'url', message: 'Sign in', url: 'https://example.com', elicitationId: 'e' }));
    } catch (e) {
      return e;
    }
    return assert.fail('requestInput did not throw');
  })();
  assert.equal(err.code, 'capability_not_declared');
  assert.equal(err.rpcCode, -32021);
  assert.deepEqual(err.requiredCapabilities, { elicitation: { url: {} } });
  assert.match(err.message, /'elicitation\.url'/);
  assert.equal(typeof engine.requestInput(taskId, 'sampling/createMessage', JSON.stringify({ messages: [], maxTokens: 1 })), 'string', 'declared: sent');
  // No declaration passed: not judged.
  assert.equal(typeof engine.requestInput(start(undefined), 'roots/list', null), 'string');
  assert.throws(() => engine.handle(call, 's', { clientCapabilities: 'elicitation' }), (e) => e instanceof TypeError && e.code === 'invalid_argument' && /clientCapabilities must be an object/.test(e.message));
});
