// What the dashboards count (src/server/modules/dashboard: the main application's figures and panels,
// and the partner portal's): the resources whose records their queries read. The client refetches a
// dashboard after a write to one of these (lib/query.ts, countedBy). tests/api/dashboard-counts.test.ts
// reads the tables the dashboards' queries touch and fails when this list and they drift apart: a
// figure added to the dashboard goes here too.
export const DASHBOARD_COUNTS: readonly string[] = [
  // People (cards by account type, active now) and open positions.
  'admin', 'manager', 'user', 'active-user', 'position',
  // Waiting for you: the decision lists, the caller's own documents and requests.
  'leave-application', 'expense', 'time-sheet', 'pre-billing', 'partner-invoice', 'document-assign-history', 'request',
  // Panels: expiring documents (own and library), contracts and their clients, overdue onboarding
  // tasks, the hiring funnel, the deal pipeline.
  'document', 'document-repository', 'contract', 'client', 'onboarding', 'onboarding-task', 'candidate', 'deal-tracking',
];
