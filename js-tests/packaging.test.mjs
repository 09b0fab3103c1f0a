// Packaging tests: the packed tarball, installed into a scratch project, imported by a tiny
// app (packaging/app.js) that each of Vite, webpack 5 and esbuild builds with the project's
// own config (packaging/<bundler>/); the output alone is served from 127.0.0.1 and opened in
// headless Chromium, which must load the package's .wasm from that output and answer a
// task-augmented tools/call and a tasks/get. Each build's time is printed.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, test } from 'node:test';
import * as esbuild from 'esbuild';
import { build as viteBuild } from 'vite';
import webpack from 'webpack';
import { withChromium } from './helpers/browser.mjs';
import { JS_TESTS_DIR, installPackage } from './helpers/package.mjs';
import { assertValid } from './helpers/schema.mjs';

let pkg;
let apps; // <scratch>/packaging: a copy of js-tests/packaging beside node_modules/mcp-task-core
before(() => {
  pkg = installPackage({ prefix: 'mcp-task-core-packaging-' });
  apps = path.join(pkg.dir, 'packaging');
  fs.cpSync(path.join(JS_TESTS_DIR, 'packaging'), apps, { recursive: true });
});
after(() => pkg?.cleanup());

const loadConfig = async (file) => (await import(pathToFileURL(file).href)).default;

// Each builder builds <apps>/<name> and returns its output folder and the index.html to serve.
const builders = {
  async vite(dir) {
    await viteBuild({ root: dir, configFile: path.join(dir, 'vite.config.mjs') });
    const out = path.join(dir, 'dist');
    return { out, html: fs.readFileSync(path.join(out, 'index.html'), 'utf8') };
  },
  async webpack(dir) {
    const config = await loadConfig(path.join(dir, 'webpack.config.mjs'));
    const stats = await new Promise((resolve, reject) => webpack(config, (err, s) => (err ? reject(err) : resolve(s))));
    assert.ok(!stats.hasErrors(), stats.toString({ all: false, errors: true }));
    return { out: config.output.path, html: fs.readFileSync(path.join(dir, 'index.html'), 'utf8') };
  },
  async esbuild(dir) {
    const options = await loadConfig(path.join(dir, 'build.mjs'));
    const result = await esbuild.build(options);
    assert.deepEqual(result.errors, []);
    return { out: options.outdir, html: fs.readFileSync(path.join(dir, 'index.html'), 'utf8') };
  },
};

for (const [name, buildApp] of Object.entries(builders)) {
  test(`${name}: a page importing mcp-task-core answers in Chromium`, { timeout: 120_000 }, async (t) => {
    const started = performance.now();
    const { out, html } = await buildApp(path.join(apps, name));
    t.diagnostic(`${name} build: ${Math.round(performance.now() - started)} ms`);

    // The bundler put the module into its output (under whatever name it chose).
    const emitted = fs.readdirSync(out, { recursive: true }).filter((f) => String(f).endsWith('.wasm'));
    assert.equal(emitted.length, 1, `one .wasm in ${name}'s output: ${emitted}`);

    const { status, text, wasmLoads } = await withChromium(
      async (page, baseUrl) => {
        const wasmLoads = [];
        page.on('response', (res) => {
          if (res.url().endsWith('.wasm')) wasmLoads.push({ path: new URL(res.url()).pathname, status: res.status() });
        });
        await page.goto(`${baseUrl}/index.html`);
        await page.waitForFunction(() => document.body.dataset.status, null, { timeout: 20_000 });
        const shown = await page.evaluate(() => ({ status: document.body.dataset.status, text: document.getElementById('replies').textContent }));
        return { ...shown, wasmLoads };
      },
      // Only the build output (and the page) is served: the .wasm must come from there.
      { mounts: { '/': out }, files: { '/index.html': html } },
    );
    assert.equal(status, 'answered', text);
    assert.deepEqual(wasmLoads, [{ path: `/${String(emitted[0]).split(path.sep).join('/')}`, status: 200 }]);

    const [created, got] = JSON.parse(text);
    assertValid('JSONRPCResultResponse', created, 'tools/call reply');
    assertValid('CreateTaskResult', created.result, 'tools/call result');
    assert.equal(created.id, 1);
    assert.equal(created.result.task.status, 'working');
    assertValid('JSONRPCResultResponse', got, 'tasks/get reply');
    assertValid('GetTaskResult', got.result, 'tasks/get result');
    assert.equal(got.id, 2);
    assert.equal(got.result.taskId, created.result.task.taskId);
    assert.equal(got.result.status, 'working');
  });
}
