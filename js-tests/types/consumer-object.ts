// TypeScript consumer of TaskEngine (object mode): every member, used with the declared
// parameter and return types, checked with `tsc --noEmit --strict` by js-tests/types.test.mjs
// (which also checks that every member of the class appears here). `@ts-expect-error` lines
// prove the types are precise.
import {
  TaskEngine,
  TextTaskEngine,
  drainOutputs,
  type JsonRpcErrorResponse,
  type JsonRpcId,
  type JsonRpcMessage,
  type JsonRpcRequest,
  type JsonRpcResponse,
  type JsonRpcResultResponse,
  type Task,
  type TaskEngineOutput,
  type TaskOutcome,
  type TaskPage,
  type TextTaskEngineOutput,
} from 'mcp-task-core';

declare function sendBytes(context: string | null, text: string, inReplyTo: JsonRpcId | null): void;
declare function runTool(taskId: string, args: unknown): void;

export function objectMode(): void {
  const engine = new TaskEngine({ tools: { slow: 'required', decide: 'perCall' }, storage: { instanceId: 'a' } });
  new TaskEngine().free();
  new TaskEngine(null).free();
  // @ts-expect-error: options are checked as for TextTaskEngine
  new TaskEngine({ pageSize: '10' });

  const text: TextTaskEngine = engine.textEngine;
  void text;
  const call: JsonRpcRequest = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'slow', task: {} } };
  const reply: JsonRpcResponse | null = engine.handle(call, 'alice');
  if (reply !== null && 'result' in reply) void reply.result;
  engine.handle('{"jsonrpc":"2.0","id":2,"method":"ping"}', null, { dialect: '2025-11-25' });
  // @ts-expect-error: a message is an object or its JSON text
  engine.handle(42);

  const created: JsonRpcResultResponse = engine.startTask(call, 'alice');
  engine.startTask(call, null, { quotaKey: 'address:10.0.0.1' });
  engine.handle(call, null, { quotaKey: 'address:10.0.0.1' });
  // @ts-expect-error: a quota key is a string
  engine.handle(call, null, { quotaKey: 7 });
  void created;
  const listened: { taskIds: string[] } | { error: JsonRpcErrorResponse; text: string } = engine.listenTasks(call, 'alice');
  if ('error' in listened) void listened.error.error.code;
  const ended: number = engine.unlistenTasks('sub-1', 'alice') + engine.unlistenTasks(7);
  void ended;

  for (let out = engine.pollOutput(); out !== null; out = engine.pollOutput()) {
    switch (out.kind) {
      case 'send': {
        const message: JsonRpcMessage = out.message;
        void message;
        sendBytes(out.context, out.text, out.inReplyTo);
        break;
      }
      case 'execute':
        runTool(out.taskId, out.request.params?.['arguments']);
        break;
      case 'forward': {
        const m: JsonRpcMessage = out.message;
        void [m, out.text];
        break;
      }
      case 'inputResponse': {
        const id: JsonRpcId = out.requestId;
        const r: JsonRpcResponse = out.response;
        void [id, r, out.text];
        break;
      }
      case 'persist': {
        const record: string | null = out.record;
        void [record, out.expectedVersion, out.version, out.expiresAt];
        break;
      }
      case 'cancelled':
      case 'expired':
      case 'audit':
      case 'outputsDropped':
        break;
      default: {
        const never: never = out;
        void never;
      }
    }
  }
  const all: TaskEngineOutput[] = drainOutputs(engine);
  const raw: TextTaskEngineOutput[] = drainOutputs(engine.textEngine);
  void [all, raw];

  engine.restore('{}');
  const damage: string | null = engine.restoreStored('t', null, 'type:string');
  void damage;
  const restored: number = engine.restoreSnapshot(engine.snapshot());
  const record: string | null = engine.exportTask('t');
  const forgot: boolean = engine.forgetTask('t');
  void [restored, record, forgot];
  const extension: { [extension: string]: object } = TaskEngine.extensionCapability();
  const caps: { [key: string]: unknown } = engine.capabilities('alice');
  void [extension, caps];
  const pending: number = engine.pendingOutputs;
  const deadline: number | null = engine.nextDeadline();
  engine.handleTimeout();
  engine.registerTool('quick', 'optional');
  engine.registerTool('gone', null);
  // @ts-expect-error: not a TaskSupport
  engine.registerTool('quick', 'sometimes');
  void [pending, deadline];

  const task: Task = engine.createTask('alice', 'tools/call', 60_000, 'tok', null);
  engine.createTask(null, 'tools/call', null, 7);
  engine.createTask(undefined, 'tools/call');
  // @ts-expect-error: a progress token is a string or a number
  engine.createTask('alice', 'tools/call', 1, { token: 1 });
  const results: Task[] = [
    engine.complete(task.taskId, { content: [] }),
    engine.fail(task.taskId, { code: -32000, message: 'boom', data: { why: 1 } }),
    engine.resume(task.taskId),
    engine.setStatusMessage(task.taskId, 'busy'),
    engine.setStatusMessage(task.taskId, null),
    engine.cancel(task.taskId),
    engine.cancelTask(task.taskId, 'alice', 'stop'),
  ];
  const updated: Task = engine.updateTaskStatus(task.taskId, 'alice', 'working');
  void updated;
  engine.updateTaskStatus(task.taskId, null, 'input_required', 'waiting');
  const stored: Task = engine.storeTaskResult(task.taskId, 'alice', 'completed', { kind: 'result', result: { content: [] } });
  void stored;
  engine.storeTaskResult(task.taskId, 'alice', 'failed', { kind: 'error', error: { code: -32000, message: 'boom' } });
  // @ts-expect-error: a result is stored only as completed or failed
  engine.storeTaskResult(task.taskId, 'alice', 'working', { kind: 'result', result: {} });
  // @ts-expect-error: a result is an object
  engine.complete(task.taskId, '{"content":[]}');
  // @ts-expect-error: an error needs a code and a message
  engine.fail(task.taskId, { message: 'x' });
  // @ts-expect-error: not a status
  engine.updateTaskStatus(task.taskId, 'alice', 'done');
  const inputId: JsonRpcId = engine.requestInput(task.taskId, 'elicitation/create', { message: 'Name?' });
  engine.requestInput(task.taskId, 'ping');
  const progressed: boolean = engine.reportProgress(task.taskId, 1, 2, 'half');
  const context: string | null | undefined = engine.taskContext(task.taskId);
  const seen: Task | null = engine.getTask(task.taskId, 'alice');
  const outcome: TaskOutcome = engine.getTaskResult(task.taskId, 'alice');
  if (outcome.kind === 'result') void outcome.result;
  else void outcome.error.code;
  const page: TaskPage = engine.listTasks('alice', page0Cursor(engine.listTasks('alice')));
  const count: number = engine.taskCount;
  // @ts-expect-error: read-only
  engine.taskCount = 1;
  const figures: number = engine.figure(1);
  const twin = new TaskEngine({ cursorKey: '000102030405060708090a0b0c0d0e0f' });
  twin.free();
  void [results, inputId, progressed, context, seen, page, count, figures];
  engine.free();
}

function page0Cursor(page: TaskPage): string | null {
  return page.nextCursor ?? null;
}
