// The firm's working week on the settings screen (issue 22): which weekdays are working days. A leave
// counts only working days, and the leave calendar greys the others. GET / PUT /setting/working-week;
// saving needs can-edit-setting, without it the days are read-only.
import { useForm } from 'react-hook-form';
import type { AccountType } from '../../../shared/routes';
import {
  describeWorkingWeek, weekdayLabels, weekdays, type Weekday, type WorkingWeekSetting, workingWeekSettingSchema,
} from '../../../shared/working-week';
import { api } from '../../lib/api';
import { formMessage, formResolver, messagesAt, submitForm } from '../../lib/form';
import { notify } from '../../lib/toast';
import { FormAlert } from '../../ui/field';
import { SaveRow, SettingCard, settingSaved } from './setting-card';

/** On the form engine (decision 013): the shared schema as the resolver, submitForm, a 422 under the days. */
function WorkingWeekForm({ account, initial, canEdit }: { account: AccountType; initial: WorkingWeekSetting; canEdit: boolean }) {
  const form = useForm<WorkingWeekSetting>({ defaultValues: { working_week: initial.working_week }, resolver: formResolver(workingWeekSettingSchema) });
  const days = form.watch('working_week');
  const error = messagesAt(form.formState.errors, 'working_week')?.[0] ?? null;
  const toggle = (day: Weekday, isOn: boolean) => {
    form.setValue('working_week', isOn ? [...days, day] : days.filter((d) => d !== day), { shouldDirty: true });
    form.clearErrors('working_week');
  };
  const onSubmit = form.handleSubmit((values) => submitForm(form,
    () => api.put<{ data: WorkingWeekSetting; message: string }>('/setting/working-week', values, { account, form: true }),
    {
      onSaved: (answer) => {
        settingSaved('/setting/working-week');
        form.reset({ working_week: answer.data.working_week });
        notify.success(answer.message);
      },
    }));
  const inOrder = weekdays.filter((day) => days.includes(day));
  return (
    <form noValidate onSubmit={(event) => void onSubmit(event)} aria-labelledby="working-week-setting" className="space-y-5 px-5 py-5">
      <FormAlert message={formMessage(form)} />
      <fieldset aria-describedby="working-week-hint working-week-error">
        <legend className="mb-2 text-sm font-medium text-slate-700 dark:text-slate-200">Working days</legend>
        <div className="flex flex-wrap gap-2">
          {weekdays.map((day) => {
            const isOn = days.includes(day);
            return (
              <label key={day} className={`inline-flex cursor-pointer items-center gap-2 rounded-lg px-3 py-2 text-sm ring-1 ring-inset has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-indigo-500 ${isOn
                ? 'bg-indigo-50 font-medium text-indigo-800 ring-indigo-200 dark:bg-indigo-500/10 dark:text-indigo-200 dark:ring-indigo-500/30'
                : 'text-slate-600 ring-slate-200 dark:text-slate-300 dark:ring-slate-700'} ${canEdit ? '' : 'cursor-default opacity-80'}`}>
                <input type="checkbox" name="working_week" value={day} checked={isOn} disabled={!canEdit}
                  onChange={(event) => toggle(day, event.target.checked)} className="size-4 rounded accent-indigo-600" />
                <span aria-hidden="true">{weekdayLabels[day].slice(0, 3)}</span><span className="sr-only">{weekdayLabels[day]}</span>
              </label>
            );
          })}
        </div>
        <p id="working-week-hint" className="mt-2 text-xs text-slate-500 dark:text-slate-400">
          {inOrder.length ? `The firm works ${describeWorkingWeek(inOrder)}. ` : ''}Leave counts only working days that are not public holidays.
        </p>
        <div id="working-week-error" aria-live="polite">{error && <p className="mt-1.5 text-sm text-rose-600 dark:text-rose-400">{error}</p>}</div>
      </fieldset>
      {canEdit && <SaveRow isSubmitting={form.formState.isSubmitting} label="Save the working week" />}
    </form>
  );
}

export function WorkingWeekSettingCard({ account, canEdit }: { account: AccountType; canEdit: boolean }) {
  return (
    <SettingCard<WorkingWeekSetting> account={account} path="/setting/working-week" id="working-week-setting" title="Working week"
      description="The days people work. Leave, its balance and the leave calendar count these days only." failure="The working week could not be loaded.">
      {(setting) => <WorkingWeekForm account={account} initial={setting} canEdit={canEdit} />}
    </SettingCard>
  );
}
