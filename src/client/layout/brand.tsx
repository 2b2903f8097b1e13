import { appConfig } from '../lib/config';
import { cx } from '../ui/cx';

export function BrandMark({ className = 'size-8' }: { className?: string }) {
  return <img src="/logo.svg" alt="" width={32} height={32} className={cx('shrink-0', className)} />;
}

export function BrandName({ className }: { className?: string }) {
  return <span className={cx('truncate font-semibold tracking-tight text-slate-900 dark:text-white', className)}>{appConfig.name}</span>;
}
