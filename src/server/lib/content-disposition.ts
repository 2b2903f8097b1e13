// A Content-Disposition header for any file name: an ASCII fallback plus RFC 5987's UTF-8 form, so
// 'समय.pdf' or '😀.pdf' round-trips and no control character or quote can break the header.
export function contentDisposition(kind: 'attachment' | 'inline', name: string): string {
  const fallback = name.replace(/[^\x20-\x7e]|["\\%;]/g, '_') || 'download';
  // Percent-encoded, a control character cannot break the header either, and the name stays the one uploaded.
  // A lone surrogate (a name cut inside an emoji) would make encodeURIComponent throw: U+FFFD instead.
  const wellFormed = name.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
  const encoded = encodeURIComponent(wellFormed).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${kind}; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}
