// Types for `mcp-task-core/storage`: the host loop of a TextTaskEngine in storage mode over a
// TaskStorage. WasmTaskStore (mcp-task-core/sdk) runs on it; so can any other host.
import type { TextTaskEngine, TextTaskEngineOutput } from 'mcp-task-core';
import type { TaskStorage } from 'mcp-task-core/sdk';

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
