// Issue 22, the importer's files (importer.ts): reading a CSV or XLSX upload into rows of cell text,
// and the template a person fills in.
import { parse as parseCsv } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { validationError } from '../plugins/errors';
import { MAX_IMPORT_ROWS, type ResourceDefinition } from '../../shared/resources/define';

/** The file's cells as text, by row; the first row is the headings. Empty rows are skipped. */
export async function readImportFile(name: string, data: Buffer): Promise<{ headers: string[]; rows: { row: number; cells: string[] }[] }> {
  const extension = name.toLowerCase().split('.').pop();
  let table: { row: number; cells: string[] }[];
  if (extension === 'xlsx') {
    const workbook = new ExcelJS.Workbook();
    try {
      await workbook.xlsx.load(data as unknown as ArrayBuffer);
    } catch {
      throw validationError({ file: 'This file could not be read as an XLSX workbook. Save it again from your spreadsheet program, or as CSV.' });
    }
    const sheet = workbook.worksheets[0];
    if (!sheet) throw validationError({ file: 'The workbook has no sheet.' });
    table = [];
    sheet.eachRow({ includeEmpty: false }, (row, number) => {
      const cells: string[] = [];
      row.eachCell({ includeEmpty: true }, (cell, column) => { cells[column - 1] = cellText(cell.value); });
      table.push({ row: number, cells: Array.from(cells, (cell) => cell ?? '') });
    });
  } else if (extension === 'csv') {
    let records: string[][];
    try {
      records = parseCsv(data, { bom: true, relax_column_count: true, skip_empty_lines: false, trim: false }) as string[][];
    } catch (error) {
      throw validationError({ file: `This file could not be read as CSV: ${(error as Error).message.slice(0, 200)}` });
    }
    table = records.map((cells, index) => ({ row: index + 1, cells }));
  } else {
    throw validationError({ file: 'Choose a CSV or XLSX file.' });
  }
  const nonEmpty = table.filter((line) => line.cells.some((cell) => String(cell ?? '').trim() !== ''));
  const [heading, ...rows] = nonEmpty;
  if (!heading) throw validationError({ file: 'The file is empty: it needs a heading row and at least one row of data.' });
  if (!rows.length) throw validationError({ file: 'The file has headings but no rows to import.' });
  if (rows.length > MAX_IMPORT_ROWS) throw validationError({ file: `The file has ${rows.length} rows; import at most ${MAX_IMPORT_ROWS} at a time.` });
  return { headers: heading.cells.map((cell) => String(cell ?? '').trim()), rows };
}

/** A spreadsheet cell as the text a person sees: dates as YYYY-MM-DD, links and rich text by their text. */
function cellText(value: ExcelJS.CellValue): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if (typeof value === 'object') {
    if ('richText' in value) return value.richText.map((part) => part.text).join('');
    if ('text' in value) return cellText(value.text as ExcelJS.CellValue);
    if ('result' in value) return cellText(value.result as ExcelJS.CellValue);
    if ('error' in value) return '';
  }
  return String(value);
}

/** The template: the headings and one example row, as CSV or as an XLSX workbook. */
export async function importTemplate(definition: ResourceDefinition, format: 'csv' | 'xlsx'): Promise<Buffer> {
  const { columns, example } = definition.importer!;
  const headers = columns.map((column) => column.header);
  const values = headers.map((header) => example[header] ?? '');
  if (format === 'csv') {
    const line = (cells: string[]) => cells.map((cell) => (/[",\r\n]/.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell)).join(',');
    return Buffer.from(`${line(headers)}\r\n${line(values)}\r\n`, 'utf8');
  }
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet(definition.pluralLabel);
  sheet.addRow(headers).font = { bold: true };
  sheet.addRow(values);
  sheet.columns.forEach((column) => { column.width = 22; });
  // Dates and IDs stay text, so a spreadsheet does not turn 2026-01-05 into a serial number or drop a leading zero.
  for (const [index, column] of columns.entries()) {
    const field = definition.fields[column.field];
    if (field.input === 'date' || field.input === 'text') sheet.getColumn(index + 1).numFmt = '@';
  }
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
