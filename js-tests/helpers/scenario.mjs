// The whole task lifecycle of MCP 2025-11-25, driven through the package's public API.
// Runtime-neutral (no Node imports): Node ESM, Node CJS and the Chromium page all run this
// same code against their own build of the package, and return the transcript and the facts
// observed; the Node test validates every emitted message (helpers/schema.mjs) and asserts
// on the facts.
//
//   const { transcript, facts } = runLifecycle(await import('mcp-task-core'));

/** Epoch ms of 2025-11-25T10:30:00.000Z, the start of the injected clock. */
export const START = Date.UTC(2025, 10, 25, 10, 30);

const CALL_RESULT = { content: [{ type: 'text', text: 'New York: 72°F, partly cloudy' }], isError: false };
const ELICIT_PARAMS = {
  mode: 'form',
  message: 'Celsius or Fahrenheit?',
  requestedSchema: { type: 'object', properties: { units: { type: 'string', enum: ['C', 'F'] } }, required: ['units'] },
};

/**
 * @param {{ TextTaskEngine: any, handleObject: Function, drainOutputs: Function }} mod  the package
 * @returns {{ transcript: object[], facts: object }}
 */
export function runLifecycle(mod) {
  const { TextTaskEngine, handleObject, drainOutputs } = mod;
  let now = START;
  let seq = 0;
  const engine = new TextTaskEngine({
    now: () => now,
    newTaskId: () => `task-${++seq}`,
    tools: { get_weather: 'required' },
  });
  const ctx = 'session-a';
  const transcript = [];
  const facts = {};

  // Peer -> engine. `viaObject` goes through the handleObject convenience.
  const send = (msg, { context = ctx, viaObject = false } = {}) => {
    const text = JSON.stringify(msg);
    transcript.push({ dir: 'in', context, message: text });
    let reply;
    if (viaObject) {
      const obj = handleObject(engine, msg, context);
      reply = obj === null ? null : JSON.stringify(obj);
    } else {
      reply = engine.handle(text, context);
    }
    if (reply !== null) transcript.push({ dir: 'out', context, message: reply, inReplyTo: null });
    return reply === null ? null : JSON.parse(reply);
  };
  // Engine -> host: every output, in order.
  const drain = () =>
    drainOutputs(engine).map((o) => {
      transcript.push(o.kind === 'send' ? { dir: 'out', context: o.context, message: o.message, inReplyTo: o.inReplyTo } : { dir: 'event', ...o });
      return o;
    });
  const kinds = (outs) => outs.map((o) => (o.kind === 'send' ? `send:${JSON.parse(o.message).method ?? 'response'}` : o.kind));

  facts.capabilities = JSON.parse(engine.capabilitiesJson(ctx));

  // 1. A task-augmented tools/call: CreateTaskResult now, an `execute` output for the host.
  const created = send(
    { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_weather', arguments: { city: 'New York' }, task: { ttl: 60000 } } },
    { viaObject: true },
  );
  facts.created = created.result.task;
  const taskId = created.result.task.taskId;
  const afterCreate = drain();
  facts.afterCreate = kinds(afterCreate);
  facts.execute = afterCreate.find((o) => o.kind === 'execute');
  facts.nextDeadline = engine.nextDeadline();

  // 2. Polling.
  now += 1000;
  facts.get1 = send({ jsonrpc: '2.0', id: 2, method: 'tasks/get', params: { taskId } }).result;

  // 3. The work needs input: an elicitation; the task goes input_required.
  now += 1000;
  facts.inputRequestId = engine.requestInput(taskId, 'elicitation/create', JSON.stringify(ELICIT_PARAMS));
  facts.afterRequestInput = kinds(drain());

  // 4. tasks/result on the running task is deferred; the queued elicitation goes out on its stream.
  facts.deferredReply = send({ jsonrpc: '2.0', id: 3, method: 'tasks/result', params: { taskId } });
  const afterResultRequest = drain();
  facts.afterResultRequest = kinds(afterResultRequest);
  const elicitation = afterResultRequest.find((o) => o.kind === 'send');
  facts.elicitation = { inReplyTo: elicitation.inReplyTo, context: elicitation.context, message: JSON.parse(elicitation.message) };

  // 5. The requestor answers the elicitation; the host gets an inputResponse, the task is working again.
  now += 500;
  const answer = { jsonrpc: '2.0', id: facts.elicitation.message.id, result: { action: 'accept', content: { units: 'F' } } };
  facts.answerReply = send(answer);
  const afterAnswer = drain();
  facts.afterAnswer = kinds(afterAnswer);
  const inputResponse = afterAnswer.find((o) => o.kind === 'inputResponse');
  facts.inputResponse = { ...inputResponse, response: JSON.parse(inputResponse.response) };
  facts.statusAfterAnswer = JSON.parse(engine.getTask(taskId, ctx)).status;

  // 6. The work completes: the waiting tasks/result gets the result with related-task _meta.
  now += 1500;
  facts.completedTask = JSON.parse(engine.complete(taskId, JSON.stringify(CALL_RESULT)));
  const afterComplete = drain();
  facts.afterComplete = kinds(afterComplete);
  const deferred = afterComplete.find((o) => o.kind === 'send' && 'result' in JSON.parse(o.message));
  facts.deferredResult = { inReplyTo: deferred.inReplyTo, context: deferred.context, message: JSON.parse(deferred.message) };

  // 7. tasks/result again answers at once; tasks/list shows the finished task.
  facts.resultAgain = send({ jsonrpc: '2.0', id: 4, method: 'tasks/result', params: { taskId } });
  facts.list = send({ jsonrpc: '2.0', id: 5, method: 'tasks/list', params: {} }, { viaObject: true }).result;
  facts.outcome = engine.getTaskResult(taskId, ctx);
  facts.pendingOutputs = engine.pendingOutputs;
  facts.taskCount = engine.taskCount;

  // 8. TTL: past the deadline the task is deleted.
  now = facts.nextDeadline;
  engine.handleTimeout();
  facts.afterTimeout = drain();
  facts.getExpired = send({ jsonrpc: '2.0', id: 6, method: 'tasks/get', params: { taskId } });
  facts.nextDeadlineAfter = engine.nextDeadline();

  // 9. A wrong argument type is a TypeError, not a wasm trap, and the engine goes on.
  try {
    engine.handle(42, ctx);
    facts.typeError = null;
  } catch (err) {
    facts.typeError = { name: err.name, code: err.code, isTypeError: err instanceof TypeError };
  }
  facts.afterTypeError = send({ jsonrpc: '2.0', id: 7, method: 'tasks/list', params: {} }).result;

  engine.free();
  return { transcript, facts };
}

/** What runLifecycle must observe, as (actual, expected) pairs for deepEqual. */
export function expectedFacts(taskId = 'task-1') {
  const iso = (ms) => new Date(ms).toISOString();
  return {
    capabilities: { list: {}, cancel: {}, requests: { tools: { call: {} } } },
    created: { taskId, status: 'working', createdAt: iso(START), lastUpdatedAt: iso(START), ttl: 60000, pollInterval: 1000 },
    afterCreate: ['execute'],
    nextDeadline: START + 60000,
    afterRequestInput: ['send:notifications/tasks/status'],
    deferredReply: null,
    afterResultRequest: ['send:elicitation/create'],
    answerReply: null,
    afterAnswer: ['inputResponse', 'send:notifications/tasks/status'],
    statusAfterAnswer: 'working',
    afterComplete: ['send:notifications/tasks/status', 'send:response'],
    pendingOutputs: 0,
    taskCount: 1,
    nextDeadlineAfter: null,
    typeError: { name: 'TypeError', code: 'invalid_argument', isTypeError: true },
    afterTypeError: { tasks: [] },
  };
}
