import { ArrowRight, Download, Lock, MessageSquareText } from 'lucide-react';
import { Link } from 'react-router';
import { messages } from '../../../shared/messages';
import { TRIAL_DAYS } from '../../../shared/limits';
import { ctaClasses } from '../../components/marketing/cta';
import { PhoneMockup } from './PhoneMockup';

const promises = [
  { icon: Lock, text: 'Encrypted at rest and in transit' },
  { icon: MessageSquareText, text: 'No app to download' },
  { icon: Download, text: 'Export any time' },
];

export function Hero() {
  return (
    <section aria-labelledby="hero-heading" className="relative overflow-hidden">
      <div aria-hidden="true" className="absolute inset-x-0 top-0 -z-10 h-[560px] bg-gradient-to-b from-brand-50/80 to-transparent" />
      <div className="mx-auto grid max-w-6xl items-center gap-14 px-5 pt-12 pb-20 sm:px-8 lg:grid-cols-[1.15fr_0.85fr] lg:gap-10 lg:pt-20 lg:pb-28">
        <div className="text-center lg:text-left">
          <p className="inline-flex items-center gap-2 rounded-full border border-brand-200 bg-white/80 px-3.5 py-1.5 text-sm font-medium text-brand-800 shadow-sm">
            <MessageSquareText aria-hidden="true" className="size-4" />
            Journaling by text message
          </p>
          <h1
            id="hero-heading"
            className="mt-6 font-serif text-5xl leading-[1.05] font-semibold tracking-tight text-balance text-ink sm:text-6xl lg:text-7xl"
          >
            {messages.landing.headline}
          </h1>
          <p className="mx-auto mt-6 max-w-xl text-lg leading-relaxed text-pretty text-stone-600 sm:text-xl lg:mx-0">
            Text your thoughts to your journal number and they're saved, one page a day. Writing an entry takes no app and no password.
            Read, search and export everything on the web.
          </p>
          <div className="mt-9 flex flex-col items-center gap-3 sm:flex-row sm:justify-center lg:justify-start">
            <Link to="/sign-up" className={ctaClasses('primary', 'xl', 'w-full sm:w-auto')}>
              {messages.landing.heroCta}
              <ArrowRight aria-hidden="true" className="size-5" />
            </Link>
            <a href="#how-it-works" className={ctaClasses('secondary', 'xl', 'w-full sm:w-auto')}>
              See how it works
            </a>
          </div>
          <p className="mt-4 text-sm text-stone-500">
            {TRIAL_DAYS}-day free trial · {messages.landing.noCardRequired}
          </p>
          <ul className="mt-10 flex flex-wrap justify-center gap-x-6 gap-y-3 text-sm text-stone-600 lg:justify-start">
            {promises.map(({ icon: Icon, text }) => (
              <li key={text} className="flex items-center gap-2">
                <Icon aria-hidden="true" className="size-4 text-brand-700" />
                {text}
              </li>
            ))}
          </ul>
        </div>
        <PhoneMockup />
      </div>
    </section>
  );
}
