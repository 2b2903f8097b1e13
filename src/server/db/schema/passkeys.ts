// Issue 29: passkeys (WebAuthn credentials) of both account types, and the challenges handed out
// for registering one or signing in with one (modules/auth/passkeys.ts, decision 037).
import { bigint, boolean, index, integer, pgTable, serial, text, timestamp, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { accountTypes } from './accounts';

/** A person's passkey: the public key and the signature counter the authenticator last reported. */
export const passkeys = pgTable('passkeys', {
  id: serial('id').primaryKey(),
  account_type: varchar('account_type', { length: 10, enum: accountTypes }).notNull(),
  account_id: integer('account_id').notNull(),
  /** The credential ID as base64url, as the browser reports it (unique across the relying party). */
  credential_id: varchar('credential_id', { length: 1400 }).notNull(),
  /** The COSE public key, base64url. */
  public_key: text('public_key').notNull(),
  /** The signature counter last seen: a later assertion must report more (0 forever for authenticators that keep none). */
  counter: bigint('counter', { mode: 'number' }).notNull().default(0),
  /** Transports the browser reported (usb, internal, hybrid...), comma-separated: hints for the next sign-in. */
  transports: varchar('transports', { length: 200 }),
  /** The person's own name for it ("Work laptop"). */
  name: varchar('name', { length: 100 }).notNull(),
  /** Synced to other devices by its provider (a multi-device credential), as the authenticator said at registration. */
  is_backed_up: boolean('is_backed_up').notNull().default(false),
  created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  last_used_at: timestamp('last_used_at', { withTimezone: true }),
}, (t) => [
  uniqueIndex('passkeys_credential_id_unique').on(t.credential_id),
  index('passkeys_account').on(t.account_type, t.account_id),
]);

/**
 * A challenge handed out for one ceremony: registering a passkey (for the account that asked) or
 * signing in (for an account type, whoever answers). Used once (deleted as it is checked) and good
 * for five minutes; expired rows are swept when new ones are written.
 */
export const passkeyChallenges = pgTable('passkey_challenges', {
  challenge: varchar('challenge', { length: 100 }).primaryKey(),
  purpose: varchar('purpose', { length: 10, enum: ['register', 'sign-in'] }).notNull(),
  account_type: varchar('account_type', { length: 10, enum: accountTypes }).notNull(),
  /** The account registering a passkey; null for a sign-in. */
  account_id: integer('account_id'),
  expires_at: timestamp('expires_at', { withTimezone: true }).notNull(),
}, (t) => [index('passkey_challenges_expires_at').on(t.expires_at)]);
