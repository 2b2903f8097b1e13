-- 0011_capability_links: written by hand beside its drizzle schema (placeholder until then).
SELECT 1;
