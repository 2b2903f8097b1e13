// Positions (hiring requirements): plain CRUD from the definition.
import type { FastifyInstance } from 'fastify';
import { positions } from '../../db/schema/master-data';
import { registerResource } from '../../resources/register';
import { position } from '../../../shared/resources/position';

export function registerPositionRoutes(app: FastifyInstance) {
  registerResource(app, { definition: position, table: positions });
}
