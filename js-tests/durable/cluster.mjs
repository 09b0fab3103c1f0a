// A real Redis Cluster for the tests: Debian's redis-server, one process per node on loopback
// with free ports (client and cluster bus), each in its own temp dir with AOF fsync always,
// joined by `redis-cli --cluster create`. Every process is stopped by its PID and every dir
// removed by `stop()`, and by a process exit hook if a test dies before its `after`.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Redis from 'ioredis';
import { freePort, until } from './lib.mjs';

const live = new Set();
const roots = new Set();
function cleanUp() {
  for (const child of live) {
    try {
      process.kill(child.pid, 'SIGKILL');
    } catch {}
  }
  for (const root of roots) fs.rmSync(root, { recursive: true, force: true });
}
process.once('exit', cleanUp);
for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143]]) {
  process.once(signal, () => {
    cleanUp();
    process.exit(code);
  });
}

function which(name) {
  const bin = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).stdout.trim();
  assert.ok(bin, `${name} not found: run scripts/setup.sh (it installs Debian redis-server)`);
  return bin;
}

function waitForReady(child, port) {
  return new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`redis-server :${port} not ready within 10 s; output:\n${seen}`)), 10_000);
    const onData = (d) => {
      seen += d;
      if (/Ready to accept connections/.test(seen)) {
        clearTimeout(timer);
        child.stdout.off('data', onData);
        child.off('exit', onExit);
        resolve();
      }
    };
    const onExit = (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`redis-server :${port} exited (${code ?? signal}); output:\n${seen}`));
    };
    child.stdout.setEncoding('utf8').on('data', onData);
    child.once('exit', onExit);
  });
}

/**
 * `primaries` primaries with `replicas` replicas each. `nodeTimeoutMs` is the cluster's failure
 * detection time (a killed primary's replica is promoted shortly after it); replicas may take
 * over whatever their data's age (`cluster-replica-validity-factor 0`), as after a restart.
 */
