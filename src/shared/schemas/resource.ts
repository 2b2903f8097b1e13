// The answers of a definition's generated routes (docs/resources.md), derived from the definition
// once: the row (its id, its fields typed by their input, references under their relations, files,
// abilities and, for a workflow, the transitions the caller may make), the list's page, a write's
// answer, the bulk transition's results and a record's history. src/server/resources/routes/*.ts
// declare them; the client's resource screens read rows of this type.
import { z } from 'zod';
import type { FieldDefinition, ResourceDefinition } from '../resources/define';
import { auditEntrySchema } from './audit';
import { dataResponse, pageResponse, savedResponse, timestamp } from './responses';

export const attachmentSummarySchema = z.object({ id: z.number().int(), name: z.string(), size: z.number().int(), mime: z.string() });

export const abilitiesSchema = z.object({ update: z.boolean(), delete: z.boolean() });

export const availableTransitionSchema = z.object({
  name: z.string(), label: z.string(), requires_comment: z.boolean(), tone: z.enum(['primary', 'danger', 'neutral']).optional(),
});

export const historyEntrySchema = z.object({
  transition: z.string(),
  from: z.string().nullable(),
  to: z.string(),
  actor: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  comment: z.string().nullable(),
  created_at: timestamp,
  /** Decided by a delegate for this manager (decision 036). */
  on_behalf_of: z.object({ id: z.number().int(), name: z.string() }).optional(),
});

/** `{id, [labelKey]}` of a referenced record, as a row carries it under the reference's relation. */
const referencedSchema = (labelKey: string) => z.looseObject({ id: z.number().int(), [labelKey]: z.unknown() });

/** The definition's input schema under this key, without its optional, nullable, default and pipe wrappers. */
function inputSchema(definition: ResourceDefinition, key: string): z.ZodType | undefined {
  let schema = definition.schema.shape[key] as z.ZodType | undefined;
  while (schema && ['optional', 'nullable', 'default', 'pipe'].includes(schema._zod.def.type)) {
    const def = schema._zod.def as { innerType?: z.ZodType; in?: z.ZodType };
    schema = def.innerType ?? def.in;
  }
  return schema;
}

type SelectValue = string | number;

/**
 * The values a select holds when the definition names them all: a workflow's status is one of its
 * states (only its transitions write it), and a select whose input is an enum is one of the enum's
 * values (the definition refuses any other). A select its module sets (an access status, a batch's
 * status) or whose input is a number is any value of its kind.
 */
function selectValues(definition: ResourceDefinition, key: string): readonly SelectValue[] | undefined {
  const { workflow } = definition;
  if (workflow && key === workflow.field) return Object.keys(workflow.states);
  const input = inputSchema(definition, key);
  return input?._zod.def.type === 'enum' ? (input as z.ZodEnum).options : undefined;
}

/** One of `values`: an enum of texts, or the literals when a value is a number. */
const oneOf = (values: readonly SelectValue[]): z.ZodType => (values.every((value) => typeof value === 'string')
  ? z.enum(values as [string, ...string[]])
  : z.literal(values as [SelectValue, ...SelectValue[]]));

/** A field's value as rows carry it, by its input; `values`: a select's values, when the definition names them. */
function fieldValue(field: FieldDefinition, values: readonly SelectValue[] | undefined): z.ZodType {
  switch (field.input) {
    case 'number': return z.number().nullable();
    case 'boolean': return z.boolean().nullable();
    case 'reference': return z.number().int().nullable();
    case 'multiselect': return z.array(z.union([z.number(), z.string()]));
    case 'list': return z.array(z.string()).nullable();
    case 'file': return z.array(attachmentSummarySchema);
    case 'select': return (values?.length ? oneOf(values) : z.union([z.string(), z.number()])).nullable();
    default: return z.string().nullable(); // text, email, textarea, richtext, date (ISO strings)
  }
}

/**
 * A served row of the definition. Every field is optional (a form-only field such as a password is
 * never sent) but typed when present; the object is loose, because a module may add read-only values
 * (computed counts, decorated roles) beyond the fields.
 */
export function rowSchemaOf(definition: ResourceDefinition) {
  const { workflow } = definition;
  const shape: Record<string, z.ZodType> = {};
  for (const [key, field] of Object.entries(definition.fields)) {
    const kind = ['multiselect', 'file', 'list'].includes(field.input) ? undefined : inputSchema(definition, key)?._zod.def.type;
    // A field its module edits as a list (or as a list or its JSON text) is sent as the list.
    shape[key] = (kind === 'array' || kind === 'union' ? z.array(z.unknown()) : fieldValue(field, field.input === 'select' ? selectValues(definition, key) : undefined)).optional();
    const relation = field.reference?.relation;
    if (relation && field.input === 'reference') shape[relation] = referencedSchema(field.reference!.labelKey).nullable().optional();
    if (relation && field.input === 'multiselect') shape[relation] = z.array(referencedSchema(field.reference!.labelKey)).optional();
  }
  return z.looseObject({
    ...shape,
    id: z.number().int(),
    abilities: abilitiesSchema,
    ...(workflow ? {
      available_transitions: z.array(availableTransitionSchema),
      // Decision 063: why the record is in its state and who decided, on its own answers (not a list's rows).
      status_note: z.string().nullable().optional(),
    } : {}),
  });
}

/** The row of a served definition as the client reads it. */
export type ResourceRow = z.infer<ReturnType<typeof rowSchemaOf>>;

/**
 * Typed as any schema: rows are records on the server (`Row`), so a handler returning one satisfies
 * them statically; the test apps' run-time check is what holds them (decision 029).
 */
export type ResourceResponses = Record<keyof ReturnType<typeof buildResponses>, z.ZodType>;

const built = new WeakMap<ResourceDefinition, ResourceResponses>();

/**
 * Each answer of the generated routes of a definition, built once per definition. A module's own
 * route that answers with the definition's rows (a batch made, a record cloned) declares these too.
 */
export function resourceResponses(definition: ResourceDefinition): ResourceResponses {
  let responses = built.get(definition);
  if (!responses) built.set(definition, responses = buildResponses(definition));
  return responses;
}

function buildResponses(definition: ResourceDefinition) {
  const row = rowSchemaOf(definition);
  return {
    row,
    list: pageResponse(row),
    show: dataResponse(row),
    saved: savedResponse(row),
    changes: dataResponse(z.array(auditEntrySchema)),
    history: dataResponse(z.array(historyEntrySchema)),
    bulkTransition: dataResponse(z.array(z.object({ id: z.number().int(), status: z.number().int(), message: z.string() }))),
  };
}
