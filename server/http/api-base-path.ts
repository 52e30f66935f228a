/** Where the API lives; REST paths in procedures' meta are under it. */
export const apiBasePath = '/api';
