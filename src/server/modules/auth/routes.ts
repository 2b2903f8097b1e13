// The auth calls of spec §7, registered once per account type: /api/... and /api/partner/...
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sql } from 'drizzle-orm';
import type { AccountType } from '../../db/schema/accounts';
import { requireAccount } from '../../plugins/auth';
import { contextOf } from '../../resources/types';
import { HttpError } from '../../plugins/errors';
import {
  forceResetPasswordSchema, forgotPasswordSchema, loginResponse, loginSchema, permissionSetSchema, profileResponse, resetPasswordSchema,
  sessionResponse, updatePasswordSchema, updateProfileSchema, verificationResponse,
} from '../../../shared/schemas/auth';
import { messageResponse } from '../../../shared/schemas/responses';
import { accountTable, revokeToken } from './accounts';
import { checkVerificationSignature } from './links';
import * as auth from './service';
import * as twoFactor from './two-factor-service';
import {
  recoveryCodesResponse, twoFactorChallengeResponse, twoFactorConfirmSchema, twoFactorGuardedSchema, twoFactorResetSchema, twoFactorSetupResponse,
  twoFactorSignInSchema, twoFactorStatusResponse,
} from '../../../shared/schemas/two-factor';
import * as passkeys from './passkeys';
import {
  passkeyListResponse, passkeyOptionsResponse, passkeyOptionsSchema, passkeyRegisterSchema, passkeyRemoveSchema, passkeyRenameSchema, passkeyResponse,
  passkeySignInSchema,
} from '../../../shared/schemas/passkeys';
import { idQuery } from '../../../shared/resources/define';

