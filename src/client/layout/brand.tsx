import { useSnapshot } from 'valtio';
import { firm } from '../stores/firm';
import { cx } from '../ui/cx';

/** The firm's logo once uploaded (issue 22), else the product's. */
export function BrandMark({ className = 'size-8' }: { className?: string }) {
  const { logo_url: logo } = useSnapshot(firm);
  return <img src={logo ?? '/logo.svg'} alt="" width={32} height={32} className={cx('shrink-0 object-contain', className)} />;
}

/** The firm's name once saved (issue 22), else the product's (APP_NAME). */
export function BrandName({ className }: { className?: string }) {
  const { name } = useSnapshot(firm);
  return <span className={cx('truncate font-semibold tracking-tight text-slate-900 dark:text-white', className)}>{name}</span>;
}
