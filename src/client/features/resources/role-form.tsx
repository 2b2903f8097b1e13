// The role form: a name and permissions ticked by screen, each with what it opens (GET /api/permission-groups). It is the generic form
// with its own layout (slots): the same state, checks, save, 422 mapping and dirty guard.
import { useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useSnapshot } from 'valtio';
import { isAdmin } from '../../../shared/permissions';
import { role } from '../../../shared/resources/role';
import { groupPermissionsByScreen, type PermissionGroup } from '../../../shared/resources/permission';
import { api } from '../../lib/api';
import { queryClient, queryKeys } from '../../lib/query';
import { auth } from '../../stores/auth';
import { humanize } from '../../lib/format';
import { cx } from '../../ui/cx';
import { inputClass } from '../../ui/field';
import { Icon } from '../../ui/icons';
import { Skeleton } from '../../ui/loading';
import { ResourceForm, type ResourceFormProps, type ResourceFormState } from '../../ui/resources/resource-form';
import { relatedOptions } from '../../ui/resources/resource-values';

type PermissionItem = PermissionGroup['permissions'][number];

/**
 * The groups as the server sends them ({screen, permissions with their sentences}); a flat list or
 * another grouping is grouped here by the same shared rule.
 */
export function toGroups(data: unknown): PermissionGroup[] {
  const list = Array.isArray(data) ? data : [];
  const isGrouped = list.every((item) => item && typeof item === 'object' && 'permissions' in item);
  if (isGrouped && list.every((item) => 'screen' in item)) return list as PermissionGroup[];
  const flat = (isGrouped ? (list as { permissions: { id: number; name: string }[] }[]).flatMap((group) => group.permissions) : list) as { id: number; name: string }[];
  return groupPermissionsByScreen(flat);
}

/** can-view-country -> View; can-approve-partner-bank-details -> Approve */
const verbOf = (permission: PermissionItem) => humanize(permission.verb || permission.name.replace(/^can-/, '').split('-')[0]);

export function RoleForm(props: ResourceFormProps) {
  return (
    <ResourceForm {...props} label="role" fieldKeys={['name', 'permission_ids']}
      beforeSubmit={(payload) => ({ ...payload, permission_ids: [...((payload.permission_ids as number[] | undefined) ?? [])].sort((a, b) => a - b) })}
      layout={({ field, form }) => (
        <>
          <div className="sm:max-w-sm">{field('name')}</div>
          <PermissionPicker form={form} row={props.row} />
        </>
      )} />
  );
}

