-- 0016_onboarding_contracts: written by hand beside its drizzle schema (placeholder until then).
SELECT 1;
