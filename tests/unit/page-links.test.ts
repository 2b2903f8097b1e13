// The list answer's page links (server/lib/list.ts): each is the request's URL with only `page`
// changed, as URLSearchParams.set writes it, for every place `page` may stand in the query.
import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { pageMeta } from '../../src/server/lib/list';

const APP_URL = 'http://localhost:8000';
const request = (url: string) => ({ url, server: { config: { appUrl: APP_URL } } }) as unknown as FastifyRequest;

/** The link of `page` as a URL set anew for it. */
function expectedLink(url: string, page: number): string {
  const base = new URL(url, APP_URL);
  base.searchParams.set('page', String(page));
  return base.toString();
}

describe('page links', () => {
  const urls = [
    '/api/user',
    '/api/user?search=priya%20patel&sort=email&direction=asc&per_page=25',
    '/api/user?page=3&search=a%26page%3D9&per_page=10',
    '/api/user?search=page%3D1&page=2',
    '/api/user?per_page=10&page=4&page=5&xpage=1',
    '/api/partner/invoice?status=approved%20by%20manager&search=%E2%82%AC%20%2B%20%25&page=12',
  ];
  for (const url of urls) {
    it(`changes only the page of ${url}`, () => {
      const meta = pageMeta(request(url), 12, 10, 1000);
      const numbered = meta.links.filter((link) => /^\d+$/.test(link.label));
      expect(numbered.length).toBeGreaterThan(3);
      for (const link of numbered) expect(link.url).toBe(expectedLink(url, Number(link.label)));
      expect(meta.links[0].url).toBe(expectedLink(url, 11));
      expect(meta.links.at(-1)!.url).toBe(expectedLink(url, 13));
    });
  }
});
