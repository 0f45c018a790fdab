import { Link } from 'react-router';
import { PRODUCT_NAME, SUPPORT_EMAIL } from '../../../shared/site';
import { LogoMark } from './Logo';

const links = [
  { to: '/privacy', label: 'Privacy Policy' },
  { to: '/terms', label: 'Terms of Service' },
  { to: '/support', label: 'Support' },
];

export function SiteFooter() {
  return (
    <footer className="border-t border-stone-200 bg-stone-50">
      <div className="mx-auto flex max-w-6xl flex-col gap-8 px-5 py-10 sm:px-8 md:flex-row md:items-center md:justify-between">
        <div className="space-y-2">
          <Link to="/" className="inline-flex items-center gap-2 rounded-md">
            <LogoMark className="size-7" />
            <span className="font-serif text-xl font-semibold text-ink">{PRODUCT_NAME}</span>
          </Link>
          <p className="text-sm text-stone-600">Keep a journal by text message.</p>
        </div>
        <nav aria-label="Footer">
          <ul className="flex flex-wrap gap-x-6 gap-y-2 text-sm">
            {links.map((link) => (
              <li key={link.to}>
                <Link to={link.to} className="text-stone-700 underline-offset-4 hover:text-ink hover:underline">
                  {link.label}
                </Link>
              </li>
            ))}
            <li>
              <a href={`mailto:${SUPPORT_EMAIL}`} className="text-stone-700 underline-offset-4 hover:text-ink hover:underline">
                {SUPPORT_EMAIL}
              </a>
            </li>
          </ul>
        </nav>
      </div>
      <div className="border-t border-stone-200">
        <p className="mx-auto max-w-6xl px-5 py-5 text-xs text-stone-500 sm:px-8">
          © {new Date().getFullYear()} {PRODUCT_NAME}. All rights reserved.
        </p>
      </div>
    </footer>
  );
}
