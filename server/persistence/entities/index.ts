import { Connection } from './connection.js';
import { Organization } from './organization.js';

/** Every entity Bullpen persists; one list for both databases. */
export const entities = [Organization, Connection];