export async function startCluster({ primaries = 3, replicas = 1, nodeTimeoutMs = 1000 } = {}) {
  const server = which('redis-server');
  const cli = which('redis-cli');
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-task-cluster-'));
  roots.add(root);
  const nodes = [];
  const admins = new Map();

  async function start(node) {
    const child = spawn(
      server,
      [
        ...['--port', node.port, '--cluster-port', node.busPort, '--bind', '127.0.0.1', '--protected-mode', 'no', '--dir', node.dir],
        ...['--cluster-enabled', 'yes', '--cluster-config-file', 'nodes.conf', '--cluster-node-timeout', nodeTimeoutMs, '--cluster-replica-validity-factor', 0],
        ...['--appendonly', 'yes', '--appendfsync', 'always', '--save', ''],
      ].map(String),
      { stdio: ['ignore', 'pipe', 'ignore'] },
    );
    live.add(child);
    child.once('exit', () => live.delete(child));
    node.child = child;
    await waitForReady(child, node.port);
  }

  const c = {
    root,
    nodes,
    /** A connection to one node (not cluster-aware), kept until `stop()`. */
    admin(port) {
      let a = admins.get(port);
      if (!a) {
        a = new Redis({ host: '127.0.0.1', port, lazyConnect: false, maxRetriesPerRequest: 1, retryStrategy: () => 100 });
        a.on('error', () => {});
        admins.set(port, a);
      }
      return a;
    },
    /** Seed nodes for `new Redis.Cluster(...)`. */
    seeds: () => nodes.map((n) => ({ host: '127.0.0.1', port: n.port })),
    /** `{ port, id, role, primaryId }` per live node, as `port` sees the cluster. */
    async topology(port = nodes.find((n) => n.child)?.port) {
      const text = await c.admin(port).call('CLUSTER', 'NODES');
      return String(text)
        .trim()
        .split('\n')
        .map((line) => {
          const [id, addr, flags, primaryId] = line.split(' ');
          return { id, port: Number(addr.split(':')[1].split('@')[0]), role: /master/.test(flags) ? 'primary' : 'replica', failed: /fail/.test(flags), primaryId };
        });
    },
    /** The port of the primary serving `key`'s slot, and of its replicas online (as it reports them). */
    async holders(key) {
      const anyPort = nodes.find((n) => n.child)?.port;
      const slot = Number(await c.admin(anyPort).call('CLUSTER', 'KEYSLOT', key));
      const shards = await c.admin(anyPort).call('CLUSTER', 'SLOTS');
      const shard = shards.find(([from, to]) => slot >= from && slot <= to);
      assert.ok(shard, `slot ${slot} is served`);
      const primary = Number(shard[2][1]);
      const info = String(await c.admin(primary).call('INFO', 'replication'));
      const replicas = [...info.matchAll(/^slave\d+:ip=[^,]*,port=(\d+),state=online/gm)].map((m) => Number(m[1]));
      return { slot, primary, replicas };
    },
    /** SIGKILL one node (nothing flushed beyond what fsync already wrote). */
    async kill(port, signal = 'SIGKILL') {
      const node = nodes.find((n) => n.port === port);
      const child = node.child;
      node.child = null;
      admins.get(port)?.disconnect();
      admins.delete(port);
      if (!child || child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      process.kill(child.pid, signal);
      await exited;
    },
    /** Sends a signal to a node (SIGSTOP / SIGCONT: a node that stops answering for a while). */
    signal(port, signal) {
      process.kill(nodes.find((n) => n.port === port).child.pid, signal);
    },
    /** Starts a killed node again from its dir (nodes.conf and AOF). */
    async restart(port) {
      await start(nodes.find((n) => n.port === port));
    },
    /** Waits until every live node reports `cluster_state:ok` and every slot has a live primary. */
    async ready(ms = 15_000) {
      await until(
        async () => {
          for (const n of nodes.filter((x) => x.child)) {
            const info = await c.admin(n.port).call('CLUSTER', 'INFO').catch(() => '');
            if (!/cluster_state:ok/.test(info)) return false;
          }
          return true;
        },
        'cluster_state:ok on every live node',
        ms,
        50,
      );
    },
    /** Waits until `port` is a primary (promoted) in every live node's view. */
    async promoted(port, ms = 15_000) {
      await until(
        async () => {
          for (const n of nodes.filter((x) => x.child)) {
            const view = await c.topology(n.port).catch(() => []);
            if (view.find((v) => v.port === port)?.role !== 'primary') return false;
          }
          return true;
        },
        `:${port} promoted to primary`,
        ms,
        50,
      );
      await c.ready(ms);
    },
    /** Waits until every replica's link to its primary is up and caught up. */
    async synced(ms = 15_000) {
      await until(
        async () => {
          for (const n of nodes.filter((x) => x.child)) {
            const info = String(await c.admin(n.port).call('INFO', 'replication').catch(() => ''));
            if (/role:slave/.test(info) && !/master_link_status:up/.test(info)) return false;
          }
          return true;
        },
        'replicas linked to their primaries',
        ms,
        50,
      );
    },
    async stop() {
      for (const a of admins.values()) a.disconnect();
      admins.clear();
      await Promise.all(nodes.map((n) => c.kill(n.port)));
      fs.rmSync(root, { recursive: true, force: true });
      roots.delete(root);
    },
  };

  try {
    const count = primaries * (1 + replicas);
    for (let i = 0; i < count; i++) {
      const dir = path.join(root, `node-${i}`);
      fs.mkdirSync(dir);
      nodes.push({ port: await freePort(), busPort: await freePort(), dir, child: null });
    }
    // A port can still be taken between the check and the bind: a node that could not bind
    // gets new ports (nothing refers to them before the cluster is created).
    await Promise.all(
      nodes.map(async (node) => {
        for (let attempt = 1; ; attempt++) {
          try {
            return await start(node);
          } catch (err) {
            if (attempt >= 3 || !/Address already in use/.test(err.message)) throw err;
            node.port = await freePort();
            node.busPort = await freePort();
          }
        }
      }),
    );
    const create = spawnSync(cli, ['--cluster', 'create', ...nodes.map((n) => `127.0.0.1:${n.port}`), '--cluster-replicas', String(replicas), '--cluster-yes'], {
      encoding: 'utf8',
      timeout: 30_000,
    });
    assert.equal(create.status, 0, `redis-cli --cluster create failed:\n${create.stdout}${create.stderr}`);
    await c.ready();
    // Every node sees every other one, and the replicas are attached and synced.
    await until(async () => {
      for (const n of nodes) if ((await c.topology(n.port)).length !== count) return false;
      return true;
    }, 'every node knows the whole cluster', 15_000, 50);
    await c.synced();
  } catch (err) {
    await c.stop();
    throw err;
  }
  return c;
}
