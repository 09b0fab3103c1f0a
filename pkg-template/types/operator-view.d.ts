// Types of the operator view (internal module, re-exported by mcp-task-core/console and used by
// mcp-task-core/durable-object): the trusted, server-side view of every task of a server. No
// Node or SDK types here, so a Worker's types need none.
import type { TaskFigures } from 'mcp-task-core';

export type OperatorTaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

/** A task as the operator sees it: the protocol's task, plus where it came from when known. */
export interface OperatorTask {
  taskId: string;
  status: OperatorTaskStatus;
  statusMessage?: string;
  createdAt: string;
  lastUpdatedAt: string;
  /** Milliseconds from `createdAt` until the task is deleted; `null`: no limit. */
  ttl: number | null;
  pollInterval?: number;
  /** The tool whose call created the task (`null` when not known). */
  tool: string | null;
  /** The context the task belongs to: the session ID, principal or tenant (`null` when not known). */
  context: string | null;
}

/** A task with its outcome: `result` (completed, or failed with a tool result) or `error` (failed with a JSON-RPC error). */
export interface OperatorTaskDetail extends OperatorTask {
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: unknown };
}

/** An input request a task waits on (an elicitation, a sampling request, ...). */
export interface OperatorInputRequest {
  /** The request's JSON-RPC id, as JSON text (how `answer` names it). */
  requestId: string;
  method: string;
  params: Record<string, unknown>;
}

/**
 * What the console reads: every task of the server, whatever context created it. Trusted,
 * server-side access: give it only to the console (or other operator tools), never to a client.
 */
export interface OperatorView {
  /** Every live task (with `status`, only those). */
  list(filter?: { status?: OperatorTaskStatus }): Promise<OperatorTask[]>;
  /** The task with its outcome, or `null` when no live task has this ID. */
  get(taskId: string): Promise<OperatorTaskDetail | null>;
  /** Cancels the task (its running work is told to stop). Rejects for a task that already ended. */
  cancel(taskId: string, message?: string): Promise<void>;
  /**
   * Optional (with `answer`): the input requests a task waits on, or `null` for no live task.
   * Without the pair the console shows that a task waits but cannot answer it.
   */
  input?(taskId: string): Promise<OperatorInputRequest[] | null>;
  /**
   * Optional (with `input`): answers a task's input request with `result` (e.g. an
   * `ElicitResult`); the waiting work gets it as it would get its client's answer. Rejects when
   * the task does not wait on that request.
   */
  answer?(taskId: string, requestId: string, result: Record<string, unknown>): Promise<void>;
  /**
   * Optional: the runtime's dashboard figures (tasks by status, running work, work waiting for
   * input, expirations, lease failures, storage errors). The console shows them and serves them
   * at `figures`.
   */
  figures?(): TaskFigures | Promise<TaskFigures>;
  /**
   * Optional change hook: `listener(taskId)` after a task changed. The console lists again at
   * once; without the hook (or for changes it misses) it lists every `pollMs`.
   */
  subscribe?(listener: (taskId: string) => void): () => void;
}
