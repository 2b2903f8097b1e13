// spec §8 copy helper messages.
import { notify } from './toast';

export const COPIED_MESSAGE = 'Text copied to clipboard';
export const COPY_UNSUPPORTED_MESSAGE = 'Copying to clipboard is not supported in this browser.';

export async function copyToClipboard(text: string): Promise<boolean> {
  if (!navigator.clipboard?.writeText) {
    notify.warning(COPY_UNSUPPORTED_MESSAGE);
    return false;
  }
  try {
    await navigator.clipboard.writeText(text);
    notify.success(COPIED_MESSAGE);
    return true;
  } catch {
    notify.warning(COPY_UNSUPPORTED_MESSAGE);
    return false;
  }
}
