// The shared resource definitions stay consistent with the route table, the permission list and each other.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { allPermissions } from '../../src/shared/permissions';
import { routesByName } from '../../src/shared/routes';
import { badgeTone, decisionNote, defineResource, formToPayload, statusTone, withReason } from '../../src/shared/resources/define';
import { expense } from '../../src/shared/resources/expense';
import { city } from '../../src/shared/resources/city';
import { position } from '../../src/shared/resources/position';
import { question } from '../../src/shared/resources/question';
import { optionsPermission, resourceByName, resourceDefinitions } from '../../src/shared/resources/registry';
import { groupPermissionsByScreen, permissionArea } from '../../src/shared/resources/permission';
import { user } from '../../src/shared/resources/user';

describe('resource definitions', () => {
  it('name only routes of the route table and permissions the server knows', () => {
    for (const definition of resourceDefinitions) {
      for (const name of Object.values(definition.routes)) expect(routesByName[name], `${definition.name}: ${name}`).toBeDefined();
      // A permission may be a spec §6 expression (`a|b`: assignments for the history's staff or their own person).
      for (const name of Object.values(definition.permissions).flatMap((p) => p.split(/[|&]/))) expect(allPermissions, `${definition.name}`).toContain(name);
    }
  });

  it('say, for every workflow that may be edited, what an edit after a decision does (issue 20)', () => {
    for (const definition of resourceDefinitions) {
      const workflow = definition.workflow;
      if (!workflow || !(definition.permissions.edit || definition.owner?.permissions.edit)) continue;
      // Either the record is edited only in named states (an edit past the first one restarts it), or its states are nobody's decision.
      expect(!!definition.editableStates || !!workflow.isStateKeptOnEdit, definition.name).toBe(true);
    }
    const { workflow, ...rest } = resourceByName.expense;
    expect(() => defineResource({ ...rest, workflow, editableStates: undefined })).toThrow(/declares editableStates .* or isStateKeptOnEdit/);
  });

  it('reference only defined resources and fields that exist', () => {
    for (const definition of resourceDefinitions) {
      for (const field of Object.values(definition.fields)) {
        if (field.reference) {
          const target = resourceByName[field.reference.resource];
          expect(target, field.reference.resource).toBeDefined();
          expect(Object.keys(target.fields)).toContain(field.reference.labelKey);
        }
      }
      for (const key of Object.keys(definition.schema.shape)) expect(Object.keys(definition.fields), `${definition.name}.${key}`).toContain(key);
    }
  });

  it('derives an all-optional update schema from the create schema', () => {
    expect(city.updateSchema.safeParse({ name: 'Pune' }).success).toBe(true);
    expect(city.schema.safeParse({ name: 'Pune' }).success).toBe(false);
    expect(city.updateSchema.parse({})).toEqual({});
  });

  it('validates list queries from the filters', () => {
    expect(city.listQuerySchema.safeParse({ country_id: '3', status: 'active', created_at_from: '2024-01-01' }).success).toBe(true);
    expect(city.listQuerySchema.safeParse({ status: 'maybe' }).success).toBe(false);
    expect(city.listQuerySchema.safeParse({ created_at_to: '01/02/2024' }).success).toBe(false);
  });

  it('turns form strings into the typed payload', () => {
    expect(formToPayload(user, { name: ' Ann ', email: 'a@b.co', phone: '', employee_type_id: '', parent_id: '4', role_ids: ['2', '5'], status: 'active' }))
      .toEqual({ name: 'Ann', email: 'a@b.co', phone: null, employee_type_id: null, parent_id: 4, role_ids: [2, 5], status: 'active' });
    expect(formToPayload(question, { skill_level: '2', options: ['a', ' ', 'b'] })).toEqual({ skill_level: 2, options: ['a', 'b'] });
  });

  it('colours statuses as spec §4 says', () => {
    expect(statusTone('Renewal in progress')).toBe('yellow');
    expect(statusTone('approved by manager')).toBe('green');
    expect(statusTone('Expired New PO Released')).toBe('red');
    expect(statusTone('something else')).toBe('gray');
    expect(badgeTone(position.fields.status, 'on hold')).toBe('yellow');
  });

  it('lets the forms that pick from a resource read its options', () => {
    expect(optionsPermission('country').split('|')).toEqual(expect.arrayContaining(['can-view-country', 'can-add-city', 'can-edit-user']));
    expect(optionsPermission('permission').split('|')).toEqual(expect.arrayContaining(['can-view-permission', 'can-edit-role']));
  });

  it('groups permissions by screen, view first, each with a sentence saying what it opens', () => {
    expect(permissionArea('can-view-employee-type')).toBe('employee-type');
    expect(permissionArea('can-create-leave-application')).toBe('leave-application');
    const groups = groupPermissionsByScreen([
      { id: 2, name: 'can-add-city' }, { id: 1, name: 'can-view-city' }, { id: 3, name: 'can-view-country' },
      { id: 4, name: 'can-approve-partner-bank-details' }, { id: 5, name: 'can-view-partner' },
    ]);
    expect(groups.map((g) => g.screen)).toEqual(['City', 'Country', 'Partner']);
    expect(groups[0].permissions.map((p) => p.id)).toEqual([1, 2]);
    expect(groups[0].permissions[0].description).toBe('Opens the screen: the list and each record\'s page.');
    expect(groups[2].permissions.map((p) => p.name)).toEqual(['can-view-partner', 'can-approve-partner-bank-details']);
    expect(groups[2].permissions[1].description).toMatch(/^Approves or rejects the new bank details/);
  });
});

