// spec §4: a notification sound plays on each new real-time toast. A 150 ms chime under public/.
export const NOTIFICATION_SOUND_URL = '/sounds/notification.wav';

/** Plays the chime; a browser that refuses autoplay (no user gesture yet) stays silent, without an error. */
export function playNotificationSound(): void {
  if (typeof Audio === 'undefined') return;
  try {
    const audio = new Audio(NOTIFICATION_SOUND_URL);
    audio.volume = 0.6;
    const playing = audio.play();
    if (playing && typeof playing.catch === 'function') playing.catch(() => undefined);
  } catch {
    /* no audio support: the toast alone will do */
  }
}
