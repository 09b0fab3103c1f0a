// The operator view over a receiver's TaskRuntime (internal): the trusted, server-side view of
// every task its engine holds, whatever context created it, for the task console and other
// operator tools. The SDK 2.x runtime (tasksExtensionOperatorView in console.js) and the Durable
// Object (TaskEngineObject#operatorView) both hand out this one; never reachable from a request
// path of the MCP endpoint.

/**
 * The outcome members of a finished task: `result`, or `error` (a JSON-RPC error).
 * @param {{ kind: string, json: string }} outcome  the engine's (TextTaskEngine.getTaskResult)
 */
function outcomeOf(outcome) {
  return outcome.kind === 'error' ? { error: JSON.parse(outcome.json) } : { result: JSON.parse(outcome.json) };
}

/**
 * `list`, `get`, `cancel`, `input` and `answer` over `runtime` (runtime.js): each task read in
 * its own context; `cancel(taskId, message)` is the adapter's (so the work's signal fires);
 * `input` and `answer` are the runtime's pending input of a task and its answer, which reaches
 * the work as the client's answer would. Tool names are not kept by the runtime (`tool` is null).
 * @param {import('./runtime.js').TaskRuntime} runtime
 * @param {(taskId: string, message?: string) => unknown} cancel
 */
export function runtimeOperatorView(runtime, cancel) {
  // The runtime's engine at each call: recycling may have replaced it.
  /** @param {string} taskId */
  const read = (taskId) => {
    const engine = runtime.engine;
    const context = engine.taskContext(taskId);
    if (context === undefined) return null;
    const text = engine.getTask(taskId, context);
    return text === null || text === undefined ? null : { ...JSON.parse(text), tool: null, context };
  };
  return {
    async list(/** @type {{ status?: string }} */ filter = {}) {
      /** @type {{ id: string }[]} */
      const records = JSON.parse(runtime.engine.snapshot());
      const tasks = [];
      for (const { id } of records) {
        const task = read(id);
        if (task !== null && (filter.status === undefined || task.status === filter.status)) tasks.push(task);
      }
      return tasks.sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0));
    },
    async get(/** @type {string} */ taskId) {
      const task = typeof taskId === 'string' ? read(taskId) : null;
      if (task === null || (task.status !== 'completed' && task.status !== 'failed')) return task;
      return { ...task, ...outcomeOf(runtime.engine.getTaskResult(taskId, task.context)) };
    },
    async cancel(/** @type {string} */ taskId, /** @type {string | undefined} */ message) {
      await cancel(taskId, message);
    },
    input(/** @type {string} */ taskId) {
      return runtime.pendingInput(taskId);
    },
    /** The runtime's dashboard figures. */
    figures() {
      return runtime.figures();
    },
    answer(/** @type {string} */ taskId, /** @type {string} */ requestId, /** @type {object} */ result) {
      return runtime.answerInput(taskId, requestId, result);
    },
  };
}
