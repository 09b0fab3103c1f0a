// mcp-task-core/redis (ESM): task storage on Redis or Valkey for WasmTaskStore's `storage`
// option. Glue only: it moves the engine's records; the engine decides every status.
//
//   import Redis from 'ioredis';
//   import { redisStorage } from 'mcp-task-core/redis';
//   const taskStore = new WasmTaskStore({ storage: redisStorage(new Redis(url)) });
//
// Layout (PREFIX defaults to "mcp-task:", or "{mcp-task}:" on a cluster client):
//   PREFIX t:<taskId>    hash { v: version, r: record JSON, c: context }, PEXPIREAT = the task's
//                        TTL deadline (Redis drops the record when the engine would)
//   PREFIX c:<context>   sorted set of the context's task IDs by creation time (for listing);
//                        members whose task expired are dropped when the context is listed
// Every write is one Lua script call (compare-and-set on `v` for each record of the batch, then
// HSET + PEXPIREAT + ZADD), so an operation costs one round trip (a write on a task that is not
// held locally, or a read, costs one more: the load). A script touches several tasks' keys and
// their context's: on a Redis Cluster they must share a slot, so the prefix must hold a hash
// tag (e.g. "{tasks}:"), and every key of a storage lives on one primary (and its replicas).
// Redis replicates asynchronously: with `replicas: n` a write is acknowledged only once n
// replicas have it (WAIT, sent on the connection that wrote, in the same round trip).
// No file here imports a Redis client: pass your own (ioredis, iovalkey or node-redis; for a
// cluster, an ioredis / iovalkey Cluster); the caller owns it and closes it.
// The CommonJS entry redis.cjs is generated from this file by scripts/build-pkg.sh.
import { refuseUnknownOptions } from '../core/errors.js';

/**
 * Compare-and-set a batch. KEYS[i]: task hash i; ARGV: prefix, score, then 7 per record. A key
 * that is not a hash (damage) reads as version "type:<its type>", so the engine's repair can
 * replace it. Reply per record: {1} written; {0} gone; {0, version, record} what is there.
 */
const CAS_SCRIPT = `
local prefix = ARGV[1]
local score = ARGV[2]
local out = {}
for i = 1, #KEYS do
  local b = 2 + (i - 1) * 7
  local expected, version, op, record = ARGV[b + 1], ARGV[b + 2], ARGV[b + 3], ARGV[b + 4]
  local expiresAt, context, taskId = ARGV[b + 5], ARGV[b + 6], ARGV[b + 7]
  local key = KEYS[i]
  local cur = redis.pcall('HMGET', key, 'v', 'r', 'c')
  local found, wrongType = nil, false
  if cur.err then
    found, wrongType, cur = 'type:' .. redis.call('TYPE', key).ok, true, {false, false, false}
  elseif cur[1] or cur[2] then
    found = cur[1] or ''
  end
  if (found or '') ~= expected then
    if found then out[i] = {0, found, cur[2]} else out[i] = {0} end
  else
    if wrongType then redis.call('DEL', key) end
    if op == 'del' then
      redis.call('DEL', key)
      if cur[3] then redis.call('ZREM', prefix .. 'c:' .. cur[3], taskId) end
    else
      redis.call('HSET', key, 'v', version, 'r', record, 'c', context)
      if expiresAt ~= '' then redis.call('PEXPIREAT', key, expiresAt) end
      if not cur[1] then
        local ckey = prefix .. 'c:' .. context
        local existed = redis.call('EXISTS', ckey)
        redis.call('ZADD', ckey, 'NX', score, taskId)
        if expiresAt == '' then
          redis.call('PERSIST', ckey)
        elseif existed == 0 then
          redis.call('PEXPIREAT', ckey, expiresAt)
        else
          redis.call('PEXPIREAT', ckey, expiresAt, 'GT')
        end
      end
    end
    out[i] = {1}
  end
end
return out
`;

/**
 * Every task key of a context, as [id, version, record, ...]: record false (nil) for a key that
 * is not a hash (its version then "type:<type>"). KEYS[1]: the set; ARGV[1]: prefix.
 */
