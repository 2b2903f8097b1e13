// Issue 29: notifications that reach this device with the app closed (Web Push). The person turns them on
// per device (the browser's permission prompt comes only then), sees every device that receives them and
// removes one they no longer use.
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { AccountType } from '../../../shared/routes';
import type { PushDevice } from '../../../shared/schemas/push';
import { api, isApiError } from '../../lib/api';
import { formatDate } from '../../lib/format';
import { currentSubscription, endpointHash, isPushSupported, notificationPermission, PushRefused, removePushDevice, turnOnPush } from '../../lib/push';
import { queryClient, queryKeys } from '../../lib/query';
import { notify } from '../../lib/toast';
import { Badge } from '../../ui/badge';
import { Button } from '../../ui/button';
import { Card, CardHeader } from '../../ui/card';
import { FormAlert } from '../../ui/field';
import { Skeleton } from '../../ui/loading';

interface PushState { devices: PushDevice[]; thisDevice: string | null }

export function PushCard({ account }: { account: AccountType }) {
  const queryKey = queryKeys.screen('push-devices', account);
  const { data, error } = useQuery({
    queryKey,
    queryFn: async (): Promise<PushState> => {
      const [answer, subscription] = await Promise.all([
        api.get<{ data: PushDevice[] }>('/push/subscriptions', { account, silent: true }),
        currentSubscription().catch(() => null),
      ]);
      return { devices: answer.data, thisDevice: subscription ? await endpointHash(subscription.endpoint) : null };
    },
  });
  const [isTurningOn, setIsTurningOn] = useState(false);
  const [removing, setRemoving] = useState<number | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey });
  const isSupported = isPushSupported();
  const isBlocked = isSupported && notificationPermission() === 'denied';
  const current = data?.devices.find((device) => device.endpoint_hash === data.thisDevice) ?? null;

  const turnOn = async () => {
    setIsTurningOn(true);
    setFailure(null);
    try {
      const answer = await turnOnPush(account);
      notify.success(answer.message);
      await refresh();
    } catch (caught) {
      setFailure(caught instanceof PushRefused || isApiError(caught) ? caught.message : 'This device could not be set up for notifications. Try again.');
    } finally {
      setIsTurningOn(false);
    }
  };

  const remove = async (device: PushDevice) => {
    setRemoving(device.id);
    setFailure(null);
    try {
      notify.success(await removePushDevice(account, device, device.id === current?.id));
      await refresh();
    } catch (caught) {
      setFailure(isApiError(caught) ? caught.message : 'The device could not be removed. Try again.');
    } finally {
      setRemoving(null);
    }
  };

  return (
    <Card>
      <CardHeader id="profile-push" title="Notifications with the app closed"
        description="Have your notifications pop up on this phone or computer even when the app is not open. Turn it on for each device you use."
        actions={data && isSupported && <Badge tone={current ? 'green' : 'gray'}>{current ? 'On' : 'Off'}</Badge>} />
      <div className="space-y-4 px-5 py-5">
        <FormAlert message={failure ?? (error && !data ? (isApiError(error) ? error.message : 'Your devices could not be loaded.') : null)} />
        {!data && !error && <div role="status" aria-label="Loading your devices" className="space-y-3"><Skeleton className="h-4 w-2/3" /><Skeleton className="h-9 w-48" /></div>}
        {data && !current && (
          !isSupported
            ? <p className="text-sm text-slate-600 dark:text-slate-300">This browser cannot show notifications while the app is closed. On a phone, add the app to your home screen first, then open it from there.</p>
            : isBlocked
              ? <p className="text-sm text-slate-600 dark:text-slate-300">Your browser blocks notifications from this site. Allow them in its site settings, then come back here to turn them on.</p>
              : (
                <div className="space-y-3">
                  <p className="text-sm text-slate-600 dark:text-slate-300">Your browser will ask whether this site may show notifications. What you chose above for each kind still applies: only what comes in the app is sent here.</p>
                  <Button onClick={turnOn} isLoading={isTurningOn}>Turn on for this device</Button>
                </div>
              )
        )}
        {data && data.devices.length > 0 && (
          <div>
            <h3 className="text-sm font-medium text-slate-900 dark:text-white">Devices that receive your notifications</h3>
            <ul className="mt-2 divide-y divide-slate-200 dark:divide-slate-800">
              {data.devices.map((device) => (
                <li key={device.id} className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2 py-3">
                  <div className="min-w-0">
                    <p className="flex flex-wrap items-center gap-2 text-sm font-medium text-slate-900 dark:text-white">
                      {device.device}
                      {device.id === current?.id && <Badge tone="indigo">This device</Badge>}
                    </p>
                    <p className="text-sm text-slate-500 dark:text-slate-400">
                      Added {formatDate(device.created_at)}{device.last_used_at ? `, last notified ${formatDate(device.last_used_at)}` : ', nothing sent yet'}
                    </p>
                  </div>
                  <Button size="sm" variant="secondary" isLoading={removing === device.id} onClick={() => void remove(device)}
                    aria-label={device.id === current?.id ? 'Turn off for this device' : `Remove ${device.device}, added ${formatDate(device.created_at)}`}>
                    {device.id === current?.id ? 'Turn off' : 'Remove'}
                  </Button>
                </li>
              ))}
            </ul>
          </div>
        )}
      </div>
    </Card>
  );
}
