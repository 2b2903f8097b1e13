// The firm's time zone on the settings screen (issue 21): the zone of every "today" the server
// keeps (expiry, due dates, overdue, reminders, the daily jobs' hours). GET / PUT /setting/time-zone;
// saving needs can-edit-setting, without it the choice is read-only.
import { useState } from 'react';
import { timeZoneSettingSchema, type TimeZoneSetting } from '../../../shared/schemas/setting';
import type { AccountType } from '../../../shared/routes';
import { api } from '../../lib/api';
import { useForm } from '../../lib/form';
import { notify } from '../../lib/toast';
import { FormAlert } from '../../ui/field';
import { SelectField } from '../../ui/form-fields';
import { SaveRow, SettingCard, settingSaved } from './setting-card';

/** Every IANA zone the browser knows, with the saved one and UTC even where the list leaves them out. */
function zoneOptions(current: string) {
  const known = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return [...new Set([...known, 'UTC', current])].sort().map((zone) => ({ value: zone, label: zone.replaceAll('_', ' ') }));
}

function TimeZoneForm({ account, initial, canEdit }: { account: AccountType; initial: TimeZoneSetting; canEdit: boolean }) {
  const [setting, setSetting] = useState(initial);
  const form = useForm({
    initial: { time_zone: initial.time_zone },
    schema: timeZoneSettingSchema,
    onSubmit: async (values) => {
      const answer = await api.put<{ data: TimeZoneSetting; message: string }>('/setting/time-zone', values, { account, form: true });
      settingSaved('/setting/time-zone');
      setSetting(answer.data);
      form.reset({ time_zone: answer.data.time_zone });
      notify.success(answer.message);
    },
  });
  return (
    <form noValidate onSubmit={form.handleSubmit} aria-labelledby="time-zone-setting" className="space-y-5 px-5 py-5">
      <FormAlert message={form.formError} />
      <SelectField label="Time zone" required disabled={!canEdit} options={zoneOptions(setting.time_zone)} className="max-w-sm"
        hint={`Today is ${setting.today} there. With no zone saved, the firm uses ${setting.default_time_zone}, the zone the server was started with.`}
        {...form.field('time_zone')} />
      {canEdit && <SaveRow isSubmitting={form.isSubmitting} label="Save the time zone" />}
    </form>
  );
}

export function TimeZoneSettingCard({ account, canEdit }: { account: AccountType; canEdit: boolean }) {
  return (
    <SettingCard<TimeZoneSetting> account={account} path="/setting/time-zone" id="time-zone-setting" title="Time zone"
      description="The firm's clock: contracts and documents expire, tasks fall due and reminders go out by the day in this zone." failure="The time zone could not be loaded.">
      {(setting) => <TimeZoneForm account={account} initial={setting} canEdit={canEdit} />}
    </SettingCard>
  );
}
