// Builds the Laravel-style list answer ({data, meta}) of ARCHITECTURE "Lists".
import type { FastifyRequest } from 'fastify';
import { buildPageMeta, type PageMeta } from '../../shared/pagination';

/** Links keep every query parameter of the request and change only `page`. */
export function pageMeta(request: FastifyRequest, page: number, perPage: number, total: number): PageMeta {
  const base = new URL(request.url, request.server.config.appUrl);
  return buildPageMeta(page, perPage, total, (p) => {
    base.searchParams.set('page', String(p));
    return base.toString();
  });
}