const LIST_SCRIPT = `
local ids = redis.call('ZRANGE', KEYS[1], 0, -1)
local out = {}
for _, id in ipairs(ids) do
  local key = ARGV[1] .. 't:' .. id
  local cur = redis.pcall('HMGET', key, 'v', 'r')
  if cur.err then
    out[#out + 1] = id
    out[#out + 1] = 'type:' .. redis.call('TYPE', key).ok
    out[#out + 1] = false
  elseif cur[1] or cur[2] then
    out[#out + 1] = id
    out[#out + 1] = cur[1] or ''
    out[#out + 1] = cur[2]
  else
    redis.call('ZREM', KEYS[1], id)
  end
end
return out
`;

/** A Redis reply value as text, or null. */
const text = (v) => (v === null || v === undefined || v === false ? null : String(v));

/**
 * A Redis error for the storage's caller: Redis names the script (its SHA-1 and line) in
 * errors raised inside one; that is for the operator, not for a client, so it stays in `cause`.
 */
function redisError(err) {
  const message = String(err && err.message !== undefined ? err.message : err);
  const clean = message
    .replace(/\s*\(call to f_[0-9a-f]{40}\)/g, '')
    .replace(/,?\s*script: [0-9a-f]{40}[^\n]*/g, '')
    .replace(/@user_script:\d+:\s*/g, '');
  return clean === message ? err : Object.assign(new Error(clean, { cause: err }), { code: err && err.code });
}

