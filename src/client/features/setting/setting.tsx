// Settings (route setting.index, can-view-setting): the announcement banner of spec §1 — on/off and
// its message — the expense receipt threshold (expense-setting.tsx) and the firm's time zone
// (time-zone-setting.tsx). GET/PUT /setting/announcement; saving needs can-edit-setting, without it
// the form is read-only. The server broadcasts the change, so every open tab's marquee follows (spec §4).
import { useEffect, useState } from 'react';
import { useSnapshot } from 'valtio';
import { hasPermission } from '../../../shared/permissions';
import type { Announcement } from '../../../shared/schemas/auth';
import { announcementSchema } from '../../../shared/schemas/setting';
import { api } from '../../lib/api';
import { useForm } from '../../lib/form';
import { notify } from '../../lib/toast';
import type { ScreenProps } from '../../routes';
import { auth, setAnnouncement } from '../../stores/auth';
import { Button } from '../../ui/button';
import { Card, CardHeader, PageHeader } from '../../ui/card';
import { FormAlert } from '../../ui/field';
import { Icon } from '../../ui/icons';
import { Skeleton } from '../../ui/loading';
import { SwitchField } from '../../ui/switch-field';
import { TextAreaField } from '../../ui/textarea-field';
import type { AccountType } from '../../../shared/routes';
import { ExpenseSettingCard } from './expense-setting';
import { TimeZoneSettingCard } from './time-zone-setting';

export const ANNOUNCEMENT_MAX_LENGTH = 500;

function AnnouncementPreview({ message }: { message: string }) {
  return (
    <div>
      <p className="mb-1.5 text-sm font-medium text-slate-700 dark:text-slate-200">Preview</p>
      <div className="flex items-start gap-3 rounded-lg border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:border-amber-500/20 dark:bg-amber-500/10 dark:text-amber-200">
        <Icon name="megaphone" className="mt-0.5 size-4 shrink-0" />
        <span className="min-w-0 break-words">{message}</span>
      </div>
    </div>
  );
}

function AnnouncementForm({ account, initial, canEdit }: { account: AccountType; initial: Announcement; canEdit: boolean }) {
  const form = useForm({
    initial: { status: initial.status, message: initial.message } as { status: string; message: string },
    schema: announcementSchema,
    onSubmit: async (values) => {
      const answer = await api.put<{ data: Announcement; message: string }>('/setting/announcement', values, { account, form: true });
      // Our own marquee follows at once; other tabs hear it from the broadcast.
      if (answer.data) {
        await setAnnouncement(account, answer.data);
        form.reset({ status: answer.data.status, message: answer.data.message });
      }
      notify.success(answer.message);
    },
  });
  const isOn = form.values.status === 'on';
  const message = form.field('message');

  return (
    <Card>
      <CardHeader id="announcement-setting" title="Announcement"
        description="A banner that scrolls across the top of every page for everyone signed in." />
      <form noValidate onSubmit={form.handleSubmit} aria-labelledby="announcement-setting" className="space-y-5 px-5 py-5">
        <FormAlert message={form.formError} />
        {!canEdit && (
          <p className="flex items-start gap-2 rounded-lg bg-slate-50 px-3 py-2.5 text-sm text-slate-600 ring-1 ring-inset ring-slate-200 dark:bg-slate-800/60 dark:text-slate-300 dark:ring-slate-700">
            <Icon name="eye" className="mt-0.5 size-4 shrink-0" />
            <span>You can view this setting but not change it.</span>
          </p>
        )}
        <SwitchField
          name="status"
          label="Show the announcement"
          description={isOn ? 'On: the banner is shown to everyone.' : 'Off: no banner is shown.'}
          checked={isOn}
          onChange={(checked) => form.setValue('status', checked ? 'on' : 'off')}
          disabled={!canEdit}
        />
        <TextAreaField
          label="Message"
          rows={4}
          maxLength={ANNOUNCEMENT_MAX_LENGTH}
          showCount
          required={isOn}
          readOnly={!canEdit}
          placeholder="e.g. The office is closed on Friday for the public holiday."
          {...message}
        />
        {form.values.message.trim() && <AnnouncementPreview message={form.values.message.trim()} />}
        {canEdit && (
          <div className="flex justify-end border-t border-slate-200 pt-5 dark:border-slate-800">
            <Button type="submit" isLoading={form.isSubmitting} aria-label="Save the announcement">Save</Button>
          </div>
        )}
      </form>
    </Card>
  );
}

function FormSkeleton() {
  return (
    <Card>
      <div role="status" aria-label="Loading" className="space-y-5 px-5 py-5">
        <Skeleton className="h-4 w-40" />
        <div className="flex items-center justify-between gap-4">
          <Skeleton className="h-4 w-56" />
          <Skeleton className="h-6 w-11 rounded-full" />
        </div>
        <Skeleton className="h-28 w-full" />
      </div>
    </Card>
  );
}

export default function Setting({ account }: ScreenProps) {
  const { permissions } = useSnapshot(auth[account]);
  const canEdit = hasPermission(permissions.permissions, 'can-edit-setting');
  const [announcement, setLoaded] = useState<Announcement | null>(null);
  const [hasFailed, setFailed] = useState(false);

  useEffect(() => {
    let active = true;
    api.get<{ data: Announcement }>('/setting/announcement', { account })
      .then((answer) => { if (active) setLoaded(answer.data); })
      .catch(() => { if (active) setFailed(true); }); // the wrapper has shown the message
    return () => { active = false; };
  }, [account]);

  return (
    <>
      <PageHeader title="Setting" description="Application-wide settings." />
      <div className="max-w-3xl space-y-6">
        {announcement
          ? <AnnouncementForm account={account} initial={announcement} canEdit={canEdit} />
          : hasFailed
            ? <Card><p className="px-5 py-8 text-center text-sm text-slate-500 dark:text-slate-400">The settings could not be loaded.</p></Card>
            : <FormSkeleton />}
        <ExpenseSettingCard account={account} canEdit={canEdit} />
        <TimeZoneSettingCard account={account} canEdit={canEdit} />
      </div>
    </>
  );
}
