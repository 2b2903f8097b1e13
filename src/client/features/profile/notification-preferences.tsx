// Issue 24: how the person hears of each kind of notification (in the app, by email, both or not at
// all) and whether mail comes once a day as a digest. Staff and partner logins alike; the server
// answers with the kinds their account type receives.
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import {
  CHANNEL_LABELS, NOTIFICATION_CHANNELS, NOTIFICATION_KINDS, type NotificationChannel, type NotificationPreferences,
} from '../../../shared/notification-kinds';
import type { AccountType } from '../../../shared/routes';
import { api, isApiError } from '../../lib/api';
import { queryClient, queryKeys } from '../../lib/query';
import { notify } from '../../lib/toast';
import { Button } from '../../ui/button';
import { Card, CardHeader } from '../../ui/card';
import { FormAlert, inputClass } from '../../ui/field';
import { Skeleton } from '../../ui/loading';
import { SwitchField } from '../../ui/switch-field';

const channelOptions = NOTIFICATION_CHANNELS.map((value) => ({ value, label: CHANNEL_LABELS[value] }));

export function NotificationPreferencesCard({ account }: { account: AccountType }) {
  const queryKey = queryKeys.screen('notification-preferences', account);
  const { data, error } = useQuery({
    queryKey,
    queryFn: () => api.get<{ data: NotificationPreferences }>('/notification/preferences', { account, silent: true }).then((answer) => answer.data),
  });
  return (
    <Card>
      <CardHeader id="profile-notifications" title="Notifications"
        description="Choose how you hear of each kind: in the app (the bell and a pop-up), by email, both, or not at all." />
      {error && !data && <div className="px-5 py-5"><FormAlert message={isApiError(error) ? error.message : 'Your choices could not be loaded.'} /></div>}
      {!data && !error && (
        <div role="status" aria-label="Loading your notification choices" className="space-y-3 px-5 py-5">
          {Array.from({ length: 4 }, (_, i) => <Skeleton key={i} className="h-9 w-full" />)}
        </div>
      )}
      {/* Keyed by the stored choices, so a save (or another tab's) starts the form from them. */}
      {data && <PreferencesForm key={JSON.stringify(data)} account={account} stored={data} onSaved={(saved) => queryClient.setQueryData(queryKey, saved)} />}
    </Card>
  );
}

function PreferencesForm({ account, stored, onSaved }: { account: AccountType; stored: NotificationPreferences; onSaved: (saved: NotificationPreferences) => void }) {
  const [channels, setChannels] = useState(stored.channels);
  const [isDigest, setIsDigest] = useState(stored.is_digest);
  const [isSaving, setIsSaving] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const kinds = NOTIFICATION_KINDS.filter((kind) => kind.key in stored.channels);
  const isMailing = Object.values(channels).some((channel) => channel === 'email' || channel === 'both');

  const save = async (event: React.FormEvent) => {
    event.preventDefault();
    setIsSaving(true);
    setFailure(null);
    try {
      const answer = await api.put<{ data: NotificationPreferences; message: string }>('/notification/preferences',
        { channels, is_digest: isDigest }, { account, silent: true });
      notify.success(answer.message);
      onSaved(answer.data);
    } catch (error) {
      setFailure(isApiError(error) ? error.message : 'Your choices could not be saved. Try again.');
    } finally {
      setIsSaving(false);
    }
  };

  return (
    <form noValidate onSubmit={save} aria-labelledby="profile-notifications" className="px-5 py-5">
      <FormAlert message={failure} />
      <ul className="divide-y divide-slate-200 dark:divide-slate-800">
        {kinds.map((kind) => (
          <li key={kind.key} className="flex flex-col gap-2 py-3 first:pt-0 sm:flex-row sm:items-center sm:justify-between sm:gap-6">
            <div className="min-w-0">
              <label htmlFor={`channel-${kind.key}`} className="text-sm font-medium text-slate-900 dark:text-white">{kind.label}</label>
              <p className="text-sm text-slate-500 dark:text-slate-400">{kind.description}</p>
            </div>
            <select id={`channel-${kind.key}`} name={`channels.${kind.key}`} value={channels[kind.key]}
              onChange={(event) => setChannels({ ...channels, [kind.key]: event.target.value as NotificationChannel })}
              className={`${inputClass} pr-8 sm:w-56 sm:shrink-0`}>
              {channelOptions.map((option) => <option key={option.value} value={option.value}>{option.label}</option>)}
            </select>
          </li>
        ))}
      </ul>
      <div className="mt-4 border-t border-slate-200 pt-4 dark:border-slate-800">
        <SwitchField name="is_digest" label="One email a day" checked={isDigest} onChange={setIsDigest} disabled={!isMailing}
          description={isMailing
            ? 'Collect what comes by email into one digest each morning, instead of an email each time.'
            : 'Choose email for a kind above to have a daily digest of it.'} />
      </div>
      <p className="mt-4 text-sm text-slate-500 dark:text-slate-400">
        Until you save your choices, decisions you are waiting for (an invoice paid, a document to return again) also come by email.
      </p>
      <div className="mt-5 flex justify-end border-t border-slate-200 pt-5 dark:border-slate-800">
        <Button type="submit" isLoading={isSaving}>Save choices</Button>
      </div>
    </form>
  );
}
