// Settings (route setting.index, can-view-setting): the firm profile (firm-profile-setting.tsx, issue 22), the announcement banner of spec §1 — on/off, its message and
// who it is for (issue 20) — the expense receipt threshold (expense-setting.tsx), the firm's time zone
// (time-zone-setting.tsx) and its working week (working-week-setting.tsx). GET/PUT /setting/announcement; saving needs can-edit-setting, without it
// the form is read-only. The server broadcasts the change, so every open tab's marquee follows (spec §4).
import {
  announcementAudienceOptions, announcementFor, announcementSchema, type AnnouncementAudience, type AnnouncementSetting,
} from '../../../shared/schemas/setting';
import { api } from '../../lib/api';
import { useForm } from '../../lib/form';
import { notify } from '../../lib/toast';
import type { ScreenProps } from '../../routes';
import { setAnnouncement, useCan } from '../../stores/auth';
import { Button } from '../../ui/button';
import { Card, CardHeader, PageHeader } from '../../ui/card';
import { FormAlert } from '../../ui/field';
import { SelectField } from '../../ui/form-fields';
import { Icon } from '../../ui/icons';
import { Skeleton } from '../../ui/loading';
import { SwitchField } from '../../ui/switch-field';
import { TextAreaField } from '../../ui/textarea-field';
import type { AccountType } from '../../../shared/routes';
import { ExpenseSettingCard } from './expense-setting';
import { TimeZoneSettingCard } from './time-zone-setting';
import { WorkingWeekSettingCard } from './working-week-setting';
import { FirmProfileSettingCard } from './firm-profile-setting';
import { settingSaved, useSetting } from './setting-card';

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

/** What the switch's description says the banner does, for whom. */
const shownTo: Record<AnnouncementAudience, string> = {
  staff: 'On: the banner is shown to the firm\'s staff, not to partners.',
  partners: 'On: the banner is shown to partners in their portal, not to staff.',
  both: 'On: the banner is shown to staff and to partners.',
};

function AnnouncementForm({ account, initial, canEdit }: { account: AccountType; initial: AnnouncementSetting; canEdit: boolean }) {
  const form = useForm({
    initial: { status: initial.status, message: initial.message, audience: initial.audience } as { status: string; message: string; audience: string },
    schema: announcementSchema,
    onSubmit: async (values) => {
      const answer = await api.put<{ data: AnnouncementSetting; message: string }>('/setting/announcement', values, { account, form: true });
      settingSaved('/setting/announcement');
      // Our own marquee follows at once (blank when the announcement is not for staff); other tabs hear it from the broadcast.
      if (answer.data) {
        await setAnnouncement(account, announcementFor(answer.data, account));
        form.reset({ status: answer.data.status, message: answer.data.message, audience: answer.data.audience });
      }
      notify.success(answer.message);
    },
  });
  const isOn = form.values.status === 'on';
  const message = form.field('message');
  const audience = form.field('audience');

  return (
    <Card>
      <CardHeader id="announcement-setting" title="Announcement"
        description="A banner that scrolls across the top of every page, for staff, for partners in their portal, or for both." />
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
          description={isOn ? shownTo[form.values.audience as AnnouncementAudience] ?? shownTo.staff : 'Off: no banner is shown.'}
          checked={isOn}
          onChange={(checked) => form.setValue('status', checked ? 'on' : 'off')}
          disabled={!canEdit}
        />
        <SelectField
          label="Who sees it"
          options={announcementAudienceOptions}
          required
          disabled={!canEdit}
          hint="Partners see only announcements meant for them."
          {...audience}
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
  const canEdit = useCan(account)('can-edit-setting');
  const { setting: announcement, hasFailed } = useSetting<AnnouncementSetting>(account, '/setting/announcement');

  return (
    <>
      <PageHeader title="Setting" description="Application-wide settings." />
      <div className="max-w-3xl space-y-6">
        <FirmProfileSettingCard account={account} canEdit={canEdit} />
        {announcement
          ? <AnnouncementForm account={account} initial={announcement} canEdit={canEdit} />
          : hasFailed
            ? <Card><p className="px-5 py-8 text-center text-sm text-slate-500 dark:text-slate-400">The settings could not be loaded.</p></Card>
            : <FormSkeleton />}
        <ExpenseSettingCard account={account} canEdit={canEdit} />
        <TimeZoneSettingCard account={account} canEdit={canEdit} />
        <WorkingWeekSettingCard account={account} canEdit={canEdit} />
      </div>
    </>
  );
}
