-- 0013_candidates: written by hand beside its drizzle schema (placeholder until then).
SELECT 1;