export function registerAuthRoutes(parent: FastifyInstance, type: AccountType) {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  const prefix = type === 'partner' ? '/partner' : '';
  const guest = { auth: 'none' as const };
  // Calls that resolve a pending state (or end the session) must work while it is pending.
  const pending = { auth: type, allowPending: true };
  const signedIn = { auth: type };

  app.post(`${prefix}/login`, { config: guest, schema: { body: loginSchema, response: { 200: z.union([loginResponse, twoFactorChallengeResponse]) } } }, (request, reply) =>
    auth.login(parent, type, request.body, request, reply));

  // Issue 29: the code step of a sign-in, for an account with a second factor (the password step answered TWO_FACTOR_REQUIRED).
  app.post(`${prefix}/login/two-factor`, { config: guest, schema: { body: twoFactorSignInSchema, response: { 200: loginResponse } } }, (request, reply) =>
    twoFactor.signInWithSecondFactor(parent, type, request.body, request, reply));

  // The person's own second factor. Setting it up works while it is pending (a role asks for it).
  app.get(`${prefix}/two-factor`, { config: pending, schema: { response: { 200: twoFactorStatusResponse } } }, (request) => twoFactor.twoFactorStatus(contextOf(request)));
  app.post(`${prefix}/two-factor/setup`, { config: pending, schema: { response: { 200: twoFactorSetupResponse } } }, (request) => twoFactor.setUpTwoFactor(contextOf(request)));
  app.post(`${prefix}/two-factor/confirm`, { config: pending, schema: { body: twoFactorConfirmSchema, response: { 200: recoveryCodesResponse } } }, (request) =>
    twoFactor.confirmTwoFactor(contextOf(request), request.body.code));
  app.post(`${prefix}/two-factor/recovery-codes`, { config: signedIn, schema: { body: twoFactorGuardedSchema, response: { 200: recoveryCodesResponse } } }, (request) =>
    twoFactor.renewRecoveryCodes(contextOf(request), request.body));
  app.post(`${prefix}/two-factor/disable`, { config: signedIn, schema: { body: twoFactorGuardedSchema, response: { 200: messageResponse } } }, async (request) =>
    ({ message: await twoFactor.turnOffTwoFactor(contextOf(request), request.body) }));

  // Issue 29: passkeys (decision 037). Signing in with one: options (a challenge), then the browser's answer.
  app.post(`${prefix}/login/passkey/options`, { config: guest, schema: { response: { 200: passkeyOptionsResponse } } }, (request) =>
    passkeys.signInOptions(parent, type, request));
  app.post(`${prefix}/login/passkey`, { config: guest, schema: { body: passkeySignInSchema, response: { 200: loginResponse } } }, (request, reply) =>
    passkeys.signInWithPasskey(parent, type, request.body.credential as never, request, reply));
  // The person's own passkeys: listed, added (options, then the browser's answer), renamed, removed.
  const passkeyId = { params: z.object({ id: idQuery() }) };
  app.get(`${prefix}/passkeys`, { config: signedIn, schema: { response: { 200: passkeyListResponse } } }, (request) => passkeys.listPasskeys(parent, requireAccount(request)));
  app.post(`${prefix}/passkeys/options`, { config: signedIn, schema: { body: passkeyOptionsSchema, response: { 200: passkeyOptionsResponse } } }, (request) =>
    passkeys.registrationOptions(parent, requireAccount(request), request.body.current_password));
  app.post(`${prefix}/passkeys`, { config: signedIn, schema: { body: passkeyRegisterSchema, response: { 200: passkeyResponse } } }, (request) =>
    passkeys.registerPasskey(parent, requireAccount(request), request.body));
  app.patch(`${prefix}/passkeys/:id`, { config: signedIn, schema: { ...passkeyId, body: passkeyRenameSchema, response: { 200: passkeyResponse } } }, (request) =>
    passkeys.renamePasskey(parent, requireAccount(request), request.params.id, request.body.name));
  app.post(`${prefix}/passkeys/:id/remove`, { config: signedIn, schema: { ...passkeyId, body: passkeyRemoveSchema, response: { 200: messageResponse } } }, async (request) =>
    ({ message: await passkeys.removePasskey(parent, requireAccount(request), request.params.id, request.body.current_password) }));

  // An admin resets another person's second factor (a lost phone); recorded in the audit trail.
  if (type === 'app') {
    app.post('/two-factor/reset', { config: signedIn, schema: { body: twoFactorResetSchema, response: { 200: messageResponse } } }, async (request) => {
      return { message: await twoFactor.resetTwoFactor(contextOf(request), request.body) };
    });
  }

  app.post(`${prefix}/logout`, { config: pending, schema: { response: { 200: messageResponse } } }, async (request) => {
    await revokeToken(parent.db, requireAccount(request).tokenId);
    return { message: 'Logout successfully!' };
  });

  app.get(`${prefix}/me`, { config: pending, schema: { response: { 200: sessionResponse } } }, (request) => {
    const account = requireAccount(request);
    // Roles and permissions as the session holds them (the session cache, decision 026): no second read.
    return auth.authPayload(parent, type, account.user, account.token, account);
  });

  app.get(`${prefix}/get-laravel-permission-to-vue-js`, { config: pending, schema: { response: { 200: permissionSetSchema } } }, (request) => {
    // The same object for every request of the account until its permissions change: serialised once.
    return requireAccount(request).permissionSet;
  });

  app.post(`${prefix}/forgot-password`, { config: guest, schema: { body: forgotPasswordSchema, response: { 200: messageResponse } } }, async (request) =>
    ({ message: await auth.sendResetLink(parent, type, request.body.email, request.ip) }));

  app.post(`${prefix}/reset-password`, { config: guest, schema: { body: resetPasswordSchema, response: { 200: messageResponse } } }, async (request) =>
    ({ message: await auth.resetPassword(parent, type, request.body) }));

  app.post(`${prefix}/force-reset-password`, { config: pending, schema: { body: forceResetPasswordSchema, response: { 200: messageResponse } } }, async (request) =>
    ({ message: await auth.forceResetPassword(contextOf(request), request.body.password) }));

  app.post(`${prefix}/email/verification-notification`, { config: pending, schema: { response: { 200: verificationResponse } } }, (request) =>
    auth.resendVerification(contextOf(request)));

  // The signed link is its own proof, so it works from the mail in any browser, signed in or not.
  app.get(`${prefix}/email/verify/:id/:hash`, {
    config: guest,
    schema: {
      params: z.object({ id: idQuery(), hash: z.string().regex(/^[0-9a-f]{40}$/) }),
      querystring: z.object({ expires: z.coerce.number().int(), signature: z.string().max(128) }),
      response: { 200: verificationResponse },
    },
  }, (request) => {
    const path = request.url.split('?')[0];
    const check = checkVerificationSignature(parent.config.appKey, path, request.query.expires, request.query.signature);
    if (check === 'invalid') throw new HttpError(403, 'This verification link is invalid.');
    if (check === 'expired') throw new HttpError(403, 'This verification link has expired. Please request a new one.');
    return auth.verifyEmail(parent, type, request.params.id, request.params.hash);
  });

  app.patch(`${prefix}/profile`, { config: { ...signedIn, permission: 'can-edit-profile' }, schema: { body: updateProfileSchema, response: { 200: profileResponse } } }, (request) =>
    auth.updateProfile(contextOf(request), request.body));

  app.put(`${prefix}/password`, { config: signedIn, schema: { body: updatePasswordSchema, response: { 200: messageResponse } } }, async (request) =>
    ({ message: await auth.updatePassword(contextOf(request), request.body.current_password, request.body.password) }));

  // spec §9 heartbeat: every 2 minutes; feeds the active-user screen.
  app.post(`${prefix}/last-activity`, { config: pending, schema: { response: { 200: messageResponse } } }, async (request) => {
    const account = requireAccount(request);
    const table = accountTable(type);
    await parent.db.update(table).set({ last_activity_at: new Date() }).where(sql`${table.id} = ${account.id}`);
    return { message: 'Activity recorded.' };
  });
}
