// sdk.js is type-checked (`// @ts-check`, tsc --checkJs) as it ships, and holds to its
// hand-written sdk.d.ts: every export has the declared type, and nothing is exported that
// sdk.d.ts does not declare. The engine calls it makes are checked against index.d.ts, which
// js-tests/types.test.mjs holds to the runtime class.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { after, before, test } from 'node:test';
import { JS_TESTS_DIR, installPackage } from '../helpers/package.mjs';

const run = promisify(execFile);
const TSC = path.join(JS_TESTS_DIR, 'node_modules', 'typescript', 'bin', 'tsc');

// The implementation checked against the declarations (`typeof decl.X = impl.X`), both ways
// for the list of exports.
const CONFORMANCE = `import * as impl from './adapters/sdk-impl.js';
import * as decl from 'mcp-task-core/sdk';

export const WasmTaskStore: typeof decl.WasmTaskStore = impl.WasmTaskStore;
export const WasmTaskMessageQueue: typeof decl.WasmTaskMessageQueue = impl.WasmTaskMessageQueue;
export const JsonRpcError: typeof decl.JsonRpcError = impl.JsonRpcError;
export const TaskStoreError: typeof decl.TaskStoreError = impl.TaskStoreError;
export const jsonRpcErrorResult: typeof decl.jsonRpcErrorResult = impl.jsonRpcErrorResult;
export const propagateTaskCreationErrors: typeof decl.propagateTaskCreationErrors = impl.propagateTaskCreationErrors;
export const withCompanionTools: typeof decl.withCompanionTools = impl.withCompanionTools;
export const JSONRPC_ERROR_META_KEY: typeof decl.JSONRPC_ERROR_META_KEY = impl.JSONRPC_ERROR_META_KEY;
export const undeclared: [Exclude<keyof typeof impl, keyof typeof decl>] extends [never] ? true : false = true;
export const unimplemented: [Exclude<keyof typeof decl, keyof typeof impl>] extends [never] ? true : false = true;
`;

let pkg;
before(() => {
  pkg = installPackage({ prefix: 'mcp-task-core-sdk-types-' });
  // The SDK is a peer dependency: the scratch project gets the test harness's copy.
  fs.mkdirSync(path.join(pkg.dir, 'node_modules', '@modelcontextprotocol'));
  fs.symlinkSync(
    path.join(JS_TESTS_DIR, 'node_modules', '@modelcontextprotocol', 'sdk'),
    path.join(pkg.dir, 'node_modules', '@modelcontextprotocol', 'sdk'),
    'dir',
  );
  // The adapter in its folder next to its imports' declarations, without its own sdk.d.ts (which would shadow it).
  for (const dir of ['adapters', 'storage', 'runtime', 'core']) fs.mkdirSync(path.join(pkg.dir, dir));
  fs.copyFileSync(path.join(pkg.installed, 'types/storage.d.ts'), path.join(pkg.dir, 'storage/storage.d.ts'));
  // The modules it imports, typed by their JSDoc (they are not under this check).
  for (const f of ['runtime/runtime.js', 'runtime/telemetry.js', 'core/errors.js', 'core/engine.js', 'core/protocol.js', 'runtime/companion.js', 'runtime/recycle.js']) {
    fs.writeFileSync(path.join(pkg.dir, f), `// @ts-nocheck\n${fs.readFileSync(path.join(pkg.installed, f), 'utf8')}`);
  }
  fs.writeFileSync(path.join(pkg.dir, 'conformance.ts'), CONFORMANCE);
});
after(() => pkg?.cleanup());

async function tsc(name, implementation) {
  fs.writeFileSync(path.join(pkg.dir, 'adapters/sdk-impl.js'), implementation);
  const config = path.join(pkg.dir, `tsconfig.${name}.json`);
  const compilerOptions = {
    strict: true,
    noEmit: true,
    allowJs: true,
    checkJs: true,
    target: 'es2022',
    lib: ['es2022', 'dom'],
    types: [],
    module: 'nodenext',
    moduleResolution: 'nodenext',
    // The SDK's and zod's declarations are big: not ours to check.
    skipLibCheck: true,
  };
  fs.writeFileSync(config, JSON.stringify({ compilerOptions, files: ['adapters/sdk-impl.js', 'conformance.ts'] }, null, 2));
  try {
    await run(process.execPath, [TSC, '-p', config, '--pretty', 'false'], { cwd: pkg.dir, encoding: 'utf8' });
  } catch (err) {
    assert.fail(`tsc (${name}) failed:\n${err.stdout}${err.stderr}`);
  }
}

test('sdk.js type-checks (checkJs, strict) and matches sdk.d.ts', { timeout: 120_000 }, async () => {
  const source = fs.readFileSync(path.join(pkg.installed, 'adapters/sdk-v1.js'), 'utf8');
  assert.match(source.split('\n')[0], /^\/\/ @ts-check$/);
  await tsc('sdk', source);
});

test('a type error in sdk.js fails the check', { timeout: 120_000 }, async () => {
  const source = fs.readFileSync(path.join(pkg.installed, 'adapters/sdk-v1.js'), 'utf8');
  // A queue whose dequeue hands back JSON text instead of the message.
  const broken = source.replace('return text === null ? undefined : JSON.parse(text);', 'return text ?? undefined;');
  assert.notEqual(broken, source);
  await assert.rejects(tsc('broken', broken), /TS2322|TS2416|TS2345/);
});
