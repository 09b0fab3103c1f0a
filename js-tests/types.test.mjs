// The hand-written types: js-tests/types/consumer.ts, consumer-object.ts (ES modules) and
// consumer-cjs.cts (CommonJS) use the whole typed surface and are checked with `tsc --noEmit` against the
// packed package, as a user's project would see it (strict, skipLibCheck off, no DOM or Node
// types). Also: index.d.ts and index.d.cts say the same, name exactly the methods the
// runtime classes have, and every TaskEngine member returns a value of its declared type.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';
import { after, before, test } from 'node:test';
import { manualClock, sequentialIds } from './helpers/checked.mjs';
import { JS_TESTS_DIR, REPO_ROOT, installPackage } from './helpers/package.mjs';

const ts = createRequire(import.meta.url)('typescript');

const run = promisify(execFile);
const TSC = path.join(JS_TESTS_DIR, 'node_modules', 'typescript', 'bin', 'tsc');

let pkg;
before(() => {
  pkg = installPackage();
  for (const f of ['consumer.ts', 'consumer-object.ts', 'consumer-cjs.cts']) fs.copyFileSync(path.join(JS_TESTS_DIR, 'types', f), path.join(pkg.dir, f));
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
  await tsc('nodenext', { module: 'nodenext', moduleResolution: 'nodenext' }, ['consumer.ts', 'consumer-object.ts', 'consumer-cjs.cts']);
});

test('tsc --noEmit: ESM consumer (moduleResolution bundler)', { timeout: 60_000 }, async () => {
  await tsc('bundler', { module: 'esnext', moduleResolution: 'bundler' }, ['consumer.ts', 'consumer-object.ts']);
});

