// Saves a Blob fetched through lib/api.ts (bearer token sent) as a file.
export function saveBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked later: some browsers read the url after click() returns.
  window.setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
