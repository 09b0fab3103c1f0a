// Pipeline smoke test: the built package (npm pack of pkg/) loads and runs in Node ESM,
// Node CJS, headless Chromium and workerd. Placeholder until the real API tests land; it
// only needs `engine_version()` and the `Echo` class of the scratch crate.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { REPO_ROOT, withChromium } from './helpers/browser.mjs';
import { withWorkerd } from './helpers/workerd.mjs';

const PKG_DIR = process.env.PKG_DIR || path.join(REPO_ROOT, 'pkg');
let tmp; // scratch project with node_modules/mcp-task-core unpacked from the tarball
let installed; // tmp/node_modules/mcp-task-core
let version;

before(() => {
  assert.ok(fs.existsSync(path.join(PKG_DIR, 'package.json')), `${PKG_DIR} missing: run scripts/build-pkg.sh`);
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-task-core-smoke-'));
  const out = execFileSync('npm', ['pack', PKG_DIR, '--pack-destination', tmp, '--json', '--silent'], {
    encoding: 'utf8',
  });
  const [{ filename }] = JSON.parse(out);
  installed = path.join(tmp, 'node_modules', 'mcp-task-core');
  fs.mkdirSync(installed, { recursive: true });
  execFileSync('tar', ['-xzf', path.join(tmp, filename), '-C', installed, '--strip-components=1']);
  version = JSON.parse(fs.readFileSync(path.join(installed, 'package.json'), 'utf8')).version;
});

after(() => {
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

function check(mod, where) {
  assert.equal(mod.engine_version(), version, `${where}: engine_version()`);
  const echo = new mod.Echo();
  assert.equal(echo.handle(`hi ${where}`), `echo:0:hi ${where}`);
  echo.free();
}

test('node ESM: import "mcp-task-core"', async () => {
  const probe = path.join(tmp, 'probe.mjs');
  fs.writeFileSync(probe, "export * from 'mcp-task-core';\n");
  const mod = await import(pathToFileURL(probe).href);
  await mod.init();
  check(mod, 'esm');
});

test('node CJS: require("mcp-task-core")', async () => {
  const mod = createRequire(path.join(tmp, 'probe.cjs'))('mcp-task-core');
  await mod.init();
  check(mod, 'cjs');
});

test('chromium: browser build via import map', { timeout: 120_000 }, async () => {
  const { exports } = JSON.parse(fs.readFileSync(path.join(installed, 'package.json'), 'utf8'));
  const entry = exports['.'].browser.replace(/^\.\//, '/pkg/');
  const html = `<!doctype html><meta charset="utf-8"><title>smoke</title>
<script type="importmap">${JSON.stringify({ imports: { 'mcp-task-core': entry } })}</script>`;
  const result = await withChromium(
    async (page, baseUrl) => {
      await page.goto(`${baseUrl}/smoke.html`);
      return page.evaluate(async () => {
        const m = await import('mcp-task-core');
        await m.init();
        const echo = new m.Echo();
        return { version: m.engine_version(), echo: echo.handle('hi browser') };
      });
    },
    { mounts: { '/pkg/': installed }, files: { '/smoke.html': html } },
  );
  assert.deepEqual(result, { version, echo: 'echo:0:hi browser' });
});

test('workerd (miniflare): workerd build', { timeout: 120_000 }, async () => {
  const script = `
import { engine_version, Echo } from 'mcp-task-core';
export default {
  async fetch(request) {
    const body = await request.text();
    return Response.json({ version: engine_version(), echo: new Echo().handle(body) });
  },
};`;
  const result = await withWorkerd({ script, pkgDir: installed }, async (url) => {
    assert.equal(url.hostname, '127.0.0.1');
    const res = await fetch(url, { method: 'POST', body: 'hi workerd' });
    assert.equal(res.status, 200);
    return res.json();
  });
  assert.deepEqual(result, { version, echo: 'echo:0:hi workerd' });
});