test('a type error in a consumer fails the check', { timeout: 60_000 }, async () => {
  fs.writeFileSync(path.join(pkg.dir, 'broken.ts'), "import { TextTaskEngine } from 'mcp-task-core';\nnew TextTaskEngine().handle(42);\n");
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
  for (const name of ['TaskEngine', 'TextTaskEngine', 'TextTaskRequestor', 'TaskRequestor', 'TaskClient']) {
    const start = dts.indexOf(`export declare class ${name} {`);
    assert.ok(start >= 0, `class ${name} declared`);
    // A class also has the members of the interface of its name (shared ones, declared once).
    const bodies = [dts.slice(start, dts.indexOf('\n}\n', start))];
    const merged = dts.match(new RegExp(`^export interface ${name} extends (\\w+)<`, 'm'));
    if (merged) {
      const base = dts.indexOf(`export interface ${merged[1]}<`);
      assert.ok(base >= 0, `interface ${merged[1]} declared`);
      bodies.push(dts.slice(base, dts.indexOf('\n}\n', base)));
    }
    const names = bodies.map((body) => [...body.matchAll(/^ {2}(?:readonly )?(\w+)[(:<]/gm)].map((m) => m[1]).filter((n) => n !== 'constructor'));
    assert.deepEqual(names[0].filter((n) => names[1]?.includes(n)), [], `${name}: each member declared once`);
    const declared = new Set(names.flat());
    assert.ok(declared.size >= 10, `parsed ${declared.size} members of ${name}`);
    const runtime = new Set(Object.getOwnPropertyNames(mod[name].prototype).filter((n) => n !== 'constructor' && !n.startsWith('__')));
    assert.deepEqual([...runtime].filter((n) => !declared.has(n)).sort(), [], `${name}: runtime members missing from index.d.ts`);
    assert.deepEqual([...declared].filter((n) => !runtime.has(n)).sort(), [], `${name}: declared members missing at runtime`);
  }
});

const DTS_PATH = path.join(REPO_ROOT, 'pkg-template', 'index.d.ts');
const REQUESTOR_DTS_PATH = path.join(REPO_ROOT, 'pkg-template', 'requestor.d.ts');

/**
 * `{ name: { kind: 'method' | 'property', type: ts.TypeNode, node, values } }` of a declared class's
 * instance members: its own, and those of the interface of its name and the generic interface
 * that one extends (the members both engine classes share), `values` naming the interface its
 * type argument binds (what `V['task']` and the like resolve through).
 */
function declaredMembers(source, className) {
  const cls = source.statements.find((s) => ts.isClassDeclaration(s) && s.name?.text === className);
  assert.ok(cls, `class ${className} declared`);
  const members = {};
  const add = (list, values) => {
    for (const m of list) {
      if (!m.name || ts.isConstructorDeclaration(m) || m.modifiers?.some((x) => x.kind === ts.SyntaxKind.StaticKeyword)) continue;
      const kind = ts.isMethodDeclaration(m) || ts.isMethodSignature(m) ? 'method' : 'property';
      members[m.name.text] = { kind, type: m.type, node: m, values };
    }
  };
  add(cls.members, null);
  const merged = source.statements.find((s) => ts.isInterfaceDeclaration(s) && s.name.text === className);
  for (const clause of merged?.heritageClauses ?? []) {
    for (const base of clause.types) {
      const shared = source.statements.find((s) => ts.isInterfaceDeclaration(s) && s.name.text === base.expression.getText(source));
      assert.ok(shared, `interface ${base.expression.getText(source)} declared`);
      add(shared.members, base.typeArguments?.[0]?.getText(source) ?? null);
    }
  }
  return members;
}

/**
 * The runtime kinds a declared type allows: 'null', 'undefined', 'string', 'number',
 * 'boolean', 'object' or 'array' (type aliases of index.d.ts followed, interfaces are objects,
 * `V['key']` read from the values interface `values`).
 */
function allowedKinds(source, type, values = null) {
  const K = ts.SyntaxKind;
  switch (type.kind) {
    case K.UnionType:
      return new Set(type.types.flatMap((t) => [...allowedKinds(source, t, values)]));
    case K.ParenthesizedType:
      return allowedKinds(source, type.type, values);
    case K.IndexedAccessType: {
      // V['task']: the type of `task` in the values interface the class binds V to.
      const iface = source.statements.find((s) => ts.isInterfaceDeclaration(s) && s.name.text === values);
      assert.ok(iface, `${type.getText(source)} needs the values interface, got ${values}`);
      const key = type.indexType.literal.text;
      const member = iface.members.find((m) => m.name?.text === key);
      assert.ok(member, `${values} has ${key}`);
      return allowedKinds(source, member.type, values);
    }
    case K.StringKeyword:
      return new Set(['string']);
    case K.NumberKeyword:
      return new Set(['number']);
    case K.BooleanKeyword:
      return new Set(['boolean']);
    case K.VoidKeyword:
    case K.UndefinedKeyword:
      return new Set(['undefined']);
    case K.LiteralType:
      if (type.literal.kind === K.NullKeyword) return new Set(['null']);
      if (type.literal.kind === K.StringLiteral) return new Set(['string']);
      return new Set([typeof JSON.parse(type.literal.getText(source))]);
    case K.ArrayType:
      return new Set(['array']);
    case K.TypeLiteral:
    case K.MappedType:
      return new Set(['object']);
    case K.TypeReference: {
      const name = type.typeName.getText(source);
      const alias = source.statements.find((s) => ts.isTypeAliasDeclaration(s) && s.name.text === name);
      return alias ? allowedKinds(source, alias.type) : new Set(['object']);
    }
    default:
      assert.fail(`unexpected type ${type.getText(source)}`);
  }
}

const kindOf = (v) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

test('every TaskEngine member returns a value of its declared type (null vs undefined vs string vs object)', async () => {
  const source = ts.createSourceFile('index.d.ts', fs.readFileSync(DTS_PATH, 'utf8'), ts.ScriptTarget.Latest, true);
  const members = declaredMembers(source, 'TaskEngine');
  // The object-mode consumer uses every member (with its declared types).
  const consumer = fs.readFileSync(path.join(JS_TESTS_DIR, 'types', 'consumer-object.ts'), 'utf8');
  for (const name of Object.keys(members)) assert.match(consumer, new RegExp(`\\.${name}\\b`), `consumer-object.ts uses TaskEngine.${name}`);

  const { TaskEngine } = await pkg.importEsm();
  const clock = manualClock();
  const e = new TaskEngine({ now: clock.now, newTaskId: sequentialIds(), tools: { slow: 'required' } });
  const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': { extensions: { 'io.modelcontextprotocol/tasks': {} } } };
  const call = (id, name) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, task: {}, _meta: { progressToken: 'p' } } });
  let task;
  // Each member, called so that each of its results shows up where one can (e.g. both a task and `null`).
  const calls = {
    textEngine: () => [e.textEngine],
    handle: () => [e.handle(call(1, 'slow'), 's'), e.handle({ jsonrpc: '2.0', method: 'notifications/initialized' }, 's')],
    startTask: () => [e.startTask({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'slow', _meta: meta } }, 's')],
    listenTasks: () => [
      e.listenTasks({ jsonrpc: '2.0', id: 3, method: 'subscriptions/listen', params: { _meta: meta, notifications: { taskIds: [] } } }, 's'),
      e.listenTasks({ jsonrpc: '2.0', id: 4, method: 'subscriptions/listen', params: { notifications: { taskIds: ['x'] } } }, 's'),
    ],
    unlistenTasks: () => [e.unlistenTasks(3, 's')],
    pollOutput: () => {
      const outs = [];
      for (let o; (o = e.pollOutput()) !== null; ) outs.push(o);
      return [...outs, e.pollOutput()];
    },
    pendingOutputs: () => [e.pendingOutputs],
    nextDeadline: () => [e.nextDeadline()],
    handleTimeout: () => [e.handleTimeout()],
    capabilities: () => [e.capabilities('s')],
    registerTool: () => [e.registerTool('t', 'optional')],
    createTask: () => [(task = e.createTask('s', 'tools/call', 60_000, 'tok'))],
    setStatusMessage: () => [e.setStatusMessage(task.taskId, 'busy')],
    reportProgress: () => [e.reportProgress(task.taskId, 1, 2, null)],
    requestInput: () => [e.requestInput(task.taskId, 'elicitation/create', { message: 'm', requestedSchema: { type: 'object', properties: {} } })],
    resume: () => [e.resume(task.taskId)],
    taskContext: () => [e.taskContext(task.taskId), e.taskContext(e.createTask(null, 'tools/call').taskId), e.taskContext('none')],
    getTask: () => [e.getTask(task.taskId, 's'), e.getTask('none', 's')],
    exportTask: () => [e.exportTask(task.taskId), e.exportTask('none')],
    snapshot: () => [e.snapshot()],
    restore: () => [e.restore(e.exportTask(task.taskId))],
    restoreStored: () => [e.restoreStored(task.taskId, e.exportTask(task.taskId), null), e.restoreStored(e.createTask('s', 'tools/call').taskId, '{', null)],
    restoreSnapshot: () => [e.restoreSnapshot(e.snapshot())],
    complete: () => [e.complete(task.taskId, { content: [] })],
    getTaskResult: () => [e.getTaskResult(task.taskId, 's')],
    listTasks: () => [e.listTasks('s')],
    fail: () => [e.fail(e.createTask('s', 'tools/call').taskId, { code: 1, message: 'm' })],
    cancel: () => [e.cancel(e.createTask('s', 'tools/call').taskId)],
    cancelTask: () => [e.cancelTask(e.createTask('s', 'tools/call').taskId, 's')],
    updateTaskStatus: () => [e.updateTaskStatus(e.createTask('s', 'tools/call').taskId, 's', 'input_required')],
    storeTaskResult: () => [e.storeTaskResult(e.createTask('s', 'tools/call').taskId, 's', 'failed', { kind: 'result', result: { content: [] } })],
    forgetTask: () => [e.forgetTask(task.taskId), e.forgetTask(task.taskId)],
    taskCount: () => [e.taskCount],
    free: () => [e.free()],
  };
  assert.deepEqual(Object.keys(calls).sort(), Object.keys(members).sort(), 'a call for every declared member');
  for (const [name, run] of Object.entries(calls)) {
    const allowed = allowedKinds(source, members[name].type, members[name].values);
    for (const value of run()) {
      assert.ok(allowed.has(kindOf(value)), `TaskEngine.${name} returned ${kindOf(value)}; declared ${members[name].type.getText(source)}`);
    }
  }
  // And the check can fail: a method declared to return a string returns an object here.
  assert.equal(allowedKinds(source, members.snapshot.type).has(kindOf(e.constructor.extensionCapability())), false);
  // ...and a shared member's type is read through TaskEngine's values: a task is an object here.
  assert.deepEqual([...allowedKinds(source, members.resume.type, members.resume.values)], ['object']);
});

