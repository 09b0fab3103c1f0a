// The end-to-end scenarios, each run by an official Client against an official McpServer with
// a task store under test. Each returns an "observation": plain JSON of what a client (and the
// tool's background work) saw, without IDs, timestamps or status-message texts of terminal
// tasks. e2e.test.mjs asserts ours against the spec; compare.test.mjs diffs ours against the
// SDK's InMemoryTaskStore.
import {
  CallToolResultSchema,
  Control,
  connectInMemory,
  createTask,
  dedupe,
  makeStores,
  outcome,
  RELATED_TASK,
  startHttp,
  textOf,
  waitForTask,
} from './harness.mjs';

const stepOf = (message) => Number(/^step (\d+)\//.exec(message ?? '')?.[1] ?? 0);

/** Consumes callToolStream; on each `working` status opens the tool's next gate. */
async function stream(client, ctl, name, args, task = { ttl: 60_000 }) {
  let taskId = null;
  let created = null;
  const statuses = [];
  const progress = [];
  let end = null;
  for await (const m of client.experimental.tasks.callToolStream({ name, arguments: args }, CallToolResultSchema, task ? { task } : {})) {
    if (m.type === 'taskCreated') {
      taskId = m.task.taskId;
      created = m.task.status;
    } else if (m.type === 'taskStatus') {
      statuses.push(m.task.status);
      if (m.task.status === 'working') {
        progress.push(m.task.statusMessage ?? null);
        ctl.open(taskId, stepOf(m.task.statusMessage) + 1);
      }
    } else if (m.type === 'result') {
      end = { result: textOf(m.result), isError: m.result.isError === true };
      if (taskId) end.relatedTask = m.result._meta?.[RELATED_TASK]?.taskId === taskId;
    } else {
      end = { error: m.error.code };
    }
  }
  return { taskId, created, statuses: dedupe(statuses), progress: dedupe(progress), end };
}

const codeOf = (o) => (o.ok !== undefined ? 'ok' : o.code);

/** A tasks/result outcome as JSON: a result (text, isError) or a JSON-RPC error (code, data). */
function payloadOf(o) {
  if (o.ok !== undefined) return { kind: 'result', text: textOf(o.ok), isError: o.ok.isError === true };
  return { kind: 'error', code: o.code, data: o.data ?? null };
}

export const scenarios = {
  /** A required-task tool: created, progress per step, completed, result with related-task _meta. */
  async required({ client, ctl }) {
    const s = await stream(client, ctl, 'work', { steps: 2 });
    const after = await client.experimental.tasks.getTask(s.taskId);
    const plain = await outcome(client.request({ method: 'tools/call', params: { name: 'work', arguments: { steps: 0 } } }, CallToolResultSchema));
    return {
      created: s.created,
      statuses: s.statuses,
      progress: s.progress,
      end: s.end,
      statusAfter: after.status,
      ttl: after.ttl,
      pollInterval: after.pollInterval,
      workNotes: ctl.notesOf(s.taskId),
      // Without a task the SDK's McpServer answers with an isError tool result.
      plainCall: plain.ok ? { isError: plain.ok.isError === true } : { code: plain.code },
    };
  },

  /** An optional tool, called as a task and as a plain call (McpServer then polls the store itself). */
  async optional({ client, ctl }) {
    const asTask = await stream(client, ctl, 'maybe', { word: 'a' });
    const plain = await client.callTool({ name: 'maybe', arguments: { word: 'b' } });
    const listed = await client.experimental.tasks.listTasks();
    return {
      asTask: { created: asTask.created, end: asTask.end, final: asTask.statuses.at(-1) },
      plain: { text: textOf(plain), isError: plain.isError === true },
      tasksInStore: listed.tasks.length,
    };
  },

  /** A forbidden tool: a task-augmented call is refused (no task created); a plain call works. */
  async forbidden({ client, ctl }) {
    const asTask = await stream(client, ctl, 'plain', { word: 'x' });
    const plain = await client.callTool({ name: 'plain', arguments: { word: 'y' } });
    const listed = await client.experimental.tasks.listTasks();
    return {
      // SDK 1.x runs the tool and answers with a plain result, which the client refuses
      // (it expected a CreateTaskResult): -32602 on the client, and no task is created.
      asTask: { taskCreated: asTask.taskId !== null, end: asTask.end },
      plain: textOf(plain),
      tasksInStore: listed.tasks.length,
    };
  },

  /** Elicitation mid-task: input_required, the request reaches the client via tasks/result, the answer reaches the tool. */
  async elicitation({ client, ctl }) {
    const s = await stream(client, ctl, 'ask', {});
    await ctl.done(s.taskId);
    const e = client.elicitations[0];
    const after = await client.experimental.tasks.getTask(s.taskId);
    return {
      statuses: s.statuses,
      end: s.end,
      elicitations: client.elicitations.length,
      elicitation: e ? { message: e.message, relatedTask: e._meta?.[RELATED_TASK]?.taskId === s.taskId } : null,
      toolNotes: ctl.notesOf(s.taskId),
      statusAfter: after.status,
    };
  },

  /** Cancel while working; the work's late result is refused; cancelled stays cancelled; terminal cancels refused. */
  async cancel({ client, ctl }) {
    const t = await createTask(client, 'work', { steps: 1 });
    const cancelled = await client.experimental.tasks.cancelTask(t.taskId);
    ctl.openAll(t.taskId);
    await ctl.done(t.taskId);
    const after = await client.experimental.tasks.getTask(t.taskId);
    const again = await outcome(client.experimental.tasks.cancelTask(t.taskId));
    const result = await outcome(client.experimental.tasks.getTaskResult(t.taskId, CallToolResultSchema));
    const q = await createTask(client, 'quick', {});
    await ctl.done(q.taskId);
    await waitForTask(client, q.taskId, (x) => x.status === 'completed');
    const late = await outcome(client.experimental.tasks.cancelTask(q.taskId));
    const qAfter = await client.experimental.tasks.getTask(q.taskId);
    return {
      cancelResponse: cancelled.status,
      workNotes: ctl.notesOf(t.taskId),
      statusAfterWork: after.status,
      cancelAgain: codeOf(again),
      resultOfCancelled: codeOf(result),
      cancelCompleted: codeOf(late),
      completedStays: qAfter.status,
    };
  },

  /** A tool error (isError: true): the task fails; tasks/result returns the tool result. */
  async toolError({ client, ctl }) {
    const s = await stream(client, ctl, 'tool_err', {});
    const payload = await outcome(client.experimental.tasks.getTaskResult(s.taskId, CallToolResultSchema));
    const after = await client.experimental.tasks.getTask(s.taskId);
    return { statuses: s.statuses, end: s.end, result: payloadOf(payload), statusAfter: after.status };
  },

  /** A JSON-RPC error: the task fails; tasks/result should answer with that error. */
  async rpcError({ client, ctl }) {
    const s = await stream(client, ctl, 'rpc_err', {});
    const payload = await outcome(client.experimental.tasks.getTaskResult(s.taskId, CallToolResultSchema));
    const after = await client.experimental.tasks.getTask(s.taskId);
    // The same failure in an optional tool called without a task: McpServer polls the store and
    // returns getTaskResult's outcome as the tools/call answer.
    const plain = await outcome(client.callTool({ name: 'rpc_opt', arguments: {} }));
    return {
      statuses: s.statuses,
      end: s.end,
      result: payloadOf(payload),
      statusAfter: after.status,
      plainCall: payloadOf(plain),
    };
  },

  /** tasks/list over 3+ pages (25 tasks, 10 per page), in creation order; a bad cursor is refused. */
  async list({ client, ctl }) {
    const ids = [];
    for (let i = 0; i < 25; i++) ids.push((await createTask(client, 'quick', { n: i })).taskId);
    await Promise.all(ids.map((id) => ctl.done(id)));
    const seen = [];
    const pageSizes = [];
    let cursor;
    do {
      const page = await client.experimental.tasks.listTasks(cursor);
      pageSizes.push(page.tasks.length);
      seen.push(...page.tasks.map((t) => t.taskId));
      cursor = page.nextCursor;
    } while (cursor !== undefined && pageSizes.length < 10);
    const bad = await outcome(client.experimental.tasks.listTasks('not-a-cursor'));
    return { pageSizes, inCreationOrder: JSON.stringify(seen) === JSON.stringify(ids), badCursor: codeOf(bad) };
  },

  /** TTLs as granted and ttl: 0 (which must expire at once). */
  async ttl({ client, ctl }) {
    const zero = await createTask(client, 'quick', {}, { ttl: 0 });
    await ctl.done(zero.taskId);
    const zeroGet = await outcome(client.experimental.tasks.getTask(zero.taskId));
    const huge = await createTask(client, 'quick', {}, { ttl: 10 * 86_400_000 });
    const none = await createTask(client, 'quick', {}, {});
    await Promise.all([ctl.done(huge.taskId), ctl.done(none.taskId)]);
    return {
      zeroGranted: zero.ttl,
      zeroVisibleAfterwards: codeOf(zeroGet),
      zeroWork: ctl.notesOf(zero.taskId),
      hugeGranted: huge.ttl,
      noneGranted: none.ttl,
    };
  },
};

/** Scenarios that need two HTTP sessions (or HTTP plus a session-less connection) on one store. */
export const multiScenarios = {
  /** Two HTTP sessions cannot see, fetch or cancel each other's tasks. */
  async isolation({ http, ctl }) {
    const a = await http.connect('A');
    const b = await http.connect('B');
    const t = await createTask(a.client, 'work', { steps: 1 });
    const bTasks = b.client.experimental.tasks;
    const obs = {
      otherGet: codeOf(await outcome(bTasks.getTask(t.taskId))),
      otherResult: codeOf(await outcome(bTasks.getTaskResult(t.taskId, CallToolResultSchema))),
      otherCancel: codeOf(await outcome(bTasks.cancelTask(t.taskId))),
      otherList: (await bTasks.listTasks()).tasks.length,
      ownerStatus: (await a.client.experimental.tasks.getTask(t.taskId)).status,
      ownerList: (await a.client.experimental.tasks.listTasks()).tasks.length,
    };
    ctl.openAll(t.taskId);
    await ctl.done(t.taskId);
    obs.ownerStatusAtEnd = (await a.client.experimental.tasks.getTask(t.taskId)).status;
    return obs;
  },

  /** A session-less connection (InMemoryTransport) and an HTTP session share one store. */
  async sessionless({ http, mem, ctl }) {
    const a = await http.connect('A');
    const tMem = await createTask(mem.client, 'work', { steps: 1 });
    const tA = await createTask(a.client, 'work', { steps: 1 });
    const has = (page, id) => page.tasks.some((t) => t.taskId === id);
    const obs = {
      sessionGetsSessionless: codeOf(await outcome(a.client.experimental.tasks.getTask(tMem.taskId))),
      sessionListsSessionless: has(await a.client.experimental.tasks.listTasks(), tMem.taskId),
      sessionlessGetsSession: codeOf(await outcome(mem.client.experimental.tasks.getTask(tA.taskId))),
      sessionlessListsSession: has(await mem.client.experimental.tasks.listTasks(), tA.taskId),
      sessionCancelsSessionless: codeOf(await outcome(a.client.experimental.tasks.cancelTask(tMem.taskId))),
    };
    for (const t of [tMem, tA]) ctl.openAll(t.taskId);
    await Promise.all([ctl.done(tMem.taskId), ctl.done(tA.taskId)]);
    return obs;
  },
};

/**
 * Runs one scenario with a fresh store (`storeKind`: 'wasm' | 'sdk') over `transport`
 * ('memory' | 'http'), and closes everything. Our store uses page size 10 (the SDK's).
 */
export async function run(name, storeKind, transport) {
  const stores = makeStores(storeKind, { pageSize: 10 });
  const ctl = new Control();
  const closers = [];
  try {
    if (scenarios[name]) {
      let client;
      if (transport === 'memory') {
        const mem = await connectInMemory(stores, ctl);
        closers.push(mem.close);
        client = mem.client;
      } else {
        const http = await startHttp(stores, ctl);
        closers.push(http.close);
        client = (await http.connect()).client;
      }
      await client.listTools();
      return await scenarios[name]({ client, ctl, stores });
    }
    const http = await startHttp(stores, ctl);
    closers.push(http.close);
    const mem = await connectInMemory(stores, ctl);
    closers.push(mem.close);
    return await multiScenarios[name]({ http, mem, ctl, stores });
  } finally {
    for (const close of closers.reverse()) await close();
    stores.close();
  }
}

export const SINGLE = Object.keys(scenarios);
export const MULTI = Object.keys(multiScenarios);
