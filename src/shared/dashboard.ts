// What the dashboards count (src/server/modules/dashboard: the main application's figures and panels,
// and the partner portal's): the resources whose records their queries read, each declared on its
// definition (`dashboard`; issue 25). The client refetches a dashboard after a write to one of these
// (lib/query.ts, countedBy). tests/api/dashboard-counts.test.ts reads the tables the dashboards' queries
// touch and fails when these and they drift apart: a figure added to the dashboard declares its resource.
import { resourceDefinitions } from './resources/registry';

export const DASHBOARD_COUNTS: readonly string[] = resourceDefinitions.filter((definition) => definition.dashboard).map((definition) => definition.name);
