// The candidate an assessment is sent to or read for (issue 12).
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { candidates } from '../../db/schema/recruitment';
import { HttpError } from '../../plugins/errors';

export async function findCandidate(db: Db, id: number) {
  const [candidate] = await db.select({ id: candidates.id, name: candidates.name, email: candidates.email, recruiter_id: candidates.recruiter_id })
    .from(candidates).where(eq(candidates.id, id));
  if (!candidate) throw new HttpError(404, 'Candidate not found.');
  return candidate;
}
