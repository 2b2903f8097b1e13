-- 0012_compliance_library: written by hand beside its drizzle schema (placeholder until then).
SELECT 1;
