// The API tests on PostgreSQL fail when a query is sent on a connection that is still running one:
// node-postgres queues it and warns "Calling client.query() when the client is already executing a
// query is deprecated" (pg 9 refuses it). The usual cause is a Promise.all over queries on one
// transaction's handle, which is one connection; queries on the pool may run side by side.
//
// The warning alone would not do as a guard: node-postgres gives it once per process (a worker runs
// file after file, isolate: false, so it would speak in the first file only) and only from the third
// query at once. So each query also checks its connection is free, and any warning of the kind fails too.
import pg from 'pg';
import { afterAll, afterEach } from 'vitest';

const DEPRECATION = 'Calling client.query() when the client is already executing a query';

interface ClientState { _activeQuery?: { text?: string } | null; _queryQueue?: { text?: string }[] }

const state = globalThis as { oneQueryAtATime?: { found: string[] } };
if (!state.oneQueryAtATime) {
  const found: string[] = [];
  state.oneQueryAtATime = { found };
  const prototype = pg.Client.prototype as unknown as ClientState & { query: (...args: unknown[]) => unknown };
  const query = prototype.query;
  prototype.query = function (this: ClientState, ...args: unknown[]) {
    // node-postgres's own fields: if it renames them, this guard must fail rather than see nothing.
    if (!Array.isArray(this._queryQueue)) throw new Error('one-query-at-a-time-setup: node-postgres no longer has _queryQueue; update this guard');
    const running = this._activeQuery ?? this._queryQueue[0];
    if (running) {
      const sent = args[0];
      const text = typeof sent === 'string' ? sent : (sent as { text?: string } | undefined)?.text;
      found.push(`sent:    ${String(text).slice(0, 200)}\nwhile:   ${String(running.text).slice(0, 200)}\n${new Error('sent from').stack}`);
    }
    return query.apply(this, args);
  };
  process.on('warning', (warning) => {
    if (warning.message.includes(DEPRECATION)) found.push(`${warning.name}: ${warning.message}\n${warning.stack}`);
  });
}

function failOnQueriesAtOnce() {
  const found = state.oneQueryAtATime!.found;
  if (!found.length) return;
  const report = found.splice(0).join('\n\n');
  throw new Error(`Queries were sent at once on one PostgreSQL connection (run them one after another):\n\n${report}`);
}

afterEach(failOnQueriesAtOnce);
// Queries of a suite's own hooks (its setup, its app closing) are checked at its end.
afterAll(failOnQueriesAtOnce);
