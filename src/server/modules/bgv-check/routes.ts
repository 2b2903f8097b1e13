// Background-verification checks: the generic routes of the check (its components made with it)
// and of its components (status, remarks and evidence files), whose changes set the check's result.
import type { FastifyInstance } from 'fastify';
import { bgvCheckComponents, bgvChecks } from '../../db/schema/operations';
import { registerResource } from '../../resources/register';
import { bgvCheck, bgvCheckComponent } from '../../../shared/resources/bgv-check';
import { checkBgvValues, createComponents, notifyDiscrepancy, refreshBgvResult, removeComponentFiles, subjectNameSql } from './service';

export function registerBgvCheckRoutes(parent: FastifyInstance) {
  registerResource(parent, {
    definition: bgvCheck,
    table: bgvChecks,
    computed: { subject_name: subjectNameSql },
    beforeCreate(values, _input, ctx) {
      checkBgvValues(values);
      return { ...values, result: 'pending', created_by: ctx.account.id };
    },
    afterCreate: (row, _input, ctx) => createComponents(ctx.db, row.id),
    beforeUpdate(values, existing) {
      checkBgvValues({ ...existing, ...values });
      return values;
    },
    beforeDelete: (existing, ctx) => removeComponentFiles(ctx.tx, existing.id),
  });

  registerResource(parent, {
    definition: bgvCheckComponent,
    table: bgvCheckComponents,
    async afterUpdate(row, existing, _input, ctx) {
      await refreshBgvResult(ctx.db, row.bgv_check_id as number);
      if (row.status === 'discrepancy' && existing.status !== 'discrepancy') await notifyDiscrepancy(ctx.tx, row, ctx.account);
    },
  });
}
