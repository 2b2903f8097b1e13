// Builds a multipart/form-data body for app.inject, the way a browser's FormData sends it.
import { randomBytes } from 'node:crypto';

/**
 * `bracketed`: the resource name the screens wrap keys in (spec §7), as `bracketedFormData` sends them:
 * `time-sheet[hours]`, and the file as `time-sheet[file][]`. Without it, flat keys.
 */
export function multipart(fields: Record<string, string | number>, file?: { field?: string; name: string; type: string; content: Buffer | string }, bracketed?: string) {
  const boundary = `----test${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  const key = (name: string) => (bracketed ? `${bracketed}[${name}]` : name);
  for (const [name, value] of Object.entries(fields)) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${key(name)}"\r\n\r\n${value}\r\n`));
  }
  if (file) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${bracketed ? `${key(file.field ?? 'file')}[]` : file.field ?? 'file'}"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`));
    chunks.push(Buffer.isBuffer(file.content) ? file.content : Buffer.from(file.content));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

export const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
