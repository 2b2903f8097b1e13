// The icons drawn before sign-in (the theme switch, the auth screens' headings, a field's message, the
// passkey button), apart from the menus' set in icons.tsx: the login screen's JavaScript carries these
// few, not the whole set (bench:bundle's budget, issue 23). icons.tsx draws its set with the same frame.
import type { SVGProps } from 'react';

export const guestIconPaths = {
  shield: ['M12 3 4 6v6c0 5 3.5 8 8 9 4.5-1 8-4 8-9V6l-8-3Z', 'm9 12 2 2 4-4'],
  file: ['M14 3H7a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2V8l-5-5Z', 'M14 3v5h5', 'M9 13h6', 'M9 17h4'],
  check: ['M20 6 9 17l-5-5'],
  key: ['M15.5 10a4.5 4.5 0 1 0-4.3 4.5', 'm11 14 2 2-2 2 2 2', 'M15.5 10h.01', 'M13 12l8 8'],
  sun: ['M12 17a5 5 0 1 0 0-10 5 5 0 0 0 0 10Z', 'M12 1v2', 'M12 21v2', 'm4.2 4.2 1.4 1.4', 'm18.4 18.4 1.4 1.4', 'M1 12h2', 'M21 12h2', 'm4.2 19.8 1.4-1.4', 'm18.4 5.6 1.4-1.4'],
  moon: ['M21 12.8A9 9 0 1 1 11.2 3a7 7 0 0 0 9.8 9.8Z'],
  mail: ['M4 4h16a2 2 0 0 1 2 2v12a2 2 0 0 1-2 2H4a2 2 0 0 1-2-2V6a2 2 0 0 1 2-2Z', 'm22 6-10 7L2 6'],
  lock: ['M6 11h12a1 1 0 0 1 1 1v8a1 1 0 0 1-1 1H6a1 1 0 0 1-1-1v-8a1 1 0 0 1 1-1Z', 'M8 11V7a4 4 0 1 1 8 0v4'],
  alert: ['M12 9v4', 'M12 17h.01', 'M10.3 3.9 1.8 18a2 2 0 0 0 1.7 3h17a2 2 0 0 0 1.7-3L13.7 3.9a2 2 0 0 0-3.4 0Z'],
  compass: ['M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18Z', 'm16 8-2 6-6 2 2-6 6-2Z'],
} satisfies Record<string, string[]>;

export type GuestIconName = keyof typeof guestIconPaths;

/** A 24 px stroke icon of these paths. */
export function IconFrame({ paths, className = 'size-5', ...rest }: { paths: readonly string[] } & Omit<SVGProps<SVGSVGElement>, 'd'>) {
  return (
    <svg viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={1.8} strokeLinecap="round"
      strokeLinejoin="round" aria-hidden="true" focusable="false" className={className} {...rest}>
      {paths.map((path) => <path key={path} d={path} />)}
    </svg>
  );
}

export function GuestIcon({ name, ...rest }: { name: GuestIconName } & SVGProps<SVGSVGElement>) {
  return <IconFrame paths={guestIconPaths[name]} {...rest} />;
}
