// Types for `mcp-task-core/storage`: the host loop of a TextTaskEngine in storage mode over a
// TaskStorage. WasmTaskStore (mcp-task-core/sdk) and TasksExtension (mcp-task-core/server) run on it; so can any other host.
import type { TextTaskEngine, TextTaskEngineOutput } from 'mcp-task-core';

/** One task change for the storage: the engine's `persist` output plus the task's context. */
export interface StoragePersist {
  taskId: string;
  /** The engine context (session) of the task; absent when the record is deleted. */
  context?: string | null;
  /**
   * The version the storage must hold; `null`: the task must not exist yet. A string: a repair
   * of damage under the task's key, whose version the storage reported as this text.
   */
  expectedVersion: number | string | null;
  /** The version written. */
  version: number;
  /** The record (JSON text) to keep; `null`: delete it. */
  record: string | null;
  /** When the storage may drop the record by itself (the TTL deadline, epoch ms), or `null`. */
  expiresAt: number | null;
}

/**
 * Where `WasmTaskStore({ storage })` and `TasksExtension({ storage })` keep records: three calls, no rules (the engine decides
 * every status). `mcp-task-core/redis` implements it on Redis / Valkey; anything with an atomic
 * compare-and-set can (a SQL row with a version column, a Durable Object, ...).
 */
export interface TaskStorage {
  /**
   * What the storage holds under a task's key, or `null` when there is nothing (never created,
   * or expired): the record text alone, or `{ record, version }` with the version text kept
   * beside it for the compare-and-set (`record: null`: the key holds no task record, say a
   * value of another type; its `version` then names what is there). The engine judges it: a
   * record that is not the task's, or whose version disagrees, is damage (see `restoreStored`).
   */
  load(taskId: string): Promise<string | { record: string | null; version: string | null } | null>;
  /** Every stored record of a context (for `tasks/list`), in creation order; damaged ones are left out of the page. */
  loadContext(context: string | null): Promise<{ taskId: string; record: string | null; version?: string | null }[]>;
  /**
   * Writes each persist if the stored version equals its `expectedVersion` (`null`: absent; a
   * string: exactly that version text). Resolves to one entry per persist: `null` when written,
   * else `{ conflict, version? }` with what is stored now (`conflict: null` and no `version`:
   * nothing). Rejects when the outcome is unknown (the store then retries).
   */
  write(persists: StoragePersist[]): Promise<(null | { conflict: string | null; version?: string | null })[]>;
}

/** An unknown key throws a `TypeError` that names it. */
export interface StorageLoopOptions {
  /** A caller waits at most this long for the storage (then `storageError`). Default 5000 ms. */
  timeoutMs?: number;
  /** Every output except `persist`, once its task's write landed, in order. */
  onOutput?: (output: TextTaskEngineOutput) => void;
  /** Maps an error thrown by the engine (default: as is). */
  engineError?: (error: unknown) => unknown;
  /** The error thrown when the storage does not answer (default: an Error with code -32603, reason `storage_unavailable`). */
  storageError?: (why: string) => Error;
  /** The error thrown when a task keeps changing under an operation (default: code -32603, reason `storage_conflict`). */
  conflictError?: (attempts: number) => Error;
  /**
   * Told about every damaged record found under a task's key (what is there, for the operator's
   * log; never sent to a client). Default: `console.error`. The engine decides the outcome: a
   * task held here fails with a storage-corruption error written over the damage, a list page
   * leaves it out, a read of it fails with -32603 `damaged_record`.
   */
  onDamaged?: (detail: string, taskId: string) => void;
}

/** What an operation needs loaded and whether it changes its task. */
export interface StoragePlan {
  /** Load this task first (skipped for a write on a task held here: the compare-and-set checks it). */
  taskId?: string;
  /** Load this context's tasks first (for listing). */
  context?: string | null;
  /** The operation changes its task (`taskId`, or the `taskId` of what it returns). */
  write?: boolean;
}

/**
 * Runs engine operations one at a time over a storage: loads what the plan names, calls
 * `fn(engine)`, writes every `persist` output with a compare-and-set before delivering what
 * follows, and on a conflict restores the stored record and runs the operation again.
 */
export declare class StorageLoop {
  constructor(storage: TaskStorage, options?: StorageLoopOptions);
  run<T>(engine: TextTaskEngine, plan: StoragePlan, fn: (engine: TextTaskEngine) => T): Promise<T>;
  /** `handleTimeout()` (lease renewals and checks, expiry) and its writes. Call it at `engine.nextDeadline()`. */
  tick(engine: TextTaskEngine): Promise<void>;
}

/**
 * The storage options every adapter with a `storage` option shares (`WasmTaskStore`,
 * `TasksExtension`): they apply only with `storage`.
 */
export interface StorageHostOptions {
  /** Names this process in leases (a boot token; never reuse one). Default: random. */
  instanceId?: string;
  /** How long running work's lease lasts without a renewal. Default 30 000 ms. */
  leaseMs?: number;
  /**
   * 32 hex digits, the same on every instance, so a `tasks/list` cursor made by one instance
   * pages on another (behind a load balancer). Without it each instance's cursors are its own
   * (another instance answers -32602 "cursor is not valid"). Keep it secret.
   */
  cursorKey?: string;
  /**
   * A call or request that gets no answer from the storage within this time fails with -32603
   * (reason `storage_unavailable`; `WasmTaskStore` throws it as a `TaskStoreError`, which the SDK
   * sends as the JSON-RPC error). A call still queued then never runs; a write already sent, or
   * an outcome the work reported, is settled in the background (retried until the storage
   * answers). Default 5000.
   */
  storageTimeoutMs?: number;
  /**
   * Where a damaged record is reported (unreadable, another task's, a version that disagrees, a
   * key of the wrong type), once per finding, with the operator's detail. Clients only ever see
   * -32603. Default: a line on stderr.
   */
  onDamaged?: (detail: string, taskId: string) => void;
}
