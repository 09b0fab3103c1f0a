// Starts examples/sdk-server (the official SDK 1.x server with mcp-task-core's store) on a
// random 127.0.0.1 port, for the requestor tests: server.mjs is copied into the scratch
// project of the packed package (see helpers/package.mjs), next to the SDK of js-tests.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../helpers/package.mjs';

export const SERVER_DIR = path.join(REPO_ROOT, 'examples', 'sdk-server');

/** Resolves to { url, stop, logs } once the server listens. `pkg` is from installPackage(). */
export async function startSdkServer(pkg, { stepMs = 40 } = {}) {
  const nm = path.join(pkg.dir, 'node_modules');
  const sdk = path.join(REPO_ROOT, 'js-tests', 'node_modules', '@modelcontextprotocol', 'sdk');
  assert.ok(fs.existsSync(sdk), 'js-tests/node_modules missing: run scripts/setup.sh');
  fs.mkdirSync(path.join(nm, '@modelcontextprotocol'), { recursive: true });
  for (const [from, to] of [[sdk, path.join(nm, '@modelcontextprotocol', 'sdk')], [path.join(REPO_ROOT, 'js-tests', 'node_modules', 'zod'), path.join(nm, 'zod')]]) {
    if (!fs.existsSync(to)) fs.symlinkSync(from, to, 'dir');
  }
  fs.copyFileSync(path.join(SERVER_DIR, 'server.mjs'), path.join(pkg.dir, 'server.mjs'));
  const child = spawn(process.execPath, ['server.mjs'], {
    cwd: pkg.dir,
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
