// The role form: a name and permissions ticked by area (GET /api/permission-groups). It replaces the
// generic form for the role definition only; saving goes through the same calls and 422 handling.
import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { useSnapshot } from 'valtio';
import { isAdmin } from '../../../shared/permissions';
import { groupPermissionsByArea, type PermissionGroup } from '../../../shared/resources/role';
import { api, isApiError, type FieldErrors } from '../../lib/api';
import { auth } from '../../stores/auth';
import { humanize } from '../../lib/format';
import { Button } from '../../ui/button';
import { cx } from '../../ui/cx';
import { FormAlert, inputClass, TextField } from '../../ui/field';
import { Icon } from '../../ui/icons';
import { Skeleton } from '../../ui/loading';
import { saveRecord } from '../../ui/resources/resource-api';
import { FormFooter, schemaErrors, type ResourceFormProps } from '../../ui/resources/resource-form';
import { relatedOptions } from '../../ui/resources/resource-values';

type PermissionItem = { id: number; name: string };

/** View, add, edit, delete: the order people read them in. */
const inVerbOrder = (groups: PermissionGroup[]) =>
  groups.map((group) => ({ ...group, permissions: [...group.permissions].sort((a, b) => verbRank(a.name) - verbRank(b.name) || a.name.localeCompare(b.name)) }));

/** The groups endpoint may answer grouped ({area, permissions}) or flat ({id, name}); both are accepted. */
export function toGroups(data: unknown): PermissionGroup[] {
  const list = Array.isArray(data) ? data : [];
  if (list.every((item) => item && typeof item === 'object' && 'permissions' in item)) {
    return inVerbOrder(groupPermissionsByArea((list as PermissionGroup[]).flatMap((group) => group.permissions)));
  }
  return inVerbOrder(groupPermissionsByArea(list as PermissionItem[]));
}

const VERB_ORDER = ['view', 'add', 'create', 'edit', 'delete', 'assign'];
const verbRank = (name: string) => {
  const rank = VERB_ORDER.indexOf(name.replace(/^can-/, '').split('-')[0]);
  return rank === -1 ? VERB_ORDER.length : rank;
};

/** can-view-country -> View */
const verbOf = (name: string) => humanize(name.replace(/^can-/, '').split('-')[0] ?? name);

