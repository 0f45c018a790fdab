import { Link } from 'react-router';
import { messages } from '../../../shared/messages';
import { ctaClasses } from './cta';
import { Logo } from './Logo';

const sections = [
  { href: '/#features', label: 'Features' },
  { href: '/#pricing', label: 'Pricing' },
  { href: '/#faq', label: 'FAQ' },
];

/** The public pages' header: sections of the landing page, 'Log in' and 'Start Now'. */
export function SiteHeader() {
  return (
    <header className="sticky top-0 z-40 border-b border-stone-200/70 bg-paper/85 backdrop-blur supports-[backdrop-filter]:bg-paper/70">
      <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-4 px-5 sm:px-8">
        <Logo />
        <nav aria-label="Main" className="flex items-center gap-1 sm:gap-2">
          <ul className="mr-2 hidden items-center gap-1 md:flex">
            {sections.map((section) => (
              <li key={section.href}>
                <a href={section.href} className="rounded-md px-3 py-2 text-sm font-medium text-stone-600 hover:text-ink">
                  {section.label}
                </a>
              </li>
            ))}
          </ul>
          <Link to="/sign-in" className="rounded-md px-3 py-2 text-sm font-medium text-stone-700 hover:text-ink">
            {messages.landing.logIn}
          </Link>
          <Link to="/sign-up" className={ctaClasses('primary', 'md')}>
            {messages.landing.startNow}
          </Link>
        </nav>
      </div>
    </header>
  );
}
