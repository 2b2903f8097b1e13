// Issue 28: the partner portal's firm profile and colleagues (/partner/profile), and finance's decision
// on a firm's new bank details (the firm's page). Thin routes: the rules are in profile.ts.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { contextOf } from '../../resources/types';
import { idQuery } from '../../../shared/resources/define';
import { colleagueSchema, colleagueStatusSchema, firmProfileSchema, rejectBankChangeSchema } from '../../../shared/resources/ikk-partner';
import { bankDetailsSchema } from '../../../shared/resources/reimbursement-batch';
import { colleagueRowSchema, firmBankDetailsSchema, firmSchema } from '../../../shared/schemas/partner';
import { dataResponse, savedResponse } from '../../../shared/schemas/responses';
import {
  BANK_APPROVER_PERMISSION, decideBankChange, inviteColleague, listColleagues, readBankDetails, readFirm, requestBankChange,
  setColleagueStatus, updateFirm, withdrawBankChange,
} from './profile';

const portalTags = ['Partner portal'];
const idParams = z.object({ id: idQuery() });
const changeParams = z.object({ id: idQuery(), changeId: idQuery() });

export function registerPartnerProfileRoutes(parent: FastifyInstance) {
  const app = parent.withTypeProvider<ZodTypeProvider>();

  // ---- The partner portal: the firm (every login reads it; its admins change it) ----

  app.get('/partner/firm', {
    config: { auth: 'partner', permission: 'can-edit-profile' },
    schema: { tags: portalTags, summary: 'The caller\'s firm: contact details, tax registration, bank details in force, the change waiting and its history', response: { 200: dataResponse(firmSchema) } },
  }, async (request) => ({ data: await readFirm(contextOf(request)) }));

  app.patch('/partner/firm', {
    config: { auth: 'partner', permission: 'can-edit-firm-profile' },
    schema: { tags: portalTags, summary: 'Change the firm\'s phone, address and tax registration', body: firmProfileSchema, response: { 200: savedResponse(firmSchema) } },
  }, async (request) => ({
    data: await updateFirm(contextOf(request), request.body),
    message: 'Your firm\'s profile is saved.',
  }));

  app.post('/partner/firm/bank-details', {
    config: { auth: 'partner', permission: 'can-edit-firm-profile' },
    schema: { tags: portalTags, summary: 'Ask for new bank details: they wait for finance, the ones in force stay until then', body: bankDetailsSchema, response: { 201: savedResponse(firmBankDetailsSchema) } },
  }, async (request, reply) => reply.code(201).send(await requestBankChange(contextOf(request), request.body)));

  app.delete('/partner/firm/bank-details/pending', {
    config: { auth: 'partner', permission: 'can-edit-firm-profile' },
    schema: { tags: portalTags, summary: 'Withdraw the change of bank details waiting for finance', response: { 200: savedResponse(firmBankDetailsSchema) } },
  }, async (request) => withdrawBankChange(contextOf(request)));

  // ---- The partner portal: colleagues' logins of the caller's own firm ----

  app.get('/partner/colleague', {
    config: { auth: 'partner', permission: 'can-view-colleague' },
    schema: { tags: portalTags, summary: 'The logins of the caller\'s firm', response: { 200: dataResponse(z.array(colleagueRowSchema)) } },
  }, async (request) => ({ data: await listColleagues(contextOf(request)) }));

  app.post('/partner/colleague', {
    config: { auth: 'partner', permission: 'can-add-colleague' },
    schema: { tags: portalTags, summary: 'Invite a colleague: a new login of the caller\'s firm, mailed a link to set its password', body: colleagueSchema, response: { 201: savedResponse(colleagueRowSchema) } },
  }, async (request, reply) => reply.code(201).send(await inviteColleague(contextOf(request), request.body)));

  app.patch('/partner/colleague/:id', {
    config: { auth: 'partner', permission: 'can-edit-colleague' },
    schema: { tags: portalTags, summary: 'Deactivate (signing it out) or reactivate a colleague\'s login of the caller\'s firm', params: idParams, body: colleagueStatusSchema, response: { 200: savedResponse(colleagueRowSchema) } },
  }, async (request) => setColleagueStatus(contextOf(request), request.params.id, request.body.status));

  // ---- Staff: finance decides a firm's new bank details ----

  app.get('/ikk-partner/:id/bank-details', {
    config: { auth: 'app', permission: BANK_APPROVER_PERMISSION },
    schema: { tags: ['Partner'], summary: 'A firm\'s bank details in force, the change waiting (old beside new) and every request', params: idParams, response: { 200: dataResponse(firmBankDetailsSchema) } },
  }, async (request) => ({ data: await readBankDetails(contextOf(request), request.params.id) }));

  app.post('/ikk-partner/:id/bank-changes/:changeId/approve', {
    config: { auth: 'app', permission: BANK_APPROVER_PERMISSION },
    schema: { tags: ['Partner'], summary: 'Approve a firm\'s new bank details: payments go to them from now on', params: changeParams, response: { 200: savedResponse(firmBankDetailsSchema) } },
  }, async (request) => decideBankChange(contextOf(request), request.params.id, request.params.changeId, 'approved', null));

  app.post('/ikk-partner/:id/bank-changes/:changeId/reject', {
    config: { auth: 'app', permission: BANK_APPROVER_PERMISSION },
    schema: { tags: ['Partner'], summary: 'Reject a firm\'s new bank details with a reason told to the firm', params: changeParams, body: rejectBankChangeSchema, response: { 200: savedResponse(firmBankDetailsSchema) } },
  }, async (request) => decideBankChange(contextOf(request), request.params.id, request.params.changeId, 'rejected', request.body.reason));
}
