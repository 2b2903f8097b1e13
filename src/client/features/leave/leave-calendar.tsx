// The team calendar (route leave-application.calendar, can-view-leave-application): who is away on
// each day of a month, from GET /api/leave-application/calendar (the server decides whose leave the
// caller sees). A WAI-ARIA grid: one day is in the tab order, arrows move by day and week, Home /
// End to the week's ends, Page Up / Page Down by month; the chosen day's people are listed below.
// At phone width the cells show how many are away and the list below names them.
import { useEffect, useRef, useState, type KeyboardEvent, type Ref } from 'react';
import { useQuery } from '@tanstack/react-query';
import { queryClient, queryKeys } from '../../lib/query';
import { Link, useLocation, useSearch } from 'wouter';
import { workflowState } from '../../../shared/resources/define';
import {
  type AwayPart, type CalendarDay, dayNumber, dayString, type LeaveCalendar, leaveWorkflow, shiftMonth,
} from '../../../shared/resources/leave-application';
import { routePath } from '../../../shared/routes';
import { api, isApiError } from '../../lib/api';
import type { ScreenProps } from '../../routes';
import { Badge } from '../../ui/badge';
import { Button, focusRing } from '../../ui/button';
import { Card, PageHeader } from '../../ui/card';
import { cx } from '../../ui/cx';
import { EmptyState } from '../../ui/empty-state';
import { Icon } from '../../ui/icons';
import { Skeleton } from '../../ui/loading';
import { BackLink } from '../../ui/resources/resource-detail';
import { today, weekdayOf } from '../../../shared/dates';

const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];
const WEEKDAY_NAMES = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
const MONTH_NAMES = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
/** Names a cell shows before "+N more" (wider screens). */
const NAMES_PER_CELL = 3;

const isMonth = (value: string | null): value is string => !!value && /^\d{4}-(0[1-9]|1[0-2])$/.test(value);
/** Monday 0 .. Sunday 6. */
const weekdayIndex = weekdayOf;
const monthTitle = (month: string) => `${MONTH_NAMES[Number(month.slice(5, 7)) - 1]} ${month.slice(0, 4)}`;
const dayTitle = (date: string) => `${WEEKDAY_NAMES[weekdayIndex(date)]} ${date}`;
const partText: Record<AwayPart, string> = { day: 'All day', morning: 'Morning', afternoon: 'Afternoon' };
const stateOf = (status: string) => workflowState(leaveWorkflow, status);

const chipTone: Record<string, string> = {
  green: 'bg-emerald-50 text-emerald-800 ring-emerald-600/20 dark:bg-emerald-500/10 dark:text-emerald-200 dark:ring-emerald-400/30',
  yellow: 'bg-yellow-50 text-yellow-900 ring-yellow-600/30 dark:bg-yellow-500/10 dark:text-yellow-200 dark:ring-yellow-400/30',
  gray: 'bg-slate-100 text-slate-700 ring-slate-500/20 dark:bg-slate-800 dark:text-slate-300 dark:ring-slate-400/20',
  red: 'bg-rose-50 text-rose-800 ring-rose-600/20 dark:bg-rose-500/10 dark:text-rose-200 dark:ring-rose-400/30',
};

type Load = { status: 'loading' } | { status: 'ready'; calendar: LeaveCalendar } | { status: 'failed'; message: string };

/** A summary of the leave applications: a leave submitted or decided (here or live) reads the month again. */
function useCalendar(month: string): Load {
  const { data, error } = useQuery({
    queryKey: queryKeys.summary('leave-application', 'calendar', month),
    queryFn: ({ signal }): Promise<LeaveCalendar> =>
      api.get<{ data: LeaveCalendar }>('/leave-application/calendar', { params: { month }, silent: true, signal }).then((answer) => answer.data),
  }, queryClient);
  if (data) return { status: 'ready', calendar: data };
  if (error) return { status: 'failed', message: isApiError(error) ? error.message : 'The calendar could not be loaded.' };
  return { status: 'loading' };
}

