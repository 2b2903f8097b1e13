// The firm's profile on the settings screen (issue 22): its name (page titles, the header, emails),
// its logo and its default currency (new expense claims, deals, contracts and candidates start with it).
// GET / PUT /setting/firm, PUT / DELETE /setting/firm/logo; saving needs can-edit-setting.
import { useRef, useState } from 'react';
import { EXPENSE_CURRENCIES } from '../../../shared/resources/expense';
import { FIRM_LOGO_EXTENSIONS, FIRM_LOGO_MAX_BYTES, firmProfileSchema, type FirmProfile } from '../../../shared/schemas/setup';
import type { AccountType } from '../../../shared/routes';
import { api } from '../../lib/api';
import { useForm } from '../../lib/form';
import { notify } from '../../lib/toast';
import { uploadWithProgress } from '../../lib/upload';
import { setFirm } from '../../stores/firm';
import { Button } from '../../ui/button';
import { FormAlert, TextField } from '../../ui/field';
import { SelectField } from '../../ui/form-fields';
import { SaveRow, SettingCard, settingSaved } from './setting-card';

const currencyOptions = EXPENSE_CURRENCIES.map((code) => ({ value: code, label: code }));

function LogoField({ account, profile, canEdit, onChange }: { account: AccountType; profile: FirmProfile; canEdit: boolean; onChange: (next: FirmProfile) => void }) {
  const input = useRef<HTMLInputElement>(null);
  const [isBusy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const upload = async (file: File) => {
    setError(null);
    const extension = file.name.split('.').pop()?.toLowerCase() ?? '';
    if (!(FIRM_LOGO_EXTENSIONS as readonly string[]).includes(extension)) { setError('The logo must be a PNG, JPEG or WebP image.'); return; }
    if (file.size > FIRM_LOGO_MAX_BYTES) { setError(`The logo may not be greater than ${FIRM_LOGO_MAX_BYTES / 1024 / 1024} MB.`); return; }
    const form = new FormData();
    form.append('logo', file, file.name);
    setBusy(true);
    try {
      const answer = await uploadWithProgress<{ data: FirmProfile; message: string }>('/setting/firm/logo', form, () => {}, { method: 'PUT', account });
      onChange(answer.data);
      notify.success(answer.message);
    } catch { /* the wrapper reported it */ } finally {
      setBusy(false);
      if (input.current) input.current.value = '';
    }
  };

  const remove = async () => {
    setBusy(true);
    try {
      const answer = await api.delete<{ data: FirmProfile; message: string }>('/setting/firm/logo', { account });
      onChange(answer.data);
      notify.success(answer.message);
    } catch { /* the wrapper reported it */ } finally { setBusy(false); }
  };

  return (
    <div>
      <p className="mb-1.5 text-sm font-medium text-slate-700 dark:text-slate-200" id="firm-logo-label">Logo</p>
      <div className="flex flex-wrap items-center gap-4">
        <div className="flex size-16 items-center justify-center overflow-hidden rounded-lg bg-slate-50 ring-1 ring-slate-200 ring-inset dark:bg-slate-800 dark:ring-slate-700">
          {profile.logo_url
            ? <img src={profile.logo_url} alt="The firm's logo" className="size-full object-contain p-1" />
            : <span className="px-1 text-center text-xs text-slate-400 dark:text-slate-500">No logo</span>}
        </div>
        {canEdit && (
          <div className="flex flex-wrap gap-2">
            <input ref={input} type="file" accept=".png,.jpg,.jpeg,.webp" className="sr-only" id="firm-logo" aria-labelledby="firm-logo-label"
              onChange={(event) => { const file = event.target.files?.[0]; if (file) void upload(file); }} />
            <Button variant="secondary" size="sm" isLoading={isBusy} onClick={() => input.current?.click()}>
              {profile.logo_url ? 'Replace the logo' : 'Upload a logo'}
            </Button>
            {profile.logo_url && <Button variant="ghost" size="sm" disabled={isBusy} onClick={() => { void remove(); }}>Remove</Button>}
          </div>
        )}
      </div>
      <p className="mt-1.5 text-xs text-slate-500 dark:text-slate-400">A PNG, JPEG or WebP image of at most 1 MB, shown beside the firm's name. A square one looks best.</p>
      {error && <p className="mt-1.5 text-sm text-rose-600 dark:text-rose-400" role="alert">{error}</p>}
    </div>
  );
}

function FirmProfileForm({ account, initial, canEdit }: { account: AccountType; initial: FirmProfile; canEdit: boolean }) {
  const [profile, setProfile] = useState(initial);
  // Saved (the form, a logo uploaded or removed): the setting and the setup checklist refetch.
  const changed = (next: FirmProfile) => { setProfile(next); setFirm(next); settingSaved('/setting/firm'); };
  const form = useForm({
    initial: { name: initial.name ?? '', default_currency: initial.default_currency as string },
    schema: firmProfileSchema,
    onSubmit: async (values) => {
      const answer = await api.put<{ data: FirmProfile; message: string }>('/setting/firm', values, { account, form: true });
      changed(answer.data);
      form.reset({ name: answer.data.name ?? '', default_currency: answer.data.default_currency });
      notify.success(answer.message);
    },
  });
  return (
    <div className="space-y-5 px-5 py-5">
      <form noValidate onSubmit={form.handleSubmit} aria-labelledby="firm-profile-setting" className="space-y-5">
        <FormAlert message={form.formError} />
        <TextField label="Firm name" required readOnly={!canEdit} className="max-w-md" autoComplete="organization"
          hint="Shown in the page titles, beside the logo and in the emails people receive." {...form.field('name')} />
        <SelectField label="Default currency" required disabled={!canEdit} options={currencyOptions} className="max-w-48"
          hint="New expense claims, deals and contracts start in this currency; people can still choose another." {...form.field('default_currency')} />
        {canEdit && <SaveRow isSubmitting={form.isSubmitting} label="Save the firm profile" />}
      </form>
      <div className="border-t border-slate-200 pt-5 dark:border-slate-800">
        <LogoField account={account} profile={profile} canEdit={canEdit} onChange={changed} />
      </div>
    </div>
  );
}

export function FirmProfileSettingCard({ account, canEdit }: { account: AccountType; canEdit: boolean }) {
  return (
    <SettingCard<FirmProfile> account={account} path="/setting/firm" id="firm-profile-setting" title="Firm profile"
      description="Your firm's name, logo and the currency money is counted in unless someone chooses another." failure="The firm profile could not be loaded.">
      {(profile) => <FirmProfileForm account={account} initial={profile} canEdit={canEdit} />}
    </SettingCard>
  );
}
