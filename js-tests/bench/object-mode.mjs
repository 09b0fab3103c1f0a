// TaskEngine (plain JS values) against TextTaskEngine (JSON text): what the JSON.parse of
// every output and the JSON.stringify of every input cost on the wire path. Both loops start
// from message objects (a text host stringifies them itself) and drain every output.
//
//   node js-tests/bench/object-mode.mjs [N]          (default N = 20000; BENCH_PKG_DIR as for run.mjs)
//
// Prints operations per second per phase, medians of 5 interleaved runs. Nothing is asserted.
import { importEngine, liftedLimits } from './lib.mjs';

const N = Number(process.argv[2] ?? 20_000);
const RESULT = { content: [{ type: 'text', text: 'x'.repeat(256) }] };
const { TaskEngine, TextTaskEngine } = await importEngine();

function run(Engine, objectMode) {
  const e = new Engine({ tools: { b: 'required' }, limits: liftedLimits() });
  const drain = () => {
    for (let o; (o = e.pollOutput()) !== null; );
  };
  const feed = (message) => {
    const reply = e.handle(objectMode ? message : JSON.stringify(message), 'c');
    drain();
    return objectMode ? reply : JSON.parse(reply);
  };
  const time = {};
  let t = performance.now();
  const ids = [];
  for (let i = 0; i < N; i++) ids.push(feed({ jsonrpc: '2.0', id: i, method: 'tools/call', params: { name: 'b', task: {} } }).result.task.taskId);
  time.create = performance.now() - t;
  t = performance.now();
  for (let i = 0; i < N; i++) feed({ jsonrpc: '2.0', id: i, method: 'tasks/get', params: { taskId: ids[i] } });
  time.get = performance.now() - t;
  t = performance.now();
  for (let i = 0; i < N; i++) {
    e.complete(ids[i], objectMode ? RESULT : JSON.stringify(RESULT));
    drain();
  }
  time.complete = performance.now() - t;
  t = performance.now();
  for (let i = 0; i < N; i++) feed({ jsonrpc: '2.0', id: i, method: 'tasks/result', params: { taskId: ids[i] } });
  time.result = performance.now() - t;
  e.free();
  return time;
}

const median = (xs) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
run(TextTaskEngine, false); // warm-up
run(TaskEngine, true);
const runs = { text: [], object: [] };
for (let r = 0; r < 5; r++) {
  runs.text.push(run(TextTaskEngine, false));
  runs.object.push(run(TaskEngine, true));
}
console.log(`N = ${N}, ops/s (median of 5)`);
console.log('phase      TextTaskEngine   TaskEngine   object/text');
for (const phase of ['create', 'get', 'complete', 'result']) {
  const [text, object] = ['text', 'object'].map((k) => N / (median(runs[k].map((t) => t[phase])) / 1000));
  console.log(`${phase.padEnd(10)} ${text.toFixed(0).padStart(14)} ${object.toFixed(0).padStart(12)} ${(object / text).toFixed(2).padStart(13)}`);
}
