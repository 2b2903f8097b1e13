// Issue 26 (docs/decisions/024-outbox-for-self-service.md, 033-offline-declared-on-definitions.md): which
// actions wait in the outbox when the network is down, read from the resource definitions. A definition
// opts in by declaring `offline` (its saves, deletes, the choices and reads its form needs, a screen's own
// sends) and a transition by declaring `offline` (its words). Only what people do on their own records
// declares it; decisions by managers and finance need the record as it is now (someone may have decided
// first), so they are not queued: offline, their buttons say why they are unavailable.
import { useSnapshot } from 'valtio';
import type { AvailableTransition, ResourceDefinition, TransitionDefinition } from '../../shared/resources/define';
import { resourceByName, resourceDefinitions } from '../../shared/resources/registry';
import { pwa } from '../stores/pwa';

type Values = Readonly<Record<string, unknown>>;

const offlineOf = (resource: string) => resourceByName[resource]?.offline;
const transitionOf = (resource: string, transition: string): TransitionDefinition | undefined =>
  resourceByName[resource]?.workflow?.transitions.find((t) => t.name === transition);

/** Whether a resource's create and edit (with their files) queue. */
export const isQueuedSave = (resource: string) => !!offlineOf(resource)?.saves;

/** Whether a resource's delete (a withdrawal) queues. */
export const isQueuedDelete = (resource: string) => !!offlineOf(resource)?.deletes;

/** Whether a transition is a self-service step that queues. */
export const isQueuedTransition = (resource: string, transition: string) => !!transitionOf(resource, transition)?.offline;

/** The resources whose choices a queued form of this definition needs, kept while online (useOptionsOffline). */
export function offlineOptionsOf(definition: Pick<ResourceDefinition, 'name' | 'fields' | 'offline'>): string[] {
  const references = Object.values(definition.fields).flatMap((field) => (field.isInForm !== false && field.reference ? [field.reference.resource] : []));
  return [...new Set([...references, ...(definition.offline?.options ?? [])])];
}

/** The definitions with something that queues, for the prefetch after sign-in (lib/outbox-prefetch.ts). */
export const offlineDefinitions = (): ResourceDefinition[] => resourceDefinitions.filter((definition) => !!definition.offline?.saves);

// ---- The words the outbox lists each item by, declared next to the offline declaration ----

/** A save: "Your leave application for 24–29 December 2026" (values as typed). */
export function queuedSaveWords(definition: ResourceDefinition, values: Values, isEdit: boolean): string {
  const saves = definition.offline?.saves;
  if (saves) return isEdit ? saves.edit(values) : saves.create(values);
  return `${definition.label} ${String(values[definition.titleKey] ?? '')}`.trim();
}

/** A delete: "Your expense claim “Taxi”, to withdraw" (the record as served, when the screen has it). */
export function queuedDeleteWords(definition: ResourceDefinition, record: Values): string {
  return definition.offline?.deletes?.(record) ?? `${definition.label} ${String(record[definition.titleKey] ?? '')}`.trim();
}

/** A transition: "Your leave application for 24–29 December 2026, to withdraw" (the record as served). */
export function queuedTransitionWords(definition: ResourceDefinition, transition: string, record: Values): string {
  const words = transitionOf(definition.name, transition)?.offline;
  if (words) return words(record);
  const label = transitionOf(definition.name, transition)?.label ?? transition;
  return `${label}: ${String(record[definition.titleKey] ?? '')}`;
}

/** A screen's own send (a comment, a returned copy, a time sheet): its declared words. */
export function queuedActionWords(definition: ResourceDefinition, action: string, values: Values): string {
  const words = definition.offline?.actions?.[action];
  if (!words) throw new Error(`${definition.name} declares no offline action ${action}`);
  return words(values);
}

/** Why a transition's button is unavailable offline (null: it may be pressed; a queued one waits in the outbox). */
export const OFFLINE_DECISION_REASON = 'You are offline. Decisions need the record as it is now, so this is available again when you are back online.';

/** While offline, the reason a transition cannot be used now, or null. */
export function useOfflineUnavailable(resource: string) {
  const { online } = useSnapshot(pwa);
  return (transition: Pick<AvailableTransition, 'name'>): string | null =>
    (online || isQueuedTransition(resource, transition.name) ? null : OFFLINE_DECISION_REASON);
}
