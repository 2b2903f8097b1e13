// The resources an app registered, by name (the app's own, so two apps in one process never mix):
// references are checked and labelled across them, the reminder job and the OpenAPI document walk
// them, and a definition of src/shared/resources that no module registers is registered here as
// plain CRUD on the table named after it, or the app refuses to start.
import { readdirSync } from 'node:fs';
import { getTableColumns, is, type Placeholder, sql } from 'drizzle-orm';
import { getTableConfig, type PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { FastifyInstance } from 'fastify';
import { users } from '../db/schema/accounts';
import { delegatesOfSql } from '../modules/delegation/scope';
import type { ResourceDefinition } from '../../shared/resources/define';
import { resourceDefinitions } from '../../shared/resources/registry';
import type { RegisteredResource, ResourceOptions } from './types';

declare module 'fastify' {
  interface FastifyInstance {
    /** Every resource registered on this app by name (src/server/resources/registry.ts). */
    resources: Map<string, RegisteredResource>;
  }
}

/** The registered resources (the reminder job walks those whose definition declares reminders). */
export const registeredResources = (app: FastifyInstance): readonly RegisteredResource[] => [...app.resources.values()];

export function registeredResource(app: FastifyInstance, name: string): RegisteredResource {
  const resource = app.resources.get(name);
  if (!resource) throw new Error(`${name} is not registered`);
  return resource;
}

/** Adds a resource to the app's registry with what every query of it selects. */
export function addResource(app: FastifyInstance, options: ResourceOptions): RegisteredResource {
  const { definition } = options;
  const columns = getTableColumns(options.table) as Record<string, PgColumn>;
  const hidden = new Set(options.hidden ?? []);
  // A partner-owned record's owner is a firm, which has no manager in the users table.
  const ownerColumn = definition.workflow && !definition.owner ? columns[definition.workflow.ownerField] : undefined;
  const selection = {
    ...Object.fromEntries(Object.entries(columns).filter(([key]) => !hidden.has(key))),
    ...options.computed,
  };
  // The guards need the owner's manager: selected beside the row (queries.ts).
  const ownerManager = ownerColumn ? sql<number | null>`(select ${users.parent_id} from ${users} where ${users.id} = ${ownerColumn})` : undefined;
  const ownerManagerDelegates = ownerManager ? (day: string | Placeholder) => delegatesOfSql(ownerManager, day) : undefined;
  const dateKeys = Object.entries(columns).filter(([key, column]) => !hidden.has(key) && column.columnType === 'PgTimestamp').map(([key]) => key);
  const resource: RegisteredResource = { ...options, columns, selection, ownerManager, ownerManagerDelegates, dateKeys, registry: app.resources };
  app.resources.set(definition.name, resource);
  return resource;
}

/** The table a plain definition is stored in: its plural label in snake case (Gadget Types: gadget_types). */
export const plainTableName = (definition: ResourceDefinition) => definition.pluralLabel.toLowerCase().replace(/[^a-z0-9]+/g, '_');

/** Every drizzle table of src/server/db/schema, by its SQL name. */
async function schemaTables(): Promise<Map<string, PgTable>> {
  const folder = new URL('../db/schema/', import.meta.url);
  const tables = new Map<string, PgTable>();
  for (const file of readdirSync(folder).filter((name) => /\.[jt]s$/.test(name) && !name.endsWith('.d.ts'))) {
    const exports = await import(new URL(file, folder).href) as Record<string, unknown>;
    for (const value of Object.values(exports)) if (is(value, PgTable)) tables.set(getTableConfig(value).name, value);
  }
  return tables;
}

/**
 * After the modules: a definition none of them registered is plain CRUD, registered with the table
 * named after it. One without such a table stops the start, naming what is missing.
 */
export async function registerPlainResources(api: FastifyInstance, register: (api: FastifyInstance, options: ResourceOptions) => void, definitions: readonly ResourceDefinition[] = resourceDefinitions) {
  const missing = definitions.filter((definition) => !api.resources.has(definition.name));
  if (!missing.length) return;
  const tables = await schemaTables();
  for (const definition of missing) {
    const table = tables.get(plainTableName(definition));
    if (!table) throw new Error(`${definition.name}: no module registers it and src/server/db/schema has no table ${plainTableName(definition)}`);
    register(api, { definition, table });
  }
}
