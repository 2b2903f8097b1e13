// Issue 29: passkeys (WebAuthn). The server validates with these; the profile card and the login reuse them.
// The browser's answers (RegistrationResponseJSON, AuthenticationResponseJSON) are checked loosely here
// for shape and size; @simplewebauthn/server checks everything they say.
import { z } from 'zod';

const base64url = z.string().max(4096).regex(/^[A-Za-z0-9_-]*$/, 'This passkey answer is malformed.');

export const passkeyName = z.string({ error: 'Give the passkey a name.' }).trim()
  .min(1, 'Give the passkey a name, such as the device it is on.')
  .max(100, 'The name may have at most 100 characters.');

/** The password, when the sign-in is not recent (adding or removing a passkey). */
const currentPassword = z.string().max(128).nullish();

export const passkeyOptionsSchema = z.object({ current_password: currentPassword });

const registrationCredential = z.object({
  id: base64url,
  rawId: base64url,
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: base64url,
    attestationObject: base64url.max(16_384),
    transports: z.array(z.string().max(20)).max(10).optional(),
    authenticatorData: base64url.max(16_384).optional(),
    publicKey: base64url.optional(),
    publicKeyAlgorithm: z.number().int().optional(),
  }).loose(),
  authenticatorAttachment: z.string().max(30).optional(),
  clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
}).loose();

export const passkeyRegisterSchema = z.object({
  name: passkeyName,
  credential: registrationCredential,
});

export const passkeyRenameSchema = z.object({ name: passkeyName });

export const passkeyRemoveSchema = z.object({ current_password: currentPassword });

const authenticationCredential = z.object({
  id: base64url,
  rawId: base64url,
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: base64url,
    authenticatorData: base64url,
    signature: base64url,
    userHandle: base64url.optional(),
  }).loose(),
  authenticatorAttachment: z.string().max(30).optional(),
  clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
}).loose();

export const passkeySignInSchema = z.object({ credential: authenticationCredential });

/** The options a browser passes to navigator.credentials (as JSON): checked on the server only by the library that made them. */
export const passkeyOptionsResponse = z.object({ options: z.record(z.string(), z.unknown()) });

export const passkeySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
  is_backed_up: z.boolean(),
});
export type Passkey = z.infer<typeof passkeySchema>;

export const passkeyListResponse = z.object({
  data: z.array(passkeySchema),
  /** The sign-in is not recent: adding or removing a passkey asks for the password. */
  password_needed: z.boolean(),
});
export type PasskeyList = z.infer<typeof passkeyListResponse>;

export const passkeyResponse = z.object({ data: passkeySchema, message: z.string() });

/** The profile's forms: a name for a new passkey (and the password, when the server asks for it), a new name, a removal. */
export const passkeyAddForm = z.object({ name: passkeyName, current_password: z.string().max(128) });
export const passkeyRenameForm = z.object({ name: passkeyName });
export const passkeyRemoveForm = z.object({ current_password: z.string().max(128) });
