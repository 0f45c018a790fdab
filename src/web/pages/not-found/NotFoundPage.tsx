import { ArrowLeft } from 'lucide-react';
import { Link } from 'react-router';
import { messages } from '../../../shared/messages';
import { PublicLayout } from '../../components/marketing/PublicLayout';
import { ctaClasses } from '../../components/marketing/cta';
import { pageTitle } from '../../seo/meta';
import { PageHead } from '../../seo/PageHead';

export function NotFoundPage() {
  return (
    <PublicLayout>
      <PageHead title={pageTitle('Page not found')} robots="noindex" />
      <section aria-labelledby="not-found-heading" className="mx-auto flex max-w-xl flex-col items-center px-5 py-24 text-center sm:py-32">
        <p className="font-serif text-7xl font-semibold text-brand-700/80 sm:text-8xl" aria-hidden="true">
          404
        </p>
        <h1 id="not-found-heading" className="mt-4 font-serif text-4xl font-semibold tracking-tight text-ink sm:text-5xl">
          {messages.notFound.heading}
        </h1>
        <p className="mt-4 text-lg text-stone-600">This page seems to have slipped out of the journal. Let's get you back.</p>
        <Link to="/" className={ctaClasses('primary', 'lg', 'mt-9')}>
          <ArrowLeft aria-hidden="true" className="size-5" />
          {messages.notFound.home}
        </Link>
      </section>
    </PublicLayout>
  );
}
