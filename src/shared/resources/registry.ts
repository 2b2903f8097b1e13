// Every resource definition, by name: what references what, and which permission may read options.
import type { ResourceDefinition } from './define';
import { bgvCheck, bgvCheckComponent } from './bgv-check';
import { candidate } from './candidate';
import { city } from './city';
import { client } from './client';
import { contract } from './contract';
import { country } from './country';
import { dealTracking } from './deal-tracking';
import { ownDocument } from './document';
import { documentAssignment } from './document-assignment';
import { documentRepository } from './document-repository';
import { employeeType } from './employee-type';
import { expense } from './expense';
import { expenseCategory } from './expense-category';
import { holiday } from './holiday';
import { interview, interviewer } from './interview';
import { ikkPartner } from './ikk-partner';
import { leaveApplication } from './leave-application';
import { leaveType } from './leave-type';
import { onboarding, onboardingTask } from './onboarding';
import { offerTemplate } from './offer-template';
import { onboardingTemplate } from './onboarding-template';
import { partnerAccount } from './partner-account';
import { partnerEngineer } from './partner-engineer';
import { partnerInvoice } from './partner-invoice';
import { permission } from './permission';
import { position } from './position';
import { preBilling } from './pre-billing';
import { reimbursementBatch } from './reimbursement-batch';
import { question } from './question';
import { request } from './request';
import { questionCategory } from './question-category';
import { role } from './role';
import { timeSheet } from './time-sheet';
import { activeUser, admin, manager, user } from './user';

export const resourceDefinitions: readonly ResourceDefinition[] = [
  country, city, client, employeeType, expenseCategory, position, questionCategory, question,
  admin, manager, user, activeUser, role, permission, timeSheet, expense,
  // Issue 21: approved claims paid in batches.
  reimbursementBatch,
  leaveType, holiday, leaveApplication,
  // The firm before its logins and engineers: they are listed on its show route, which names the firm's screen.
  ikkPartner, partnerAccount, partnerEngineer,
  preBilling, partnerInvoice,
  // Issue 10: the compliance library, its assignments and people's own documents.
  documentRepository, documentAssignment, ownDocument,
  // Issue 13: the onboarding before its tasks (listed on its show route).
  onboarding, onboardingTask, onboardingTemplate, contract,
  candidate,
  // Issue 28: interviews with calendar invitations and scorecards; the firm's offer letter templates.
  interview, interviewer, offerTemplate,
  // Issue 13: background checks (their components listed on the check's show route), deals, service requests.
  bgvCheck, bgvCheckComponent, dealTracking, request,
];

export const resourceByName: Readonly<Record<string, ResourceDefinition>> =
  Object.fromEntries(resourceDefinitions.map((definition) => [definition.name, definition]));

/** Definitions with a field or filter that references `name`. */
export function referencingResources(name: string): ResourceDefinition[] {
  return resourceDefinitions.filter((definition) =>
    Object.values(definition.fields).some((field) => field.reference?.resource === name)
    || definition.filters?.some((filter) => filter.type === 'reference' && filter.reference.resource === name));
}

/**
 * Who may read `GET /api/{name}/options`: whoever may view the resource, or view, add or edit a
 * resource whose form or filters pick from it (a city's form needs countries).
 */
export function optionsPermission(name: string): string {
  const own = resourceByName[name]?.permissions.view;
  const others = referencingResources(name).flatMap((d) => [d.permissions.view, d.permissions.add, d.permissions.edit]);
  return [...new Set([own, ...others].filter((p): p is string => !!p))].join('|');
}
