-- The permissions stamp (src/server/plugins/auth.ts): each process caches an account's roles and
-- permissions under the settings row 'permissions_version', which every request reads together with
-- its token. Any statement that changes roles, permissions or who holds them (including cascades,
-- seeds and TRUNCATE) replaces the stamp in the same transaction, so the very next request on any
-- node sees a new stamp and reloads. A random value rather than a counter: a stamp can never come
-- back, even if the settings row is deleted and recreated.
CREATE OR REPLACE FUNCTION bump_permissions_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO settings (key, value, updated_at) VALUES ('permissions_version', to_jsonb(gen_random_uuid()::text), now())
  ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER roles_bump_permissions_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON roles
  FOR EACH STATEMENT EXECUTE FUNCTION bump_permissions_version();--> statement-breakpoint
CREATE TRIGGER permissions_bump_permissions_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON permissions
  FOR EACH STATEMENT EXECUTE FUNCTION bump_permissions_version();--> statement-breakpoint
CREATE TRIGGER role_has_permissions_bump_permissions_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON role_has_permissions
  FOR EACH STATEMENT EXECUTE FUNCTION bump_permissions_version();--> statement-breakpoint
CREATE TRIGGER model_has_roles_bump_permissions_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON model_has_roles
  FOR EACH STATEMENT EXECUTE FUNCTION bump_permissions_version();--> statement-breakpoint
INSERT INTO settings (key, value) VALUES ('permissions_version', to_jsonb(gen_random_uuid()::text)) ON CONFLICT (key) DO NOTHING;
