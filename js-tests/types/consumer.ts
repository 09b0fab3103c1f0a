// A TypeScript consumer of the whole typed surface of mcp-task-core, checked with
// `tsc --noEmit` (strict, no DOM or Node types, skipLibCheck off) by js-tests/types.test.mjs
// against the packed package. `@ts-expect-error` lines prove the types are precise: they
// fail the check if the line stops being an error.
import {
  TextTaskEngine,
  TaskRequestor,
  TextTaskRequestor,
  TaskClient,
  shouldAugment,
  drainOutputs,
  handleObject,
  init,
  type CapabilityOptions,
  type TextExecuteOutput,
  type JsonRpcMessage,
  type JsonRpcResponse,
  type LimitOptions,
  type Task,
  type TaskEngineError,
  type TaskEngineErrorCode,
  type TaskEngineOptions,
  type TextTaskEngineOutput,
  type AuditAction,
  type RateLimitOptions,
  type TextTaskOutcome,
  type TaskRequestorOptions,
  type TaskRequestorOutput,
  type TextTaskRequestorOutput,
  type TaskCallEvent,
  type McpTransport,
  type AbortSignalLike,
  type TaskPage,
  type TaskStatus,
  type TaskSupport,
  type TtlOptions,
} from 'mcp-task-core';

declare function send(context: string | null, message: string, inReplyTo: string | null): void;
declare function startWork(taskId: string, request: string): void;
declare function stopWork(taskId: string): void;
declare function setTimer(ms: number, fn: () => void): void;

