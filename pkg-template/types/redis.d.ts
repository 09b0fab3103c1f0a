// Types for `mcp-task-core/redis`: task storage on Redis (7.0+), Valkey or a Redis Cluster for
// WasmTaskStore.
//
//   import Redis from 'ioredis';
//   import { WasmTaskStore } from 'mcp-task-core/sdk';
//   import { redisStorage } from 'mcp-task-core/redis';
//   const taskStore = new WasmTaskStore({ storage: redisStorage(new Redis(process.env.REDIS_URL)) });
import type { TaskStorage } from 'mcp-task-core/sdk';

/**
 * A Redis client this adapter can drive: ioredis / iovalkey (`call`; a `Cluster` of theirs, which
 * has `isCluster: true`, for a Redis Cluster) or node-redis (`sendCommand`, one server).
 */
export type RedisClientLike =
  | { call(command: string, ...args: (string | number)[]): Promise<unknown>; readonly isCluster?: boolean }
  | { sendCommand(args: string[]): Promise<unknown> };

/** An unknown key throws a `TypeError` that names it. */
export interface RedisStorageOptions {
  /**
   * Key prefix. Default `"mcp-task:"`, or `"{mcp-task}:"` on a cluster client. Keys:
   * `<prefix>t:<taskId>` (a hash: version, record, context; expires at the task's TTL deadline)
   * and `<prefix>c:<context>` (the context's tasks for listing). On a Redis Cluster the prefix
   * must hold a hash tag (a `TypeError` says so otherwise): each write is one script over
   * several of these keys, so they share one slot, served by one primary and its replicas.
   */
  prefix?: string;
  /**
   * Replicas that must have a write before it is acknowledged (Redis `WAIT`, in the write's
   * round trip). Default 0: Redis replicates asynchronously, so a write acknowledged just
   * before its primary fails may be missing on the replica promoted in its place. With `n`, a
   * write fewer than `n` replicas confirmed within `replicaTimeoutMs` rejects (the caller gets
   * a storage error) — though it did reach the primary.
   */
  replicas?: number;
  /** How long a write waits for `replicas` (milliseconds). Default 1000. */
  replicaTimeoutMs?: number;
}

export interface RedisTaskStorage extends TaskStorage {
  /** Commands sent so far (each is one round trip; a batch of writes is one script call). */
  readonly roundTrips: number;
}

/**
 * Task storage on Redis, Valkey or a Redis Cluster for `new WasmTaskStore({ storage })`: each
 * write is one Lua script call (compare-and-set on the version of every record of the batch),
 * reads are one command. The client stays yours (connect it, close it).
 */
export declare function redisStorage(client: RedisClientLike, options?: RedisStorageOptions): RedisTaskStorage;