export function RoleForm({ definition, row, onSaved, onCancel, isDialog }: ResourceFormProps) {
  const [name, setName] = useState(String(row?.name ?? ''));
  const [selected, setSelected] = useState<Set<number>>(() => {
    const related = relatedOptions(definition.fields.permission_ids, row);
    const ids = related.length ? related.map((o) => Number(o.id)) : Array.isArray(row?.permission_ids) ? (row!.permission_ids as number[]) : [];
    return new Set(ids);
  });
  // Issue 20: a non-admin ticks only permissions they hold (the role's own ones may stay); the server refuses the rest.
  const mine = useSnapshot(auth.app).permissions;
  const [had] = useState(() => new Set(selected));
  const mayTick = (permission: PermissionItem) => isAdmin(mine) || mine.permissions.includes(permission.name) || had.has(permission.id);
  const [groups, setGroups] = useState<PermissionGroup[] | null>(null);
  const [filter, setFilter] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [isSubmitting, setSubmitting] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  const focusName = () => formRef.current?.querySelector<HTMLInputElement>('[data-field="name"]')?.focus();

  useEffect(() => {
    let active = true;
    api.get<{ data: unknown }>('/permission-groups')
      .then((answer) => { if (active) setGroups(toGroups(answer.data)); })
      .catch(() => { if (active) setGroups([]); });
    return () => { active = false; };
  }, []);

  const visible = useMemo(() => {
    const term = filter.trim().toLowerCase();
    return (groups ?? []).filter((group) => !term || group.area.includes(term) || group.permissions.some((p) => p.name.includes(term)));
  }, [groups, filter]);
  const total = groups?.reduce((sum, group) => sum + group.permissions.length, 0) ?? 0;

  const toggle = (ids: number[], isOn: boolean) => setSelected((current) => {
    const next = new Set(current);
    for (const id of ids) if (isOn) next.add(id); else next.delete(id);
    return next;
  });

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const payload = { name: name.trim(), permission_ids: [...selected].sort((a, b) => a - b) };
    const parsed = definition.schema.safeParse(payload);
    const found = parsed.success ? {} : schemaErrors(parsed.error);
    if (!parsed.success) { setErrors(found); if (found.name) focusName(); return; }
    setErrors({});
    setFormError(null);
    setSubmitting(true);
    try {
      onSaved((await saveRecord(definition, payload, row?.id)).data);
    } catch (error) {
      if (isApiError(error) && error.status === 422) {
        setErrors(error.errors);
        const other = Object.keys(error.errors).find((key) => key !== 'name');
        setFormError(other ? error.errors[other][0] : null);
        if (error.errors.name) focusName();
      }
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <form ref={formRef} noValidate onSubmit={onSubmit} aria-label={row ? 'Edit role' : 'Create role'} className={cx(isDialog && 'flex min-h-full flex-col')}>
      <div className="space-y-5 px-5 py-5">
        <FormAlert message={formError} />
        <div className="sm:max-w-sm">
          <TextField name="name" data-field="name" label="Name" required value={name} errors={errors.name}
            onChange={(event) => { setName(event.target.value); setErrors(({ name: _n, ...rest }) => rest); }} />
        </div>
        <fieldset>
          <legend className="text-sm font-medium text-slate-700 dark:text-slate-200">Permissions</legend>
          <div className="mt-2 flex flex-wrap items-center justify-between gap-2">
            <p className="text-sm text-slate-500 dark:text-slate-400" aria-live="polite">{selected.size} of {total} selected</p>
            <div className="relative w-full sm:w-64">
              <Icon name="search" className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-slate-400" />
              <input type="search" value={filter} onChange={(event) => setFilter(event.target.value)} aria-label="Filter permissions"
                placeholder="Filter areas…" className={cx(inputClass, 'pl-9')} />
            </div>
          </div>
          {!isAdmin(mine) && <p className="mt-2 text-sm text-slate-500 dark:text-slate-400">You can only give a role permissions you hold yourself.</p>}
          {!groups && <div className="mt-3 grid gap-3 sm:grid-cols-2">{Array.from({ length: 4 }, (_, i) => <Skeleton key={i} className="h-24" />)}</div>}
          {groups && (
            <div className="mt-3 grid gap-3 sm:grid-cols-2">
              {visible.map((group) => {
                const ids = group.permissions.map((p) => p.id);
                const tickable = group.permissions.filter(mayTick).map((p) => p.id);
                const count = ids.filter((id) => selected.has(id)).length;
                return (
                  <fieldset key={group.area} className="rounded-lg border border-slate-200 p-3 dark:border-slate-800">
                    <legend className="sr-only">{humanize(group.area)}</legend>
                    <label className="flex items-center gap-2 border-b border-slate-100 pb-2 text-sm font-semibold text-slate-900 dark:border-slate-800 dark:text-white">
                      <input type="checkbox" className="size-4 accent-indigo-600 disabled:opacity-40" checked={count === ids.length}
                        ref={(element) => { if (element) element.indeterminate = count > 0 && count < ids.length; }} disabled={!tickable.length}
                        onChange={(event) => toggle(tickable, event.target.checked)} aria-label={`All ${humanize(group.area)} permissions`} />
                      <span aria-hidden="true">{humanize(group.area)}</span>
                      <span className="ml-auto text-xs font-normal text-slate-500 tabular-nums dark:text-slate-400">{count}/{ids.length}</span>
                    </label>
                    <div className="mt-2 flex flex-wrap gap-x-4 gap-y-1.5">
                      {group.permissions.map((permission) => (
                        <label key={permission.id} title={permission.name} className="inline-flex items-center gap-2 text-sm text-slate-700 dark:text-slate-300">
                          <input type="checkbox" className="size-4 accent-indigo-600 disabled:opacity-40" checked={selected.has(permission.id)}
                            disabled={!mayTick(permission)} onChange={(event) => toggle([permission.id], event.target.checked)} aria-label={permission.name} />
                          <span aria-hidden="true">{verbOf(permission.name)}</span>
                        </label>
                      ))}
                    </div>
                  </fieldset>
                );
              })}
              {visible.length === 0 && <p className="text-sm text-slate-500 dark:text-slate-400">No permission matches “{filter}”.</p>}
            </div>
          )}
          {errors.permission_ids && <p className="mt-2 text-sm text-rose-600 dark:text-rose-400">{errors.permission_ids[0]}</p>}
        </fieldset>
      </div>
      <FormFooter isDialog={isDialog}>
        <Button variant="secondary" onClick={onCancel} disabled={isSubmitting}>Cancel</Button>
        <Button type="submit" isLoading={isSubmitting}>{row ? 'Save changes' : 'Create role'}</Button>
      </FormFooter>
    </form>
  );
}
