export { SupportPage } from './SupportPage';
export { TermsPage } from './TermsPage';
