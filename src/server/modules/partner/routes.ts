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
  afterPartnerUpdate, beforePartnerDelete, createFirstLogin, engineerName, prepareEngineer, prepareEngineerUpdate, prepareNewPartner, preparePartnerUpdate,
} from './service';
import { afterLoginUpdate, attachFirmAdminFlags, beforeLoginDelete, loginCreated, prepareLogin, prepareLoginUpdate } from './logins';
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
    beforeCreate: (values, _input, ctx) => prepareNewPartner(ctx, values),
    afterCreate: (row, _input, ctx) => createFirstLogin(ctx, row),
    beforeUpdate: (values, existing, _input, ctx) => preparePartnerUpdate(ctx, values, existing),
    afterUpdate: (row, existing, _input, ctx) => afterPartnerUpdate(ctx, row, existing),
    beforeDelete: (existing, ctx) => beforePartnerDelete(ctx, existing),
  });

  registerResource(app, {
    definition: partnerAccount,
    table: partnerAccounts,
    hidden: hiddenLoginColumns,
    unique: ['email'],
    beforeCreate: (values, _input, ctx) => prepareLogin(ctx, values),
    afterCreate: (row, input, ctx) => loginCreated(ctx, row, input),
    beforeUpdate: (values, existing, input, ctx) => prepareLoginUpdate(ctx, values, existing, input),
    afterUpdate: (row, existing, input, ctx) => afterLoginUpdate(ctx, row, existing, input),
    decorate: (rows, ctx) => attachFirmAdminFlags(ctx, rows),
    beforeDelete: (existing, ctx) => beforeLoginDelete(ctx, existing),
  });

  registerResource(app, {
    definition: partnerEngineer,
    table: partnerEngineers,
    computed: { engineer_name: engineerName },
    beforeCreate: (values, _input, ctx) => prepareEngineer(ctx, values),
    beforeUpdate: (values, existing, _input, ctx) => prepareEngineerUpdate(ctx, values, existing),
  });

  registerPartnerProfileRoutes(app);
}
