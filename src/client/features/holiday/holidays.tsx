// Holidays (route holiday.index, issue 22): pick a country, see a year's holidays with where each came
// from, load (or load again) the year's public holidays from the offline data set, add the firm's own
// day, remove a day the firm works and restore it. Loading, adding and removing need can-add-holiday /
// can-edit-holiday (admins); others with can-view-holiday only read. A person's leave does not count
// the holidays of their work location's country.
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useSnapshot } from 'valtio';
import { today, weekdayOf } from '../../../shared/dates';
import { hasPermission } from '../../../shared/permissions';
import {
  holiday, holidaySourceOptions, type HolidayCountryOption, type HolidayLoadResult, type HolidayRow, type HolidayYear,
} from '../../../shared/resources/holiday';
import { weekdayLabels, weekdays } from '../../../shared/working-week';
import { api, isApiError } from '../../lib/api';
import { useForm } from '../../lib/form';
import { invalidateAfterWrite, queryClient, queryKeys } from '../../lib/query';
import { notify } from '../../lib/toast';
import type { ScreenProps } from '../../routes';
import { auth } from '../../stores/auth';
import { Badge } from '../../ui/badge';
import { Button } from '../../ui/button';
import { Card, CardHeader, PageHeader } from '../../ui/card';
import { cx } from '../../ui/cx';
import { DateField } from '../../ui/date-input';
import { EmptyState } from '../../ui/empty-state';
import { FieldShell, FormAlert, inputClass, TextField } from '../../ui/field';
import { Skeleton } from '../../ui/loading';

const addDaySchema = holiday.schema.pick({ date: true, name: true });
const sourceLabel = (source: string) => holidaySourceOptions.find((option) => option.value === source)?.label ?? source;

/** The country select: the firm's countries first, then every country of the data set. */
function CountrySelect({ countries, value, onChange }: { countries: HolidayCountryOption[]; value: string; onChange: (code: string) => void }) {
  const id = `holiday-country-${useId()}`;
  const firm = countries.filter((country) => country.is_firm);
  const others = countries.filter((country) => !country.is_firm);
  return (
    <FieldShell id={id} label="Country">
      <select id={id} name="country_code" value={value} onChange={(event) => onChange(event.target.value)} className={cx(inputClass, 'pr-8')}>
        <option value="">Choose a country…</option>
        {firm.length > 0 && (
          <optgroup label="The firm's countries">
            {firm.map((country) => <option key={country.code} value={country.code}>{country.name}</option>)}
          </optgroup>
        )}
        <optgroup label={firm.length ? 'Other countries' : 'Countries'}>
          {others.map((country) => <option key={country.code} value={country.code}>{country.name}</option>)}
        </optgroup>
      </select>
    </FieldShell>
  );
}

function PlainSelect({ label, name, value, onChange, options, hint }: {
  label: string; name: string; value: string; onChange: (value: string) => void; options: { value: string; label: string }[]; hint?: string;
}) {
  const id = `holiday-${name}-${useId()}`;
  return (
    <FieldShell id={id} label={label} hint={hint}>
      <select id={id} name={name} value={value} onChange={(event) => onChange(event.target.value)} aria-describedby={hint ? `${id}-hint` : undefined}
        className={cx(inputClass, 'pr-8')}>
        {options.map((option) => <option key={option.value} value={option.value}>{option.label}</option>)}
      </select>
    </FieldShell>
  );
}

function AddDayForm({ countryId, year, onAdded }: { countryId: number; year: number; onAdded: () => void }) {
  const form = useForm({
    initial: { date: '', name: '' },
    schema: addDaySchema,
    onSubmit: async (values) => {
      const answer = await api.post<{ message: string }>('/holiday', { ...values, country_id: countryId }, { form: true });
      notify.success(answer.message);
      form.reset({ date: '', name: '' });
      onAdded();
    },
  });
  const date = form.field('date');
  return (
    <form noValidate onSubmit={form.handleSubmit} aria-labelledby="holiday-add" className="space-y-4 border-t border-slate-200 px-5 py-5 dark:border-slate-800">
      <div>
        <h3 id="holiday-add" className="text-sm font-semibold text-slate-900 dark:text-white">Add the firm's own day</h3>
        <p className="mt-1 text-sm text-slate-500 dark:text-slate-400">A day the office is closed that is not a public holiday, such as the day after the company party.</p>
      </div>
      <FormAlert message={form.formError} />
      <div className="grid gap-4 sm:grid-cols-[12rem_1fr_auto] sm:items-start">
        <DateField name="date" label="Date" required value={date.value} errors={date.errors} hint={`In ${year} or any other year.`}
          onChange={(value) => form.setValue('date', value)} />
        <TextField label="Name" required placeholder="Office closed" maxLength={255} {...form.field('name')} />
        <Button type="submit" variant="secondary" isLoading={form.isSubmitting} className="sm:mt-7">Add the day</Button>
      </div>
    </form>
  );
}

