// A TaskStorage in memory (records with versions and a compare-and-set) whose every call fails
// while `state.down` is set: a storage outage a test turns on and off.
export function switchableStorage() {
  const rows = new Map();
  const state = { down: false };
  const check = () => {
    if (state.down) throw new Error('connection refused');
  };
  return {
    state,
    async load(taskId) {
      check();
      return rows.get(taskId) ?? null;
    },
    async loadContext(context) {
      check();
      return [...rows].filter(([, row]) => row.context === context).map(([taskId, row]) => ({ taskId, ...row }));
    },
    async write(persists) {
      check();
      return persists.map((p) => {
        const row = rows.get(p.taskId);
        if ((row?.version ?? null) !== p.expectedVersion) return { conflict: row?.record ?? null, version: row?.version ?? null };
        if (p.record === null) rows.delete(p.taskId);
        else rows.set(p.taskId, { version: p.version, record: p.record, context: p.context ?? null });
        return null;
      });
    },
  };
}
