// Starts examples/sdk-server (the official SDK 1.x server with mcp-task-core's store) on a
// random 127.0.0.1 port, for the requestor tests. Its dependencies are installed by
// scripts/setup.sh (examples/sdk-server/node_modules).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../helpers/package.mjs';

export const SERVER_DIR = path.join(REPO_ROOT, 'examples', 'sdk-server');

/** Resolves to { url, stop, logs } once the server listens. */
export async function startSdkServer({ stepMs = 40 } = {}) {
  assert.ok(fs.existsSync(path.join(SERVER_DIR, 'node_modules')), `${SERVER_DIR}/node_modules missing: run scripts/setup.sh`);
  const child = spawn(process.execPath, ['server.mjs'], {
    cwd: SERVER_DIR,
    env: { ...process.env, PORT: '0', STEP_MS: String(stepMs) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs = [];
  child.stderr.on('data', (d) => logs.push(String(d)));
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${logs.join('')}`)), 20_000);
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const m = out.match(/listening on (http:\/\/\S+)/);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    child.on('exit', (code) => reject(new Error(`server exited with ${code}:\n${logs.join('')}`)));
  });
  const stop = () =>
    new Promise((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', resolve);
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 3_000).unref();
    });
  return { url, stop, logs };
}
