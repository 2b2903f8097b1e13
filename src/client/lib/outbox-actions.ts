// Issue 26 (docs/decisions/024-outbox-for-self-service.md): which actions wait in the outbox when the
// network is down. Only what people do on their own records: filing and correcting their leave,
// expense claims, pre-billing statements and invoices, withdrawing them, moving requests assigned to
// them, ticking their onboarding tasks, acknowledging a document. Decisions by managers and finance
// need the record as it is now (someone may have decided first), so they are not queued: offline,
// their buttons say why they are unavailable.
import { useSnapshot } from 'valtio';
import type { AvailableTransition, ResourceDefinition } from '../../shared/resources/define';
import { pwa } from '../stores/pwa';

/** Resources whose create and edit (with their files) queue. */
const QUEUED_SAVES: ReadonlySet<string> = new Set(['leave-application', 'expense', 'pre-billing', 'partner-invoice']);

/** Resources whose delete queues: withdrawing an expense claim that nobody has decided yet. */
const QUEUED_DELETES: ReadonlySet<string> = new Set(['expense']);

/** Self-service transitions, by resource. */
const QUEUED_TRANSITIONS: Readonly<Record<string, readonly string[]>> = {
  'leave-application': ['withdraw'],
  request: ['start', 'complete'],
  'onboarding-task': ['complete', 'reopen'],
  'document-assign-history': ['acknowledge'],
};

/** Choices a queued form picks from beyond its definition's references (a pre-billing's lines pick engineers). */
const EXTRA_OPTIONS: Readonly<Record<string, readonly string[]>> = { 'pre-billing': ['partner-engineer', 'partner/client'] };

export const isQueuedSave = (resource: string) => QUEUED_SAVES.has(resource);

/** The resources whose choices a queued form of this definition needs, kept while online (useOptionsOffline). */
export function offlineOptionsOf(definition: Pick<ResourceDefinition, 'name' | 'fields'>): string[] {
  const references = Object.values(definition.fields).flatMap((field) => (field.isInForm !== false && field.reference ? [field.reference.resource] : []));
  return [...new Set([...references, ...(EXTRA_OPTIONS[definition.name] ?? [])])];
}
export const isQueuedDelete = (resource: string) => QUEUED_DELETES.has(resource);
export const isQueuedTransition = (resource: string, transition: string) => QUEUED_TRANSITIONS[resource]?.includes(transition) ?? false;

/** Why a transition's button is unavailable offline (null: it may be pressed; a queued one waits in the outbox). */
export const OFFLINE_DECISION_REASON = 'You are offline. Decisions need the record as it is now, so this is available again when you are back online.';

/** While offline, the reason a transition cannot be used now, or null. */
export function useOfflineUnavailable(resource: string) {
  const { online } = useSnapshot(pwa);
  return (transition: Pick<AvailableTransition, 'name'>): string | null =>
    (online || isQueuedTransition(resource, transition.name) ? null : OFFLINE_DECISION_REASON);
}