export async function main(): Promise<void> {
  const ready: Promise<void> = init();
  await ready;
  await init(new Uint8Array(0));

  let clock = 0;
  const capabilities: CapabilityOptions = { list: true, cancel: true, toolsCall: true, samplingCreateMessage: false, elicitationCreate: false };
  const ttl: TtlOptions = { defaultMs: 60_000, maxMs: 3_600_000, allowUnlimited: false };
  const limits: LimitOptions = {
    maxRunningTasksPerKey: 10,
    maxRunningTasksTotal: 100,
    maxResultBytes: 1 << 20,
    maxQueuedMessagesPerTask: 8,
    maxMessageBytes: 1 << 20,
    maxJsonDepth: 32,
    maxWaitersPerTask: 4,
    rateLimit: null,
  };
  const rate: RateLimitOptions = { burst: 10, perSecond: 5 };
  new TextTaskEngine({ limits: { rateLimit: rate } }).free();
  // @ts-expect-error: both bucket fields are needed
  new TextTaskEngine({ limits: { rateLimit: { burst: 10 } } });
  const options: TaskEngineOptions = {
    now: () => clock,
    newTaskId: () => `t${clock}`,
    capabilities,
    contextBinding: true,
    ttl,
    pollIntervalMs: null,
    pageSize: 20,
    modelImmediateResponse: 'Working on it.',
    statusNotifications: true,
    audit: true,
    limits,
    tools: { slow: 'required', quick: 'optional', never: 'forbidden' },
  };
  const engine = new TextTaskEngine(options);
  new TextTaskEngine().free();
  new TextTaskEngine(null).free();
  // @ts-expect-error: tools take a TaskSupport
  new TextTaskEngine({ tools: { slow: 'maybe' } });
  // @ts-expect-error: numbers are numbers
  new TextTaskEngine({ pageSize: '10' });

  const caps: { list?: object; cancel?: object; requests?: object } = JSON.parse(engine.capabilitiesJson());
  void caps;
  const support: TaskSupport = 'optional';
  engine.registerTool('quick', support);
  engine.registerTool('gone', null);
  engine.registerTool('gone');
  // @ts-expect-error: not a TaskSupport
  engine.registerTool('quick', 'sometimes');

  // The host loop.
  const reply: string | null = engine.handle('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow","task":{}}}', 'alice');
  if (reply !== null) send('alice', reply, null);
  engine.handle('{}');
  engine.handle('{}', null);
  // @ts-expect-error: the message is JSON text
  engine.handle({ jsonrpc: '2.0' });
  // @ts-expect-error: the context is a string
  engine.handle('{}', 42);

  const pending: number = engine.pendingOutputs;
  void pending;
  // @ts-expect-error: read-only
  engine.pendingOutputs = 3;

  let executed: TextExecuteOutput | undefined;
  for (let out = engine.pollOutput(); out !== null; out = engine.pollOutput()) {
    switch (out.kind) {
      case 'send':
        send(out.context, out.message, out.inReplyTo);
        break;
      case 'execute': {
        const method: 'tools/call' | 'sampling/createMessage' | 'elicitation/create' = out.method;
        void method;
        startWork(out.taskId, out.request);
        executed = out;
        break;
      }
      case 'forward': {
        const text: string = out.message;
        void text;
        break;
      }
      case 'cancelled':
        stopWork(out.taskId);
        break;
      case 'expired': {
        const wasTerminal: boolean = out.wasTerminal;
        if (!wasTerminal) stopWork(out.taskId);
        break;
      }
      case 'inputResponse': {
        const answer: JsonRpcResponse = JSON.parse(out.response);
        const requestId: string = out.requestId;
        void answer;
        void requestId;
        break;
      }
      case 'audit': {
        const action: AuditAction = out.action;
        const from: TaskStatus | undefined = out.from;
        const who: string | null = out.context;
        void [action, from, who, out.to, out.taskId, out.detail];
        break;
      }
      case 'persist': {
        const expected: number | string | null = out.expectedVersion;
        const record: string | null = out.record;
        void [expected, record, out.version, out.expiresAt, out.taskId];
        break;
      }
      case 'outputsDropped': {
        const count: number = out.count;
        void count;
        break;
      }
      default: {
        const exhaustive: never = out;
        void exhaustive;
      }
    }
  }
  const first = engine.pollOutput();
  // @ts-expect-error: narrow on `kind` first
  void first?.taskId;

  const deadline: number | null = engine.nextDeadline();
  if (deadline !== null) setTimer(deadline - clock, () => engine.handleTimeout());

  // Host calls.
  const taskId = executed?.taskId ?? 'x';
  const asTask = (json: string): Task => JSON.parse(json);
  const status: TaskStatus = asTask(engine.setStatusMessage(taskId, 'half way')).status;
  void status;
  engine.setStatusMessage(taskId, null);
  engine.setStatusMessage(taskId);
  const requestId: string = engine.requestInput(taskId, 'elicitation/create', JSON.stringify({ message: 'OK?' }));
  engine.requestInput(taskId, 'ping');
  void requestId;
  asTask(engine.resume(taskId));
  const sent: boolean = engine.reportProgress(taskId, 1, 10, 'one of ten');
  engine.reportProgress(taskId, 2);
  engine.reportProgress(taskId, 3, null, null);
  void sent;
  asTask(engine.complete(taskId, JSON.stringify({ content: [] })));
  asTask(engine.fail(taskId, JSON.stringify({ code: -32603, message: 'boom' })));
  asTask(engine.cancel(taskId));
  asTask(engine.cancel(taskId, 'stopped'));

  // Store calls.
  const created = asTask(engine.createTask('alice', 'tools/call'));
  engine.createTask(null, 'tools/call', 0);
  engine.createTask(undefined, 'tools/call', null, '"token"');
  // @ts-expect-error: ttl is a number of ms
  engine.createTask('alice', 'tools/call', '1000');
  const got: string | null = engine.getTask(created.taskId, 'alice');
  const outcome: TextTaskOutcome = engine.getTaskResult(created.taskId, 'alice');
  if (outcome.kind === 'error') JSON.parse(outcome.json);
  void got;
  const page: TaskPage = JSON.parse(engine.listTasks('alice'));
  if (page.nextCursor !== undefined) engine.listTasks('alice', page.nextCursor);
  asTask(engine.cancelTask(created.taskId, 'alice'));
  asTask(engine.cancelTask(created.taskId, 'alice', 'no longer needed'));
  // A change answers with the task JSON as it now is.
  const updated: string = engine.updateTaskStatus(created.taskId, 'alice', 'input_required', 'waiting');
  void updated;
  // @ts-expect-error: not a status
  engine.updateTaskStatus(created.taskId, 'alice', 'paused');
  const stored: string = engine.storeTaskResult(created.taskId, 'alice', 'completed', { kind: 'result', json: '{}' });
  void stored;
  // @ts-expect-error: a result is stored only as completed or failed
  engine.storeTaskResult(created.taskId, 'alice', 'working', { kind: 'result', json: '{}' });
  const count: number = engine.taskCount;
  void count;
  const figures: number = engine.figure(5);
  // @ts-expect-error: figures are numbered 0 to 5
  engine.figure(6);
  void figures;

  // Errors.
  try {
    engine.complete('nope', '{}');
  } catch (err) {
    const e = err as TaskEngineError;
    const code: TaskEngineErrorCode = e.code;
    const message: string = e.message;
    if (code === 'unknown_task' || code === 'invalid_options') void message;
    // @ts-expect-error: not one of the codes
    if (code === 'not_a_code') void 0;
  }

  // Object conveniences.
  const msg: JsonRpcMessage = { jsonrpc: '2.0', id: 2, method: 'tasks/list', params: {} };
  const parsed: JsonRpcResponse | null = handleObject(engine, msg, 'alice');
  if (parsed !== null && 'result' in parsed) void parsed.result;
  if (parsed !== null && 'error' in parsed) void parsed.error.code;
  handleObject(engine, '{"jsonrpc":"2.0","method":"notifications/initialized"}');
  const all: TextTaskEngineOutput[] = drainOutputs(engine);
  void all;

  engine.free();
}