export default function LeaveCalendarScreen(_props: ScreenProps) {
  const search = useSearch();
  const [pathname, navigate] = useLocation();
  const requested = new URLSearchParams(search).get('month');
  const month = isMonth(requested) ? requested : today().slice(0, 7);
  const load = useCalendar(month);
  const [selected, setSelected] = useState(() => (today().startsWith(month) ? today() : `${month}-01`));
  /** Set when the keyboard moved to a date: focus follows once that date's cell is on screen. */
  const isFocusWanted = useRef(false);
  const gridRef = useRef<HTMLTableElement>(null);

  const goToMonth = (next: string, date?: string) => {
    navigate(`${pathname}?month=${next}`);
    setSelected(date ?? (today().startsWith(next) ? today() : `${next}-01`));
  };
  // The selected date always lies in the month shown (the url may change it: back button, a link).
  const selectedDate = selected.startsWith(month) ? selected : `${month}-01`;

  // The calendar on screen: never the previous month's while the new one loads.
  const calendar = load.status === 'ready' && load.calendar.month === month ? load.calendar : null;

  useEffect(() => {
    if (!isFocusWanted.current || !calendar) return;
    isFocusWanted.current = false;
    gridRef.current?.querySelector<HTMLElement>(`[data-date="${selectedDate}"]`)?.focus();
  }, [selectedDate, calendar]);

  const moveTo = (date: string) => {
    isFocusWanted.current = true;
    if (date.slice(0, 7) !== month) goToMonth(date.slice(0, 7), date);
    else setSelected(date);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    const day = dayNumber(selectedDate);
    const weekday = weekdayIndex(selectedDate);
    const byKey: Record<string, () => string> = {
      ArrowLeft: () => dayString(day - 1),
      ArrowRight: () => dayString(day + 1),
      ArrowUp: () => dayString(day - 7),
      ArrowDown: () => dayString(day + 7),
      Home: () => dayString(day - weekday),
      End: () => dayString(day + 6 - weekday),
      PageUp: () => sameDayIn(shiftMonth(month, -1), selectedDate),
      PageDown: () => sameDayIn(shiftMonth(month, 1), selectedDate),
    };
    const next = byKey[event.key];
    if (!next) return;
    event.preventDefault();
    moveTo(next());
  };

  const chosenDay = calendar?.days.find((d) => d.date === selectedDate) ?? null;

  return (
    <>
      <BackLink href={routePath('leave-application.index')}>Back to leave applications</BackLink>
      <PageHeader title="Team Calendar" description="Who in your team is away, day by day. Choose a day to see who and why." />
      <Card>
        <div className="flex flex-wrap items-center justify-between gap-3 border-b border-slate-200 px-4 py-3 sm:px-5 dark:border-slate-800">
          <h2 id="calendar-month" className="text-base font-semibold text-slate-900 dark:text-white" aria-live="polite">{monthTitle(month)}</h2>
          <div className="flex items-center gap-2">
            <Button variant="secondary" size="sm" onClick={() => goToMonth(shiftMonth(month, -1))} aria-label="Previous month">
              <Icon name="chevron-left" className="size-4" /><span className="hidden sm:inline">Previous</span>
            </Button>
            <Button variant="secondary" size="sm" onClick={() => goToMonth(today().slice(0, 7))} disabled={today().startsWith(month)}>Today</Button>
            <Button variant="secondary" size="sm" onClick={() => goToMonth(shiftMonth(month, 1))} aria-label="Next month">
              <span className="hidden sm:inline">Next</span><Icon name="chevron-right" className="size-4" />
            </Button>
          </div>
        </div>
        {load.status === 'failed' && <EmptyState icon="alert" title={load.message} />}
        {load.status !== 'failed' && !calendar && (
          <div role="status" aria-label="Loading" className="grid grid-cols-7 gap-px p-4">
            {Array.from({ length: 35 }, (_, i) => <Skeleton key={i} className="h-12 sm:h-20" />)}
          </div>
        )}
        {calendar && (
          <MonthGrid ref={gridRef} calendar={calendar} selected={selectedDate} onSelect={(date) => setSelected(date)} onKeyDown={onKeyDown} />
        )}
        <Legend />
      </Card>
      {calendar && chosenDay && <DayDetails day={chosenDay} calendar={calendar} />}
    </>
  );
}