function HolidayList({ rows, canEdit, busyId, onToggle }: {
  rows: HolidayRow[]; canEdit: boolean; busyId: number | null; onToggle: (row: HolidayRow) => void;
}) {
  return (
    <ul className="divide-y divide-slate-100 dark:divide-slate-800" aria-label="Holidays of the year">
      {rows.map((row) => (
        <li key={row.id} className="flex items-center gap-4 px-5 py-3">
          <div className="min-w-0 flex-1 sm:flex sm:gap-4">
          {/* Phones: the date and its weekday on one line above the name; wider: a column of their own. */}
          <div className="flex items-baseline gap-2 sm:block sm:w-28 sm:shrink-0">
            <p className={cx('text-sm font-medium tabular-nums text-slate-900 dark:text-white', row.is_removed && 'text-slate-400 line-through dark:text-slate-500')}>{row.date}</p>
            <p className="text-xs text-slate-500 dark:text-slate-400">{weekdayLabels[weekdays[weekdayOf(row.date)]]}</p>
          </div>
          <div className="mt-0.5 min-w-0 flex-1 sm:mt-0">
            <p className={cx('text-sm text-slate-800 dark:text-slate-100', row.is_removed && 'text-slate-400 line-through dark:text-slate-500')}>{row.name}</p>
            <div className="mt-1 flex flex-wrap gap-1.5">
              <Badge tone={row.source === 'public' ? 'gray' : 'indigo'}>{sourceLabel(row.source)}</Badge>
              {row.is_removed && <Badge tone="amber">Removed: a working day</Badge>}
            </div>
          </div>
          </div>
          {canEdit && (
            <Button size="sm" variant={row.is_removed ? 'secondary' : 'ghost'} isLoading={busyId === row.id} onClick={() => onToggle(row)}
              aria-label={`${row.is_removed ? 'Restore' : 'Remove'} ${row.name} on ${row.date}`}>
              {row.is_removed ? 'Restore' : 'Remove'}
            </Button>
          )}
        </li>
      ))}
    </ul>
  );
}

type YearLoad = { status: 'idle' } | { status: 'loading' } | { status: 'ready'; year: HolidayYear } | { status: 'failed' };

