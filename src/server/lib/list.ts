// Builds the Laravel-style list answer ({data, meta}) of ARCHITECTURE "Lists".
import type { FastifyRequest } from 'fastify';
import { buildPageMeta, type PageMeta } from '../../shared/pagination';

/**
 * Links keep every query parameter of the request and change only `page`. The URL is parsed and
 * written once per answer and each link is that text with its page number put in (issue 27: a URL
 * written per link was most of the links' cost); `page` is set where it stands in the query, or
 * appended, as URLSearchParams.set places it.
 */
export function pageMeta(request: FastifyRequest, page: number, perPage: number, total: number): PageMeta {
  const base = new URL(request.url, request.server.config.appUrl);
  base.searchParams.set('page', '1');
  const text = base.toString();
  // After set, `page` appears once, and as a key only after '?' or '&' (both are escaped in values).
  const at = /[?&]page=1(?=&|#|$)/.exec(text)!.index + '?page='.length;
  const before = text.slice(0, at);
  const after = text.slice(at + 1);
  return buildPageMeta(page, perPage, total, (p) => `${before}${p}${after}`);
}
