// Places, clients, employee types and expense categories: plain CRUD from their definitions.
import type { FastifyInstance } from 'fastify';
import { cities, clients, countries, employeeTypes, expenseCategories } from '../../db/schema/master-data';
import { registerResource } from '../../resources/register';
import { city } from '../../../shared/resources/city';
import { client } from '../../../shared/resources/client';
import { country } from '../../../shared/resources/country';
import { employeeType } from '../../../shared/resources/employee-type';
import { expenseCategory } from '../../../shared/resources/expense-category';

export function registerMasterDataRoutes(app: FastifyInstance) {
  registerResource(app, { definition: country, table: countries, unique: ['name', 'code'] });
  registerResource(app, { definition: city, table: cities });
  registerResource(app, { definition: client, table: clients, unique: ['name'] });
  registerResource(app, { definition: employeeType, table: employeeTypes, unique: ['name'] });
  registerResource(app, { definition: expenseCategory, table: expenseCategories, unique: ['name'] });
}
