// The firm's profile (issue 22): its name (page titles, the header, emails), its logo and its default
// currency (pre-filled in currency fields). Stored as the `firm_profile` setting; the logo's file lives
// in storage like any upload and is served publicly, as the sign-in page shows it too.
import type { MultipartFile } from '@fastify/multipart';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client';
import type { ResourceContext } from '../../resources/types';
import { settings } from '../../db/schema/settings';
import { validationError } from '../../plugins/errors';
import { sniffFileType } from '../../plugins/storage';
import {
  DEFAULT_FIRM_CURRENCY, FIRM_LOGO_EXTENSIONS, FIRM_LOGO_MAX_BYTES, type FirmProfile, type FirmProfileInput,
} from '../../../shared/schemas/setup';

export const FIRM_PROFILE_KEY = 'firm_profile';

interface StoredLogo { key: string; mime: string; size: number }
interface StoredProfile { name?: string | null; default_currency?: FirmProfile['default_currency']; logo?: StoredLogo | null }

const logoTypes: Record<string, string> = { png: 'image/png', jpeg: 'image/jpeg', webp: 'image/webp' };

async function storedProfile(db: Db): Promise<StoredProfile> {
  const [row] = await db.select({ value: settings.value }).from(settings).where(eq(settings.key, FIRM_PROFILE_KEY)).limit(1);
  return row?.value && typeof row.value === 'object' ? row.value as StoredProfile : {};
}

async function saveStored(db: Db, value: StoredProfile) {
  await db.insert(settings).values({ key: FIRM_PROFILE_KEY, value })
    .onConflictDoUpdate({ target: settings.key, set: { value, updated_at: new Date() } });
}

const publicProfile = (stored: StoredProfile): FirmProfile => ({
  name: stored.name ?? null,
  default_currency: stored.default_currency ?? DEFAULT_FIRM_CURRENCY,
  // The storage key in the address makes a new logo a new address, so no browser keeps the old one.
  logo_url: stored.logo ? `/api/firm/logo?v=${stored.logo.key.split('/').pop()}` : null,
});

export const getFirmProfile = async (db: Db): Promise<FirmProfile> => publicProfile(await storedProfile(db));

/**
 * The firm's name when saved, else the app's name (APP_NAME): what titles and emails call the firm.
 * Read through `db`: inside a transaction, its handle (PGlite has one connection).
 */
export async function firmName(app: FastifyInstance, db: Db = app.db): Promise<string> {
  return (await storedProfile(db)).name ?? app.config.appName;
}

export async function saveFirmProfile(db: Db, input: FirmProfileInput): Promise<{ before: FirmProfile; after: FirmProfile }> {
  const stored = await storedProfile(db);
  const next = { ...stored, name: input.name, default_currency: input.default_currency };
  await saveStored(db, next);
  return { before: publicProfile(stored), after: publicProfile(next) };
}

/** Reads the one `logo` file of a multipart request into storage, checked by extension and content. */
export async function saveFirmLogo({ app, db }: ResourceContext, file: MultipartFile | undefined): Promise<FirmProfile> {
  if (!file || file.fieldname !== 'logo') throw validationError({ logo: 'Choose an image for the logo.' });
  const extension = file.filename.split('.').pop()?.toLowerCase() ?? '';
  if (!(FIRM_LOGO_EXTENSIONS as readonly string[]).includes(extension)) {
    file.file.resume();
    throw validationError({ logo: 'The logo must be a PNG, JPEG or WebP image.' });
  }
  const saved = await app.storage.put('firm', file.file);
  const kind = sniffFileType(saved.head);
  if (file.file.truncated || !logoTypes[kind]) {
    await app.storage.remove(saved.key);
    throw validationError({ logo: file.file.truncated ? `The logo may not be greater than ${FIRM_LOGO_MAX_BYTES / 1024 / 1024} MB.` : `${file.filename} is not a real image. Choose the original file and try again.` });
  }
  const stored = await storedProfile(db);
  await saveStored(db, { ...stored, logo: { key: saved.key, mime: logoTypes[kind], size: saved.size } });
  if (stored.logo) await app.storage.remove(stored.logo.key);
  return publicProfile({ ...stored, logo: { key: saved.key, mime: logoTypes[kind], size: saved.size } });
}

export async function removeFirmLogo({ app, db }: ResourceContext): Promise<FirmProfile> {
  const stored = await storedProfile(db);
  await saveStored(db, { ...stored, logo: null });
  if (stored.logo) await app.storage.remove(stored.logo.key);
  return publicProfile({ ...stored, logo: null });
}

export async function firmLogo(db: Db): Promise<StoredLogo | null> {
  return (await storedProfile(db)).logo ?? null;
}