/** The permissions ticked by screen; they are the form's `permission_ids` (ids as form strings). */
function PermissionPicker({ form, row }: { form: ResourceFormState; row: ResourceFormProps['row'] }) {
  const selectedIds = Array.isArray(form.values.permission_ids) ? form.values.permission_ids : [];
  const selected = new Set(selectedIds.map(Number));
  // Issue 20: a non-admin ticks only permissions they hold (the role's own ones may stay); the server refuses the rest.
  const mine = useSnapshot(auth.app).permissions;
  const [had] = useState(() => new Set(relatedIds(row)));
  const mayTick = (permission: PermissionItem) => isAdmin(mine) || mine.permissions.includes(permission.name) || had.has(permission.id);
  // Every permission by area: a failure leaves the picker empty (the wrapper has said why).
  const { data: loaded, isError } = useQuery({
    queryKey: queryKeys.options('permission', { grouped: true }),
    queryFn: ({ signal }) => api.get<{ data: unknown }>('/permission-groups', { signal }).then((answer) => toGroups(answer.data)),
  }, queryClient);
  const groups: PermissionGroup[] | null = useMemo(() => loaded ?? (isError ? [] : null), [loaded, isError]);
  const [filter, setFilter] = useState('');

  const visible = useMemo(() => {
    const term = filter.trim().toLowerCase();
    return (groups ?? []).filter((group) => !term || group.screen.toLowerCase().includes(term)
      || group.permissions.some((p) => p.name.includes(term) || p.description.toLowerCase().includes(term)));
  }, [groups, filter]);
  const total = groups?.reduce((sum, group) => sum + group.permissions.length, 0) ?? 0;

  const toggle = (ids: number[], isOn: boolean) => {
    const next = new Set(selected);
    for (const id of ids) if (isOn) next.add(id); else next.delete(id);
    form.setValue('permission_ids', [...next].map(String));
  };
  const errors = form.errors.permission_ids ?? Object.entries(form.errors).find(([key]) => key.startsWith('permission_ids.'))?.[1];

  return (
      <fieldset>
        <legend className="text-sm font-medium text-slate-700 dark:text-slate-200">Permissions</legend>
        <div className="mt-2 flex flex-wrap items-center justify-between gap-2">
          <p className="text-sm text-slate-500 dark:text-slate-400" aria-live="polite">{selected.size} of {total} selected</p>
          <div className="relative w-full sm:w-64">
            <Icon name="search" className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-slate-400" />
            <input type="search" value={filter} onChange={(event) => setFilter(event.target.value)} aria-label="Filter permissions"
              placeholder="Filter screens…" className={cx(inputClass, 'pl-9')} />
          </div>
        </div>
        {!isAdmin(mine) && <p className="mt-2 text-sm text-slate-500 dark:text-slate-400">You can only give a role permissions you hold yourself.</p>}
        {!groups && <div className="mt-3 grid gap-3 sm:grid-cols-2">{Array.from({ length: 4 }, (_, i) => <Skeleton key={i} className="h-24" />)}</div>}
        {groups && (
          <div className="mt-3 grid gap-3 lg:grid-cols-2">
            {visible.map((group) => {
              const ids = group.permissions.map((p) => p.id);
              const tickable = group.permissions.filter(mayTick).map((p) => p.id);
              const count = ids.filter((id) => selected.has(id)).length;
              return (
                <fieldset key={group.screen} className="rounded-lg border border-slate-200 p-3 dark:border-slate-800">
                  <legend className="sr-only">{group.screen}</legend>
                  <label className="flex items-center gap-2 border-b border-slate-100 pb-2 text-sm font-semibold text-slate-900 dark:border-slate-800 dark:text-white">
                    <input type="checkbox" className="size-4 accent-indigo-600 disabled:opacity-40" checked={count === ids.length}
                      ref={(element) => { if (element) element.indeterminate = count > 0 && count < ids.length; }} disabled={!tickable.length}
                      onChange={(event) => toggle(tickable, event.target.checked)} aria-label={`All ${group.screen} permissions`} />
                    <span aria-hidden="true">{group.screen}</span>
                    <span className="ml-auto text-xs font-normal text-slate-500 tabular-nums dark:text-slate-400">{count}/{ids.length}</span>
                  </label>
                  <ul className="mt-2 space-y-2">
                    {group.permissions.map((permission) => (
                      <li key={permission.id}>
                        <label title={permission.name} className="flex items-start gap-2 text-sm text-slate-700 dark:text-slate-300">
                          <input type="checkbox" className="mt-0.5 size-4 shrink-0 accent-indigo-600 disabled:opacity-40" checked={selected.has(permission.id)}
                            disabled={!mayTick(permission)} onChange={(event) => toggle([permission.id], event.target.checked)}
                            aria-label={permission.name} aria-describedby={`permission-${permission.id}-what`} />
                          <span>
                            <span className="font-medium text-slate-900 dark:text-slate-100">{verbOf(permission)}</span>
                            <span id={`permission-${permission.id}-what`} className="block text-xs text-slate-500 dark:text-slate-400">{permission.description}</span>
                          </span>
                        </label>
                      </li>
                    ))}
                  </ul>
                </fieldset>
              );
            })}
            {visible.length === 0 && <p className="text-sm text-slate-500 dark:text-slate-400">No permission matches “{filter}”.</p>}
          </div>
        )}
        {errors && <p className="mt-2 text-sm text-rose-600 dark:text-rose-400">{errors[0]}</p>}
      </fieldset>
  );
}

/** The permission ids a role has (its related options, or the ids of the row). */
function relatedIds(row: ResourceFormProps['row']): number[] {
  const related = relatedOptions(role.fields.permission_ids, row);
  return related.length ? related.map((o) => Number(o.id)) : Array.isArray(row?.permission_ids) ? (row.permission_ids as number[]) : [];
}
