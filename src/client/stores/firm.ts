// The firm's profile as the screens use it (issue 22): its name (page titles, the header), its logo and
// its default currency (new records' currency fields start with it). The server writes it into the
// page's app config (plugins/client.ts); the settings screen updates it here when it is saved.
import { proxy } from 'valtio';
import type { FirmProfile } from '../../shared/schemas/setup';
import { DEFAULT_FIRM_CURRENCY } from '../../shared/money';
import { api } from '../lib/api';
import { appConfig } from '../lib/config';

export const firm = proxy<{ name: string; default_currency: FirmProfile['default_currency']; logo_url: string | null }>({
  // Without a saved name, the product's own (APP_NAME).
  name: appConfig.firm?.name ?? appConfig.name,
  default_currency: appConfig.firm?.default_currency ?? DEFAULT_FIRM_CURRENCY,
  logo_url: appConfig.firm?.logo_url ?? null,
});

export function setFirm(profile: FirmProfile) {
  firm.name = profile.name ?? appConfig.name;
  firm.default_currency = profile.default_currency;
  firm.logo_url = profile.logo_url;
}

/**
 * Reads the profile again: a page opened from the service worker's precached shell carries the
 * profile of the day it was cached, so a name or logo changed since shows once this answers.
 */
export async function refreshFirm(): Promise<void> {
  try {
    const answer = await api.get<{ data: FirmProfile }>('/firm', { silent: true });
    if (answer?.data) setFirm(answer.data);
  } catch {
    // Offline or unreachable: the page's copy stands.
  }
}
