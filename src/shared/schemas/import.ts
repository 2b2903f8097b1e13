// Answers of a definition's import routes (issue 22, src/server/resources/importer.ts): the
// template file, the checked preview and the import's progress. The import screen reads these types.
import { z } from 'zod';
import { download, timestamp } from './responses';

/** GET /api/import/{resource}/template: the headings and an example row, as CSV or as an XLSX workbook. */
export const importTemplateDownload = download(['text/csv', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
  'The template: the headings and one example row (CSV, or XLSX with format=xlsx)');

/** One problem of one row, named by the file's column (null: the row as a whole). */
export const importErrorSchema = z.object({ column: z.string().nullable(), message: z.string() });
export type ImportError = z.infer<typeof importErrorSchema>;

/** A row of the file as the preview shows it: its number as a spreadsheet counts, its cells by heading, its errors. */
export const importPreviewRowSchema = z.object({ row: z.number().int(), values: z.record(z.string(), z.string()), errors: z.array(importErrorSchema) });
export type ImportPreviewRow = z.infer<typeof importPreviewRowSchema>;

/** POST /api/import/{resource}/preview: every row checked; nothing written. */
export const importPreviewSchema = z.object({
  columns: z.array(z.string()), rows: z.array(importPreviewRowSchema),
  total: z.number().int(), valid: z.number().int(), invalid: z.number().int(),
});
export type ImportPreview = z.infer<typeof importPreviewSchema>;

/** An import as its screen follows it (POST /api/import/{resource}, GET /api/import/{resource}/{id}). */
export const importStatusSchema = z.object({
  id: z.number().int(), resource: z.string(), mode: z.enum(['all', 'valid']),
  rows_total: z.number().int(), rows_imported: z.number().int(),
  invitations_total: z.number().int(), invitations_sent: z.number().int(), invitations_done_at: timestamp.nullable(),
  created_at: timestamp,
});
export type ImportStatus = z.infer<typeof importStatusSchema>;
