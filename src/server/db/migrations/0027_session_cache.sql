-- The session cache (src/server/modules/auth/session-cache.ts): every node keeps what a bearer token
-- stands for, so these triggers announce, in the writing transaction, whatever could change that: a
-- token deleted (logout, password change, deactivation), an account or partner firm updated or
-- deleted, roles and permissions changed (the stamp of migration 0005). PostgreSQL delivers the
-- notice to every listening node at commit, and only if the transaction commits. A statement that
-- touches many rows sends '*' (drop everything) rather than a notice per row.
CREATE OR REPLACE FUNCTION notify_session_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF (SELECT count(*) FROM old_rows) > 100 THEN
    PERFORM pg_notify('session_changed', '*');
  ELSE
    PERFORM pg_notify('session_changed', TG_ARGV[0] || ':' || id) FROM old_rows;
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION notify_sessions_all_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('session_changed', '*');
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER personal_access_tokens_deleted_session_changed AFTER DELETE ON personal_access_tokens
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION notify_session_changed('token');--> statement-breakpoint
CREATE TRIGGER users_updated_session_changed AFTER UPDATE ON users
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION notify_session_changed('app');--> statement-breakpoint
CREATE TRIGGER users_deleted_session_changed AFTER DELETE ON users
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION notify_session_changed('app');--> statement-breakpoint
CREATE TRIGGER partner_accounts_updated_session_changed AFTER UPDATE ON partner_accounts
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION notify_session_changed('partner');--> statement-breakpoint
CREATE TRIGGER partner_accounts_deleted_session_changed AFTER DELETE ON partner_accounts
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION notify_session_changed('partner');--> statement-breakpoint
CREATE TRIGGER partners_updated_session_changed AFTER UPDATE ON partners
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION notify_session_changed('firm');--> statement-breakpoint
CREATE TRIGGER partners_deleted_session_changed AFTER DELETE ON partners
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION notify_session_changed('firm');--> statement-breakpoint
CREATE TRIGGER personal_access_tokens_truncated_session_changed AFTER TRUNCATE ON personal_access_tokens
  FOR EACH STATEMENT EXECUTE FUNCTION notify_sessions_all_changed();--> statement-breakpoint
CREATE TRIGGER users_truncated_session_changed AFTER TRUNCATE ON users
  FOR EACH STATEMENT EXECUTE FUNCTION notify_sessions_all_changed();--> statement-breakpoint
CREATE TRIGGER partner_accounts_truncated_session_changed AFTER TRUNCATE ON partner_accounts
  FOR EACH STATEMENT EXECUTE FUNCTION notify_sessions_all_changed();--> statement-breakpoint
CREATE TRIGGER partners_truncated_session_changed AFTER TRUNCATE ON partners
  FOR EACH STATEMENT EXECUTE FUNCTION notify_sessions_all_changed();--> statement-breakpoint
CREATE TRIGGER settings_permissions_version_session_changed AFTER INSERT OR UPDATE ON settings
  FOR EACH ROW WHEN (NEW.key = 'permissions_version') EXECUTE FUNCTION notify_sessions_all_changed();
