// A Content-Disposition header for any file name: an ASCII fallback plus RFC 5987's UTF-8 form, so
// 'समय.pdf' or '😀.pdf' round-trips and no control character or quote can break the header.
export function contentDisposition(kind: 'attachment' | 'inline', name: string): string {
  const fallback = name.replace(/[^\x20-\x7e]|["\\%;]/g, '_') || 'download';
  // eslint-disable-next-line no-control-regex -- control characters are exactly what goes
  const encoded = encodeURIComponent(name.replace(/[\x00-\x1f\x7f]/g, '_')).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${kind}; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}
