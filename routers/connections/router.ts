import { router } from '../../server/trpc/init.js';
import { createConnection } from './create-connection.js';
import { deleteConnection } from './delete-connection.js';
import { getConnection } from './get-connection.js';
import { listConnections } from './list-connections.js';
import { testConnection } from './test-connection.js';
import { updateConnection } from './update-connection.js';

export const connectionsRouter = router({
  list: listConnections,
  get: getConnection,
  create: createConnection,
  update: updateConnection,
  delete: deleteConnection,
  test: testConnection,
});