export default function Holidays(_props: ScreenProps) {
  const { permissions } = useSnapshot(auth.app);
  const canAdd = hasPermission(permissions.permissions, holiday.permissions.add);
  const canEdit = hasPermission(permissions.permissions, holiday.permissions.edit);
  const canDelete = hasPermission(permissions.permissions, holiday.permissions.delete);
  const thisYear = Number(today().slice(0, 4));
  const countriesQuery = useQuery({
    queryKey: queryKeys.summary('holiday', 'countries'),
    queryFn: ({ signal }) => api.get<{ data: HolidayCountryOption[] }>('/holiday/countries', { signal }).then((answer) => answer.data),
  }, queryClient);
  const countries = countriesQuery.data ?? null;
  const hasCountriesFailed = countriesQuery.isError; // the wrapper has said why
  // The country picked here, else the firm's first; its region picked here, else the one it was loaded with.
  const [pickedCode, setPickedCode] = useState<string | null>(null);
  const code = pickedCode ?? countries?.find((option) => option.is_firm)?.code ?? '';
  const country = countries?.find((option) => option.code === code);
  const [pickedRegion, setPickedRegion] = useState<string | null>(null);
  const region = pickedRegion ?? country?.region ?? '';
  const setRegion = (next: string) => setPickedRegion(next);
  const [year, setYear] = useState(thisYear);
  const [isLoadingYear, setLoadingYear] = useState(false);
  const [busyId, setBusyId] = useState<number | null>(null);

  const yearQuery = useQuery({
    queryKey: queryKeys.summary('holiday', 'year', code, year),
    queryFn: ({ signal }) => api.get<{ data: HolidayYear }>('/holiday/year', { params: { country_code: code, year }, signal }).then((answer) => answer.data),
    enabled: !!code,
  }, queryClient);
  const load: YearLoad = !code ? { status: 'idle' } : yearQuery.data ? { status: 'ready', year: yearQuery.data }
    : yearQuery.isError ? { status: 'failed' } : { status: 'loading' };
  /** After a write: the countries (which are the firm's) and the year shown read again. */
  const refresh = () => invalidateAfterWrite('holiday');

  const onCountry = (next: string) => {
    setPickedCode(next);
    setPickedRegion(null);
  };

  const loadPublicHolidays = async () => {
    setLoadingYear(true);
    try {
      const answer = await api.post<{ data: HolidayLoadResult[]; message: string }>('/holiday/load', { country_code: code, year, region: region || null });
      notify.success(answer.message);
      setPickedCode(code);
      refresh();
    } catch (error) {
      if (!isApiError(error)) throw error; // the wrapper has shown the message
    } finally {
      setLoadingYear(false);
    }
  };

  const [isForgetting, setForgetting] = useState(false);
  const forgetCountry = async (countryId: number) => {
    setForgetting(true);
    try {
      const answer = await api.delete<{ message: string }>(`/holiday/countries/${countryId}`);
      notify.success(answer.message);
      refresh();
    } catch (error) {
      if (!isApiError(error)) throw error; // the wrapper has shown the message
    } finally {
      setForgetting(false);
    }
  };

  const toggle = async (row: HolidayRow) => {
    setBusyId(row.id);
    try {
      const answer = await api.post<{ message: string }>(`/holiday/${row.id}/${row.is_removed ? 'restore' : 'remove'}`, {});
      notify.success(answer.message);
      refresh();
    } catch (error) {
      if (!isApiError(error)) throw error;
    } finally {
      setBusyId(null);
    }
  };

  const years = [thisYear - 1, thisYear, thisYear + 1, thisYear + 2].map((value) => ({ value: String(value), label: String(value) }));
  const rows = load.status === 'ready' ? load.year.holidays : [];
  const active = rows.filter((row) => !row.is_removed).length;

  return (
    <>
      <PageHeader title="Holidays"
        description="Public holidays and the firm's own closing days, per country. Leave does not count them for people who work there." />
      <div className="max-w-4xl space-y-6">
        <Card>
          <div className="grid gap-4 px-5 py-5 sm:grid-cols-2 lg:grid-cols-[1fr_8rem_1fr]">
            {countries
              ? <CountrySelect countries={countries} value={code} onChange={onCountry} />
              : hasCountriesFailed
                ? <p className="text-sm text-slate-500 dark:text-slate-400">The countries could not be loaded.</p>
                : <div role="status" aria-label="Loading" className="space-y-2"><Skeleton className="h-4 w-20" /><Skeleton className="h-9 w-full" /></div>}
            <PlainSelect label="Year" name="year" value={String(year)} onChange={(value) => setYear(Number(value))} options={years} />
            {country && country.regions.length > 0 && (
              <PlainSelect label="Region" name="region" value={region} onChange={setRegion}
                options={[{ value: '', label: 'The whole country' }, ...country.regions.map((option) => ({ value: option.code, label: option.name }))]}
                hint="Some holidays apply only in one region." />
            )}
          </div>
          {canAdd && country && (
            <div className="flex flex-wrap items-center justify-between gap-3 border-t border-slate-200 px-5 py-4 dark:border-slate-800">
              <p className="max-w-xl text-sm text-slate-500 dark:text-slate-400">
                {country.has_data
                  ? country.is_firm
                    ? `Loading ${year} again adds what is new and keeps the days you removed removed. Next year's public holidays load by themselves each December.`
                    : `Loading makes ${country.name} one of the firm's countries: its public holidays for ${year} are added now, and next year's each December.`
                  : 'The public holidays data set has no holidays for this country: add the firm\'s days below.'}
              </p>
              <div className="flex flex-wrap gap-2">
                {canDelete && country.is_firm && country.country_id && (
                  <Button variant="ghost" isLoading={isForgetting} onClick={() => { void forgetCountry(country.country_id!); }}
                    aria-label={`Stop loading the public holidays of ${country.name} each year`}>
                    Not the firm's country
                  </Button>
                )}
                {country.has_data && (
                  <Button onClick={() => { void loadPublicHolidays(); }} isLoading={isLoadingYear}>
                    {`Load public holidays for ${year}`}
                  </Button>
                )}
              </div>
            </div>
          )}
        </Card>

        {code && (
          <Card>
            <CardHeader id="holiday-year" title={country ? `${country.name}, ${year}` : String(year)}
              description={load.status === 'ready' && rows.length
                ? `${active} ${active === 1 ? 'holiday' : 'holidays'}${rows.length > active ? `, ${rows.length - active} removed` : ''}. A removed day is a working day.`
                : undefined} />
            {load.status === 'loading' || load.status === 'idle'
              ? <div role="status" aria-label="Loading" className="space-y-3 px-5 py-5">{[0, 1, 2].map((i) => <Skeleton key={i} className="h-10 w-full" />)}</div>
              : load.status === 'failed'
                ? <p className="px-5 py-8 text-center text-sm text-slate-500 dark:text-slate-400">The holidays could not be loaded.</p>
                : rows.length
                  ? <HolidayList rows={rows} canEdit={canEdit} busyId={busyId} onToggle={(row) => { void toggle(row); }} />
                  : <EmptyState icon="calendar" title={`No holidays for ${year} yet`}
                      description={canAdd
                        ? (country?.has_data ? 'Load the public holidays for this year, or add the firm\'s own days.' : 'Add the firm\'s own days below.')
                        : 'An administrator loads the public holidays of the firm\'s countries.'} />}
            {canAdd && load.status === 'ready' && load.year.country && (
              <AddDayForm countryId={load.year.country.id} year={year} onAdded={refresh} />
            )}
          </Card>
        )}

        {!code && countries && (
          <Card>
            <EmptyState icon="globe" title="Choose a country"
              description={canAdd
                ? 'Choose the firm\'s country above and load its public holidays. Leave then skips them for the people who work there.'
                : 'Choose a country above to see its holidays.'} />
          </Card>
        )}
      </div>
    </>
  );
}
