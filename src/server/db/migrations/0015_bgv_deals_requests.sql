-- 0015_bgv_deals_requests: written by hand beside its drizzle schema (placeholder until then).
SELECT 1;
