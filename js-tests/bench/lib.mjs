// Shared helpers of the benchmark (js-tests/bench). No timed assertions: figures are reported,
// never asserted.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const BENCH_DIR = path.dirname(fileURLToPath(import.meta.url));
export const JS_TESTS_DIR = path.resolve(BENCH_DIR, '..');
export const REPO_ROOT = path.resolve(JS_TESTS_DIR, '..');
/** The built package (scripts/build-pkg.sh). BENCH_PKG_DIR points elsewhere, e.g. a build with wasm names for profiling. */
export const PKG_DIR = path.resolve(process.env.BENCH_PKG_DIR || path.join(REPO_ROOT, 'pkg'));
// Child processes (spawned with another cwd) inherit the absolute path.
process.env.BENCH_PKG_DIR = PKG_DIR;
export const T0 = Date.parse('2025-11-25T00:00:00.000Z');

/**
 * The clock of the P1, P2 and P2e phases, in ms: wall time, or with BENCH_CPU_TIME=1 this process's CPU time
 * (user + system, all its threads), which other processes on a loaded machine do not inflate.
 */
export const phaseClock = process.env.BENCH_CPU_TIME === '1' ? () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
} : () => performance.now();

/** Limits lifted for benchmarks (the default rate limit would refuse most tasks/* requests). */
export function liftedLimits(maxTasks = 4_000_000) {
  const noLimit = 9e15;
  return { rateLimit: null, maxRunningTasksPerKey: maxTasks, maxRunningTasksTotal: maxTasks, maxStoredBytesPerKey: noLimit, maxStoredBytesTotal: noLimit };
}

// ---- wasm linear memory -------------------------------------------------------------------
// The wasm-bindgen glue does not export the instance's memory. Wrap WebAssembly.Instance before
// the package is imported so the benchmark can read memory.buffer.byteLength. (Node counts a
// wasm memory's growth in process.memoryUsage().external, not in arrayBuffers, and `external`
// also moves with unrelated native allocations; reading the buffer size is exact.) Held weakly:
// an instance the package dropped (a recycled engine's) must be free to go.
const wasmMemories = [];
{
  const Original = WebAssembly.Instance;
  WebAssembly.Instance = new Proxy(Original, {
    construct(target, args, newTarget) {
      const instance = Reflect.construct(target, args, newTarget);
      const memory = instance.exports && instance.exports.memory;
      if (memory instanceof WebAssembly.Memory) wasmMemories.push(new WeakRef(memory));
      return instance;
    },
  });
}
/** Bytes of every wasm linear memory of this process still alive. */
export function wasmMemoryBytes() {
  return wasmMemories.reduce((n, ref) => n + (ref.deref()?.buffer.byteLength ?? 0), 0);
}

// ---- package loading ----------------------------------------------------------------------
export async function importEngine() {
  return import(pathToFileURL(path.join(PKG_DIR, 'entries/index.node.mjs')).href);
}
export async function importOurSdk() {
  return import(pathToFileURL(path.join(PKG_DIR, 'adapters/sdk-v1.js')).href);
}
export function pkgHasSdk() {
  return fs.existsSync(path.join(PKG_DIR, 'adapters/sdk-v1.js'));
}

// ---- statistics ---------------------------------------------------------------------------
export function median(xs) {
  return quantile(xs, 0.5);
}
/** Nearest-rank quantile (q in [0, 1]). */
export function quantile(xs, q) {
  if (xs.length === 0) return NaN;
  const s = Float64Array.from(xs).sort();
  const i = Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1));
  return s[i];
}

export function gc() {
  if (typeof globalThis.gc !== 'function') throw new Error('run with node --expose-gc');
  for (let i = 0; i < 4; i++) globalThis.gc();
}

/**
 * Runs `fn` `warmup` times untimed, then `runs` times; each call returns its own measurement
 * (an object of numbers). Returns the per-key median and all samples.
 */
export async function repeat(fn, { warmup = 2, runs = 5 } = {}) {
  for (let i = 0; i < warmup; i++) await fn(true);
  const samples = [];
  for (let i = 0; i < runs; i++) samples.push(await fn(false));
  const out = {};
  for (const k of Object.keys(samples[0])) out[k] = median(samples.map((s) => s[k]));
  return { median: out, samples };
}

