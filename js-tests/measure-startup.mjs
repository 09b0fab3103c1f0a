#!/usr/bin/env node
// Startup cost of the package in Node: the time from `import('mcp-task-core')` to the first
// answered request (a task-augmented tools/call → CreateTaskResult), in a fresh process each
// run. Median of RUNS (default 5) runs, for the ESM and the CommonJS entries, using the packed
// package (npm pack of pkg/, as a user installs it). Not a test: it prints the figures.
//
//   scripts/build-pkg.sh && node js-tests/measure-startup.mjs      (RUNS=9 for more runs)
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { installPackage } from './helpers/package.mjs';

const RUNS = Number(process.env.RUNS ?? 5);
const REQUEST = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow","arguments":{},"task":{"ttl":60000}}}';

// performance.now() counts from the process's time origin, so the second figure is the
// time from process start to the first answer.
const probes = {
  esm: `const t0 = performance.now();
const { TextTaskEngine } = await import('mcp-task-core');
const engine = new TextTaskEngine({ tools: { slow: 'required' } });
const reply = engine.handle(${JSON.stringify(REQUEST)}, 'ctx');
const t1 = performance.now();
if (!JSON.parse(reply).result.task) throw new Error('no CreateTaskResult: ' + reply);
console.log(JSON.stringify({ importToReply: t1 - t0, processToReply: t1 }));
`,
  cjs: `const t0 = performance.now();
const { TextTaskEngine } = require('mcp-task-core');
const engine = new TextTaskEngine({ tools: { slow: 'required' } });
const reply = engine.handle(${JSON.stringify(REQUEST)}, 'ctx');
const t1 = performance.now();
if (!JSON.parse(reply).result.task) throw new Error('no CreateTaskResult: ' + reply);
console.log(JSON.stringify({ importToReply: t1 - t0, processToReply: t1 }));
`,
};

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

const pkg = installPackage({ prefix: 'mcp-task-core-startup-' });
try {
  fs.writeFileSync(path.join(pkg.dir, 'probe-esm.mjs'), probes.esm);
  fs.writeFileSync(path.join(pkg.dir, 'probe-cjs.cjs'), probes.cjs);
  const wasm = fs.statSync(path.join(pkg.installed, 'node-esm', 'mcp_task_core_bg.wasm')).size;
  console.log(`mcp-task-core ${pkg.version}, node ${process.version}, ${RUNS} fresh processes each, wasm ${wasm} B`);
  for (const [name, file] of [['ESM import', 'probe-esm.mjs'], ['CJS require', 'probe-cjs.cjs']]) {
    const runs = [];
    for (let i = 0; i < RUNS; i++) {
      const out = execFileSync(process.execPath, [file], { cwd: pkg.dir, encoding: 'utf8' });
      runs.push(JSON.parse(out.trim().split('\n').pop()));
    }
    const a = runs.map((r) => r.importToReply);
    const b = runs.map((r) => r.processToReply);
    console.log(
      `${name.padEnd(11)}: import → first answered request: median ${median(a).toFixed(1)} ms ` +
        `(min ${Math.min(...a).toFixed(1)}, max ${Math.max(...a).toFixed(1)}); ` +
        `process start → first answer: median ${median(b).toFixed(1)} ms`,
    );
  }
} finally {
  pkg.cleanup();
}
