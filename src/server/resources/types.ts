// What the resource machinery and its hooks share (docs/resources.md): the contexts a hook sees,
// the hooks a registration may give, and what the machinery keeps of a registered resource.
import type { Placeholder, SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Db } from '../db/client';
import { type Account, requireAccount } from '../plugins/auth';
import type { HttpError } from '../plugins/errors';
import { inTransaction, type Transaction } from '../lib/transaction';
import type { ResourceDefinition, TransitionDefinition } from '../../shared/resources/define';
import type { AuditText } from './audit';
import type { ImportHooks } from './importer';

/** The main application's routes, or the partner portal's (the account type that may call them). */
export type Area = 'app' | 'partner';

/**
 * What hooks see: the app, the request, its (authenticated) account and the database handle to use.
 * `area` is where the call came in: the main application, or the partner portal (`/api/partner/...`,
 * a partner login, scoped to its firm) for a definition with an `owner`.
 */
export interface ResourceContext { app: FastifyInstance; request: FastifyRequest; account: Account; area: Area; db: Db; tx?: Transaction }

/** A write's context: its transaction is always there (`db` is its handle; side effects go to `tx.onCommit`). */
export interface WriteContext extends ResourceContext { tx: Transaction }

/**
 * The key of a workflow row's owner's manager (users.parent_id of the owner), which the guards
 * (managerOfOwner) and a module's own deciders read. A symbol: declared and typed on `Row`, and
 * never sent, since JSON leaves symbol keys out.
 */
export const OWNER_MANAGER: unique symbol = Symbol('owner manager');

/**
 * Who decides for the owner's manager today (decision 036): the delegates of a delegation of theirs
 * whose range holds the firm's today. Selected beside the row as OWNER_MANAGER is; never sent.
 */
export const OWNER_MANAGER_DELEGATES: unique symbol = Symbol('owner manager delegates');

/** A serialised row: the record's columns, its relations, computed values, files and abilities. */
export interface Row { [key: string]: unknown; [OWNER_MANAGER]?: number | null; [OWNER_MANAGER_DELEGATES]?: number[] }
/** A row of a registered table, typed by the table's columns, with the serialised extras beside them. */
export type RowOf<T extends PgTable> = T['$inferSelect'] & Row;
export type Input = Record<string, unknown>;

export const contextOf = (request: FastifyRequest): ResourceContext => {
  const account = requireAccount(request);
  return { app: request.server, request, account, area: account.type, db: request.server.db };
};

/** Runs a service's write in one transaction, with the context's handle switched to it (decision 040). */
export const inWrite = <T>(ctx: ResourceContext, work: (ctx: WriteContext) => Promise<T>) =>
  inTransaction(ctx.app, (tx) => work({ ...ctx, db: tx.db, tx }));

