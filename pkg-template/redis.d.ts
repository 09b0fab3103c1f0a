// Types for `mcp-task-core/redis`: task storage on Redis (7.0+) or Valkey for WasmTaskStore.
//
//   import Redis from 'ioredis';
//   import { WasmTaskStore } from 'mcp-task-core/sdk';
//   import { redisStorage } from 'mcp-task-core/redis';
//   const taskStore = new WasmTaskStore({ storage: redisStorage(new Redis(process.env.REDIS_URL)) });
import type { TaskStorage } from 'mcp-task-core/sdk';

/** A Redis client this adapter can drive: ioredis / iovalkey (`call`) or node-redis (`sendCommand`). */
export type RedisClientLike =
  | { call(command: string, ...args: (string | number)[]): Promise<unknown> }
  | { sendCommand(args: string[]): Promise<unknown> };

/** An unknown key throws a `TypeError` that names it. */
export interface RedisStorageOptions {
  /**
   * Key prefix. Default `"mcp-task:"`. Keys: `<prefix>t:<taskId>` (a hash: version, record,
   * context; expires at the task's TTL deadline) and `<prefix>c:<context>` (the context's tasks
   * for listing). On Redis Cluster use a hash tag, e.g. `"{tasks}:"`.
   */
  prefix?: string;
}

export interface RedisTaskStorage extends TaskStorage {
  /** Commands sent so far (each is one round trip; a batch of writes is one script call). */
  readonly roundTrips: number;
}

/**
 * Task storage on Redis or Valkey for `new WasmTaskStore({ storage })`: each write is one Lua
 * script call (compare-and-set on the version of every record of the batch), reads are one
 * command. The client stays yours (connect it, close it).
 */
export declare function redisStorage(client: RedisClientLike, options?: RedisStorageOptions): RedisTaskStorage;
