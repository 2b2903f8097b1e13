// The clients a partner firm may bill on a pre-billing statement (issues 11 and 20).
import { and, asc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import { clients } from '../../db/schema/master-data';
import { contractPeople, contracts } from '../../db/schema/onboarding';
import { partnerEngineers } from '../../db/schema/partner-billing';
import { ownerIdOf } from '../../resources/workflow';
import type { ResourceContext } from '../../resources/types';

/**
 * The clients a firm may bill (issue 20): those its own engineers are placed with, that is a client
 * contract naming an engineer the firm has a rate agreed for, over a period the contract and the rate
 * share. A partner never learns of the firm's other clients, in a picker or by naming one on a line.
 */
export function billableClientsOf(partnerId: number): SQL {
  return inArray(clients.id, sql`(select ${contracts.client_id} from ${contracts}
    inner join ${contractPeople} on ${contractPeople.contract_id} = ${contracts.id}
    inner join ${partnerEngineers} on ${partnerEngineers.user_id} = ${contractPeople.user_id}
    where ${partnerEngineers.partner_id} = ${partnerId}
      and ${contracts.start_date} <= coalesce(${partnerEngineers.valid_to}, ${contracts.start_date})
      and ${contracts.end_date} >= ${partnerEngineers.valid_from})`);
}

const OPTIONS_LIMIT = 50;

/** The client choices of a partner login's statement line: active clients its firm may bill, by name. */
export async function billableClientOptions({ db, account }: ResourceContext, search: string | undefined) {
  const words = search?.trim();
  const pattern = words ? `%${words.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
  return db.select({ id: clients.id, label: clients.name }).from(clients)
    .where(and(eq(clients.status, 'active'), billableClientsOf(ownerIdOf(account)), pattern ? sql`lower(${clients.name}) like lower(${pattern})` : undefined))
    .orderBy(asc(clients.name), asc(clients.id)).limit(OPTIONS_LIMIT);
}
