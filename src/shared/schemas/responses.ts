// The building blocks of every response schema (issue 25, decision 029): the routes declare their
// answers with these, the OpenAPI document describes them, the client takes its types from them
// (z.infer) and the test app checks every answer against them.
import { z } from 'zod';

/** `{message}`: a delete, a confirmation, anything that only says what happened. */
export const messageResponse = z.object({ message: z.string() });
export type MessageResponse = z.infer<typeof messageResponse>;

/** `{data}` around one value. */
export const dataResponse = <T extends z.ZodType>(data: T) => z.object({ data });

/** `{data, message}`: a write's answer (the saved record and the toast that says so). */
export const savedResponse = <T extends z.ZodType>(data: T) => z.object({ data, message: z.string() });

export const pageLinkSchema = z.object({ url: z.string().nullable(), label: z.string(), active: z.boolean() });
/** Laravel's paginator meta (src/shared/pagination.ts buildPageMeta). */
export const pageMetaSchema = z.object({
  current_page: z.number().int(), last_page: z.number().int(), per_page: z.number().int(), total: z.number().int(),
  links: z.array(pageLinkSchema),
});

/** A page of a list: `{data: [...], meta}` (ARCHITECTURE "Lists"). */
export const pageResponse = <T extends z.ZodType>(row: T) => z.object({ data: z.array(row), meta: pageMetaSchema });

/** `{id, label}` choices of a searchable select. */
export const optionSchema = z.object({ id: z.number().int(), label: z.string().nullable() });
export type OptionRow = z.infer<typeof optionSchema>;
export const optionsResponse = z.object({ data: z.array(optionSchema) });

/** An answer with no body (204). */
export const noContent = z.null().describe('No content');

/**
 * Downloads (CSV exports, attached files): the body is the file, never JSON, so nothing checks it;
 * the OpenAPI document names its media type (src/server/plugins/openapi.ts reads this registry).
 */
export const downloads = z.registry<{ mediaType: string | readonly string[] }>();
// Typed as any value: the handler sends a stream or a buffer, which Fastify writes without serialising.
// A file offered in more than one format (CSV or XLSX) names each media type.
export const download = (mediaType: string | readonly string[], description: string): z.ZodType => z.string().describe(description).register(downloads, { mediaType });
export const csvDownload = download('text/csv', 'The rows as CSV (UTF-8, a header line first)');
export const fileDownload = download('application/octet-stream', 'The file, with its own Content-Type and Content-Disposition');

/** ISO 8601 timestamp as the server writes it (Date#toISOString). */
export const timestamp = z.string();
