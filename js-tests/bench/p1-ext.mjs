// P1e — the wire path of P1 in the 2026-07-28 dialect (io.modelcontextprotocol/tasks extension).
//
// Same engine, same tool, same N, same completed/cancelled split as P1's 2025-11-25 mix, but every
// request carries the per-request protocol version and the extension declaration in `_meta`
// (no initialize: the extension is stateless). The extension has no tasks/result and no
// tasks/list: tasks/get on a terminal task inlines the outcome, so the mix is
//   create  N × tools/call (no task param)     get1    N × tasks/get (working)
//   complete 3N/4 tasks (host call)             cancel  N/4 × tasks/cancel
//   get2    N × tasks/get (terminal, completed ones with the result inlined)
// Replies are checked after the clock stops (errors, resultType, inlined results).
import { liftedLimits, resultOf, wireDriver } from './lib.mjs';

export const PHASES_2026 = ['create', 'get1', 'complete', 'cancel', 'get2'];

const CONTEXT = 'session-2026';
const TTL = 600_000;
const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': { extensions: { 'io.modelcontextprotocol/tasks': {} } },
};
const rpc = (id, method, params) => JSON.stringify({ jsonrpc: '2.0', id, method, params: { ...params, _meta: META } });
// The same split as the 2025-11-25 mix: three in four complete, the fourth is cancelled.
const completes = (i) => i % 4 !== 3;
const cancels = (i) => i % 4 === 3;
const perTask = (ids, base, method, pick = () => true) => ids.flatMap((taskId, i) => (pick(i) ? [rpc(base + i, method, { taskId })] : []));

export function runOurs2026(n, TextTaskEngine) {
  const engine = new TextTaskEngine({ tools: { bench: 'required' }, pageSize: 10, ttl: { maxMs: TTL }, limits: liftedLimits() });
  const { sent, time, ops, phase, completeEach } = wireDriver(engine, CONTEXT);

  const creates = Array.from({ length: n }, (_, i) => rpc(i + 10, 'tools/call', { name: 'bench', arguments: {} }));
  const ids = phase('create', creates).map((text) => {
    const r = JSON.parse(text).result;
    if (r?.resultType !== 'task') throw new Error(`2026 create: not a task: ${text}`);
    return r.taskId;
  });
  phase('get1', perTask(ids, 100_000, 'tasks/get'));

  const results = ids.map((_, i) => resultOf(i, 256));
  completeEach(ids, results, completes);

  phase('cancel', perTask(ids, 200_000, 'tasks/cancel', cancels));
  const outcomes = phase('get2', perTask(ids, 300_000, 'tasks/get'));

  const errors = sent.filter((text) => text.includes('"error":'));
  if (errors.length) throw new Error(`ours (2026) answered ${errors.length} errors, e.g. ${errors[0]}`);
  outcomes.forEach((text, i) => {
    const task = JSON.parse(text).result;
    const want = completes(i) ? 'completed' : 'cancelled';
    if (task.status !== want || (want === 'completed' && task.result?.content?.[0]?.text !== results[i].content[0].text)) {
      throw new Error(`2026 tasks/get ${i}: want ${want} with its outcome, got ${text.slice(0, 200)}`);
    }
  });
  engine.free();
  return { time, ops, sent: sent.length };
}
