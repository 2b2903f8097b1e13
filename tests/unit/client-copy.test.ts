// @vitest-environment jsdom
// spec §8 copy helper messages.
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';

const toasts = vi.hoisted(() => ({ success: vi.fn(), error: vi.fn(), warning: vi.fn(), info: vi.fn(), onChange: vi.fn(), isActive: vi.fn(() => false) }));
vi.mock('react-toastify', () => ({ toast: toasts }));

import { copyToClipboard } from '../../src/client/lib/copy';
import { loadToasts } from '../../src/client/lib/toast';

// Toasts load with the first one (lib/toast); here they are loaded up front so each toast is shown at once.
beforeAll(async () => { await loadToasts(); });

afterEach(() => { vi.unstubAllGlobals(); Object.values(toasts).forEach((fn) => fn.mockReset()); });

describe('copy helper', () => {
  it("says 'Text copied to clipboard' when the clipboard takes the text", async () => {
    const writeText = vi.fn(async () => {});
    vi.stubGlobal('navigator', { clipboard: { writeText } });
    expect(await copyToClipboard('INV-42')).toBe(true);
    expect(writeText).toHaveBeenCalledWith('INV-42');
    expect(toasts.success).toHaveBeenCalledWith('Text copied to clipboard', { role: 'status' });
  });

  it('warns when the browser has no clipboard', async () => {
    vi.stubGlobal('navigator', {});
    expect(await copyToClipboard('x')).toBe(false);
    expect(toasts.warning).toHaveBeenCalledWith('Copying to clipboard is not supported in this browser.', { role: 'alert' });
  });
});
