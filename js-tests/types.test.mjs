// The hand-written types: js-tests/types/consumer.ts (ES module) and consumer-cjs.cts
// (CommonJS) use the whole typed surface and are checked with `tsc --noEmit` against the
// packed package, as a user's project would see it (strict, skipLibCheck off, no DOM or Node
// types). Also: index.d.ts and index.d.cts say the same, and name exactly the methods the
// runtime class has.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { after, before, test } from 'node:test';
import { JS_TESTS_DIR, REPO_ROOT, installPackage } from './helpers/package.mjs';

const run = promisify(execFile);
const TSC = path.join(JS_TESTS_DIR, 'node_modules', 'typescript', 'bin', 'tsc');

let pkg;
before(() => {
  pkg = installPackage();
  for (const f of ['consumer.ts', 'consumer-cjs.cts']) fs.copyFileSync(path.join(JS_TESTS_DIR, 'types', f), path.join(pkg.dir, f));
});
after(() => pkg?.cleanup());

const BASE = {
  strict: true,
  noEmit: true,
  target: 'es2022',
  lib: ['es2022'],
  types: [],
  skipLibCheck: false,
  noUnusedLocals: true,
  exactOptionalPropertyTypes: true,
};

async function tsc(name, compilerOptions, files) {
  const config = path.join(pkg.dir, `tsconfig.${name}.json`);
  fs.writeFileSync(config, JSON.stringify({ compilerOptions: { ...BASE, ...compilerOptions }, files }, null, 2));
  try {
    await run(process.execPath, [TSC, '-p', config, '--pretty', 'false'], { cwd: pkg.dir, encoding: 'utf8' });
  } catch (err) {
    assert.fail(`tsc (${name}) failed:\n${err.stdout}${err.stderr}`);
  }
}

test('tsc --noEmit: ESM and CJS consumers (module nodenext)', { timeout: 60_000 }, async () => {
  await tsc('nodenext', { module: 'nodenext', moduleResolution: 'nodenext' }, ['consumer.ts', 'consumer-cjs.cts']);
});

test('tsc --noEmit: ESM consumer (moduleResolution bundler)', { timeout: 60_000 }, async () => {
  await tsc('bundler', { module: 'esnext', moduleResolution: 'bundler' }, ['consumer.ts']);
});

test('a type error in a consumer fails the check', { timeout: 60_000 }, async () => {
  fs.writeFileSync(path.join(pkg.dir, 'broken.ts'), "import { TaskEngine } from 'mcp-task-core';\nnew TaskEngine().handle(42);\n");
  await assert.rejects(tsc('broken', { module: 'nodenext', moduleResolution: 'nodenext' }, ['broken.ts']), /TS2345/);
});

test('index.d.ts and index.d.cts agree, and match the runtime class', async () => {
  // index.d.ts re-exports the object-mode requestor from requestor.d.ts.
  const dts = ['index.d.ts', 'requestor.d.ts'].map((f) => fs.readFileSync(path.join(REPO_ROOT, 'pkg-template', f), 'utf8')).join('\n');
  const dcts = fs.readFileSync(path.join(pkg.installed, 'index.d.cts'), 'utf8');
  const body = (text) => text.split('\n').slice(text.split('\n').findIndex((l) => !l.startsWith('//'))).join('\n');
  const index = fs.readFileSync(path.join(REPO_ROOT, 'pkg-template', 'index.d.ts'), 'utf8');
  assert.equal(body(dcts), body(index), 'the packed index.d.cts is index.d.ts with a generated header');
  assert.ok(pkg.files.includes('index.d.ts') && pkg.files.includes('index.d.cts'));

  const mod = await pkg.importEsm();
  // Every class and function the package exports is declared...
  const declaredExports = new Set([...dts.matchAll(/^export (?:declare class|function) (\w+)/gm)].map((m) => m[1]));
  assert.deepEqual(Object.keys(mod).filter((n) => !declaredExports.has(n)).sort(), [], 'exports missing from index.d.ts');
  assert.deepEqual([...declaredExports].filter((n) => !(n in mod)).sort(), [], 'declared exports missing at runtime');
  // ...with exactly the members the runtime classes have.
  for (const name of ['TaskEngine', 'TextTaskRequestor', 'TaskRequestor', 'TaskClient']) {
    const start = dts.indexOf(`export declare class ${name} {`);
    assert.ok(start >= 0, `class ${name} declared`);
    const classBody = dts.slice(start, dts.indexOf('\n}\n', start));
    const declared = new Set([...classBody.matchAll(/^ {2}(?:readonly )?(\w+)[(:<]/gm)].map((m) => m[1]).filter((n) => n !== 'constructor'));
    assert.ok(declared.size >= 10, `parsed ${declared.size} members of ${name}`);
    const runtime = new Set(Object.getOwnPropertyNames(mod[name].prototype).filter((n) => n !== 'constructor' && !n.startsWith('__')));
    assert.deepEqual([...runtime].filter((n) => !declared.has(n)).sort(), [], `${name}: runtime members missing from index.d.ts`);
    assert.deepEqual([...declared].filter((n) => !runtime.has(n)).sort(), [], `${name}: declared members missing at runtime`);
  }
});
