import { PRODUCT_NAME, TAGLINE } from '../../../shared/site';
import { PublicLayout } from '../../components/marketing/PublicLayout';
import { PageHead } from '../../seo/PageHead';
import { faqPageSchema, schemaGraph, webApplicationSchema } from '../../seo/schema';
import { ClosingCta } from './ClosingCta';
import { Comparison } from './Comparison';
import { Faq } from './Faq';
import { faqItems } from './faq';
import { Features } from './Features';
import { Hero } from './Hero';
import { Pricing } from './Pricing';
import { TextBanner } from './TextBanner';

const description =
  'Keep a journal by text message. Text your journal number and every message is saved to a private, encrypted journal you can search and export. No app to download. Start your 10-day free trial, no credit card required.';

const structuredData = schemaGraph(webApplicationSchema(description), faqPageSchema(faqItems));

export function LandingPage() {
  return (
    <PublicLayout>
      <PageHead
        title={`${PRODUCT_NAME}: ${TAGLINE}`}
        description={description}
        path="/"
        keywords={['journal', 'journaling', 'SMS journal', 'text message journal', 'diary', 'daily journal', 'private journal', 'journal prompts']}
        structuredData={structuredData}
      />
      <Hero />
      <Comparison />
      <Features />
      <TextBanner />
      <Pricing />
      <Faq />
      <ClosingCta />
    </PublicLayout>
  );
}
