/** The admin pages; each route wraps its page in RequireAdmin except /admin/login. */
export { AdminLoginPage } from './AdminLoginPage';
export { AdminDashboardPage } from './AdminDashboardPage';
export { AdminSubscribersPage } from './AdminSubscribersPage';
export { AdminTrialUsersPage } from './AdminTrialUsersPage';
export { AdminSmsTestingPage } from './AdminSmsTestingPage';
export { AdminUserManagementPage } from './AdminUserManagementPage';
export { RequireAdmin } from '../../features/admin/RequireAdmin';