async function sha1Hex(text) {
  const digest = await globalThis.crypto.subtle.digest('SHA-1', new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** `send(args)` for the client: ioredis / iovalkey (`call`) or node-redis (`sendCommand([...])`). */
function commandSender(client) {
  if (client && typeof client.call === 'function') return (args) => client.call(...args);
  if (client && typeof client.sendCommand === 'function') return (args) => client.sendCommand(args);
  throw new TypeError('redisStorage(client): client must be an ioredis / iovalkey client (client.call) or a node-redis client (client.sendCommand)');
}

/**
 * `sendThenWait(args, wait)`: the command, then `wait` (a WAIT) on the connection that ran it,
 * in one round trip; resolves to `[reply, waitReply]` and rejects with the command's error.
 * ioredis / iovalkey: a pipeline (on a cluster it goes to the node serving the command's keys);
 * node-redis: two commands queued back to back on its one connection. `counted()`: once per
 * extra round trip.
 */
function waitingSender(client, send, counted) {
  if (typeof client.pipeline !== 'function') {
    return async (args, wait) => {
      const [reply, waited] = await Promise.allSettled([send(args), send(wait)]);
      if (reply.status === 'rejected') throw reply.reason;
      if (waited.status === 'rejected') throw waited.reason;
      return [reply.value, waited.value];
    };
  }
  return async (args, wait) => {
    for (let attempt = 1; ; attempt++) {
      const [[err, reply], [waitErr, waited]] = await client.pipeline().call(...args).call(...wait).exec();
      // After a failover the client's slot map is stale: the script did not run (MOVED). A
      // plain read of the same key lets the client follow the redirection; then again.
      if (err && /^MOVED /.test(err.message) && attempt < 3) {
        counted();
        await client.call('EXISTS', args[3]);
        counted();
        continue;
      }
      if (err) throw err;
      if (waitErr) throw waitErr;
      return [reply, waited];
    }
  };
}

/** True when the prefix holds a Redis Cluster hash tag: a non-empty `{...}`, the first `{`. */
function hasHashTag(prefix) {
  const open = prefix.indexOf('{');
  return open >= 0 && prefix.indexOf('}', open + 1) > open + 1;
}

/**
 * A storage for `new WasmTaskStore({ storage })` on Redis (7.0+), Valkey or a Redis Cluster.
 * @param {object} client  a connected ioredis / iovalkey / node-redis client, or an ioredis /
 *   iovalkey Cluster
 * @param {{ prefix?: string, replicas?: number, replicaTimeoutMs?: number }} [options]
 * @returns {{ load(taskId: string): Promise<{ record: string | null, version: string } | null>,
 *             loadContext(context: string | null): Promise<{ taskId: string, record: string | null, version: string }[]>,
 *             write(persists: object[]): Promise<(null | { conflict: string | null, version?: string })[]>,
 *             roundTrips: number }}
 */
export function redisStorage(client, options = {}) {
  const send = commandSender(client);
  if (options === null || typeof options !== 'object') throw new TypeError('redisStorage options must be an object');
  refuseUnknownOptions(options, ['prefix', 'replicas', 'replicaTimeoutMs'], 'redisStorage options.');
  const cluster = client.isCluster === true;
  const prefix = options.prefix ?? (cluster ? '{mcp-task}:' : 'mcp-task:');
  if (typeof prefix !== 'string') throw new TypeError('options.prefix must be a string');
  if (cluster && !hasHashTag(prefix)) {
    throw new TypeError(
      `options.prefix ${JSON.stringify(prefix)} holds no hash tag: on a Redis Cluster every key of the storage must share one slot (its scripts touch several), so put one in it, e.g. "{${prefix.replace(/[:{}]+$/, '') || 'mcp-task'}}:"`,
    );
  }
  const replicas = options.replicas ?? 0;
  if (!Number.isInteger(replicas) || replicas < 0) throw new TypeError('options.replicas must be a non-negative integer (replicas that must have a write before it is acknowledged)');
  const replicaTimeoutMs = options.replicaTimeoutMs ?? 1000;
  if (!Number.isInteger(replicaTimeoutMs) || replicaTimeoutMs < 1) throw new TypeError('options.replicaTimeoutMs must be a positive integer of milliseconds');
  const sendThenWait = replicas > 0 ? waitingSender(client, send, () => storage.roundTrips++) : null;
  const shas = new Map();
  const storage = {
    /** Commands sent (each one round trip; a batch of writes is one command). */
    roundTrips: 0,
    /** `{ record, version }` as stored (record null: the key is not a task hash), or null. */
    async load(taskId) {
      storage.roundTrips++;
      const key = prefix + 't:' + taskId;
      let got;
      try {
        got = await send(['HMGET', key, 'v', 'r']);
      } catch (err) {
        if (!String(err && err.message).startsWith('WRONGTYPE')) throw err;
        storage.roundTrips++;
        return { record: null, version: 'type:' + String(await send(['TYPE', key])) };
      }
      const [version, record] = got;
      if (text(version) === null && text(record) === null) return null;
      return { record: text(record), version: text(version) ?? '' };
    },
    async loadContext(context) {
      const flat = await script(LIST_SCRIPT, [prefix + 'c:' + (context ?? '')], [prefix]);
      const out = [];
      for (let i = 0; i + 2 < flat.length; i += 3) out.push({ taskId: String(flat[i]), version: String(flat[i + 1]), record: text(flat[i + 2]) });
      return out;
    },
    async write(persists) {
      if (persists.length === 0) return [];
      const keys = [];
      const args = [prefix, String(Date.now())];
      for (const p of persists) {
        keys.push(prefix + 't:' + p.taskId);
        const del = p.record === null;
        args.push(
          p.expectedVersion === null ? '' : String(p.expectedVersion),
          String(p.version),
          del ? 'del' : 'set',
          del ? '' : p.record,
          p.expiresAt === null || p.expiresAt === undefined ? '' : String(p.expiresAt),
          p.context ?? '',
          p.taskId,
        );
      }
      const replies = await script(CAS_SCRIPT, keys, args, sendThenWait);
      return replies.map((r) => (Number(r[0]) === 1 ? null : r.length > 1 ? { conflict: text(r[2]), version: String(r[1]) } : { conflict: null }));
    },
  };
  /** Runs a script (EVALSHA, or EVAL when the server lacks it); `waiting`: then WAIT for replicas. */
  async function script(source, keys, args, waiting = null) {
    let sha = shas.get(source);
    if (!sha) shas.set(source, (sha = await sha1Hex(source)));
    const run = async (command) => {
      storage.roundTrips++;
      if (!waiting) return send(command);
      // WAIT waits for the replication offset as of the connection's last command, whatever it
      // was: so it also covers a retry that finds its write landed (written by an earlier
      // attempt, maybe on a connection since lost). The cluster test checks it.
      const [reply, acked] = await waiting(command, ['WAIT', String(replicas), String(replicaTimeoutMs)]);
      if (Number(acked) < replicas) {
        throw new Error(
          `Redis: ${acked} of ${replicas} replica(s) confirmed the write within ${replicaTimeoutMs} ms, so it is not acknowledged (it reached the primary and may be lost if the primary fails)`,
        );
      }
      return reply;
    };
    try {
      return await run(['EVALSHA', sha, String(keys.length), ...keys, ...args]);
    } catch (err) {
      // A restarted (or flushed, or newly promoted) server lacks the script: EVAL loads it.
      if (!String(err && err.message).startsWith('NOSCRIPT')) throw redisError(err);
      return run(['EVAL', source, String(keys.length), ...keys, ...args]).catch((e) => {
        throw redisError(e);
      });
    }
  }
  return storage;
}