// The requestor role.
export function requestor(receiverCapabilities: string): void {
  const decision: { augment: boolean; reason: string } = shouldAugment(receiverCapabilities, 'tools/call', 'optional', true);
  shouldAugment(receiverCapabilities, 'sampling/createMessage', null, false);
  const options: TaskRequestorOptions = {
    now: () => 0,
    pollFloorMs: 100,
    pollCeilingMs: 10_000,
    initialBackoffMs: 250,
    requestTimeoutMs: 20_000,
    resultTimeoutMs: 600_000,
    maxListPages: 50,
    requestIdPrefix: 'r:',
  };
  const r = new TextTaskRequestor(options);
  new TextTaskRequestor().free();
  const callId: string = r.call('tools/call', JSON.stringify({ name: 'slow', arguments: {} }), decision.augment ? 60_000 : undefined, '"tok"');
  r.call('tools/call', null, true);
  r.call('ping');
  // @ts-expect-error: task is a ttl, a boolean, null or undefined
  r.call('tools/call', null, '60000');
  void callId;
  r.handle('{"jsonrpc":"2.0","id":"r:1","result":{}}');
  for (let out: TextTaskRequestorOutput | null = r.pollOutput(); out !== null; out = r.pollOutput()) {
    switch (out.kind) {
      case 'send': {
        send(null, out.message, null);
        const id: string | null = out.requestId;
        if (id !== null) {
          const awaited: boolean = r.requestFailed(id);
          void awaited;
        }
        break;
      }
      case 'retrying': {
        const method: 'tasks/get' | 'tasks/result' | 'tasks/update' = out.method;
        void [method, out.taskId, JSON.parse(out.response)];
        break;
      }
      case 'created': JSON.parse(out.task) as Task; break;
      case 'inputRequest': r.respond(out.requestId, JSON.stringify({ action: 'accept', content: {} })); break;
      case 'finished': {
        const status: TaskStatus = out.status;
        void [status, out.response];
        break;
      }
      case 'listed': if (out.error === null) JSON.parse(out.tasks) as Task[]; break;
      case 'lost': JSON.parse(out.error); break;
      default: void out;
    }
  }
  const due: number | null = r.nextDeadline();
  if (due !== null) r.handleTimeout();
  const ids: string[] = r.tracked();
  for (const id of ids) {
    const last: string | null = r.task(id);
    void last;
    r.cancel(id);
    r.forget(id);
  }
  r.list();
  const saved: string = r.exportState();
  const added: number = r.importState(saved);
  void added;
  r.free();
}

// The requestor in object mode, and TaskClient over an SDK transport.
export async function objectRequestor(transport: McpTransport, signal: AbortSignalLike): Promise<void> {
  const r = new TaskRequestor({ pollFloorMs: 100, listen: true });
  const callId: string | number = r.call('tools/call', { name: 'slow', arguments: {} }, { task: { ttl: 60_000 }, progressToken: 'tok' });
  r.call('tools/call', { name: 'quick' }, { task: true });
  r.call('ping');
  // @ts-expect-error: the task option is true, false or { ttl }
  r.call('tools/call', null, { task: 60_000 });
  r.handle({ jsonrpc: '2.0', id: 'r:1', result: {} });
  for (let out: TaskRequestorOutput | null = r.pollOutput(); out !== null; out = r.pollOutput()) {
    switch (out.kind) {
      case 'send': void [out.message.jsonrpc, out.text.length, out.requestId]; break;
      case 'created': {
        const status: TaskStatus = out.task.status;
        void [status, out.callId === callId];
        break;
      }
      case 'inputRequest': r.respond(out.requestId, { action: 'accept', content: {} }); break;
      case 'finished': void [out.callId, out.response.jsonrpc, out.text]; break;
      case 'lost': { const code: number = out.error.code; void code; break; }
      default: void out;
    }
  }
  r.importState(r.exportState());
  r.free();

  const client = new TaskClient(transport, { capabilities: { elicitation: {} }, requestor: { listen: false } });
  const dialect: '2025-11-25' | '2026-07-28' = await client.connect();
  const { result, taskId, status } = await client.callTool<{ content: unknown[] }>('slow', { n: 1 }, {
    task: { ttl: 60_000 },
    signal,
    onProgress: (p) => void p.progress,
    onStatus: (task, about) => void [task.status, task.statusMessage, about.taskId],
    onInputRequest: async (request) => (request.method === 'elicitation/create' ? { action: 'accept', content: {} } : { action: 'decline' }),
  });
  void [dialect, result.content, taskId, status];
  for await (const event of client.callToolStream('slow', {}, { task: true })) {
    const e: TaskCallEvent = event;
    void e.callId;
  }
  await client.close();
}
