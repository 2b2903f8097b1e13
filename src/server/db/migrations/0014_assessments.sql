-- 0014_assessments: written by hand beside its drizzle schema (placeholder until then).
SELECT 1;
