export { RequireAdmin } from './RequireAdmin';
export { adminKeys } from './queries';
