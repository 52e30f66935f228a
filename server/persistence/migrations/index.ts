import { Migration0001Organizations } from './0001-organizations.js';
import { Migration0002Connections } from './0002-connections.js';
import { Migration0003Auth } from './0003-auth.js';

/** Applied in order at startup; never edit a released migration, add a new one. */
export const migrations = [
  { name: '0001-organizations', class: Migration0001Organizations },
  { name: '0002-connections', class: Migration0002Connections },
  { name: '0003-auth', class: Migration0003Auth },
];
