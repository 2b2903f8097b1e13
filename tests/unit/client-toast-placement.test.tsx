// @vitest-environment jsdom
// Where toasts go (issue 14, layout/toast-room.ts, lib/toast.ts): one short toast in the top bar's free
// middle; a second one, a long one, or any toast on a phone or beside a full bar goes to the bottom, so
// that none hangs below the bar over the page header's buttons. Heard by screen readers either way.
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { ToastContainer, toast } from 'react-toastify';
import { PHONE_WIDTH, toastPlace } from '../../src/client/layout/toast-room';
import { LOGOUT_MESSAGE, logout } from '../../src/client/lib/session';
import { CORNER_TOASTS, fitsInBar, isForCorner, notify, setCornerMounted, type ToastScene } from '../../src/client/lib/toast';

const inBar: ToastScene = { place: 'in-bar', room: 500, isBarTaken: false, hasCorner: true };

describe('where the layout puts toasts', () => {
  it('uses the top bar on a desktop whose bar has a free middle, the bottom on a phone or beside a full bar', () => {
    expect(toastPlace(1366, 600)).toBe('in-bar');
    expect(toastPlace(1366, 120)).toBe('corner');
    // A wide free middle on a phone-sized window still goes to the bottom: its toasts take the whole width.
    expect(toastPlace(PHONE_WIDTH, 300)).toBe('corner');
    expect(toastPlace(390, 250)).toBe('corner');
  });

  it('keeps one short toast in the bar and sends a second one or a long one to the corner', () => {
    expect(isForCorner('Saved.', inBar)).toBe(false);
    expect(isForCorner('Saved.', { ...inBar, isBarTaken: true })).toBe(true);
    const long = 'Not sent: your leave application for 4 March. The dates overlap another application of yours.';
    expect(isForCorner(long, inBar)).toBe(true);
    // Drawn by a component (a real-time notification's title and message): its height is unknown.
    expect(isForCorner(<p>New leave application</p>, inBar)).toBe(true);
  });

  it('leaves every toast to the default container where it is not in the bar (it moves to the bottom itself) or before the corner is mounted', () => {
    expect(isForCorner('Saved.', { ...inBar, place: 'corner', isBarTaken: true })).toBe(false);
    expect(isForCorner('Saved.', { ...inBar, place: undefined, isBarTaken: true })).toBe(false);
    expect(isForCorner('Saved.', { ...inBar, isBarTaken: true, hasCorner: false })).toBe(false);
  });

  it('counts two lines of words against the width the bar gives a toast', () => {
    const sixtyCharacters = 'x'.repeat(60);
    expect(fitsInBar(sixtyCharacters, 500)).toBe(true); // 320 px wide: 244 px a line
    expect(fitsInBar(sixtyCharacters, 250)).toBe(false); // 174 px a line
    expect(fitsInBar('Saved.', 60)).toBe(false);
  });
});

describe('toasts on a desktop with room in the bar', () => {
  beforeEach(() => {
    document.documentElement.dataset.toasts = 'in-bar';
    document.documentElement.style.setProperty('--top-bar-room', '500px');
    setCornerMounted(true);
  });
  afterEach(() => {
    act(() => { toast.dismiss(); });
    cleanup();
    setCornerMounted(false);
    delete document.documentElement.dataset.toasts;
    document.documentElement.style.removeProperty('--top-bar-room');
  });

  it('shows the first in the bar and the second in the corner, an error as an alert and a success as a status', async () => {
    const { container } = render(<><ToastContainer className="toasts-bar" /><ToastContainer containerId={CORNER_TOASTS} className={CORNER_TOASTS} /></>);
    notify.error('You may not export users.');
    await screen.findByText('You may not export users.');
    notify.success('Invitation sent.');
    await screen.findByText('Invitation sent.');

    const bar = container.querySelector('.toasts-bar')!;
    const corner = container.querySelector(`.${CORNER_TOASTS}`)!;
    expect(bar.textContent).toContain('You may not export users.');
    expect(corner.textContent).toContain('Invitation sent.');
    expect(bar.textContent).not.toContain('Invitation sent.');
    expect(screen.getByText('You may not export users.').closest('[role]')!.getAttribute('role')).toBe('alert');
    expect(screen.getByText('Invitation sent.').closest('[role]')!.getAttribute('role')).toBe('status');
  });

  it('gives the bar to the next toast once its toast has gone', async () => {
    render(<><ToastContainer className="toasts-bar" /><ToastContainer containerId={CORNER_TOASTS} className={CORNER_TOASTS} /></>);
    notify.info('First.', { toastId: 'first' });
    const first = (await screen.findByText('First.')).closest<HTMLElement>('.Toastify__toast')!;
    act(() => { toast.dismiss('first'); });
    // jsdom plays no animation: the exit's end is what removes a toast.
    fireEvent.animationEnd(first);
    await waitFor(() => expect(screen.queryByText('First.')).toBeNull());
    notify.info('Second.');
    const second = await screen.findByText('Second.');
    expect(second.closest('.toasts-bar')).not.toBeNull();
  });
});

describe('signing out', () => {
  afterEach(() => { cleanup(); vi.unstubAllGlobals(); });

  it('takes away the last person’s toasts, so that the next one at the computer reads only that they signed out', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => new Response(null, { status: 204 })));
    render(<ToastContainer />);
    notify.error('Your leave application for 4 March was rejected.');
    const earlier = (await screen.findByText('Your leave application for 4 March was rejected.')).closest<HTMLElement>('.Toastify__toast')!;

    await act(() => logout('app'));
    await screen.findByText(LOGOUT_MESSAGE);
    // jsdom plays no animation: the exit's end is what removes a toast.
    fireEvent.animationEnd(earlier);
    await waitFor(() => expect(screen.queryByText('Your leave application for 4 March was rejected.')).toBeNull());
    expect(screen.getByText(LOGOUT_MESSAGE)).toBeTruthy();
  });
});
