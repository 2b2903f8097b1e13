// spec §6: the permission check, on its own so the router's guards (shared/guards.ts) and the auth
// store, which the login screen loads, do not bring the catalogue of permissions.ts (300-odd names and
// the default roles) with them. permissions.ts re-exports it for everything else.

/**
 * spec §6: a check accepts `a|b` (any of them) or `a&b` (all of them).
 * An empty or missing expression is always allowed.
 */
export function hasPermission(held: readonly string[], expression: string | undefined | null): boolean {
  if (!expression) return true;
  if (expression.includes('|')) return expression.split('|').some((p) => held.includes(p.trim()));
  if (expression.includes('&')) return expression.split('&').every((p) => held.includes(p.trim()));
  return held.includes(expression.trim());
}