describe('the note beside a decided state (decision 063)', () => {
  const workflow = expense.workflow!;
  const rejection = { transition: 'reject-manager', to: 'rejected', comment: 'Receipt missing', actor: { name: 'Maria Manager' } };

  it('says who decided and why while the record stays where the step left it', () => {
    expect(decisionNote(workflow, 'rejected', rejection)).toBe('Rejected by Maria Manager: Receipt missing.');
    expect(decisionNote(workflow, 'rejected', { ...rejection, on_behalf_of: { name: 'Mark Manager' } })).toBe('Rejected by Maria Manager on behalf of Mark Manager: Receipt missing.');
    // Moved on since: the reason is the history's.
    expect(decisionNote(workflow, 'pending', rejection)).toBeNull();
    // An approval, even with a comment, says nothing the state does not.
    expect(decisionNote(workflow, 'approved by manager', { transition: 'approve-manager', to: 'approved by manager', comment: 'Fine', actor: { name: 'Maria Manager' } })).toBeNull();
    expect(decisionNote(workflow, 'rejected', null)).toBeNull();
  });

  it('ends the comment once, as typed, and without one says the words alone', () => {
    expect(withReason('Rejected by Maria Manager', 'Receipt missing!')).toBe('Rejected by Maria Manager: Receipt missing!');
    expect(withReason('Rejected by Maria Manager', '  ')).toBe('Rejected by Maria Manager.');
    expect(withReason('Withdrawn by Eddie Engineer', null)).toBe('Withdrawn by Eddie Engineer.');
  });

  it('refuses a definition whose step asks for a comment but declares no note', () => {
    const words = { confirm: () => 'Reject it?', confirmMany: () => 'Reject them?', doneMany: () => 'You rejected them.', history: (actor: string) => `${actor} rejected it` };
    expect(() => defineResource({
      name: 'noteless', label: 'Thing', pluralLabel: 'Things', routes: { index: 'dashboard' }, schema: z.object({ name: z.string() }), fields: { name: { label: 'Name', input: 'text' } },
      titleKey: 'name', search: ['name'], defaultSort: { key: 'name', direction: 'asc' }, permissions: { view: 'can-view-thing' },
      workflow: {
        field: 'status', initial: 'pending', ownerField: 'user_id', events: { create: { history: (actor) => `${actor} made it` } },
        states: { pending: { label: 'Pending', tone: 'yellow' }, rejected: { label: 'Rejected', tone: 'red', isFinal: true } },
        transitions: [{ name: 'reject', label: 'Reject', from: ['pending'], to: 'rejected', permission: 'can-edit-thing', comment: 'required', words }],
      },
    })).toThrow('noteless: reject asks for a comment, so it declares words.note');
  });
});
