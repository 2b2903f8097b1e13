// Partner firms (issue 11): the firm, its portal logins and its engineers with agreed rates, each
// through the generic routes of its shared definition; the logins and engineers are listed on the
// firm's page (?partner_id=). The engineers are also served to the firm's own logins (the
// definition's `owner`), who pick them for a pre-billing statement.
import type { FastifyInstance } from 'fastify';
import { partnerAccounts, partners } from '../../db/schema/accounts';
import { partnerEngineers } from '../../db/schema/partner-billing';
import { registerResource } from '../../resources/register';
import { ikkPartner } from '../../../shared/resources/ikk-partner';
import { partnerAccount } from '../../../shared/resources/partner-account';
import { partnerEngineer } from '../../../shared/resources/partner-engineer';
import {
  afterLoginUpdate, afterPartnerUpdate, beforeLoginDelete, beforePartnerDelete, checkEngineerPeriod, checkNewLoginGrant, createFirstLogin, engineerName,
  prepareLoginUpdate, prepareNewLogin, prepareNewPartner, preparePartnerUpdate, refuseRateMove, welcomeLogin,
} from './service';
import { attachFirmAdminFlags, setFirmAdmin } from './profile';
import { registerPartnerProfileRoutes } from './profile-routes';

/** Secrets and internals never sent with a login. */
const hiddenLoginColumns = ['password', 'two_fa_enabled_at', 'two_fa_secret', 'two_fa_last_step'];

export function registerPartnerRoutes(app: FastifyInstance) {
  registerResource(app, {
    definition: ikkPartner,
    table: partners,
    // Issue 28: the approved bank details are read through their own route (finance), never with the firm's row.
    hidden: ['bank_account_holder', 'bank_account_number', 'bank_code', 'bank_details_approved_at'],
    unique: ['name'],
    beforeCreate: (values, _input, ctx) => prepareNewPartner(values, ctx),
    afterCreate: (row, _input, ctx) => createFirstLogin(row, ctx),
    beforeUpdate: (values, existing, _input, ctx) => preparePartnerUpdate(values, existing, ctx),
    afterUpdate: (row, existing, _input, ctx) => afterPartnerUpdate(row, existing, ctx),
    beforeDelete: beforePartnerDelete,
    messages: {
      created: 'Partner created successfully. An invitation to set a password for the partner portal has been emailed.',
      updated: (row) => (row.status === 'inactive' ? 'Partner updated successfully. Its logins are signed out.' : 'Partner updated successfully.'),
    },
  });

  registerResource(app, {
    definition: partnerAccount,
    table: partnerAccounts,
    hidden: hiddenLoginColumns,
    unique: ['email'],
    beforeCreate: async (values, _input, ctx) => {
      await checkNewLoginGrant(ctx);
      return prepareNewLogin(values);
    },
    afterCreate: async (row, input, ctx) => {
      await welcomeLogin(row, ctx);
      await setFirmAdmin(ctx.db, 'partner', row.id, input.is_firm_admin);
    },
    beforeUpdate: async (values, existing, input, ctx) => {
      if (typeof input.is_firm_admin === 'boolean') await checkNewLoginGrant(ctx);
      return prepareLoginUpdate(values, existing, ctx);
    },
    afterUpdate: async (row, existing, input, ctx) => {
      await afterLoginUpdate(row, existing, input, ctx);
      await setFirmAdmin(ctx.db, 'partner', row.id, input.is_firm_admin);
    },
    decorate: (rows, { db }) => attachFirmAdminFlags(db, rows),
    beforeDelete: beforeLoginDelete,
    messages: { created: 'Login created successfully. An invitation to set a password for the partner portal has been emailed.' },
  });

  registerResource(app, {
    definition: partnerEngineer,
    table: partnerEngineers,
    computed: { engineer_name: engineerName },
    async beforeCreate(values, _input, ctx) {
      await checkEngineerPeriod(ctx, values);
      return values;
    },
    async beforeUpdate(values, existing, _input, ctx) {
      refuseRateMove(values, existing);
      await checkEngineerPeriod(ctx, { ...existing, ...values }, existing.id);
      return values;
    },
  });

  registerPartnerProfileRoutes(app);
}
