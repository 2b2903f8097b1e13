import type { ButtonHTMLAttributes, MouseEvent } from 'react';
import { cx } from './cx';

type Variant = 'primary' | 'secondary' | 'ghost' | 'danger';

// Unavailable (disabled, or busy: styles.css) reads as such in every variant (a "Mark all as read" with nothing unread looked live), and does not react to hover.
const variants: Record<Variant, string> = {
  primary: 'bg-indigo-600 text-white shadow-sm hover:bg-indigo-500 unavailable:bg-indigo-600/60 dark:bg-indigo-500 dark:hover:bg-indigo-400 dark:unavailable:bg-indigo-500/50',
  secondary: 'bg-white text-slate-800 shadow-sm ring-1 ring-inset ring-slate-300 hover:bg-slate-50 dark:bg-slate-800 dark:text-slate-100 dark:ring-slate-700 dark:hover:bg-slate-700 unavailable:opacity-50 unavailable:hover:bg-white dark:unavailable:hover:bg-slate-800',
  ghost: 'text-slate-600 hover:bg-slate-100 hover:text-slate-900 dark:text-slate-300 dark:hover:bg-slate-800 dark:hover:text-white unavailable:opacity-50 unavailable:hover:bg-transparent',
  danger: 'bg-rose-600 text-white shadow-sm hover:bg-rose-500 dark:bg-rose-500 dark:hover:bg-rose-400 unavailable:opacity-60 unavailable:hover:bg-rose-600 dark:unavailable:hover:bg-rose-500',
};

export const focusRing = 'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500';

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: Variant;
  size?: 'sm' | 'md';
  isLoading?: boolean;
}

/**
 * While `isLoading` the button is busy, not disabled: the browser drops the focus of a disabled button
 * to the page, so a keyboard user who pressed Save started again from the top. It keeps the focus and
 * says it cannot be pressed (aria-disabled), and a press is ignored: cancelling the click also stops the
 * form it submits, Enter in a field included, so nothing is sent twice.
 */
export function Button({ variant = 'primary', size = 'md', isLoading, className, children, disabled, onClick, type = 'button', ...rest }: ButtonProps) {
  const onPress = (event: MouseEvent<HTMLButtonElement>) => {
    if (isLoading) { event.preventDefault(); return; }
    onClick?.(event);
  };
  return (
    <button
      type={type}
      disabled={disabled}
      aria-disabled={isLoading || undefined}
      aria-busy={isLoading || undefined}
      className={cx(
        'inline-flex items-center justify-center gap-2 rounded-lg font-medium transition-colors unavailable:cursor-not-allowed',
        size === 'sm' ? 'h-8 px-3 text-sm' : 'h-10 px-4 text-sm',
        variants[variant], focusRing, className,
      )}
      {...rest}
      onClick={onPress}
    >
      {isLoading && <span className="size-4 animate-spin rounded-full border-2 border-current border-r-transparent" aria-hidden="true" />}
      {children}
    </button>
  );
}