// The hooks are methods, so that a registration's hooks may take its own table's row type.
export interface ResourceOptions<T extends PgTable = PgTable> {
  definition: ResourceDefinition;
  /** A table with an integer `id` primary key and the definition's stored fields as columns. */
  table: T;
  /** Narrows every query (and reference checks against this resource): one user_type, recent activity. */
  scope?(context: ResourceContext): SQL | undefined;
  /** Narrows only the choices `/options` offers (people an account may pick without viewing the list). */
  optionsScope?(context: ResourceContext): SQL | undefined;
  /** Columns never sent to the client. */
  hidden?: readonly string[];
  /** Read-only values selected with each row and sortable by key (counts). */
  computed?: Record<string, SQL>;
  /** Case-insensitively unique fields, checked before saving and reported as 422 on the field. */
  unique?: readonly string[];
  /** Values to store on create; may add columns the form does not send (user_type, password). */
  beforeCreate?(values: Input, input: Input, context: WriteContext): Promise<Input> | Input;
  afterCreate?(row: RowOf<T>, input: Input, context: WriteContext): Promise<void> | void;
  beforeUpdate?(values: Input, existing: RowOf<T>, input: Input, context: WriteContext): Promise<Input> | Input;
  afterUpdate?(row: RowOf<T>, existing: RowOf<T>, input: Input, context: WriteContext): Promise<void> | void;
  /**
   * Why this caller may not change this record whatever they send (only the claimant changes an
   * expense; nobody but an admin edits an admin's account): the error the update route answers
   * with, or null. Decided from the row's selected columns and the caller alone, never a query: the
   * same predicate gives every listed row its `abilities.update` (docs/resources.md "Abilities").
   */
  updateRefusal?(existing: RowOf<T>, context: ResourceContext): HttpError | null;
  /** The same for a delete (your own account, another's expense): the error, or null; gives `abilities.delete`. */
  deleteRefusal?(existing: RowOf<T>, context: ResourceContext): HttpError | null;
  /** Work before the row goes (its files, its logins' sessions). Refusals belong in `deleteRefusal`. */
  beforeDelete?(existing: RowOf<T>, context: WriteContext): Promise<void> | void;
  /** Extra reasons a record is in use beyond foreign keys (a role held by accounts): a message, or null. */
  inUse?(existing: RowOf<T>, context: ResourceContext): Promise<string | null>;
  /** Adds data to a page of serialised rows in one go (roles of users, permissions of roles). */
  decorate?(rows: RowOf<T>[], context: ResourceContext): Promise<void>;
  /** Columns to set with the new status (decided_by, decided_at); runs after the checks, in the transaction. */
  /** `values`: the fields the transition asks for (its `fields`), already checked by the schema. */
  beforeTransition?(transition: TransitionDefinition, existing: RowOf<T>, comment: string | null, context: WriteContext, values: Input): Promise<Input | void> | Input | void;
  afterTransition?(row: RowOf<T>, transition: TransitionDefinition, existing: RowOf<T>, context: WriteContext): Promise<void> | void;
  /**
   * Columns a transition sets beside its state, worked out from the caller alone, with no query and no
   * write (the reviewer and the time of the review). Where a resource has no `beforeTransition` nor
   * `afterTransition`, a decision is then its one statement, without BEGIN and COMMIT (decision 050).
   */
  transitionColumns?(transition: TransitionDefinition, comment: string | null, account: Account): Input;
  /**
   * A write of the module's own that every transition makes, as a statement joined to the decision's one
   * statement (decision 050): it may read `changed`, the decided record's id when the compare-and-set
   * changed it. The same text for every record: its values are constants or come from `changed`.
   */
  transitionWrites?: SQL;
  /** How the audit trail words a value the field alone cannot (an amount with its currency); undefined: the field's way. */
  auditText?: AuditText;
  /** Issue 22: an import's behaviour beyond the create hooks (a definition with an `importer`; importer.ts). */
  importHooks?: ImportHooks;
}

/** What the machinery keeps of a registered resource. */
export interface RegisteredResource extends ResourceOptions {
  columns: Record<string, PgColumn>;
  /** What a row query selects: the columns that are sent (hidden ones are never read) and the computed values. */
  selection: Record<string, PgColumn | SQL>;
  /** A workflow row's owner's manager (selected beside the row, kept on it under OWNER_MANAGER); absent for other resources. */
  ownerManager?: SQL<number | null>;
  /** The delegates acting for the owner's manager on `day` (a JSON array of ids), beside ownerManager. */
  ownerManagerDelegates?: (day: string | Placeholder) => SQL<number[] | null>;
  /** Keys of the selected timestamp columns, sent as ISO strings. */
  dateKeys: string[];
  /** The other resources of the same app, by name: references are checked and labelled across them. */
  registry: ReadonlyMap<string, RegisteredResource>;
}

/** How sentences name whoever acted (the one place: workflow words, requests, compliance). */
export const actorName = (account: Account) => String(account.user.name ?? 'Someone');
