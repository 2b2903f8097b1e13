// ARCHITECTURE "Transactions": a write request is one transaction; hooks and actions receive it;
// broadcasts and mail wait for the commit, so nobody is told about a change that was rolled back.
import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/client';

export interface Transaction {
  app: FastifyInstance;
  /** Every query of the write goes through this (on PGlite a query outside it would wait for it). */
  db: Db;
  /** Runs after the commit (never after a rollback); a failure is logged, the answer stands. */
  onCommit(effect: () => unknown): void;
}

/** Runs `work` in one transaction, then its commit effects in order. */
export async function inTransaction<T>(app: FastifyInstance, work: (tx: Transaction) => Promise<T>): Promise<T> {
  const effects: (() => unknown)[] = [];
  const result = await app.db.transaction(async (db) => work({ app, db: db as unknown as Db, onCommit: (effect) => { effects.push(effect); } }));
  await runEffects(app, effects);
  return result;
}

/**
 * A write whose every change is made by one statement (a workflow decision, decision 050): PostgreSQL runs
 * a statement atomically, so it needs no BEGIN and COMMIT, two of its four round trips. `work` may read
 * as much as it likes (it sees what a READ COMMITTED transaction would) but must write through that one
 * statement only. Its effects run after `work` as after a commit, and not when it throws.
 */
export async function inOneStatement<T>(app: FastifyInstance, work: (tx: Transaction) => Promise<T>): Promise<T> {
  const effects: (() => unknown)[] = [];
  const result = await work({ app, db: app.db, onCommit: (effect) => { effects.push(effect); } });
  await runEffects(app, effects);
  return result;
}

async function runEffects(app: FastifyInstance, effects: readonly (() => unknown)[]) {
  for (const effect of effects) {
    try {
      await effect();
    } catch (error) {
      app.log.error({ err: error }, 'an effect after commit failed');
    }
  }
}
