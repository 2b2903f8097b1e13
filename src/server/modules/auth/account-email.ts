// Another account's email address, changed from the people screens (staff and partner logins).
// Whoever controls an account's address controls the account (forgot-password mails it), so
// (issue 20) only an admin changes someone else's address, and then as the profile route does:
// the address stays until the new one confirms it, the old one is told, and the account's sessions
// end. Your own address changes from your profile, which asks for your password.
import type { AccountType } from '../../db/schema/accounts';
import { validationError } from '../../plugins/errors';
import type { ResourceContext, WriteContext } from '../../resources/register';
import { isAdmin } from '../../../shared/permissions';
import { findAccountById, revokeAllTokens } from './accounts';
import { mailEmailChange, recordEmailChange } from './service';

type Input = Record<string, unknown>;

/** The address asked for when it differs from the account's, else null. */
export const changedEmail = (values: Input, existing: Input): string | null =>
  (typeof values.email === 'string' && values.email.toLowerCase() !== String(existing.email).toLowerCase() ? values.email : null);

/**
 * The values to store: without the new address, which waits for its confirmation. Refuses a
 * change of one's own address here and anyone's but an admin's change of another's.
 */
export function holdEmailChange(context: ResourceContext, type: AccountType, values: Input, existing: Input): Input {
  if (!changedEmail(values, existing)) return values;
  const isSelf = context.account.type === type && context.account.id === existing.id;
  if (isSelf) throw validationError({ email: 'Change your own email address from your profile, which asks for your password.' });
  if (!isAdmin(context.account)) throw validationError({ email: 'Only an admin can change another person\'s email address.' });
  const { email: _waiting, ...rest } = values;
  return rest;
}

/** After the admin's edit: the change waits for the new address, the account is signed out, both addresses are mailed after commit. */
export async function requestEmailChangeByAdmin(context: WriteContext, type: AccountType, id: number, email: string) {
  await recordEmailChange(context.db, type, id, email);
  await revokeAllTokens(context.db, type, id);
  context.tx.onCommit(async () => {
    const account = await findAccountById(context.app.db, type, id);
    if (!account) return;
    await mailEmailChange(context.app, type, account, email, 'admin').catch((error: unknown) =>
      context.request.log.error({ err: error, accountType: type, accountId: id }, 'email change mail failed'));
  });
}
