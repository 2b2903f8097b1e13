// Rich-text fields (`input: 'richtext'`) arrive as HTML from the editor, or from anyone who can call
// the API: what is stored is only what the allowlist keeps, so the detail page may render it as HTML.
import sanitizeHtml from 'sanitize-html';
import type { FieldDefinition } from '../../shared/resources/define';

const options: sanitizeHtml.IOptions = {
  allowedTags: ['p', 'br', 'strong', 'b', 'em', 'i', 'u', 's', 'ul', 'ol', 'li', 'a', 'h3', 'h4', 'blockquote', 'code', 'pre'],
  allowedAttributes: { a: ['href'] },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowProtocolRelative: false,
  // A link always opens outside the app and tells the target nothing about us.
  transformTags: { a: sanitizeHtml.simpleTransform('a', { target: '_blank', rel: 'noopener noreferrer' }) },
};
options.allowedAttributes = { a: ['href', 'target', 'rel'] };

export function sanitiseRichText(html: string): string {
  const clean = sanitizeHtml(html, options).trim();
  // An editor emptied by the user leaves markup without text: that is an empty field.
  return sanitizeHtml(clean, { allowedTags: [], allowedAttributes: {} }).trim() ? clean : '';
}

/** Sanitises, in place, every rich-text value of a create or update body. */
export function sanitiseRichTextFields(fields: Record<string, FieldDefinition>, input: Record<string, unknown>): void {
  for (const [key, field] of Object.entries(fields)) {
    if (field.input === 'richtext' && typeof input[key] === 'string') input[key] = sanitiseRichText(input[key]);
  }
}
