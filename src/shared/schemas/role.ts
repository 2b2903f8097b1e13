// Answers of the role routes beside the generic ones (src/server/modules/role/routes.ts).
import { z } from 'zod';

/** One permission as the role form ticks it: its place on a screen and the sentence of what it opens. */
export const catalogueEntrySchema = z.object({ name: z.string(), screen: z.string(), verb: z.string(), description: z.string() });

/** GET /api/permission-groups: the stored permissions grouped by screen (groupPermissionsByScreen). */
export const permissionGroupSchema = z.object({ screen: z.string(), permissions: z.array(catalogueEntrySchema.extend({ id: z.number().int() })) });
