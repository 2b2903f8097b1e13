// The expense policy finance keeps on the settings screen: the amount above which a claim needs a
// receipt, stored as the `expense_receipt_threshold` setting.
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { settings } from '../../db/schema/settings';
import { DEFAULT_RECEIPT_THRESHOLD, type ExpenseSetting } from '../../../shared/resources/expense';

const KEY = 'expense_receipt_threshold';

export async function getExpenseSetting(db: Db): Promise<ExpenseSetting> {
  const [row] = await db.select().from(settings).where(eq(settings.key, KEY)).limit(1);
  const value = Number(row?.value);
  return { receipt_threshold: row && Number.isFinite(value) ? value : DEFAULT_RECEIPT_THRESHOLD };
}

export async function saveExpenseSetting(db: Db, setting: ExpenseSetting): Promise<ExpenseSetting> {
  await db.insert(settings).values({ key: KEY, value: setting.receipt_threshold })
    .onConflictDoUpdate({ target: settings.key, set: { value: setting.receipt_threshold, updated_at: new Date() } });
  return setting;
}