// ---- child processes ----------------------------------------------------------------------
/**
 * Runs `node [nodeArgs] script args` and returns its stdout's last line parsed as JSON
 * (children print exactly one JSON line last).
 */
export function runNode(script, args = [], { nodeArgs = ['--expose-gc'], env = {}, cwd = JS_TESTS_DIR } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeArgs, script, ...args], {
      cwd,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`${path.basename(script)} ${args.join(' ')} exited ${code}\n${err}`));
      const line = out.trim().split('\n').pop();
      try {
        resolve(JSON.parse(line));
      } catch {
        reject(new Error(`${path.basename(script)}: no JSON on stdout\n${out}\n${err}`));
      }
    });
  });
}

export function cpuModel() {
  try {
    const m = /^model name\s*:\s*(.+)$/m.exec(fs.readFileSync('/proc/cpuinfo', 'utf8'));
    if (m) return m[1].trim();
  } catch {
    // not Linux
  }
  return os.cpus()[0]?.model ?? 'unknown';
}

const FILLER = 'x'.repeat(64 * 1024);
const EMPTY_RESULT = '{"content":[{"type":"text","text":""}]}';
/**
 * A CallToolResult whose JSON text is exactly `bytes` long and unique to `i`. Built with
 * JSON.parse, as a result arriving from the wire or a tool's JSON would be, so its strings are
 * flat and its own (String.prototype.padEnd or `+` would make cons strings that share their
 * filler between results and undercount what a store retains).
 */
export function resultOf(i, bytes = 1024) {
  const text = (`r${i}:` + FILLER).slice(0, bytes - EMPTY_RESULT.length);
  return JSON.parse(`{"content":[{"type":"text","text":"${text}"}]}`);
}

/** Fastest-first formatting helpers. */
export function fmtNum(n, digits = 3) {
  if (n === null || n === undefined || Number.isNaN(n)) return '—';
  if (!Number.isFinite(n)) return String(n);
  const a = Math.abs(n);
  if (a >= 1e9) return (n / 1e9).toFixed(2) + 'G';
  if (a >= 1e6) return (n / 1e6).toFixed(2) + 'M';
  if (a >= 1e4) return (n / 1e3).toFixed(1) + 'k';
  if (a >= 100) return n.toFixed(0);
  return n.toPrecision(digits);
}
export function fmtTime(ns) {
  if (ns === null || ns === undefined || Number.isNaN(ns)) return '—';
  if (ns >= 1e9) return (ns / 1e9).toFixed(2) + ' s';
  if (ns >= 1e6) return (ns / 1e6).toFixed(2) + ' ms';
  if (ns >= 1e3) return (ns / 1e3).toFixed(2) + ' µs';
  return ns.toFixed(0) + ' ns';
}
export function fmtBytes(b) {
  if (b === null || b === undefined || Number.isNaN(b)) return '—';
  if (Math.abs(b) >= 1024 * 1024) return (b / 1024 / 1024).toFixed(2) + ' MiB';
  if (Math.abs(b) >= 1024) return (b / 1024).toFixed(1) + ' KiB';
  return b.toFixed(0) + ' B';
}

/**
 * The wire-path driver of our P1 runs, on a TextTaskEngine in one context: `send` handles one
 * message and collects every message the engine sends; `phase` times a batch of messages
 * (returning their replies); `completeEach` times completing the picked tasks. Timings and op
 * counts accumulate in `time` and `ops` by phase name.
 */
export function wireDriver(engine, context) {
  const sent = [];
  const time = {};
  const ops = {};
  const drain = () => {
    for (let out; (out = engine.pollOutput()); ) if (out.kind === 'send') sent.push(out.message);
  };
  const send = (text) => {
    const reply = engine.handle(text, context);
    if (reply !== null) sent.push(reply);
    drain();
    return reply;
  };
  const timed = (name, count, fn) => {
    const t = phaseClock();
    const value = fn();
    time[name] = phaseClock() - t;
    ops[name] = count;
    return value;
  };
  const phase = (name, messages) => timed(name, messages.length, () => messages.map(send));
  const completeEach = (ids, results, pick) => {
    const picked = ids.flatMap((id, i) => (pick(i) ? [i] : []));
    timed('complete', picked.length, () => {
      for (const i of picked) {
        engine.complete(ids[i], JSON.stringify(results[i]));
        drain();
      }
    });
  };
  return { sent, time, ops, send, timed, phase, completeEach };
}
