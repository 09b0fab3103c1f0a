// Types for `mcp-task-core/durable-object` (Cloudflare Workers): a Durable Object holding the
// task engine for one session or tenant, its records in the object's SQLite storage.
import type { TextExecuteOutput, TextTaskEngine, TaskEngineOptions } from 'mcp-task-core';

/** The parts of a Durable Object namespace binding used for routing. */
export interface TaskObjectNamespace {
  idFromName(name: string): unknown;
  get(id: any): { fetch(request: Request): Promise<Response> };
}

/**
 * Sends `request` to the object of its session or tenant: `keyOf(request)` names it (default:
 * the `mcp-session-id` header, else `x-tenant`, else "default").
 */
export declare function routeToTaskObject(request: Request, namespace: TaskObjectNamespace, keyOf?: (request: Request) => string): Promise<Response>;

/**
 * Extend it (and bind it as a SQLite-backed Durable Object class). Every task change is written
 * to table `mcp_tasks` with a compare-and-set before anything after it is delivered; records
 * are restored when the object starts; the alarm is armed at the engine's next deadline
 * (expiry, lease renewals) and `alarm()` runs `handleTimeout()`.
 */
export declare class TaskEngineObject {
  constructor(ctx: any, env: any);
  protected readonly ctx: any;
  protected readonly env: any;
  /** The engine (restored from storage). */
  readonly engine: TextTaskEngine;
  /**
   * TaskEngine options (tools, ttl, limits...), checked by the engine (an unknown key throws).
   * `store` is set by the class: returning one throws a `TypeError`.
   */
  engineOptions(): Omit<TaskEngineOptions, 'store'>;
  /** Lease of work running in this object, ms (a positive integer, else a `TypeError`). Default 30 000. */
  leaseMs(): number;
  /** Runs a task's work, then calls `complete` or `fail`. Default: fails it (no executor). */
  execute(task: TextExecuteOutput): Promise<void>;
  /** The work of `taskId` must stop. */
  cancelled(taskId: string): void;
  /**
   * A damaged row of `mcp_tasks` (unreadable, another task's record, a version that disagrees),
   * with what was found, for the operator's log (never sent to a client). Default:
   * `console.error`. A task held here fails with a storage-corruption error written over the
   * damage; a row found damaged at start is left out, and the object starts with the rest.
   */
  damaged(detail: string, taskId: string): void;
  /** A JSON-RPC message that is not about tasks; the reply text or null. Default: -32601. */
  forward(message: string, context: string | null): Promise<string | null>;
  /** The engine context of a request. Default: the routing key. */
  contextOf(request: Request): string | null;
  /** One JSON-RPC message: the reply text (a `tasks/result` on a running task waits for it), or null. */
  handle(message: string, context?: string | null): Promise<string | null>;
  complete(taskId: string, resultJson: string): Promise<string>;
  fail(taskId: string, errorJson: string): Promise<string>;
  alarm(): Promise<void>;
  /** POST one JSON-RPC message; the reply as JSON, or 202 without a body. */
  fetch(request: Request): Promise<Response>;
}
