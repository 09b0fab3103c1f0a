// Companion tools, for clients that do not speak tasks (both SDK adapters): a task tool answers
// such a client with a result naming the task, and two plain tools follow it: a status tool (the
// status, its message and, once done, the outcome) and a cancel tool. What they list and answer
// lives here once; each adapter reaches the task through its own tasks/get, tasks/cancel and
// outcome calls, so the same context rules apply as to those requests.
import { PROTOCOL } from '../core/protocol.js';

const DEFAULT_NAMES = { status: 'task_status', cancel: 'task_cancel' };
const isPlainObject = (value) => value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * A companion option as `{ status, cancel }` tool names, or null (off): `undefined`/`false`
 * off, `true` the default names, or an object naming either tool. `what` names the option in
 * the error.
 * @param {unknown} option
 * @param {string} what
 * @returns {{ status: string, cancel: string } | null}
 */
export function companionNames(option, what) {
  if (option === undefined || option === false) return null;
  if (option === true) return { ...DEFAULT_NAMES };
  const valid =
    isPlainObject(option) &&
    Object.keys(option).every((k) => k in DEFAULT_NAMES) &&
    Object.values(option).every((v) => typeof v === 'string' && v !== '') &&
    (option.status ?? DEFAULT_NAMES.status) !== (option.cancel ?? DEFAULT_NAMES.cancel);
  if (!valid) throw new TypeError(`${what} must be true, or { status: 'task_status', cancel: 'task_cancel' } (two different names, neither empty)`);
  return { ...DEFAULT_NAMES, .../** @type {object} */ (option) };
}

/**
 * The companion tools as tools/list shows them to a client that does not speak tasks.
 * @param {{ status: string, cancel: string }} names
 */
export function companionTools(names) {
  const taskId = { type: 'object', properties: { taskId: { type: 'string', description: 'The task ID a task tool answered with' } }, required: ['taskId'] };
  return [
    { name: names.status, description: 'Status of a task a tool started: its status and message, and the outcome once it is done.', inputSchema: taskId },
    { name: names.cancel, description: 'Cancels a task a tool started.', inputSchema: taskId },
  ];
}

/**
 * A CallToolResult a model reads: `text`, tied to `taskId` when there is one.
 * @param {string | undefined} taskId
 * @param {string} text
 */
export function companionResult(taskId, text, isError = false) {
  /** @type {{ content: { type: 'text', text: string }[], _meta: Record<string, unknown>, isError?: true }} */
  const result = { content: [{ type: 'text', text }], _meta: taskId === undefined ? {} : { [PROTOCOL.meta.relatedTask]: { taskId } } };
  if (isError) result.isError = true;
  return result;
}

/**
 * The result that answers a task tool's call at once, for a client with no task support: the
 * task's ID and what to call next.
 * @param {string} taskId
 * @param {{ status: string, cancel: string }} names
 */
export function companionStarted(taskId, names) {
  return companionResult(
    taskId,
    `Started task ${taskId}: it runs in the background. Call ${names.status} with { "taskId": "${taskId}" } to see its status and, once it is done, ` +
      `its outcome; call ${names.cancel} with the same arguments to stop it.`,
  );
}

/**
 * A companion tool's answer to a call of tool `name` with `args`, through the adapter's calls:
 * `get(taskId)` and `cancel(taskId)` give the task (as tasks/get shows it), `outcome(task)` a
 * finished task's `{ result }` or `{ error }`. Errors of those calls are answered as an
 * `isError` result with their message.
 * @param {string} name
 * @param {any} args
 * @param {{ status: string, cancel: string }} names
 * @param {{ get(taskId: string): Promise<any>, cancel(taskId: string): Promise<any>, outcome(task: any): Promise<{ result?: any, error?: { message: string } }> }} calls
 */
export async function companionAnswer(name, args, names, calls) {
  const taskId = args?.taskId;
  if (typeof taskId !== 'string' || taskId === '') return companionResult(undefined, `${name} needs { taskId }: the task ID a task tool answered with`, true);
  try {
    if (name === names.cancel) return companionResult(taskId, `Task ${taskId} is ${(await calls.cancel(taskId)).status}.`);
    const task = await calls.get(taskId);
    const lines = [`Task ${taskId} is ${task.status}.`];
    if (typeof task.statusMessage === 'string') lines.push(`Status message: ${task.statusMessage}`);
    if (task.status === 'completed' || task.status === 'failed') {
      const outcome = await calls.outcome(task);
      if (outcome.error !== undefined) return companionResult(taskId, [...lines, `Error: ${outcome.error.message}`].join('\n'), true);
      const result = outcome.result;
      const text = { type: 'text', text: [...lines, 'Outcome:'].join('\n') };
      return { ...result, content: [text, ...(result.content ?? [])], _meta: { ...result._meta, [PROTOCOL.meta.relatedTask]: { taskId } } };
    }
    if (task.status === 'working' || task.status === 'input_required') lines.push(`Call ${names.status} again with { "taskId": "${taskId}" } to follow it, or ${names.cancel} to stop it.`);
    return companionResult(taskId, lines.join('\n'));
  } catch (err) {
    return companionResult(taskId, err instanceof Error ? err.message : String(err), true);
  }
}