test('each doc comment of index.d.ts sits on its member and agrees with its type', () => {
  const index = ts.createSourceFile('index.d.ts', fs.readFileSync(DTS_PATH, 'utf8'), ts.ScriptTarget.Latest, true);
  const requestor = ts.createSourceFile('requestor.d.ts', fs.readFileSync(REQUESTOR_DTS_PATH, 'utf8'), ts.ScriptTarget.Latest, true);
  const codes = allowedCodes(index);
  const problems = [];
  const classes = [
    [index, ['TaskEngine', 'TextTaskEngine', 'TextTaskRequestor']],
    [requestor, ['TaskRequestor', 'TaskClient']],
  ];
  for (const [source, className] of classes.flatMap(([source, names]) => names.map((name) => [source, name]))) {
    const cls = source.statements.find((s) => ts.isClassDeclaration(s) && s.name?.text === className);
    assert.ok(cls, `${className} is declared in ${source.fileName}`);
    // The class's own members (the constructor and statics too), and the shared ones it takes from an interface.
    const own = cls.members.map((m) => ({ node: m, values: null }));
    const shared = Object.values(declaredMembers(source, className)).filter((m) => m.values !== null);
    for (const { node: m, values } of [...own, ...shared]) {
      const name = `${className}.${m.name?.getText(source) ?? 'constructor'}`;
      const docs = ts.getJSDocCommentsAndTags(m).filter(ts.isJSDoc);
      // A doc moved one member up or down leaves a member with none, or with two.
      if (docs.length !== 1) {
        problems.push(`${name}: ${docs.length} doc comments`);
        continue;
      }
      const doc = docs[0].getText(source);
      for (const code of doc.matchAll(/@throws \{\w+\} ((?:`\w+`(?:,? )?)+)/g)) {
        for (const [, c] of code[1].matchAll(/`(\w+)`/g)) if (!codes.has(c)) problems.push(`${name}: @throws names unknown code ${c}`);
      }
      if (!m.type || ts.isConstructorDeclaration(m)) continue;
      const kinds = allowedKinds(source, m.type, values);
      const returned = (word) => new RegExp(`(or|returns?|\\()[\\s*]*\`${word}\``, 'i').test(doc);
      if (kinds.has('null') !== returned('null')) {
        problems.push(`${name}: returns ${m.type.getText(source)}, doc ${returned('null') ? 'says' : 'does not say'} \`null\``);
      }
      if (kinds.has('undefined') && m.type.kind !== ts.SyntaxKind.VoidKeyword && !returned('undefined')) problems.push(`${name}: may return undefined, doc does not say so`);
      if (!kinds.has('undefined') && returned('undefined')) problems.push(`${name}: doc says it returns \`undefined\`, the type does not`);
    }
  }
  assert.deepEqual(problems, []);
});

/** The codes of TaskEngineErrorCode. */
function allowedCodes(source) {
  const alias = source.statements.find((s) => ts.isTypeAliasDeclaration(s) && s.name.text === 'TaskEngineErrorCode');
  return new Set(alias.type.types.map((t) => t.literal.text));
}