/** The same day of the month in another month, or its last day (31 March -> 30 April). */
function sameDayIn(month: string, date: string): string {
  const [year, monthNumber] = month.split('-').map(Number);
  const last = new Date(Date.UTC(year, monthNumber, 0)).getUTCDate();
  return `${month}-${String(Math.min(Number(date.slice(8, 10)), last)).padStart(2, '0')}`;
}

function MonthGrid({ calendar, selected, onSelect, onKeyDown, ref }: {
  calendar: LeaveCalendar; selected: string; onSelect: (date: string) => void; onKeyDown: (event: KeyboardEvent<HTMLElement>) => void; ref: Ref<HTMLTableElement>;
}) {
  const lead = weekdayIndex(calendar.days[0].date);
  const cells: (CalendarDay | null)[] = [...Array.from({ length: lead }, () => null), ...calendar.days];
  while (cells.length % 7) cells.push(null);
  const weeks = Array.from({ length: cells.length / 7 }, (_, i) => cells.slice(i * 7, i * 7 + 7));
  const now = today();
  return (
    <table ref={ref} role="grid" aria-labelledby="calendar-month" className="w-full table-fixed border-collapse text-sm" onKeyDown={onKeyDown}>
      <thead>
        <tr>
          {WEEKDAYS.map((name, i) => (
            <th key={name} scope="col" abbr={WEEKDAY_NAMES[i]} className="py-2 text-center text-xs font-medium text-slate-500 dark:text-slate-400">
              <span className="sm:hidden" aria-hidden="true">{name.slice(0, 1)}</span><span className="hidden sm:inline">{name}</span>
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {weeks.map((week, w) => (
          <tr key={w}>
            {week.map((day, d) => (day
              ? <DayCell key={day.date} day={day} isSelected={day.date === selected} isToday={day.date === now} onSelect={onSelect} />
              : <td key={`blank-${w}-${d}`} className="border-t border-slate-100 bg-slate-50/60 dark:border-slate-800 dark:bg-slate-950/30" />))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function DayCell({ day, isSelected, isToday, onSelect }: { day: CalendarDay; isSelected: boolean; isToday: boolean; onSelect: (date: string) => void }) {
  const count = day.away.length;
  const label = [
    dayTitle(day.date),
    day.holiday ? `holiday: ${day.holiday}` : null,
    count ? `${count} away: ${day.away.map((a) => `${a.name}${a.part === 'day' ? '' : ` (${partText[a.part].toLowerCase()})`}`).join(', ')}` : !day.is_working_weekday ? 'not a working day' : 'nobody away',
  ].filter(Boolean).join(', ');
  return (
    <td role="gridcell" aria-selected={isSelected} data-date={day.date} tabIndex={isSelected ? 0 : -1} aria-label={label}
      onClick={() => onSelect(day.date)}
      onKeyDown={(event) => { if (event.key === 'Enter' || event.key === ' ') { event.preventDefault(); onSelect(day.date); } }}
      className={cx(
        'h-14 cursor-pointer border-t border-slate-100 p-1 align-top sm:h-28 sm:p-1.5 dark:border-slate-800', focusRing, 'focus-visible:-outline-offset-2',
        !day.is_working_weekday && 'bg-slate-50/80 dark:bg-slate-950/40',
        day.holiday && 'bg-indigo-50/60 dark:bg-indigo-500/5',
        isSelected && 'bg-indigo-50 ring-2 ring-indigo-500 ring-inset dark:bg-indigo-500/10',
      )}>
      <div className="flex items-center justify-between gap-1" aria-hidden="true">
        <span className={cx('inline-flex size-6 items-center justify-center rounded-full text-xs tabular-nums',
          isToday ? 'bg-indigo-600 font-semibold text-white dark:bg-indigo-500' : 'text-slate-700 dark:text-slate-300')}>{Number(day.date.slice(8, 10))}</span>
        {count > 0 && <span className="rounded-full bg-slate-900/80 px-1.5 text-[11px] font-medium text-white tabular-nums sm:hidden dark:bg-white/80 dark:text-slate-900">{count}</span>}
        {count === 0 && day.holiday && <span className="size-1.5 rounded-full bg-indigo-500 sm:hidden dark:bg-indigo-400" />}
      </div>
      <div className="mt-1 hidden space-y-1 sm:block" aria-hidden="true">
        {day.holiday && <p className="truncate text-[11px] font-medium text-indigo-700 dark:text-indigo-300" title={day.holiday}>{day.holiday}</p>}
        {day.away.slice(0, NAMES_PER_CELL).map((away) => (
          <p key={`${away.leave}-${away.user_id}`} title={`${away.name}: ${stateOf(away.status).label}`}
            className={cx('truncate rounded px-1.5 py-0.5 text-[11px] font-medium ring-1 ring-inset', chipTone[stateOf(away.status).tone])}>
            {away.part !== 'day' && <span className="mr-0.5">½</span>}{away.name}
          </p>
        ))}
        {count > NAMES_PER_CELL && <p className="px-1 text-[11px] text-slate-500 dark:text-slate-400">+{count - NAMES_PER_CELL} more</p>}
      </div>
    </td>
  );
}

function Legend() {
  const entries = [
    { tone: 'green', text: 'Approved' },
    { tone: 'yellow', text: 'Waiting for the manager' },
    { tone: 'gray', text: 'Taken without back fill' },
  ];
  return (
    <div className="flex flex-wrap items-center gap-x-4 gap-y-2 border-t border-slate-200 px-4 py-3 text-xs text-slate-600 sm:px-5 dark:border-slate-800 dark:text-slate-400">
      {entries.map((entry) => (
        <span key={entry.tone} className="inline-flex items-center gap-1.5">
          <span className={cx('size-3 rounded ring-1 ring-inset', chipTone[entry.tone])} aria-hidden="true" />{entry.text}
        </span>
      ))}
      <span className="inline-flex items-center gap-1.5"><span className="size-1.5 rounded-full bg-indigo-500 dark:bg-indigo-400" aria-hidden="true" />Public holiday</span>
      <span>½ half day</span>
      <span className="hidden sm:inline">Arrow keys move between days; Page Up / Page Down change the month.</span>
    </div>
  );
}

function DayDetails({ day, calendar }: { day: CalendarDay; calendar: LeaveCalendar }) {
  return (
    <Card className="mt-4">
      <section aria-labelledby="calendar-day" aria-live="polite" className="px-4 py-4 sm:px-5">
        <h2 id="calendar-day" className="text-sm font-semibold text-slate-900 dark:text-white">{dayTitle(day.date)}</h2>
        {day.holiday && <p className="mt-1 text-sm text-indigo-700 dark:text-indigo-300">Public holiday: {day.holiday}</p>}
        {day.away.length === 0
          ? <p className="mt-2 text-sm text-slate-500 dark:text-slate-400">{!day.is_working_weekday ? 'Not a working day: outside the firm\'s working week.' : 'Nobody is away.'}</p>
          : (
            <ul className="mt-3 divide-y divide-slate-100 dark:divide-slate-800">
              {day.away.map((away) => {
                const leave = calendar.leaves[away.leave];
                const state = stateOf(away.status);
                return (
                  <li key={`${away.leave}-${away.user_id}`} className="flex flex-wrap items-center justify-between gap-2 py-2.5">
                    <div className="min-w-0">
                      <p className="font-medium text-slate-900 dark:text-white">{away.name}</p>
                      <p className="text-xs text-slate-500 dark:text-slate-400">
                        {partText[away.part]}{leave?.leave_type ? ` · ${leave.leave_type.name}` : ''} · {leave?.from_date === leave?.to_date ? leave?.from_date : `${leave?.from_date} to ${leave?.to_date}`}
                      </p>
                    </div>
                    <div className="flex items-center gap-2">
                      <Badge tone={state.tone}>{state.step ?? state.label}</Badge>
                      {leave?.id && (
                        <Link href={routePath('leave-application.show', { id: leave.id })} className={cx('text-sm font-medium text-indigo-600 hover:underline dark:text-indigo-400', focusRing)}
                          aria-label={`Open ${away.name}'s leave from ${leave.from_date}`}>Open</Link>
                      )}
                    </div>
                  </li>
                );
              })}
            </ul>
          )}
      </section>
    </Card>
  );
}
