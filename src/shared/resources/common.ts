// Fields and filters several definitions repeat.
import { activeStatusOptions, type FieldDefinition, type FilterDefinition } from './define';

export const statusColumn: FieldDefinition = { label: 'Status', input: 'select', options: activeStatusOptions, isColumn: true, isSortable: true, badge: true };

/** Set by the server; shown and sortable, never edited. */
export const createdAtColumn: FieldDefinition = { label: 'Created At', input: 'date', isColumn: true, isSortable: true, isInForm: false };

export const statusFilter: FilterDefinition = { key: 'status', label: 'Status', type: 'select', options: activeStatusOptions };
export const createdAtFilter: FilterDefinition = { key: 'created_at', label: 'Created', type: 'date-range' };
