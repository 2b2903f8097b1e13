-- Issue 20: a partner firm's account manager (the default manager role) is told of the firm's new
-- pre-billing statements and approves the invoices that bill them, so the role may open them (scoped
-- to the firms they manage). The seed gives it to a new database; an existing one gets it here, once.
-- On a fresh database neither the role nor the permission exists yet and nothing is inserted.
INSERT INTO "role_has_permissions" ("role_id", "permission_id")
SELECT r."id", p."id" FROM "roles" r, "permissions" p
WHERE r."name" = 'manager' AND r."account_type" = 'app' AND p."name" = 'can-view-pre-billing'
ON CONFLICT DO NOTHING;
