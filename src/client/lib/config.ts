// The server replaces the content of <script id="app-config"> with {name, env, pusherKey, firm}
// (APP_NAME, APP_ENV, PUSHER_APP_KEY, the firm profile of issue 22). Under the Vite dev server,
// VITE_PUSHER_APP_KEY stands in for the key.
import type { FirmProfile } from '../../shared/schemas/setup';

export interface AppConfig { name: string; env: string; pusherKey: string | null; firm?: FirmProfile | null }

const DEFAULT_NAME = 'Staffing Back Office';

function readConfig(): AppConfig {
  const fallback: AppConfig = {
    name: import.meta.env?.VITE_APP_NAME || DEFAULT_NAME,
    env: 'local',
    pusherKey: import.meta.env?.VITE_PUSHER_APP_KEY || null,
  };
  if (typeof document === 'undefined') return fallback;
  try {
    const raw = document.getElementById('app-config')?.textContent;
    const parsed = raw ? (JSON.parse(raw) as Partial<AppConfig>) : {};
    return {
      name: typeof parsed.name === 'string' && parsed.name.trim() ? parsed.name : fallback.name,
      env: typeof parsed.env === 'string' && parsed.env ? parsed.env : fallback.env,
      pusherKey: typeof parsed.pusherKey === 'string' && parsed.pusherKey ? parsed.pusherKey : fallback.pusherKey,
      firm: parsed.firm && typeof parsed.firm === 'object' ? parsed.firm : null,
    };
  } catch {
    return fallback;
  }
}

export const appConfig = readConfig();

/** spec §1: a Beta Version badge is shown when the environment is not production. */
export const isBeta = appConfig.env !== 'production';

/** spec §1: page titles read '{title} - {app name}'; the app is named after the firm once it has a name (issue 22). */
export const pageTitle = (title: string, name: string = appConfig.name) => `${title} - ${name}`;
